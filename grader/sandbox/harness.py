"""The test run inside the child (grader/sandbox/runner.py starts it): loads the learner's code behind the
guard and calls their function once per test.

Run as a script, never imported there: `python -I -S harness.py SETTINGS LABEL`. SETTINGS is JSON
{"limits": {RLIMIT name: value}, "python_folders": [...]}; LABEL only shows in `ps` whose run a process
belongs to. The job, {"source", "function", "calls"} (each call a JSON object of arguments), comes on
stdin; {"results": [...]} (or "syntax", "load", "missing") goes to stdout. The child never sees an
expected value. The parent imports this module only for its constants.

`python -I -S harness.py template LABEL` is the template (grader/sandbox/template.py starts it): an
interpreter with this module loaded and sealed, which never runs learner code. Its stdin is a socket to
the app; for each run the app sends SETTINGS with the job's file and the results pipe attached, and the
template forks a child that takes them as its stdin and stdout and goes on exactly as a script run
would: limits, seal, guard, learner code. The template reads nothing from the child but its exit status,
which it sends back. A forked run costs about 2 ms of CPU; a fresh sandboxed interpreter about 35 ms.

Learner code can reach this module (`import __main__`) and rebind its names, so the guard looks nothing
up there: its rules are bound into its own code and argument defaults (replacing either is an audited event
it refuses). The run's state is kept in local variables; learner code that rebinds the names run_calls uses
gains nothing it lacks already (it can write a report of its own), as the parent counts and judges every
result against values the child never sees.
"""

from __future__ import annotations

import io
import json
import os
import sys

# `typing` costs the child as much time again as the rest of its start-up, and the names are for the checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

LEARNER_FILE = "your code"   # the file name the learner's code is compiled under, which marks its frames
PRINTED_CHARS = 200   # of what one test's call prints, kept with its result
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
# Audit events refused outright, by prefix: processes, deleting and changing files, sockets, native code,
# tracing, crafted bytecode.
REFUSED_EVENTS = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.kill", "os.remove", "os.unlink", "os.rmdir",
    "os.rename", "os.mkdir", "os.mkfifo", "os.mknod", "os.chmod", "os.chown", "os.chflags", "os.truncate",
    "os.symlink", "os.link", "os.utime", "os.setxattr", "os.removexattr", "os.startfile", "subprocess.",
    "_posixsubprocess", "pty.", "socket.", "shutil.", "ctypes.", "mmap.", "sqlite3.", "webbrowser.", "fcntl.",
    "signal.pthread_kill", "syslog.", "resource.", "sys.settrace", "sys.setprofile", "sys.monitoring",
    "code.__new__", "marshal.", "cpython.", "winreg.", "msvcrt.")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# A function's attributes that decide what it does: replacing one raises an audit event the guard refuses.
GUARD_ATTRIBUTES = ("__code__", "__defaults__", "__kwdefaults__")


TEMPLATE = "template"   # the first argument that makes this the template rather than one run


def main() -> None:
    if sys.argv[1] == TEMPLATE:
        serve_runs()
    else:
        run(json.loads(sys.argv[1]))


def serve_runs() -> None:
    """The template's loop: one forked child per run, each waited for, until the app closes its end. The
    socket module (and select, which it loads) is loaded before the seal, since it may be compiled into the
    interpreter, and taken out of sys.modules in each child, where importing it is refused again. A child can
    still find this frame's locals (the detached socket, the module) by walking its stack: they reach nothing,
    as every socket the child could make or hold is refused or closed."""
    import socket

    control = socket.socket(fileno=0)
    seal_the_interpreter()
    control.send(b"ready")
    while True:
        settings, fds, _, _ = socket.recv_fds(control, 65536, 2)
        if not settings:   # the app has gone, or stopped its template
            return
        child = os.fork() if len(fds) == 2 else -1
        if child == 0:
            start_run(control, fds, settings)
        for fd in fds:
            os.close(fd)
        status = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) if child > 0 else 1
        control.send(str(status).encode())


def start_run(control: Any, fds: list[int], settings: bytes, _exit: Callable[[int], NoReturn] = os._exit) -> NoReturn:
    """In the forked child: the job's file becomes stdin and the results pipe stdout, the socket to the app is
    closed, and the run goes on as a script run's would. It never returns into the template's loop: `_exit`
    is bound here, as a default learner code cannot replace, in case the run's own exit was rebound."""
    try:
        os.dup2(fds[0], 0)   # over the socket's descriptor, which the socket object then no longer holds
        control.detach()
        os.dup2(fds[1], 1)
        for fd in fds:
            os.close(fd)
        for module in [name for name in sys.modules if name.split(".")[0] in DENIED_MODULES]:
            del sys.modules[module]   # socket's and those it loaded: importing them is refused again
        run(json.loads(settings))
    finally:
        _exit(1)


def run(settings: dict[str, Any]) -> None:
    """One run: the job from stdin, the results to stdout, under the limits and the guard."""
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    source, name, calls = job["source"], job["function"], tuple(job["calls"])
    del job
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    os.close(quiet)
    limits: dict[str, int] = settings["limits"]
    limit_settings(limits)
    seal_the_interpreter()
    sys.addaudithook(make_guard(tuple(settings["python_folders"])))

    def report(outcome: dict[str, Any]) -> NoReturn:
        results.write(json.dumps(outcome))
        results.close()
        os._exit(0)

    call_each_test = run_calls   # looked up before learner code runs, since it may rebind this module's names
    memory_mb = limits.get("RLIMIT_AS", 0) // 2**20
    namespace: dict[str, Any] = {"__name__": "learner"}
    try:
        exec(compile(source, LEARNER_FILE, "exec"), namespace)
    except SyntaxError as exc:
        report({"syntax": f"line {exc.lineno}: {exc.msg}"})
    except BaseException as exc:
        report({"load": f"{type(exc).__name__}: {exc}"[:300]})
    function = namespace.get(name)
    if not callable(function):
        report({"missing": name})
    report({"results": call_each_test(function, calls, memory_mb)})


def limit_settings(limits: dict[str, int]) -> None:
    """The child's resource limits (CPU, memory, file size, open files, no new processes), for good."""
    import resource

    for limit, value in limits.items():
        resource.setrlimit(getattr(resource, limit), (value, value))


def seal_the_interpreter() -> None:
    """Load what numeric code uses while loading is still allowed, then take away what no guard can see."""
    # The modules numeric code uses are loaded now, from their compiled files; any other import compiles
    # from source (slower, but it needs no marshal, which the guard refuses: crafted bytecode gets past
    # any in-process guard).
    for preloaded in ("bisect", "cmath", "collections", "decimal", "fractions", "functools", "heapq", "itertools",
                      "math", "operator", "random", "statistics"):
        __import__(preloaded)
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

    def refuse_builtin(spec: Any) -> NoReturn:
        raise ImportError(f"importing {spec.name} is not allowed in an exercise")

    _imp.create_builtin = refuse_builtin

    # Calls that raise no audit event, so no hook can refuse them (pidfd_send_signal kills as well as
    # os.kill does; a library written to a memfd loads as native code): taken out of the modules that hold
    # them (os copies posix's, signal copies _signal's), leaving no reference to them.
    import posix
    import signal

    c_signal = sys.modules["_signal"]   # signal's C half, loaded with it (typeshed has no stub to import it by)
    for module in (os, posix, signal, c_signal):
        for unaudited in UNAUDITED_CALLS:
            module.__dict__.pop(unaudited, None)


def make_guard(python_folders: tuple[str, ...]) -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook. Its rules are its argument defaults, a tuple fixed here (replacing it is refused like
    replacing its code), and it looks nothing up in globals or builtins that could weaken it: learner code
    may replace those, and a replaced PermissionError still raises. "".join(...) turns a str subclass with
    its own methods back into a plain str."""

    def guard(event: str, args: tuple[Any, ...], refused: tuple[str, ...] = REFUSED_EVENTS,
              denied: frozenset[str] = DENIED_MODULES, folders: tuple[str, ...] = python_folders,
              write_flags: int = WRITE_FLAGS, attributes: tuple[str, ...] = GUARD_ATTRIBUTES) -> None:
        if event.startswith(refused):
            raise PermissionError(f"{event} is not allowed in an exercise")
        # Every part of the name is checked: `x._ctypes` is _ctypes's own library under another name. A
        # library from outside the Python installation (one written to /dev/shm) is native code of its own.
        if event == "import" and not denied.isdisjoint("".join((args[0],)).split(".")):
            raise PermissionError(f"importing {args[0]} is not allowed in an exercise")
        if event == "import" and args[1] is not None and not "".join((args[1],)).startswith(folders):
            raise PermissionError("loading a library from outside Python's own folders is not allowed in an exercise")
        if event == "open" and args[2] & write_flags:
            raise PermissionError("writing files is not allowed in an exercise")
        if event in ("object.__setattr__", "object.__delattr__") and "".join((args[1],)) in attributes:
            raise PermissionError("changing a function's code is not allowed in an exercise")

    return guard


class Printed(io.StringIO):
    """What print() writes during one call: the first PRINTED_CHARS kept, the rest only counted."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        text = str(text)
        if self.size < PRINTED_CHARS:
            self.kept.append(text[:PRINTED_CHARS - self.size])
        self.size += len(text)
        return len(text)


def run_calls(function: Callable[..., Any], calls: tuple[str, ...], memory_mb: int) -> list[dict[str, Any]]:
    """One outcome per call: what the function returned ("got") or raised ("error"), and what it printed."""
    out = []
    for call in calls:
        printed = Printed()
        sys.stdout = printed
        outcome: dict[str, Any]
        try:
            value = function(**json.loads(call))
            try:
                outcome = {"got": json.loads(json.dumps(value))}
            except (TypeError, ValueError):
                outcome = {"got": repr(value)[:200]}
        except MemoryError:
            outcome = {"error": f"MemoryError: it needed more memory than a run may use ({memory_mb} MB)"}
        except BaseException as exc:
            outcome = {"error": f"{type(exc).__name__}: {exc}"[:300], "lines": learner_lines(exc)}
        kept = "".join(printed.kept) if isinstance(printed.kept, list) else ""
        if kept:
            outcome["printed"] = kept + ("…" if printed.size > PRINTED_CHARS else "")
        out.append(outcome)
    return out


def learner_lines(exc: BaseException) -> list[int]:
    """The line numbers of the learner's own frames in `exc`'s traceback, outermost first (at most 20): the
    parent shows those lines of the code it sent, and no frame of ours or of the library."""
    lines: list[int] = []
    trace = exc.__traceback__
    while trace is not None and len(lines) < 20:
        if trace.tb_frame.f_code.co_filename == LEARNER_FILE:
            lines.append(trace.tb_lineno)
        trace = trace.tb_next
    return lines


if __name__ == "__main__":
    main()

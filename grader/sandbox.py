"""Running a learner's function against an exercise's tests, in a separate, limited Python process.

This is the one place learner code runs, and never in our process: a child interpreter in isolated
mode (`-I`), in an empty temporary folder, with a CPU-time limit, an address-space limit and a wall
timeout. An audit hook in the child refuses processes, sockets, file writes and deletions: not a
security boundary against a determined attacker (that would be an OS sandbox), but it stops the
accidents and casual mischief an exercise can otherwise do to a learner's account. The child's stdout and stderr go to /dev/null, so printing a flood costs nothing; results
come back as JSON on a pipe of their own, and only so many bytes of it are read.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from grader.model import CodeTest

WALL_SECONDS = 2.0
CPU_SECONDS = 3  # a backstop past the wall clock (threads can burn CPU faster), so a busy loop meets the wall first
MEMORY_BYTES = 512 * 1024 * 1024
RESULT_LIMIT = 200_000

# Runs in the child. Reads {"source", "function", "calls"} from stdin; writes results to the fd in argv[3].
_CHILD = r"""
import json, os, resource, sys
cpu, memory = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
job = json.loads(sys.stdin.read())
results = os.fdopen(int(sys.argv[3]), "w")
quiet = os.open(os.devnull, os.O_WRONLY)
os.dup2(quiet, 1)
os.dup2(quiet, 2)

def shown(value):
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return repr(value)[:200]

BLOCKED = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.kill", "subprocess.",
           "socket.", "os.remove", "os.unlink", "os.rmdir", "os.rename", "os.mkdir", "os.chmod", "shutil.",
           "ctypes.", "os.truncate", "os.symlink", "os.link", "webbrowser.")

def guard(event, args):
    if event.startswith(BLOCKED):
        raise PermissionError(f"{event} is not allowed in an exercise")
    if event == "open" and isinstance(args[1], str) and any(c in args[1] for c in "wax+"):
        raise PermissionError("writing files is not allowed in an exercise")

sys.addaudithook(guard)
namespace = {"__name__": "learner"}
try:
    exec(compile(job["source"], "your code", "exec"), namespace)
except SyntaxError as exc:
    results.write(json.dumps({"syntax": f"line {exc.lineno}: {exc.msg}"}))
    sys.exit(0)
except BaseException as exc:
    results.write(json.dumps({"load": f"{type(exc).__name__}: {exc}"[:300]}))
    sys.exit(0)
function = namespace.get(job["function"])
if not callable(function):
    results.write(json.dumps({"missing": job["function"]}))
    sys.exit(0)
out = []
for args in job["calls"]:
    try:
        out.append({"got": shown(function(**args))})
    except BaseException as exc:
        out.append({"error": f"{type(exc).__name__}: {exc}"[:300]})
results.write(json.dumps({"results": out}))
"""


@dataclass(frozen=True)
class TestResult:
    args: dict[str, Any]
    expected: Any
    got: Any = None
    error: str = ""
    passed: bool = False
    note: str = ""


@dataclass(frozen=True)
class RunResult:
    """`problem` is set when no test could run (syntax error, missing function, timeout, crash)."""

    tests: tuple[TestResult, ...] = ()
    problem: str = ""
    unreadable: bool = False

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)


def matches(got: Any, expected: float | tuple[float, ...], tolerance: float) -> bool:
    if isinstance(expected, tuple):
        return isinstance(got, list) and len(got) == len(expected) and all(
            matches(g, e, tolerance) for g, e in zip(got, expected))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, expected, rel_tol=tolerance, abs_tol=1e-9)


def run_tests(source: str, function: str, tests: tuple[CodeTest, ...], tolerance: float = 1e-6,
              *, wall_seconds: float = WALL_SECONDS) -> RunResult:
    job = json.dumps({"source": source, "function": function, "calls": [t.args for t in tests]})
    read_end, write_end = os.pipe()
    with tempfile.TemporaryDirectory(prefix="ringbook-run-") as folder:
        try:
            child = subprocess.Popen(
                [sys.executable, "-I", "-c", _CHILD, str(CPU_SECONDS), str(MEMORY_BYTES), str(write_end)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
                env={"PATH": "/usr/bin:/bin"}, pass_fds=(write_end,), close_fds=True,
            )
        finally:
            os.close(write_end)
        try:
            child.communicate(job.encode(), timeout=wall_seconds)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            os.close(read_end)
            return RunResult(problem=f"Your code was stopped after {wall_seconds:g} s: is there a loop that never ends?")
        with os.fdopen(read_end, "rb") as results:
            raw = results.read(RESULT_LIMIT)
    return _interpret(raw, child.returncode, tests, tolerance)


def _interpret(raw: bytes, returncode: int, tests: tuple[CodeTest, ...], tolerance: float) -> RunResult:
    try:
        report = json.loads(raw.decode("utf-8", errors="replace")) if raw else {}
    except ValueError:
        report = {}
    if "syntax" in report:
        return RunResult(problem=f"Python could not read your code ({report['syntax']}).", unreadable=True)
    if "missing" in report:
        return RunResult(problem=f"Your code does not define {report['missing']}().", unreadable=True)
    if "load" in report:
        return RunResult(problem=f"Your code failed while loading: {report['load']}")
    if "results" not in report:
        if returncode in (-9, -24, 137, 152):
            return RunResult(problem="Your code was stopped: it used more than its share of CPU time.")
        return RunResult(problem="Your code stopped the test run (it may have used too much memory).")
    outcomes = []
    for test, result in zip(tests, report["results"]):
        expected = test.expected_value
        got = result.get("got")
        outcomes.append(TestResult(test.args, expected, got, result.get("error", ""),
                                   "error" not in result and matches(got, expected, tolerance), test.note))
    return RunResult(tuple(outcomes))

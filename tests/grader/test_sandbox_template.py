"""The template that forks each build run (grader/sandbox/template.py): runs share it and nothing else.

Every test here checks that its runs came from one template (its process id is the same before and after),
so a run's isolation is not just that of a fresh process."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.sandbox import template
from grader.sandbox.runner import (
    CPU_SECONDS,
    FILE_BYTES,
    MEMORY_BYTES,
    OPEN_FILES,
    WALL_SECONDS,
    find_bwrap,
    prepare_runs,
    run_tests,
    sandbox_command,
    sandbox_status,
)
from grader.sandbox.template import TEMPLATE
from tests.grader.test_sandbox import PROBE, needs_sandbox, probe, processes_labelled

pytestmark = needs_sandbox


def until(condition: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        time.sleep(0.02)


def descendants(pid: int) -> set[int]:
    """Every process under `pid`, read from /proc (a run's child is the template's)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.fixture
def warm() -> int:
    """The template's id once it has served a run: the one every run of the test must come from."""
    assert probe("return 1") == 1
    assert TEMPLATE.pid is not None
    return TEMPLATE.pid


LOOK = """
import __main__, math, os, sys, threading
fds = [fd for fd in range(64) if _open(fd)]
return {"global": hasattr(__main__, "LEFT_BEHIND"), "abs": abs(-2), "pi": math.pi,
        "module": "left_behind" in sys.modules, "env": os.environ.get("RINGBOOK_LEFT"),
        "listdir": sorted(os.listdir("/ringbook")), "threads": threading.active_count(), "fds": fds,
        "file": os.path.exists("/tmp/left"), "random": __import__("random").random()}
"""
HELPERS = """
def _open(fd):
    import os
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
"""
LEAVE = """
import __main__, builtins, math, os, sys, threading, time
done = []
def attempt(name, act):
    try:
        act()
        done.append(name)
    except BaseException:
        pass
attempt("global", lambda: setattr(__main__, "LEFT_BEHIND", 1))
attempt("builtin", lambda: setattr(builtins, "abs", lambda number: 42))
attempt("module attribute", lambda: setattr(math, "pi", 3))
attempt("module", lambda: sys.modules.__setitem__("left_behind", sys))
attempt("env", lambda: os.environ.__setitem__("RINGBOOK_LEFT", "1"))
attempt("audit hook", lambda: sys.addaudithook(lambda event, args: 1 / 0 if event == "os.listdir" else None))
attempt("fd", lambda: done.append(open("/ringbook/harness.py")))
attempt("thread", lambda: threading.Thread(target=time.sleep, args=(60,)).start())
attempt("file", lambda: open("/tmp/left", "w"))
return [str(name) for name in done if isinstance(name, str)]
"""


def test_nothing_of_one_run_reaches_the_next(warm):
    """A global, a builtin or module patched, a module added, an environment variable, an audit hook, an open
    file, a thread left running, a file written: the next run from the same template sees none of them."""
    before = probe(LOOK, prelude=HELPERS)
    left = probe(LEAVE)
    assert {"global", "builtin", "module attribute", "module", "env", "audit hook", "fd"} <= set(left), left
    assert "file" not in left   # the guard refuses it, and past the guard /tmp is read-only
    after = probe(LOOK, prelude=HELPERS)
    assert after.pop("random") != before.pop("random")   # each child's generator is seeded afresh
    assert after == before and before["threads"] == 1 and before["abs"] == 2 and before["env"] is None
    assert TEMPLATE.pid == warm


REACH_THE_TEMPLATE = """
import os, signal, stat
tried = {}
for name, act in (("kill", lambda: os.kill(os.getppid(), signal.SIGKILL)),
                  ("kill its group", lambda: os.killpg(os.getpgid(0), signal.SIGKILL)),
                  ("read its memory", lambda: open(f"/proc/{os.getppid()}/mem", "rb").read(1)),
                  ("ptrace", lambda: __import__("ctypes")),
                  ("its socket", lambda: __import__("socket")),
                  ("what socket loaded", lambda: __import__("selectors"))):
    try:
        act()
        tried[name] = "done"
    except BaseException as exc:
        tried[name] = type(exc).__name__
kinds = {}
for fd in range(64):
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        continue
    kinds[fd] = ("socket" if stat.S_ISSOCK(mode) else "pipe" if stat.S_ISFIFO(mode)
                 else "device" if stat.S_ISCHR(mode) else "other")
return [tried, kinds]
"""


def test_a_run_cannot_reach_its_template(warm):
    """Its parent is the template: the run can neither signal it nor read its memory (no /proc), and holds no
    descriptor of the template's socket, only /dev/null and its own results pipe."""
    tried, kinds = probe(REACH_THE_TEMPLATE)
    assert tried == {"kill": "PermissionError", "kill its group": "PermissionError", "ptrace": "PermissionError",
                     "read its memory": "FileNotFoundError", "its socket": "PermissionError",
                     "what socket loaded": "PermissionError"}
    assert sorted(kinds.values()) == ["device", "device", "device", "pipe"], kinds
    assert probe("return 2") == 2 and TEMPLATE.pid == warm


def test_a_run_that_hangs_takes_its_template_and_the_next_run_gets_another(warm):
    """A loop past the wall clock, and code that closes its results and then loops: each run's template and
    every process in its sandbox go, and the next run is served by a new one."""
    label = f"ringbook-builds-{os.getpid()}"
    hung = run_tests("def probe():\n    while True:\n        pass\n", "probe", PROBE, wall_seconds=0.5)
    assert hung.problem.startswith("Your code was stopped after 0.5 s")
    until(lambda: not processes_labelled(label) and not Path(f"/proc/{warm}").exists(), "the hung run's template going")
    assert probe("return 3") == 3
    second = TEMPLATE.pid
    assert second not in (None, warm)
    closes = ("import os\nfor fd in range(3, 64):\n    try:\n        os.close(fd)\n    except OSError:\n        pass\n"
              "def probe():\n    return 1\nwhile True:\n    pass\n")
    silent = run_tests(closes, "probe", PROBE)
    assert silent.problem and not silent.tests
    until(lambda: not processes_labelled(label) and not Path(f"/proc/{second}").exists(),
          "the silent run's template going")
    assert probe("return 4") == 4 and TEMPLATE.pid not in (None, second)


def test_no_run_is_left_under_the_template(warm):
    sandbox = descendants(warm)
    assert probe("import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()\nreturn 5") == 5
    assert descendants(warm) == sandbox and TEMPLATE.pid == warm


def test_the_template_outlives_the_thread_that_asked_for_it():
    """A build screen asks from a worker thread that ends at once; the template serves the runs that follow."""
    TEMPLATE.stop()
    asker = threading.Thread(target=prepare_runs)
    asker.start()
    asker.join()
    until(lambda: TEMPLATE.pid is not None, "the template starting")
    started = TEMPLATE.pid
    assert probe("return 6") == 6 and TEMPLATE.pid == started


def test_an_idle_template_is_stopped(warm, monkeypatch):
    monkeypatch.setattr(template, "IDLE_SECONDS", 0.2)
    assert probe("return 7") == 7   # wakes the keeper, which reads the idle time afresh
    until(lambda: TEMPLATE.pid is None, "the idle template stopping")
    until(lambda: not Path(f"/proc/{warm}").exists(), "its sandbox going")


APP = """
import sys, threading
from grader.exercise import CodeTest
from grader.sandbox.runner import run_tests
from grader.sandbox.template import TEMPLATE
tests = (CodeTest(args={}, expected="1"),)
run = run_tests("def f():\\n    return 1\\n", "f", tests)
print(TEMPLATE.pid if run.tests and run.tests[0].passed else "failed", flush=True)
sleeping = "import time\\ntime.sleep(120)\\ndef f():\\n    return 1\\n"
threading.Thread(target=run_tests, args=(sleeping, "f", tests), kwargs={"wall_seconds": 120}).start()
sys.stdin.read()
"""


def test_the_template_dies_with_the_app():
    """An app killed outright (no atexit) in the middle of a run that sleeps (no CPU limit will end it) leaves
    nothing behind: bubblewrap ends the sandbox, the template and the run."""
    app = subprocess.Popen([sys.executable, "-c", APP], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                           cwd=Path(__file__).resolve().parents[2])
    assert app.stdout is not None
    pid = int(app.stdout.readline())
    until(lambda: len(descendants(pid)) == 3, "the sleeping run under way")   # the sandbox's init, template, run
    assert processes_labelled(f"ringbook-builds-{app.pid}")
    app.send_signal(signal.SIGKILL)
    app.wait()
    until(lambda: not processes_labelled(f"ringbook-builds-{app.pid}") and not Path(f"/proc/{pid}").exists(),
          "the template dying with its app")


def test_the_sandbox_keeps_no_file_a_run_writes(tmp_path):
    """Past the guard, plain Python in the sandbox cannot write to its working folder or /dev/shm, which a
    template's runs share; /dev/null still takes writes."""
    attempt = ("import json\nseen = {}\nfor path in ('/tmp/left', '/dev/shm/left', '/dev/null'):\n"
               "    try:\n        open(path, 'w').write('x')\n        seen[path] = 'written'\n"
               "    except OSError as exc:\n        seen[path] = exc.strerror\nprint(json.dumps(seen))\n")
    command = [*sandbox_command(find_bwrap()[0]), os.path.realpath(sys.executable), "-I", "-S", "-c", attempt]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=60)
    read_only = "Read-only file system"
    assert json.loads(finished.stdout) == {"/tmp/left": read_only, "/dev/shm/left": read_only, "/dev/null": "written"}


def test_without_a_sandbox_no_template_starts(monkeypatch, tmp_path):
    TEMPLATE.stop()
    monkeypatch.setenv("RINGBOOK_BWRAP", str(tmp_path / "none"))
    monkeypatch.setenv("RINGBOOK_SANDBOX", "optional")
    assert sandbox_status().mode == "unsandboxed"
    prepare_runs()
    assert probe("return 8") == 8 and TEMPLATE.pid is None


def test_where_no_template_can_start_runs_go_the_old_way(monkeypatch, tmp_path):
    """A bubblewrap that starts every sandbox but the template's: each run still runs, in a fresh sandbox."""
    TEMPLATE.stop()
    wrapper = tmp_path / "bwrap"
    wrapper.write_text(f'#!/bin/sh\ncase " $* " in *" template "*) exit 1;; esac\nexec {find_bwrap()[0]} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("RINGBOOK_BWRAP", str(wrapper))
    assert sandbox_status().mode == "sandboxed"
    for number in (9, 10):
        result = run_tests(f"def probe():\n    return {number}\n", "probe", PROBE)
        assert result.sandboxed and result.tests[0].got == number
        assert TEMPLATE.pid is None


def test_each_run_from_the_template_has_the_limits_of_a_fresh_one(warm):
    limits = probe("import resource\nreturn [resource.getrlimit(getattr(resource, 'RLIMIT_' + name))[0] "
                   "for name in ('CPU', 'AS', 'FSIZE', 'NOFILE', 'NPROC', 'CORE')] + [resource.getrusage("
                   "resource.RUSAGE_SELF).ru_utime < 1]")
    assert limits == [max(CPU_SECONDS, math.ceil(WALL_SECONDS) + 1), MEMORY_BYTES, FILE_BYTES, OPEN_FILES, 0, 0,
                      True]
    assert "MemoryError" in probe("return len(bytearray(600 * 2**20))") and TEMPLATE.pid == warm


def test_a_template_that_died_while_idle_is_replaced_by_the_next_run(warm):
    # On a busy host the template that served `warm` was seen replaced at once by another (the keeper's own
    # start racing the run's): the one killed is the one running now.
    dead = TEMPLATE.pid
    assert dead is not None
    os.killpg(dead, signal.SIGKILL)   # bubblewrap's process group: the template and its sandbox
    until(lambda: TEMPLATE.pid != dead, "the template's death seen")
    assert probe("return 11") == 11 and TEMPLATE.pid not in (None, dead)


def test_a_second_run_at_the_same_moment_goes_the_old_way(warm):
    """One run at a time per template: a second run meanwhile gets a sandbox of its own (its parent is that
    sandbox's init, not the template), and the template serves the next run."""
    assert probe("import os\nreturn os.getppid()") == 2   # the template, the sandbox's second process
    slow = threading.Thread(target=probe, args=("import time\ntime.sleep(1)\nreturn 0",))
    slow.start()
    until(lambda: len(descendants(warm)) == 3, "the first run under way")
    assert probe("import os\nreturn os.getppid()") == 1
    slow.join()
    assert probe("import os\nreturn os.getppid()") == 2 and TEMPLATE.pid == warm

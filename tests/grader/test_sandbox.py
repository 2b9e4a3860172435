"""Learner code for build exercises runs in a separate, limited process, and cannot hurt the learner."""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from textual.widgets import TextArea

import grader.sandbox.runner
from grader.exercise import CodeTest
from grader.grade import grade
from grader.kinds.build import Build
from grader.sandbox.runner import (
    BWRAP_SETTING,
    HARNESS_FILE,
    HARNESS_IN_SANDBOX,
    RESULT_LIMIT,
    SANDBOX_SETTING,
    WALL_SECONDS,
    allow_unsandboxed,
    find_bwrap,
    run_tests,
    sandbox_command,
    sandbox_status,
)
from tests.built_in import builtin_book
from tests.helpers import open_exercise, ringbook_app, ringbook_subprocess, settle, text_of

BOOK = builtin_book()
BUILDS = [e.id for e in BOOK.exercises if isinstance(e, Build)]
RING = BOOK.exercise("0.5")
HEADER = "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n"


@pytest.mark.parametrize("exercise_id", BUILDS)
def test_reference_solution_passes_through_the_sandbox(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    verdict = grade(exercise, exercise.solution)
    assert verdict.status == "correct", verdict.message
    assert len(verdict.rows) == len(exercise.tests)


@pytest.mark.parametrize("exercise_id", BUILDS)
def test_starter_fails_every_test_with_a_readable_row(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    verdict = grade(exercise, exercise.starter)
    assert verdict.status == "incorrect"
    assert verdict.message == f"0 of {len(exercise.tests)} tests pass."
    assert all("NotImplementedError" in row.message and "expected" in row.message for row in verdict.rows)


def test_a_near_miss_names_the_failing_case():
    verdict = grade(RING, HEADER + "    return 2 * (n - 1) * m_gb / n / bw_gbs * 1000\n")
    assert verdict.status == "incorrect" and "tests pass" in verdict.message
    assert "latency_us=5" in verdict.feedback and "expected" in verdict.feedback and "got" in verdict.feedback


def test_an_infinite_loop_is_stopped_and_says_so():
    verdict = grade(RING, HEADER + "    while True:\n        pass\n")
    assert verdict.status == "incorrect" and f"stopped after {WALL_SECONDS:g} s" in verdict.message


def test_an_output_flood_is_harmless():
    verdict = grade(RING, HEADER + "    for _ in range(10**6):\n        print('x' * 100)\n    return 0\n")
    assert verdict.status == "incorrect"


def test_a_memory_bomb_is_contained():
    verdict = grade(RING, HEADER + "    return len([0] * 10**10)\n")
    assert verdict.status == "incorrect"
    assert all("MemoryError" in row.message for row in verdict.rows)


@pytest.mark.parametrize("source, fragment", [
    ("def ring_allreduce_time(:\n", "could not read your code (line 1"),
    ("def other():\n    return 1\n", "does not define ring_allreduce_time()"),
])
def test_unreadable_code_is_invalid_and_costs_nothing(source, fragment):
    verdict = grade(RING, source)
    assert verdict.status == "invalid" and fragment in verdict.message
    assert not verdict.counts_as_attempt


@pytest.mark.parametrize("attack", [
    "import os\nos.system('touch {target}')\n",
    "open('{target}', 'w').write('x')\n",
    "import subprocess\nsubprocess.run(['touch', '{target}'])\n",
    "import shutil\nshutil.copy('/etc/hostname', '{target}')\n",
    "import os\nos.remove('{victim}')\n",
])
def test_side_effects_are_refused(attack, tmp_path):
    target, victim = tmp_path / "pwned", tmp_path / "keep"
    victim.write_text("precious")
    verdict = grade(RING, attack.format(target=target, victim=victim) + HEADER + "    return 0\n")
    assert verdict.status == "incorrect" and "not allowed" in verdict.message
    assert not target.exists() and victim.read_text() == "precious"


def test_imports_and_reading_still_work():
    source = ("import math\n" + HEADER
              + "    return math.fsum([2 * (n - 1) * (m_gb / n / bw_gbs * 1000 + latency_us / 1000)])\n")
    assert run_tests(source, RING.function, RING.tests, RING.tolerance).passed == len(RING.tests)


# --- the sandbox and the harness under attack ----------------------------------------------------------
#
# Each attack runs twice: inside bubblewrap where this machine can start it (skipped with the reason where
# it cannot), and without a sandbox, where the child's own limits and audit hook are all that stands.

SANDBOX_HERE = sandbox_status()
needs_sandbox = pytest.mark.skipif(SANDBOX_HERE.mode != "sandboxed",
                                   reason=f"no working bubblewrap on this machine: {SANDBOX_HERE.why}")
PROBE = (CodeTest(args={}, expected="0"),)  # one call of probe(), whose return value the test inspects


@pytest.fixture(autouse=True)
def learner_choice_is_reset(monkeypatch):
    """Tests that do not pick a mode run sandboxed where they can, else unsandboxed; nobody's choice leaks."""
    if SANDBOX_HERE.mode == "sandboxed":
        monkeypatch.delenv(SANDBOX_SETTING, raising=False)
    else:
        monkeypatch.setenv(SANDBOX_SETTING, "optional")
    yield
    allow_unsandboxed(False)


def no_sandbox(monkeypatch, tmp_path, setting: str | None = None) -> None:
    monkeypatch.setenv(BWRAP_SETTING, str(tmp_path / "no-bwrap-here"))
    if setting is None:
        monkeypatch.delenv(SANDBOX_SETTING, raising=False)
    else:
        monkeypatch.setenv(SANDBOX_SETTING, setting)


@pytest.fixture(params=["sandboxed", "unsandboxed"])
def mode(request, monkeypatch, tmp_path) -> str:
    if request.param == "sandboxed":
        if SANDBOX_HERE.mode != "sandboxed":
            pytest.skip(f"no working bubblewrap on this machine: {SANDBOX_HERE.why}")
    else:
        no_sandbox(monkeypatch, tmp_path, "optional")
    assert sandbox_status().mode == request.param
    return request.param


def probe(body: str, prelude: str = "") -> object:
    """What probe() returned in the child: `body` is its code, indented by four spaces."""
    source = prelude + "def probe():\n" + "".join(f"    {line}\n" for line in body.strip("\n").splitlines())
    result = run_tests(source, "probe", PROBE)
    assert not result.problem, result.problem
    return result.tests[0].got if not result.tests[0].error else result.tests[0].error


def processes_labelled(label: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if label.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def outlived(label: str) -> list[int]:
    """Processes still carrying `label`, once a dying sandbox has had up to five seconds to be reaped."""
    deadline = time.monotonic() + 5
    while (found := processes_labelled(label)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


@pytest.fixture
def secrets(tmp_path, store):
    """Files the child must not read: system, the learner's home, another folder, the parent's environment,
    the store."""
    home_secret = Path.home() / f".ringbook-test-secret-{uuid.uuid4().hex}"
    home_secret.write_text("home secret")
    (tmp_path / "secret.txt").write_text("folder secret")
    yield ["/etc/passwd", str(home_secret), str(tmp_path / "secret.txt"), f"/proc/{os.getpid()}/environ",
           str(store.path)]
    home_secret.unlink()


READS = """
seen = []
for path in {paths!r}:
    try:
        with open(path, "rb") as file:
            seen.append(file.read(200).decode("utf-8", "replace"))
    except OSError as exc:
        seen.append(type(exc).__name__)
return seen
"""


@needs_sandbox
def test_sandboxed_code_reads_nothing_of_the_host(secrets):
    seen = probe(READS.format(paths=secrets))
    assert seen == ["FileNotFoundError"] * len(secrets)
    listing = probe("import os\nreturn sorted(os.listdir('/'))")
    assert set(listing) <= {"dev", "lib", "lib32", "lib64", "libx32", "tmp", "usr", "ringbook",
                            *Path(sys.base_prefix).parts[1:2]}
    assert "etc" not in listing and "home" not in listing and "proc" not in listing


@needs_sandbox
def test_the_harness_is_the_one_file_of_ringbook_in_the_sandbox():
    """The harness runs from a file bound alone into the sandbox: the rest of grader/ (and the book, and the
    virtual environment) stays outside, and the bound file is the harness itself, read-only."""
    ours = Path(grader.sandbox.runner.__file__).resolve()
    seen = probe(f"import os\nfolder = os.path.dirname({HARNESS_IN_SANDBOX!r})\n"
                 f"return [sorted(os.listdir(folder)), open({HARNESS_IN_SANDBOX!r}).read(),\n"
                 f"        [os.path.exists(p) for p in {[str(ours), str(ours.parents[2]), sys.prefix]!r}]]")
    assert seen == [["harness.py"], Path(HARNESS_FILE).read_text(), [False, False, False]]


def test_writing_anywhere_is_refused(mode, tmp_path):
    target, victim = tmp_path / "pwned", tmp_path / "keep"
    victim.write_text("precious")
    attacks = [f"os.close(os.open({str(target)!r}, os.O_WRONLY | os.O_CREAT))",
               f"os.close(os.open({str(victim)!r}, os.O_WRONLY | os.O_TRUNC))",
               f"open({str(victim)!r}, 'r+b').write(b'x')",
               "os.close(os.open('/tmp/inside', os.O_RDWR | os.O_CREAT))"]
    for attack in attacks:
        got = probe(f"import os\n{attack}\nreturn 'written'")
        assert got.startswith("PermissionError") and "not allowed" in got, (attack, got)
    assert not target.exists() and victim.read_text() == "precious"


def test_the_progress_store_cannot_be_opened_or_forged(mode, store):
    before = {p.name: p.read_bytes() for p in store.path.parent.iterdir() if p.is_file()}
    forge = (f"import sqlite3\ndb = sqlite3.connect({str(store.path)!r})\n"
             "db.execute(\"insert into attempts (exercise_id, answer, status) values ('0.1', 'x', 'correct')\")\n"
             "db.commit()\nreturn 'forged'")
    got = probe(forge)
    assert got.startswith("PermissionError") and "sqlite3" in got
    assert {p.name: p.read_bytes() for p in store.path.parent.iterdir() if p.is_file()} == before
    assert store.attempts() == [] and store.exercise_states() == {}


SWITCH_OFFS = {
    "the old block list": "import __main__\n__main__.BLOCKED = ('x',)\n",
    "a muted sys.audit": "import sys\nsys.audit = lambda *args, **kwargs: None\n",
    "the hook's code replaced": ("import gc\nfor f in gc.get_objects():\n"
                                 "    if getattr(f, '__name__', '') == 'guard':\n"
                                 "        f.__code__ = (lambda event, args: None).__code__\n"),
    "its exception replaced": "import builtins\nbuiltins.PermissionError = None\n",
    # The harness is a module of its own, run as __main__: its rules are names learner code can rebind there.
    "the harness's rules rebound": ("import __main__\n__main__.REFUSED_EVENTS = ('x',)\n"
                                    "__main__.DENIED_MODULES = frozenset()\n__main__.WRITE_FLAGS = 0\n"
                                    "__main__.make_guard = lambda folders: (lambda event, args: None)\n"),
    "the hook's defaults replaced": ("import gc\nfor f in gc.get_objects():\n"
                                     "    if getattr(f, '__name__', '') == 'guard':\n"
                                     "        f.__defaults__ = (('x',), frozenset(), ('/',), 0, ())\n"),
}


@pytest.mark.parametrize("switch_off", SWITCH_OFFS.values(), ids=SWITCH_OFFS.keys())
def test_switching_the_guard_off_opens_no_network_and_starts_no_program(mode, switch_off, tmp_path):
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    marker = tmp_path / "started"
    reach = f"""
outcomes = []
for attempt in (
    lambda: __import__('socket').create_connection(('127.0.0.1', {listener.getsockname()[1]}), timeout=1),
    lambda: __import__('subprocess').run(['touch', {str(marker)!r}]),
    lambda: __import__('os').system('touch {marker}'),
    lambda: __import__('_posixsubprocess'),
):
    try:
        attempt()
        outcomes.append('done')
    except BaseException as exc:
        outcomes.append(type(exc).__name__)
return outcomes
"""
    source = switch_off + "def probe():\n" + "".join(f"    {line}\n" for line in reach.strip().splitlines())
    result = run_tests(source, "probe", PROBE)
    with listener, pytest.raises(TimeoutError):
        listener.accept()
    assert not marker.exists()
    assert "done" not in str(result.tests[0].got if result.tests else result.problem)


def test_fork_exec_without_an_audit_event_is_refused(mode, tmp_path):
    """subprocess with sys.audit muted reaches _posixsubprocess.fork_exec, which raises no audit event."""
    marker = tmp_path / "forked"
    got = probe(f"import sys\nsys.audit = lambda *a, **k: None\nimport subprocess\n"
                f"subprocess.Popen(['sh', '-c', 'touch {marker}'], start_new_session=True).wait()\nreturn 'ran'")
    assert got.startswith("PermissionError") and "not allowed" in got
    assert not marker.exists()


ESCAPES = """
import os
import shutil
label = 'ringbook-escape-{tag}'
started = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            os.setsid()
            os.execv('/bin/sh', ['sh', '-c', 'sleep 30; echo ' + label])
        started += 1
    except BaseException:
        pass
return started
"""


def test_no_process_outlives_the_run(mode):
    tag = uuid.uuid4().hex
    got = probe(ESCAPES.format(tag=tag), prelude=SWITCH_OFFS["the old block list"])
    assert got == 0
    assert outlived(f"ringbook-escape-{tag}") == []
    assert outlived(f"ringbook-build-{os.getpid()}") == []


SANDBOX_ALONE = r"""
import json, os, socket, sys, time
paths, target, port, tag = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
seen = {}
for path in paths:
    try:
        seen[path] = open(path, 'rb').read(100).decode('utf-8', 'replace')
    except OSError as exc:
        seen[path] = type(exc).__name__
for name, act in (('write', lambda: os.close(os.open(target, os.O_WRONLY | os.O_CREAT))),
                  ('usr', lambda: os.mkdir('/usr/ringbook-test-' + tag)),
                  ('connect', lambda: socket.create_connection(('127.0.0.1', port), timeout=1))):
    try:
        act()
        seen[name] = 'done'
    except OSError as exc:
        seen[name] = type(exc).__name__
print(json.dumps(seen), flush=True)
for _ in range(200):
    if os.fork() == 0:
        if os.fork() == 0:
            os.setsid()
            time.sleep(30)
        os._exit(0)
"""


@needs_sandbox
def test_the_sandbox_alone_confines_code_that_passes_the_guard(secrets, tmp_path):
    """Without the harness and its hook, plain Python in the sandbox still reads, writes and reaches nothing,
    and its 200 forked, setsid children die with it."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    tag = uuid.uuid4().hex
    target = tmp_path / "written"
    command = [*sandbox_command(find_bwrap()[0]), os.path.realpath(sys.executable), "-I", "-S", "-c", SANDBOX_ALONE,
               json.dumps(secrets), str(target), str(listener.getsockname()[1]), f"ringbook-alone-{tag}"]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr
    seen = json.loads(finished.stdout)
    assert [seen[path] for path in secrets] == ["FileNotFoundError"] * len(secrets)
    assert seen["write"] == "FileNotFoundError" and seen["usr"] == "OSError"  # a read-only filesystem
    assert seen["connect"] == "ConnectionRefusedError"          # its own loopback, where nothing listens
    assert not target.exists() and not Path(f"/usr/ringbook-test-{tag}").exists()
    with listener, pytest.raises(TimeoutError):
        listener.accept()
    assert outlived(f"ringbook-alone-{tag}") == []


# --- grading integrity ----------------------------------------------------------------------------------


def test_clearing_the_calls_does_not_pass(mode):
    verdict = grade(RING, "import __main__\n__main__.job['calls'].clear()\n" + RING.solution)
    assert verdict.status == "incorrect"
    attack = ("import sys\n"
              "def _clear():\n"
              "    frame = sys._getframe(1)\n"
              "    while frame:\n"
              "        for value in list(frame.f_locals.values()):\n"
              "            if isinstance(value, list):\n"
              "                value.clear()\n"
              "        frame = frame.f_back\n" + RING.solution +
              "_solved = ring_allreduce_time\n"
              "def ring_allreduce_time(**args):\n"
              "    _clear()\n"
              "    return _solved(**args)\n")
    verdict = grade(RING, attack)
    assert verdict.status == "incorrect" and not verdict.message.startswith("All")


def test_a_forged_report_does_not_pass(mode):
    forge = HEADER + ("    import os\n"
                      "    for fd in range(3, 64):\n"
                      "        try:\n"
                      "            os.write(fd, b'{\"results\": []}')\n"
                      "        except OSError:\n"
                      "            pass\n"
                      "    os._exit(0)\n")
    verdict = grade(RING, forge)
    assert verdict.status == "incorrect"
    assert verdict.message.startswith(f"The test run reported 0 results for {len(RING.tests)} tests")
    garbage = HEADER + "    import os\n    os.write(3, b'[1, 2')\n    return 0\n"
    assert grade(RING, garbage).status == "incorrect"


def test_an_error_names_the_learners_own_lines_outermost_first():
    """Found (issue 46): an exception said `got ZeroDivisionError: division by zero` and no line of the code."""
    source = ("def share(a, b):\n    return a / b\n\n"
              "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    return share(m_gb, latency_us)\n")
    run = run_tests(source, RING.function, RING.tests)
    failed = [t for t in run.tests if t.error]
    assert failed and all(t.error == "ZeroDivisionError: division by zero" for t in failed)
    assert all(t.trace == ((5, "return share(m_gb, latency_us)"), (2, "return a / b")) for t in failed)
    assert all(t.trace == () for t in run.tests if not t.error)


def test_a_forged_trace_shows_only_lines_of_the_code_sent(mode):
    """The child reports line numbers only; the parent shows its own copy of those lines, and drops any number
    that is not one of them (a report the learner's code wrote may hold anything)."""
    results = json.dumps({"results": [{"error": "E", "lines": [999, "2", 0, 2, True]}] * len(RING.tests)})
    forge = HEADER + ("    import os\n"
                      "    for fd in range(3, 64):\n"
                      "        try:\n"
                      f"            os.write(fd, {results.encode()!r})\n"
                      "        except OSError:\n"
                      "            pass\n"
                      "    os._exit(0)\n")
    run = run_tests(forge, RING.function, RING.tests)
    assert run.tests and all(t.trace == ((2, "import os"),) for t in run.tests)


def test_expected_values_never_reach_the_child(mode):
    test = CodeTest(args={"x": 2}, expected="x * 48271.9173")  # 96543.8346: nowhere in the child if never sent
    source = ("import gc, sys\n"
              "def probe(x):\n"
              "    seen = repr(sys.argv) + ''.join(repr(o)[:10000] for o in gc.get_objects())\n"
              # the two numbers are not in the source either
              "    return [str(float('96542.83') + 1) in seen, str(float('48270.91') + 1) in seen]\n")
    result = run_tests(source, "probe", (test,))
    assert result.tests[0].got == [False, False]


def test_twenty_thousand_floats_are_reported_as_too_much_output(mode):
    verdict = grade(RING, HEADER + "    return [1.5] * 20_000\n")
    assert verdict.status == "incorrect"
    assert verdict.message.startswith("Your function returned more output than ringbook reads: ")
    assert f"at most {RESULT_LIMIT:,} are read" in verdict.message and "loop" not in verdict.message


# --- where no sandbox is available: said, and never silent -------------------------------------------------


def test_without_a_sandbox_code_runs_only_once_allowed(monkeypatch, tmp_path):
    no_sandbox(monkeypatch, tmp_path)
    status = sandbox_status()
    assert status.mode == "refused" and status.can_allow
    assert status.why.startswith("RINGBOOK_BWRAP names") and status.why.endswith("which is not a program")
    verdict = grade(RING, RING.solution)
    assert verdict.status == "invalid" and not verdict.counts_as_attempt
    assert verdict.message.startswith("Your code was not run:") and "--allow-unsandboxed" in verdict.message
    allow_unsandboxed()
    assert sandbox_status().mode == "unsandboxed"
    verdict = grade(RING, RING.solution)
    assert verdict.status == "correct" and verdict.value.sandboxed is False


def test_an_installation_can_require_the_sandbox(monkeypatch, tmp_path):
    no_sandbox(monkeypatch, tmp_path, "required")
    allow_unsandboxed()
    status = sandbox_status()
    assert status.mode == "refused" and not status.can_allow
    assert "press" not in status.notice("Press u.").lower()
    verdict = grade(RING, RING.solution)
    assert verdict.status == "invalid" and "only in a sandbox" in verdict.message


def ringbook_check(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return ringbook_subprocess("check", *args, env=env)


def test_ringbook_check_says_when_code_cannot_run_sandboxed(tmp_path):
    env = {BWRAP_SETTING: str(tmp_path / "no-bwrap-here"), SANDBOX_SETTING: ""}
    refused = ringbook_check("0.5", RING.solution, env=env)
    assert refused.returncode == 2 and refused.stdout.startswith("invalid: Your code was not run")
    assert "cannot run in a sandbox here" in refused.stderr and "--allow-unsandboxed" in refused.stderr
    allowed = ringbook_check("--allow-unsandboxed", "0.5", RING.solution, env=env)
    assert allowed.returncode == 0 and allowed.stdout.startswith("correct:")
    assert "Your code runs without a sandbox" in allowed.stderr and "can read any file you can" in allowed.stderr


@needs_sandbox
def test_ringbook_check_is_quiet_when_sandboxed():
    checked = ringbook_check("0.5", RING.solution, env={SANDBOX_SETTING: ""})
    assert checked.returncode == 0 and checked.stderr == ""


async def test_the_build_screen_says_so_and_lets_the_learner_allow_it(book, store, monkeypatch, tmp_path):
    no_sandbox(monkeypatch, tmp_path)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        await settle(app, pilot)
        notice = screen.query_one("#sandbox-notice")
        assert notice.display and "cannot run in a sandbox here" in text_of(notice)
        assert "press Escape and then u" in text_of(notice)
        screen.query_one("#editor", TextArea).text = RING.solution
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "Your code was not run" in text_of(screen.query_one("#verdict"))
        assert store.attempts("0.5") == []                       # refused is not an attempt
        await pilot.press("escape", "u")
        await pilot.pause()
        assert "Your code runs without a sandbox" in text_of(notice)
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "All 5 tests pass" in text_of(screen.query_one("#verdict"))
    assert [a.status for a in store.attempts("0.5")] == ["correct"]


@needs_sandbox
async def test_the_build_screen_is_quiet_when_sandboxed(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        await settle(app, pilot)
        assert not screen.query_one("#sandbox-notice").display
        await pilot.press("escape", "u")
        await pilot.pause()
        assert not screen.query_one("#sandbox-notice").display


async def test_what_the_code_says_is_shown_as_text_never_as_markup_or_escapes(book, store):
    raising = HEADER + "    raise ValueError('[/oops] \\x1b[2J [bold]x')\n"
    verdict = grade(RING, raising)
    assert "\x1b" not in verdict.feedback and "\\x1b[2J" in verdict.feedback
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        screen.query_one("#editor", TextArea).text = raising
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "ValueError: [/oops] \\x1b[2J [bold]x" in text_of(screen.query_one("#verdict-details"))


def test_modules_built_into_python_cannot_be_made_behind_the_guards_back(mode):
    """Debian's Python has _posixsubprocess compiled in, and _imp.create_builtin raises no audit event."""
    got = probe("import _imp, importlib.machinery\n"
                "return str(_imp.create_builtin(importlib.machinery.ModuleSpec('_posixsubprocess', None)))")
    assert got.startswith("ImportError") and "not allowed" in got
    assert probe("import gc, datetime, struct\nreturn 'imported'") == "imported"


REACH_ANOTHER_PROCESS = """
import os, signal
done = []
for name, act in (
        ("pidfd_send_signal", lambda: signal.pidfd_send_signal(os.pidfd_open({pid}), signal.SIGKILL)),
        ("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, {pid}, 19)),
        ("sched_setscheduler", lambda: os.sched_setscheduler({pid}, os.SCHED_IDLE, os.sched_param(0))),
        ("sched_setaffinity", lambda: os.sched_setaffinity({pid}, {{0}}))):
    try:
        act()
        done.append(name)
    except BaseException as exc:
        pass
return done
"""


def test_code_cannot_signal_or_slow_another_process_of_the_learner(mode):
    """Issue 22.6: os.kill is refused by the guard, but os.pidfd_open and signal.pidfd_send_signal raise no
    audit event, so unsandboxed code killed another process of the learner's with them; setpriority and
    the sched_* calls (no audit event either) could starve one. None of them is there for learner code."""
    victim = subprocess.Popen(["sleep", "60"])
    try:
        before = (os.getpriority(os.PRIO_PROCESS, victim.pid), os.sched_getscheduler(victim.pid),
                  os.sched_getaffinity(victim.pid))
        assert probe(REACH_ANOTHER_PROCESS.format(pid=victim.pid)) == []
        assert victim.poll() is None, "the learner's other process was killed"
        assert (os.getpriority(os.PRIO_PROCESS, victim.pid), os.sched_getscheduler(victim.pid),
                os.sched_getaffinity(victim.pid)) == before
        assert probe("import os, posix, signal, _signal\nreturn [hasattr(m, n) for m in (os, posix) "
                     "for n in ('pidfd_open', 'setpriority')] + [hasattr(signal, 'pidfd_send_signal'), "
                     "hasattr(_signal, 'pidfd_send_signal')]") == [False] * 6
    finally:
        victim.kill()
        victim.wait()


NATIVE_FROM_MEMORY = r"""
import base64, importlib.machinery, importlib.util, os
fd = os.memfd_create("lib")
os.write(fd, base64.b64decode({payload!r}))
spec = importlib.util.spec_from_loader("evil", importlib.machinery.ExtensionFileLoader("evil", f"/proc/self/fd/{{fd}}"))
importlib.util.module_from_spec(spec)
return "loaded"
"""


NATIVE_FROM_SHARED_MEMORY = r"""
import base64, importlib.machinery, importlib.util, os
import _posixshmem
fd = _posixshmem.shm_open("/ringbook-{tag}", os.O_CREAT | os.O_RDWR, 0o700)
os.write(fd, base64.b64decode({payload!r}))
loader = importlib.machinery.ExtensionFileLoader("evil", "/dev/shm/ringbook-{tag}")
spec = importlib.util.spec_from_loader("evil", loader)
importlib.util.module_from_spec(spec)
return "loaded"
"""

NATIVE_FROM_SHARED_MEMORY_BY_PATH = r"""
import importlib.machinery, importlib.util
spec = importlib.util.spec_from_loader("evil", importlib.machinery.ExtensionFileLoader("evil", {path!r}))
importlib.util.module_from_spec(spec)
return "loaded"
"""

CTYPES_UNDER_ANOTHER_NAME = r"""
import importlib.machinery, importlib.util, os, sys
folder = next(p for p in sys.path if p.endswith("lib-dynload"))
library = next(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("_ctypes."))
spec = importlib.util.spec_from_loader("x._ctypes", importlib.machinery.ExtensionFileLoader("x._ctypes", library))
return str(importlib.util.module_from_spec(spec))
"""


@pytest.fixture
def evil_library(tmp_path) -> tuple[Path, Path]:
    """A shared library whose init function creates a marker file: (the library, the marker)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the library the attack loads")
    marker = tmp_path / "native-code-ran"
    source = tmp_path / "evil.c"
    source.write_text(f'#include <stdio.h>\nvoid *PyInit_evil(void) {{ FILE *f = fopen("{marker}", "w"); '
                      'if (f) fclose(f); return 0; }\n')
    subprocess.run([compiler, "-shared", "-fPIC", "-o", tmp_path / "evil.so", source], check=True)
    return tmp_path / "evil.so", marker


def test_native_code_cannot_be_written_to_memory_and_loaded(mode, evil_library):
    """Found while attacking item 22.6: os.memfd_create and os.write raise no audit event, so code could
    write a shared library into memory and load it as an extension module (the only event, `import`, names
    a module the guard allows); its C code then ran with none of the guard's rules, here creating a file."""
    library, marker = evil_library
    got = probe(NATIVE_FROM_MEMORY.format(payload=base64.b64encode(library.read_bytes()).decode()))
    assert not marker.exists(), "the library's code ran"
    assert got.startswith("AttributeError") and "memfd_create" in got, got


def test_no_library_from_shared_memory_or_under_another_name(mode, evil_library):
    """Then _posixshmem.shm_open (no audit event either) wrote the library to /dev/shm, a file written past
    the guard, and it loaded; and _ctypes's own library loaded as `x._ctypes`, since only the first part
    of a name was checked. A library from outside Python's folders is refused however it got there."""
    library, marker = evil_library
    tag = uuid.uuid4().hex
    got = probe(NATIVE_FROM_SHARED_MEMORY.format(payload=base64.b64encode(library.read_bytes()).decode(), tag=tag))
    assert got.startswith("PermissionError") and "importing _posixshmem is not allowed" in got, got
    assert not Path(f"/dev/shm/ringbook-{tag}").exists()
    got = probe(NATIVE_FROM_SHARED_MEMORY_BY_PATH.format(path=str(library)))   # a library already on disk
    assert got.startswith(("PermissionError", "ImportError")), got
    if mode == "unsandboxed":   # in the sandbox the file is not there at all
        assert "outside Python's own folders" in got, got
    assert not marker.exists(), "the library's code ran"
    got = probe(CTYPES_UNDER_ANOTHER_NAME)
    assert got.startswith("PermissionError") and "importing x._ctypes is not allowed" in got, got

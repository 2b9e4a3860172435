"""Shared fixtures: the built-in book, and throwaway copies of it to break."""

from __future__ import annotations

import compileall
import functools
import gc
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_textual_snapshot  # type: ignore[import-untyped]  # it ships no type information
import textual.constants
from hypothesis import HealthCheck, settings

from grader.book import cache as book_cache
from grader.book.load import BUILTIN_CONTENT, load_book
from grader.sandbox.runner import SANDBOX_SETTING, allow_unsandboxed, sandbox_status
from tests.built_in import book_of_chapters, builtin_book
from tui.progress.store import ProgressStore


@pytest.fixture(scope="session")
def book():
    return builtin_book()


@pytest.fixture
def book_copy(tmp_path: Path) -> Path:
    """A copy of the built-in content folder that a test may damage."""
    target = tmp_path / "content"
    shutil.copytree(BUILTIN_CONTENT, target)
    return target


@pytest.fixture
def chapters_copy(tmp_path: Path) -> Callable[..., Path]:
    """`chapters_copy("00-ring-allreduce", lab=False)`: a book of just those built-in chapters that a test may
    damage (tests.built_in.book_of_chapters). Checking it costs a chapter's worth, not the whole book's."""
    return functools.partial(book_of_chapters, tmp_path / "content")


@pytest.fixture
def ringbook(capsys, monkeypatch):
    """`ringbook(*ARGS, stdin="")`: the command by its entry point in this process, as a CompletedProcess (a child
    process costs a second of start-up a test; tests.helpers.ringbook_subprocess starts one where it matters)."""
    from tests.helpers import ringbook_in_process  # the app's modules, loaded by the tests that need them

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code, out, err = ringbook_in_process(capsys, *args)
        except SystemExit as exit:   # argparse's -h and its usage errors
            code, (out, err) = int(exit.code or 0), capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)
    return run


# --- snapshots live in the top-level snapshots/ folder ----------------------------------------------

SNAPSHOT_ROOT = Path(__file__).resolve().parent.parent / "snapshots"


class RingbookSVGExtension(pytest_textual_snapshot.SVGImageExtension):
    """Stores each test module's SVGs in snapshots/<module>/ instead of beside the tests."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(SNAPSHOT_ROOT / Path(test_location.filepath).stem)


# snap_compare looks its extension up by this module-level name when it runs.
pytest_textual_snapshot.SVGImageExtension = RingbookSVGExtension


# --- Ctrl+C, as at a terminal ---------------------------------------------------------------------------
# A suite started in the background of a non-interactive shell (`... &`, as a CI script or nohup may start it)
# inherits SIGINT ignored, uv passes that on, and so does every command a test starts: the watching commands
# that tests stop with Ctrl+C (`ringbook work`, `content check --watch`, `serve`) then never stopped, and their
# tests failed after a minute. A learner's terminal delivers Ctrl+C; so does each worker, to what it starts
# (a caught signal is reset to its default in a child).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# --- hypothesis: thorough in CI, quick at the desk --------------------------------------------------
# 1,000 examples a property in CI: 3,000 spent about 25 s of the suite's 5 minutes on the same properties.

settings.register_profile("ci", max_examples=1_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# --- garbage collection, paced for a process that runs hundreds of apps -------------------------------

# A Textual app allocates tens of thousands of short-lived objects a frame, and Python's default pace (a young
# collection every 700 net allocations) spent a sixth of a face test's CPU collecting them. Collecting every
# 100,000 lets most of them die by reference count first, and the middle generation, which held up to ten
# young collections' survivors and took 60 ms a pass, is collected a fifth as often (test_lab.py alone: 58 ->
# 48 s CPU at 20,000; test_keyboard_model.py with test_lab.py: 8.3 -> 6.0 s collecting at 100,000, 188 ->
# 202 MB at most). Full collections stay rare and bounded by Python's own rule (a quarter new objects).
gc.set_threshold(100_000, 20, 100)


# --- animations: Pilot already waits each one out ------------------------------------------------------

@pytest.fixture(autouse=True)
def apps_without_animation(monkeypatch):
    """Apps a test starts skip animations (TEXTUAL_ANIMATIONS=none, which a learner may set too). Pilot's press
    waits after every key until the app's animations are complete, so a test only ever sees where a scroll
    ends, never a frame on the way; drawing those frames cost face tests a fifth of their CPU and their wall
    time the animations' length. App() reads the level from textual.constants when it is made."""
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


# --- a learner's "run without a sandbox" lasts one test, as it lasts one session ----------------------------

@pytest.fixture(autouse=True)
def sandbox_choice_forgotten():
    """Allowing unsandboxed runs (the build panel's u, the line face's yes, `check --allow-unsandboxed`) is the
    process's choice, kept for a learner's session: in a test worker it outlived the test that made it, and a
    later test of "refused until allowed" in the same worker found it allowed (seen under -n 8)."""
    yield
    allow_unsandboxed(False)


# --- the real progress store, on a temp folder ------------------------------------------------------

@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("RINGBOOK_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def store(data_dir: Path):
    opened = ProgressStore.open(data_dir)
    yield opened
    opened.close()


# --- build exercises on a machine where bubblewrap cannot start ---------------------------------------


def allow_unsandboxed_runs_where_no_sandbox_starts() -> None:
    """Where no sandbox can start (macOS, CI that blocks user namespaces), tests of the build screens and
    the grader still run the learner code, unsandboxed, as a learner who allowed it would; the sandbox's
    own tests set the setting themselves and skip what needs bubblewrap, saying why."""
    if sandbox_status().mode != "sandboxed":
        os.environ.setdefault(SANDBOX_SETTING, "optional")


# --- our own code compiled once, where Python is told not to write byte-code ---------------------------

OUR_CODE = ("grader", "tui", "tests")


def compile_our_code() -> None:
    """With PYTHONDONTWRITEBYTECODE set (as on this machine and in CI), every process of a run compiled
    grader/, tui/ and tests/ from source again: each xdist worker, and each `ringbook` child, proof worker
    and tmux or SSH session a test starts (about 0.2 s of CPU each, a hundred times and more). The setting
    stops Python writing .pyc files, not reading them, so the controller writes them once, where Python
    would (__pycache__, ignored by git). A .pyc records its source's size and time: one gone stale is
    never used, and is rewritten here on the next run. The dependencies are compiled at install (uv's
    compile-bytecode)."""
    root = Path(__file__).resolve().parent.parent
    for folder in OUR_CODE:
        compileall.compile_dir(root / folder, quiet=1)


def rewrite_our_tests_once(config: pytest.Config) -> None:
    """pytest rewrites each test module's asserts as it imports it and keeps the result beside Python's own
    .pyc, but only where Python may write byte-code: with PYTHONDONTWRITEBYTECODE every xdist worker rewrote
    every test module again, 2.4 s of CPU a worker. The controller writes them once, with pytest's own
    functions (pinned in tests/test_pinned_internals.py), where each worker's import looks for them; one that
    is stale (its source's size or time changed) is rewritten here on the next run, and one a worker cannot
    read is rewritten by that worker as before."""
    from _pytest.assertion import rewrite

    if config.getoption("assertmode") != "rewrite":
        return
    state = config.stash[rewrite.assertstate_key]
    for source in sorted(Path(__file__).resolve().parent.rglob("test_*.py")):
        pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(source, pyc) is None and rewrite.try_makedirs(pyc.parent):
            stat, code = rewrite._rewrite_test(source, config)
            rewrite._write_pyc(state, code, stat, pyc)


# --- the built-in book cached, once a run, in a cache folder of the run's own -----------------------------

CACHE_SETTING = "RINGBOOK_CACHE_DIR"


def cache_the_built_in_book() -> None:
    """Every `ringbook` starts from the reader's own cached copy of the book (grader/book/cache.py) in 20 ms.
    Without one, each command a test ran, in this process or a child, read and checked the book's files again:
    0.8 s of CPU, a hundred times and more a run. The controller points RINGBOOK_CACHE_DIR at a folder of the
    run's own (never the tester's ~/.cache), which the workers and every child inherit, and keeps the built-in
    book there once; a cached book loads the same as one read from its files (tests/grader/test_book_cache.py),
    and tests of reading the book read their own copies."""
    folder = Path(tempfile.mkdtemp(prefix="ringbook-cache-"))
    os.environ[CACHE_SETTING] = str(folder)
    load_book(cache_dir=book_cache.default_folder())


# --- the longest tests first, from the durations of a run -------------------------------------------------
# xdist's worksteal hands each worker an even slice of the tests in collection order, and a worker that runs
# dry steals from the end of another's queue: a long test collected late was last, alone, and the run waited for
# it on an otherwise idle machine. tests/durations.json holds each test's seconds (setup, call and teardown) from
# a run with `uv run pytest --store-durations`; tests are dealt out longest first, one to each worker's slice
# in turn, so every worker starts on its longest. A test the file does not know yet (a new one) counts as
# DEFAULT_SECONDS, among the longest seventh (half the tests take under 0.02 s), so a new long test is not left
# to the end: store the durations again when tests are added or get slower.

DURATIONS = Path(__file__).resolve().parent / "durations.json"
DEFAULT_SECONDS = 1.0


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--store-durations", action="store_true",
                     help=f"write each test's seconds to {DURATIONS.name}, which orders the tests of later runs")
    parser.addoption("--keyboard-walk-seeds", type=int, default=0,
                     help="run the keyboard walk (tests/face/test_keyboard_walk.py) on this many more seeds")
    parser.addoption("--keyboard-walk-steps", type=int, default=0,
                     help="steps in each seed's keyboard walk (40 unless given)")


def known_durations() -> dict[str, float]:
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}


def longest_first(items: list[pytest.Item], durations: dict[str, float], workers: int) -> list[pytest.Item]:
    """`items` longest first, dealt in turn into `workers` slices of the order, each slice longest first."""
    ranked = sorted(items, key=lambda item: durations.get(item.nodeid, DEFAULT_SECONDS), reverse=True)
    return [item for slice_start in range(workers) for item in ranked[slice_start::workers]]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = longest_first(items, known_durations(), workers)


class DurationsKept:
    """Adds up the seconds of each test's phases as their reports reach the controller (from every worker
    under xdist), and writes them in place of the stored durations when the run ends: a test that is gone
    leaves the file then (a run of a few tests leaves the others unknown, so store from a whole run)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self, exitstatus: int) -> None:
        if exitstatus == pytest.ExitCode.INTERRUPTED:   # a run stopped part way knows only some tests
            return
        kept = {nodeid: round(seconds, 2) for nodeid, seconds in self.seconds.items()}
        DURATIONS.write_text(json.dumps(kept, indent=0, sort_keys=True) + "\n", encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):   # the controller (or a run without workers), before any test
        if sys.flags.dont_write_bytecode:
            compile_our_code()
            rewrite_our_tests_once(config)
        cache_the_built_in_book()
        if config.getoption("store_durations"):
            config.pluginmanager.register(DurationsKept(), "durations-kept")
    allow_unsandboxed_runs_where_no_sandbox_starts()


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and CACHE_SETTING in os.environ:
        shutil.rmtree(os.environ.pop(CACHE_SETTING), ignore_errors=True)
    collect_once_for_unraisable_exceptions()


def collect_once_for_unraisable_exceptions() -> None:
    """After this hook, pytest collects garbage five times over to report exceptions raised where none could be
    (a __del__'s); over the million objects a worker holds by its end, each pass took 0.4 s of CPU, the five 2 s
    a worker while the run waited for the last to end (and xdist once interrupted one). One pass here finds the
    same garbage, and what lives on is frozen out of the passes that follow."""
    gc.collect()
    gc.freeze()

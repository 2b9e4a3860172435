"""Shared fixtures: the built-in book, and throwaway copies of it to break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.book.load import BUILTIN_CONTENT
from tests.built_in import builtin_book


@pytest.fixture(scope="session")
def book():
    return builtin_book()


@pytest.fixture
def book_copy(tmp_path: Path) -> Path:
    """A copy of the built-in content folder that a test may damage."""
    target = tmp_path / "content"
    shutil.copytree(BUILTIN_CONTENT, target)
    return target


# --- snapshots live in the top-level snapshots/ folder ----------------------------------------------

import pytest_textual_snapshot  # noqa: E402

SNAPSHOT_ROOT = Path(__file__).resolve().parent.parent / "snapshots"


class RingbookSVGExtension(pytest_textual_snapshot.SVGImageExtension):
    """Stores each test module's SVGs in snapshots/<module>/ instead of beside the tests."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(SNAPSHOT_ROOT / Path(test_location.filepath).stem)


# snap_compare looks its extension up by this module-level name when it runs.
pytest_textual_snapshot.SVGImageExtension = RingbookSVGExtension


# --- hypothesis: thorough in CI, quick at the desk --------------------------------------------------

import os  # noqa: E402

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=3_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# --- the real progress store, on a temp folder ------------------------------------------------------

from tui.progress.store import ProgressStore  # noqa: E402


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

from grader.sandbox.runner import SANDBOX_SETTING, sandbox_status  # noqa: E402


def pytest_configure(config):
    """Where no sandbox can start (macOS, CI that blocks user namespaces), tests of the build screens and
    the grader still run the learner code, unsandboxed, as a learner who allowed it would; the sandbox's
    own tests set the setting themselves and skip what needs bubblewrap, saying why."""
    if sandbox_status().mode != "sandboxed":
        os.environ.setdefault(SANDBOX_SETTING, "optional")

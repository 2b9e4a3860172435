"""A kind lives in one place: a toy "pairs" kind defined in tests/grader/toy_kind.py, registered for one test,
goes through loading, `content check`, grading and the class report; and a kind missing a part (a face's
module, a hook, its own module) fails loudly at start-up, naming the file to add."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from grader.book.load import BookError, load_book
from grader.grade import grade
from grader.kinds import design
from grader.kinds.registry import KINDS, KindError, label, register, unregister
from tests.grader import toy_kind
from tests.grader.toy_kind import Pairs
from tui.answers import panel_for
from tui.cli.main import main
from tui.kind_parts import Face, discover, missing_parts
from tui.lines.answers import way_for
from tui.progress.class_report import build_report
from tui.progress.store import ProgressStore

EXERCISES = """\
exercises:
  - id: "1.1"
    kind: pairs
    title: Match the collectives
    prompt: Match each collective to what it leaves on every GPU.
    hints: ["All-reduce leaves the same sum on every GPU."]
    explanation: All-reduce sums, all-gather concatenates, broadcast copies one GPU's tensor to all.
    left: {ar: all-reduce, ag: all-gather, bc: broadcast}
    right: {sum: the sum of all, cat: every shard side by side, one: one GPU's tensor}
    pairs: {ar: sum, ag: cat, bc: one}
"""
RIGHT = "ar=sum, ag=cat, bc=one"
WRONG = "ar=sum, ag=one, bc=cat"


def toy_book(folder: Path, exercises: str = EXERCISES) -> Path:
    (folder / "one").mkdir(parents=True)
    (folder / "book.yaml").write_text('title: "Toy"\nchapters:\n  - {id: "1", title: "Collectives", dir: one}\n')
    (folder / "one" / "chapter.md").write_text("# Collectives\n\nThree of them.\n")
    (folder / "one" / "exercises.yaml").write_text(exercises)
    return folder


MISSING = ("ringbook: kind 'pairs' has no app panel for the way 'links': add tui/answers/links.py defining PANEL\n"
           "ringbook: kind 'pairs' has no plain-line way for the way 'links': add tui/lines/answers/links.py "
           "defining WAY\n")


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy kind, registered for one test."""
    register(toy_kind.KIND)
    try:
        yield
    finally:
        unregister("pairs")


def content_check(capsys, folder: Path) -> tuple[int, str, str]:
    code = main(["content", "check", "--content", str(folder)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_toy_kind_loads_checks_and_grades(toy, tmp_path, capsys):
    folder = toy_book(tmp_path / "book")
    exercise = load_book(folder).exercise("1.1")
    assert isinstance(exercise, Pairs) and exercise.pairs == {"ar": "sum", "ag": "cat", "bc": "one"}
    code, out, err = content_check(capsys, folder)   # the book is right; the kind has no faces
    assert (code, err, out) == (1, MISSING, "")
    assert grade(exercise, RIGHT).status == "correct"
    wrong = grade(exercise, WRONG)
    assert (wrong.status, wrong.message, wrong.score) == ("incorrect", "1 of 3 pairs match.", pytest.approx(1 / 3))
    assert grade(exercise, "ar=sum").message == "Pair every item; missing: ag, bc."
    assert label(exercise, RIGHT) == "all-reduce → the sum of all; all-gather → every shard side by side; " \
                                     "broadcast → one GPU's tensor"


def test_a_typo_in_a_toy_exercise_fails_content_check_at_its_line(toy, tmp_path, capsys):
    folder = toy_book(tmp_path / "book", EXERCISES.replace("bc: one}", "bc: onr}"))
    code, out, err = content_check(capsys, folder)
    line = EXERCISES.splitlines().index("    pairs: {ar: sum, ag: cat, bc: one}") + 1
    assert (code, err) == (1, MISSING + "1 problem(s) found.\n")
    assert f"exercises.yaml:{line}: pairs bc: 'onr' is not a right-hand id (sum, cat, one)" in out
    folder = toy_book(tmp_path / "other", EXERCISES.replace("    pairs:", "    pears:"))
    code, out, err = content_check(capsys, folder)
    assert code == 1 and "'pears' is not allowed here" in out and "'pairs' is a required property" in out


def test_a_toy_kind_is_regraded_in_the_class_report(toy, tmp_path, capsys):
    """A student's export with a toy attempt recorded as correct that the book grades wrong: the report
    re-grades every attempt by the kind's judge and names the tampered one, its answer in the kind's words."""
    book = load_book(toy_book(tmp_path / "book"))
    student = tmp_path / "ana"
    store = ProgressStore.open(student)
    store.record_attempt("1.1", WRONG, "incorrect")
    store.record_attempt("1.1", RIGHT, "correct")
    store.record_attempt("1.1", WRONG, "correct")     # edited after the fact
    store.close()
    export = tmp_path / "ana.json"
    assert main(["--data-dir", str(student), "progress", "export", "--name", "ana", str(export)]) == 0
    capsys.readouterr()
    report = build_report(book, [export], grading_seconds=60)
    (ana,) = report.students
    assert ana.verification.confirmed == 2 and ana.verification.build_not_rerun == 0
    assert [(t.answer, t.recorded, t.regraded) for t in ana.verification.tampered] == [(WRONG, "correct", "incorrect")]
    (failed,) = report.failed
    assert [w.answer for w in failed.wrong_answers] == [
        "all-reduce → the sum of all; all-gather → one GPU's tensor; broadcast → every shard side by side"]


# --- a kind registered in part ----------------------------------------------------------------------

def test_every_built_in_kind_has_its_parts_in_both_faces():
    assert missing_parts() == []


def test_a_kind_with_no_face_fails_with_the_files_to_add(toy, tmp_path):
    exercise = load_book(toy_book(tmp_path / "book")).exercise("1.1")
    assert missing_parts() == [line.removeprefix("ringbook: ") for line in MISSING.splitlines()]
    with pytest.raises(KindError, match="add tui/answers/links.py defining PANEL"):
        panel_for(exercise, "")
    with pytest.raises(KindError, match="add tui/lines/answers/links.py defining WAY"):
        way_for(exercise)


@pytest.mark.parametrize(("face", "missing"), [
    ("tui.answers", "kind 'toy' has no app panel for the way 'sketch': add tui/answers/sketch.py defining PANEL"),
    ("tui.lines.answers", "kind 'toy' has no plain-line way for the way 'sketch': add tui/lines/answers/sketch.py "
                          "defining WAY"),
])
def test_a_face_refuses_a_kind_without_its_part_when_it_starts(face, missing):
    """Registered before a face's package is first imported (as a kind module of grader/kinds is), a kind with
    no part there stops the import, naming the file to add, before any exercise is opened."""
    code = (
        "from dataclasses import dataclass\n"
        "from grader.exercise import Exercise\n"
        "from grader.kinds.registry import Kind, register, plain_label\n"
        "@dataclass(kw_only=True)\n"
        "class Toy(Exercise):\n"
        "    kind: str = 'toy'\n"
        "hook = lambda *args: None\n"
        "register(Kind(name='toy', exercise=Toy, read=hook, problems=hook, warnings=hook, judge=hook,\n"
        "              label=plain_label, expected_seconds=1.0, ways=('sketch',), way=lambda e: 'sketch',\n"
        "              schema={}, example=''))\n"
        f"import {face}\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"KindError: {missing}" in result.stderr


def test_a_book_with_a_kind_no_module_registers_is_refused_with_its_name(tmp_path, capsys):
    folder = toy_book(tmp_path / "book")
    with pytest.raises(BookError, match="unknown kind 'pairs': add grader/kinds/pairs.py defining KIND"):
        load_book(folder)
    code, out, err = content_check(capsys, folder)
    assert code == 1 and f"kind: 'pairs' is not one of {list(KINDS)}" in out
    assert "exercises.yaml:3: unknown kind 'pairs': add grader/kinds/pairs.py defining KIND" in out


def test_a_kept_copy_of_a_book_whose_kind_is_gone_is_read_again_from_its_files(tmp_path):
    """The reader's copy of a checked book names a kind; without its module the copy cannot be read, and the
    files say what is wrong (it was a traceback from the copy)."""
    folder, cache = toy_book(tmp_path / "book"), tmp_path / "cache"
    register(toy_kind.KIND)
    try:
        load_book(folder, cache_dir=cache)
    finally:
        unregister("pairs")
    with pytest.raises(BookError, match="unknown kind 'pairs': add grader/kinds/pairs.py defining KIND"):
        load_book(folder, cache_dir=cache)


def test_grading_an_exercise_of_an_unregistered_kind_is_our_mistake_said_loudly(book):
    stray = replace(book.exercise("0.1"), kind="pairs")
    with pytest.raises(KindError, match="unknown exercise kind 'pairs'"):
        grade(stray, "1.75")


def test_a_kind_without_a_judge_is_refused_when_registered():
    with pytest.raises(KindError, match="kind 'pairs' has no judge, label: give its Kind every one of read, "):
        register(replace(toy_kind.KIND, judge=None, label=None))
    assert "pairs" not in KINDS


def test_a_kind_is_registered_once_and_says_its_own_name():
    with pytest.raises(KindError, match="kind 'design' is registered twice"):
        register(design.KIND)
    with pytest.raises(KindError, match="its dataclass must be an Exercise whose kind defaults to 'puzzle'"):
        register(replace(toy_kind.KIND, name="puzzle"))
    assert "puzzle" not in KINDS


def test_a_face_s_module_serving_another_way_than_its_name_is_refused(tmp_path, monkeypatch):
    """A way's part lives in the module named after the way, so the file a missing part's message names is
    where it goes: a panel for 'links' kept in sketch.py is refused, naming both files."""
    package = tmp_path / "toy_faces"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "sketch.py").write_text("class Panel:\n    way = 'links'\n\n\nPANEL = Panel\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(KindError, match="toy_faces/sketch.py's PANEL serves the way 'links': a way's app panel "
                                        "lives in toy_faces/links.py"):
        discover(Face("app panel", "toy_faces", "PANEL"), "way")


def test_the_app_stops_just_after_its_first_frame_for_a_kind_missing_its_faces(toy, tmp_path, monkeypatch, capsys):
    """Where the app starts (here Textual's headless driver, as `ringbook serve`'s sessions), every kind is imported
    and checked just after home's first frame, which importing them held back (issue 48): a kind without its parts
    stops the app then, naming the files, with status 1."""
    from textual.app import App

    from tui.cli.app import run_app

    frames = []
    display = App._display

    def home_drawn(app, screen, update):
        if update is not None and type(screen).__name__ == "HomeScreen":
            frames.append(screen)
        return display(app, screen, update)

    monkeypatch.setattr(App, "_display", home_drawn)
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.headless_driver:HeadlessDriver")
    assert run_app(None, tmp_path / "data") == 1
    assert frames, "home was drawn before the kinds were checked"
    assert capsys.readouterr().err.endswith(MISSING)


def test_ringbook_does_not_start_with_a_kind_missing_its_faces(toy, tmp_path, capsys):
    """The app and the plain-line face both start here: a kind without its parts stops it, before the store
    or the book is opened, naming the files."""
    from tui.cli.app import run_app

    assert run_app(None, tmp_path / "data") == 1
    assert capsys.readouterr().err == MISSING
    assert not (tmp_path / "data").exists()

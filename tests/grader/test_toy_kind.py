"""A kind lives in one place: a toy "pairs" kind defined in tests/grader/toy_kind.py, registered for one test,
goes through loading, `content check`, grading, a panel in the real app and the class report; and a kind
registered in part (no schema, no panel, no module) fails loudly, saying what is missing."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input

from grader.book.load import BookError, load_book
from grader.book.schema import exercise_schema
from grader.grade import grade
from grader.kinds import design
from grader.kinds.registry import KINDS, KindError, label, register, unregister
from tests.grader import toy_kind
from tests.grader.toy_kind import Pairs, PairsPanel
from tests.helpers import ringbook_app, settle, text_of
from tui.answers import check_panels, missing_panels, panel_for, register_panel, unregister_panel
from tui.cli.main import main
from tui.progress.class_report import build_report
from tui.progress.store import ProgressStore
from tui.screens.exercise import ExerciseScreen

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


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy kind and its panel, registered for one test."""
    register(toy_kind.KIND)
    register_panel(PairsPanel)
    try:
        yield
    finally:
        unregister("pairs")
        unregister_panel("pairs")


def content_check(capsys, folder: Path) -> tuple[int, str, str]:
    code = main(["content", "check", "--content", str(folder)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_toy_kind_loads_checks_and_grades(toy, tmp_path, capsys):
    folder = toy_book(tmp_path / "book")
    exercise = load_book(folder).exercise("1.1")
    assert isinstance(exercise, Pairs) and exercise.pairs == {"ar": "sum", "ag": "cat", "bc": "one"}
    code, out, err = content_check(capsys, folder)
    assert (code, err, out) == (0, "", "ok: 'Toy': 1 chapter, 1 exercise.\n")
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
    assert (code, err) == (1, "1 problem(s) found.\n")
    assert f"exercises.yaml:{line}: pairs bc: 'onr' is not a right-hand id (sum, cat, one)" in out
    folder = toy_book(tmp_path / "other", EXERCISES.replace("    pairs:", "    pears:"))
    code, out, err = content_check(capsys, folder)
    assert code == 1 and "'pears' is not allowed here" in out and "'pairs' is a required property" in out


async def test_a_toy_kind_is_answered_in_its_panel_in_the_app(toy, tmp_path, data_dir):
    book = load_book(toy_book(tmp_path / "book"))
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_exercise(book.exercise("1.1"))
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen)
        assert isinstance(app.screen.query_one("#answer-panel"), PairsPanel)
        box = app.screen.query_one("#pairs-answer", Input)
        box.focus()
        await pilot.press(*WRONG, "enter")
        await settle(app, pilot)
        assert "1 of 3 pairs match" in text_of(app.screen.query_one("#verdict"))
        box.value = ""
        box.focus()
        await pilot.press(*RIGHT, "enter")
        await settle(app, pilot)
        assert "Correct: every pair matches." in text_of(app.screen.query_one("#verdict"))
    assert [(a.answer, a.status) for a in store.attempts("1.1")] == [(WRONG, "incorrect"), (RIGHT, "correct")]
    store.close()


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

def test_every_built_in_kind_has_its_schema_and_panels():
    assert set(KINDS) == {"derive", "trace", "build", "debug", "design"}
    assert exercise_schema()["$defs"]["common"]["properties"]["kind"]["enum"] == list(KINDS)
    assert missing_panels() == []


def test_a_kind_with_no_schema_fails_at_load(tmp_path):
    folder = toy_book(tmp_path / "book")
    register(replace(toy_kind.KIND, schema=None))
    try:
        with pytest.raises(KindError, match="kind 'pairs' has no schema: add \\$defs/pairs to exercise.schema.json"):
            load_book(folder)
    finally:
        unregister("pairs")


def test_a_schema_kind_that_no_module_registers_fails_at_load():
    unregister("design")
    try:
        with pytest.raises(KindError, match="declares kind\\(s\\) design that no module of grader/kinds registers"):
            load_book()
    finally:
        register(design.KIND)


def test_a_kind_with_no_panel_fails_with_its_name(tmp_path):
    register(toy_kind.KIND)
    try:
        exercise = load_book(toy_book(tmp_path / "book")).exercise("1.1")
        assert missing_panels() == ["pairs: pairs"]
        with pytest.raises(KindError, match="no answer panel for pairs: pairs: add one to tui/answers"):
            check_panels()
        with pytest.raises(KindError, match="no answer panel for pairs: pairs"):
            panel_for(exercise, "")
    finally:
        unregister("pairs")


def test_the_panel_registry_refuses_a_kind_without_a_panel_when_it_starts():
    """Registered before tui.answers is first imported (as a kind module of grader/kinds is), a kind with
    no panel stops the import, naming what is missing, before any exercise is opened."""
    code = (
        "from dataclasses import dataclass\n"
        "from grader.exercise import Exercise\n"
        "from grader.kinds.registry import Kind, register, plain_label\n"
        "@dataclass(kw_only=True)\n"
        "class Toy(Exercise):\n"
        "    kind: str = 'toy'\n"
        "hook = lambda *args: None\n"
        "register(Kind(name='toy', exercise=Toy, read=hook, problems=hook, warnings=hook, judge=hook,\n"
        "              label=plain_label, expected_seconds=1.0, ways=('sketch',), way=lambda e: 'sketch'))\n"
        "import tui.answers\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    assert "KindError: no answer panel for toy: sketch: add one to tui/answers (PANELS)" in result.stderr


def test_a_book_with_a_kind_no_module_registers_is_refused_with_its_name(tmp_path, capsys):
    folder = toy_book(tmp_path / "book")
    with pytest.raises(BookError, match="malformed exercise \\(unknown kind 'pairs'\\)"):
        load_book(folder)
    code, out, err = content_check(capsys, folder)
    assert code == 1 and "kind: 'pairs' is not one of ['derive', 'trace', 'build', 'debug', 'design']" in out


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

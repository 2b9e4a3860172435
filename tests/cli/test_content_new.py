"""`ringbook content new DIR`: the scaffolded book passes `content check`, its answers hold, and it opens
in the app with every exercise shown; a folder with anything in it is never written to."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from textual.widgets import Input, Markdown

from grader.book.load import load_book
from grader.book.variants import variant
from grader.grade import grade
from grader.kinds.match import stored
from grader.kinds.registry import KINDS, kind_of
from grader.sandbox.runner import run_tests
from tests.helpers import ringbook_app, settle, text_of
from tests.helpers import ringbook_in_process as run
from tui.answers import PANELS
from tui.screens.chapter import ChapterScreen
from tui.screens.exercise import ExerciseScreen


@pytest.fixture
def new_book(tmp_path: Path, capsys) -> Path:
    folder = tmp_path / "nested" / "my-book"
    code, out, err = run(capsys, "content", "new", folder)
    assert code == 0, err
    assert f"ringbook --content {folder}" in out
    return folder


def test_the_scaffold_passes_content_check(new_book, capsys):
    code, out, err = run(capsys, "content", "check", "--content", new_book)
    assert (code, err) == (0, "")
    book = load_book(new_book)
    assert out.strip() == f"ok: {book.title!r}: 1 chapter, {len(book.exercises)} exercises, 2-question quiz 'check'."
    assert sorted({e.kind for e in book.exercises}) == sorted(KINDS)   # one of each kind at least


def test_the_scaffold_shows_a_multiple_choice_a_variant_and_a_quiz(new_book):
    """An author starts from working examples of every feature, not only of every kind."""
    book = load_book(new_book)
    choice = next(e for e in book.exercises if e.kind == "trace" and e.options)
    right = next(option for option in choice.options if option.correct)
    assert grade(choice, right.id).status == "correct"
    varying = next(e for e in book.exercises if getattr(e, "vary", None))
    assert {variant(varying, seed).value for seed in range(1, 40)} != {varying.value}   # other numbers
    (quiz,) = book.quizzes
    assert [q.style for q in quiz.questions] == ["choice", "reveal"]


def test_the_scaffolds_answers_hold(new_book):
    """The template teaches by example, so its answers must be right: the reference solution passes and
    the starter does not; the debug listing's tests fail on the bug and pass on the fix."""
    book = load_book(new_book)
    by_kind = {e.kind: e for e in reversed(book.exercises)}   # the first of each kind, its own example
    build, debug = by_kind["build"], by_kind["debug"]
    assert grade(build, build.solution).status == "correct"
    assert grade(build, build.starter).status == "incorrect"
    assert run_tests(debug.code, debug.function, debug.tests).passed == 0
    assert run_tests(debug.fixed_code, debug.function, debug.tests).passed == len(debug.tests)
    assert grade(debug, str(debug.buggy_line)).status == "correct"
    assert grade(by_kind["design"], ", ".join(by_kind["design"].order)).status == "correct"
    match = by_kind["match"]
    assert grade(match, stored(match.pairs)).status == "correct"
    assert grade(match, match.positions(match.pairs)).status == "correct"
    derive = by_kind["derive"]
    assert grade(derive, str(derive.value)).status == "correct"
    for mistake, value in zip(derive.mistakes, derive.mistake_values, strict=True):
        verdict = grade(derive, f"{value:g}")
        assert (verdict.status, verdict.feedback) == ("incorrect", mistake.feedback)


async def test_the_scaffold_opens_in_the_app_with_every_exercise(new_book, store):
    book = load_book(new_book)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")                 # the only chapter
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        await pilot.press("e", "enter")            # its exercises; open the first
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExerciseScreen) and screen.exercise.id == book.exercises[0].id
        for number, exercise in enumerate(book.exercises):
            if number:
                screen.action_next()
                await pilot.pause()
                screen = app.screen
            assert isinstance(screen, ExerciseScreen) and screen.exercise.id == exercise.id
            assert screen.query_one("#prompt", Markdown).source == exercise.prompt
            panel = screen.query_one("#answer-panel")
            assert type(panel) is PANELS[kind_of(exercise).way(exercise)] and panel.display
            if exercise.kind == "derive" and not getattr(exercise, "vary", None):   # a variant's numbers are the seed's
                derive = exercise
                box = screen.query_one("#answer", Input)
                box.focus()
                await pilot.press(*f"{derive.value:g}", "enter")
                await settle(app, pilot)
                assert text_of(screen.query_one("#verdict")).startswith("✓")
    assert [a.exercise_id for a in store.attempts()] == [derive.id]


def test_a_folder_with_anything_in_it_is_refused(tmp_path, capsys):
    folder = tmp_path / "busy"
    folder.mkdir()
    (folder / "notes.md").write_text("mine")
    code, out, err = run(capsys, "content", "new", folder)
    assert code == 1 and out == ""
    assert err.strip() == f"ringbook: {folder} is not empty; give a new or empty folder (nothing was written)."
    assert [p.name for p in folder.iterdir()] == ["notes.md"] and (folder / "notes.md").read_text() == "mine"


def test_an_empty_folder_is_filled_and_a_file_is_refused(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(capsys, "content", "new", empty)[0] == 0
    assert (empty / "book.yaml").is_file()
    a_file = tmp_path / "book.yaml"
    a_file.write_text("title: mine")
    code, _, err = run(capsys, "content", "new", a_file)
    assert code == 1 and f"{a_file} is a file" in err and a_file.read_text() == "title: mine"


def test_a_broken_books_message_names_the_command_that_checks_that_book(tmp_path, capsys, monkeypatch):
    """`ringbook content check` alone checks the built-in book, which has nothing wrong with it."""
    folder = tmp_path / "my book"
    assert run(capsys, "content", "new", folder)[0] == 0
    exercises = folder / "01-first-steps" / "exercises.yaml"
    exercises.write_text(exercises.read_text().replace("kind: derive", "kind: guess", 1))
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "content", "list", "--content", folder)
    assert code == 1
    *problems, advice = err.splitlines()
    assert problems and advice == ("The book has problems; run `ringbook content check --content 'my book'` "
                                   "for the full list.")
    assert all("content check" not in problem for problem in problems)   # said once, whole, at the end
    command = shlex.split(advice.split("`")[1])
    assert command[0] == "ringbook"
    code, out, err = run(capsys, *command[1:])   # and it checks this book
    assert code == 1 and problems[0].split(" ")[0] in out + err

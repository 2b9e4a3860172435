"""A restored draft is gone on with, not replaced (issue 45, section 2 item 4): the answer box's draft was all
selected on arrival, so the first key typed replaced it (`16*7` then ` GB/s` left ` GB/s`)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import TextArea
from textual.widgets.text_area import Selection

from tests.helpers import open_exercise, ringbook_app, wait_until
from tui.progress.answering import draft_key
from tui.progress.store import ProgressStore
from tui.widgets.answer_input import AnswerInput

EXERCISE = "0.1"   # a number in GB, whose box has the keyboard on arrival


async def test_a_restored_answer_draft_is_typed_after_not_replaced(book, data_dir: Path):
    store = ProgressStore.open(data_dir)
    store.save_draft(draft_key(EXERCISE, "learn", 0), "16*7")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, EXERCISE)
        await wait_until(pilot, lambda: isinstance(app.focused, AnswerInput), "the answer box taking the keyboard")
        box = app.focused
        assert isinstance(box, AnswerInput) and box.value == "16*7"
        await pilot.press("space", "G", "B")
        assert box.value == "16*7 GB"


BUILD = "0.5"   # a build exercise: the editor has the keyboard on arrival


def saved_build_draft(book, data_dir: Path, *body: str) -> tuple[int, ProgressStore]:
    """The build's starter with `body` in place of its `raise NotImplementedError`, kept as the learner's draft:
    the row the body starts on, and the store that keeps it."""
    lines = book.exercise(BUILD).starter.splitlines()
    placeholder = next(row for row, line in enumerate(lines) if line.strip() == "raise NotImplementedError")
    store = ProgressStore.open(data_dir)
    store.save_draft(draft_key(BUILD, "learn", 0), "\n".join([*lines[:placeholder], *body, *lines[placeholder + 1:]]))
    return placeholder, store


async def build_editor_placed(app, pilot) -> TextArea:
    """The build exercise opened, its editor with the keyboard and its cursor placed from the draft."""
    await open_exercise(app, pilot, BUILD)
    editor = app.screen.query_one("#editor", TextArea)
    await wait_until(pilot, lambda: app.focused is editor and editor.selection != Selection(),
                     "the editor's cursor placed")
    return editor


async def test_a_restored_build_draft_reopens_with_the_cursor_after_the_learners_last_change(book, data_dir: Path):
    """It reopened before the docstring, where a fresh starter's cursor goes, far from the learner's work."""
    placeholder, store = saved_build_draft(book, data_dir, "    total = 0", "    return total")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await build_editor_placed(app, pilot)
        assert editor.selection == Selection.cursor((placeholder + 1, len("    return total")))


async def test_ctrl_e_goes_to_the_end_of_the_line_not_of_its_wrapped_row(book, data_dir: Path):
    long_line = "    return " + " + ".join(f"term_{n}" for n in range(20))   # wraps at 80 columns
    placeholder, store = saved_build_draft(book, data_dir, long_line)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await build_editor_placed(app, pilot)
        assert len(long_line) > editor.content_size.width
        editor.move_cursor((placeholder, 0))
        await pilot.press("ctrl+e", "X")
        assert editor.document[placeholder] == long_line + "X"

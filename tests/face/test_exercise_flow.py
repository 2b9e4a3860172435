"""Issue 45's exercise flow, driven with Pilot on the real store in a temp folder: one rule for where the
keyboard goes after a verdict, in a chapter and on a session card alike.

Before: a passed build kept the editor, so the learner's next `n` was typed into the code; a wrong answer on
a review card gave the page the keyboard, so Ctrl+U did nothing and the next digits were appended."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Input, TextArea

from tests.face.test_keyboard_model import SOLVED, arrived
from tests.face.test_keyboard_only import TYPED_SOLUTION
from tests.helpers import ringbook_app, settle, wait_until
from tui.screens.exercise import ExerciseScreen

BUILD = "0.5"


async def test_a_passed_build_in_a_chapter_gives_the_page_the_keys_and_n_goes_on(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_exercise(book.exercise(BUILD))
        screen = await arrived(app, pilot)
        editor = screen.query_one("#editor", TextArea)
        editor.text = TYPED_SOLUTION
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await wait_until(pilot, lambda: "✓" in str(screen.query_one("#verdict").render()), "the build passing")
        await wait_until(pilot, lambda: screen.focused is screen.panel, "the page taking the keyboard")
        assert "n" in {key for key, active in screen.active_bindings.items() if active.binding.show}
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is not screen, "n moving on from the passed build")
        assert editor.text == TYPED_SOLUTION                       # not typed into the code
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id != BUILD


async def test_a_solved_build_opens_with_the_page_holding_the_keys_and_i_gives_the_editor_back(book, store):
    store.record_attempt(BUILD, TYPED_SOLUTION, "correct")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_exercise(book.exercise(BUILD))
        screen = await arrived(app, pilot)
        assert screen.focused is screen.panel
        await pilot.press("i")
        assert isinstance(screen.focused, TextArea)


async def test_a_wrong_answer_on_a_review_card_leaves_the_box_ready_for_the_next_try(book, store):
    store.record_attempt("0.1", "x", "correct", seconds_taken=60, now=SOLVED)
    app = ringbook_app(book, store, clock=lambda: SOLVED + timedelta(days=40))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        card = await arrived(app, pilot)
        assert card.card and card.exercise.id == "0.1" and card.focused is card.panel
        box = card.query_one("#answer", Input)
        await pilot.press("i", *"999", "enter")
        await settle(app, pilot)
        await wait_until(pilot, lambda: "✗" in str(card.query_one("#verdict").render()), "the wrong verdict")
        assert card.focused is box and box.cursor_position == len(box.value) == 3
        await pilot.press("ctrl+u")
        assert box.value == ""
        await pilot.press(*"12")
        assert box.value == "12"
        await pilot.press("escape")                                # Esc leaves the box, not the session
        assert app.screen is card and card.focused is card.panel

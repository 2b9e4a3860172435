"""Issue 45's exercise flow, driven with Pilot on the real store in a temp folder: one rule for where the
keyboard goes after a verdict, in a chapter and on a session card alike; and a chapter's end, whose list
says "Enter opens one".

Before: a passed build kept the editor, so the learner's next `n` was typed into the code; a wrong answer on
a review card gave the page the keyboard, so Ctrl+U did nothing and the next digits were appended; at a
chapter's end, Enter and ↓ did nothing until e or Tab; no hint was offered while typing, and x showed the
whole worked answer at once, kept as revealed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from textual.widgets import Input, OptionList, TextArea

from tests.face.test_keyboard_model import SOLVED, arrived
from tests.face.test_keyboard_only import TYPED_SOLUTION
from tests.helpers import (
    chapter_filled_in,
    footer_keys,
    home_ready,
    offered_keys,
    open_exercise,
    ringbook_app,
    settle,
    text_of,
    wait_until,
    wait_until_still,
)
from tui.app import RingbookApp
from tui.screens.chapter import ChapterScreen
from tui.screens.exercise import ExerciseScreen
from tui.widgets.page import Scroll

BUILD = "0.5"
TRACE = "6.4"   # a trace table, one box per row


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


async def at_the_end_of_chapter_0(app, pilot) -> ChapterScreen:
    """Chapter 0 opened from home, read to its end: the page has the keyboard, the list of exercises in view."""
    await pilot.press("enter")
    await chapter_filled_in(app, pilot)
    chapter = app.screen
    assert isinstance(chapter, ChapterScreen)
    page = chapter.query_one("#page", Scroll)
    await wait_until_still(pilot, lambda: page.max_scroll_y or None, "the chapter laid out")
    await pilot.press("end")
    await wait_until(pilot, lambda: page.scroll_y == page.max_scroll_y, "the page at its end")
    assert chapter.focused is page
    assert "(Enter opens one)" in text_of(chapter.query_one("#exercises-heading"))
    return chapter


async def test_enter_at_a_chapters_end_opens_the_highlighted_exercise_as_the_page_says(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await at_the_end_of_chapter_0(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ExerciseScreen), "Enter opening an exercise")
        assert app.screen.exercise.id == "0.1"


async def test_down_at_a_chapters_end_reaches_the_list_and_moves_in_it(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        chapter = await at_the_end_of_chapter_0(app, pilot)
        listing = chapter.query_one("#exercise-list", OptionList)
        await pilot.press("down")
        assert chapter.focused is listing and listing.highlighted == 0
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ExerciseScreen), "Enter opening an exercise")
        assert app.screen.exercise.id == "0.2"


async def test_enter_at_a_chapters_top_stays_on_the_page(book, store):
    """Enter opens an exercise only where the page shows the list that says so."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await pilot.press("enter")
        await chapter_filled_in(app, pilot)
        chapter = app.screen
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is chapter and chapter.query_one("#page", Scroll).scroll_y == 0
        await pilot.press("question_mark")                         # the `?` dialog says what Enter does
        await pilot.pause()
        listed = [row for _, rows in app.screen.groups for row in rows]
        assert ("⏎", "Open the exercise highlighted in the list") in listed, listed


def revealed(store, exercise_id: str) -> bool:
    state = store.exercise_states().get(exercise_id)
    return bool(state and state.revealed)


async def test_hints_are_offered_from_the_box_and_f1_shows_the_next_without_leaving_it(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        box = screen.query_one("#answer", Input)
        await pilot.press(*"7h")
        assert offered_keys(app).get("f1") == "Hint"               # in the footer while typing
        await pilot.press("f1")
        await pilot.pause()
        assert "Hint 1 of" in text_of(screen.query_one("#hints"))
        assert screen.focused is box and box.value == "7h"          # still typing, nothing typed by the key
        await pilot.press("escape")
        assert "f1" not in offered_keys(app) and offered_keys(app).get("h") == "Hint"   # the page: h


async def test_x_on_an_exercise_not_yet_right_asks_first_and_x_again_reveals(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        await pilot.press("escape", "x")
        await pilot.pause()
        assert not screen.query_one("#explanation").display and not revealed(store, "0.2")
        asked = screen.query_one("#reveal-asked")
        assert asked.display and "x again shows the worked answer" in text_of(asked)
        await pilot.press("x")
        await pilot.pause()
        assert screen.query_one("#explanation").display and revealed(store, "0.2") and not asked.display


async def test_x_on_a_solved_exercise_shows_the_explanation_at_once(book, store):
    store.record_attempt("0.2", "70", "correct")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        assert screen.focused is screen.panel
        await pilot.press("x")
        await pilot.pause()
        assert screen.query_one("#explanation").display and not revealed(store, "0.2")


async def test_the_keys_dialog_says_f1_and_ctrl_u_in_the_answer_box(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "0.2")
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        box = dict(app.screen.groups)["In the answer box"]
        assert ("f1", "A hint, while typing") in box and ("^u", "Delete all before the cursor") in box


@pytest.mark.parametrize("first", ["", "2"])   # straight to the verdict; after a longer wrong one
async def test_one_blank_row_between_the_verdict_and_the_explanation(book, store, first):
    """At 80x24 a right answer's verdict stood three blank rows above its explanation: an empty details line
    (what a build's run fills) kept a row and a margin of its own."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.1")
        if first:
            await pilot.press(*first, "enter")
            await settle(app, pilot)
            await pilot.press("ctrl+u")
        await pilot.press(*"1.75", "enter")
        await settle(app, pilot)
        verdict, explanation = screen.query_one("#verdict"), screen.query_one("#explanation")
        await wait_until(pilot, lambda: explanation.region.height, "the explanation shown")
        await wait_until(pilot, lambda: explanation.region.y - verdict.region.bottom == 1,
                         f"one row between {verdict.region} and {explanation.region}")


def footer_key(screen, key: str):
    """The footer's entry for `key` as last drawn, or None where it is not shown."""
    return next((shown for shown in footer_keys(screen) if shown.key == key), None)


async def test_enter_on_the_answer_just_judged_is_dimmed_and_says_why_until_it_changes(book, store):
    """Enter sent again the answer whose verdict shows, and nothing changed (the keyboard walk found it): the
    footer dims it with its reason, pressed it says why, and a changed answer is sent as before."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        await pilot.press(*"12", "enter")
        await settle(app, pilot)
        assert [a.answer for a in store.attempts("0.2")] == ["12"] and isinstance(screen.focused, Input)
        await wait_until(pilot, lambda: footer_key(screen, "enter") is not None
                         and not footer_key(screen, "enter").enabled, "Enter dimmed")
        assert footer_key(screen, "enter").tooltip.startswith("Already judged")
        await pilot.press("enter")
        await settle(app, pilot)
        assert [a.answer for a in store.attempts("0.2")] == ["12"]
        assert any(notice.message.startswith("Already judged") for notice in app._notifications)
        await pilot.press("3")
        await wait_until(pilot, lambda: footer_key(screen, "enter").enabled, "Enter offered for the new answer")
        await pilot.press("enter")
        await settle(app, pilot)
        assert [a.answer for a in store.attempts("0.2")] == ["12", "123"]


async def test_enter_in_a_trace_table_judged_is_dimmed_too(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_exercise(app, pilot, TRACE)
        rows = len(screen.query(Input))
        for _ in range(rows):
            await pilot.press("1", "enter")
        await settle(app, pilot)
        assert len(store.attempts(TRACE)) == 1
        await wait_until(pilot, lambda: isinstance(screen.focused, Input) and footer_key(screen, "enter") is not None
                         and not footer_key(screen, "enter").enabled, "Enter dimmed in the judged table")
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(store.attempts(TRACE)) == 1


async def test_x_hides_the_explanation_it_showed_and_shows_it_again(book, store):
    """x with the explanation shown changed nothing: the footer says x hides it now, and x again shows it."""
    store.record_attempt("0.2", "70", "correct")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        explanation = screen.query_one("#explanation")
        await pilot.press("x")
        await wait_until(pilot, lambda: explanation.display and footer_key(screen, "x").description == "Hide",
                         "the explanation shown, and x offered to hide it")
        await pilot.press("x")
        await wait_until(pilot, lambda: not explanation.display and footer_key(screen, "x").description == "Explain",
                         "the explanation hidden, and x offered to show it")
        await pilot.press("x")
        await wait_until(pilot, lambda: explanation.display, "the explanation shown again")
        assert not revealed(store, "0.2")


async def test_enter_in_an_empty_box_is_dimmed_until_something_is_typed(book, store):
    """Enter in an empty box said "Type an answer first." once, then nothing (the keyboard walk found it): the
    footer dims it, with that reason, until the box has an answer."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        await wait_until(pilot, lambda: footer_key(screen, "enter") is not None
                         and not footer_key(screen, "enter").enabled, "Enter dimmed in the empty box")
        assert footer_key(screen, "enter").tooltip == "Type an answer first."
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Type an answer first." in text_of(screen.query_one("#verdict")) and not store.attempts("0.2")
        await pilot.press("7")
        await wait_until(pilot, lambda: footer_key(screen, "enter").enabled, "Enter offered once typed")
        await pilot.press("ctrl+u")
        await wait_until(pilot, lambda: not footer_key(screen, "enter").enabled, "Enter dimmed once emptied")


async def test_enter_on_an_empty_trace_row_moves_on_or_says_it_needs_a_value(book, store):
    """Enter on the first empty row focused itself, and nothing changed (the keyboard walk found it): it moves
    on to the next empty row, and on the one row still empty it says the table needs it."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_exercise(app, pilot, TRACE)
        rows = list(screen.query(Input))
        assert screen.focused is rows[0]
        await pilot.press("enter")
        assert screen.focused is rows[1]
        for _ in rows[1:]:
            await pilot.press("1", "enter")
        await settle(app, pilot)
        assert screen.focused is rows[0] and not store.attempts(TRACE)
        await pilot.press("enter")
        await settle(app, pilot)
        assert screen.focused is rows[0] and not store.attempts(TRACE)
        assert any(notice.message.startswith("This step needs a value") for notice in app._notifications)

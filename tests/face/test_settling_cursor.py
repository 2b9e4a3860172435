"""The cursor of a box the learner types in blinks while they work in it, then holds still: each blink is a
frame drawn and written to the terminal, and a class of thirty thinking at their answer boxes kept a third of a
core busy blinking (1.1% of a core each, measured in a terminal)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from tests.helpers import open_exercise, ringbook_app, wait_until
from tui.widgets.settling_cursor import SettlingCursor

BLINK_PERIODS = 3   # a blinking cursor changes at least this often over this many of Textual's blink periods
TEXTUAL_BLINK_SECONDS = 0.5


@pytest.fixture
def short_blink(monkeypatch):
    monkeypatch.setattr("tui.widgets.settling_cursor.BLINK_SECONDS", 0.3)


async def cursor_shown_over_blink_periods(pilot, box: Input | TextArea) -> set[bool]:
    """Whether the box's cursor was drawn, read a frame at a time over BLINK_PERIODS blink periods."""
    seen = set()
    for _ in range(BLINK_PERIODS * 5):
        seen.add(bool(box._cursor_visible))
        await pilot.pause(TEXTUAL_BLINK_SECONDS / 5)
    return seen


@pytest.mark.parametrize("exercise_id, selector", [("0.7", "#answer"), ("0.5", "#editor")],
                         ids=["answer box", "code editor"])
async def test_a_cursor_blinks_while_the_learner_works_in_the_box_then_holds_still(book, store, short_blink,
                                                                                   exercise_id, selector):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise_id)
        box = screen.query_one(selector)
        assert isinstance(box, SettlingCursor)
        # The screen focuses the box as it opens, and on a busy host the test's short blink may be over before the
        # watcher below is set: so the cursor settles, focus moves away, and the focus that follows is one the
        # test sees wake it.
        await wait_until(pilot, lambda: not box.cursor_blink, "the cursor settling after the screen opened")
        screen.set_focus(None)
        await wait_until(pilot, lambda: not box.has_focus, "the box losing focus")
        # Each change of cursor_blink as it happens: the blink may be over by the time a focus or a press returns,
        # so "it blinks" is read from the changes, not from the value afterwards.
        changes: list[bool] = []
        box.watch(box, "cursor_blink", lambda value: changes.append(value), init=False)
        box.focus()
        await wait_until(pilot, lambda: box.has_focus and True in changes, "focus waking the cursor")
        await wait_until(pilot, lambda: not box.cursor_blink, "the cursor holding still")
        assert await cursor_shown_over_blink_periods(pilot, box) == {True}   # lit throughout, never redrawn
        changes.clear()
        await pilot.press("x")
        await wait_until(pilot, lambda: True in changes, "typing waking the cursor")
        await wait_until(pilot, lambda: not box.cursor_blink, "the cursor holding still again")


async def test_the_cursor_holds_still_while_a_sent_answer_is_judged_and_blinks_again_at_the_next_key(book, store):
    """Enter sends the answer, which the learner then reads the verdict of; a blink meanwhile is a frame of its
    own, and in a class that submitted together such frames took cores from verdicts still on their way."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.7")
        box = screen.query_one("#answer", Input)
        await pilot.press(*"M(N-1)/N", "enter")
        await wait_until(pilot, lambda: screen.query_one("#verdict").has_class("verdict-incorrect"), "the verdict")
        assert box.has_focus   # a wrong answer keeps the box for another go
        assert await cursor_shown_over_blink_periods(pilot, box) == {True}
        await pilot.press("backspace")
        assert await cursor_shown_over_blink_periods(pilot, box) == {True, False}   # blinking again


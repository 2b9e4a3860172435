"""A notice never hides what the learner reads (issue 45, 2.10): Textual draws its toasts over the bottom right
of the screen, where at 80x24 the explanation just revealed (or a verdict) was being read."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Markdown
from textual.widgets._toast import Toast

from tests.face.test_lab import lab_opened
from tests.helpers import open_exercise, ringbook_app, settle, wait_until
from tui.progress.store import ProgressStore
from tui.widgets.answer_input import AnswerInput
from tui.widgets.page import Page

# What raises a notice on an exercise's page once its explanation shows, each a real key.
NOTICES = {
    "Ctrl+C": "ctrl+c",
    "p on the first exercise": "p",
}


@pytest.mark.parametrize("notice", NOTICES)
async def test_a_notice_leaves_the_explanation_in_view_uncovered(book, data_dir: Path, notice: str):
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:   # a test's app shows none unless asked
        screen = await open_exercise(app, pilot, "0.1")
        await wait_until(pilot, lambda: isinstance(app.focused, AnswerInput), "the answer box taking the keyboard")
        await pilot.press("3", "enter", "escape", "x", "x")
        explanation = screen.query_one("#explanation", Markdown)
        await wait_until(pilot, lambda: explanation.display, "the explanation shown")
        await settle(app, pilot)
        await pilot.press(NOTICES[notice])
        await wait_until(pilot, lambda: screen.query(Toast), "the notice shown")
        await settle(app, pilot)
        shown = explanation.region.intersection(screen.query_one("#exercise", Page).region)
        assert shown.height > 0, "the explanation is out of view"
        covered = [toast.region for toast in screen.query(Toast) if toast.region.overlaps(shown)]
        assert covered == [], f"the notice at {covered} covers the explanation at {shown}"


async def test_the_design_saved_notice_leaves_the_lab_s_text_uncovered(store: ProgressStore):
    """The lab's longest notice (a saved design: its summary and how to see it) sat over the act's text."""
    async with lab_opened(store, notifications=True) as (app, pilot):
        await pilot.press("2", "enter", "a", "4", "enter")
        await settle(app, pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: app.screen.query(Toast), "the notice shown")
        await settle(app, pilot)
        pages = [scroll.region for scroll in app.screen.query(VerticalScroll) if scroll.region]
        assert pages, "the act's text is out of view"
        covered = [(toast.region, page) for toast in app.screen.query(Toast) for page in pages
                   if toast.region.overlaps(page)]
        assert covered == [], f"notices over the lab's text: {covered}"

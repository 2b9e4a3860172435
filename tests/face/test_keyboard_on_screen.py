"""What has the keyboard is on screen (tui/widgets/page.py, issue 45): the keyboard walk found a chapter
resized under another screen coming back with its focused exercise list off screen."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import OptionList, TextArea

from tests.helpers import chapter_filled_in, ringbook_app, settle, wait_until, wait_until_still


def keyboard_shown(app) -> bool:
    """The walk's rule: some of the focused widget is inside every scrolling part around it; an editor's cursor too."""
    focused = app.focused
    assert focused is not None
    visible = focused.region.intersection(app.screen.region)
    for ancestor in focused.ancestors:
        if isinstance(ancestor, Widget) and ancestor.is_scrollable and ancestor.region.height:
            visible = visible.intersection(ancestor.content_region)
    if isinstance(focused, TextArea):
        return visible.contains_point(focused.cursor_screen_offset)
    return bool(visible.area)


async def at_rest(app, pilot) -> None:
    await settle(app, pilot)
    await wait_until_still(pilot, lambda: (app.focused, app.focused and app.focused.region,
                                           tuple(w.scroll_offset for w in app.screen.query("*") if w.is_scrollable)),
                           "the screen at rest")


async def test_a_chapter_resized_under_an_exercise_comes_back_with_its_list_on_screen(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_chapter(book.chapter("0"))
        await chapter_filled_in(app, pilot)
        await pilot.press("e")
        await at_rest(app, pilot)
        assert isinstance(app.focused, OptionList) and keyboard_shown(app)
        chapter = app.screen
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is not chapter, "the exercise opening")
        await pilot.resize_terminal(80, 24)
        await at_rest(app, pilot)
        await pilot.press("escape", "escape")   # out of the answer box, then back to the chapter
        await wait_until(pilot, lambda: app.screen is chapter, "the chapter back")
        await at_rest(app, pilot)
        assert isinstance(app.focused, OptionList) and keyboard_shown(app)

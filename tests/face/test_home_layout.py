"""Home at 80x24: the whole course on one screen, and r saying what it does, on the real store."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widgets import OptionList

from tests.helpers import home_ready, offered_keys, ringbook_app, text_of
from tui.screens.home import HomeScreen
from tui.screens.practice_offer import PracticeOfferScreen
from tui.widgets.screen_frame import Header

SOLVED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


async def test_home_at_80x24_shows_every_chapter_the_quiz_and_the_lab_without_scrolling(book, store):
    store.record_attempt("0.1", "7/4", "correct", now=SOLVED)     # so the review line shows too
    app = ringbook_app(book, store, clock=lambda: SOLVED + timedelta(hours=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        home = app.screen
        assert home.query_one("#review").display
        rows = home.query_one("#chapters", OptionList)
        ids = [rows.get_option_at_index(i).id for i in range(rows.option_count)]
        assert {f"quiz:{q.id}" for q in book.quizzes} <= set(ids) and {f"lab:{lab.id}" for lab in book.labs} <= set(ids)
        assert all(c.id in ids for c in book.chapters)
        assert rows.max_scroll_y == 0                                   # nothing below the fold
        assert rows.region.bottom <= app.screen.query_one("Footer").region.y
        assert "Distributed Training, Derived" in str(app.screen.query_one(Header).title_shown())
    async with ringbook_app(book, store).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        home = pilot.app.screen
        assert home.query_one("#book-title").display and not home.has_class("-compact")   # room: the full page
        prompts = [str(p.prompt) for p in home.query_one("#chapters", OptionList).options]
        assert "Quiz" in prompts and "Lab" in prompts


async def test_r_is_offered_as_what_it_does(book, store):
    app = ringbook_app(book, store, clock=lambda: SOLVED)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        assert "r" not in offered_keys(app)                             # nothing solved: nothing to review
    store.record_attempt("0.1", "7/4", "correct", now=SOLVED)
    app = ringbook_app(book, store, clock=lambda: SOLVED + timedelta(hours=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        assert offered_keys(app)["r"] == "Practise"                     # solved, not due yet
        assert "(r: practise)" in str(app.screen.query_one("#review").render())
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, PracticeOfferScreen)
    app = ringbook_app(book, store, clock=lambda: SOLVED + timedelta(days=60))
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        assert offered_keys(app)["r"] == "Review"                       # due


async def test_home_is_styled_once_before_its_first_frame(book, store, monkeypatch):
    """Textual styles a screen's whole tree again as it resumes; home's first resume comes just after each of its
    widgets was styled as it mounted, and styling them all again was about a tenth of Textual's work for home
    before its first frame (issue 48). What is styled again is one widget at a time: the screen as compose sets
    its layout, the list as it takes the focus."""
    restyled: list[list[str]] = []
    update_nodes = Stylesheet.update_nodes

    def noting(self: Stylesheet, nodes: Iterable[DOMNode], animate: bool = False) -> None:
        nodes = list(nodes)
        restyled.append([type(node).__name__ for node in nodes])
        update_nodes(self, nodes, animate=animate)

    monkeypatch.setattr(Stylesheet, "update_nodes", noting)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        assert isinstance(app.screen, HomeScreen) and "Mastery" in text_of(app.screen.query_one("#stats"))
    assert restyled and all(len(nodes) == 1 for nodes in restyled), restyled

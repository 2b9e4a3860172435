"""The walking skeleton, driven as a learner would with Textual's Pilot."""

import re

import pytest
from textual.widgets import Markdown, OptionList
from textual.widgets.markdown import MarkdownBlock

from tests.helpers import chapter_filled_in, ringbook_app
from tui.screens.chapter import ChapterScreen
from tui.screens.home import HomeScreen


async def test_home_lists_every_part_of_the_course_under_its_heading(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 40)) as pilot:         # tall enough for the headings (not at 24 rows)
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        rows = app.screen.query_one("#chapters", OptionList)
        options = [rows.get_option_at_index(i) for i in range(rows.option_count)]
        headings = [str(o.prompt) for o in options if o.disabled]
        assert headings == ["Chapters", "Case study", "Quiz", "Lab"]
        ids = [o.id for o in options if not o.disabled]
        assert ids == [c.id for c in book.chapters] + ["quiz:readiness", "lab:parallelism-paradox"]
        assert "Ring AllReduce" in str(rows.get_option_at_index(rows.highlighted).prompt)


async def test_enter_opens_the_highlighted_chapter_and_escape_returns(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        assert app.screen.chapter.id == "1"
        await chapter_filled_in(app, pilot)
        narrative = app.screen.query_one("#narrative", Markdown)
        assert narrative.source.startswith(f"# 1. {book.chapters[1].title}")
        assert book.chapters[1].narrative() in narrative.source   # opening first, then the rest appended
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_clicking_a_chapter_opens_it(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chapters = app.screen.query_one("#chapters", OptionList)
        await pilot.click(chapters, offset=(5, 3))
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)


async def test_q_quits(book, store):
    app = ringbook_app(book, store)
    async with app.run_test() as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_home_screen_stylesheet_is_applied(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 40)) as pilot:        # tall enough for the full layout, with its title
        await pilot.pause()
        assert app.screen.query_one("#book-title").region.x == 2   # home.tcss pads the page by 2


@pytest.mark.parametrize("chapter_id", ["0", "9", "16"])
async def test_every_paragraph_of_the_narrative_is_on_the_page(book, store, chapter_id):
    """The opening is painted first and the rest filled in after; no paragraph may go missing between."""
    chapter = book.chapter(chapter_id)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_chapter(chapter)
        await chapter_filled_in(app, pilot)
        narrative = app.screen.query_one("#narrative", Markdown)
        shown = " ".join(" ".join(str(block.content).split()) for block in narrative.query(MarkdownBlock))
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", chapter.narrative())]
    plain = [p for p in paragraphs if re.fullmatch(r"[A-Z][\w ,.'()-]{30,}.*", p) and "*" not in p[:60]]
    assert len(plain) >= 3
    for paragraph in plain:
        assert paragraph[:60] in shown

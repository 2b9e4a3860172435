"""The walking skeleton, driven as a learner would with Textual's Pilot."""

from textual.widgets import Markdown, OptionList

from tui.app import RingbookApp
from tui.screens.chapter import ChapterScreen
from tui.screens.home import HomeScreen


async def test_home_lists_every_chapter(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        chapters = app.screen.query_one("#chapters", OptionList)
        assert chapters.option_count == len(book.chapters) >= 10
        assert "Ring AllReduce" in str(chapters.get_option_at_index(0).prompt)


async def test_enter_opens_the_highlighted_chapter_and_escape_returns(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        assert app.screen.chapter.id == "1"
        await app.workers.wait_for_complete()
        await pilot.pause(0.5)
        narrative = app.screen.query_one("#narrative", Markdown)
        assert narrative.source.startswith(f"# 1. {book.chapters[1].title}")
        assert book.chapters[1].narrative() in narrative.source   # opening first, then the rest appended
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_clicking_a_chapter_opens_it(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chapters = app.screen.query_one("#chapters", OptionList)
        await pilot.click(chapters, offset=(5, 3))
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)


async def test_q_quits(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test() as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_home_screen_stylesheet_is_applied(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#book-title").region.x == 2   # home.tcss pads the page by 2

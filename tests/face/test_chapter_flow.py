"""The flow through the book: a chapter's end, the next chapter's opening, Continue, and the chapter's list,
driven with Pilot on the real store in a temp folder."""

from __future__ import annotations

import asyncio

from rich.console import Console, ConsoleRenderable
from textual.widgets import OptionList
from textual.widgets.markdown import MarkdownBlock

from tests.helpers import chapter_filled_in, footer_keys, home_ready, ringbook_app, settle, text_of, wait_until
from tui.progress.store import ProgressStore
from tui.screens.book_problems import BookProblemsScreen
from tui.screens.chapter import ChapterScreen
from tui.screens.chapter_end import ChapterEndScreen
from tui.screens.exercise import ExerciseScreen
from tui.screens.home import HomeScreen
from tui.widgets.page import Scroll
from tui.widgets.screen_frame import Header


def row_texts(listing: OptionList, width: int = 72) -> list[str]:
    """Each option of a list as the terminal shows it, `width` columns wide, lines joined."""
    console = Console(width=width, color_system=None, legacy_windows=False)
    rows = []
    for index in range(listing.option_count):
        prompt = listing.get_option_at_index(index).prompt
        assert isinstance(prompt, (str, ConsoleRenderable)), prompt    # Rich text or a table: what the lists hold
        lines = console.render_lines(prompt, pad=False)
        rows.append("\n".join("".join(segment.text for segment in line) for line in lines))
    return rows


async def back_to(app, pilot, kind) -> None:
    """Escape until a screen of `kind` shows (the first Escape may only leave an answer box)."""
    for _ in range(3):
        if isinstance(app.screen, kind):
            return
        await pilot.press("escape")
        await pilot.pause()
    assert isinstance(app.screen, kind)


async def open_last_exercise_of_chapter_0(app, pilot) -> None:
    await pilot.press("enter")                        # chapter 0, from home
    await pilot.pause()
    await chapter_filled_in(app, pilot)
    await pilot.press("e", "end", "enter")            # its exercises; the last one, 0.8
    await pilot.pause()
    assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "0.8"


async def test_n_after_a_chapters_last_exercise_shows_its_end_then_the_next_chapters_opening(book, store):
    store.record_attempt("0.1", "1.75", "correct")
    store.record_attempt("0.2", "1", "incorrect")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await open_last_exercise_of_chapter_0(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        end = app.screen
        assert isinstance(end, ChapterEndScreen)
        assert "Solved 1 of 8 exercises" in text_of(end.query_one("#end-solved"))
        assert f"1 / {len(book.exercises)} exercises" in text_of(end.query_one("#end-mastery"))
        listing = end.query_one("#end-list", OptionList)
        ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
        assert ids == ["0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "next"]   # 0.1 is solved
        assert listing.highlighted == len(ids) - 1 and app.focused is listing
        assert "Chapter 1 · ZeRO Stages" in row_texts(listing)[-1]
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen) and app.screen.chapter.id == "1"
        assert app.screen.initial_tab == "read" and app.screen.query_one("#page").scroll_y == 0   # its opening
        assert [type(s) for s in app.screen_stack] == [HomeScreen, ChapterScreen]   # chapter 0 is left
        assert "1" in store.chapters_opened()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_the_chapter_end_opens_what_is_left_and_enter_on_next_goes_on(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await open_last_exercise_of_chapter_0(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ChapterEndScreen)
        await pilot.press("escape")                   # back to the screen below: the chapter's list
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen) and app.screen.chapter.id == "0"
        await pilot.press("enter")                    # 0.8 again (the list kept it), then n to the end
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ChapterEndScreen)
        await pilot.press("home", "down", "enter")    # the second row left to solve: 0.2
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "0.2"
        assert [type(s) for s in app.screen_stack] == [HomeScreen, ChapterScreen, ExerciseScreen]
        app.open_chapter_end(book.chapter("0"))
        await pilot.pause()
        await pilot.press("enter")                    # the Next row is highlighted: chapter 1's opening
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen) and app.screen.chapter.id == "1"


async def test_the_books_last_chapter_ends_with_the_quiz(book, store):
    last = book.chapters[-1]
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_exercise(last.exercises[-1])
        await pilot.pause()
        await back_to(app, pilot, ExerciseScreen)
        app.screen.action_next()
        await pilot.pause()
        assert isinstance(app.screen, ChapterEndScreen)
        assert book.quizzes[0].title in row_texts(app.screen.query_one("#end-list", OptionList))[-1]
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ == "QuizScreen"


async def test_continue_offers_a_new_chapters_opening_before_its_exercises(book, store):
    for exercise in book.chapter("0").exercises:
        store.record_attempt(exercise.id, "x", "correct")
    store.set_last_opened("0", "0.8")                 # where n used to go: 1.1, chapter 1's text never shown
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Start: Chapter 1 · ZeRO Stages" in text_of(app.screen.query_one("#continue"))
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen) and app.screen.chapter.id == "1"
        assert app.screen.initial_tab == "read"
        listing = await chapter_filled_in(app, pilot)
        await pilot.press("e", "enter")               # the chapter read: its first exercise
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "1.1"
        assert listing.highlighted == 0
        await back_to(app, pilot, HomeScreen)
        await pilot.pause()
        assert "Continue: 1.1 " in text_of(app.screen.query_one("#continue"))   # begun: straight to it


async def test_chapters_opened_are_kept_and_an_old_store_has_none(book, data_dir):
    store = ProgressStore.open(data_dir)
    assert store.chapters_opened() == set()
    store.set_last_opened("3", "3.2")                 # a store from before: nothing else recorded
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Start: Chapter 3 · " in text_of(app.screen.query_one("#continue"))
        app.open_chapter(book.chapter("4"))
        app.open_chapter(book.chapter("5"), tab="exercises")   # at its list: the text was not shown
        await chapter_filled_in(app, pilot)
    store.close()
    store = ProgressStore.open(data_dir)
    assert store.chapters_opened() == {"4"}
    store.close()


async def test_the_chapter_list_highlights_the_exercise_last_visited(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        listing = await chapter_filled_in(app, pilot)
        await pilot.press("e", "enter")               # 0.1
        await pilot.pause()
        for expected in ("0.2", "0.3", "0.4", "0.5"):
            await back_to(app, pilot, ExerciseScreen)
            if app.focused is not app.screen.panel:
                await pilot.press("escape")           # the keyboard off the answer box, onto the panel
            await pilot.press("n")
            await pilot.pause()
            assert app.screen.exercise.id == expected
        await back_to(app, pilot, ChapterScreen)
        assert listing.get_option_at_index(listing.highlighted).id == "0.5"


async def test_the_kind_column_of_a_chapters_list_is_aligned(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        listing = await chapter_filled_in(app, pilot)
        rows = row_texts(listing)
        chapter = book.chapter("0")
        assert len({e.kind for e in chapter.exercises}) > 2
        columns = {row.index(f"{e.kind} ") for row, e in zip(rows, chapter.exercises, strict=True)}
        assert len(columns) == 1, rows


async def test_the_header_keeps_a_long_chapter_title_whole_at_80_columns(book, store):
    chapter = book.chapter("8")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_chapter(chapter)
        await chapter_filled_in(app, pilot)
        header = app.screen.query_one(Header)
        shown = str(header.title_shown())
        assert shown == f"Chapter 8: {chapter.title}"        # the book's title left out, nothing cut
        assert len(shown) <= header.size.width - Header.SIDES
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        app.open_chapter(chapter)
        await chapter_filled_in(app, pilot)
        assert str(app.screen.query_one(Header).title_shown()) == f"Chapter 8: {chapter.title} — {book.title}"


async def test_a_chapter_closed_as_it_opens_leaves_the_app_running(book, store):
    """Escape just after Enter (a wrong chapter, keys typed ahead on a busy host): the chapter closed while its
    narrative and list were still being filled in after its first frame, and the app stopped with a traceback
    (NoMatches). It goes back home, and the next chapter opens whole."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for chapter in book.chapters[:3]:
            app.open_chapter(chapter)
            for _ in range(100_000):   # its first frame's narrative is there; the rest is on its way
                if isinstance(app.screen, ChapterScreen) and app.screen.query(MarkdownBlock):
                    break
                await asyncio.sleep(0)
            assert not app.screen.query("#exercise-list")
            app.pop_screen()   # what Escape does there
            await pilot.pause(0.3)
            assert isinstance(app.screen, HomeScreen)
        await pilot.press("enter")
        await chapter_filled_in(app, pilot)
        assert isinstance(app.screen, ChapterScreen)


async def test_a_screen_closed_by_the_key_typed_with_the_one_that_opened_it_leaves_the_app_running(book, store):
    """Enter and Escape read from the terminal together: the screen Enter opened is closed before its own Mount
    is handled, and its widgets are gone by then (NoMatches, a traceback): a chapter, an exercise, the lab, a
    chapter's contents, a chapter's end, a live book's problems. A draft of the exercise is kept."""
    store.save_draft("0.2", "2M(N-1)")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for open_it in (lambda: app.open_chapter(book.chapters[1]), lambda: app.open_exercise(book.exercise("0.2")),
                        lambda: app.open_lab(book.labs[0])):
            open_it()
            app.pop_screen()   # what Escape, handled next, does
            await pilot.pause(0.3)
            assert isinstance(app.screen, HomeScreen)
        app.open_exercise(book.exercise("0.2"))
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.panel.answer_text() == "2M(N-1)"
        app.pop_screen()
        app.open_chapter(book.chapters[0])
        chapter = app.screen
        await chapter_filled_in(app, pilot)
        chapter.action_contents()   # t
        app.pop_screen()
        await pilot.pause(0.3)
        assert app.screen is chapter
        app.open_chapter_end(book.chapters[0])   # in place of the chapter, as n at its last exercise does
        app.pop_screen()
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen)
        app.push_screen(BookProblemsScreen([], book_open=True))   # a live book's problems (Ctrl+B)
        app.pop_screen()
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen)
    assert store.draft("0.2") == "2M(N-1)"


def footer_key(screen, key: str):
    """The footer's entry for `key` as last drawn, or None where it is not shown."""
    return next((shown for shown in footer_keys(screen) if shown.key == key), None)


async def test_g_is_dimmed_at_the_chapters_top_and_e_goes_while_the_list_has_the_keys(book, store, monkeypatch):
    """A footer key is never offered where it can do nothing (the keyboard walk found both): g (Top) is dimmed,
    its reason on hover, while the page is at its top (pressed, it rings the bell); e (Exercises) leaves the
    footer while the list has the keyboard, and comes back with g."""
    app = ringbook_app(book, store)
    bells = []
    monkeypatch.setattr(app, "bell", lambda: bells.append(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await pilot.press("enter")
        listing = await chapter_filled_in(app, pilot)
        chapter = app.screen
        await settle(app, pilot)
        top = footer_key(chapter, "g")
        assert top is not None and not top.enabled and "top" in top.tooltip
        await pilot.press("g")
        assert bells == [1]
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: footer_key(chapter, "g").enabled, "g offered once the page is scrolled")
        await pilot.press("e")
        await wait_until(pilot, lambda: chapter.focused is listing and footer_key(chapter, "e") is None,
                         "e gone from the footer with the list focused")
        assert footer_key(chapter, "g").enabled                     # g leaves the list for the page's top
        await pilot.press("g")
        page = chapter.query_one("#page", Scroll)
        await wait_until(pilot, lambda: chapter.focused is page and page.scroll_y == 0
                         and not footer_key(chapter, "g").enabled and footer_key(chapter, "e") is not None,
                         "the page's top, with g dimmed and e back")

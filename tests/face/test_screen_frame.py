"""Screens that close are let go of, and opening one, or a verdict, leaves garbage collection on
(tui/widgets/screen_frame.py, RingbookApp.show, ExerciseScreen.show_verdict). Before, every chapter visit kept
its Header and the home footer's old keys alive through Textual's watcher lists, and each full garbage
collection grew slower for it."""

import gc
import weakref

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from tests.helpers import chapter_filled_in, footer_keys, open_exercise, ringbook_app, settle, text_of, wait_until
from tui.app import RingbookApp
from tui.screens.chapter import ChapterScreen
from tui.widgets.screen_frame import Footer, Header


def watcher_count(reactable) -> int:
    return sum(len(watchers) for watchers in getattr(reactable, "__watchers", {}).values())


async def visit_chapters(app, pilot, times: int) -> list[weakref.ref[Widget]]:
    """Open and close a chapter `times` times; weak references to each visit's header and footer keys."""
    gone: list[weakref.ref[Widget]] = []
    for visit in range(times):
        app.open_chapter(app.book.chapters[visit % len(app.book.chapters)])
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        gone.append(weakref.ref(app.screen.query_one(Header)))
        gone.extend(weakref.ref(key) for key in app.screen.query(FooterKey))
        await pilot.press("escape")
        await pilot.pause()
    return gone


async def test_a_closed_chapter_screen_is_freed_with_its_header_and_footer(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        gone = await visit_chapters(app, pilot, 3)
        await pilot.pause()
        gc.collect()
        assert gone and [ref for ref in gone if ref() is not None] == []


async def test_watchers_stay_the_same_however_many_chapters_are_visited(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home_footer = app.screen.query_one(Footer)
        await visit_chapters(app, pilot, 2)
        before = watcher_count(app), watcher_count(home_footer)
        await visit_chapters(app, pilot, 3)   # any growth per visit shows after a few
        assert (watcher_count(app), watcher_count(home_footer)) == before
        assert home_footer.query(FooterKey)   # the home footer still shows its keys


async def test_garbage_collection_is_on_again_once_a_screen_has_opened(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for open_screen in (lambda: app.open_chapter(book.chapters[2]),
                            lambda: app.open_exercise(book.exercises[0]),
                            lambda: app.open_exercise(book.exercises[1], replace=True)):
            open_screen()
            await pilot.pause()
            assert gc.isenabled()


async def test_garbage_collection_is_on_again_once_a_verdict_is_painted(book, store):
    """An answer sent pauses collection until its verdict is painted, so a full one cannot hold it back
    (ExerciseScreen.show_verdict); left paused, the app's memory would only grow."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.7")
        await settle(app, pilot)
        for answer in ("M(N-1)/N", "2M(N-1)/N"):
            screen.query_one("#answer", Input).value = answer
            await pilot.press("enter")
            await settle(app, pilot)
            assert gc.isenabled()
        assert "Correct" in text_of(screen.query_one("#verdict"))


async def settled_footer_keys(pilot, screen) -> list[FooterKey]:
    """The footer's keys once its start-up rebuild is done: the same widgets over two frames, none due."""
    keys = None
    for _ in range(100):
        await pilot.pause()
        now = footer_keys(screen)
        if now and now == keys and not screen.query_one(Footer)._rebuild_due:
            return now
        keys = now
    raise AssertionError("the footer kept changing")


async def test_a_covered_screen_keeps_its_footer_until_it_shows_again(book, store):
    """Textual rebuilt the home footer's keys under every chapter opened. Each step waits for the footer it
    reads to be whole (its rebuild done), not for one frame: a loaded machine failed it once mid-rebuild."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        home_keys = await settled_footer_keys(pilot, home)
        app.open_chapter(book.chapters[1])
        exercise_list = await chapter_filled_in(app, pilot)
        chapter = app.screen
        await pilot.press("e")                     # the exercise list takes focus: new bindings
        await wait_until(pilot, lambda: exercise_list.has_focus and shows(chapter, "Back"),
                         "the chapter's footer after its list took the keys")
        assert footer_keys(home) == home_keys      # the same widgets: not rebuilt while covered
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is home and shows(home, "Open"), "home's footer shown again")
        shown = [key.description for key in footer_keys(home)]
        assert "Open" in shown and "Continue" in shown and "Back" not in shown


class FirstLayouts(RingbookApp):
    """The app, noting the keys each screen's footer holds when the screen is first laid out (its first frame)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.first_keys: dict[str, list[str]] = {}

    def get_default_screen(self):
        return self.noting(super().get_default_screen())

    def show(self, screen, **kwargs):
        super().show(self.noting(screen), **kwargs)

    def noting(self, screen):
        def laid_out(laid: Screen) -> None:
            self.first_keys.setdefault(type(laid).__name__, [key.description for key in footer_keys(laid)])

        screen.screen_layout_refresh_signal.subscribe(self, laid_out)
        return screen


async def test_a_screens_first_frame_shows_its_footers_keys(book, store):
    """Textual's footer builds its keys after the screen's first frame, for a second one: a layout, a render
    and a write more, ~40 ms of every start. Home's first layout, and a chapter's, hold their keys."""
    app = FirstLayouts(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_chapter(book.chapters[1])
        await chapter_filled_in(app, pilot)
        assert {"Open", "Continue", "Quit"} <= set(app.first_keys["HomeScreen"])
        assert {"Back", "Exercises", "Quit"} <= set(app.first_keys["ChapterScreen"])


def shows(screen, description: str) -> bool:
    """Whether the screen's footer is whole (no rebuild due) and offers `description`."""
    footer = screen.query_one(Footer)
    return not footer._rebuild_due and description in [key.description for key in footer_keys(screen)]


async def test_bindings_that_change_together_rebuild_the_footer_once(book, store, monkeypatch):
    rebuilds = []
    recompose = Footer.recompose

    async def counted(footer):
        rebuilds.append(footer)
        await recompose(footer)

    monkeypatch.setattr(Footer, "recompose", counted)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled_footer_keys(pilot, app.screen)   # home's start-up changes (its layout, r) are done
        footer = app.screen.query_one(Footer)
        rebuilds.clear()
        footer.compact = not footer.compact   # what the keys look like changes, and the bindings say so 3 times
        footer.call_later(lambda: [footer.bindings_changed(app.screen) for _ in range(3)])  # in 1 frame
        await pilot.pause()
        await pilot.pause()
        assert rebuilds == [footer] and footer_keys(app.screen)


async def test_bindings_that_change_to_the_same_keys_leave_the_footer_as_it_is(book, store):
    """Focus moving between two widgets that offer the same keys changes the screen's bindings; the footer
    rebuilt its ten keys each time to draw what it already showed."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        keys = await settled_footer_keys(pilot, app.screen)
        footer = app.screen.query_one(Footer)
        footer.call_later(lambda: [footer.bindings_changed(app.screen) for _ in range(3)])
        await pilot.pause()
        await pilot.pause()
        assert not footer._rebuild_due and footer_keys(app.screen) == keys   # the same widgets


async def test_a_click_on_the_header_leaves_it_one_row_and_the_screen_as_it_was(book, store):
    """Issue 23: Textual's header grew to three rows on a click, pushing the screen down (seen in a browser,
    where clicks are common). A click on its title now changes nothing; its icon still opens the palette."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(Header)
        home = app.screen
        for _ in range(2):
            await pilot.click(Header, offset=(40, 0))
            await pilot.pause()
            assert header.size.height == 1 and not header.has_class("-tall")
            assert app.screen is home
        await pilot.click(Header, offset=(1, 0))       # the icon
        await pilot.pause()
        assert app.screen is not home and type(app.screen).__name__ == "CommandPalette"


async def test_no_rule_styles_what_is_inside_a_focused_scroll(book, store):
    """A Scroll (a chapter's page, an exercise's, the lab's) restyles itself alone when its focus changes
    (tui/widgets/page.py). That is right only while no rule selects a widget by a focused ancestor that a
    Scroll could be: here are every such rule of every screen's stylesheet, and the ancestors they name."""
    from textual.css.model import SelectorType

    from tui.screens.exercise import ExerciseScreen
    from tui.screens.lab import LabScreen
    from tui.screens.quiz import QuizScreen
    from tui.widgets.page import Page, Scroll

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        for open_screen, shown in ((lambda: app.open_chapter(book.chapters[0]), ChapterScreen),
                                   (lambda: app.open_exercise(book.exercises[0]), ExerciseScreen),
                                   (lambda: app.open_quiz(book.quizzes[0]), QuizScreen),
                                   (lambda: app.open_lab(book.labs[0]), LabScreen)):
            open_screen()
            await wait_until(pilot, lambda shown=shown: isinstance(app.screen, shown), f"{shown.__name__} shown")
            await settle(app, pilot)
        ancestors = {(selector.name, selector.type) for rule in app.stylesheet.rules for chain in rule.selector_set
                     for selector in chain.selectors[:-1] if {"focus", "focus-within"} & set(selector.pseudo_classes)}
        scroll_names = {cls.__name__ for cls in Page.__mro__}
        could_be_a_scroll = {(name, kind) for name, kind in ancestors
                             if kind is not SelectorType.TYPE or name in scroll_names}
        assert could_be_a_scroll == set(), could_be_a_scroll
        assert ("OptionList", SelectorType.TYPE) in ancestors    # the check sees such rules: Textual's own
        assert issubclass(Page, Scroll)

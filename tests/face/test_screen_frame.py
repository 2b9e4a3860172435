"""Screens that close are let go of, and opening one, or a verdict, leaves garbage collection on
(tui/widgets/screen_frame.py, RingbookApp.show, ExerciseScreen.show_verdict). Before, every chapter visit kept
its Header and the home footer's old keys alive through Textual's watcher lists, and each full garbage
collection grew slower for it. The footer draws the screen's keys as they are, in the screen's first frame,
and a change of keys repaints it alone."""

import gc
import weakref

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input

from tests.helpers import chapter_filled_in, footer_keys, open_exercise, ringbook_app, settle, text_of, wait_until
from tui.screens.chapter import ChapterScreen
from tui.widgets.screen_frame import Footer, Header


def watcher_count(reactable) -> int:
    return sum(len(watchers) for watchers in getattr(reactable, "__watchers", {}).values())


async def visit_chapters(app, pilot, times: int) -> list[weakref.ref[Widget]]:
    """Open and close a chapter `times` times; weak references to each visit's header and footer."""
    gone: list[weakref.ref[Widget]] = []
    for visit in range(times):
        app.open_chapter(app.session.book.chapters[visit % len(app.session.book.chapters)])
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        gone.append(weakref.ref(app.screen.query_one(Header)))
        gone.append(weakref.ref(app.screen.query_one(Footer)))
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
        await pilot.pause()
        assert "Open" in [key.description for key in home_footer.shown]   # the home footer still shows its keys


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


async def test_a_change_of_keys_repaints_the_footer_without_laying_out_the_screen(book, store):
    """Textual's footer rebuilt a widget per key whenever the bindings changed, and laid the whole screen out
    again: ~55 ms of CPU after each verdict, when the keyboard moves from the answer to the page."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.7")
        await settle(app, pilot)
        await wait_until(pilot, lambda: "Submit" in descriptions(screen), "the answer's keys")
        layouts = []
        screen.screen_layout_refresh_signal.subscribe(app, layouts.append)
        await pilot.press("escape")                 # the page takes the keyboard: its keys instead
        await wait_until(pilot, lambda: "Next" in descriptions(screen), "the page's keys")
        assert "Submit" not in descriptions(screen) and layouts == []
        assert not screen.query_one(Footer).children


def descriptions(screen) -> list[str]:
    return [key.description for key in footer_keys(screen)]


async def test_a_covered_screen_shows_its_own_keys_again(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        await wait_until(pilot, lambda: "Open" in descriptions(home), "home's keys")
        app.open_chapter(book.chapters[1])
        exercise_list = await chapter_filled_in(app, pilot)
        await pilot.press("e")                     # the exercise list takes focus: new bindings
        await wait_until(pilot, lambda: exercise_list.has_focus and "Back" in descriptions(app.screen),
                         "the chapter's footer after its list took the keys")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is home and "Open" in descriptions(home), "home's footer")
        shown = descriptions(home)
        assert "Continue" in shown and "Back" not in shown


async def test_a_click_on_a_footer_key_does_what_its_key_does(book, store):
    """The mouse works too: a key in the footer is clicked as it is pressed, and one not usable now (dimmed)
    rings the bell instead."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Keys" in descriptions(app.screen), "home's keys")
        keys = next(key for key in footer_keys(app.screen) if key.description == "Keys")
        await pilot.click(Footer, offset=(keys.start + 1, 0))
        await wait_until(pilot, lambda: type(app.screen).__name__ == "KeysScreen", "the keys screen")


async def test_where_keys_do_not_fit_a_click_on_the_palettes_columns_opens_the_palette(book, store):
    """At 40 columns home's keys run under the palette's place on the right, and are cut there: a click on
    "^p palette" is the palette's, not that of a key drawn under it."""
    from textual.command import CommandPalette

    app = ringbook_app(book, store)
    async with app.run_test(size=(40, 24)) as pilot:
        await wait_until(pilot, lambda: "palette" in descriptions(app.screen), "home's keys")
        keys = footer_keys(app.screen)
        palette = next(key for key in keys if key.palette)
        assert all(key.end <= palette.start - 1 for key in keys if not key.palette)   # the edge "▏" between
        await pilot.click(Footer, offset=(palette.start, 0))
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the command palette")


async def test_hovering_a_footer_key_highlights_it_and_shows_its_tooltip(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Shot" in descriptions(app.screen), "home's keys")
        footer = app.screen.query_one(Footer)
        shot = next(key for key in footer.shown if key.description == "Shot")
        await pilot.hover(Footer, offset=(shot.start + 1, 0))
        await pilot.pause()
        assert footer.hovered == shot.key and "screenshot" in str(footer.tooltip)
        await pilot.hover(Footer, offset=(footer.size.width - 20, 0))   # between the keys and the palette's
        await pilot.pause()
        assert footer.hovered is None and footer.tooltip is None


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


async def test_the_headers_icon_says_it_opens_the_palette_when_the_mouse_is_on_it(book, store):
    """Textual's header icon had the tooltip; the header drawn as one widget gives it over the icon alone."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(Header)
        await pilot.hover(Header, offset=(1, 0))
        await wait_until(pilot, lambda: header.icon_hovered, "the icon hovered")
        assert header.tooltip == "Open the command palette"
        await pilot.hover(Header, offset=(40, 0))
        await wait_until(pilot, lambda: not header.icon_hovered, "the title hovered")
        assert header.tooltip is None


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


class OneKeyDimmed(App[None]):
    """The footer under a screen with a key it shows dimmed: ringbook's screens hide a key they cannot use now
    (check_action False) and none dims one (None) today, yet a screen may, and a click on it must say no."""

    BINDINGS = [Binding("g", "go", "Go"), Binding("w", "wait", "Wait")]

    def __init__(self) -> None:
        super().__init__()
        self.bells = 0
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "wait" else True

    def action_go(self) -> None:
        self.done.append("go")

    def action_wait(self) -> None:
        self.done.append("wait")

    def bell(self) -> None:
        self.bells += 1


async def test_a_click_on_a_dimmed_footer_key_rings_the_bell_and_does_nothing_else():
    app = OneKeyDimmed()
    async with app.run_test(size=(80, 24)) as pilot:
        footer = app.query_one(Footer)
        await wait_until(pilot, lambda: {key.action for key in footer.shown} >= {"go", "wait"}, "the footer's keys")
        wait, go = (next(key for key in footer.shown if key.action == action) for action in ("wait", "go"))
        assert not wait.enabled and go.enabled
        await pilot.click(Footer, offset=(wait.start + 1, 0))
        await wait_until(pilot, lambda: app.bells, "the bell")
        # Then the enabled key beside it: its action runs alone, so nothing the dimmed one posted ran before it.
        await pilot.click(Footer, offset=(go.start + 1, 0))
        await wait_until(pilot, lambda: app.done, "Go's action")
        assert (app.bells, app.done) == (1, ["go"])

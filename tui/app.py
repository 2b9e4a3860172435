"""The ringbook App: a shell around the learner's study session (tui.progress.session) that opens its screens.

What it does not do itself has a module of its own: pacing on a busy host (tui.pacing), the live book
(tui.live_book) and screenshots (tui.screenshots)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from grader.book.model import Book, Chapter, LabRef
from tui.commands import BookCommands, app_commands
from tui.keys_in_turn import KeysInTurn
from tui.live_book import LiveBook
from tui.pacing import Pacing
from tui.progress.clock import now
from tui.progress.session import StudySession
from tui.progress.store import ProgressStore, StoreError
from tui.screens.home import HomeScreen
from tui.screens.navigator import CatchesUp, KeepsUnsaved
from tui.screenshots import SavesScreenshots
from tui.suspending import resumable

if TYPE_CHECKING:
    from rich.console import RenderableType

    from grader.book.quiz import Quiz
    from grader.exercise import Exercise
    from grader.problems import Problem
    from tui.progress.class_share import ClassShare
    from tui.progress.review import Card

THEME_KEY = "theme"
WEB_SCHEMES = ("http", "https")  # what a link in a book may open


# What ends a session from outside: SIGHUP when its terminal closes (an SSH connection drops, a window is
# closed), SIGTERM from a logout, a shutdown or ringbook serve closing a tab's session.
ENDING_SIGNALS = (signal.SIGHUP, signal.SIGTERM)


class RingbookApp(KeysInTurn, SavesScreenshots):
    """A terminal textbook: chapters to read, exercises to answer, progress that is kept. It is the screens'
    Navigator (tui.screens.navigator): each screen is given the session and the app as it is made."""

    TITLE = "ringbook"
    COMMANDS = App.COMMANDS | {BookCommands}
    # The first screen's styles are read with Textual's own, in one pass: a screen's own CSS_PATH is read
    # when it first shows and re-parses the whole stylesheet twice (as does a mode's first screen).
    CSS_PATH = [Path(__file__).parent / "screens" / "home.tcss"]  # absolute: subclasses live elsewhere
    # Notices take lines of their own above the footer, the width of the screen, and the page gives those lines
    # up while one shows: Textual draws them on a layer over the page's bottom right, where the explanation or
    # verdict just revealed was being read (issue 45). Compact: a title line and the message, no blank rows.
    CSS = """
    ToastRack { layer: default; max-height: 50%; }
    Toast { width: 1fr; max-width: 100%; margin-top: 0; padding: 0 1; }
    """
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "toggle_keys", "Keys"),
        Binding("f2", "toggle_theme", "Theme", show=False),
        Binding("ctrl+s", "screenshot", "Shot", tooltip="Save an SVG screenshot of this screen in your data folder"),
        Binding("ctrl+b", "book_problems", "Book problems", show=False),   # a live book's, while it has any
        Binding("ctrl+z", "suspend_process", "Suspend: fg in your shell brings ringbook back", show=False),
    ]

    def __init__(self, book: Book, store: ProgressStore, *, clock: Callable[[], datetime] | None = None,
                 quiet_host: bool = False, watch: Path | None = None, problems: Sequence[Problem] = (),
                 share: ClassShare | None = None, check_kinds: bool = False):
        """`watch`: the book's folder, read again at each save (`--watch`); `problems`: why it did not load
        (then `book` is an empty stand-in until a save fixes it); `quiet_host`: a test's app (tui.pacing);
        `share`: the class the learner's progress is shared with as they answer (`--class`); `check_kinds`:
        stop, naming the files to add, if a kind lacks a part in either face (the `ringbook` command's app)."""
        super().__init__()
        self.check_kinds = check_kinds
        self.kind_parts_missing: list[str] = []   # what check_kinds found
        self.session = StudySession(book, store, clock or now, share=share)
        self.pacing = Pacing(self, quiet_host=quiet_host)
        self.live_book = LiveBook(self, watch, list(problems))
        self._start_blur_ignored = False   # see on_app_blur
        self.sub_title = book.title
        saved = store.state(THEME_KEY)
        if saved in self.available_themes:
            self.theme = saved

    def home_screen(self) -> HomeScreen:
        return HomeScreen(self.session, self)

    def get_default_screen(self) -> Screen:
        """Home; a live book broken from the start shows its problems instead, until a save fixes them."""
        if not self.session.book.chapters and self.live_book.problems:
            return self.live_book.problems_screen(book_open=False)
        return self.home_screen()

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self.keep_theme)
        self.app_resume_signal.subscribe(self, self.redraw_after_fg)
        if not self.is_headless:   # a test's app runs in the test's process, whose signals are not its own
            loop = asyncio.get_running_loop()
            for number in ENDING_SIGNALS:
                loop.add_signal_handler(number, self.exit)
        if self.session.store.notice:
            self.notify(self.session.store.notice, title="Progress", severity="warning", timeout=15)
        if (share := self.session.share) is not None:
            share.said = partial(said_soon, asyncio.get_running_loop(), self.notify_sharing)
            if share.problem:
                self.notify_sharing(share.status())
        self.live_book.start()
        if self.check_kinds:
            self.call_after_refresh(self.kind_parts_check)

    def kind_parts_check(self) -> None:
        """What a kind lacks in either face (tui.kind_parts) stops the app, to be said once it has (cli.app.run_app):
        checked just after the first frame, as it imports every kind's module, which a start from the book's copy
        does not need before it."""
        from tui.kind_parts import missing_parts

        self.kind_parts_missing = missing_parts()
        if self.kind_parts_missing:
            self.exit(return_code=1)

    def on_unmount(self) -> None:
        self.live_book.stop()
        self.session.close()   # the last answers shared before the store closes

    def notify_sharing(self, problem: str) -> None:
        """A problem sharing progress with the class, said once (tui.progress.class_share): the answer is kept."""
        self.notify(problem, title="Class", severity="warning", timeout=15)

    def exit(self, result: object = None, return_code: int = 0, message: RenderableType | None = None) -> None:
        """Every way out keeps what the learner typed first: q, Ctrl+Q, the palette's Quit, a closed terminal
        and SIGTERM (ENDING_SIGNALS), each of which ended the app with the last half second of typing unkept.
        Once the screens close it is too late: a screen's widgets are gone before the screen itself."""
        for screen in self.screen_stack:
            if isinstance(screen, KeepsUnsaved):
                screen.keep_unsaved()
        super().exit(result, return_code, message)

    async def action_quit(self) -> None:
        """Ctrl+Q (a priority key, run as it reaches the app) and q end the app once the keys sent before them
        have been handled: those typed just before were still on their way to the box, and were lost."""
        if self.focused is None:
            self.exit()
        else:
            self.focused.call_later(self.exit)

    def action_help_quit(self) -> None:
        """Ctrl+C: Textual's own notice says how to quit in markup, which this app's notices show as it is."""
        self.notify("Press Ctrl+Q (or q where it is not typed) to quit.", title="Do you want to quit?")

    def action_suspend_process(self) -> None:
        """Ctrl+Z (the editor's own Ctrl+Z undoes): stop, where a shell can bring the app back (tui.suspending)."""
        if self.is_web or self.is_headless or not resumable():
            self.notify("Ctrl+Z stops ringbook only when it runs in a shell that can bring it back (fg): "
                        "here it would stay stopped.", title="Not suspended")
            return
        super().action_suspend_process()

    def redraw_after_fg(self, _app: App) -> None:
        """Back from Ctrl+Z (`fg`): the terminal's screen was the shell's, and Textual redraws only what changed
        since, so an app idle when stopped came back to a blank screen."""
        self.refresh(layout=True)

    async def on_event(self, event: events.Event) -> None:
        if (isinstance(event, (events.Key, events.MouseDown, events.Paste)) and not event.is_forwarded
                and isinstance(self.screen, CatchesUp)):
            self.screen.catch_up()   # what it put off is done before the learner's input is
        await super().on_event(event)

    def on_app_blur(self, event: events.AppBlur) -> None:
        """In a browser, Textual's web driver blurs the app as it starts, to wait for the page to report focus.
        serve's page hides the app until Start and then gives it the keyboard, which a learner quick to press
        Start did before that blur came: the app then stayed blurred, its footer empty. So the app starts
        focused in a browser (out of sight until Start), and the page's own focus and blur count."""
        if self.is_web and not self._start_blur_ignored:
            self._start_blur_ignored = True
            event.prevent_default()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notification is shown as plain text, whoever asks (a screen's `notify` passes Textual's
        default, markup on): its message carries book titles, error messages and learner output, and
        markup there could carry an action (tui.widgets.plain)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Only web addresses open: a link in a book is the author's, and `javascript:` would run in the
        page `ringbook serve` shows, `file:` open a learner's file, and a custom scheme start whatever
        program the system hands it to."""
        if urlsplit(url).scheme.lower() not in WEB_SCHEMES:
            self.notify(f"Not opened: {url}\nOnly http and https links open from a book.", title="Link",
                        severity="warning")
            return
        super().open_url(url, new_tab=new_tab)

    # --- the screens' ways to other screens (tui.screens.navigator.Navigator) ------------------------

    def show(self, screen: Screen, *, replace: bool = False) -> None:
        """Open a screen over this one, or in its place, with garbage collection paused until its first frame."""
        self.pacing.show_screen(lambda: self.switch_screen(screen) if replace else self.push_screen(screen))

    def open_chapter(self, chapter: Chapter, *, tab: str = "read") -> None:
        from tui.screens.chapter import ChapterScreen

        self.session.store_position(chapter.id, at_opening=tab == "read")
        self.show(ChapterScreen(chapter, self.session, self, tab=tab))

    def open_chapter_end(self, chapter: Chapter) -> None:
        """The end of a chapter, in place of its last exercise (reached with n, as the next exercise is)."""
        from tui.screens.chapter_end import ChapterEndScreen

        self.show(ChapterEndScreen(chapter, self.session, self), replace=True)

    def open_exercise(self, exercise: Exercise, *, replace: bool = False) -> None:
        """Over the screen it was opened from (a chapter's list, home's Continue, the palette anywhere), so
        Back returns there; `replace`: instead of the exercise shown (n and p), so Back still does."""
        from tui.screens.exercise import ExerciseScreen

        self.session.store_position(exercise.chapter_id, exercise.id)
        self.show(ExerciseScreen(exercise, self.session, self), replace=replace)

    def open_quiz(self, quiz: Quiz) -> None:
        from tui.screens.quiz import QuizScreen

        self.show(QuizScreen(quiz, self.session, self))

    def open_lab(self, lab: LabRef) -> None:
        from grader.lab.load import LabError, load_lab
        from tui.screens.lab import LabScreen

        try:
            self.show(LabScreen(load_lab(lab.path, self.session.book.root), self.session.store))
        except LabError as exc:
            self.notify(str(exc), title="The lab cannot open", severity="error", timeout=15)

    # --- a review session (tui.progress.session decides; one exercise screen per card) ---------------

    def start_review(self) -> None:
        """Pose every due card with its new numbers, oldest due first, each on its own exercise screen.
        With nothing due, offer to practise the cards that come due soonest instead. A session left with
        Escape goes on at the card it was left on."""
        if self.session.review_cards or self.session.start_due():
            self._show_card(replace=False)
            return
        from tui.screens.practice_offer import PracticeOfferScreen

        deck = self.session.practice_deck()
        if not deck:
            self.notify("Nothing is due for review now: solve an exercise and it comes back here.", title="Review")
            return
        self.push_screen(PracticeOfferScreen(len(deck), deck[0].due),
                         lambda accepted: self._start_practice(deck) if accepted else None)

    def _start_practice(self, deck: list[Card]) -> None:
        self.session.start(deck, "practice")
        self._show_card(replace=False)

    def pause_review(self) -> None:
        """Back home from a card (Escape): the session waits there, and r on the home screen resumes it."""
        self.pop_screen()
        kind = "practice" if self.session.review_purpose == "practice" else "review"
        self.notify(f"Your {kind} is paused at card{self.session.progress()}: r goes on with it.",
                    title=kind.capitalize())

    def next_review(self, step: int = 1) -> None:
        """The next (or previous) card; after the last, back home with a summary of the session."""
        moved = self.session.move(step)
        if moved == "card":
            self._show_card(replace=True)
        elif moved == "first":
            self.notify("This is the first card of the review.")
        else:
            from tui.screens.review_done import ReviewDoneScreen

            self.pop_screen()
            end = self.session.finish()
            self.push_screen(ReviewDoneScreen(end.results, end.titles, end.now, end.next_due, practice=end.practice))

    def _show_card(self, *, replace: bool) -> None:
        from tui.screens.exercise import ExerciseScreen

        session = self.session
        card = session.card
        self.show(ExerciseScreen(session.card_exercise(card), session, self, seed=card.seed,
                                 purpose=session.review_purpose, card=True), replace=replace)

    # --- the app's own commands and keys ------------------------------------------------------------

    def action_book_problems(self) -> None:
        self.live_book.show_problems()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "book_problems":
            return bool(self.live_book.problems)
        return True

    def get_system_commands(self, screen: Screen) -> Iterator[SystemCommand]:
        yield from app_commands(self)

    def go_home(self) -> None:
        """Close every screen over the home screen (a review session under way waits, as after Escape)."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def action_toggle_keys(self) -> None:
        from tui.screens.keys import KeysScreen, keys_of

        if isinstance(self.screen, KeysScreen):
            self.screen.dismiss(None)
        else:
            self.push_screen(KeysScreen(keys_of(self.screen)))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def keep_theme(self, theme: Theme) -> None:
        """The theme chosen (F2, or any theme from the palette) is the one the next start shows."""
        store = self.session.store
        if not store.read_only:
            try:
                store.set_state(THEME_KEY, theme.name)
            except StoreError:
                pass  # a preference: the store has said it cannot write


def said_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[str], None], text: str) -> None:
    """`callback(text)` on the app's own thread, from another; never waiting (call_from_thread would, and the
    app may be waiting for that thread as it closes), and nothing once the app's loop is gone."""
    try:
        loop.call_soon_threadsafe(callback, text)
    except RuntimeError:   # the loop is closed: the app has ended
        pass

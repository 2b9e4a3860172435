"""The ringbook App: the book, the learner's store, and the screens between them."""

from __future__ import annotations

import asyncio
import gc
import math
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable
from urllib.parse import urlsplit

import textual.app as textual_app
from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from grader.book.model import Book, Chapter, LabRef
from grader.exercise import Exercise
from tui.commands import BookCommands
from tui.progress.clock import now
from tui.progress.store import ProgressStore, StoreError
from tui.progress.streak import Streak
from tui.screens.home import HomeScreen

if TYPE_CHECKING:
    from rich.console import RenderableType

    from grader.book.quiz import Quiz
    from grader.problems import Problem
    from tui.progress.review import Card
    from tui.watch import Watch

THEME_KEY = "theme"
TOAST_WIDTH, TOAST_FRAME = 60, 3   # Textual's notice: 60 columns or half the screen, less its border and padding
WEB_SCHEMES = ("http", "https")  # what a link in a book may open
PROOF_WORKER_START_SECONDS = 30.0  # how long a warm-up waits for the proof worker to load sympy
LOADAVG = Path("/proc/loadavg")    # Linux: its fourth field is "tasks runnable now/all tasks"
HOST_BUSY_RETRY_SECONDS = 0.5      # how often the screens' warm-up, waiting for a free core, looks again


@runtime_checkable
class Reopens(Protocol):
    """A screen that can show the same place on a book read again (a live book's reload)."""

    def reopened(self, book: Book) -> Screen | None:
        """This screen on `book`, scrolled as this one is; None when `book` no longer has what it shows."""


@runtime_checkable
class CatchesUp(Protocol):
    """A screen that may have put work off while the host was busy, which must be done before the learner's
    next key, click or paste is handled (it moves the keyboard)."""

    def catch_up(self) -> None:
        """Do now whatever is still put off."""


@runtime_checkable
class KeepsUnsaved(Protocol):
    """A screen holding something the learner typed that is kept after a moment (a draft), not at once."""

    def keep_unsaved(self) -> None:
        """Keep it now: the app is ending."""


# What ends a session from outside: SIGHUP when its terminal closes (an SSH connection drops, a window is
# closed), SIGTERM from a logout, a shutdown or ringbook serve closing a tab's session.
ENDING_SIGNALS = (signal.SIGHUP, signal.SIGTERM)


class RingbookApp(App):
    """A terminal textbook: chapters to read, exercises to answer, progress that is kept."""

    TITLE = "ringbook"
    COMMANDS = App.COMMANDS | {BookCommands}
    # The first screen's styles are read with Textual's own, in one pass: a screen's own CSS_PATH is read
    # when it first shows and re-parses the whole stylesheet twice (as does a mode's first screen).
    CSS_PATH = [Path(__file__).parent / "screens" / "home.tcss"]  # absolute: subclasses live elsewhere
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "toggle_keys", "Keys"),
        Binding("f2", "toggle_theme", "Theme", show=False),
        Binding("ctrl+s", "screenshot", "Shot", tooltip="Save an SVG screenshot of this screen in your data folder"),
        Binding("ctrl+b", "book_problems", "Book problems", show=False),   # a live book's, while it has any
    ]

    def __init__(self, book: Book, store: ProgressStore, *, clock: Callable[[], datetime] | None = None,
                 warm: bool = True, watch: Path | None = None, problems: Sequence[Problem] = ()):
        """`watch`: the book's folder, read again at each save (`--watch`); `problems`: why it did not load
        (then `book` is an empty stand-in until a save fixes it); `warm`: False for a test's app, which neither
        warms up ahead of need nor makes way on a busy host, so what it shows follows its keys alone."""
        super().__init__()
        self.book = book
        self.watched = watch
        self.book_problems = list(problems)
        self._watch: Watch | None = None
        self._reading_book = asyncio.Lock()   # one book read applied at a time: screens are closed and reopened
        self.store = store
        self.clock = clock or now
        self.warm = warm
        self._warmed: set[str] = set()
        self._start_blur_ignored = False   # see on_app_blur
        self.review_cards: list[Card] = []  # the review session under way, and where
        self.review_at = 0
        self.review_purpose = "review"  # or "practice": cards practised early, which move no schedule
        self.sub_title = book.title
        saved = store.state(THEME_KEY)
        if saved in self.available_themes:
            self.theme = saved

    def get_default_screen(self) -> Screen:
        """Home; a live book broken from the start shows its problems instead, until a save fixes them."""
        if not self.book.chapters and self.book_problems:
            from tui.screens.book_problems import BookProblemsScreen

            return BookProblemsScreen(self.book_problems, book_open=False)
        return HomeScreen()

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self.keep_theme)
        if not self.is_headless:   # a test's app runs in the test's process, whose signals are not its own
            loop = asyncio.get_running_loop()
            for number in ENDING_SIGNALS:
                loop.add_signal_handler(number, self.exit)
        if self.store.notice:
            self.notify(self.store.notice, title="Progress", severity="warning", timeout=15)
        if self.watched is not None:
            self.start_watching(self.watched)

    def exit(self, result: object = None, return_code: int = 0, message: RenderableType | None = None) -> None:
        """Every way out keeps what the learner typed first: q, Ctrl+Q, the palette's Quit, a closed terminal
        and SIGTERM (ENDING_SIGNALS), each of which ended the app with the last half second of typing unkept.
        Once the screens close it is too late: a screen's widgets are gone before the screen itself."""
        for screen in self.screen_stack:
            if isinstance(screen, KeepsUnsaved):
                screen.keep_unsaved()
        super().exit(result, return_code, message)

    def home_shown(self) -> None:
        """What waits for the frame that shows home's keys (HomeScreen calls this once): garbage collection
        (paused since start, cli.app.run_app) and the screens' warm-up (a thread that competes for the GIL)
        held those keys back 90 ms before. Start-up's objects live as long as the app, so they are frozen
        out of collection first: the first pass went over all of them, ~30 ms of every start (a second of
        CPU when a class of thirty starts together), and found a few thousand to free. Not in a test's app
        (warm=False), where one process runs many apps and each freeze would keep the last ones' garbage."""
        if self.warm:
            gc.freeze()
        gc.enable()
        # The screens' warm-up is work ahead of need. Thirty learners each warming up as their home showed added
        # ~0.25 s of CPU apiece to the starts of those still on their way, so it waits for a free core. A
        # learner who opens a screen meanwhile loads what it would have (RingbookApp.show), and then warm_up
        # does nothing: it came, with the first free core, just as a class paused to submit together.
        self.when_a_core_is_free(partial(self.warm_up, "screens"), HOST_BUSY_RETRY_SECONDS)

    def when_a_core_is_free(self, work: Callable[[], object], every: float, until: float = math.inf) -> None:
        """Do `work` once no more tasks want a core than the host has, looking again every `every` seconds, and
        at the monotonic time `until` whatever the host: work that can wait leaves a class's cores to what it
        is waiting for. At once in a test's app (host_is_busy)."""
        if not self._waits(work, every, until):
            work()

    def _waits(self, work: Callable[[], object], every: float, until: float) -> bool:
        """Whether `work` must wait; if so, the next look at the host is due in `every` seconds. Looks are on the
        event loop's own timer: a Textual timer's tick goes through the app's messages, ~1.2 ms of CPU a look
        against ~0.1 ms, and thirty learners waiting out a busy host look twenty times a second each."""
        if self.host_is_busy() and time.monotonic() < until:
            asyncio.get_running_loop().call_later(every, self._look_at_the_host, work, every, until)
            return True
        return False

    def _look_at_the_host(self, work: Callable[[], object], every: float, until: float) -> None:
        if self.is_running and not self._waits(work, every, until):
            self.call_later(work)   # a message, as a timer's was: its errors reach the app

    def host_is_busy(self) -> bool:
        """Whether more tasks want a core than the host has (a class starting or submitting together): work
        that can wait then waits. Never in a test's app (warm=False)."""
        return self.warm and more_runnable_than_cores()

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

    def warm_up(self, part: str) -> None:
        """Get a part ready in the background, after a frame is painted, so what first needs it is quick:
        "screens" (the chapter and exercise screens and numeric grading, ~0.25 s) once the home screen shows
        and the host has a core to spare;
        "units" (pint, ~6 MB and ~0.5 s) once a unit is typed into an answer, since only such an answer needs it
        (thirty learners warming it at home slowed one another's starts by seconds);
        "proofs" (the sympy proof worker, a process of its own) only when an exercise opens whose right answers
        need a proof (grader.kinds.derive.needs_proof), each time one does, since the worker goes when idle.
        Every other formula is settled without sympy, so reading chapters and answering never pays for it."""
        if not self.warm or part in self._warmed:
            return
        if part != "proofs":   # the worker goes when idle: each exercise that needs it asks again
            self._warmed.add(part)
        self._warm_in_thread(part)

    @work(thread=True, group="warm-up")
    def _warm_in_thread(self, part: str) -> None:
        if part == "proofs":
            from grader.maths.prover import WORKER

            WORKER.wait_until_ready(PROOF_WORKER_START_SECONDS)
            return
        from grader.book.load import exercise_of_ours
        from grader.grade import grade

        grade(exercise_of_ours({"answer": "1.75", "unit": "GB"}), "1750 MB" if part == "units" else "1.75")
        if part == "screens":
            import tui.screens.chapter
            import tui.screens.exercise  # noqa: F401
        gc.freeze()  # what was just loaded lives for the whole session: keep it out of every GC pass

    # --- what screens ask of the app ------------------------------------------------------------

    def streak(self) -> Streak:
        return self.store.streak(now=self.clock())

    def chapter_of(self, exercise: Exercise) -> Chapter:
        chapter = self.book.chapter(exercise.chapter_id)
        assert chapter is not None, f"{exercise.id} is this book's"
        return chapter

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

    def next_exercise(self, exercise: Exercise, step: int = 1) -> Exercise | None:
        exercises = self.book.exercises
        index = [e.id for e in exercises].index(exercise.id) + step  # by id: a variant is another object
        return exercises[index] if 0 <= index < len(exercises) else None

    def open_chapter(self, chapter: Chapter, *, tab: str = "read") -> None:
        from tui.screens.chapter import ChapterScreen

        self.store_position(chapter.id, at_opening=tab == "read")
        self.show(ChapterScreen(chapter, tab=tab))

    def open_chapter_end(self, chapter: Chapter) -> None:
        """The end of a chapter, in place of its last exercise (reached with n, as the next exercise is)."""
        from tui.screens.chapter_end import ChapterEndScreen

        self.show(ChapterEndScreen(chapter), replace=True)

    def open_exercise(self, exercise: Exercise, *, replace: bool = False) -> None:
        """Over the screen it was opened from (a chapter's list, home's Continue, the palette anywhere), so
        Back returns there; `replace`: instead of the exercise shown (n and p), so Back still does."""
        from tui.screens.exercise import ExerciseScreen

        self.store_position(exercise.chapter_id, exercise.id)
        self.show(ExerciseScreen(exercise), replace=replace)

    def open_quiz(self, quiz: Quiz) -> None:
        from tui.screens.quiz import QuizScreen

        self.show(QuizScreen(quiz))

    def open_lab(self, lab: LabRef) -> None:
        from grader.lab.load import LabError, load_lab
        from tui.screens.lab import LabScreen

        try:
            self.show(LabScreen(load_lab(lab.path, self.book.root), self.store))
        except LabError as exc:
            self.notify(str(exc), title="The lab cannot open", severity="error", timeout=15)

    def show(self, screen: Screen, *, replace: bool = False) -> None:
        """Open a screen with garbage collection paused until its first frame is painted. A full collection
        of this app's ~150,000 objects takes up to 200 ms on a slow machine and otherwise lands in the middle
        of about one opening in three; paused, it runs while the learner starts reading. (Textual pauses it
        the same way for smooth scrolling: App.PAUSE_GC_ON_SCROLL.)"""
        gc.disable()
        self._warmed.add("screens")   # they load as they open now: a warm-up still waiting for a core is moot
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        self.call_after_refresh(self.collect_garbage_again)  # runs after the new screen's first refresh

    def collect_garbage_again(self) -> None:
        """gc.enable, for after a frame that collection was paused for. A method, not gc.enable itself: Textual
        counts a callback's parameters from its signature, for a builtin afresh on every call (parsing its text
        signature, ~0.8 ms on a busy host), for a function once."""
        gc.enable()

    # --- a review session: the due cards, one exercise screen each -----------------------------------

    def start_review(self) -> None:
        """Pose every due card with its new numbers, oldest due first, each on its own exercise screen.
        With nothing due, offer to practise the cards that come due soonest instead. A session left with
        Escape goes on at the card it was left on."""
        from tui.progress.review import due_in_book

        if self.review_cards:
            self._show_card(replace=False)
            return
        due = due_in_book(self.store, self.book, self.clock())
        if due:
            self._start_session(due, "review")
        else:
            self._offer_practice()

    def _offer_practice(self) -> None:
        from tui.progress.review import kinds_of, practice_deck
        from tui.screens.practice_offer import PracticeOfferScreen

        deck = practice_deck(self.store, kinds_of(self.book))
        if not deck:
            self.notify("Nothing is due for review now: solve an exercise and it comes back here.", title="Review")
            return
        self.push_screen(PracticeOfferScreen(len(deck), deck[0].due),
                         lambda accepted: self._start_session(deck, "practice") if accepted else None)

    def _start_session(self, cards: list[Card], purpose: str) -> None:
        self.review_cards, self.review_at, self.review_purpose = cards, 0, purpose
        self._show_card(replace=False)

    def pause_review(self) -> None:
        """Back home from a card (Escape): the session waits there, and r on the home screen resumes it."""
        self.pop_screen()
        kind = "practice" if self.review_purpose == "practice" else "review"
        self.notify(f"Your {kind} is paused at card {self.review_at + 1} of {len(self.review_cards)}: "
                    "r goes on with it.", title=kind.capitalize())

    def review_progress(self) -> str:
        return f" {self.review_at + 1} of {len(self.review_cards)}" if self.review_cards else ""

    def next_review(self, step: int = 1) -> None:
        """The next (or previous) card; after the last, back home with a summary of the session."""
        self.review_at += step
        if 0 <= self.review_at < len(self.review_cards):
            self._show_card(replace=True)
            return
        if self.review_at < 0:
            self.review_at = 0
            self.notify("This is the first card of the review.")
            return
        self.pop_screen()
        self._show_review_done()
        self.review_cards = []

    def _show_card(self, *, replace: bool) -> None:
        from tui.screens.exercise import ExerciseScreen

        card = self.review_cards[self.review_at]
        self.show(ExerciseScreen(self._card_exercise(card), seed=card.seed, purpose=self.review_purpose, card=True),
                  replace=replace)

    def _card_exercise(self, card: Card) -> Exercise:
        exercise = self.book.exercise(card.exercise_id)
        assert exercise is not None, "a session's cards are the book's (start_review and practice_deck see to it)"
        return exercise

    def _show_review_done(self) -> None:
        from grader.book.variants import pose
        from tui.progress.review import kinds_of, next_due, session_results
        from tui.screens.review_done import ReviewDoneScreen

        kinds, now = kinds_of(self.book), self.clock()
        results = session_results(self.store, self.review_cards, kinds, self.review_purpose)
        titles = {c.exercise_id: pose(self._card_exercise(c), c.seed).title for c in self.review_cards}
        self.push_screen(ReviewDoneScreen(results, titles, now, next_due(self.store, now, kinds),
                                          practice=self.review_purpose == "practice"))

    def store_position(self, chapter_id: str, exercise_id: str = "", *, at_opening: bool = False) -> None:
        if not self.store.read_only:
            self.store.set_last_opened(chapter_id, exercise_id, at_opening=at_opening)

    # --- a live book (--watch): read again at each save, the learner's place kept -------------------------

    def start_watching(self, folder: Path) -> None:
        """Watch the book's files (tui.watch: one call per burst of events); a book that did not load shows
        its problems at once."""
        from tui.watch import BOOK_FILES, Watch

        watch = Watch(folder, self._book_edited, suffixes=BOOK_FILES)
        try:
            watch.start()
        except OSError as exc:
            self.notify(f"Cannot watch {folder} for changes: {exc.strerror or exc}", title="Live book",
                        severity="error", timeout=15)
            return
        self._watch = watch
        if self.book_problems:
            self.call_after_refresh(self.action_book_problems)

    def on_unmount(self) -> None:
        if self._watch is not None:
            self._watch.stop()

    def _book_edited(self) -> None:
        """On the watch's thread: hand the news to the app's."""
        try:
            self.call_from_thread(self._load_book_again)
        except RuntimeError:
            pass   # the app is closing

    @work(thread=True, exclusive=True, group="live-book")
    def _load_book_again(self) -> None:
        """The book read and checked as a start reads it (a book folder is hostile: every check applies), off
        the UI thread; the newest read wins."""
        from textual.worker import get_current_worker

        from grader.book.cache import default_folder
        from grader.book.load import BookError, load_book
        from grader.problems import Problem

        assert self.watched is not None, "only a watched book is read again"
        try:
            result: Book | list[Problem] = load_book(self.watched, cache_dir=default_folder())
        except BookError as exc:
            result = exc.problems
        except Exception as exc:   # a book that breaks the loader must not end the session
            result = [Problem(self.watched, 1, f"the book could not be read: {exc}")]
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._book_read, result)

    def _book_read(self, result: Book | list[Problem]) -> None:
        self.run_worker(self._apply_book_read(result), group="live-book-apply")

    async def _apply_book_read(self, result: Book | list[Problem]) -> None:
        async with self._reading_book:
            await self._show_book_read(result)

    async def _show_book_read(self, result: Book | list[Problem]) -> None:
        from tui.screens.book_problems import BookProblemsScreen

        if isinstance(result, list):
            self.book_problems = result
            if isinstance(self.screen, BookProblemsScreen):
                self.screen.show(result)
            else:
                self.action_book_problems()
            return
        fixed = bool(self.book_problems)
        self.book, self.book_problems = result, []
        self.sub_title = result.title
        await self._reopen_screens()
        self.notify("Your edits are in, and the book's problems are fixed." if fixed else "Your edits are in.",
                    title="Book reloaded", timeout=3)

    async def _reopen_screens(self) -> None:
        """The same screens on the new book, each where it was scrolled to: home, then every chapter, chapter's
        end and exercise over it, up to the first that is not one of those (a quiz, the lab, a dialog, the
        problems) or no longer in the book, which closes with what was over it. A book broken from the start
        has its problems at the bottom of the stack (get_default_screen): home opens over them."""
        stack = self.screen_stack
        home = next((screen for screen in stack if isinstance(screen, HomeScreen)), None)
        above = stack[stack.index(home) + 1:] if home is not None else stack[1:]
        reopened: list[Screen] = []
        for screen in above:
            again = screen.reopened(self.book) if isinstance(screen, Reopens) else None
            if again is None:
                break
            reopened.append(again)
        while len(self.screen_stack) > 1 and self.screen is not home:
            await self.pop_screen()
        if home is None:
            await self.push_screen(HomeScreen())
        else:
            await home.book_changed()
        for screen in reopened:
            await self.push_screen(screen)

    def action_book_problems(self) -> None:
        from tui.screens.book_problems import BookProblemsScreen

        if self.book_problems and not isinstance(self.screen, BookProblemsScreen):
            self.push_screen(BookProblemsScreen(self.book_problems, book_open=bool(self.book.chapters)))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "book_problems":
            return bool(self.book_problems)
        return True

    def get_system_commands(self, screen: Screen) -> Iterator[SystemCommand]:
        """Ringbook's own commands in the palette (Ctrl+P), beside the book's chapters and exercises; not
        Textual's (its theme picker, Maximize, its keys panel), which ringbook does not use."""
        yield SystemCommand("Home", "Back to the home screen", self.go_home)
        if self.book_problems:
            yield SystemCommand("Book problems", "What stops the book loading, as path:line: message (Ctrl+B)",
                                self.action_book_problems)
        yield SystemCommand("Review", "Review the exercises that are due (r on the home screen)", self.start_review)
        yield SystemCommand("Keys", "The keys of this screen (?)", self.action_toggle_keys)
        yield SystemCommand("Theme", "Switch between the light and dark themes (F2)", self.action_toggle_theme)
        yield SystemCommand("Screenshot", "Save this screen as an SVG in your data folder (Ctrl+S)",
                            lambda: self.set_timer(0.1, self.action_screenshot))  # once the palette has gone
        yield SystemCommand("Quit", "Leave ringbook; your progress is kept (q)", self.action_quit)

    def go_home(self) -> None:
        """Close every screen over the home screen (a review session under way waits, as after Escape)."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    # --- actions --------------------------------------------------------------------------------

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
        if not self.store.read_only:
            try:
                self.store.set_state(THEME_KEY, theme.name)
            except StoreError:
                pass  # a preference: the store has said it cannot write

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Screenshots go to <data dir>/screenshots, beside the learner's progress, where a teacher or a bug
        report can find them; Textual's own default (Downloads) only when the store cannot be written. In a
        browser (`ringbook serve`) the browser is offered the file, which Textual does without a word."""
        if self.is_web:
            key = super().deliver_screenshot(filename, path, time_format)
            self.notify("Your browser was offered this screen as an SVG file to download.", title="Screenshot")
            return key
        if path is None and self.store.path is not None and not self.store.read_only:
            folder = self.store.path.parent / "screenshots"
            try:
                folder.mkdir(exist_ok=True)
                path = str(folder)
            except OSError:
                pass
        if filename is None:
            filename = _new_screenshot_name(Path(path) if path is not None else textual_app.user_downloads_path(),
                                            self.clock())
        return super().deliver_screenshot(filename, path, time_format)

    @on(events.DeliveryComplete)
    def _say_where_the_screenshot_is(self, event: events.DeliveryComplete) -> None:
        """Textual's notice put the whole path in one string that the notice broke mid-name at 80
        columns. This one gives the file name a line of its own and the folder (`~` for home) in pieces
        that break only after a `/`. (In a browser, where there is no path, Textual's own notice shows.)"""
        if event.name != "screenshot" or event.path is None:
            return
        event.prevent_default()
        width = min(TOAST_WIDTH, self.size.width // 2) - TOAST_FRAME
        where = _folded(f"in {_home_short(event.path.parent)}/", width)
        self.notify("\n".join(["Saved this screen as", event.path.name, *where]), title="Screenshot")


def _new_screenshot_name(folder: Path, moment: datetime) -> str:
    """`ringbook-2026-11-26-093000.svg`, short enough for a notice line at 80 columns; `-2`, `-3` for
    more in the same second."""
    stem = f"ringbook-{moment:%Y-%m-%d-%H%M%S}"
    name, counter = f"{stem}.svg", 2
    while (folder / name).exists():
        name, counter = f"{stem}-{counter}.svg", counter + 1
    return name


def _home_short(folder: Path) -> str:
    """`folder` with the home folder written `~`, as a shell would accept it."""
    try:
        return str(Path("~") / folder.relative_to(Path.home()))
    except ValueError:
        return str(folder)


def _folded(path: str, width: int) -> list[str]:
    """`path` in lines of at most `width` characters, each ending after a `/`, so no name is split (a single
    name longer than `width` keeps a line of its own)."""
    lines = [""]
    for piece in path.replace("/", "/\n").split("\n"):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return [line for line in lines if line]


def more_runnable_than_cores() -> bool:
    """Whether more tasks are runnable right now than the host has cores (this one among them). False where
    the kernel does not say (no /proc/loadavg): then nothing waits."""
    try:   # read with the OS's calls: a learner waiting out a busy host looks twenty times a second, and
        fd = os.open(LOADAVG, os.O_RDONLY)   # Path.read_text's text wrapper cost a tenth of a millisecond
        try:
            loadavg = os.read(fd, 256)
        finally:
            os.close(fd)
        runnable = int(loadavg.split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return False
    return runnable > (os.cpu_count() or 1)

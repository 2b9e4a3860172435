"""The watch of `ringbook work`, modelled on Rustlings' watch mode: the tests run at the start and at each save
that changes the code, and the learner's keys act meanwhile (h a hint, x the explanation after a confirm, l
the list of builds, n the next unsolved build once this one passes, q quit).

One loop on the main thread takes each event in turn from a queue that the file watcher (tui/watch.py) and the
keys (work_keys.py) fill from their own threads, so a grade, a key and a save never overlap. What a run and a
reveal write is what the app writes (tui.progress.answering): the same attempts, hints used, reveals and draft.
SIGTERM ends it as Ctrl+C and q do: the file's code kept as the draft, the terminal given back, and where the
code is said.
"""

from __future__ import annotations

import queue
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from grader.book.model import Book
from grader.kinds.build import Build
from grader.safe_text import printable
from tui.cli.work_screen import BuildRow, PlainScreen, TerminalScreen, draws_block, progress_line
from tui.lines.mode import SETTING_KEY
from tui.progress.store import ProgressStore, StoreError
from tui.progress.work_files import Opened, WorkFileError, open_work_file, read_work_file, work_file, work_folder
from tui.watch import Watch

if TYPE_CHECKING:
    from tui.progress.class_share import ClassShare

EXIT_TERMINATED = 128 + signal.SIGTERM   # as a shell reports a program that SIGTERM ended
WAKE_SECONDS = 1.0   # the loop wakes this often while idle, so a signal is acted on at once


class Terminated(BaseException):
    """SIGTERM arrived: end the watch as Ctrl+C does (a BaseException, so no `except Exception` keeps it)."""


def builds(book: Book) -> list[Build]:
    return [exercise for exercise in book.exercises if isinstance(exercise, Build)]


def next_unsolved(book: Book, store: ProgressStore, after: Build | None = None) -> Build | None:
    """The first build not solved in book order, from the one after `after` (wrapping round), else None."""
    every = builds(book)
    states = store.exercise_states()
    start = every.index(after) + 1 if after in every else 0
    for exercise in every[start:] + every[:start]:
        state = states.get(exercise.id)
        if exercise is not after and not (state and state.solved):
            return exercise
    return None


def open_code(store: ProgressStore, exercise: Build) -> tuple[Path, Opened]:
    """The exercise's work file made ready (raises WorkFileError): the draft, else the starter, unless the file
    holds code edited outside a run."""
    path = work_file(work_folder(store.path), exercise.id)
    code = store.draft(exercise.id) or exercise.starter
    return path, open_work_file(path, code, {exercise.starter, *(a.answer for a in store.attempts(exercise.id))})


def keep_as_draft(store: ProgressStore, exercise_id: str, code: str) -> str:
    """Keep `code` as the draft the app opens with: "" once kept, else why not ("read-only" when the store
    has said so already)."""
    if store.read_only:
        return "read-only"
    try:
        store.save_draft(exercise_id, code)
    except StoreError as exc:
        return "read-only" if store.read_only else str(exc)
    return ""


@dataclass
class Watching:
    """The build being worked on, and what the learner has done with it in this watch."""

    exercise: Build
    path: Path
    last: str = ""   # the code last run
    hints_shown: int = 0
    reveal_asked: bool = False
    explanation_shown: bool = False
    passed: bool = False
    since: float = field(default_factory=time.monotonic)   # when the code last run was run, for seconds_taken


class Watcher:
    """`ringbook work` once its first build is chosen: `run()` watches until q, Ctrl+C or SIGTERM."""

    def __init__(self, book: Book, store: ProgressStore, exercise: Build, share: ClassShare | None = None):
        from tui.cli.work_keys import Keys

        self.book, self.store, self.share = book, store, share
        self.events: queue.Queue[str] = queue.Queue()   # "saved", or a key of work_keys.KEYS
        self.notices: queue.Queue[str] = queue.Queue()  # what sharing with the class said, from its own thread
        if share is not None:
            share.said = self.notices.put
        self.keys = Keys(self.events.put)
        block = draws_block(store.state(SETTING_KEY))
        self.screen = TerminalScreen() if block else PlainScreen(keys_from_lines=not self.keys.terminal)
        self.first = exercise
        self.now: Watching | None = None
        self._watch: Watch | None = None

    def run(self) -> int:
        """Watch until the learner quits; the exit status."""
        stopped_by = 0
        try:
            with self._sigterm_ends_it(), self.keys:
                try:
                    if not self.start(self.first):
                        return 1
                    self.loop()
                except (KeyboardInterrupt, Terminated) as end:
                    stopped_by = EXIT_TERMINATED if isinstance(end, Terminated) else 0
                finally:
                    self._stop_watching()
        except OSError as exc:
            print(f"ringbook work: cannot watch the work folder: {exc.strerror or exc}", file=sys.stderr)
            return 1
        if self.now is not None:
            print(printable(f"\nStopped. {self.where_the_code_is()}"), flush=True)
        return stopped_by

    def loop(self) -> None:
        while True:
            try:
                event = self.events.get(timeout=WAKE_SECONDS)
            except queue.Empty:
                event = ""
            while not self.notices.empty():
                self.screen.notice(self.notices.get())
            if event == "q":
                return
            if event:
                self.handle(event)

    def handle(self, event: str) -> None:
        now = self.now
        assert now is not None
        if event == "saved":
            self.run_if_changed()
        elif event == "h":
            self.hint(now)
        elif event == "x":
            self.explain(now)
        elif event == "l":
            self.screen.listing(self.rows())
        elif event == "n":
            self.go_on(now)

    def start(self, exercise: Build) -> bool:
        """Make `exercise` the build worked on: its file ready, its task shown, its tests run; False when its
        file cannot be made (said)."""
        try:
            path, opened = open_code(self.store, exercise)
        except WorkFileError as exc:
            print(f"ringbook work: {exc}", file=sys.stderr)
            return False
        notes = []
        if opened.taken:
            notes.append(f"{path} changed since the last run: taking it as your code.")
            refused = keep_as_draft(self.store, exercise.id, opened.code)
            if refused and refused != "read-only":   # a read-only store has said why already
                notes.append(f"Not kept as your draft: {refused}")
            if opened.kept is not None:
                notes.append(f"Your code before it is kept as {opened.kept}.")
        elif opened.kept is not None:
            notes.append(f"The file held other code: it is kept as {opened.kept}.")
        if self.share is not None and self.now is None:   # the first task says it, as home does
            notes.append(self.share.status())
        self._stop_watching()
        self._start_watching(path)   # before the task is shown: a save made once it shows is seen
        self.now = Watching(exercise, path)
        self.screen.task(exercise, path, notes, self.progress())
        self.run_if_changed(at_start=True)
        return True

    def run_if_changed(self, *, at_start: bool = False) -> None:
        """Run the file's code, unless it is the code run last. At the start, code that the store has already
        (the starter, or any earlier run's) is run to show where the learner stands, and not recorded again."""
        now = self.now
        assert now is not None
        try:
            code = read_work_file(now.path)
        except WorkFileError as exc:
            self.screen.notice(f"{exc}; waiting for the next save.")
            return
        if code == now.last and not at_start:
            return
        now.last = code
        known = {now.exercise.starter, *(a.answer for a in self.store.attempts(now.exercise.id))}
        self.run_once(now, code, record=not (at_start and code in known))

    def run_once(self, now: Watching, code: str, *, record: bool) -> None:
        """Grade `code` as the app's Run does, record it (with the hints shown so far), keep it as the draft,
        and show the verdict."""
        from grader.grade import grade
        from tui.progress.answering import record_answer
        from tui.progress.clock import now as clock

        self.screen.running()
        verdict = grade(now.exercise, code)
        notes = []
        if record:
            try:
                kept = record_answer(self.store, now.exercise.id, code, verdict, hints_used=now.hints_shown,
                                     seconds_taken=time.monotonic() - now.since, seed=0, purpose="learn",
                                     explanation_shown=False, now=clock(), draft_key=now.exercise.id)
            except StoreError as exc:
                notes.append(f"Not saved: {exc}")
            else:
                if kept is not None and self.share is not None:
                    self.share.attempted()   # shared a moment later, on the sharing thread
            keep_as_draft(self.store, now.exercise.id, code)   # what the app opens with, as after a run there
        now.since = time.monotonic()
        now.passed, first_shown = verdict.status == "correct", False
        if now.passed:
            notes.append("done: type n and Enter for the next build" if not self.keys.terminal
                         else "done: press n for the next build")
            first_shown = not now.explanation_shown   # a pass shows it, unless this watch has shown it already
            notes += self.record_reveal(now)
        explanation = now.exercise.explanation if now.passed and first_shown else ""
        self.screen.verdict(verdict, notes, self.progress(), explanation=explanation)

    def hint(self, now: Watching) -> None:
        hints = now.exercise.hints
        if now.hints_shown >= len(hints):
            self.screen.notice("No more hints: x shows the worked answer." if hints else
                               "This build has no hints: x shows the worked answer.")
            return
        now.hints_shown += 1   # counted in the next run's attempt, as the app counts them
        self.screen.hint(now.hints_shown, len(hints), hints[now.hints_shown - 1])

    def explain(self, now: Watching) -> None:
        """The worked answer: at once once passed (or shown already); before that a deliberate step, as in the
        app: x asks, and x again reveals it, kept as revealed."""
        if now.passed or now.explanation_shown or now.reveal_asked:
            self.show_explanation(now)
            return
        now.reveal_asked = True
        self.screen.notice("Show the worked answer? It is kept as revealed (as if you gave up on it): "
                           "x again shows it, h gives a hint first.")

    def show_explanation(self, now: Watching) -> None:
        for note in self.record_reveal(now):
            self.screen.notice(note)
        self.screen.explanation(now.exercise.explanation)

    def record_reveal(self, now: Watching) -> list[str]:
        """Keep the explanation's first opening as the app does (a reveal, unless solved); what to say if the
        store refused it."""
        from tui.progress.answering import record_explanation_opened
        from tui.progress.clock import now as clock

        if now.explanation_shown:
            return []
        now.explanation_shown = True
        try:
            record_explanation_opened(self.store, now.exercise.id, clock())
        except StoreError as exc:
            return [f"Not saved: {exc}"]
        return []

    def go_on(self, now: Watching) -> None:
        if not now.passed:
            self.screen.notice("n goes on once this build passes (x shows the worked answer).")
            return
        following = next_unsolved(self.book, self.store, after=now.exercise)
        if following is None:
            self.screen.notice("Every build exercise is solved. q quits.")
            return
        self.where_the_code_is()
        self.start(following)

    def rows(self) -> list[BuildRow]:
        states = self.store.exercise_states()
        current = self.now.exercise.id if self.now else ""
        rows = []
        for exercise in builds(self.book):
            state = states.get(exercise.id)
            mark = "solved" if state and state.solved else "tried" if state and state.attempts else "new"
            rows.append(BuildRow(exercise.id, exercise.title, mark, exercise.id == current))
        return rows

    def progress(self) -> str:
        states = self.store.exercise_states()
        every = builds(self.book)
        return progress_line(sum(1 for e in every if (s := states.get(e.id)) and s.solved), len(every))

    def where_the_code_is(self) -> str:
        """Where the code is, once the file's code (saved perhaps while a run went on, and not run) is the
        draft: said on leaving, and kept so on moving to the next build."""
        now = self.now
        assert now is not None
        try:
            code = read_work_file(now.path)
        except WorkFileError as exc:
            return f"{exc}; your draft in the app is the code last run."
        if self.store.draft(now.exercise.id) == code or not keep_as_draft(self.store, now.exercise.id, code):
            return f"Your code is kept in {now.path} and is your draft in the app."
        return f"Your code is kept in {now.path}."

    def _start_watching(self, path: Path) -> None:
        watch = Watch(path.parent, lambda: self.events.put("saved"), recursive=False, only=path)
        watch.start()
        self._watch = watch

    def _stop_watching(self) -> None:
        if self._watch is not None:
            self._watch.stop()
        self._watch = None

    @contextmanager
    def _sigterm_ends_it(self) -> Iterator[None]:
        def terminated(number: int, frame: FrameType | None) -> None:
            raise Terminated

        before = signal.signal(signal.SIGTERM, terminated)
        try:
            yield
        finally:
            signal.signal(signal.SIGTERM, before)


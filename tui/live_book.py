"""A live book (`ringbook --content DIR --watch`): read again at each save, the learner's screens reopened where
they were on the new book, and what stops it loading shown as its problems until a save fixes them. What only
`ringbook content check` finds (the checks of sampled variants, a chapter's worked numbers) does not stop the
book loading, so it is run after each good read and its problems are shown in a notice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.screen import Screen

from grader.book.model import Book
from grader.safe_text import printable
from tui.screens.home import HomeScreen

if TYPE_CHECKING:
    from grader.problems import Problem
    from tui.app import RingbookApp
    from tui.watch import Watch


FIRST_SHOWN = 3   # problems a notice quotes; `ringbook content check` lists them all


@runtime_checkable
class Reopens(Protocol):
    """A screen that can show the same place on a book read again (a live book's reload)."""

    def reopened(self, book: Book) -> Screen | None:
        """This screen on `book`, scrolled as this one is; None when `book` no longer has what it shows."""


class LiveBook:
    """The watched book folder of `app` (None: a book that is not watched), and its problems while it has any
    (with `problems` from the start, the app's book is an empty stand-in until a save fixes them)."""

    def __init__(self, app: RingbookApp, folder: Path | None, problems: list[Problem]):
        self.app = app
        self.folder = folder
        self.problems = problems
        self.watch: Watch | None = None
        self._reading = asyncio.Lock()   # one book read applied at a time: screens are closed and reopened
        self._check_cache: tempfile.TemporaryDirectory[str] | None = None   # the full check's own, see _full_check
        self._check: subprocess.Popen[bytes] | None = None   # the full check running, if one is
        self._checking = threading.Lock()

    def start(self) -> None:
        """Watch the book's files (tui.watch: one call per burst of events); a book that did not load shows
        its problems at once."""
        if self.folder is None:
            return
        from tui.watch import BOOK_FILES, Watch  # only a watched book needs it

        watch = Watch(self.folder, self._edited, suffixes=BOOK_FILES)
        try:
            watch.start()
        except OSError as exc:
            self.app.notify(f"Cannot watch {self.folder} for changes: {exc.strerror or exc}", title="Live book",
                            severity="error", timeout=15)
            return
        self.watch = watch
        self.app.call_after_refresh(self.show_problems if self.problems else self._check_fully)

    def stop(self) -> None:
        if self.watch is not None:
            self.watch.stop()
        with self._checking:
            self._end_check()
        if self._check_cache is not None:
            with contextlib.suppress(OSError):   # a check ended just now may still be leaving its files
                self._check_cache.cleanup()

    def problems_screen(self, *, book_open: bool) -> Screen:
        from tui.screens.book_problems import BookProblemsScreen

        return BookProblemsScreen(self.problems, book_open=book_open)

    def show_problems(self) -> None:
        """The problems over the screen shown, unless they are shown already."""
        from tui.screens.book_problems import BookProblemsScreen

        if self.problems and not isinstance(self.app.screen, BookProblemsScreen):
            self.app.push_screen(self.problems_screen(book_open=bool(self.app.session.book.chapters)))

    def _edited(self) -> None:
        """On the watch's thread: hand the news to the app's."""
        try:
            self.app.call_from_thread(self._read_again)
        except RuntimeError:
            pass   # the app is closing

    def _read_again(self) -> None:
        self.app.run_worker(self._read, thread=True, exclusive=True, group="live-book", description="read the book")

    def _read(self) -> None:
        """The book read and checked as a start reads it (a book folder is hostile: every check applies), off
        the UI thread; the newest read wins."""
        from textual.worker import get_current_worker

        from grader.book.cache import default_folder
        from grader.book.load import BookError, load_book
        from grader.problems import Problem

        assert self.folder is not None, "only a watched book is read again"
        try:
            result: Book | list[Problem] = load_book(self.folder, cache_dir=default_folder())
        except BookError as exc:
            result = exc.problems
        except Exception as exc:   # a book that breaks the loader must not end the session
            result = [Problem(self.folder, 1, f"the book could not be read: {exc}")]
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._read_done, result)

    def _read_done(self, result: Book | list[Problem]) -> None:
        self.app.run_worker(self._apply(result), group="live-book-apply")

    async def _apply(self, result: Book | list[Problem]) -> None:
        async with self._reading:
            await self._show(result)

    async def _show(self, result: Book | list[Problem]) -> None:
        from tui.screens.book_problems import BookProblemsScreen

        if isinstance(result, list):
            self.problems = result
            if isinstance(self.app.screen, BookProblemsScreen):
                self.app.screen.show(result)
            else:
                self.show_problems()
            return
        fixed = bool(self.problems)
        self.app.session.book, self.problems = result, []
        self.app.sub_title = result.title
        gone = await self._reopen_screens()
        news = "Your edits are in, and the book's problems are fixed." if fixed else "Your edits are in."
        self.app.notify(f"{news} {gone}" if gone else news, title="Book reloaded", timeout=8 if gone else 3,
                        markup=False)   # ids are the author's text
        self._check_fully()

    def _check_fully(self) -> None:
        self.app.run_worker(self._full_check, thread=True, exclusive=True, group="live-book-check",
                            description="content check")

    def _full_check(self) -> None:
        """On a worker's thread: `ringbook content check` on the book, in a child process (its CPU is not the
        app's, whose keys stay quick), ending the one a newer save started before; its problems, if any, in a
        notice. The check keeps its checked copy of the book in a cache folder of its own: it hashes the files
        as it writes the copy, seconds after it read them, so a save in between would give the app's next read
        the book from before the save."""
        from textual.worker import get_current_worker

        with self._checking:
            self._end_check()
            if self._check_cache is None:
                self._check_cache = tempfile.TemporaryDirectory(prefix="ringbook-live-check-")
            process = self._check = subprocess.Popen(
                [sys.executable, "-m", "tui", "content", "check", "--content", str(self.folder)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env={**os.environ, "RINGBOOK_CACHE_DIR": self._check_cache.name})
        out, _ = process.communicate()
        found = [line for line in out.decode(errors="replace").splitlines()
                 if ": warning: " not in line and not line.startswith("ok: ")]
        if process.returncode == 1 and found and not get_current_worker().is_cancelled:
            with contextlib.suppress(RuntimeError):   # the app is closing
                self.app.call_from_thread(self._say_found, found)

    def _end_check(self) -> None:
        if self._check is not None and self._check.poll() is None:
            self._check.kill()

    def _say_found(self, found: list[str]) -> None:
        if self.problems:   # a save since broke the book: its problems say more
            return
        shown = [printable(line, one_line=True) for line in found[:FIRST_SHOWN]]
        more = f"\n... and {len(found) - FIRST_SHOWN} more" if len(found) > FIRST_SHOWN else ""
        self.app.notify(f"`ringbook content check` finds {len(found)} problem{'' if len(found) == 1 else 's'} "
                        f"the book loads despite (variants it draws, worked numbers):\n" + "\n".join(shown) + more,
                        title="Book check", severity="warning", timeout=20, markup=False)

    async def _reopen_screens(self) -> str:
        """The same screens on the new book, each where it was scrolled to: home, then every chapter, chapter's
        end and exercise over it, up to the first that is not one of those (a quiz, the lab, a dialog, the
        problems) or no longer in the book, which closes with what was over it. A book broken from the start
        has its problems at the bottom of the stack (get_default_screen): home opens over them. Says which
        chapter or exercise is gone, if one is: an author who renamed an id otherwise wonders where it went."""
        app = self.app
        stack = app.screen_stack
        home = next((screen for screen in stack if isinstance(screen, HomeScreen)), None)
        above = stack[stack.index(home) + 1:] if home is not None else stack[1:]
        reopened: list[Screen] = []
        gone = ""
        for screen in above:
            again = screen.reopened(app.session.book) if isinstance(screen, Reopens) else None
            if again is None:
                gone = _gone(screen, app.session.book)
                break
            reopened.append(again)
        while len(app.screen_stack) > 1 and app.screen is not home:
            await app.pop_screen()
        if home is None:
            await app.push_screen(app.home_screen())
        else:
            await home.book_changed()
        for screen in reopened:
            await app.push_screen(screen)
        return gone


def _gone(screen: Screen, book: Book) -> str:
    """What the screen that could not reopen showed, when the new book no longer has it ("" otherwise)."""
    from tui.screens.chapter import ChapterScreen
    from tui.screens.exercise import ExerciseScreen

    if isinstance(screen, ExerciseScreen) and book.exercise(screen.exercise.id) is None:
        return f"Exercise {screen.exercise.id} is gone from the book (its id changed, or it was deleted)."
    if isinstance(screen, ChapterScreen) and book.chapter(screen.chapter.id) is None:
        return f"Chapter {screen.chapter.id} is gone from the book (its id changed, or it was deleted)."
    return ""

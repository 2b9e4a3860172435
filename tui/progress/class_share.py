"""Progress shared with a class as the learner works (`RINGBOOK_CLASS`, `--class DIR`): after each attempt the
learner's export is written into the instructor's inbox, as `progress submit` writes one, replacing the
learner's own earlier copy there.

Sharing is best effort and never costs an attempt: the attempt is in the store before it is shared, and the
writing happens on a thread of its own, a moment after the last of a burst of attempts (one write for the
burst), and once more when the session closes. That thread reads the store through a connection of its
own, since the app's connection must not hold a read while an answer is being saved.

The inbox is sticky and cannot be listed (docs/classroom.md, "The inbox"), so a classmate could create a
file at a name they guess to block it (the sticky bit keeps the learner from replacing a file they do not
own): the file's name carries random bits chosen once and kept in the learner's store, and a name found
taken by someone else's file is given up for a new one, with a notice.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tui.progress.export_file import file_owner, inert_json
from tui.progress.store import ProgressStore, StoreError
from tui.progress.store_file import sync
from tui.progress.submission import export_with_identity, file_safe, for_the_inbox, login, write_new

CLASS_VARIABLE = "RINGBOOK_CLASS"
QUIET_SECONDS = 2.0      # after an attempt, how long no other comes before the burst is shared
CLOSE_WAITS_AT_MOST = 10.0   # quitting waits this long for the last write (a hung network file system)
NAME_KEY = "class_share_file:"   # + the inbox's path: the file name chosen for that inbox
LIVE_NAME = re.compile(r"[A-Za-z0-9._-]+-live-[0-9a-f]{20}\.json")


def nothing_said(_text: str) -> None:
    """Where problems go when no face listens (a test of the writing alone)."""


class ClassShare:
    """The learner's export, kept up to date in a class inbox. `said` hears each problem once, on the
    sharing thread: a face passes it on to its own thread."""

    def __init__(self, inbox: Path, data_dir: Path, *, quiet: float = QUIET_SECONDS,
                 said: Callable[[str], None] = nothing_said):
        self.inbox = Path(os.path.abspath(inbox.expanduser()))
        self.data_dir = data_dir
        self.quiet = quiet
        self.said = said
        self.problem = self.inbox_problem()   # the last problem said; a notice is said once, not per attempt
        self._due: float | None = None       # when the burst under way is shared (monotonic)
        self._closing = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._store: ProgressStore | None = None   # the sharing thread's own connection
        self._unkept_name = ""   # the name chosen when the store cannot keep it (read-only)

    # --- what the faces show ----------------------------------------------------------------------

    def instructor(self) -> str:
        """The login of the inbox's owner: who reads what is shared."""
        try:
            return file_owner(os.stat(self.inbox).st_uid) or "the inbox's owner"
        except OSError:
            return "the inbox's owner"

    def status(self) -> str:
        """One line for home and `ringbook progress`: that progress is shared, with whom, and how to stop."""
        if self.problem:
            return f"Not shared with your class: {self.problem}"
        return (f"Shared with {self.instructor()} as you answer. Stop: unset {CLASS_VARIABLE} or drop --class. "
                f"Inbox: {self.inbox}.")

    def inbox_problem(self) -> str:
        """Why nothing can be written into the inbox now, or ""."""
        try:
            info = os.stat(self.inbox)
        except FileNotFoundError:
            return f"the class inbox {self.inbox} does not exist; your answers are kept here as always."
        except OSError as exc:
            return f"the class inbox {self.inbox} cannot be reached ({exc.strerror}); your answers are kept here."
        if not stat.S_ISDIR(info.st_mode):
            return f"the class inbox {self.inbox} is not a folder; your answers are kept here as always."
        if not os.access(self.inbox, os.W_OK | os.X_OK):
            return f"you may not write into the class inbox {self.inbox}; your answers are kept here as always."
        return ""

    # --- sharing ----------------------------------------------------------------------------------

    def attempted(self) -> None:
        """An attempt was kept: share the progress once no other has come for `quiet` seconds."""
        with self._wake:
            if self._closing:
                return
            self._due = time.monotonic() + self.quiet
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="class share", daemon=True)
                self._thread.start()
            self._wake.notify()

    def close(self) -> None:
        """Share once more now (what came since the last answer goes with it: a quiz run, an explanation opened;
        a session without an answer is shared too), and stop; the session's store may then be closed."""
        self.attempted()
        with self._wake:
            self._closing = True
            self._wake.notify()
            thread = self._thread
        if thread is not None:
            thread.join(CLOSE_WAITS_AT_MOST)
        if self._store is not None and not (thread is not None and thread.is_alive()):
            self._store.close()
            self._store = None

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._due is not None and not self._closing and time.monotonic() < self._due:
                    self._wake.wait(self._due - time.monotonic())
                while self._due is None and not self._closing:
                    self._wake.wait()
                if self._due is None:   # closing, with nothing waiting
                    break
                self._due = None
            self.share_now()

    def share_now(self) -> None:
        """Write the export into the inbox now; a problem is said, once."""
        try:
            problem = self.inbox_problem() or self._write()
        except Exception as exc:   # on the sharing thread, a traceback would be drawn over the learner's screen
            problem = f"sharing failed ({type(exc).__name__}: {exc}); your answers are kept here as always."
        if problem and problem != self.problem:
            self.said(f"Not shared with your class: {problem}")
        self.problem = problem

    def _write(self) -> str:
        try:
            if self._store is None:
                self._store = ProgressStore.open(self.data_dir, session=False)
            text = inert_json(for_the_inbox(export_with_identity(self._store, None)))
            for _ in range(3):
                name = self._name()
                taken = self._put(name, text)
                if not taken:
                    return ""
                self._new_name()
                self.said(f"Another account's file was in the way of {self.inbox / name}: your progress is "
                          f"now shared as {self.inbox / self._name()}.")
            return "the class inbox has files of other accounts in the way of every name tried."
        except (StoreError, sqlite3.Error) as exc:
            return f"your progress could not be read to share it ({exc})."
        except OSError as exc:
            return f"cannot write into the class inbox {self.inbox} ({exc.strerror or exc})."

    def _name(self) -> str:
        """This learner's file in this inbox: chosen once, with random bits, and kept in their store."""
        assert self._store is not None
        kept = self._store.state(NAME_KEY + str(self.inbox)) or self._unkept_name
        return kept if LIVE_NAME.fullmatch(kept) else self._new_name()   # a hand edit's "../x" is never a path

    def _new_name(self) -> str:
        assert self._store is not None
        name = f"{file_safe(login())}-live-{secrets.token_hex(10)}.json"
        if self._store.read_only:
            self._unkept_name = name
        else:
            self._store.set_state(NAME_KEY + str(self.inbox), name)
        return name

    def _put(self, name: str, text: str) -> bool:
        """Write `text` as the inbox's file `name`, whole: into a new file there, synced, renamed over it. True
        when the name is taken by a file that is not this account's own (nothing written). Raises OSError."""
        target = self.inbox / name
        if self._not_mine(target):
            return True
        temp = write_new(self.inbox, f".{name}", text, tail=".partial")   # a dot: the report's *.json skips it
        try:
            os.replace(temp, target)
        except PermissionError:   # the sticky bit: a file of another account came there meanwhile
            temp.unlink(missing_ok=True)
            return True
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        try:
            sync(self.inbox)
        except OSError:   # an inbox that cannot be opened for reading (mode 3733 gives students no r) is no error
            pass
        return False

    @staticmethod
    def _not_mine(target: Path) -> bool:
        """Whether something at `target` is not a plain file of this account (root would replace it all the same)."""
        try:
            info = os.lstat(target)
        except FileNotFoundError:
            return False
        return not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid()

"""Programs in real pseudo-terminals, read as a person reads them: each one's output feeds a pyte terminal
emulator, so a wait ends when the text is on the emulated 80x24 screen (not merely somewhere in the byte
stream, where Textual may have written it before a later frame covers it).

Each terminal is read as sshd reads a learner's: by a small process of its own (`relay`), which takes the
output the moment there is some and notes when, for microseconds of CPU, while the emulating is done on the
learner's computer. Here the emulator runs on the host being measured, in the benchmark's one process, and
pyte takes milliseconds a frame: read by that process, thirty terminals' frames waited behind one another's
emulation on a busy host (a verdict thirty apps had written by 0.6 s was read after up to 3.9 s). So a wait
ends at the time the relay read the bytes after which its text was on the screen.

Where many terminals are timed at once (a class starting, or all submitting together), even that is not
enough: the emulating itself took a core of the measured host (a second of CPU for thirty verdicts) while the
apps drew them. There `emulated_when_quiet` keeps every read, with its time, until no terminal has printed
anything for a while, and only then emulates them: the waits end at the same reads, and the emulator's CPU is
spent after the apps are done, as the learners' own computers would spend it.

The benchmarks start every program through `Terminals`, which keeps them all in one asyncio loop and ends
every process it started, and any process those started, when it closes, however the benchmark stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import fcntl
import os
import signal
import struct
import termios
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pyte
from process_tree import descendants

WIDTH, HEIGHT = 80, 24
PR_SET_CHILD_SUBREAPER = 36
F_SETPIPE_SZ = 1031
RELAYED = struct.Struct("=dI")   # a relayed read: when (time.monotonic, the same clock in every process), bytes
RELAY_PIPE_BYTES = 1 << 20       # a burst of frames never fills it, so the relay never waits to read the next

ENTER, ESCAPE, CTRL_R, CTRL_U = "\r", "\x1b", "\x12", "\x15"
# Textual reads a lone Escape followed within ESCDELAY (100 ms) by another key as Alt+key.
ESCAPE_PAUSE = 0.3


class Ended(Exception):
    """The program ended (or the wait ran out) before the screen showed what was awaited."""


class Session:
    """One program in its own pseudo-terminal (its own session, with the terminal as its controlling one)."""

    def __init__(self, pid: int, fd: int, relay: int, relayed: int, started: float):
        self.pid = pid
        self.fd = fd               # the terminal: keys are written to it
        self.relay = relay         # the process that reads it, and the pipe it passes the reads on through
        self.relayed = relayed
        self._unread = b""
        self.started = started
        self.first_byte: float | None = None
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.ByteStream(self.screen)
        self.ended = False       # its terminal has closed
        self.kept: list[tuple[float, bytes]] | None = None   # reads not yet emulated (emulated_when_quiet)
        self.last_read = started
        self.closed = False      # ended here: killed, waited for, its terminal closed
        self._waiters: list[tuple[Callable[[str], bool], asyncio.Future[float]]] = []

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def _read(self) -> None:
        """What the relay read, each read shown on the emulated screen in turn, timed when it was read."""
        try:
            data = os.read(self.relayed, RELAY_PIPE_BYTES)
        except OSError:
            data = b""
        if not data:      # the relay has gone: the terminal closed
            self._end()
            return
        self._unread += data
        while len(self._unread) >= RELAYED.size:
            at, size = RELAYED.unpack_from(self._unread)
            if len(self._unread) < RELAYED.size + size:
                break
            self._show(at, self._unread[RELAYED.size:RELAYED.size + size])
            self._unread = self._unread[RELAYED.size + size:]

    def _show(self, at: float, data: bytes) -> None:
        if self.first_byte is None:
            self.first_byte = at
        self.last_read = at
        if self.kept is not None:
            self.kept.append((at, data))
            return
        self.stream.feed(data)
        if self._waiters:
            shown = self.text()
            for waiter in [w for w in self._waiters if w[0](shown)]:
                self._waiters.remove(waiter)
                if not waiter[1].done():
                    waiter[1].set_result(at)

    def _emulate_kept(self) -> None:
        kept, self.kept = self.kept or [], None
        for at, data in kept:
            self._show(at, data)

    def _end(self) -> None:
        self._emulate_kept()   # what it printed before it ended still counts
        self.ended = True
        asyncio.get_running_loop().remove_reader(self.relayed)
        for _, future in self._waiters:
            if not future.done():
                future.set_exception(Ended(f"the program ended; its screen:\n{self.text()}"))
        self._waiters.clear()

    async def wait_for(self, *texts: str, timeout: float = 120) -> float:
        """The monotonic time of the read after which every one of `texts` was on the screen."""
        return await self.wait_until(lambda screen: all(text in screen for text in texts), repr(texts), timeout)

    async def wait_until(self, shown: Callable[[str], bool], what: str, timeout: float = 120) -> float:
        """The monotonic time of the read after which the screen's text first satisfied `shown`."""
        if shown(self.text()):
            return time.monotonic()
        if self.ended:
            raise Ended(f"the program ended before {what}; its screen:\n{self.text()}")
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        waiter = (shown, future)
        self._waiters.append(waiter)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise Ended(f"{what} not shown within {timeout:.0f} s; the screen:\n{self.text()}") from None
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def write(self, keys: str) -> float:
        """Type `keys` (as the terminal would send them); the monotonic time they were sent."""
        os.write(self.fd, keys.encode())
        return time.monotonic()

    async def press(self, *keys: str) -> None:
        for key in keys:
            self.write(key)
            if key == ESCAPE:
                await asyncio.sleep(ESCAPE_PAUSE)

    async def wait_exit(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not self.ended and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if not self.ended:
            raise Ended(f"the program did not end within {timeout:.0f} s; its screen:\n{self.text()}")


@contextlib.asynccontextmanager
async def emulated_when_quiet(sessions: list[Session], quiet: float = 1.0, at_most: float = 30) -> AsyncIterator[None]:
    """Inside, the terminals' reads are kept, not emulated. On leaving, once none of them has printed anything
    for `quiet` seconds (or `at_most` seconds have passed: a blinking cursor prints twice a second), they are
    emulated in order: a wait begun inside ends at the read it would have ended at, but the emulator's CPU is
    not taken from the apps being timed. A wait that outlasts the quiet (an app silent for `quiet` seconds
    while it works) is simply emulated as it comes, as outside."""
    for session in sessions:
        session.kept = []
    try:
        yield
        left = time.monotonic()
        while (time.monotonic() - max(left, *(s.last_read for s in sessions)) < quiet
               and time.monotonic() - left < at_most):
            await asyncio.sleep(quiet / 10)
    finally:
        for session in sessions:
            session._emulate_kept()


class Terminals:
    """Starts programs in pseudo-terminals and, on close, ends every process it started and their children.

    The benchmark becomes a child subreaper, so a process whose parent dies (a proof worker, a sandboxed
    run) is re-parented to it rather than to init, and the last sweep still finds it."""

    def __init__(self) -> None:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        self.sessions: list[Session] = []

    def start(self, argv: list[str], env: dict[str, str], cwd: Path) -> Session:
        started = time.monotonic()
        pid, fd = os.forkpty()
        if pid == 0:   # the child: size its terminal as an 80x24 one, then become the program
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
                os.chdir(cwd)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        relayed, to_bench = os.pipe()
        fcntl.fcntl(to_bench, F_SETPIPE_SZ, RELAY_PIPE_BYTES)
        relay = os.fork()
        if relay == 0:
            relay_reads(fd, to_bench)
        os.close(to_bench)
        session = Session(pid, fd, relay, relayed, started)
        self.sessions.append(session)
        asyncio.get_running_loop().add_reader(relayed, session._read)
        return session

    def end(self, session: Session) -> None:
        """Kill one program and everything it started (not a learner's quit: its teardown is not timed).

        Its pid stays this process's until waited for here (a zombie keeps it), so the kill can never reach
        a stranger that was given a reused pid."""
        if session.closed:
            return
        session.closed = True
        kill_tree(session.pid)
        kill_tree(session.relay)
        for pid in (session.pid, session.relay):
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        if not session.ended:
            with contextlib.suppress(ValueError, RuntimeError):
                asyncio.get_running_loop().remove_reader(session.relayed)
            session.ended = True
        for fd in (session.fd, session.relayed):
            with contextlib.suppress(OSError):
                os.close(fd)

    def close(self) -> None:
        for session in self.sessions:
            self.end(session)
        sweep()


def relay_reads(terminal: int, to_bench: int) -> NoReturn:
    """The relay (a forked child of the benchmark, as sshd forks one per connection): read the terminal as
    soon as it has output, and pass each read on with the time it was read, until the terminal closes."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl+C stops the benchmark, which ends its relays
        while True:
            try:
                data = os.read(terminal, 65536)
            except OSError:   # EIO: every process holding the terminal's other end has gone
                break
            if not data:
                break
            relayed = RELAYED.pack(time.monotonic(), len(data)) + data
            while relayed:   # a write cut short by a signal is finished: the benchmark reads whole reads
                relayed = relayed[os.write(to_bench, relayed):]
    finally:
        os._exit(0)


def kill_tree(pid: int) -> None:
    """SIGKILL `pid` and every process below it."""
    for child in descendants(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def reap() -> None:
    """Collect every child that has ended (orphans re-parented to this process), so none stays a zombie."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


def sweep() -> None:
    """Kill whatever is still below this process (orphans re-parented to it as the subreaper)."""
    for _ in range(20):
        left = descendants(os.getpid())
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
        reap()


@contextlib.contextmanager
def stopped_by_sigterm_too() -> Iterator[None]:
    """SIGTERM (and SIGHUP) stop the benchmark as Ctrl+C does, so its clean-up runs."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, interrupt) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)

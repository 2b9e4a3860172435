"""The one way the plain-line face reads and writes: labelled lines on two text streams, never an escape.

Every line goes out through `Console.write`, which turns tabs into spaces and shows every control character
as a visible escape (grader.safe_text), so nothing a book or a learner wrote can move a cursor, colour a
line or retitle a window: there is no ESC byte to send. A line is either labelled (`verdict: correct`,
`exercise 0.1: ...`, a numbered menu's `3: ...`) or book text, indented by two spaces. A prompt is a label
too (`answer 0.1: `), and the learner's reply follows it on the same line; when the input is not a
terminal (a pipe, a test) the reply is echoed, so a transcript reads as the session did.

`help` and `quit` work at every prompt; the end of input is a quit. Long text is paged: after a page a
`more:` prompt says how to go on.
"""

from __future__ import annotations

import io
import queue
import re
from collections.abc import Iterable
from typing import TextIO

from grader.safe_text import printable
from tui.lines.reader import plain_lines
from tui.lines.speech import Speech

PAGE_LINES = 20     # book lines between two `more:` prompts
QUIT_WORDS = ("quit", "exit")
HELP_WORDS = ("help", "?")
BACK_WORDS = ("b", "back")
SURROGATE = re.compile("[\ud800-\udfff]")   # what a byte that is not UTF-8 is read as (Console.__init__)


class Quit(Exception):
    """The learner typed quit, or the input ended: the session closes, its progress kept."""


def clean(text: str) -> str:
    """One output line as it may reach a terminal: tabs as spaces, every control character escaped."""
    return printable(text.expandtabs(4), one_line=True)


class Console:
    """Labelled lines out, typed lines in."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, echo: bool = False, page_lines: int = PAGE_LINES,
                 width: int | None = None, speech: bool = False):
        """`page_lines` and `width`: a terminal's rows (less the prompt's) and columns, so a page fills the
        screen once its lines wrap; with no width (a pipe, a braille display's own paging) a line is a line.
        A real input stream is read with bytes that are not UTF-8 kept as surrogates, whatever the locale
        (strict under en_US.UTF-8 or PYTHONIOENCODING), so `read` can say so instead of a traceback."""
        if isinstance(stdin, io.TextIOWrapper):
            stdin.reconfigure(errors="surrogateescape")
        self.stdin = stdin
        self.stdout = stdout
        self.echo = echo
        self.page_lines = page_lines
        self.width = width
        self.prompts: list[str] = []   # every prompt asked, in order: what a transcript's labels are checked against
        self.news: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()   # told by other threads (tell)
        self.speech = Speech() if speech else None

    # --- output ---------------------------------------------------------------------------------

    def write(self, line: str = "") -> None:
        """The only place output is written: one line, said in words under speech, made inert."""
        self.emit(self.spoken(line))

    def emit(self, said: str) -> None:
        """One line already said in words (or not under speech), made inert."""
        self.stdout.write(clean(said) + "\n")
        self.stdout.flush()

    def spoken(self, text: str) -> str:
        """`text` as a speech synthesizer should read it, under speech; else as it is (braille keeps symbols)."""
        return self.speech.line(text) if self.speech else text

    def say(self, label: str, text: str = "") -> None:
        """`label: text`, every line of a text that runs over several lines labelled alike."""
        lines = text.splitlines() or [""]
        for line in lines:
            self.write(f"{label}: {line}".rstrip())

    def tell(self, label: str, text: str) -> None:
        """From another thread: `label: text`, said before the next prompt, never in the middle of a line."""
        self.news.put((label, text))

    def say_news(self) -> None:
        """What other threads told (tell), in the order told."""
        while not self.news.empty():
            self.say(*self.news.get())

    def page(self, lines: Iterable[str]) -> None:
        """Lines as given (book text already indented, tui.lines.reader), paged: after `page_lines` lines
        (screen rows, in a terminal) a `more` prompt: Enter goes on, a reads the rest without stopping, q
        stops here."""
        shown, paging = 0, True
        try:
            for line in map(self.spoken, lines):   # measured as said: words are longer than symbols
                rows = max(1, -(-len(line) // self.width)) if self.width else 1
                if paging and shown and shown + rows > self.page_lines and line.strip():
                    reply = self.ask("more", "Enter, a for all, q to stop",
                                     "Enter reads the next page; a reads the rest without stopping; q stops reading.")
                    if reply.lower() in ("q", "stop"):
                        self.say("stopped", "the rest is not read")
                        return
                    paging, shown = reply.lower() not in ("a", "all"), 0
                self.emit(line)
                shown += rows
        finally:
            if self.speech:
                self.speech.reset()

    def book(self, text: str) -> None:
        """Markdown from the book (a chapter, a prompt, an explanation) as plain labelled lines, paged."""
        self.page(plain_lines(text))

    # --- input ----------------------------------------------------------------------------------

    def ask(self, label: str, short: str, help_text: str) -> str:
        """Ask at a prompt `label (short): ` (`short`: what it takes, in a few words, or "" for a prompt whose
        lines before it said so) and return the reply, stripped. `help` says `help_text` (and that quit
        leaves) and asks again; `quit` and the end of input raise Quit."""
        while True:
            line = self.read(f"{label} ({short}): " if short else f"{label}: ", "that line")
            if line is None:
                raise Quit
            word = line.strip()
            if word.lower() in QUIT_WORDS:
                raise Quit
            if word.lower() in HELP_WORDS:
                self.say("help", f"{help_text} {short_help(short)}")
                continue
            return word

    def raw_line(self, label: str) -> str | None:
        """One line exactly as typed (a line of code: its indent matters), or None at the end of input."""
        return self.read(f"{label}: ", label)

    def read(self, prompt: str, what: str) -> str | None:
        """One line typed at `prompt`, without its line end; None at the end of input. A line holding bytes that
        are not UTF-8 (kept as surrogates, see __init__) is said, naming `what` and the byte, and asked again:
        nothing the store or a terminal cannot take gets further, and what was typed before stays."""
        while True:
            self.say_news()
            self.prompts.append(prompt)
            self.stdout.write(clean(self.spoken(prompt)))
            self.stdout.flush()
            typed = self.stdin.readline()
            line = typed.rstrip("\r\n")
            bad = SURROGATE.search(line)
            if self.echo:
                self.stdout.write(clean(SURROGATE.sub("\ufffd", line)) + "\n")
                self.stdout.flush()
            if bad is None:
                return line if typed else None
            byte = len(line[:bad.start()].encode()) + 1
            self.say("sorry", f"{what} is not UTF-8 text (byte {byte}); type it again")

    def choose(self, label: str, items: list[str], help_text: str, *, back: bool = True,
               keys: list[str] | None = None) -> int | None:
        """A menu: each item on a line of its own (`1: ...`), answered by its key, numbers from 1 unless `keys`
        names them (the book's own numbers, see `own_keys`; letters). The index picked; None for b (back),
        when `back` is offered."""
        keys = keys or [str(number) for number in range(1, len(items) + 1)]
        for key, item in zip(keys, items, strict=True):
            self.say(key, item)
        ends = spans(keys) + (", b back" if back else "")
        typed = [key.lower() for key in keys]
        while True:
            reply = self.ask(label, ends, help_text).lower()
            if back and reply in BACK_WORDS:
                return None
            if reply in typed:
                return typed.index(reply)
            if reply in BACK_WORDS:
                self.say("sorry", f"there is no step back from here: type one of {ends}, or quit to leave")
            elif reply:
                self.say("sorry", f"type one of {ends}")

    def yes(self, label: str, help_text: str) -> bool:
        """A yes or no question; anything but y or yes is no."""
        return self.ask(label, "y or n", help_text).lower() in ("y", "yes")


def own_keys(ids: list[str], taken: tuple[str, ...] = ()) -> list[str] | None:
    """The book's own ids (chapter 4, exercise 4.1's 1) as a menu's keys, so the number typed is the number
    the book gives; None when one cannot be typed as a key (not letters and digits, a word a prompt takes,
    one of `taken`, or two alike), and the menu is numbered from 1 instead."""
    reserved = {*BACK_WORDS, *QUIT_WORDS, *HELP_WORDS, *taken}
    lowered = [key.lower() for key in ids]
    if len(set(lowered)) < len(ids) or any(not key.isalnum() or not key.isascii() or key in reserved
                                           for key in lowered):
        return None
    return ids


def spans(keys: list[str]) -> str:
    """The keys as a prompt says them: runs of consecutive numbers as `1 to 7`, the rest one by one
    (`t, 1 to 7, h`)."""
    said: list[str] = []
    start = 0
    while start < len(keys):
        end = start
        while (end + 1 < len(keys) and keys[end].isdigit() and keys[end + 1].isdigit()
               and int(keys[end + 1]) == int(keys[end]) + 1):
            end += 1
        said.append(keys[start] if end == start else f"{keys[start]} to {keys[end]}")
        start = end + 1
    return ", ".join(said)


def short_help(short: str) -> str:
    return f"This prompt takes {short}. Type quit to leave; your progress is kept." if short else \
        "Type quit to leave; your progress is kept."

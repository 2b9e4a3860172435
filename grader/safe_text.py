"""Text from outside (a student's export, a book folder, a learner's answer) made safe to print.

A terminal obeys control characters: ESC starts sequences that clear the screen, retitle the window
or write the clipboard (OSC 52), and C1 codes do the same in one byte. Like `less` and `git`, we show
such characters as visible escapes instead of sending them, so the text stays readable and inert.
"""

from __future__ import annotations

import re
import unicodedata

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides that reorder what
# is shown (the "Trojan Source" characters), plus lone surrogates, which cannot be encoded at all.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` with every control character shown as an escape (`\\x1b`); with `one_line`, newlines and
    tabs too, for a table cell or a file name."""
    return (_UNSAFE_IN_LINE if one_line else _UNSAFE).sub(_escape, text)


def unsafe_characters(text: str) -> list[tuple[int, str]]:
    """(line number, description) for each line of `text` holding a control character, for content
    check to report where an author's file would send one to a learner's terminal."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _UNSAFE_IN_LINE.search(line.replace("\t", " "))
        if match:
            char = match.group()
            name = unicodedata.name(char, "") or "control character"
            found.append((number, f"{_escape(match)} ({name.lower()}) would reach the reader's terminal"))
    return found


def clipped(text: str, width: int) -> str:
    """`text` made printable on one line, then cut to `width` characters with an ellipsis. Cutting after
    escaping means a cut can never leave half an escape sequence for the terminal to finish."""
    safe = printable(text, one_line=True)
    return safe if len(safe) <= width else safe[: max(width - 1, 0)] + "…"


# What Textual or Rich would read as markup rather than show: an action or a link (`[@click=...]`,
# `[link=...]`), a closing tag (`[/]`, `[/bold]`), and an opening tag (`[bold]`, `[on red]`) in a text that
# also closes one. Ordinary brackets, such as `[b·s, d]`, `[1, 2]` or `x[i]` in code, are left alone.
_TAG = re.compile(r"(?<!\\)\[([A-Za-z@/#$][^\[\]\n]*)\]")
_ACTION_OR_LINK = re.compile(r"^\s*(@|link\s*=)", re.IGNORECASE)
_CLOSING = re.compile(r"^/[\w\s.-]*$")
_STYLE_WORDS = re.compile(r"^[A-Za-z#$][\w\s#.-]*$")


def markup_tags(text: str) -> list[tuple[int, str]]:
    """(line number, description) for each line of `text` holding Textual/Rich markup, for content check:
    the app shows book text literally (tui.widgets.plain), but markup there is an attack or a mistake."""
    tags = [(match.start(), match.group(1)) for match in _TAG.finditer(text)]
    closes = any(_CLOSING.match(tag) for _, tag in tags)
    found: list[tuple[int, str]] = []
    for start, tag in tags:
        if _ACTION_OR_LINK.match(tag) or _CLOSING.match(tag) or (closes and _STYLE_WORDS.match(tag)):
            line = text.count("\n", 0, start) + 1
            shown = clipped(f"[{tag}]", 40)
            if not found or found[-1][0] != line:
                found.append((line, f"{shown} is Textual markup; the book shows text as written, so write "
                                    f"it without tags"))
    return found

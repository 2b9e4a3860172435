"""Text from outside (a student's export, a book folder, a learner's answer) made safe to print.

A terminal obeys control characters: ESC starts sequences that clear the screen, retitle the window
or write the clipboard (OSC 52), and C1 codes do the same in one byte. Like `less` and `git`, we show
such characters as visible escapes instead of sending them, so the text stays readable and inert.

Invisible format characters (Unicode category Cf) are shown as escapes too: the bidirectional overrides
reorder what is shown ("Trojan Source"), and the rest hide in a title or a name: a zero-width space or
word joiner, a BOM inside text, a soft hyphen, an Arabic letter mark, tag characters that spell words no
one sees. The one exception is a zero-width joiner or non-joiner where a script needs it, in the contexts
IDNA allows (RFC 5892, CONTEXTJ): after a virama, where it shapes an Indic conjunct, and a non-joiner
between two letters of a joining script, as Persian writes "mi-khaham". Elsewhere (between Latin
letters, in an emoji sequence, whose width terminals disagree on) it is escaped like the rest.
"""

from __future__ import annotations

import re
import unicodedata

# C0 controls but tab and newline, DEL and C1 controls; lone surrogates, which cannot be encoded at all.
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff"
# Every format character (Cf) of Unicode 16. tests/grader/test_safe_text.py checks that it holds every one
# the running Python knows, so a Python with a newer Unicode that adds one fails there instead of letting it by.
_FORMAT = ("\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
           "\u2060-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
           "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
# The expressions are compiled when first used (re's own cache keeps them), not at every start: most text needs
# none (printable's first test), and the markup checks only run for an author.
_UNSAFE = f"[{_CONTROL}{_FORMAT}]"

_JOINERS = "\u200c\u200d"
# The blocks of the scripts whose letters join (Arabic, Syriac, Thaana, N'Ko, Mandaic, Mongolian): Python's
# unicodedata has no Joining_Type, and a non-joiner between two letters of these is what Persian writes.
_JOINING_BLOCKS = (("\u0600", "\u07ff"), ("\u0840", "\u08ff"), ("\u1800", "\u18af"))
_VIRAMA = 9   # the canonical combining class of a virama


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _needed_joiner(text: str, at: int) -> bool:
    """Whether the character at `at` is a ZWJ or ZWNJ that the script around it needs (see the docstring)."""
    if text[at] not in _JOINERS or at == 0:
        return False
    if unicodedata.combining(text[at - 1]) == _VIRAMA:
        return True
    return text[at] == "\u200c" and _joining_letter(text, at, -1) and _joining_letter(text, at, 1)


def _joining_letter(text: str, at: int, step: int) -> bool:
    """Whether the first character from `at` in direction `step` that is not a mark is a joining letter."""
    at += step
    while 0 <= at < len(text) and unicodedata.category(text[at]) == "Mn":
        at += step
    return (0 <= at < len(text) and unicodedata.category(text[at]).startswith("L")
            and any(first <= text[at] <= last for first, last in _JOINING_BLOCKS))


def _escape_unless_needed(match: re.Match[str]) -> str:
    return match.group() if _needed_joiner(match.string, match.start()) else _escape(match)


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` with every control and format character shown as an escape (`\\x1b`, `\\u200b`); with
    `one_line`, newlines and tabs too, for a table cell or a file name."""
    if text.isprintable():   # none of Unicode's controls, format characters or separators (but space): as is
        return text
    shown = re.sub(_UNSAFE, _escape_unless_needed, text)
    # a tab or newline becomes an escape as any control would (_escape); never part of one, so replaced after
    return shown.replace("\t", "\\x09").replace("\n", "\\x0a") if one_line else shown


def unsafe_characters(text: str) -> list[tuple[int, str]]:
    """(line number, description) for each line of `text` holding a control or format character, for content
    check to report where an author's file would send one to a learner's terminal."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.replace("\t", " ")
        match = next((m for m in re.finditer(_UNSAFE, line) if not _needed_joiner(line, m.start())), None)
        if match:
            char = match.group()
            what = ("control character" if unicodedata.category(char) == "Cc"
                    else f"U+{ord(char):04X} {unicodedata.name(char, '').lower()}".rstrip())
            found.append((number, f"{_escape(match)} ({what}) would reach the reader's terminal"))
    return found


def clipped(text: str, width: int) -> str:
    """`text` made printable on one line, then cut to `width` characters with an ellipsis. Cutting after
    escaping means a cut can never leave half an escape sequence for the terminal to finish."""
    safe = printable(text, one_line=True)
    return safe if len(safe) <= width else safe[: max(width - 1, 0)] + "…"


# What Textual or Rich would read as markup rather than show: an action or a link (`[@click=...]`,
# `[link=...]`), a closing tag (`[/]`, `[/bold]`), and an opening tag (`[bold]`, `[on red]`) in a text that
# also closes one. Ordinary brackets, such as `[b·s, d]`, `[1, 2]` or `x[i]` in code, are left alone.
_TAG = r"(?<!\\)\[([A-Za-z@/#$][^\[\]\n]*)\]"
_ACTION_OR_LINK = r"(?i)^\s*(@|link\s*=)"
_CLOSING = r"^/[\w\s.-]*$"
_STYLE_WORDS = r"^[A-Za-z#$][\w\s#.-]*$"


def markup_tags(text: str) -> list[tuple[int, str]]:
    """(line number, description) for each line of `text` holding Textual/Rich markup, for content check:
    the app shows book text literally (tui.widgets.plain), but markup there is an attack or a mistake."""
    tags = [(match.start(), match.group(1)) for match in re.finditer(_TAG, text)]
    closes = any(re.match(_CLOSING, tag) for _, tag in tags)
    found: list[tuple[int, str]] = []
    for start, tag in tags:
        if re.match(_ACTION_OR_LINK, tag) or re.match(_CLOSING, tag) or (closes and re.match(_STYLE_WORDS, tag)):
            line = text.count("\n", 0, start) + 1
            shown = clipped(f"[{tag}]", 40)
            if not found or found[-1][0] != line:
                found.append((line, f"{shown} is Textual markup; the book shows text as written, so write "
                                    f"it without tags"))
    return found

"""Markdown slips the app would draw without a word: a table row with a missing or an extra cell (drawn
blank, or dropped), and a `{{placeholder}}` in a chapter, where nothing renders it (shown as written).

Code is left alone: a table or a placeholder in a fenced block, or a placeholder in an `inline` span, is
an example.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
_CODE_SPAN = re.compile(r"(`+).*?\1")
_PLACEHOLDER = re.compile(r"\{\{.*?\}\}")


def table_problems(text: str) -> list[tuple[int, str]]:
    """(line in `text`, 1-based; message) for each table row whose cells differ in number from its header's."""
    found: list[tuple[int, str]] = []
    lines = _outside_code(text)
    header: int | None = None     # cells of the table being read
    for number, (line, previous) in enumerate(zip(lines, [None, *lines], strict=False), 1):
        if line is None or "|" not in line:
            header = None
            continue
        if header is None:
            if previous is not None and "|" in previous and _is_delimiter(line):
                header = len(_cells(previous))
                if len(_cells(line)) != header:
                    found.append((number, _row_message(len(_cells(line)), header, "delimiter row")))
            continue
        cells = len(_cells(line))
        if cells != header:
            found.append((number, _row_message(cells, header, "row")))
    return found


def placeholder_problems(text: str) -> list[tuple[int, str]]:
    """(line, message) for each `{{...}}` in a chapter's Markdown outside code: only exercises render them."""
    found: list[tuple[int, str]] = []
    for number, line in enumerate(_outside_code(text), 1):
        for match in _PLACEHOLDER.finditer(_CODE_SPAN.sub("", line or "")):
            found.append((number, f"{match[0]} is shown as written: placeholders work only in exercises; "
                                  "write the number itself in chapter.md"))
    return found


def _row_message(cells: int, header: int, what: str) -> str:
    fate = "drawn blank" if cells < header else "dropped"
    return (f"a table {what} with {cells} cell{'s' if cells != 1 else ''}, but its header has {header}: the "
            f"{'missing' if cells < header else 'extra'} cell{'s are' if abs(cells - header) > 1 else ' is'} "
            f"{fate}; give every row {header} cells (write `\\|` for a | inside a cell)")


def _outside_code(text: str) -> list[str | None]:
    """The lines of `text`, None for those in a fenced code block (and its fences)."""
    lines: list[str | None] = []
    fence: str | None = None
    for line in text.split("\n"):
        opening = _FENCE.match(line)
        if fence is not None:
            lines.append(None)
            if opening and opening[1] == fence:
                fence = None
        elif opening:
            fence = opening[1]
            lines.append(None)
        else:
            lines.append(line)
    return lines


def _is_delimiter(line: str) -> bool:
    cells = _cells(line)
    return bool(cells) and all(_DELIMITER_CELL.match(cell) for cell in cells)


def _cells(row: str) -> list[str]:
    """A row's cells as GFM reads them: outer pipes optional, `\\|` is text (even in a code span, a bare |
    ends a cell)."""
    masked = row.replace("\\|", "xx").strip()
    if masked.startswith("|"):
        masked = masked[1:]
    if masked.endswith("|"):
        masked = masked[:-1]
    return masked.split("|")

"""A code listing whose lines can be picked with the mouse or the arrows and Enter."""

from __future__ import annotations

from typing import Any

from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.widgets.choice_question import labelled


def highlighted_lines(code: str, language: str) -> list[Text]:
    """Each line of `code`, syntax-highlighted, as Rich Text. Indentation is kept as non-breaking
    spaces, which wrapping in a list does not strip."""
    syntax = Syntax(code, language, theme="ansi_dark")
    lines = syntax.highlight(code).split("\n", allow_blank=True)[: len(code.split("\n"))]
    kept = []
    for line in lines:
        indent = len(line.plain) - len(line.plain.lstrip(" "))
        kept.append(Text("\u00a0" * indent) + line[indent:] if indent else line)
    return kept


class CodeListing(OptionList):
    """One option per line of code, numbered; lines can be marked ✓ or ✗ after a pick. Typing a line's
    number highlights it (two digits in a row make 12 in a longer listing); Enter picks it. The highlighted
    line carries a `▶`, as the design view's cursor does, so it shows without colour (NO_COLOR) too."""

    DEFAULT_CSS = """
    CodeListing { height: auto; max-height: 20; }
    """
    BINDINGS = [Binding("enter", "select", "Submit")]   # shown: picking a line is answering

    def __init__(self, code: str, language: str, **kwargs: Any):
        self.lines = highlighted_lines(code.rstrip("\n"), language)
        self.marks: dict[int, str] = {}
        super().__init__(*(Option(self._prompt(n), id=str(n)) for n in range(1, len(self.lines) + 1)), **kwargs)

    _typed = ""   # the digits typed in a row, for a line number of two digits

    def on_key(self, event: events.Key) -> None:
        character = event.character
        if not (character and character.isdigit()):
            self._typed = ""
            return
        typed = self._typed + character
        if not 1 <= int(typed) <= len(self.lines):
            typed = character                     # a new number starts
        self._typed = typed if len(typed) < len(str(len(self.lines))) else ""
        if 1 <= int(typed) <= len(self.lines):
            self.highlighted = int(typed) - 1
        event.stop()

    def _prompt(self, number: int, cursor: bool = False) -> Table:
        mark = self.marks.get(number, " ")
        style = {"✓": "bold green", "✗": "bold red"}.get(mark, "")
        return labelled(Text.assemble((mark, style), ("▶" if cursor else " ", "bold"), (f"{number:>2} ", "dim")),
                        self.lines[number - 1])

    # Textual calls a watcher that takes two values with the old and the new one: the override is sound.
    def watch_highlighted(self, old: int | None, new: int | None) -> None:  # type: ignore[override]
        super().watch_highlighted(new)
        for index in {i for i in (old, new) if i is not None}:
            if index < len(self.lines):
                self.replace_option_prompt_at_index(index, self._prompt(index + 1, cursor=index == new))

    def mark(self, number: int, mark: str) -> None:
        self.marks[number] = mark
        self.replace_option_prompt_at_index(number - 1, self._prompt(number, cursor=self.highlighted == number - 1))

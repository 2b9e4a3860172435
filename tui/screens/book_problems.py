"""A live book's problems (`ringbook --content DIR --watch`): each as `path:line: message`, as `ringbook content
check` prints it, shown in the app instead of refusing to start.

It opens by itself when a save breaks the book, over the last good book, which stays open underneath (Esc
shows it; Ctrl+B brings the problems back), and it goes away by itself once a save fixes them. A book broken
from the start opens with no chapters under it until it is fixed.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from grader.problems import Problem
from grader.safe_text import printable
from tui.widgets.page import Page
from tui.widgets.screen_frame import Footer, Header, closing


def problem_line(problem: Problem) -> str:
    """`path:line: message`, the path as `content check` gives it (from the current folder when under it), with
    control characters shown: the book's files and messages are an author's, not to reach the terminal."""
    path = os.path.abspath(problem.path)
    here = os.getcwd()
    shown = os.path.relpath(path, here) if Path(path).is_relative_to(here) else path
    return printable(f"{shown}:{problem.line}: {problem.message}", one_line=True)


class BookProblemsScreen(Screen):
    """What stops the book loading, a line per problem; `show` replaces them as the next save is read."""

    DEFAULT_CSS = """
    BookProblemsScreen #problems-page { padding: 0 2; }
    BookProblemsScreen #problems-heading { margin: 1 0; text-style: bold; color: $error; }
    BookProblemsScreen #problems-list { height: auto; }
    """
    BINDINGS = [Binding("escape", "back", "Back to the book")]

    def __init__(self, problems: list[Problem], *, book_open: bool):
        super().__init__()
        self.problems = problems
        self.book_open = book_open   # a good book is underneath (else the book was broken from the start)

    def compose(self) -> ComposeResult:
        yield Header()
        with Page(id="problems-page"):
            yield Static(id="problems-heading")
            yield Static(id="problems-list")
        yield Footer()

    def on_mount(self) -> None:
        if closing(self):
            return
        self.title = "Book problems"
        self.show(self.problems)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return action != "back" or self.book_open

    def action_back(self) -> None:
        self.app.pop_screen()

    def show(self, problems: list[Problem]) -> None:
        self.problems = problems
        one = len(problems) == 1
        underneath = ("Esc shows the book as it last loaded." if self.book_open
                      else f"The book opens once {'it is' if one else 'they are'} fixed.")
        self.query_one("#problems-heading", Static).update(Text(
            f"The book has {len(problems)} problem{'' if one else 's'}: fix {'it' if one else 'them'} and save; "
            f"ringbook reads the book again at each save. {underneath}"))
        self.query_one("#problems-list", Static).update(Text("\n".join(map(problem_line, problems))))

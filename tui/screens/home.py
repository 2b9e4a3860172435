"""The home screen: the book's chapters, one row each."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from grader.model import Book
from tui.screens.chapter import ChapterScreen


class HomeScreen(Screen):
    """Where a learner starts: what the book is and which chapter to open."""

    CSS_PATH = "home.tcss"
    BINDINGS = [Binding("enter", "open_chapter", "Open chapter", priority=True)]

    def __init__(self, book: Book):
        super().__init__()
        self.book = book

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static(self.book.title, id="book-title")
            if self.book.subtitle:
                yield Static(self.book.subtitle, id="book-subtitle")
            yield OptionList(
                *(Option(f"{c.id:>2}  {c.title}  [dim]({len(c.exercises)} exercises)[/]", id=c.id)
                  for c in self.book.chapters),
                id="chapters",
            )
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.open(event.option.id)

    def action_open_chapter(self) -> None:
        chapters = self.query_one("#chapters", OptionList)
        if chapters.highlighted is not None:
            self.open(chapters.get_option_at_index(chapters.highlighted).id)

    def open(self, chapter_id: str | None) -> None:
        chapter = self.book.chapter(chapter_id or "")
        if chapter is not None:
            self.app.push_screen(ChapterScreen(chapter))

"""The ringbook App: holds the book and opens on the home screen."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from grader.model import Book
from tui.screens.home import HomeScreen
from tui.store import ProgressStore


class RingbookApp(App):
    """A terminal textbook: chapters to read, exercises to answer."""

    TITLE = "ringbook"
    BINDINGS = [Binding("q", "quit", "Quit", priority=False)]

    def __init__(self, book: Book, store: ProgressStore):
        super().__init__()
        self.book = book
        self.store = store
        self.sub_title = book.title

    def on_mount(self) -> None:
        self.push_screen(HomeScreen(self.book))
        if self.store.notice:
            self.notify(self.store.notice, title="Progress", severity="warning", timeout=15)

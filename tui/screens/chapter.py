"""The chapter screen: the narrative, rendered from Markdown, with its table of contents."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, MarkdownViewer

from grader.model import Chapter


class ChapterScreen(Screen):
    """Reading one chapter."""

    CSS_PATH = "chapter.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("t", "toggle_contents", "Contents"),
    ]

    def __init__(self, chapter: Chapter):
        super().__init__()
        self.chapter = chapter

    def compose(self) -> ComposeResult:
        yield Header()
        # The title heads the document so the contents tree has a named root.
        document = f"# {self.chapter.id}. {self.chapter.title}\n\n{self.chapter.narrative()}"
        yield MarkdownViewer(document, show_table_of_contents=False, id="narrative")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Chapter {self.chapter.id}: {self.chapter.title}"
        self.query_one("#narrative", MarkdownViewer).document.focus()

    def action_toggle_contents(self) -> None:
        viewer = self.query_one("#narrative", MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

"""The chapter screen: the narrative to read, and the chapter's exercises with their status marks."""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, MarkdownViewer, OptionList, TabbedContent, TabPane
from textual.widgets.option_list import Option

from grader.model import Chapter

MARKS = {
    "new": ("○", "dim"),
    "tried": ("◐", "yellow"),
    "solved": ("●", "green"),
    "solved after reveal": ("◑", "cyan"),
}
_SECTION = re.compile(r"^## ", re.M)


def split_for_first_paint(markdown: str) -> tuple[str, str]:
    """The opening section (shown at once) and the rest (appended after the first frame)."""
    starts = [m.start() for m in _SECTION.finditer(markdown)]
    if len(starts) < 2:
        return markdown, ""
    return markdown[: starts[1]], markdown[starts[1]:]


class ChapterScreen(Screen):
    """Reading one chapter, and choosing an exercise from it."""

    CSS_PATH = "chapter.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("r", "show_tab('read')", "Read"),
        Binding("e", "show_tab('exercises')", "Exercises"),
        Binding("t", "toggle_contents", "Contents"),
    ]

    def __init__(self, chapter: Chapter, tab: str = "read"):
        super().__init__()
        self.chapter = chapter
        self.initial_tab = tab
        self._rest = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial=self.initial_tab, id="tabs"):
            with TabPane("Read", id="read"):
                first, self._rest = split_for_first_paint(self.chapter.narrative())
                document = f"# {self.chapter.id}. {self.chapter.title}\n\n{first}"
                yield MarkdownViewer(document, show_table_of_contents=False, id="narrative")
            with TabPane("Exercises", id="exercises"):
                yield OptionList(id="exercise-list")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Chapter {self.chapter.id}: {self.chapter.title}"
        self.refresh_exercises()
        if self._rest:
            self.call_after_refresh(self._append_rest)
        self._focus_tab(self.initial_tab)

    async def _append_rest(self) -> None:
        rest, self._rest = self._rest, ""
        await self.query_one("#narrative", MarkdownViewer).document.append(rest)

    def on_screen_resume(self) -> None:
        self.refresh_exercises()

    def refresh_exercises(self) -> None:
        states = self.app.store.exercise_states()
        listing = self.query_one("#exercise-list", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        solved = 0
        for exercise in self.chapter.exercises:
            state = states.get(exercise.id)
            mark = state.mark if state else "new"
            solved += mark.startswith("solved")
            symbol, style = MARKS[mark]
            listing.add_option(Option(Text.assemble(
                (f"{symbol} ", style), (f"{exercise.id:<5}", "bold"), f"{exercise.title}  ",
                (f"{exercise.kind} · {mark}", "dim")), id=exercise.id))
        listing.highlighted = highlighted if highlighted is not None else 0
        self.query_one("#tabs", TabbedContent).get_tab("exercises").label = \
            f"Exercises {solved}/{len(self.chapter.exercises)}"

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        exercise = self.app.book.exercise(event.option.id or "")
        if exercise is not None:
            self.app.open_exercise(exercise)

    def action_show_tab(self, tab: str) -> None:
        self.query_one("#tabs", TabbedContent).active = tab
        self._focus_tab(tab)

    def _focus_tab(self, tab: str) -> None:
        if tab == "exercises":
            self.query_one("#exercise-list", OptionList).focus()
        else:
            self.query_one("#narrative", MarkdownViewer).document.focus()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._focus_tab(event.pane.id or "read")

    def action_toggle_contents(self) -> None:
        viewer = self.query_one("#narrative", MarkdownViewer)
        self.action_show_tab("read")
        viewer.show_table_of_contents = not viewer.show_table_of_contents

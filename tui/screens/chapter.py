"""The chapter screen: the narrative to read, then the chapter's exercises with their status marks.

The first frame holds just the chapter's title and opening paragraphs, so text is on screen at once;
the rest of the narrative and the exercise list are added right after that frame is painted.
"""

from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.markdown import MarkdownBlock
from textual.widgets.option_list import Option

from grader.book.model import Book, Chapter
from tui.progress.session import StudySession
from tui.screens.contents import ContentsScreen
from tui.screens.navigator import Navigator
from tui.widgets.page import Scroll
from tui.widgets.screen_frame import Footer, Header, closing, ring_if_dimmed

MARKS = {
    "new": ("○", "dim"),
    "tried": ("◐", "yellow"),
    "solved": ("●", "green"),
    "solved after reveal": ("◑", "cyan"),
}
OPENING = 300  # characters of narrative in the first frame, at least; cut at a paragraph break
TOP_TOOLTIP = "Back to the top of the chapter (dimmed while you are there)"
_SLOW_BLOCK = re.compile(r"^(\||```|> )", re.M)  # tables, fences and quotes cost most to lay out


def split_for_first_paint(markdown: str, size: int = OPENING) -> tuple[str, str]:
    """The opening paragraphs (shown at once) and the rest (filled in after the first frame). The cut is
    at a blank line past `size` characters, and before any table, formula box or callout."""
    slow = _SLOW_BLOCK.search(markdown)
    limit = slow.start() if slow else len(markdown)
    cut = None
    for match in re.finditer(r"\n\n", markdown):
        if match.end() > limit:
            break
        cut = match.end()
        if match.start() >= size:
            break
    if cut is None:
        return markdown, ""
    return markdown[:cut], markdown[cut:]


def exercise_row(mark: tuple[str, str], exercise_id: str, id_width: int, title: str, described: str,
                 described_width: int) -> Table:
    """One exercise of a chapter's list: its mark, id and title, and its kind and status in a column of its
    own, aligned down the list; a title too long for the row wraps inside its own column."""
    symbol, style = mark
    row = Table.grid(expand=True, padding=(0, 2, 0, 0))
    row.add_column(width=2 + id_width, no_wrap=True)
    row.add_column(ratio=1)
    row.add_column(width=described_width, no_wrap=True)
    row.add_row(Text.assemble((f"{symbol} ", style), (exercise_id, "bold")), Text(title), Text(described, "dim"))
    return row


class ChapterPage(Scroll):
    """The chapter's scrolling page, whose ↓ at its end goes on into the exercise list under the text."""

    def action_scroll_down(self) -> None:
        listing = self.query("#exercise-list")
        if listing and self.scroll_target_y >= self.max_scroll_y:
            listing.first().focus(scroll_visible=False)
            return
        super().action_scroll_down()


class ChapterScreen(Screen):
    """Reading one chapter, and choosing an exercise from it."""


    CSS_PATH = "chapter.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("e", "exercises", "Exercises"),
        Binding("g", "read", "Top", tooltip=TOP_TOOLTIP),   # r is Review on the home screen
        Binding("t", "contents", "Contents"),
        # The list's heading says "Enter opens one": so it does from the page too, the list in view (the `?` dialog).
        Binding("enter", "open_shown", "Open the exercise highlighted in the list", show=False),
    ]

    def __init__(self, chapter: Chapter, session: StudySession, nav: Navigator, tab: str = "read", *,
                 scroll_y: float = 0):
        """`scroll_y`: where the page starts, once filled in (a live book read again)."""
        super().__init__()
        self.chapter = chapter
        self.session = session
        self.nav = nav
        self.initial_tab = tab
        self.initial_scroll = scroll_y
        self._whole = ""  # the whole narrative, while only its opening is shown

    def compose(self) -> ComposeResult:
        heading = f"# {self.chapter.id}. {self.chapter.title}\n\n"
        narrative = self.chapter.narrative()
        first, rest = split_for_first_paint(narrative)
        self._whole = heading + narrative if rest else ""
        yield Header()
        with ChapterPage(id="page"):
            yield Markdown(heading + first, id="narrative")
        yield Footer()

    def on_mount(self) -> None:
        if closing(self):
            return
        self.title = f"Chapter {self.chapter.id}: {self.chapter.title}"
        page = self.query_one("#page")
        page.focus()
        self.watch(page, "scroll_y", self._scrolled, init=False)
        self.call_after_refresh(self._fill_in)

    def _scrolled(self, old: float, new: float) -> None:
        """The footer dims g (Top) at the page's top: redrawn as the page comes to it or leaves it."""
        if (old <= 0) != (new <= 0):
            self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        ring_if_dimmed(self, event)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Keys that would do nothing are not offered as if they could (the keyboard walk checks each): g at the
        page's top, with the page's keyboard, is dimmed (its tooltip says why); e, with the list's, is gone."""
        page = self.query("#page")
        if action == "read" and page and self.focused is page.first() and page.first().scroll_y <= 0:
            return None
        if action == "exercises" and self.focused is not None and self.focused.id == "exercise-list":
            return False
        return True

    async def _fill_in(self) -> None:
        """After the first frame: the whole narrative, then the exercises. (The whole, not the rest:
        Markdown.append re-reads from its last block, and overwrote the opening's last paragraph.)"""
        if closing(self):
            return
        whole, self._whole = self._whole, ""
        if whole:
            await self.query_one("#narrative", Markdown).update(whole)
            if closing(self):
                return
        page = self.query_one("#page", VerticalScroll)
        await page.mount(Static(id="exercises-heading"), OptionList(id="exercise-list"))
        if closing(self) or not self.query("#exercise-list"):   # taken down meanwhile (a live book read again)
            return
        self.refresh_exercises()
        if self.initial_tab == "exercises":
            self.action_exercises()
        elif self.initial_scroll:
            self.query_one("#page", Scroll).scroll_back(self.initial_scroll)

    def reopened(self, book: Book) -> ChapterScreen | None:
        """This chapter of `book` (read again from its files), scrolled as this one is."""
        chapter = book.chapter(self.chapter.id)
        if chapter is None:
            return None
        return ChapterScreen(chapter, self.session, self.nav, scroll_y=self.query_one("#page", Scroll).scroll_y)

    def on_screen_resume(self) -> None:
        if self.query("#exercise-list"):
            self.refresh_exercises()
        self.query_one("#page", Scroll).show_keyboard()   # laid out again at another size under another screen

    def refresh_exercises(self) -> None:
        """The list as the store has it, highlighting the exercise last opened when it is one of this
        chapter's (n and p move through them), else the row highlighted before."""
        states = self.session.store.exercise_states()
        exercises = self.chapter.exercises
        marks = [states[e.id].mark if e.id in states else "new" for e in exercises]
        solved = sum(mark.startswith("solved") for mark in marks)
        kind_width = max((len(e.kind) for e in exercises), default=0)
        id_width = max((len(e.id) for e in exercises), default=0)
        descriptions = [f"{e.kind:<{kind_width}} · {mark}" for e, mark in zip(exercises, marks, strict=True)]
        rows = [Option(exercise_row(MARKS[mark], exercise.id, id_width, exercise.title, described,
                                    max(map(len, descriptions))), id=exercise.id)
                for exercise, mark, described in zip(exercises, marks, descriptions, strict=True)]
        listing = self.query_one("#exercise-list", OptionList)
        highlighted = listing.highlighted
        ids = [e.id for e in exercises]
        last = self.session.store.last_opened()[1]
        listing.clear_options()
        listing.add_options(rows)
        listing.highlighted = ids.index(last) if last in ids else highlighted if highlighted is not None else 0
        self.query_one("#exercises-heading", Static).update(Text.assemble(
            ("Exercises", "bold"), f"   {solved} of {len(self.chapter.exercises)} solved   ",
            ("(Enter opens one)", "dim")))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        exercise = self.session.book.exercise(event.option.id or "")
        if exercise is not None:
            self.nav.open_exercise(exercise)

    def action_open_shown(self) -> None:
        """Enter on the page opens the exercise highlighted in the list, where the list is in view (the list
        itself takes Enter when it has the keyboard)."""
        listing = self.query("#exercise-list")
        if not listing:
            return
        page, exercises = self.query_one("#page", Scroll), listing.first(OptionList)
        if exercises.highlighted is not None and page.content_region.overlaps(exercises.region):
            exercises.action_select()

    def action_exercises(self) -> None:
        listing = self.query("#exercise-list")
        if not listing:
            self.initial_tab = "exercises"   # pressed before the list is filled in: _fill_in goes there
        else:
            listing.first().focus(scroll_visible=False)
            # once the rows are laid out (a long title wraps, which makes the list taller)
            self.call_after_refresh(self.query_one("#page", VerticalScroll).scroll_to_widget,
                                    self.query_one("#exercises-heading"), top=True, animate=False)

    def action_read(self) -> None:
        page = self.query_one("#page", VerticalScroll)
        page.scroll_home()
        page.focus()

    def action_contents(self) -> None:
        markdown = self.query_one("#narrative", Markdown)
        entries = [(level, label, block_id) for level, label, block_id in markdown.table_of_contents if level > 1]
        if not any(label == "Exercises" for _, label, _ in entries):  # a chapter may end on its own "Exercises"
            entries.append((2, "Exercises", "exercises-heading"))
        self.app.push_screen(ContentsScreen(entries, current=self.section_shown(entries)), self.goto)

    def section_shown(self, entries: list[tuple[int, str, str | None]]) -> str | None:
        """The block id of the last section that starts at or above the top of the page."""
        page = self.query_one("#page", VerticalScroll)
        top = page.scroll_y - self.query_one("#narrative").virtual_region.y  # the page's top, in the narrative
        shown = None
        for _, _, block_id in entries:
            found = self.query(f"#{block_id}") if block_id else ()
            if found and found.first().virtual_region_with_margin.y <= top:
                shown = block_id
        return shown

    def goto(self, block_id: str | None) -> None:
        if not block_id:
            return
        if block_id == "exercises-heading":
            self.action_exercises()
            return
        block = self.query_one("#narrative", Markdown).query_one(f"#{block_id}", MarkdownBlock)
        page = self.query_one("#page", VerticalScroll)
        page.scroll_to_widget(block, top=True)
        page.focus()

"""`ringbook class live`'s screen: learners x chapters (or x one chapter's exercises) as a heat map, who is
stuck now, the slips being made now, and the figures of the column under the cursor.

Every learner's name and answer reaches the screen as Rich Text, never markup, and through grader.safe_text
(tui.progress.class_live_text): an escape sequence in a name shows as text. A cell says its state by a glyph
as well as by its colour. A new snapshot repaints only the rows whose cells changed (tui.widgets.heat_table).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.widgets.data_table import CellDoesNotExist

from grader.book.model import Book
from tui.progress.class_live import ChapterCell, Learner, Snapshot, Tried
from tui.progress.class_live_text import figures_line, name, slip_line, stuck_line, unlisted_line
from tui.screens.class_attempts import ClassAttemptsScreen
from tui.widgets.heat_table import HeatTable
from tui.widgets.screen_frame import Footer, Header

STYLES = {"solved": "bold green", "tried": "yellow", "not started": "dim", "stuck": "bold red"}
LEGEND = ("✓ every exercise solved · ◐n tried, n solved · · none tried",
          "✓ solved · ✗n tried, n attempts · !n stuck now · · not started")
PANEL_LINES = 5   # stuck and slips shown in their panels (--json and --lines have them all)


def chapter_cell(cell: ChapterCell) -> Text:
    """✓ every exercise solved; ◐ and the number solved, some tried; · none tried."""
    glyph = {"solved": "✓", "tried": f"◐{cell.solved}", "not started": "·"}[cell.state]
    return Text(glyph, style=STYLES[cell.state], justify="center")


def exercise_cell(tried: Tried | None, stuck: bool) -> Text:
    """✓ solved; ✗ and the attempts, tried; ! and the attempts, stuck now; · not started."""
    if tried is None or not tried.attempts:
        return Text("·", style=STYLES["not started"], justify="center")
    if tried.solved:
        return Text("✓", style=STYLES["solved"], justify="center")
    return Text(f"{'!' if stuck else '✗'}{tried.attempts}", style=STYLES["stuck" if stuck else "tried"],
                justify="center")


class ClassLiveScreen(Screen[None]):
    CSS_PATH = "class_live.tcss"
    BINDINGS = [
        Binding("enter", "open", "Open", priority=True),
        Binding("escape", "back", "Chapters"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, book: Book, snapshot: Snapshot, chapter: str | None = None):
        super().__init__()
        self.book = book
        self.snapshot = snapshot
        self.chapter = chapter    # None: the chapters; else this chapter's exercises

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="unlisted")
        yield HeatTable(id="heat", cursor_type="cell", zebra_stripes=True)
        yield Static(id="figures")
        with Horizontal(id="panels"):
            yield Static(id="stuck")
            yield Static(id="slips")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stuck").border_title = "Stuck now"
        self.query_one("#slips").border_title = "Slips now"
        self._fill()
        self._panels()
        self.call_after_refresh(self._panels)   # laid out now: a stuck line's name gives way to the panel's width

    def on_resize(self) -> None:
        self.call_after_refresh(self._panels)

    @property
    def columns(self) -> list[str]:
        if self.chapter is None:
            return [c.id for c in self.book.chapters]
        chapter = next(c for c in self.book.chapters if c.id == self.chapter)
        return [e.id for e in chapter.exercises]

    def _fill(self) -> None:
        """The table whole, for the snapshot shown: rows of learners, a column per chapter or exercise."""
        table = self.query_one("#heat", DataTable)
        where = table.cursor_coordinate
        table.clear(columns=True)
        # as wide as its longest label from the start: sized by DataTable when next idle, the column was drawn
        # at the width of "Learner" for a frame, every other column one step left of where it then moved
        firsts = ["Learner", *(name(label) for label in self.snapshot.labels.values()),
                  *(("first try", "median tries") if self.chapter is not None else ())]
        table.add_column("Learner", key="learner", width=max(map(cell_len, firsts)))
        for column in self.columns:
            table.add_column(column, key=column)
        if self.chapter is not None:
            table.fixed_rows = 2
            table.add_row(Text("first try", style="italic"), *(self._figure(e, "rate") for e in self.columns),
                          key="first-try")
            table.add_row(Text("median tries", style="italic"), *(self._figure(e, "median") for e in self.columns),
                          key="median")
        else:
            table.fixed_rows = 0
        for learner in self.snapshot.learners:
            table.add_row(*self._cells(learner), key=_row_key(learner))
        table.cursor_coordinate = where if where.column else where._replace(column=1)
        self.title = "Class live: " + (f"chapter {self.chapter}" if self.chapter else "chapters")
        self._show_figures()
        self.refresh_bindings()

    def _cells(self, learner: Learner) -> list[Text]:
        label = Text(name(self.snapshot.labels[learner.key]))
        if self.chapter is None:
            chapters = self.snapshot.chapters[learner.key]
            return [label, *(chapter_cell(chapters[c]) for c in self.columns)]
        stuck = {s.exercise_id for s in self.snapshot.stuck if s.learner == self.snapshot.labels[learner.key]}
        return [label, *(exercise_cell(learner.exercises.get(e), e in stuck) for e in self.columns)]

    def _figure(self, exercise_id: str, which: str) -> Text:
        figures = self.snapshot.figures[exercise_id]
        if which == "rate":
            value = figures.first_try_rate
            return Text("-" if value is None else f"{value:.0%}", justify="center")
        return Text("-" if figures.median_attempts is None else f"{figures.median_attempts:g}", justify="center")

    def show(self, snapshot: Snapshot, changed: set[tuple[str, str]]) -> None:
        """A new snapshot: the rows of the learners in `changed` repainted (on a chapter's exercises, also
        those whose "stuck" time moved on), or the table whole when learners came or went; the panels and
        figures always (time moves them)."""
        old, self.snapshot = self.snapshot, snapshot
        if {s.key for s in old.learners} != {s.key for s in snapshot.learners}:
            self._fill()
        else:
            columns = ["learner", *self.columns]
            moved = {s.learner for s in set(old.stuck) ^ set(snapshot.stuck)} if self.chapter is not None else set()
            rows = {_row_key(learner): dict(zip(columns, self._cells(learner), strict=True))
                    for learner in snapshot.learners
                    if learner.key in changed or snapshot.labels[learner.key] in moved}
            if self.chapter is not None:
                rows["first-try"] = {e: self._figure(e, "rate") for e in self.columns}
                rows["median"] = {e: self._figure(e, "median") for e in self.columns}
            self.query_one("#heat", HeatTable).replace_rows(rows)
            self._show_figures()
        self._panels()

    def _panels(self) -> None:
        """Stuck and slips now; above the table, while the inbox cannot be listed, why (the class as last read)."""
        unlisted = self.query_one("#unlisted", Static)
        unlisted.display = bool(self.snapshot.unlisted)
        unlisted.update(Text(unlisted_line(self.snapshot.unlisted)) if self.snapshot.unlisted else "")
        now = self.snapshot.now
        panel = self.query_one("#stuck", Static)
        stuck = [stuck_line(s, now, panel.content_region.width or None) for s in self.snapshot.stuck]
        slips = [slip_line(s) for s in self.snapshot.slips if s.learners > 1] or \
            [slip_line(s) for s in self.snapshot.slips]
        panel.update(_lines(_first(stuck, "nobody")))
        self.query_one("#slips", Static).update(_lines(_first(slips, "none")))

    def _show_figures(self) -> None:
        """The column under the cursor: a chapter's title and how many learners finished it, or an exercise's
        first-try rate and median attempts; files skipped, if any; and under it what the glyphs mean."""
        table = self.query_one("#heat", DataTable)
        column = table.cursor_column - 1
        legend = LEGEND[self.chapter is not None]
        count = len(self.snapshot.learners)
        line = f"{count} learner{'' if count == 1 else 's'}"
        if 0 <= column < len(self.columns):
            key = self.columns[column]
            if self.chapter is None:
                chapter = next(c for c in self.book.chapters if c.id == key)
                done = sum(cells[key].state == "solved" for cells in self.snapshot.chapters.values())
                line = f"chapter {key}: {chapter.title} · {done} of {len(self.snapshot.learners)} finished"
            else:
                line = figures_line(self.snapshot, key)
        if self.snapshot.skipped:
            line += f"  ({len(self.snapshot.skipped)} files skipped: --lines names them)"
        # The legend always shows: an instructor new to the view reads the glyphs from it, not from a manual.
        shown = Text(line, no_wrap=True, overflow="ellipsis")
        shown.append("\n" + legend, "dim")
        self.query_one("#figures", Static).update(shown)

    def on_data_table_cell_highlighted(self, _event: DataTable.CellHighlighted) -> None:
        self._show_figures()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """On a chapter: its exercises. On an exercise: that learner's attempts, graded again."""
        table = self.query_one("#heat", DataTable)
        column = table.cursor_column - 1
        if not 0 <= column < len(self.columns):
            return
        if self.chapter is None:
            self.chapter = self.columns[column]
            row = table.cursor_row
            self._fill()
            table.cursor_coordinate = Coordinate(row + 2, 1)
            return
        try:
            row_key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except CellDoesNotExist:
            return
        learner = next((s for s in self.snapshot.learners if _row_key(s) == row_key), None)
        if learner is not None:
            exercise_id = self.columns[column]
            self.app.push_screen(ClassAttemptsScreen(self.snapshot.labels[learner.key], self.book, exercise_id,
                                                     learner.exercises.get(exercise_id), self.snapshot.now))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape goes back only from a chapter's exercises: on the chapters the footer leaves it out."""
        return not (action == "back" and self.chapter is None)

    def action_back(self) -> None:
        """From a chapter's exercises back to the chapters, the cursor on the same learner and that chapter."""
        if self.chapter is None:
            return
        table = self.query_one("#heat", DataTable)
        row, was = table.cursor_row - 2, self.chapter
        self.chapter = None
        self._fill()
        table.cursor_coordinate = Coordinate(max(0, row), 1 + self.columns.index(was))


def _row_key(learner: Learner) -> str:
    return f"{learner.name}\x00{learner.owner}"


def _lines(lines: list[str]) -> Text:
    """Lines for a panel, each cut at its edge rather than wrapped."""
    return Text("\n".join(lines), no_wrap=True, overflow="ellipsis")


def _first(lines: list[str], nothing: str) -> list[str]:
    if not lines:
        return [nothing]
    more = len(lines) - PANEL_LINES
    return lines[:PANEL_LINES] if more <= 0 else lines[:PANEL_LINES - 1] + [f"… and {more + 1} more"]

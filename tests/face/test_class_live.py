"""`ringbook class live`'s screen, driven by Pilot over a real inbox at 80x24 and 120x40: a file written into
the inbox shows up, Enter opens a chapter and then a learner's attempts, Escape goes back."""

from __future__ import annotations

import gc
from datetime import timedelta

import pytest
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from grader.book.load import load_book
from tests.class_inbox import NOW, Class
from tests.helpers import text_of, wait_until
from tui.class_live_app import ClassLiveApp
from tui.progress.class_live import ClassLive
from tui.screens.class_attempts import ClassAttemptsScreen
from tui.screens.class_live import ClassLiveScreen

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture(scope="module")
def book():
    return load_book()


@pytest.fixture
def lesson(tmp_path) -> Class:
    lesson = Class(tmp_path)
    lesson.answer("ana", [("0.1", "0.875", "incorrect", 7), ("0.1", "14", "incorrect", 4),
                          ("0.1", "3", "incorrect", 1)])
    lesson.answer("ben", [("0.1", "0.875", "incorrect", 3), ("0.1", "1.75", "correct", 2)])
    return lesson


def live_app(book, lesson: Class, chapter: str | None = None) -> ClassLiveApp:
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    return ClassLiveApp(live, chapter=chapter, now=lambda: NOW)


def cell(app: ClassLiveApp, row: int, column: str) -> str:
    table = app.screen.query_one("#heat", DataTable)
    return str(table.get_cell(table.coordinate_to_cell_key(Coordinate(row, 0)).row_key, column))


def rows(app: ClassLiveApp) -> list[str]:
    table = app.screen.query_one("#heat", DataTable)
    return [str(table.get_row_at(n)[0]) for n in range(table.row_count)]


@SIZES
async def test_a_learner_new_to_the_inbox_shows_up_and_one_changing_is_repainted(book, lesson, size):
    app = live_app(book, lesson)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        assert rows(app) == ["ana", "ben"]
        assert "ana · 0.1 · 3 wrong · 7 min" in text_of(app.screen.query_one("#stuck", Static))
        assert "2 learners · 0.1 · That is one phase only" in text_of(app.screen.query_one("#slips", Static))
        lesson.answer("cy", [("1.1", "112", "correct", 0)])
        await wait_until(pilot, lambda: rows(app) == ["ana", "ben", "cy"], "cy's file on the screen")
        assert (cell(app, 2, "0"), cell(app, 2, "1")) == ("·", "◐1")
        lesson.answer("ana", [("0.1", "1.75", "correct", 0)])
        await wait_until(pilot, lambda: "nobody" in text_of(app.screen.query_one("#stuck", Static)),
                         "ana no longer stuck once her right answer arrives")
        assert cell(app, 0, "0") == "◐1"


async def test_a_change_renders_only_the_rows_it_changed(book, lesson):
    """A snapshot in which only ana's file changed renders ana's cells again and no other row's (Textual's
    DataTable.update_cell rendered every visible cell: tui.widgets.heat_table)."""
    app = live_app(book, lesson)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        table = app.screen.query_one("#heat", DataTable)
        await pilot.pause()
        rendered: list[int] = []
        render_cell = table._render_cell

        def noting(row_index, column_index, *args, **kwargs):
            rendered.append(row_index)
            return render_cell(row_index, column_index, *args, **kwargs)

        table._render_cell = noting
        lesson.answer("ana", [("0.1", "1.75", "correct", 0)])
        await wait_until(pilot, lambda: cell(app, 0, "0") == "◐1", "ana's right answer on the screen")
        drawn: list[bool] = []
        app.call_after_refresh(drawn.append, True)
        await wait_until(pilot, lambda: drawn, "the frame after it")
        assert rendered and set(rendered) == {0}
        assert table.render_line(1).text.split()[:2] == ["ana", "◐1"]   # was ◐0: the new cell, not a cached one


@SIZES
async def test_enter_opens_a_chapter_then_a_learners_attempts_and_escape_goes_back(book, lesson, size):
    app = live_app(book, lesson)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        screen = app.screen
        assert "Open" in {b.binding.description for b in screen.active_bindings.values() if b.binding.show}
        figures = screen.query_one("#figures")
        assert "✓ every exercise solved · ◐n tried, n solved · · none tried" in text_of(figures)   # the glyphs named
        await pilot.press("enter")                          # on ana, chapter 0
        assert screen.chapter == "0"
        assert "✓ solved · ✗n tried, n attempts · !n stuck now · · not started" in text_of(figures)
        assert rows(app)[:4] == ["first try", "median tries", "ana", "ben"]
        assert (cell(app, 2, "0.1"), cell(app, 3, "0.1"), cell(app, 3, "0.2")) == ("!3", "✓", "·")
        assert (cell(app, 0, "0.1"), cell(app, 1, "0.1")) == ("0%", "2")
        assert "0.1: 2 tried, 1 solved, first try 0%, median attempts 2" in text_of(screen.query_one("#figures"))
        await pilot.press("down", "enter")                  # ben's attempts at 0.1
        await wait_until(pilot, lambda: isinstance(app.screen, ClassAttemptsScreen), "ben's attempts")
        listing = text_of(app.screen.query_one("#class-attempts-list", Static))
        assert "2 counted attempts, solved" in listing
        assert "3 min ago  0.875" in listing and "wrong: That is one phase only" in listing
        assert "2 min ago  1.75" in listing and "right" in listing
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("escape")                         # back to the chapters, on ben and chapter 0
        assert screen.chapter is None and rows(app) == ["ana", "ben"]
        table = screen.query_one("#heat", DataTable)
        assert (table.cursor_row, table.cursor_column) == (1, 1)
        assert "back" not in {b.binding.action for b in screen.active_bindings.values()}


async def test_a_click_on_a_chapter_opens_it(book, lesson):
    app = live_app(book, lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        table = app.screen.query_one("#heat", DataTable)
        region = table._get_cell_region(table.cursor_coordinate._replace(column=2))   # ana, chapter 1
        await pilot.click(table, offset=(region.x + 1, region.y + 1))
        await pilot.click(table, offset=(region.x + 1, region.y + 1))
        await wait_until(pilot, lambda: app.screen.chapter == "1", "chapter 1 opened by the mouse")


async def test_names_from_files_are_shown_as_text(book, tmp_path):
    lesson = Class(tmp_path)
    lesson.answer("m\x1b[2J[b]x", [("0.1", "3", "incorrect", 1)])
    app = live_app(book, lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        assert rows(app) == ["m\\x1b[2J[b]x"]   # the escape as text, the brackets not read as markup
        assert "m\\x1b[2J[b]x" in app.screen.query_one("#heat", DataTable).render_line(1).text


async def test_time_moves_stuck_on_without_a_file_changing(book, lesson):
    moments = [NOW]
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    app = ClassLiveApp(live, now=lambda: moments[-1])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        moments.append(NOW + timedelta(minutes=4))
        seen = app.updates
        app.run_worker(app._update, thread=True)     # what the timer does
        await wait_until(pilot, lambda: app.updates > seen, "the next snapshot")
        assert "nobody" in text_of(app.screen.query_one("#stuck", Static))   # the first wrong one left the window


async def test_on_a_chapters_exercises_time_moves_a_stuck_cell_on_without_a_file_changing(book, lesson):
    """Only changed rows are repainted, and a row whose learner is no longer stuck has changed: ana's !3
    becomes ✗3 once the first of her wrong answers leaves the window."""
    moments = [NOW]
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    app = ClassLiveApp(live, chapter="0", now=lambda: moments[-1])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        assert (cell(app, 2, "0.1"), cell(app, 3, "0.1")) == ("!3", "✓")
        moments.append(NOW + timedelta(minutes=4))
        seen = app.updates
        app.run_worker(app._update, thread=True)     # what the timer does
        await wait_until(pilot, lambda: app.updates > seen, "the next snapshot")
        assert (cell(app, 2, "0.1"), cell(app, 3, "0.1")) == ("✗3", "✓")


async def test_the_class_read_is_left_out_of_full_collections_while_the_view_runs(book, lesson):
    """gc.freeze while the view runs (a full collection over 300 learners' rows took 77 ms, 2.5 ms frozen);
    unfrozen when it stops, so cycles among those objects are collected again."""
    app = live_app(book, lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


@SIZES
def test_snapshot_of_a_chapter_being_worked_on(snap_compare, book, lesson, size):
    async def chapter_open(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ClassLiveScreen), "the live screen")
        await pilot.press("enter")
        # DataTable sized the learner column to its rows when next idle: on a busy host the picture was taken
        # before, with "first try" and "median tries" cut to the width of "Learner". It is sized as it is made.
        await pilot.pause()

    assert snap_compare(live_app(book, lesson), run_before=chapter_open, terminal_size=size)


async def test_an_inbox_that_cannot_be_listed_is_said_above_the_class_as_last_read(book, lesson, tmp_path):
    app = live_app(book, lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        unlisted = app.screen.query_one("#unlisted", Static)
        assert not unlisted.display
        lesson.inbox.rename(tmp_path / "away")
        app.run_worker(app._update, thread=True)     # what the timer does
        await wait_until(pilot, lambda: unlisted.display, "the reason above the table")
        assert text_of(unlisted).startswith("The inbox cannot be listed now (No such file or directory)")
        assert rows(app) == ["ana", "ben"]
        (tmp_path / "away").rename(lesson.inbox)
        app.run_worker(app._update, thread=True)
        await wait_until(pilot, lambda: not unlisted.display, "the line gone once it can be listed")


async def test_the_learner_column_fits_its_labels_from_the_moment_the_table_is_made(book, lesson):
    """DataTable sized it when next idle: until then it was as wide as "Learner", "median tries" cut to "median"
    and every column one step left (a snapshot on a busy host caught it)."""
    app = live_app(book, lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        screen = app.screen
        screen.action_open()   # chapter 0's exercises, made now: no await, so the table has not been idle since
        table = screen.query_one("#heat", DataTable)
        assert table.columns[ColumnKey("learner")].get_render_width(table) == len("median tries") + 2


async def test_at_80x24_a_stuck_line_keeps_its_time_and_shortens_a_long_name(book, tmp_path):
    lesson = Class(tmp_path)
    lesson.answer("alexandra", [("0.1", "0.875", "incorrect", 0.5), ("0.1", "14", "incorrect", 0.4),
                                ("0.1", "3", "incorrect", 0.2)])
    app = live_app(book, lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ClassLiveScreen), "the live screen")
        panel = app.screen.query_one("#stuck", Static)
        await wait_until(pilot, lambda: panel.render_line(0).text.strip() == "alex… · 0.1 · 3 wrong · <1 min",
                         "the stuck line whole but for the name")

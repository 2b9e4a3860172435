"""What one chapter may cost to show is bounded: a long table is refused, in content check and on opening.

Within the 1 MB cap a table of 3,000 rows (85 kB) took 13.5 s and 577 MB to open, 8,000 rows 36 s and
1.4 GB, and 31,000 rows kept the app from quitting for minutes: every row became widgets.
"""

from __future__ import annotations

from grader.book.load import BookError, check_book, load_book
from grader.files import MAX_BLOCKS, MAX_TABLE_ROWS
from tests.helpers import ringbook_app
from tui.progress.store import ProgressStore
from tui.screens.chapter import ChapterScreen

ROWS = 3_000


def long_table(rows: int) -> str:
    rows_text = "".join(f"| {i} | {i % 97} |\n" for i in range(rows))
    return "\n## Every measurement\n\n| run | GB/s |\n|---|---|\n" + rows_text


def test_content_check_and_loading_refuse_a_chapter_with_too_many_table_rows(chapters_copy):
    book_copy = chapters_copy("00-ring-allreduce", "01-zero-stages")
    chapter = book_copy / "00-ring-allreduce" / "chapter.md"
    before = chapter.read_text().count("\n")
    chapter.write_text(chapter.read_text() + long_table(ROWS))
    _, problems = check_book(book_copy)
    [problem] = [p for p in problems if "rows" in p.message]
    first_row = before + 4          # after a blank line, the heading and a blank line: the header row
    assert (problem.path, problem.line) == (chapter, first_row + MAX_TABLE_ROWS)  # the row past the cap
    assert not problem.warning and f"more than {MAX_TABLE_ROWS} rows" in problem.message
    try:
        load_book(book_copy)
    except BookError as exc:
        assert f"{chapter}:{first_row + MAX_TABLE_ROWS}:" in str(exc)
    else:
        raise AssertionError("a book with a 3,000-row table opened")


def test_content_check_refuses_a_chapter_of_too_many_blocks_but_not_a_long_code_block(chapters_copy):
    book_copy = chapters_copy("00-ring-allreduce", "01-zero-stages")
    chapter = book_copy / "01-zero-stages" / "chapter.md"
    text = chapter.read_text()
    chapter.write_text(text + "\n```text\n" + "| not a table row |\n\n" * 5_000 + "```\n")
    assert [p for p in check_book(book_copy)[1] if not p.warning] == []
    chapter.write_text(text + "".join(f"\nParagraph {i}.\n" for i in range(MAX_BLOCKS + 1)))
    assert any(f"more than {MAX_BLOCKS:,} blocks" in p.message and p.path == chapter for p in check_book(book_copy)[1])


async def test_a_chapter_grown_after_the_check_opens_as_a_sentence_not_thousands_of_widgets(chapters_copy, data_dir):
    book_copy = chapters_copy("00-ring-allreduce", "01-zero-stages")
    book = load_book(book_copy)                     # checked while the chapter was fine
    chapter = book.chapters[0]
    chapter.narrative_path.write_text(chapter.narrative_path.read_text() + long_table(ROWS))
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_chapter(chapter)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChapterScreen)
        shown = " ".join(str(block.render()) for block in screen.query("#narrative *"))
        assert "This chapter cannot be shown" in shown and f"more than {MAX_TABLE_ROWS} rows" in shown
        assert len(screen.query("*")) < 200        # the built-in chapter 0 needs about 100
        await pilot.press("q")
    store.close()

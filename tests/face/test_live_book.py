"""A live book (`ringbook --content DIR --watch`): an author's save shows in the app where the learner is, a
save that breaks the book shows its problems as path:line: message, and the save that fixes them clears them.

The watch is real (watchfiles on the book's folder) and so are the files: the tests write them as an editor
would and wait for what the app shows, never for a fixed time."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown

from grader.book.load import load_book
from grader.book.model import Book
from tests.helpers import chapter_filled_in, home_ready, open_exercise, text_of, wait_until
from tui.app import RingbookApp
from tui.screens.book_problems import BookProblemsScreen
from tui.screens.chapter import ChapterScreen
from tui.screens.exercise import ExerciseScreen
from tui.screens.home import HomeScreen
from tui.widgets.page import Scroll

CHAPTER = "00-ring-allreduce"


def live_app(root: Path, store, book: Book | None = None, problems=()) -> RingbookApp:
    book = book or load_book(root)
    return RingbookApp(book, store, quiet_host=True, watch=root, problems=problems)


def narrative_of(app: RingbookApp) -> str:
    """The chapter's Markdown as its screen shows it now ("" while the screen is still being built)."""
    found = app.screen.query("#narrative")
    return "".join(block.source for block in found.first().children if hasattr(block, "source")) if found else ""


async def test_a_save_shows_in_place_and_a_broken_one_lists_its_problems_until_fixed(chapters_copy, store):
    root = chapters_copy(CHAPTER)
    narrative = root / CHAPTER / "chapter.md"
    exercises = root / CHAPTER / "exercises.yaml"
    app = live_app(root, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        app.open_chapter(app.session.book.chapters[0])
        await chapter_filled_in(app, pilot)
        first = app.screen
        page = first.query_one("#page", Scroll)
        # The whole text is laid out a frame after the list is mounted; a scroll before that stops at the top.
        await wait_until(pilot, lambda: page.max_scroll_y >= 12, "the chapter laid out longer than the screen")
        page.scroll_to(y=12, animate=False, immediate=True)
        await pilot.pause()
        assert page.scroll_y == 12

        # An author rewrites a paragraph below the top: the chapter is read again, scrolled where it was.
        text = narrative.read_text()
        narrative.write_text(text.replace("\n\n", "\n\nA sentence the author just wrote.\n\n", 1))

        def reread() -> bool:
            screen = app.screen
            return (isinstance(screen, ChapterScreen) and screen is not first and bool(screen.query("#exercise-list"))
                    and "A sentence the author just wrote." in narrative_of(app))

        await wait_until(pilot, reread, "the chapter shown again with the new sentence")
        assert app.screen.chapter.id == first.chapter.id
        await wait_until(pilot, lambda: app.screen.query_one("#page", Scroll).scroll_y == 12,
                         "the page scrolled back where it was")
        assert isinstance(app.screen_stack[0], HomeScreen) and len(app.screen_stack) == 2

        # Broken YAML: the problems, as path:line: message, over the chapter, which stays underneath.
        good = exercises.read_text()
        exercises.write_text(good.replace("exercises:", "exercises: [", 1))
        await wait_until(pilot, lambda: isinstance(app.screen, BookProblemsScreen), "the problems screen")
        listing = text_of(app.screen.query_one("#problems-list"))
        assert f"{CHAPTER}/exercises.yaml:" in listing and "invalid YAML" in listing
        assert isinstance(app.screen_stack[-2], ChapterScreen)

        # The fix: the problems go by themselves, and the chapter is where it was.
        exercises.write_text(good)
        await wait_until(pilot, lambda: isinstance(app.screen, ChapterScreen) and not app.live_book.problems
                         and "A sentence the author just wrote." in narrative_of(app),
                         "the problems gone once fixed, the chapter shown")

        # An exercise open with an answer typed: its title rewritten, the answer kept.
        first = await open_exercise(app, pilot, "0.1")
        await pilot.press("1", "2")
        title = first.exercise.title
        assert f"title: {title}\n" in good
        exercises.write_text(good.replace(f"title: {title}\n", f"title: {title}, rewritten\n", 1))
        def retitled() -> bool:
            screen = app.screen
            if not isinstance(screen, ExerciseScreen) or screen is first or not screen.query("#exercise-title"):
                return False
            return f"{title}, rewritten" in text_of(screen.query_one("#exercise-title"))

        await wait_until(pilot, retitled, "the exercise shown again with its new title")
        assert app.screen.panel.answer_text() == "12"


async def test_a_book_broken_from_the_start_opens_on_its_problems_and_then_on_home_once_fixed(chapters_copy, store):
    """The book is read with a start's checks: a control character meant for the reader's terminal is a problem,
    shown escaped, never sent."""
    from tui.cli.app import book_to_watch

    root = chapters_copy(CHAPTER)
    narrative = root / CHAPTER / "chapter.md"
    good = narrative.read_text()
    narrative.write_text(good.replace("\n\n", "\n\n\x1b]52;c;aGk=\x07\n\n", 1))   # would set the clipboard
    book, problems = book_to_watch(root)
    assert book is not None and not book.chapters
    assert problems and all(p.path == narrative for p in problems)
    app = RingbookApp(book, store, quiet_host=True, watch=root, problems=problems)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BookProblemsScreen) and app.screen.is_mounted,
                         "the problems screen")
        listing = text_of(app.screen.query_one("#problems-list"))
        assert f"{CHAPTER}/chapter.md:{problems[0].line}: \\x1b" in listing and "\x1b" not in listing
        await pilot.press("escape")   # nothing to go back to: the problems stay
        assert isinstance(app.screen, BookProblemsScreen)

        narrative.write_text(good)
        await home_ready(app, pilot)
        assert [c.id for c in app.session.book.chapters] == ["0"] and not app.live_book.problems


def notices(app: RingbookApp) -> list[str]:
    return [str(notice.message) for notice in app._notifications]


def new_book(tmp_path: Path, capsys) -> tuple[Path, Path]:
    """A book made by `ringbook content new`, as an author starts one: its folder and its exercises file."""
    from tests.helpers import ringbook_in_process

    root = tmp_path / "book"
    assert ringbook_in_process(capsys, "content", "new", root)[0] == 0
    return root, root / "01-first-steps" / "exercises.yaml"


async def test_what_only_content_check_finds_shows_in_a_notice_after_a_save(tmp_path, store, capsys):
    """A variant a mistake equals the answer in does not stop the book loading, so before, the live book
    never said; content check ran in a child after each good read names it now, with its count."""
    root, exercises = new_book(tmp_path, capsys)
    app = live_app(root, store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await home_ready(app, pilot)
        text = exercises.read_text()
        exercises.write_text(text.replace("b: {choices: [2, 4, 8]}", "b: {choices: [1, 2, 4, 8]}", 1))
        line = text[:text.index("    mistakes:\n      - answer: B/N")].count("\n") + 2

        def reported() -> str | None:
            return next((n for n in notices(app) if "content check` finds 1 problem " in n), None)

        # The reload's own notice comes first and lasts 3 s; the check's child may take longer on a busy host.
        await wait_until(pilot, lambda: "Your edits are in." in notices(app), "the reload's notice")
        assert not app.live_book.problems
        await wait_until(pilot, reported, "a notice of the sampled variant's problem", timeout=60)
        assert f"01-first-steps/exercises.yaml:{line}: seed " in reported()
        assert "mistake 'B/N' equals the answer" in reported()


async def test_renaming_the_open_exercise_says_it_is_gone(tmp_path, store, capsys):
    root, exercises = new_book(tmp_path, capsys)
    app = live_app(root, store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await home_ready(app, pilot)
        app.open_chapter(app.session.book.chapters[0])
        await chapter_filled_in(app, pilot)
        await open_exercise(app, pilot, "1.3")
        exercises.write_text(exercises.read_text().replace('id: "1.3"', 'id: "1.30"', 1))
        await wait_until(pilot, lambda: any("Exercise 1.3 is gone from the book" in n for n in notices(app)),
                         "a notice that the open exercise is gone")
        assert isinstance(app.screen, ChapterScreen)


async def test_a_solved_exercise_read_again_keeps_its_verdict_and_explanation_and_keeps_no_new_attempt(
        chapters_copy, store):
    """An author who solved 0.1 to see its explanation, then fixed a word in it, met an exercise with no verdict
    and no explanation after the save (issue 47): both show again, the explanation as edited, and the answer
    judged again is not a new attempt."""
    root = chapters_copy(CHAPTER)
    exercises = root / CHAPTER / "exercises.yaml"
    app = live_app(root, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        first = await open_exercise(app, pilot, "0.1")
        await pilot.press(*"1.75", "enter")
        await wait_until(pilot, lambda: first.query_one("#explanation").display, "the explanation of a right answer")
        assert len(store.attempts("0.1")) == 1
        exercises.write_text(exercises.read_text().replace("What does grow with N is the number of",
                                                           "What grows with N is the number of", 1))

        def shown_again() -> bool:
            screen = app.screen
            return (isinstance(screen, ExerciseScreen) and screen is not first
                    and "Correct" in text_of(screen.query_one("#verdict"))
                    and screen.query_one("#explanation").display
                    and "What grows with N" in screen.query_one("#explanation", Markdown).source)

        await wait_until(pilot, shown_again, "the verdict and the edited explanation shown again")
        assert len(store.attempts("0.1")) == 1

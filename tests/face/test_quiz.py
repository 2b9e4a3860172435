"""The readiness quiz: its content is checked like the chapters', and taking it in the app scores,
explains, resumes and stores the run."""

from __future__ import annotations

import importlib.util
import io
import json
import textwrap
from pathlib import Path

import pytest

from grader.book.load import check_book, load_book
from grader.book.quiz import Response, score
from tests.helpers import footer_keys, ringbook_app, wait_until
from tui.app import RingbookApp
from tui.progress.store import ProgressStore
from tui.screens.chapter import ChapterScreen
from tui.screens.quiz import QuizScreen
from tui.widgets.settling_cursor import SettlingCursor

SMALL_QUIZ = textwrap.dedent("""\
    title: Small check
    intro: Three questions.
    questions:
      - id: q1
        topic: Ring cost
        chapter: "0"
        prompt: What fraction of M does each GPU send in a ring AllReduce, as N grows?
        style: choice
        options:
          - {text: "About 2M", correct: true, feedback: "2M(N-1)/N tends to 2M."}
          - {text: "About M", feedback: "That is one phase only."}
          - {text: "About NM", feedback: "That is the parameter-server hot spot."}
        explanation: Reduce-scatter and all-gather each move M(N-1)/N.
      - id: q2
        topic: Bubble
        chapter: "5"
        prompt: Which grows the pipeline bubble?
        style: choice
        options:
          - {text: "More stages at fixed micro-batches", correct: true, feedback: "(p-1)/m grows with p."}
          - {text: "More micro-batches at fixed stages", feedback: "That shrinks it."}
      - id: q3
        topic: Hangs
        chapter: "7"
        prompt: How do you find the rank that hangs a collective?
        style: reveal
        answer: Read the watchdog's dump of which rank has not entered the collective.
        checklist: [watchdog timeout, the rank missing from the collective]
""")


@pytest.fixture
def quiz_book(chapters_copy) -> Path:
    """The built-in chapters the small quiz names (0, 5 and 7), with only that quiz, so the tests do not depend
    on the real one's wording (and a check of the book costs three chapters, not seventeen)."""
    book_copy = chapters_copy("00-ring-allreduce", "05-pipeline-parallelism", "07-checkpoint-recovery")
    (book_copy / "quizzes").mkdir(exist_ok=True)
    (book_copy / "quizzes" / "small.yaml").write_text(SMALL_QUIZ)
    text = (book_copy / "book.yaml").read_text()
    text = text.split("\nquizzes:")[0].split("\nlabs:")[0]
    text += '\nquizzes:\n  - {id: small, title: "Small Check", file: quizzes/small.yaml}\n'
    (book_copy / "book.yaml").write_text(text)
    return book_copy


def problems_of(root: Path) -> list[str]:
    _, problems = check_book(root)
    return [f"{p.path.name}:{p.line}: {p.message}" for p in problems]


# --- content ------------------------------------------------------------------------------------

def test_small_quiz_loads_with_option_ids_in_written_order(quiz_book):
    quiz = load_book(quiz_book).quiz("small")
    assert [q.id for q in quiz] == ["q1", "q2", "q3"]
    assert [o.id for o in quiz.questions[0].options] == ["a", "b", "c"]
    assert quiz.questions[0].correct_option.text == "About 2M"
    assert quiz.questions[2].checklist == ("watchdog timeout", "the rank missing from the collective")


@pytest.mark.parametrize("change, message", [
    (("correct: true, feedback: \"2M", "feedback: \"2M"), "exactly one correct option, not 0"),
    (("chapter: \"5\"", "chapter: \"55\""), "no chapter '55' in this book"),
    (("id: q2", "id: q1"), "duplicate question id 'q1'"),
    (("style: reveal", "style: choice"), "questions/2: 'options' is a required property"),
    (("    topic: Bubble\n", ""), "questions/1: 'topic' is a required property"),
])
def test_broken_quizzes_are_reported_at_their_line(quiz_book, change, message):
    path = quiz_book / "quizzes" / "small.yaml"
    path.write_text(path.read_text().replace(*change, 1))
    reported = problems_of(quiz_book)
    assert any(message in p and p.startswith("small.yaml:") for p in reported), reported


def test_a_missing_quiz_file_is_reported(quiz_book):
    (quiz_book / "quizzes" / "small.yaml").unlink()
    assert any("small.yaml:1: file is missing" in p for p in problems_of(quiz_book))


def test_scoring_counts_first_picks_and_self_ratings(quiz_book):
    quiz = load_book(quiz_book).quiz("small")
    responses = {"q1": Response("q1", choice="a"), "q2": Response("q2", choice="b"),
                 "q3": Response("q3", rating="partly")}
    result = score(quiz, responses)
    assert (result.points, result.out_of, [q.id for q in result.missed]) == (1.5, 3, ["q2", "q3"])
    assert score(quiz, {}).points == 0


# --- the built-in readiness quiz --------------------------------------------------------------------

EXPECTED = Path(__file__).resolve().parents[1] / "expected" / "quiz.py"


def test_readiness_quiz_has_the_twenty_questions_with_one_right_option_each(book):
    quiz = book.quiz("readiness")
    assert quiz is not None and len(quiz) == 20
    spec = importlib.util.spec_from_file_location("quiz_expected", EXPECTED)
    expected = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(expected)
    choices = [q for q in quiz if q.style == "choice"]
    assert len(choices) >= 12
    assert {q.id for q in choices} == set(expected.CORRECT)
    for question in choices:
        assert expected.CORRECT[question.id].lower() in question.correct_option.text.lower(), question.id
        assert all(o.feedback.strip() for o in question.options)
    for question in quiz:
        assert book.chapter(question.chapter) is not None


# --- taking it in the app ---------------------------------------------------------------------------

def app_on(root: Path, data_dir: Path) -> RingbookApp:
    return ringbook_app(load_book(root), ProgressStore.open(data_dir))


def visible_text(screen) -> str:
    """The text of every Static on the screen, rich tables included, as plain text."""
    from rich.console import Console

    console = Console(width=76, record=True, file=io.StringIO())
    for widget in screen.query("Static"):
        console.print(widget.content)
    for listing in screen.query("#quiz-results"):
        for index in range(listing.option_count):
            console.print(listing.get_option_at_index(index).prompt)
    return console.export_text()


def in_view(screen, selector: str) -> bool:
    """Whether the widget is wholly inside the quiz page's visible part."""
    page = screen.query_one("#quiz")
    region = screen.query_one(selector).virtual_region
    return page.scroll_y <= region.y and region.bottom <= page.scroll_y + page.scrollable_content_region.height


async def test_taking_the_quiz_scores_explains_and_stores_the_run(quiz_book, data_dir):
    app = app_on(quiz_book, data_dir)
    quiz = app.session.book.quiz("small")
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(quiz)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QuizScreen) and "Question 1 of 3" in visible_text(screen)
        right = "abcdef"[[o.id for o in quiz.questions[0].presented_options].index("a")]
        await pilot.press(right)
        await pilot.pause()
        assert "✓ Right." in visible_text(screen) and "2M(N-1)/N tends to 2M." in visible_text(screen)
        await pilot.press(right)  # a second pick changes nothing
        await pilot.press("n")
        await pilot.pause()
        assert "Question 2 of 3" in visible_text(screen)
        wrong = "abcdef"[[o.id for o in quiz.questions[1].presented_options].index("b")]
        await pilot.press(wrong)
        await pilot.pause()
        shown = visible_text(screen)
        assert "✗ Not that one." in shown and "That shrinks it." in shown
        assert "More stages at fixed micro-batches" in shown  # the right answer is shown too
        await pilot.press("n")
        await pilot.pause()
        assert not app.screen.query_one("#quiz-notes").has_focus  # so space reveals at once
        await pilot.press("w", *"watchdog", "space", "r")
        assert app.screen.query_one("#quiz-notes").text == "watchdog r"  # typed, not a key binding
        assert isinstance(app.screen.query_one("#quiz-notes"), SettlingCursor)   # test_settling_cursor.py
        await pilot.press("backspace", "backspace", "escape", "space")
        await pilot.pause()
        shown = visible_text(screen)
        assert "watchdog timeout" in shown and "Your answer: watchdog" in shown
        await pilot.press("2", "n")
        await pilot.pause()
        shown = visible_text(screen)
        assert "Small Check: 1.5 / 3" in shown and "ch. 5" in shown and "ch. 7" in shown
    [entry] = ProgressStore.open(data_dir).entries("quiz")
    assert (entry.name, entry.payload["score"], entry.payload["out_of"]) == ("small", 1.5, 3)
    assert entry.payload["responses"]["q3"] == {"choice": "", "rating": "partly", "points": 0.5}


async def test_the_notes_box_footer_says_esc_leaves_the_box(quiz_book, data_dir):
    """Issue 45, 2.10: in the notes box the footer said `esc Back`, but Esc there only leaves the box."""
    app = app_on(quiz_book, data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(app.session.book.quiz("small"))
        await pilot.pause()
        screen = app.screen
        await pilot.press("a", "n", "a", "n", "w")                  # two choices answered, then the reveal card
        await wait_until(pilot, lambda: screen.query_one("#quiz-notes").has_focus, "the notes box")

        def esc_says() -> str | None:
            return next((key.description for key in footer_keys(screen) if key.key == "escape"), None)

        await wait_until(pilot, lambda: esc_says() == "Leave box", "esc Leave box in the notes box")
        await pilot.press("escape")
        await wait_until(pilot, lambda: esc_says() == "Back", "esc Back once the box is left")
        assert app.screen is screen
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not screen, "Esc from the page going back")


async def test_leaving_half_way_resumes_at_the_next_question(quiz_book, data_dir):
    app = app_on(quiz_book, data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(app.session.book.quiz("small"))
        await pilot.pause()
        await pilot.press("a", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, QuizScreen)
        rows = app.screen.query_one("#chapters")
        prompts = [str(rows.get_option_at_index(i).prompt) for i in range(rows.option_count)]
        assert any("Small Check" in p and "1/3 in progress" in p for p in prompts)
    assert ProgressStore.open(data_dir).entries("quiz") == []
    app = app_on(quiz_book, data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(app.session.book.quiz("small"))
        await pilot.pause()
        assert "Question 2 of 3" in visible_text(app.screen)


async def test_a_damaged_saved_run_starts_afresh(quiz_book, data_dir):
    store = ProgressStore.open(data_dir)
    store.set_state("quiz:small", "{not json")
    store.close()
    app = app_on(quiz_book, data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(app.session.book.quiz("small"))
        await pilot.pause()
        assert "Question 1 of 3" in visible_text(app.screen)


async def test_home_lists_the_quiz_with_its_best_score(quiz_book, data_dir):
    store = ProgressStore.open(data_dir)
    store.record_entry("quiz", "small", {"score": 1, "out_of": 3})
    store.record_entry("quiz", "small", {"score": 2.5, "out_of": 3})
    store.close()
    app = app_on(quiz_book, data_dir)
    async with app.run_test(size=(80, 40)) as pilot:        # tall enough for the part headings
        rows = app.screen.query_one("#chapters")
        prompts = [str(rows.get_option_at_index(i).prompt) for i in range(rows.option_count)]
        assert any("Small Check" in p and "best 2.5/3" in p and "2 runs" in p for p in prompts)
        assert "Quiz" in prompts
        rows.highlighted = next(i for i, p in enumerate(prompts) if "Small Check" in p)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuizScreen)


@pytest.mark.parametrize("finished_runs", [0, 2])
async def test_the_home_row_of_a_run_in_progress_fits_80_columns(book, data_dir, finished_runs):
    store = ProgressStore.open(data_dir)
    for points in (12, 14.5)[:finished_runs]:
        store.record_entry("quiz", "readiness", {"score": points, "out_of": 20})
    first = book.quiz("readiness").questions[0]
    store.set_state("quiz:readiness", json.dumps({"responses": [{"question_id": first.id, "choice": "a"}]}))
    store.close()
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = app.screen.query_one("#chapters")
        [row] = [rows.get_option_at_index(i).prompt for i in range(rows.option_count)
                 if rows.get_option_at_index(i).id == "quiz:readiness"]
        assert "1/20 in progress" in str(row)
        assert ("best 14.5/20" in str(row)) == bool(finished_runs)
        assert row.cell_len <= rows.scrollable_content_region.width


async def test_the_rating_just_given_and_the_next_key_are_in_view_at_80x24(book, data_dir):
    quiz = book.quiz("readiness")
    at = next(i for i, q in enumerate(quiz.questions) if q.style == "reveal")
    earlier = [{"question_id": q.id, "choice": q.presented_options[0].id} for q in quiz.questions[:at]]
    store = ProgressStore.open(data_dir)
    store.set_state("quiz:readiness", json.dumps({"responses": earlier}))
    store.close()
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(quiz)
        await wait_until(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.check_action("reveal", ()),
                         "the reveal question shown, ready for space")
        screen = app.screen
        await pilot.press("space")                          # each key waits for what it acts on: on a loaded
        await wait_until(pilot, lambda: screen.query("#quiz-rating") and screen.check_action("rate", ()),
                         "the model answer and its rating shown")   # machine, a frame was not always enough
        await pilot.pause()
        assert not in_view(screen, "#quiz-rating")       # the model answer fills the page: the rating is below
        await pilot.press("2")
        await wait_until(pilot, lambda: in_view(screen, "#quiz-rating") and in_view(screen, "#quiz-next"),
                         "the rating given and the next key scrolled into view")   # after a refresh
        rating = screen.query_one("#quiz-rating")
        assert "(✓)" in str(rating.get_option("partly").prompt)
        await pilot.press("n")                              # a choice question: its feedback in view
        await pilot.pause()
        question = screen.question
        assert question.style == "choice"
        await pilot.press("abcdef"[question.presented_options.index(question.correct_option)])
        await wait_until(pilot, lambda: in_view(screen, "#quiz-feedback"), "the choice's feedback in view")


async def test_a_results_row_opens_the_chapter_that_teaches_it(quiz_book, data_dir):
    app = app_on(quiz_book, data_dir)
    quiz = app.session.book.quiz("small")
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(quiz)
        await pilot.pause()
        screen = app.screen
        for keys in (("a", "n"), ("a", "n"), ("space", "3", "n")):
            await pilot.press(*keys)
            await pilot.pause()
        results = screen.query_one("#quiz-results")
        assert app.focused is results and results.option_count == 3
        await pilot.press("down", "enter")                  # q2 is taught in chapter 5
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen) and app.screen.chapter.id == "5"
        await pilot.press("escape")                         # back to the results, as they were
        await pilot.pause()
        assert app.screen is screen and screen.question is None
        await pilot.click("#quiz-results", offset=(4, 3))   # the third row, by mouse: chapter 7
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen) and app.screen.chapter.id == "7"

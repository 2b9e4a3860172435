"""Every screen of the learning loop as a learner sees it, at 80x24 and 120x40.

Progress and the clock are fixed (a seeded store, a frozen `now`), so the pictures only change when
the screens do. Snapshots live in snapshots/test_snapshots/; refresh them with --snapshot-update and
look at the diff report before committing.
"""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from textual.widgets import Input

from tests.helpers import chapter_filled_in, home_ready, ringbook_app, wait_until_still
from tui.app import RingbookApp
from tui.progress.store import ProgressStore

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 3, 12, 20, 0, tzinfo=BERLIN)
SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture
def seeded(tmp_path):
    """Three study days (10-12 March), a reveal, a retry: a learner a few exercises in."""
    store = ProgressStore.open(tmp_path)
    history = [(10, 0, "0.1", "1.75", "correct"), (11, 0, "0.2", "35", "incorrect"), (11, 1, "0.2", "70", "correct"),
               (12, 0, "1.1", "96", "incorrect")]   # minutes apart: the order of a log is its times
    for day, minute, exercise_id, text, status in history:
        store.record_attempt(exercise_id, text, status, now=datetime(2026, 3, day, 9, minute, tzinfo=BERLIN))
    store.record_reveal("0.3", now=datetime(2026, 3, 12, 9, 5, tzinfo=BERLIN))
    store.record_attempt("0.3", "77.8", "correct", now=datetime(2026, 3, 12, 9, 6, tzinfo=BERLIN))
    yield store
    store.close()


def make_app(book, store, theme: str | None = None) -> RingbookApp:
    app = ringbook_app(book, store, clock=lambda: NOW)
    if theme:
        app.theme = theme
    return app


def open_and_answer(exercise_id: str, text: str | None = None):
    async def run_before(pilot):
        app = pilot.app
        app.open_exercise(app.session.book.exercise(exercise_id))
        await pilot.pause()
        for box in app.screen.query("Input, TextArea"):
            box.cursor_blink = False             # a blinking cursor would make the picture depend on timing
        if text is not None:
            app.screen.query_one("#answer", Input).value = text
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
    return run_before


async def settled(pilot) -> None:
    """The app's workers done, and a frame after them."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def home_shown(pilot) -> None:
    """The home screen's review line is filled in once its footer's keys show: wait for it."""
    await home_ready(pilot.app, pilot)


@SIZES
def test_home(snap_compare, book, seeded, size):
    assert snap_compare(make_app(book, seeded), run_before=home_shown, terminal_size=size)


@SIZES
def test_chapter_reading(snap_compare, book, seeded, size):
    assert snap_compare(make_app(book, seeded), press=["enter", "_"], terminal_size=size)


async def chapter_exercises(pilot) -> None:
    """Chapter 0 from home, and `e` once its list is in (pressed at once, e came before the list on a
    loaded machine, and the picture was of its text)."""
    await pilot.press("enter")
    await chapter_filled_in(pilot.app, pilot)
    await pilot.press("e")
    await pilot.pause()


@SIZES
def test_chapter_exercises(snap_compare, book, seeded, size):
    assert snap_compare(make_app(book, seeded), run_before=chapter_exercises, terminal_size=size)


@SIZES
def test_exercise_fresh(snap_compare, book, seeded, size):
    assert snap_compare(make_app(book, seeded), run_before=open_and_answer("1.2"), terminal_size=size)


@SIZES
def test_exercise_invalid(snap_compare, book, seeded, size):
    assert snap_compare(make_app(book, seeded), run_before=open_and_answer("1.2", "29,3"), terminal_size=size)


@SIZES
def test_exercise_incorrect_with_mistake_feedback(snap_compare, book, seeded, size):
    mistake = book.exercise("1.2").mistake_values[0]
    assert snap_compare(make_app(book, seeded), run_before=open_and_answer("1.2", f"{mistake:g}"),
                        terminal_size=size)


@SIZES
def test_exercise_correct_with_explanation(snap_compare, book, seeded, size):
    assert snap_compare(make_app(book, seeded), run_before=open_and_answer("1.2", "29.3125"), terminal_size=size)


def test_choice_exercise(snap_compare, book, seeded):
    assert snap_compare(make_app(book, seeded), run_before=open_and_answer("0.4"))


def test_step_table(snap_compare, book, seeded):
    async def run_before(pilot):
        await open_and_answer("8.2")(pilot)
        for value in ("65536", "32768", "32768", "16384", "8192"):
            await pilot.press(*value, "enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    assert snap_compare(make_app(book, seeded), run_before=run_before)


def test_match_after_a_wrong_pair(snap_compare, book, seeded):
    """A match at 80x24 after an answer with one wrong pair, given in its table with the keyboard: each item
    marked, the verdict counting the right pairs, the footer naming the table's keys."""
    async def run_before(pilot):
        await open_and_answer("12.7")(pilot)
        exercise = pilot.app.screen.exercise
        given = dict(exercise.pairs, allreduce="gb6")
        for side in exercise.presented_left:
            await pilot.press(exercise.letter(side.id), str(exercise.number(given[side.id])))
        await pilot.press("enter")
        await settled(pilot)
    assert snap_compare(make_app(book, seeded), run_before=run_before)


def test_home_without_colour(snap_compare, book, seeded, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app(book, seeded), run_before=home_shown)


def test_light_theme(snap_compare, book, seeded):
    assert snap_compare(make_app(book, seeded, theme="textual-light"),
                        run_before=open_and_answer("1.2", "29.3125"))


def test_debug_listing_solved(snap_compare, book, seeded):
    async def run_before(pilot):
        await open_and_answer("0.6")(pilot)
        listing = pilot.app.screen.query_one("#listing")
        listing.highlighted = pilot.app.screen.exercise.buggy_line - 1
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        pilot.app.screen.query_one("#exercise").scroll_home(animate=False)
        await pilot.pause()
    assert snap_compare(make_app(book, seeded), run_before=run_before)


async def laid_out(pilot) -> None:
    """Frames until the exercise page's size has stayed the same over three of them."""
    page = pilot.app.screen.query_one("#exercise")
    await wait_until_still(pilot, lambda: page.virtual_size, "the exercise page settling")


def _pilot_steps(exercise_id: str, steps):
    """Open an exercise, then run `steps(pilot, screen)`; wait for grading; show the top of the screen."""
    async def run_before(pilot):
        await open_and_answer(exercise_id)(pilot)
        await steps(pilot, pilot.app.screen)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await laid_out(pilot)                    # a shown explanation's Markdown takes frames to lay out
        pilot.app.screen.query_one("#exercise").scroll_end(animate=False)  # one fixed view of the outcome
        await pilot.pause()
    return run_before


async def _nothing(pilot, screen):
    return None


async def _wrong_line(pilot, screen):
    screen.query_one("#listing").highlighted = 0 if screen.exercise.buggy_line != 1 else 1
    await pilot.press("enter")


async def _pick_up(pilot, screen):
    await pilot.press("space", "down")


async def _submit_shuffled(pilot, screen):
    await pilot.press("enter")


async def _submit_correct(pilot, screen):
    order = screen.query_one("#order")
    order.order = list(screen.exercise.order)
    await pilot.press("enter")


async def _run_solution(pilot, screen):
    screen.query_one("#editor").text = screen.exercise.solution
    await pilot.press("ctrl+r")


async def _run_starter(pilot, screen):
    await pilot.press("ctrl+r")


async def _run_endless(pilot, screen):
    screen.query_one("#editor").text = "def ring_allreduce_time(**kw):\n    while True:\n        pass\n"
    await pilot.press("ctrl+r")


HANDS_ON = {
    "debug-fresh": ("0.6", _nothing),
    "debug-wrong-line": ("0.6", _wrong_line),
    "design-fresh": ("9.8", _nothing),
    "design-picked-up": ("9.8", _pick_up),
    "design-incorrect": ("9.8", _submit_shuffled),
    "design-correct": ("9.8", _submit_correct),
    "build-fresh": ("0.5", _nothing),
    "build-failed": ("0.5", _run_starter),
    "build-passed": ("0.5", _run_solution),
    "build-stopped": ("0.5", _run_endless),
}


@pytest.mark.parametrize("state", HANDS_ON)
def test_hands_on_views(snap_compare, book, seeded, state):
    exercise_id, steps = HANDS_ON[state]
    assert snap_compare(make_app(book, seeded), run_before=_pilot_steps(exercise_id, steps))


def test_case_study_reading(snap_compare, book, seeded):
    async def run_before(pilot):
        pilot.app.open_chapter(pilot.app.session.book.chapter("16"))
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    assert snap_compare(make_app(book, seeded), run_before=run_before)


def take_quiz(answered: int = 0, press: tuple[str, ...] = (), missed: tuple[int, ...] = ()):
    """Open the readiness quiz with the first `answered` questions already answered, right but for those
    in `missed` (a run picked up where it was left), then press `press`."""
    async def run_before(pilot):
        app = pilot.app
        book = app.session.book
        quiz = book.quiz("readiness")
        responses = []
        for i, q in enumerate(quiz.questions[:answered]):
            if q.style == "choice":
                pick = wrong_key(book, i) if i in missed else "abcdef"[q.presented_options.index(q.correct_option)]
                responses.append({"question_id": q.id, "choice": q.presented_options["abcdef".index(pick)].id})
            else:
                responses.append({"question_id": q.id, "rating": "missed" if i in missed else "got"})
        app.session.store.set_state("quiz:readiness", json.dumps({"responses": responses}))
        app.open_quiz(quiz)
        await pilot.pause()
        app.clear_notifications()
        await pilot.press(*press)
        await pilot.pause()
    return run_before


def first_reveal_question(book) -> int:
    return next(i for i, q in enumerate(book.quiz("readiness").questions) if q.style == "reveal")


def wrong_key(book, index: int = 0) -> str:
    """The key of a wrong option of question `index`."""
    options = book.quiz("readiness").questions[index].presented_options
    return "abcdef"[next(i for i, option in enumerate(options) if not option.correct)]


def test_quiz_question(snap_compare, book, seeded):
    assert snap_compare(make_app(book, seeded), run_before=take_quiz())


def test_quiz_wrong_pick_explained(snap_compare, book, seeded):
    assert snap_compare(make_app(book, seeded), run_before=take_quiz(press=(wrong_key(book),)))


def test_quiz_reveal_card_turned_over(snap_compare, book, seeded):
    assert snap_compare(make_app(book, seeded), run_before=take_quiz(first_reveal_question(book), press=("space",)))


def test_quiz_results(snap_compare, book, seeded):
    """Three missed (two choices, one reveal card), the last answered right: the score, the verdict, and
    the chapters to review."""
    last = len(book.quiz("readiness")) - 1
    right = "abcdef"[book.quiz("readiness").questions[last].presented_options.index(
        book.quiz("readiness").questions[last].correct_option)]
    assert snap_compare(make_app(book, seeded), run_before=take_quiz(last, press=(right, "n"), missed=(1, 4, 7)))


async def review_started(pilot) -> None:
    """`r` on the home screen: the first due card, posed with new numbers."""
    await home_shown(pilot)
    await pilot.press("r")
    await pilot.pause()
    for box in pilot.app.screen.query("Input"):
        box.cursor_blink = False


def test_review_card(snap_compare, book, seeded):
    assert snap_compare(make_app(book, seeded), run_before=review_started)


def test_review_done(snap_compare, book, seeded):
    async def run_before(pilot):
        await review_started(pilot)
        app = pilot.app
        app.screen.query_one("#answer", Input).value = repr(app.screen.exercise.value)   # the first right
        await pilot.press("enter")
        await settled(pilot)
        while app.session.review_cards:                                                  # the rest skipped
            app.screen.action_next()
            await settled(pilot)
    assert snap_compare(make_app(book, seeded), run_before=run_before)

"""A review card tests recall, for every kind alike: until it is answered it shows nothing of the learner's
earlier answers (only how many), its box or editor starts empty (a build from its starter code), and
neither `v` (new numbers) nor `o` (earlier code) is offered; once a counted attempt is on it, the history is
back as in the chapter. Driven with Pilot on the real store, the clock 50 days after the chapter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from textual.widgets import TextArea

from grader.book.variants import pose
from grader.kinds.build import Build
from grader.kinds.debug import Debug
from grader.kinds.design import Design
from grader.kinds.trace import Trace
from tests.helpers import ringbook_app, settle, text_of
from tui.answers.base import AnswerPanel
from tui.screens.exercise import ExerciseScreen
from tui.screens.review_done import ReviewDoneScreen

SOLVED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
LATER = SOLVED + timedelta(days=50)
# One of each kind and way of answering: a number and a formula to derive, a number, a table and a choice
# to trace (0.4 varies, 8.4 does not), a design, a debug and a build.
EXERCISES = ("0.1", "0.7", "0.3", "8.2", "0.4", "8.4", "0.8", "0.6", "0.5")


def right_answer(exercise) -> str:
    """The answer as the store keeps it: a number, a formula, rows, an option id, item ids, a line, code."""
    if isinstance(exercise, Build):
        return exercise.solution
    if isinstance(exercise, Debug):
        return str(exercise.buggy_line)
    if isinstance(exercise, Design):
        return ", ".join(exercise.order)
    if isinstance(exercise, Trace) and exercise.options:
        return exercise.correct_option.id
    if isinstance(exercise, Trace) and exercise.steps:
        return "\n".join(repr(v) for v in exercise.step_values)
    return exercise.answer if exercise.is_formula else repr(exercise.value)


def wrong_answer(exercise) -> str:
    """A counted wrong answer to the exercise as posed on screen."""
    if isinstance(exercise, Build):
        return exercise.starter
    if isinstance(exercise, Debug):
        return "1" if exercise.buggy_line != 1 else "2"
    if isinstance(exercise, Design):
        return ", ".join(reversed(exercise.order))
    if isinstance(exercise, Trace) and exercise.options:
        return next(o.id for o in exercise.options if not o.correct)
    if isinstance(exercise, Trace) and exercise.steps:
        return "\n".join("1" for _ in exercise.steps)
    return "M" if exercise.is_formula else "1"


def study_the_chapter(book, store) -> None:
    """A wrong try and a right answer on each exercise in its chapter, and an unsent draft on two."""
    for minute, exercise_id in enumerate(EXERCISES):
        exercise = book.exercise(exercise_id)
        moment = SOLVED + timedelta(minutes=minute)
        store.record_attempt(exercise_id, wrong_answer(exercise), "incorrect", seconds_taken=30, now=moment)
        store.record_attempt(exercise_id, right_answer(exercise), "correct", seconds_taken=30,
                             now=moment + timedelta(seconds=30))   # a log's order is its times
    store.save_draft("0.1", "12345")
    store.save_draft("0.5", book.exercise("0.5").solution)


async def submit(app, pilot, screen: ExerciseScreen, text: str) -> None:
    """Send `text` as the panel does, and wait until its verdict is in the store and on screen."""
    before = len(app.session.store.attempts(screen.exercise.id))
    screen.panel.post_message(AnswerPanel.Submitted(text))
    while len(app.session.store.attempts(screen.exercise.id)) == before:
        await settle(app, pilot)
    await settle(app, pilot)


def shown_answer(screen: ExerciseScreen) -> str:
    return screen.panel.answer_text()


async def test_every_kind_of_review_card_hides_earlier_answers_until_it_is_answered(book, store):
    study_the_chapter(book, store)
    app = ringbook_app(book, store, clock=lambda: LATER)
    seen = set()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        assert {c.exercise_id for c in app.session.review_cards} == set(EXERCISES)
        while isinstance(app.screen, ExerciseScreen):
            screen = app.screen
            exercise = screen.exercise
            seen.add(exercise.id)
            assert screen.purpose == "review" and not screen.shows_history
            assert text_of(screen.query_one("#attempts")) == ("Answered 2 times before "
                                                              "(shown once you answer this card).")
            if isinstance(exercise, Build):
                assert shown_answer(screen) == exercise.starter                    # not the draft, nor a passing run
            else:
                assert not shown_answer(screen).strip(), exercise.id               # the chapter's draft stays there
            screen.set_focus(screen.panel)                                         # letters are commands
            assert not screen.check_action("new_numbers", ())
            if isinstance(exercise, Build):
                assert not screen.panel.check_action("older_code", ())              # no `o` for earlier code

            await submit(app, pilot, screen, wrong_answer(exercise))
            assert screen.shows_history, exercise.id
            history = text_of(screen.query_one("#attempts"))
            assert history.startswith("Your attempts ("), (exercise.id, history)
            if not screen.varies:                                                  # the chapter's answers are back
                assert "Your attempts (3)" in history and "✓" in history, (exercise.id, history)
            else:
                assert "2 earlier answers to other numbers" in history
            screen.set_focus(screen.panel)
            assert screen.check_action("new_numbers", ()) == screen.varies          # v once answered
            if isinstance(exercise, Build):
                assert screen.panel.check_action("older_code", ())
            app.next_review()
            await settle(app, pilot)
        assert isinstance(app.screen, ReviewDoneScreen)
    assert seen == set(EXERCISES)
    assert store.draft("0.1") == "12345" and store.draft("0.5") == book.exercise("0.5").solution


async def review_card(app, pilot, exercise_id: str):
    """The review started with r, moved on to the card of `exercise_id`: its screen."""
    await settle(app, pilot)
    await pilot.press("r")
    await settle(app, pilot)
    while app.screen.exercise.id != exercise_id:
        app.next_review()
        await settle(app, pilot)
    return app.screen


async def test_a_build_card_brings_back_the_learners_code_with_o_only_after_it_is_answered(book, store):
    study_the_chapter(book, store)
    app = ringbook_app(book, store, clock=lambda: LATER)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await review_card(app, pilot, "0.5")
        editor = screen.query_one("#editor", TextArea)
        assert app.focused is screen.panel                   # a card leaves the keys to the session
        await pilot.press("o")                               # o is not a key here yet
        await pilot.pause()
        assert editor.text == screen.exercise.starter
        await pilot.press("ctrl+r")                          # the starter code: a counted wrong run
        while len(store.attempts("0.5")) == 2:
            await settle(app, pilot)
        await settle(app, pilot)
        assert "0 of 5 tests pass" in text_of(screen.query_one("#verdict"))
        screen.set_focus(screen.panel)
        await pilot.press("o")                               # the run just made: the starter code
        await pilot.pause()
        assert screen.panel.runs_back == 1 and editor.text == screen.exercise.starter
        await pilot.press("o")                               # the chapter's passing code
        await pilot.pause()
        assert screen.panel.runs_back == 2 and editor.text == book.exercise("0.5").solution


async def test_a_design_card_deals_its_items_afresh(book, store):
    study_the_chapter(book, store)
    app = ringbook_app(book, store, clock=lambda: LATER)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await review_card(app, pilot, "0.8")
        shown = list(screen.query_one("#order").order)
        chapter = [item.id for item in book.exercise("0.8").presented]
        assert shown == [item.id for item in pose(book.exercise("0.8"), screen.seed).presented]
        assert shown != chapter and sorted(shown) == sorted(chapter)

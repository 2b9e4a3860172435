"""A review session driven as a learner would: home says what is due, r poses each due card with new
numbers, the book's answer is wrong there and the variant's right, and the session ends back home with
a summary. The clock is the app's own (RINGBOOK_NOW moves it for a person; here it is a function)."""

from datetime import UTC, datetime, timedelta

from textual.widgets import Input

from tests.helpers import home_ready, ringbook_app, settle, text_of
from tui.progress.review import due_cards
from tui.screens.exercise import ExerciseScreen
from tui.screens.home import HomeScreen
from tui.screens.review_done import ReviewDoneScreen

SOLVED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


async def test_a_due_card_comes_back_with_new_numbers_and_the_schedule_moves_on(book, store):
    store.record_attempt("0.1", "7/4", "correct", seconds_taken=60, now=SOLVED)
    later = SOLVED + timedelta(days=3)
    app = ringbook_app(book, store, clock=lambda: later)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        home = app.screen
        assert "Review · 1 due" in text_of(home.query_one("#review"))
        await pilot.press("r")
        await pilot.pause()
        card = app.screen
        assert isinstance(card, ExerciseScreen) and card.purpose == "review" and card.seed != 0
        assert "review 1 of 1" in text_of(card.query_one("#exercise-title"))
        assert text_of(card.query_one("#attempts")).startswith("Answered 1 time before (shown once")   # not "✓ 7/4"
        await pilot.press(*"7/4", "enter")                       # remembered, not understood
        await settle(app, pilot)
        assert "Correct" not in text_of(card.query_one("#verdict"))
        assert "1 earlier answer to other numbers" in text_of(card.query_one("#attempts"))   # answered: back
        assert app.focused is card.query_one("#answer", Input)   # wrong: the box is ready for another go
        card.query_one("#answer", Input).value = repr(card.exercise.value)
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Correct" in text_of(card.query_one("#verdict"))
        await pilot.press("n")                                    # the last card: a summary over home
        await settle(app, pilot)
        done = app.screen
        assert isinstance(done, ReviewDoneScreen)
        assert "Reviewed 1 of 1 · right first time 0" in text_of(done.query_one("#review-done-counts"))
        row = text_of(done.query_one("#review-done-cards"))
        assert row.startswith("✓ 0.1") and "2 tries" in row and "back " in row
        assert "Next review: " in text_of(done.query_one("#review-done-next"))
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is home
        assert "nothing due" in text_of(home.query_one("#review"))
    assert [(a.purpose, a.seed == card.seed) for a in store.attempts("0.1")][1:] == [("review", True)] * 2
    assert due_cards(store, later) == []


async def test_r_with_nothing_solved_says_nothing_is_due(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        assert not app.screen.query_one("#review").display       # nothing solved: no review line
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert any("Nothing is due" in str(n.message) for n in app._notifications)


async def test_with_nothing_due_r_offers_practice_that_moves_no_schedule(book, store):
    from tui.progress.review import cards
    from tui.screens.practice_offer import PracticeOfferScreen

    store.record_attempt("0.7", "2*M*(N-1)/N", "correct", seconds_taken=60, now=SOLVED)
    store.record_attempt("0.8", "split, rs-first, rs-later, owns-one, all-gather, full-sum", "correct",
                         seconds_taken=60, now=SOLVED + timedelta(minutes=1))
    soon = SOLVED + timedelta(hours=1)                    # solved an hour ago: nothing due yet
    before = {i: c.due for i, c in cards(store).items()}
    app = ringbook_app(book, store, clock=lambda: soon)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        home = app.screen
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, PracticeOfferScreen)
        offer = text_of(app.screen.query_one("#practice-offer-text"))
        assert "Practise the 2 cards that come due soonest" in offer and "schedule stays as it is" in offer
        await pilot.press("escape")                       # not now: home, nothing started
        await pilot.pause()
        assert app.screen is home and not app.session.review_cards
        await pilot.press("r", "enter")
        await settle(app, pilot)
        card = app.screen
        assert isinstance(card, ExerciseScreen) and card.purpose == "practice" and card.card
        assert "practice 1 of 2" in text_of(card.query_one("#exercise-title"))
        assert text_of(card.query_one("#attempts")).startswith("Answered 1 time before")
        first = card.exercise.id
        if first == "0.7":
            await pilot.press(*"2M(N-1)/N", "enter")
        else:
            card.panel.query_one("#order").order = list(card.exercise.order)
            await pilot.press("i", "enter")               # a card leaves the keys to the session: i answers
        while not store.attempts(first)[-1:] or store.attempts(first)[-1].purpose != "practice":
            await settle(app, pilot)
        await settle(app, pilot)
        assert "Correct" in text_of(card.query_one("#verdict"))
        assert "Your attempts (2)" in text_of(card.query_one("#attempts"))
        app.next_review()
        await settle(app, pilot)
        app.next_review()                                 # the second card skipped: the summary
        await settle(app, pilot)
        done = app.screen
        assert isinstance(done, ReviewDoneScreen)
        assert text_of(done.query_one("#review-done-title")) == "Practice done"
        counts = text_of(done.query_one("#review-done-counts"))
        assert "Practised 1 of 2 · right first time 1" in counts and "schedule stays as it was" in counts
    assert [(a.purpose, a.status) for a in store.attempts(first)] == [("learn", "correct"), ("practice", "correct")]
    assert {i: c.due for i, c in cards(store).items()} == before


async def test_the_app_and_the_line_face_hold_one_study_session_that_poses_the_same_cards(book, store):
    """The review session exists once (tui.progress.session): a review started in lines and one started with r
    in the app are the same class deciding the same cards, seeds and purpose."""
    import io

    from tui.lines.console import Console
    from tui.lines.context import Context
    from tui.lines.review import review
    from tui.progress.session import StudySession

    for exercise_id, answer in (("0.1", "7/4"), ("0.4", "b")):
        store.record_attempt(exercise_id, answer, "correct", seconds_taken=60, now=SOLVED)
    later = SOLVED + timedelta(days=30)
    lines = Context(StudySession(book, store, lambda: later), Console(io.StringIO("back\n"), io.StringIO()))
    review(lines)                                             # the first card, then back: the session waits
    app = ringbook_app(book, store, clock=lambda: later)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.session is app.session
    assert type(app.session) is type(lines.session) is StudySession
    posed = [[(c.exercise_id, c.seed) for c in s.review_cards] for s in (lines.session, app.session)]
    assert posed[0] == posed[1] and len(posed[0]) == 2
    assert lines.session.review_purpose == app.session.review_purpose == "review"

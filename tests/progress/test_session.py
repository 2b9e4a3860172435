"""The study session both faces hold (tui.progress.session): a review's cards, its steps and its end, and where
the learner is, decided once, without a terminal."""

from datetime import UTC, datetime, timedelta

from tui.progress.session import StudySession

SOLVED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_a_review_steps_through_its_cards_and_ends_with_their_summary(book, store):
    for exercise_id, answer in (("0.1", "7/4"), ("0.4", "b")):
        store.record_attempt(exercise_id, answer, "correct", seconds_taken=60, now=SOLVED)
    session = StudySession(book, store, lambda: SOLVED + timedelta(days=30))
    assert session.start_due() and session.review_purpose == "review" and session.progress() == " 1 of 2"
    first = session.card
    assert session.move(-1) == "first" and session.card is first            # nothing before the first card
    assert session.move(1) == "card" and session.progress() == " 2 of 2"
    assert session.card_exercise(session.card).id == session.card.exercise_id
    assert session.move(1) == "done"
    end = session.finish()
    assert [c.exercise_id for c in end.cards] == [r.exercise_id for r in end.results] and len(end.cards) == 2
    assert set(end.titles) == {"0.1", "0.4"} and not end.practice and all(not r.tries for r in end.results)
    assert session.review_cards == [] and session.progress() == ""          # the next review starts afresh


def test_with_nothing_due_no_review_starts_and_the_soonest_cards_may_be_practised(book, store):
    store.record_attempt("0.1", "7/4", "correct", seconds_taken=60, now=SOLVED)
    session = StudySession(book, store, lambda: SOLVED + timedelta(hours=1))
    assert not session.start_due() and session.review_cards == []
    deck = session.practice_deck()
    assert [c.exercise_id for c in deck] == ["0.1"]
    session.start(deck, "practice")
    assert session.move(1) == "done" and session.finish().practice


def test_the_way_through_the_book_and_continue(book, store):
    session = StudySession(book, store, lambda: SOLVED)
    first, second = book.exercises[:2]
    assert session.next_exercise(first) is second and session.next_exercise(first, -1) is None
    assert session.next_exercise(book.exercises[-1]) is None
    assert session.chapter_of(second).id == second.chapter_id
    session.store_position(second.chapter_id, second.id)
    assert store.last_opened() == (second.chapter_id, second.id)

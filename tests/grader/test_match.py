"""The match kind's engine: answers typed loosely, partial credit, named wrong pairings, a deal of its own per
seed, answers kept by ids and read back in the learner's words, and `content show`."""

from __future__ import annotations

import json

import pytest

from grader.grade import grade
from grader.kinds.match import Match, stored
from grader.kinds.registry import label
from tests.helpers import ringbook_in_process as run

ZERO = "1.9"   # bytes per parameter, stage by stage


def zero(book, seed: int = 0) -> Match:
    exercise = book.exercise(ZERO).dealt(seed)
    assert isinstance(exercise, Match)
    return exercise


def test_the_right_pairs_typed_any_way_are_correct(book):
    exercise = zero(book)
    typed = exercise.positions(exercise.pairs)           # "a2 b1 c4 d3" as dealt
    loose = ", ".join(pair[0].upper() + " " + pair[1] for pair in typed.split())
    for text in (typed, loose, typed.replace(" ", ","), stored(exercise.pairs)):
        assert grade(exercise, text).status == "correct", text


def test_partial_feedback_counts_the_right_pairs_and_names_a_foreseen_wrong_pair(book):
    exercise = zero(book)
    wrong = dict(exercise.pairs, z1="b3_75")   # ZeRO-1 given ZeRO-2's figure
    verdict = grade(exercise, exercise.positions(wrong))
    assert (verdict.status, verdict.message, verdict.score) == ("incorrect", "3 of 4 pairs are right.", 0.75)
    assert verdict.feedback.startswith("3.75 bytes also divides the gradients by N")
    wrong = dict(exercise.pairs, z1="b12")      # a wrong pair nobody foresaw: no feedback
    assert grade(exercise, stored(wrong)).feedback == ""


@pytest.mark.parametrize(("text", "message"), [
    ("a1 b2", "Pair every item; c, d have no option yet."),
    ("a1 a2 b3 c4 d5", "Item a is paired twice; pair each item once."),
    ("a1 b2 c3 z4", "'z4' is not a pair: write a letter from a to d and a number from 1 to 6, as in a2 b1."),
    ("dp=b7", "'b7' is not one of the options on the right."),
])
def test_an_answer_that_does_not_read_costs_no_attempt_and_says_why(book, text, message):
    verdict = grade(zero(book), text)
    assert (verdict.status, verdict.message) == ("invalid", message)


def test_each_seed_deals_both_columns_afresh_and_stored_answers_read_the_same(book):
    deals = {seed: zero(book, seed) for seed in range(6)}
    assert len({tuple(s.id for s in e.presented_left) for e in deals.values()}) > 1
    assert len({tuple(s.id for s in e.presented_right) for e in deals.values()}) > 1
    assert zero(book, 3).presented_left == zero(book, 3).presented_left   # the same deal on every run
    answer = stored(zero(book).pairs)
    assert {label(e, answer) for e in deals.values()} == {
        "Plain data parallelism (no ZeRO) → 16 bytes; ZeRO-1 → 5.5 bytes; ZeRO-2 → 3.75 bytes; ZeRO-3 → 2 bytes"}
    assert len({e.positions(e.pairs) for e in deals.values()}) > 1        # what is typed depends on the deal


def test_content_show_prints_both_columns_as_dealt_and_the_answer(book, capsys):
    exercise = zero(book, 5)
    code, out, _ = run(capsys, "content", "show", ZERO, "--seed", "5", "--explain", "--raw")
    assert code == 0
    for letter, side in zip("abcd", exercise.presented_left, strict=True):
        assert f"{letter}  {side.text}  (→ {exercise.number(exercise.pairs[side.id])})" in out
    for number, side in enumerate(exercise.presented_right, 1):
        assert f"{number}  {side.text}" in out
    assert f"Answer: {exercise.positions(exercise.pairs)}" in out
    assert f"Pairing {exercise.letter('z1')}{exercise.number('b4')}: ZeRO-1 shards the optimizer state" in out
    code, out, _ = run(capsys, "content", "show", ZERO, "--seed", "5", "--json")
    shown = json.loads(out)
    assert [s["id"] for s in shown["left"]] == [s.id for s in exercise.presented_left]
    assert shown["answer"] == exercise.positions(exercise.pairs)


def test_the_class_report_regrades_a_match_and_names_its_pairs_in_words(book, tmp_path, capsys):
    """An export with a wrong match attempt recorded as correct: the report re-grades it by the kind's judge
    and shows the wrong answer by the items' and options' texts, whatever deal it was answered in."""
    from tui.cli.main import main
    from tui.progress.class_report import build_report
    from tui.progress.store import ProgressStore

    exercise = zero(book)
    right, wrong = stored(exercise.pairs), stored(dict(exercise.pairs, z1="b4"))
    student = tmp_path / "ana"
    store = ProgressStore.open(student)
    store.record_attempt(ZERO, wrong, "incorrect")
    store.record_attempt(ZERO, right, "correct")
    store.record_attempt(ZERO, wrong, "correct")     # edited after the fact
    store.close()
    export = tmp_path / "ana.json"
    assert main(["--data-dir", str(student), "progress", "export", "--name", "ana", str(export)]) == 0
    capsys.readouterr()
    report = build_report(book, [export], grading_seconds=60)
    (ana,) = report.students
    assert [(t.answer, t.recorded, t.regraded) for t in ana.verification.tampered] == [(wrong, "correct", "incorrect")]
    (failed,) = [f for f in report.failed if f.exercise_id == ZERO]
    assert [w.answer for w in failed.wrong_answers] == [
        "Plain data parallelism (no ZeRO) → 16 bytes; ZeRO-1 → 4 bytes; ZeRO-2 → 3.75 bytes; ZeRO-3 → 2 bytes"]


def test_review_cards_deal_a_match_afresh_and_its_positions_follow_the_deal(book):
    from grader.book.variants import pose
    from tui.progress.review import review_seed

    cards = [pose(book.exercise(ZERO), review_seed(ZERO, n)) for n in range(1, 21)]
    assert all(isinstance(card, Match) for card in cards)
    assert len({tuple(s.id for s in card.presented_left) for card in cards}) >= 5
    assert len({tuple(s.id for s in card.presented_right) for card in cards}) >= 5
    for card in cards:
        assert grade(card, card.positions(card.pairs)).status == "correct"

"""Spaced review from the attempt log: the rating mapping, practice, seeds, and a learner over 60 days."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone

import pytest
from fsrs import Rating

from tests.hostile_exports import ROOT
from tui.cli.main import main
from tui.progress import review
from tui.progress.records import Attempt
from tui.progress.store import FILE_NAME, ProgressStore

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=1)))


def attempt(status: str, *, hints: int = 0, revealed: bool = False, seconds: float | None = 100.0,
            minute: int = 0, day: int = 0, purpose: str = "review") -> Attempt:
    moment = (START + timedelta(days=day, minutes=minute)).astimezone(UTC)
    return Attempt(f"u{day}-{minute}", "0.1", "x", status, "", "", hints, revealed, seconds,
                   moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), 60, (START + timedelta(days=day)).date().isoformat(),
                   0, purpose)


@pytest.mark.parametrize("review_attempts, kind, expected", [
    ([attempt("incorrect")], "derive", Rating.Again),
    ([attempt("correct", revealed=True)], "derive", Rating.Again),
    ([attempt("incorrect"), attempt("correct", minute=1)], "derive", Rating.Hard),
    ([attempt("correct", hints=1)], "derive", Rating.Hard),
    ([attempt("correct", seconds=100.0)], "derive", Rating.Good),
    ([attempt("correct", seconds=None)], "derive", Rating.Good),
    ([attempt("correct", seconds=59.0)], "derive", Rating.Easy),      # under a third of 180 s
    ([attempt("correct", seconds=59.0, hints=1)], "derive", Rating.Hard),
    ([attempt("correct", seconds=35.0)], "debug", Rating.Good),       # a debug exercise takes 90 s: 30 s is quick
    ([attempt("correct", seconds=29.0)], "debug", Rating.Easy),
])
def test_rating_mapping(review_attempts, kind, expected):
    assert review.rating(review_attempts, kind) == expected


def test_practice_never_moves_the_schedule():
    solved = [attempt("correct", purpose="learn")]
    practice = [attempt("incorrect", day=1, purpose="practice"),
                attempt("correct", day=1, minute=5, purpose="practice")]
    [before] = review.cards(solved).values()
    [after] = review.cards(solved + practice).values()
    assert (after.due, after.reviews, after.seed) == (before.due, before.reviews, before.seed)
    learn_again = [attempt("incorrect", day=1, purpose="learn")]    # re-answering in the chapter neither
    assert review.cards(solved + learn_again)["0.1"].due == before.due


def test_a_wrong_day_and_a_later_correct_day_are_two_reviews():
    solved = [attempt("correct", purpose="learn")]
    two_days = solved + [attempt("incorrect", day=5), attempt("correct", day=6)]
    one_day = solved + [attempt("incorrect", day=5), attempt("correct", day=5, minute=3)]
    assert review.cards(two_days)["0.1"].reviews == 3 and review.cards(one_day)["0.1"].reviews == 2


SEEDS_SCRIPT = ("from tui.progress.review import review_seed; "
                "print([review_seed(i, n) for i in ('0.1', '9.9') for n in (1, 2, 3)])")


def test_the_seed_sequence_is_the_same_in_every_process():
    runs = {subprocess.run([sys.executable, "-c", SEEDS_SCRIPT], capture_output=True, text=True, cwd=ROOT,
                           env={"PYTHONHASHSEED": str(n), "PATH": ""}, check=True).stdout for n in (1, 2)}
    [printed] = runs
    seeds = json.loads(printed)
    assert seeds == [review.review_seed(i, n) for i in ("0.1", "9.9") for n in (1, 2, 3)]
    assert len(set(seeds)) == 6 and all(0 < s < 2**63 for s in seeds)


def test_fsrs_loads_only_when_review_is_computed():
    code = ("import sys; import tui.app, tui.progress.store, tui.cli.main; assert 'fsrs' not in sys.modules; "
            "import tui.progress.review; assert 'fsrs' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def progress_json(monkeypatch, capsys, data_dir, moment: datetime) -> dict:
    monkeypatch.setenv("RINGBOOK_NOW", moment.isoformat())
    assert main(["--data-dir", str(data_dir), "progress", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_learner_over_60_days(tmp_path, monkeypatch, capsys, book):
    """Day 0: solve 0.1, 0.2 and 0.3. Every morning, answer whatever is due: right, except 0.2, which is
    answered wrong on its third review. Intervals grow after Good and shrink after Again, each review poses
    a new variant, and the due count agrees with `ringbook progress --json` on every day with a review."""
    store = ProgressStore.open(tmp_path)
    kinds = review.kinds_of(book)
    for minute, exercise_id in enumerate(("0.1", "0.2", "0.3")):
        store.record_attempt(exercise_id, "answer", "correct", seconds_taken=100.0,
                             now=START + timedelta(minutes=minute))
    intervals: dict[str, list[tuple[str, timedelta]]] = {}
    seeds: set[int] = set()
    reviews_of_02 = 0
    for day in range(1, 61):
        moment = START + timedelta(days=day)
        due = review.due_cards(store, moment, kinds)
        if due or day % 10 == 0:   # each command reads the book (0.4 s): every review day, and some quiet ones
            assert progress_json(monkeypatch, capsys, tmp_path, moment)["due"] == len(due)
        right_today = False
        for minute, card in enumerate(due):
            wrong = card.exercise_id == "0.2" and reviews_of_02 == 2
            reviews_of_02 += card.exercise_id == "0.2"
            answered = moment + timedelta(minutes=minute)
            store.record_attempt(card.exercise_id, "answer", "incorrect" if wrong else "correct", seconds_taken=100.0,
                                 seed=card.seed, purpose="review", revealed=False, now=answered)
            right_today = right_today or not wrong
            assert card.seed not in seeds
            seeds.add(card.seed)
            after = review.cards(store, kinds)[card.exercise_id]
            intervals.setdefault(card.exercise_id, []).append(("Again" if wrong else "Good", after.due - answered))
        assert store.streak(moment).done_today == right_today   # a right review counts for the day streak
    for exercise_id, steps in intervals.items():
        for (rating_before, before), (rating_now, now) in zip(steps, steps[1:], strict=False):
            if rating_now == "Good" and rating_before == "Good":
                assert now > before, (exercise_id, steps)
            if rating_now == "Again":
                assert now < before, (exercise_id, steps)
    assert any(r == "Again" for r, _ in intervals["0.2"]) and len(intervals["0.1"]) >= 3
    final = progress_json(monkeypatch, capsys, tmp_path, START + timedelta(days=61))
    summary = review.review_summary(store, START + timedelta(days=61), kinds)
    assert final["due"] == len(summary.due) and final["cards"] == 3
    assert final["retention"] == pytest.approx(summary.retention) and 0.5 < final["retention"] <= 1
    assert (final["next_due"] is None) == (summary.next_due is None)
    store.close()


def test_progress_text_shows_due_and_retention(tmp_path, monkeypatch, capsys):
    store = ProgressStore.open(tmp_path)
    store.record_attempt("0.1", "1.75", "correct", seconds_taken=100.0, now=START)
    store.close()
    monkeypatch.setenv("RINGBOOK_NOW", (START + timedelta(days=30)).isoformat())
    assert main(["--data-dir", str(tmp_path), "progress"]) == 0
    out = capsys.readouterr().out
    assert "Review   1 due now   retention " in out and "% of 1 solved" in out


def replayed_in_full(store: ProgressStore, kinds: dict[str, str]) -> dict[str, tuple]:
    return {i: (c.due, c.reviews, c.seed, c.last_review, c.state.to_dict())
            for i, c in review.cards(store.attempts(), kinds).items()}


def from_store(store: ProgressStore, kinds: dict[str, str]) -> dict[str, tuple]:
    return {i: (c.due, c.reviews, c.seed, c.last_review, c.state.to_dict())
            for i, c in review.cards(store, kinds).items()}


@pytest.mark.parametrize("seed", range(3))
def test_cards_kept_in_the_store_equal_a_full_replay(tmp_path, seed):
    rng = random.Random(seed)
    kinds = {"0.1": "derive", "0.2": "debug", "1.1": "trace"}
    store = ProgressStore.open(tmp_path)
    try:
        moment = START
        for step in range(40):
            moment += timedelta(hours=rng.choice((0.1, 2, 20, 70)))
            store.record_attempt(rng.choice(list(kinds)), "x", rng.choice(("correct", "correct", "incorrect")),
                                 hints_used=rng.choice((0, 0, 1)), seconds_taken=rng.choice((10.0, 100.0, None)),
                                 purpose=rng.choice(("learn", "review", "review", "practice")),
                                 revealed=rng.random() < 0.1,
                                 now=moment)
            if step % 4 == 3:
                assert from_store(store, kinds) == replayed_in_full(store, kinds)
                assert from_store(store, kinds) == replayed_in_full(store, kinds)   # now every card was kept
        assert store.states("replayed:")
    finally:
        store.close()


def test_a_kept_card_is_replayed_when_its_log_its_rules_or_its_kind_change(tmp_path):
    kinds = {"0.1": "derive"}
    store = ProgressStore.open(tmp_path)
    store.record_attempt("0.1", "1.75", "correct", seconds_taken=100.0, purpose="learn", now=START)
    store.record_attempt("0.1", "1.75", "correct", seconds_taken=100.0, purpose="review", now=START + timedelta(days=3))
    full = replayed_in_full(store, kinds)
    assert from_store(store, kinds) == full
    kept = json.loads(store.state("replayed:0.1"))
    forged = {**kept, "card": {**kept["card"], "reviews": 9}}
    store.set_state("replayed:0.1", json.dumps(forged))
    assert review.cards(store, kinds)["0.1"].reviews == 9            # a kept card is used as kept...
    for stale in ({**forged, "rules": "another fsrs"}, {**forged, "kind": "build"}, "{not json", json.dumps([1])):
        store.set_state("replayed:0.1", stale if isinstance(stale, str) else json.dumps(stale))
        assert from_store(store, kinds) == full                       # ...only if replayed by the same rules
    assert from_store(store, {"0.1": "debug"}) == replayed_in_full(store, {"0.1": "debug"})
    store.set_state("replayed:0.1", json.dumps(forged))
    store.close()
    raw = sqlite3.connect(tmp_path / FILE_NAME)
    raw.execute("UPDATE attempts SET hints_used = 1 WHERE purpose = 'review'")   # a hand edit: same count, same rows
    raw.commit()
    raw.close()
    store = ProgressStore.open(tmp_path)
    try:
        edited = replayed_in_full(store, kinds)
        assert edited != full and from_store(store, kinds) == edited
    finally:
        store.close()


def test_a_session_s_results_say_how_each_card_went_and_when_it_comes_back(tmp_path):
    store = ProgressStore.open(tmp_path)
    solved = START.astimezone(UTC)
    for exercise_id in ("0.1", "0.2", "1.1"):
        store.record_attempt(exercise_id, "x", "correct", seconds_taken=100, now=solved)
    later = solved + timedelta(days=30)
    session = review.due_cards(store, later)
    assert [c.exercise_id for c in session] == ["0.1", "0.2", "1.1"]
    first, second, _ = session
    store.record_attempt("0.1", "x", "correct", seconds_taken=100, seed=first.seed, purpose="review", now=later)
    store.record_attempt("0.2", "y", "incorrect", seed=second.seed, purpose="review", now=later)
    store.record_attempt("0.2", "x", "correct", seed=second.seed, purpose="review", now=later + timedelta(minutes=1))
    store.record_attempt("0.2", "z", "incorrect", seed=0, purpose="learn", now=later)   # not this session's numbers
    results = review.session_results(store, session)
    assert [(r.exercise_id, r.tries, r.solved, r.right_first_time) for r in results] == [
        ("0.1", 1, True, True), ("0.2", 2, True, False), ("1.1", 0, False, False)]
    assert results[0].due > results[1].due > later >= results[2].due    # Good, then Hard; the skipped one waits
    store.close()


def test_a_first_start_replays_nothing_and_loads_no_scheduler(tmp_path):
    """Home reads the review summary at every start. A learner with no attempts yet (each of a class at its
    first lesson) has no card to replay, and paid ~65 ms for fsrs and for importlib.metadata (its version, for
    the rules a kept card was replayed by); once there are cards, fsrs is loaded and importlib.metadata still
    is not."""
    code = ("import sys\nfrom datetime import UTC, datetime\n"
            "from tui.progress.review import review_summary\nfrom tui.progress.store import ProgressStore\n"
            f"store = ProgressStore.open({str(tmp_path)!r})\n"
            "now = datetime.now(UTC)\n"
            "assert review_summary(store, now).cards == 0\n"
            "print('fsrs' in sys.modules, 'importlib.metadata' in sys.modules)\n"
            "store.record_attempt('0.1', '1.75', 'correct', seconds_taken=60.0, now=now)\n"
            "assert review_summary(store, now).cards == 1\n"
            "print('fsrs' in sys.modules, 'importlib.metadata' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["False False", "True False"]

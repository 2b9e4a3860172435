"""Spaced review: when each solved exercise comes back, computed from the attempt log with FSRS.

The schedule is a pure function of the log, so it can always be recomputed, survives export and import,
and is the same on every machine with the same log. Each exercise's attempts are replayed in time order
(practice attempts are skipped: they never move the schedule):

- It becomes a card when first solved. The attempts up to that first correct answer are its first review.
- After that, only attempts recorded as `review` count. One review is the review attempts on one exercise
  on one local day, up to and including the first correct answer; the review happened at its first attempt.
- A review is rated (`rating`):
    Again  no correct answer that day, or the explanation was open before the correct answer;
    Hard   correct, but after a hint or after a wrong try;
    Good   correct at the first try, without a hint;
    Easy   as Good, and quick: in under a third of the time the exercise's kind usually takes
           (each kind's expected_seconds).
- FSRS (the `fsrs` package, with no learning steps, since a book's reviews are days apart, and no fuzz,
  which is random) turns the ratings into a due time.

Every review poses a new variant: `review_seed(exercise id, n)` for the n-th review, a hash, so the same
on every machine (its numbers, and the order of a choice's options or a design's items). When nothing is
due, `practice_deck` gives the cards that come due soonest to practise early, with practice seeds.
fsrs is imported on first use, never before the home screen's first frame.

Replaying years of log at every home screen is slow, so a store keeps each exercise's replayed card (in its
state table) with what it was replayed from, and only exercises whose log grew since are replayed again;
the result is always what a full replay gives.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from grader.draws import MAX_SEED
from tui.progress.records import Attempt
from tui.progress.row_rules import parse_utc
from tui.progress.store import ProgressStore
from tui.progress.store_schema import REPLAYED_PREFIX

if TYPE_CHECKING:
    from fsrs import Rating, Scheduler

    from grader.book.model import Book

# An answer in under QUICK_SHARE of the seconds its kind sensibly takes (grader.kinds, each kind's
# expected_seconds) is quick; DEFAULT_SECONDS stands for an exercise the book no longer has.
DEFAULT_SECONDS = 180.0
QUICK_SHARE = 1 / 3
PRACTICE_CARDS = 5   # cards offered to practise when nothing is due


@dataclass
class Card:
    """A solved exercise as a review card: when it is due, and the variant its next review poses."""

    exercise_id: str
    due: datetime            # UTC
    reviews: int             # reviews rated so far, the first solve included
    seed: int                # the variant the next review poses
    last_review: datetime    # UTC
    state: Any = field(default=None, repr=False, compare=False)   # the fsrs.Card behind it


def review_seed(exercise_id: str, number: int) -> int:
    """The seed of an exercise's `number`-th review (1, 2, ...): never 0 (the book's own numbers), the
    same on every machine (a hash of the id and the number, not Python's hash())."""
    digest = hashlib.sha256(f"{exercise_id}:review:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED or 1


def practice_seed(exercise_id: str, number: int) -> int:
    """The seed of the `number`-th practice run (1, 2, ...) asked for early: other numbers than any review's."""
    digest = hashlib.sha256(f"{exercise_id}:practice:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED or 1


def next_practice_seed(store: ProgressStore, exercise_id: str) -> int:
    """The seed of an exercise's next practice run: one past the practice runs its log holds."""
    runs = {a.seed for a in store.attempts(exercise_id) if a.purpose == "practice"}
    return practice_seed(exercise_id, len(runs) + 1)


def practice_deck(store: ProgressStore, kinds: Mapping[str, str], count: int = PRACTICE_CARDS) -> list[Card]:
    """The `count` cards of the book (`kinds`: its exercise ids) that come due soonest, each with the seed
    of its next practice run: practised early when nothing is due, kept, and moving no schedule."""
    soonest = sorted((c for c in cards(store, kinds).values() if c.exercise_id in kinds),
                     key=lambda c: (c.due, c.exercise_id))[:count]
    return [replace(c, seed=next_practice_seed(store, c.exercise_id)) for c in soonest]


def rating(review: list[Attempt], kind: str | None = None) -> Rating:
    """The FSRS rating of one review: its attempts in order, up to and including the first correct one."""
    from fsrs import Rating

    from grader.kinds.registry import kind_named

    first_correct = next((i for i, a in enumerate(review) if a.status == "correct"), None)
    if first_correct is None:
        return Rating.Again
    answer = review[first_correct]
    if answer.revealed_first:
        return Rating.Again
    if first_correct > 0 or answer.hints_used > 0:
        return Rating.Hard
    expected = DEFAULT_SECONDS if kind is None else kind_named(kind).expected_seconds
    if answer.seconds_taken is not None and answer.seconds_taken < QUICK_SHARE * expected:
        return Rating.Easy
    return Rating.Good


_scheduler: Scheduler | None = None


def scheduler() -> Scheduler:
    """FSRS with its default weights and retention, reviews days apart, and no random fuzz."""
    global _scheduler
    if _scheduler is None:
        from fsrs import Scheduler

        _scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    return _scheduler


def cards(source: ProgressStore | Iterable[Attempt], kinds: Mapping[str, str] | None = None) -> dict[str, Card]:
    """Every solved exercise's card, by exercise id, from the log (a store, or attempts in any order)."""
    if isinstance(source, ProgressStore):
        return _cards_of_store(source, kinds or {})
    attempts = sorted(source, key=lambda a: (a.created_utc, a.uid))
    by_exercise: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        if attempt.purpose != "practice":
            by_exercise.setdefault(attempt.exercise_id, []).append(attempt)
    kinds = kinds or {}
    result = {}
    for exercise_id, log in by_exercise.items():
        card = _replayed(exercise_id, log, kinds.get(exercise_id))
        if card is not None:
            result[exercise_id] = card
    return result


def _cards_of_store(store: ProgressStore, kinds: Mapping[str, str]) -> dict[str, Card]:
    """The cards of a store's log, replaying only the exercises whose log changed since the store last kept
    their card (an append-only log: usually none or one). A kept card is used only if it was replayed by the
    same rules (fsrs version and settings, ratings) and kind from the same log (as many attempts, the same
    newest row); the store forgets kept cards when an attempt is changed or deleted (a store without the
    triggers that do so, such as one in memory, keeps none). Anything else is replayed."""
    with store.snapshot():
        ends = store.attempt_log_ends()
        if not ends:
            return {}   # a learner's first start: nothing to replay, and fsrs (~35 ms to import) not needed
        kept = store.states(REPLAYED_PREFIX) if store.log_guarded else {}
        rules = _rules_fingerprint()
        result: dict[str, Card] = {}
        fresh: dict[str, str] = {}
        for exercise_id, end in ends.items():
            kind = kinds.get(exercise_id)
            card = _kept_card(exercise_id, kept.get(REPLAYED_PREFIX + exercise_id), rules, kind, end)
            if card is False:
                card = _replayed(exercise_id, [a for a in store.attempts(exercise_id) if a.purpose != "practice"],
                                 kind)
                fresh[REPLAYED_PREFIX + exercise_id] = _kept_text(card, rules, kind, end)
            if card is not None:
                result[exercise_id] = card
        if fresh and store.log_guarded:
            store.keep_states(fresh)   # only saves time: without it the next call replays again
    return result


def _kept_text(card: Card | None, rules: str, kind: str | None, end: tuple[int, int]) -> str:
    """A replayed card as the store keeps it, with what it was replayed from."""
    return json.dumps({"rules": rules, "kind": kind, "end": list(end),
                       "card": None if card is None else {"reviews": card.reviews, "state": card.state.to_dict()}})


def _kept_card(exercise_id: str, text: str | None, rules: str, kind: str | None,
               end: tuple[int, int]) -> Card | None | Literal[False]:
    """The card kept in `text` (None: the log has no solve yet), or False when there is none to trust."""
    if text is None:
        return False
    import fsrs

    try:
        kept = json.loads(text)
        if (kept["rules"], kept["kind"], kept["end"]) != (rules, kind, list(end)):
            return False
        if kept["card"] is None:
            return None
        reviews, state = kept["card"]["reviews"], fsrs.Card.from_dict(kept["card"]["state"])
        if type(reviews) is not int or reviews < 1 or state.last_review is None or state.due.tzinfo is None:
            return False
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError, RecursionError):
        return False   # not what we wrote (a hand edit): replay
    return Card(exercise_id, state.due, reviews, review_seed(exercise_id, reviews), state.last_review, state)


_rules: str | None = None


def _rules_fingerprint() -> str:
    """What a replay's result depends on besides the log: the fsrs version, the scheduler's settings and
    our rating thresholds. A card kept under other rules is replayed."""
    global _rules
    if _rules is None:
        from grader.kinds.registry import KINDS

        expected = {name: kind.expected_seconds for name, kind in KINDS.items()}
        rules = [_fsrs_code(), scheduler().to_dict(), expected, DEFAULT_SECONDS, QUICK_SHARE]
        _rules = hashlib.sha256(json.dumps(rules, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    return _rules


def _fsrs_code() -> str:
    """A digest of fsrs's modules, which decide a replay as its version does (a patched copy too). Its version
    came from importlib.metadata, whose import (the email package and more) cost ~30 ms of every start."""
    import fsrs

    digest = hashlib.sha256()
    for module in sorted(Path(fsrs.__file__).parent.glob("*.py")):
        digest.update(module.name.encode() + b"\0" + module.read_bytes())
    return digest.hexdigest()


def _replayed(exercise_id: str, log: list[Attempt], kind: str | None) -> Card | None:
    import fsrs

    first_correct = next((i for i, a in enumerate(log) if a.status == "correct"), None)
    if first_correct is None:
        return None
    reviews = [log[:first_correct + 1]]
    current: list[Attempt] = []
    for attempt in log[first_correct + 1:]:
        if attempt.purpose != "review":
            continue
        if current and (attempt.local_date != current[0].local_date or current[-1].status == "correct"):
            reviews.append(current)
            current = []
        current.append(attempt)
    if current:
        reviews.append(current)
    rules = scheduler()
    state = fsrs.Card(card_id=1, due=_utc(log[first_correct]))   # an id of our own: fsrs's own reads the clock
    for number, review in enumerate(reviews):
        when = _utc(review[-1] if number == 0 else review[0])   # solved then; reviewed when first answered
        state, _ = rules.review_card(state, rating(review, kind), review_datetime=when)
    return Card(exercise_id, state.due, len(reviews), review_seed(exercise_id, len(reviews)), when, state)


def _utc(attempt: Attempt) -> datetime:
    return parse_utc(attempt.created_utc).replace(tzinfo=UTC)


Source = ProgressStore | Iterable[Attempt] | Iterable[Card]


def _deck(source: Source, kinds: Mapping[str, str] | None) -> list[Card]:
    """Cards, from a store, attempts, or cards already replayed."""
    if isinstance(source, ProgressStore):
        return list(cards(source, kinds).values())
    items = list(source)
    replayed = [item for item in items if isinstance(item, Card)]
    if len(replayed) == len(items):
        return replayed
    return list(cards([item for item in items if isinstance(item, Attempt)], kinds).values())


def due_cards(source: Source, now: datetime, kinds: Mapping[str, str] | None = None) -> list[Card]:
    """The cards due at `now`, oldest due first (then by exercise id)."""
    return sorted((c for c in _deck(source, kinds) if c.due <= now), key=lambda c: (c.due, c.exercise_id))


def next_due(source: Source, now: datetime, kinds: Mapping[str, str] | None = None) -> datetime | None:
    """When the next card falls due after `now` (UTC); None when no card is waiting."""
    return min((c.due for c in _deck(source, kinds) if c.due > now), default=None)


def retention(source: Source, now: datetime, kinds: Mapping[str, str] | None = None) -> float | None:
    """The share of solved exercises still remembered at `now`, as FSRS estimates it (retrievability,
    averaged over the cards); None before anything is solved."""
    solved = _deck(source, kinds)
    if not solved:
        return None
    rules = scheduler()
    moment = now.astimezone(UTC)
    return sum(rules.get_card_retrievability(c.state, moment) for c in solved) / len(solved)


@dataclass
class ReviewSummary:
    """What home and `ringbook progress` show of review, from one replay of the log."""

    due: list[Card]               # oldest due first
    next_due: datetime | None     # when the next card falls due after now, UTC
    retention: float | None       # estimated share of solved exercises remembered now
    cards: int                    # solved exercises, each a card


def review_summary(source: ProgressStore | Iterable[Attempt], now: datetime,
                   kinds: Mapping[str, str] | None = None) -> ReviewSummary:
    deck = cards(source, kinds)
    return ReviewSummary(due_cards(deck.values(), now), next_due(deck.values(), now),
                         retention(deck.values(), now), len(deck))


@dataclass
class SessionResult:
    """How one card of a review session went, and when it comes back."""

    exercise_id: str
    tries: int                   # answers given to this card's numbers
    solved: bool
    right_first_time: bool
    due: datetime | None         # when it is due again, UTC (None: not a card any more)


@dataclass(frozen=True)
class ReviewEnd:
    """A finished review or practice session, as its summary shows it (StudySession.finish)."""

    cards: list[Card]
    results: list[SessionResult]
    titles: dict[str, str]          # each card's title as its variant poses it
    now: datetime
    next_due: datetime | None       # the next card due after the session
    practice: bool


def session_results(store: ProgressStore, session: list[Card], kinds: Mapping[str, str] | None = None,
                    purpose: str = "review") -> list[SessionResult]:
    """Each card of a finished session, in the order it was posed: the attempts for `purpose` ("review",
    or "practice" for cards practised early) on its numbers (a card's seed is its own, so they are this
    session's), and its due time from the grown log (a practice session leaves it as it was). Right first
    time means no wrong answer at all: attempts made within one clock tick have no order."""
    answered: dict[tuple[str, int], list[Attempt]] = {(c.exercise_id, c.seed): [] for c in session}
    for attempt in store.attempts():
        if attempt.purpose == purpose and (attempt.exercise_id, attempt.seed) in answered:
            answered[(attempt.exercise_id, attempt.seed)].append(attempt)
    deck = cards(store, kinds)
    results = []
    for card in session:
        tries = answered[(card.exercise_id, card.seed)]
        now_card = deck.get(card.exercise_id)
        results.append(SessionResult(card.exercise_id, len(tries), any(t.status == "correct" for t in tries),
                                     bool(tries) and all(t.status == "correct" for t in tries),
                                     now_card.due if now_card is not None else None))
    return results


def due_in_book(store: ProgressStore, book: Book, now: datetime) -> list[Card]:
    """The cards due at `now` whose exercises the book still has, oldest due first: a review session's."""
    return [c for c in due_cards(store, now, kinds_of(book)) if book.exercise(c.exercise_id) is not None]


def kinds_of(book: Book) -> dict[str, str]:
    """Each of a book's exercise ids with its kind, for the quick-answer bound."""
    return {e.id: e.kind for e in book.exercises}

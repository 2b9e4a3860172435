"""A review session in lines: each due card, oldest first, with its new numbers, then a summary. With nothing
due, the cards that come due soonest may be practised early (kept, moving no schedule). The session is the
app's: the same cards (tui.progress.review), the same seeds and purposes, the same summary figures."""

from __future__ import annotations

from datetime import datetime

from grader.book.variants import pose
from tui.lines.context import Context
from tui.lines.exercise import work_on


def when(moment: datetime | None) -> str:
    return moment.astimezone().strftime("%a %d %b, %H:%M") if moment else "nothing scheduled"


def review(ctx: Context) -> None:
    """Start a review (or go on with the one paused)."""
    from tui.progress.review import due_in_book, kinds_of, next_due, practice_deck

    if not ctx.review_cards:
        due = due_in_book(ctx.store, ctx.book, ctx.clock())
        if due:
            ctx.review_cards, ctx.review_at, ctx.review_purpose = due, 0, "review"
        else:
            deck = practice_deck(ctx.store, kinds_of(ctx.book))
            if not deck:
                ctx.console.say("review", "nothing is due: solve an exercise and it comes back here")
                return
            ctx.console.say("review", f"nothing is due now; the next is due {when(next_due(ctx.store, ctx.clock()))}.")
            if not ctx.console.yes(f"practise the {len(deck)} that come due soonest",
                                   "Practice is kept with your attempts and moves no review date."):
                return
            ctx.review_cards, ctx.review_at, ctx.review_purpose = deck, 0, "practice"
    else:
        ctx.console.say("review", f"going on at card {ctx.review_at + 1} of {len(ctx.review_cards)}")
    cards = ctx.review_cards
    while ctx.review_at < len(cards):
        card = cards[ctx.review_at]
        exercise = ctx.book.exercise(card.exercise_id)
        assert exercise is not None, "a session's cards are the book's (due_in_book and practice_deck see to it)"
        moved = work_on(ctx, exercise, seed=card.seed, purpose=ctx.review_purpose,
                        card=f"{ctx.review_purpose} {ctx.review_at + 1} of {len(cards)}")
        if moved == "back":
            ctx.console.say("review", f"paused at card {ctx.review_at + 1} of {len(cards)}: review goes on with it")
            return
        ctx.review_at = max(0, ctx.review_at + (1 if moved == "next" else -1))
    summary(ctx)
    ctx.review_cards = []


def summary(ctx: Context) -> None:
    from tui.progress.review import kinds_of, next_due, session_results

    kinds, now, practice = kinds_of(ctx.book), ctx.clock(), ctx.review_purpose == "practice"
    results = session_results(ctx.store, ctx.review_cards, kinds, ctx.review_purpose)
    done = "practice done" if practice else "review done"
    reviewed = sum(1 for r in results if r.tries)
    first = sum(1 for r in results if r.right_first_time)
    ctx.console.say(done, f"{reviewed} of {len(results)} {'practised' if practice else 'reviewed'}, "
                          f"{first} right first time")
    for card, result in zip(ctx.review_cards, results, strict=True):
        exercise = ctx.book.exercise(card.exercise_id)
        title = pose(exercise, card.seed).title if exercise is not None else ""
        outcome = ("right first time" if result.right_first_time else f"solved in {result.tries} tries"
                   if result.solved else "not solved" if result.tries else "skipped")
        back = "" if result.due is None else "; due now" if result.due <= now else f"; back {when(result.due)}"
        ctx.console.say(f"card {result.exercise_id}", f"{title}: {outcome}{back}")
    if practice:
        ctx.console.say("practice", "kept with your attempts; your review schedule stays as it was")
    still_due = sum(1 for r in results if r.due is not None and r.due <= now)
    if still_due:
        ctx.console.say("next review", f"{still_due} card{'s' if still_due != 1 else ''} still due now: choose "
                                       "review again")
    else:
        ctx.console.say("next review", when(next_due(ctx.store, now, kinds)))

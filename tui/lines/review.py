"""A review session in lines: each due card, oldest first, with its new numbers, then a summary. With nothing
due, the cards that come due soonest may be practised early (kept, moving no schedule). The session is the
app's own (tui.progress.session): the same cards, seeds and purposes, the same summary figures."""

from __future__ import annotations

from datetime import datetime

from tui.lines.context import Context
from tui.lines.exercise import work_on
from tui.progress.review import ReviewEnd


def when(moment: datetime | None) -> str:
    return moment.astimezone().strftime("%a %d %b, %H:%M") if moment else "nothing scheduled"


def review(ctx: Context) -> None:
    """Start a review (or go on with the one paused)."""
    from tui.progress.review import next_due

    session = ctx.session
    if session.review_cards:
        ctx.console.say("review", f"going on at card {session.review_at + 1} of {len(session.review_cards)}")
    elif not session.start_due():
        deck = session.practice_deck()
        if not deck:
            ctx.console.say("review", "nothing is due: solve an exercise and it comes back here")
            return
        soonest = next_due(session.store, session.clock())
        ctx.console.say("review", f"nothing is due now; the next is due {when(soonest)}.")
        if not ctx.console.yes(f"practise the {len(deck)} that come due soonest",
                               "Practice is kept with your attempts and moves no review date."):
            return
        session.start(deck, "practice")
    while True:
        card, total = session.card, len(session.review_cards)
        moved = work_on(ctx, session.card_exercise(card), seed=card.seed, purpose=session.review_purpose,
                        card=f"{session.review_purpose} {session.review_at + 1} of {total}")
        if moved == "back":
            ctx.console.say("review", f"paused at card {session.review_at + 1} of {total}: review goes on with it")
            return
        if session.move(1 if moved == "next" else -1) == "done":
            break
    summary(ctx, session.finish())


def summary(ctx: Context, end: ReviewEnd) -> None:
    done = "practice done" if end.practice else "review done"
    reviewed = sum(1 for r in end.results if r.tries)
    first = sum(1 for r in end.results if r.right_first_time)
    ctx.console.say(done, f"{reviewed} of {len(end.results)} {'practised' if end.practice else 'reviewed'}, "
                          f"{first} right first time")
    for card, result in zip(end.cards, end.results, strict=True):
        outcome = ("right first time" if result.right_first_time else f"solved in {result.tries} tries"
                   if result.solved else "not solved" if result.tries else "skipped")
        back = "" if result.due is None else "; due now" if result.due <= end.now else f"; back {when(result.due)}"
        ctx.console.say(f"card {result.exercise_id}", f"{end.titles.get(card.exercise_id, '')}: {outcome}{back}")
    if end.practice:
        ctx.console.say("practice", "kept with your attempts; your review schedule stays as it was")
    still_due = sum(1 for r in end.results if r.due is not None and r.due <= end.now)
    if still_due:
        ctx.console.say("next review", f"{still_due} card{'s' if still_due != 1 else ''} still due now: choose "
                                       "review again")
    else:
        ctx.console.say("next review", when(end.next_due))

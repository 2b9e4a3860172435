"""Progress in lines: mastery, the day streak, review, each chapter, the quiz and the lab, one labelled line
each (the home screen's figures, from the same functions)."""

from __future__ import annotations

from tui.lines.context import Context
from tui.lines.review import when


def show_progress(ctx: Context) -> None:
    from tui.progress.mastery import designs_saved, mastery, quiz_scores
    from tui.progress.review import kinds_of, review_summary

    console, now = ctx.console, ctx.session.clock()
    states = ctx.session.store.exercise_states()
    solved = mastery(ctx.session.book, states)
    console.say("mastery", solved.summary + (f", {solved.after_reveal} after the explanation"
                                             if solved.after_reveal else ""))
    streak = ctx.session.store.streak(now=now)
    console.say("streak", f"{streak.current} day{'s' if streak.current != 1 else ''} (best {streak.best})")
    summary = review_summary(ctx.session.store, now, kinds_of(ctx.session.book))
    retention = "" if summary.retention is None else f", about {100 * summary.retention:.0f}% remembered"
    due = f"{len(summary.due)} due now" if summary.due else "nothing due now"
    console.say("review", f"{due}; next {when(summary.next_due)}{retention}")
    for chapter in solved.chapters:
        console.say(f"chapter {chapter.chapter_id}", f"{chapter.title}, {chapter.solved} of {chapter.total} solved")
    for quiz in ctx.session.book.quizzes:
        scores = quiz_scores(ctx.session.store, quiz.id)
        taken = f"last score {scores[-1]:g} of {len(quiz)}" if scores else "not taken yet"
        console.say("quiz", f"{quiz.title}, {taken}")
    for lab in ctx.session.book.labs:
        saved = designs_saved(ctx.session.store, lab.id)
        console.say("lab", f"{lab.title}, {saved} design{'s' if saved != 1 else ''} saved")
    if ctx.session.share is not None:   # that progress is shared, with whom and how to stop, as home says it
        console.say("class", ctx.session.share.status())

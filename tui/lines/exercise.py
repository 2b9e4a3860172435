"""One exercise in lines: its prompt, then answers and commands until the learner moves on.

Grading is grader.grade and storing is tui.progress.answering, as on the app's exercise screen, so an
attempt made here is the same attempt: its seed, its purpose, its hints, whether the explanation was open.
A review or practice card is a recall test as in the app: earlier answers are counted, not shown, until it
is answered.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from grader.book.variants import VariantError, pose
from grader.exercise import Exercise, NumericAnswer
from grader.grade import grade
from grader.kinds.registry import label
from grader.verdict import Verdict
from tui.lines.answers import way_for
from tui.lines.answers.base import Command
from tui.lines.context import Context
from tui.lines.verdicts import said_once
from tui.progress.answering import draft_key, record_explanation_opened
from tui.progress.store import StoreError


@dataclass
class Attempting:
    """The exercise on show: its numbers and what the learner has done with them here."""

    book_exercise: Exercise
    seed: int = 0
    purpose: str = "learn"
    hints_shown: int = 0
    explanation_shown: bool = False
    right: bool = False          # got right here (a chapter's exercise: solved): explain shows it at once
    reveal_asked: bool = False   # explain typed once before that: typed again, it reveals
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.exercise = pose(self.book_exercise, self.seed)

    @property
    def draft_key(self) -> str:
        return draft_key(self.exercise.id, self.purpose, self.seed)

    @property
    def varies(self) -> bool:
        return isinstance(self.book_exercise, NumericAnswer) and bool(self.book_exercise.vary)


def work_on(ctx: Context, book_exercise: Exercise, *, seed: int = 0, purpose: str = "learn",
            card: str = "") -> str:
    """Pose the exercise and take answers until the learner moves: "next", "previous" or "back". `card`: the
    review's own label (`review 2 of 5`), said first."""
    run = Attempting(book_exercise, seed, purpose)
    state = ctx.session.store.exercise_states().get(book_exercise.id)
    run.right = purpose == "learn" and bool(state and state.solved)
    introduce(ctx, run, card)
    way = way_for(run.exercise)
    while True:
        reply = way.read(ctx, run.exercise, f"answer {run.exercise.id}", run.draft_key)
        if isinstance(reply, Command):
            moved = command(ctx, run, reply.word, card)
            if moved == "numbers":
                return practise_new_numbers(ctx, run, card)
            if moved:
                return moved
            continue
        answer(ctx, run, reply)


def introduce(ctx: Context, run: Attempting, card: str) -> None:
    exercise, console = run.exercise, ctx.console
    if card:
        console.say(card, f"exercise {exercise.id}")
    state = ctx.session.store.exercise_states().get(exercise.id)
    mark = "solved" if state and state.solved else "tried" if state and state.attempts else "new"
    numbers = ", new numbers" if run.purpose != "learn" and run.varies else ""
    title = exercise.title if exercise.title.endswith(("?", "!", ".")) else f"{exercise.title}."
    console.say(f"exercise {exercise.id}", f"{title} {exercise.kind}, {mark}{numbers}.")
    console.book(exercise.prompt)
    history(ctx, run)
    way_for(exercise).show(ctx, exercise)
    console.say("commands", "hint, explain, next, previous, back, help")


def history(ctx: Context, run: Attempting) -> None:
    """The earlier answers: in a chapter, the last one; on an unanswered card, only how many there were."""
    attempts = ctx.session.store.attempts(run.exercise.id)
    if not attempts:
        return
    answered = run.purpose == "learn" or any(a.seed == run.seed and a.purpose == run.purpose for a in attempts)
    if not answered:
        ctx.console.say("attempts", f"answered {len(attempts)} times before")
        return
    last = attempts[-1]
    shown = label(pose(run.book_exercise, last.seed), last.answer) if last.seed == run.seed else "other numbers"
    shown = shown if "\n" not in shown else f"code, {len(shown.splitlines())} lines"
    ctx.console.say("attempts", f"{len(attempts)} before; the last was {last.status}: {shown}")


def command(ctx: Context, run: Attempting, word: str, card: str) -> str | None:
    """Carry out a command; the move it makes ("next", "previous", "back", "numbers"), or None to go on."""
    if word in ("next", "previous", "back"):
        return word
    if word == "hint":
        hints = run.exercise.hints
        if run.hints_shown >= len(hints):
            ctx.console.say("hint", "no more hints: explain shows the explanation")
        else:
            run.hints_shown += 1
            ctx.console.say(f"hint {run.hints_shown} of {len(hints)}", hints[run.hints_shown - 1])
    elif word == "explain":
        if run.right or run.explanation_shown or run.reveal_asked:
            explain(ctx, run, record=True)
        else:   # a deliberate step, as in the app: the worked answer is kept as revealed
            run.reveal_asked = True
            ctx.console.say("explain", "this shows the worked answer, kept as revealed (as if you gave up on it). "
                            "Type explain again to see it, or hint for a hint first.")
    elif word == "again":
        introduce(ctx, run, card)
    elif word == "allow":
        from grader.sandbox.runner import allow_unsandboxed, sandbox_status

        if sandbox_status().can_allow:
            allow_unsandboxed()
        ctx.console.say("sandbox", sandbox_status().notice("") or "your code runs in a sandbox")
    elif word == "numbers":
        state = ctx.session.store.exercise_states().get(run.exercise.id)
        if run.varies and state and state.solved:
            return "numbers"
        ctx.console.say("numbers", "new numbers come once it is solved, for exercises whose numbers vary")
    return None


def explain(ctx: Context, run: Attempting, *, record: bool) -> None:
    """The worked explanation; opened by the learner, it is kept as a reveal (as in the app)."""
    if record and not run.explanation_shown:
        try:
            record_explanation_opened(ctx.session.store, run.exercise.id, ctx.session.clock())
        except StoreError as exc:
            ctx.console.say("not saved", str(exc))
    run.explanation_shown = True
    ctx.console.say("explanation")
    ctx.console.book(run.exercise.explanation)
    way_for(run.exercise).reveal(ctx, run.exercise)
    ctx.console.say("end of explanation")


def answer(ctx: Context, run: Attempting, text: str) -> Verdict:
    """Grade and keep one answer, then say the verdict, as the app's exercise screen does."""
    exercise = run.exercise
    if not text.strip():
        ctx.console.say("verdict", "nothing typed. Type an answer, or help.")
        return Verdict("invalid", "Type an answer first.")
    if way_for(exercise).name == "code":
        ctx.console.say("running", "the tests")
    verdict = grade(exercise, text)
    try:
        ctx.session.record_answer(exercise.id, text, verdict, hints_used=run.hints_shown,
                                  seconds_taken=time.monotonic() - run.started, seed=run.seed, purpose=run.purpose,
                                  explanation_shown=run.explanation_shown, draft_key=run.draft_key)
    except StoreError as exc:
        ctx.console.say("not saved", str(exc))
    if verdict.counts_as_attempt:
        run.started = time.monotonic()
    ctx.console.say("verdict", said_once(verdict))
    if verdict.feedback:
        ctx.console.say("feedback", verdict.feedback)
    way_for(exercise).after(ctx, exercise, verdict)
    if verdict.status == "correct":
        run.right = True
        explain(ctx, run, record=False)
        ctx.console.say("next", "type next for the next exercise, or back")
    return verdict


def practise_new_numbers(ctx: Context, run: Attempting, card: str) -> str:
    """The same exercise with numbers never seen, to practise now: kept, moving no review schedule."""
    from tui.progress.review import next_practice_seed

    seed = next_practice_seed(ctx.session.store, run.exercise.id)
    try:
        pose(run.book_exercise, seed)
    except VariantError as exc:
        ctx.console.say("numbers", str(exc))
        return work_on(ctx, run.book_exercise, seed=run.seed, purpose=run.purpose, card=card)
    ctx.console.say("numbers", "new numbers to practise on; kept with your attempts, your review schedule stays")
    return work_on(ctx, run.book_exercise, seed=seed, purpose="practice", card=card)

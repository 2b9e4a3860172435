"""A chapter in lines: its text read in pages, and its exercises by number, one after another."""

from __future__ import annotations

from grader.book.model import Chapter
from tui.lines.console import own_keys
from tui.lines.context import Context
from tui.lines.exercise import work_on
from tui.lines.reader import plain_lines

TEXT, HEADINGS = "t", "h"   # the chapter's entries that are not exercises, by letter: no number is taken
HELP = ("Type t to read the chapter's text, an exercise's number in the chapter (1 for its first), or h to read "
        "from one of the chapter's headings; b goes one step back (to the chapter list).")


def open_chapter(ctx: Context, chapter: Chapter, *, exercise_id: str = "") -> None:
    """The chapter's menu until b: its text, each exercise by its own number, its headings; with
    `exercise_id`, that exercise first."""
    console = ctx.console
    start = next((i for i, e in enumerate(chapter.exercises) if e.id == exercise_id), None)
    if start is not None:
        work_through(ctx, chapter, start)
    numbers = own_keys([e.id.rpartition(".")[2] for e in chapter.exercises], (TEXT, HEADINGS))
    while True:
        states = ctx.session.store.exercise_states()
        solved = sum(1 for e in chapter.exercises if (s := states.get(e.id)) and s.solved)
        console.say(f"chapter {chapter.id}", f"{chapter.title}. {solved} of {len(chapter.exercises)} solved.")
        items = ["read the text"] + [
            f"exercise {e.id}, {e.title}, {e.kind}{', solved' if (s := states.get(e.id)) and s.solved else ''}"
            for e in chapter.exercises] + ["read from one of its headings"]
        keys = [TEXT, *(numbers or (str(n) for n in range(1, len(chapter.exercises) + 1))), HEADINGS]
        picked = console.choose("choose", items, HELP, keys=keys)
        if picked is None:
            return
        if picked == 0:
            read_text(ctx, chapter)
        elif picked == len(items) - 1:
            read_from_heading(ctx, chapter)
        else:
            work_through(ctx, chapter, picked - 1)


def read_text(ctx: Context, chapter: Chapter, start: int = 0) -> None:
    """The chapter's text, from its `start`-th line (a heading's) on."""
    ctx.session.store_position(chapter.id, at_opening=True)
    ctx.console.say("chapter text", f"chapter {chapter.id}, {chapter.title}")
    ctx.console.page(plain_lines(chapter.narrative())[start:])
    ctx.console.say("end of chapter text", f"{len(chapter.exercises)} exercises follow")


def read_from_heading(ctx: Context, chapter: Chapter) -> None:
    """The chapter's headings, numbered; the text read from the one picked."""
    lines = plain_lines(chapter.narrative())
    headings = [at for at, line in enumerate(lines) if line.startswith(("heading: ", "subheading: "))]
    if not headings:
        ctx.console.say("headings", "this chapter has none")
        return
    picked = ctx.console.choose("from heading", [lines[at].partition(": ")[2] for at in headings],
                                "Type a heading's number to read the chapter from there, or b.")
    if picked is not None:
        read_text(ctx, chapter, headings[picked])


def work_through(ctx: Context, chapter: Chapter, index: int) -> None:
    """Exercises from `index` on, as the learner moves with next and previous, until back or next after the
    chapter's last exercise (which says what is left to solve)."""
    exercises = chapter.exercises
    while 0 <= index < len(exercises):
        exercise = exercises[index]
        ctx.session.store_position(chapter.id, exercise.id)
        moved = work_on(ctx, exercise)
        if moved == "back":
            return
        index += 1 if moved == "next" else -1
        if index < 0:
            ctx.console.say("first", "this is the chapter's first exercise")
            index = 0
    states = ctx.session.store.exercise_states()
    left = [e.id for e in exercises if not ((s := states.get(e.id)) and s.solved)]
    ctx.console.say(f"end of chapter {chapter.id}",
                    f"{len(exercises) - len(left)} of {len(exercises)} solved" +
                    (f"; still to solve: {', '.join(left)}" if left else ""))

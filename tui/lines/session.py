"""A whole session in lines: the first line says the mode is on and why, then the main menu (continue,
chapters, review, quiz, lab, progress, settings) until the learner quits or the input ends."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, TextIO

from grader.book.model import Book, Chapter, LabRef
from tui.lines.chapter import open_chapter
from tui.lines.console import Console, Quit, own_keys
from tui.lines.context import Context
from tui.lines.mode import SETTING_KEY, SPEECH_KEY
from tui.lines.speech import Speech
from tui.progress.session import StudySession
from tui.progress.store import ProgressStore, StoreError

if TYPE_CHECKING:
    from grader.book.quiz import Quiz
    from tui.progress.class_share import ClassShare

HELP = ("Type the number of what you want. Every prompt takes help, which says what it takes, and quit, which "
        "leaves; your progress is kept as you go.")


def run_session(book: Book, store: ProgressStore, stdin: TextIO, stdout: TextIO, *, why: str,
                clock: Callable[[], datetime], echo: bool = False, screen: tuple[int, int] | None = None,
                speech: bool = False, share: ClassShare | None = None) -> int:
    """Run until quit or the end of input; the exit status (0). `screen`: a terminal's (columns, rows), for
    pages that fill it. `speech`: formulas, units and symbols said in words (tui.lines.speech). `share`: the
    class the learner's progress is shared with as they answer (tui.progress.class_share)."""
    console = Console(stdin, stdout, echo=echo, speech=speech) if screen is None else \
        Console(stdin, stdout, echo=echo, page_lines=max(4, screen[1] - 2), width=max(20, screen[0]), speech=speech)
    ctx = Context(StudySession(book, store, clock, share=share), console)
    console.say("ringbook", f"screen-reader mode is on: {why}. Plain lines, no colour; help at any prompt.")
    console.say("book", f"{book.title}" + (f", {book.subtitle}" if book.subtitle else ""))
    if store.notice:
        console.say("progress", store.notice)
    if share is not None:
        console.say("class", share.status())
        share.said = partial(console.tell, "class")   # said before the next prompt, not over the learner's typing
    try:
        main_menu(ctx)
    except (Quit, KeyboardInterrupt):   # quit, the end of input, or Ctrl+C: what was answered is kept already
        console.write()
    finally:
        ctx.session.close()
        console.say_news()   # a problem the last share met
    console.say("bye", "your progress is kept" if not store.read_only else "progress was not saved (read-only)")
    return 0


def main_menu(ctx: Context) -> None:
    book = ctx.session.book
    while True:
        entries: list[tuple[str, Callable[[], None]]] = [("continue where you left off", lambda: resume(ctx))]
        entries.append(("chapters", lambda: chapters(ctx)))
        entries.append(("review the exercises that are due", lambda: review(ctx)))
        entries.extend((f"quiz: {quiz.title}", partial(take_quiz, ctx, quiz)) for quiz in book.quizzes)
        entries.extend((f"lab: {lab.title.removeprefix('Lab: ')}", partial(open_lab_ref, ctx, lab))
                       for lab in book.labs)
        entries.append(("progress and streak", lambda: show_progress(ctx)))
        entries.append((f"screen-reader mode at every start: {setting(ctx)}", lambda: toggle_setting(ctx)))
        entries.append((f"speech, formulas and units said in words: {'on' if ctx.console.speech else 'off'}",
                        lambda: toggle_speech(ctx)))
        ctx.console.say("menu", "main menu")
        picked = ctx.console.choose("choose", [words for words, _ in entries], HELP, back=False)
        if picked is not None:
            entries[picked][1]()


def chapters(ctx: Context, opening: Chapter | None = None, exercise_id: str = "") -> None:
    """The chapter list, each chapter keyed by its own number, until b; `opening` (with `exercise_id`, that
    exercise) is opened first, as if chosen here, so b from its menu comes back here as from any chapter."""
    from tui.progress.mastery import mastery

    book = ctx.session.book
    while True:
        if opening is not None:
            open_chapter(ctx, opening, exercise_id=exercise_id)
        items = [f"chapter {c.chapter_id}, {c.title}, {c.solved} of {c.total} solved"
                 for c in mastery(book, ctx.session.store.exercise_states()).chapters]
        ctx.console.say("chapters", f"{len(items)} chapters")
        picked = ctx.console.choose("choose", items, "Type a chapter's number, or b to go back to the main menu.",
                                    keys=own_keys([c.id for c in book.chapters]))
        if picked is None:
            return
        opening, exercise_id = book.chapters[picked], ""


def resume(ctx: Context) -> None:
    """Where the learner was (in either face): the exercise last opened, else the chapter's menu; b from there
    goes on to the chapter list."""
    chapter_id, exercise_id = ctx.session.store.last_opened()
    chapter = ctx.session.book.chapter(chapter_id) or ctx.session.book.chapters[0]
    ctx.console.say("continue", f"chapter {chapter.id}" + (f", exercise {exercise_id}" if exercise_id else ""))
    chapters(ctx, chapter, exercise_id if chapter.id == chapter_id else "")


def review(ctx: Context) -> None:
    from tui.lines.review import review as run_review

    run_review(ctx)


def take_quiz(ctx: Context, quiz: Quiz) -> None:
    from tui.lines.quiz import take_quiz as run_quiz

    run_quiz(ctx, quiz)


def open_lab_ref(ctx: Context, lab: LabRef) -> None:
    from grader.lab.load import LabError, load_lab
    from tui.lines.lab import open_lab

    try:
        loaded = load_lab(lab.path, ctx.session.book.root)
    except LabError as exc:
        ctx.console.say("lab", f"it cannot open: {exc}")
        return
    open_lab(ctx, loaded)


def show_progress(ctx: Context) -> None:
    from tui.lines.progress import show_progress as run_progress

    run_progress(ctx)


def setting(ctx: Context) -> str:
    return "on" if ctx.session.store.state(SETTING_KEY) == "on" else "off"


def toggle_setting(ctx: Context) -> None:
    """The saved setting: on, every start is in lines even in a full terminal."""
    value = "off" if setting(ctx) == "on" else "on"
    try:
        ctx.session.store.set_state(SETTING_KEY, value)
    except StoreError as exc:
        ctx.console.say("not saved", str(exc))
        return
    ctx.console.say("setting", f"screen-reader mode at every start is {value}"
                    + ("" if value == "on" else "; TERM=dumb, a pipe, --screen-reader and "
                       "RINGBOOK_SCREEN_READER=1 still turn it on"))


def toggle_speech(ctx: Context) -> None:
    """Speech on or off, at once and kept for every start (like the theme); a braille reader keeps it off."""
    value = "off" if ctx.console.speech else "on"
    ctx.console.speech = Speech() if value == "on" else None
    try:
        ctx.session.store.set_state(SPEECH_KEY, value)
    except StoreError as exc:
        ctx.console.say("not saved", str(exc))
    ctx.console.say("setting", f"speech is {value}"
                    + (": formulas, units, symbols and timelines are said in words" if value == "on" else
                       "; --speech and RINGBOOK_SPEECH=1 still turn it on"))

"""The end of a chapter, shown when n moves past its last exercise: what was solved in it, what is left
with a way back to each, and the next chapter's opening (not straight into its first exercise).

It takes the place of the last exercise, as n's next exercise would, so Esc goes back to the screen
below (the chapter's list, or home). n, or Enter on the "Next" row, leaves the finished chapter for the
next one's text; p goes back to the last exercise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from grader.book.model import Book, Chapter
from tui.progress.mastery import mastery
from tui.progress.session import StudySession
from tui.progress.store import ExerciseState
from tui.screens.chapter import MARKS, ChapterScreen, exercise_row
from tui.screens.navigator import Navigator
from tui.widgets.page import Page
from tui.widgets.progress_bar import bar
from tui.widgets.screen_frame import Footer, Header, closing

if TYPE_CHECKING:
    from grader.exercise import Exercise

NEXT_ROW = "next"


class ChapterEndScreen(Screen):
    """A chapter finished: solved N of M, mastery, what is left, and what comes next."""

    CSS_PATH = "chapter_end.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("n", "next", "Next chapter"),
        Binding("p", "previous", "Prev"),
    ]

    def __init__(self, chapter: Chapter, session: StudySession, nav: Navigator):
        super().__init__()
        self.chapter = chapter
        self.session = session
        self.nav = nav

    def reopened(self, book: Book) -> ChapterEndScreen | None:
        chapter = book.chapter(self.chapter.id)
        return ChapterEndScreen(chapter, self.session, self.nav) if chapter else None

    @property
    def next_stop(self):
        """The next chapter in reading order; after the last, the first quiz, then the first lab; else None."""
        book = self.session.book
        chapters = [c.id for c in book.chapters]
        at = chapters.index(self.chapter.id)
        if at + 1 < len(chapters):
            return book.chapters[at + 1]
        return next(iter(book.quizzes), None) or next(iter(book.labs), None)

    def compose(self) -> ComposeResult:
        states = self.session.store.exercise_states()
        overall = mastery(self.session.book, states)
        mine = next(c for c in overall.chapters if c.chapter_id == self.chapter.id)
        left = [e for e in self.chapter.exercises if not (e.id in states and states[e.id].solved)]
        yield Header()
        with Page(id="chapter-end"):
            yield Static(Text(f"End of chapter {self.chapter.id} · {self.chapter.title}", "bold"), id="end-title")
            solved = Text.assemble(("Solved ", "bold"), f"{mine.solved} of {mine.total} exercises  ",
                                   bar(mine.solved, mine.total))
            if mine.after_reveal:
                solved.append(f"   {mine.after_reveal} after reveal", "dim")
            yield Static(solved, id="end-solved")
            yield Static(Text.assemble(("Mastery ", "bold"), overall.summary, " of the book"), id="end-mastery")
            yield Static(Text.assemble(("Still to solve", "bold"), ("   (Enter opens one)", "dim")) if left
                         else Text("Every exercise of this chapter is solved.", "green"), id="end-left")
            yield OptionList(*self.rows(left, states), id="end-list")
        yield Footer()

    def rows(self, left: list[Exercise], states: dict[str, ExerciseState]) -> list[Option]:
        id_width = max((len(e.id) for e in left), default=0)
        kind_width = max((len(e.kind) for e in left), default=0)
        rows = [Option(exercise_row(MARKS[states[e.id].mark if e.id in states else "new"], e.id, id_width, e.title,
                                    e.kind, kind_width), id=e.id) for e in left]
        following = self.next_stop
        if following is None:
            label = Text("That was the last chapter.   (Esc goes back)", "dim")
        elif isinstance(following, Chapter):
            label = Text.assemble(("▶ Next: ", "bold"), f"Chapter {following.id} · {following.title}",
                                  ("   its opening  (n)", "dim"))
        else:
            label = Text.assemble(("▶ Next: ", "bold"), following.title, ("   (n)", "dim"))
        rows.append(Option(label, id=NEXT_ROW, disabled=following is None))
        return rows

    def on_mount(self) -> None:
        if closing(self):
            return
        self.title = f"End of chapter {self.chapter.id}"
        listing = self.query_one("#end-list", OptionList)
        listing.highlighted = listing.option_count - 1 if self.next_stop is not None else 0
        listing.focus(scroll_visible=False)
        self.query_one("#chapter-end", Page).reveal(listing)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == NEXT_ROW:
            self.action_next()
        elif (exercise := self.session.book.exercise(event.option.id or "")) is not None:
            self.nav.open_exercise(exercise, replace=True)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "next":
            return self.next_stop is not None
        return True

    def action_next(self) -> None:
        """Leave the finished chapter (this screen, and its chapter screen if that is below) for the next
        stop, so Esc from there goes where the learner came into this chapter from."""
        following = self.next_stop
        if following is None:
            return
        app, nav = self.app, self.nav
        app.pop_screen()
        below = app.screen
        if isinstance(below, ChapterScreen) and below.chapter.id == self.chapter.id and len(app.screen_stack) > 1:
            app.pop_screen()
        if isinstance(following, Chapter):
            nav.open_chapter(following)
        elif following in self.session.book.quizzes:
            nav.open_quiz(following)
        else:
            nav.open_lab(following)

    def action_previous(self) -> None:
        if self.chapter.exercises:
            self.nav.open_exercise(self.chapter.exercises[-1], replace=True)

"""The home screen: mastery, the day streak, Continue, and the parts of the course (chapters, case
study, quiz, lab), one row each with its own progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from grader.book.model import Chapter, Heading
from tui.progress.mastery import Mastery, designs_saved, mastery, quiz_scores, unfinished_run
from tui.progress.session import StudySession
from tui.progress.store import ExerciseState
from tui.screens.navigator import Navigator
from tui.widgets.plain import plain
from tui.widgets.progress_bar import bar
from tui.widgets.screen_frame import Footer, Header

if TYPE_CHECKING:
    from grader.book.model import LabRef
    from grader.book.quiz import Quiz

FRAME_ROWS = 15   # the full layout's rows besides the course's: header, title, subtitle, lines, spacing, footer
SHARING_ROWS = 2  # the line that says progress is shared with a class, wrapped at 80 columns


class HomeScreen(Screen):
    """Where a learner starts: how far they are, and where to go next."""

    # home.tcss is read with the app's own styles (RingbookApp.CSS_PATH), which is quicker to start
    BINDINGS = [
        Binding("enter", "open_chapter", "Open", priority=True),
        Binding("c", "continue", "Continue"),
        Binding("r", "review('due')", "Review"),     # the one of these three that fits `reviews` (check_action)
        Binding("r", "review('practice')", "Practise"),
        Binding("r", "review('')", "How review works", show=False),   # listed by ? (no cards yet)
        Binding("f2", "app.toggle_theme", "Theme"),
    ]

    KEYS_IN_WORDS = [("↑/↓", "Move in the list (Enter opens)")]   # the list's own keys, for the ? dialog
    shown_before = False
    reviews = ""   # "due", "practice" (cards, none due: r offers to practise early) or "" (no cards yet)

    def __init__(self, session: StudySession, nav: Navigator):
        super().__init__()
        self.session = session
        self.nav = nav

    def compose(self) -> ComposeResult:
        book = self.session.book
        self.set_class(self.app.size.height < self.full_height(), "-compact")
        stats, continue_line, rows = self.progress()
        yield Header()
        with Vertical(id="home"):
            yield Static(plain(book.title), id="book-title")
            if book.subtitle:
                yield Static(plain(book.subtitle), id="book-subtitle")
            yield Static(stats, id="stats")
            if self.session.share is not None:
                yield Static(plain("⇄ " + self.session.share.status()), id="sharing")
            yield Static(continue_line, id="continue")
            yield Static(id="review")
            yield OptionList(*rows, id="chapters")
        yield Footer()

    review_loaded = False   # the review line is read once the first frame is out (on_mount)

    def on_mount(self) -> None:
        """The review line (the scheduler, FSRS) and the app's own start-up work wait for the first frame, with
        the footer's keys, which they held back when loaded before it (docs/classroom.md)."""
        self.query_one("#review").display = False
        self.call_after_refresh(self._keys_shown)

    def _keys_shown(self) -> None:
        if not self.review_loaded:
            self.review_loaded = True
            self.refresh_review()
            self.nav.pacing.home_shown()

    async def book_changed(self) -> None:
        """A live book read again (`--watch`): its title, subtitle, lines and rows from the new book, in place
        (recomposed, the screen's header was gone while a resize still asked for its title)."""
        book = self.session.book
        self.query_one("#book-title", Static).update(plain(book.title))
        subtitles = self.query("#book-subtitle")
        if subtitles:
            subtitles.first(Static).update(plain(book.subtitle))
            subtitles.first().display = bool(book.subtitle)
        elif book.subtitle:
            await self.query_one("#home").mount(Static(plain(book.subtitle), id="book-subtitle"),
                                                after="#book-title")
        self.set_class(self.app.size.height < self.full_height(), "-compact")
        stats, continue_line, rows = self.progress()
        self.query_one("#stats", Static).update(stats)
        self.query_one("#continue", Static).update(continue_line)
        self.refresh_rows(rows)
        if self.review_loaded:
            self.refresh_review()

    def refresh_review(self) -> None:
        """"Review · 6 due" (or when the next is due), from the log through FSRS. On the UI thread: the store's
        one connection must not hold a worker's read transaction while an answer is being saved (kept cards
        make it a few milliseconds)."""
        from tui.progress.review import kinds_of, review_summary

        summary = review_summary(self.session.store, self.session.clock(), kinds_of(self.session.book))
        self.reviews = "due" if summary.due else "practice" if summary.cards else ""
        self.refresh_bindings()
        if not summary.cards:
            return
        if summary.due:
            line = Text.assemble(("↻ Review · ", "bold"), (f"{len(summary.due)} due", "bold yellow"))
        else:
            when = summary.next_due.astimezone().strftime("%a %d %b") if summary.next_due else "later"
            line = Text.assemble(("↻ Review · ", "bold"), f"nothing due until {when}")
        if summary.retention is not None:
            line.append(f"   ~{summary.retention:.0%} remembered", "dim")
        # a key to press: as readable as the text (WCAG), not dimmed
        line.append("   (r)" if summary.due else "   (r: practise)")
        review = self.query_one("#review", Static)
        review.update(line)
        review.display = True

    def full_height(self) -> int:
        """Rows the full layout needs: its frame, a row per chapter, quiz and lab, and a heading per part."""
        book = self.session.book
        parts = ({c.part or "Chapters" for c in book.chapters} | ({"Quiz"} if book.quizzes else set())
                 | ({"Lab"} if book.labs else set()))
        headings = len(parts) if len(parts) > 1 else 0
        sharing = SHARING_ROWS if self.session.share is not None else 0
        return FRAME_ROWS + sharing + len(book.chapters) + len(book.quizzes) + len(book.labs) + headings

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """r is shown as Review while cards are due, as Practise while none is, and not at all before the
        first exercise is solved (then it only says how review works)."""
        if action == "review":
            return parameters == (self.reviews,)
        return True

    def action_review(self, reviews: str) -> None:
        """Review the due cards; with none due, the app offers to practise early, or says how review works."""
        self.nav.start_review()

    def on_resize(self) -> None:
        """The compact layout when the full one does not fit: the whole course on one screen at 80x24, the quiz
        and the lab included; the book's title is then in the header only."""
        compact = self.size.height < self.full_height()
        if compact != self.has_class("-compact"):
            self.set_class(compact, "-compact")
            self.refresh_rows()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self.shown_before:  # Textual says "resume" the first time too, when compose has just done this
            self.shown_before = True
            # and Textual's own handler, after this one, would style every widget again, as each was styled
            # when it mounted a moment ago: about a tenth of Textual's work for home before its first frame
            event.refresh_styles = False
            return
        stats, continue_line, rows = self.progress()
        self.query_one("#stats", Static).update(stats)
        self.query_one("#continue", Static).update(continue_line)
        if self.session.share is not None:   # a problem sharing since, said once as it came
            self.query_one("#sharing", Static).update(plain("⇄ " + self.session.share.status()))
        self.refresh_rows(rows)
        self.refresh_review()

    def refresh_rows(self, rows: list[Option] | None = None) -> None:
        """The course's rows (`rows`, else as the store has them now), the same row highlighted."""
        chapters = self.query_one("#chapters", OptionList)
        at = chapters.highlighted
        highlighted = chapters.get_option_at_index(at).id if at is not None else None
        chapters.clear_options()
        chapters.add_options(rows or self.course_rows(mastery(self.session.book, self.session.store.exercise_states())))
        ids = [chapters.get_option_at_index(i).id for i in range(chapters.option_count)]
        chapters.highlighted = ids.index(highlighted if highlighted in ids else next(i for i in ids if i is not None))

    def progress(self) -> tuple[Text, Text, list[Option]]:
        """The stats line, the Continue line and the chapter rows, from the store as it is now."""
        states = self.session.store.exercise_states()
        overall = mastery(self.session.book, states)
        streak = self.session.streak()
        stats = Text.assemble(
            ("Mastery ", "bold"), overall.summary,
            ("   Streak ", "bold"), f"{streak.current} day{'s' if streak.current != 1 else ''}",
            (f" (best {streak.best})", "dim"),
        )
        if overall.after_reveal:
            stats.append(f"   {overall.after_reveal} after reveal", "dim")
        opened = self.session.store.chapters_opened()
        target = self.continue_target(states, opened)
        if isinstance(target, Chapter):
            started = "Continue" if target.id in opened else "Start"
            label = f"▶ {started}: Chapter {target.id} · {target.title}"
        else:
            label = f"▶ Continue: {target.id} {target.title}"
        return stats, Text.assemble((label, "bold"), "   (c)"), self.course_rows(overall)

    def course_rows(self, overall: Mastery) -> list[Option]:
        """A heading per part of the course (not in the compact layout), then its rows: chapters by the part
        book.yaml gives them, then the quizzes (best score) and the labs (designs saved)."""
        book = self.session.book
        width = max(len(title) for title in [c.title for c in book.chapters] + [q.title for q in book.quizzes]
                    + [lab.title for lab in book.labs])
        chapter_rows: dict[str, list[Option]] = {}
        for chapter, row in zip(book.chapters, overall.chapters, strict=True):
            chapter_rows.setdefault(chapter.part or "Chapters", []).append(Option(Text.assemble(
                f"{row.chapter_id:>2}  ", (f"{row.title:<{width}}", "bold" if row.solved else ""), "  ",
                bar(row.solved, row.total), f" {row.solved:>2}/{row.total}"), id=row.chapter_id))
        parts = list(chapter_rows.items())
        if book.quizzes:
            parts.append(("Quiz", [self.quiz_row(quiz, width) for quiz in book.quizzes]))
        if book.labs:
            parts.append(("Lab", [self.lab_row(lab, width) for lab in book.labs]))
        rows: list[Option] = []
        for name, part_rows in parts:
            if len(parts) > 1 and not self.has_class("-compact"):
                rows.append(Option(Text(name[:1].upper() + name[1:], "bold"), disabled=True))
            rows.extend(part_rows)
        return rows

    def quiz_row(self, quiz: Quiz, width: int) -> Option:
        """Best score and runs; a run left half way is shown instead of what would not fit in 80 columns."""
        scores = quiz_scores(self.session.store, quiz.id)
        best = max(scores, default=0)
        answered = len(unfinished_run(self.session.store, quiz))
        in_progress = Text(f"{answered}/{len(quiz)} in progress", "yellow")
        if scores and answered:
            status = Text.assemble(f"best {best:g}/{len(quiz)} · ", in_progress)
        elif scores:
            status = Text.assemble(bar(best, len(quiz)), f" best {best:g}/{len(quiz)}",
                                   (f" · {len(scores)} run{'s' if len(scores) != 1 else ''}", "dim"))
        elif answered:
            status = in_progress
        else:
            status = Text(f"{len(quiz)} questions, not taken yet", "dim")
        return Option(Text.assemble("    ", (f"{quiz.title:<{width}}", "bold" if scores else ""), "  ", status),
                      id=f"quiz:{quiz.id}")

    def lab_row(self, lab: LabRef, width: int) -> Option:
        designs = designs_saved(self.session.store, lab.id)
        status = (Text(f"{designs} design{'s' if designs != 1 else ''} saved")
                  if designs else Text("not started", "dim"))
        return Option(Text.assemble("    ", (f"{lab.title:<{width}}", "bold" if designs else ""), "  ", status),
                      id=f"lab:{lab.id}")

    def continue_target(self, states: dict[str, ExerciseState], opened: set[str]) -> Heading | Chapter:
        """Where Continue goes: where the learner left off (where_left_off), or, when that is an exercise of
        a chapter not yet begun (its text never on screen, none of its exercises tried), the chapter's
        opening, so the text of a new chapter is never skipped. `opened`: the chapters whose opening the
        learner has had on screen (ProgressStore.chapters_opened). Exercises by their headings: none is built
        for home's first frame (grader.book.model.Chapter)."""
        target = self.where_left_off(states)
        if not isinstance(target, Chapter):
            chapter = self.session.book.chapter(target.chapter_id)
            assert chapter is not None, f"{target.id} is this book's"
            begun = chapter.id in opened or any(h.id in states for h in chapter.headings)
            if not begun:
                return chapter
        return target

    def where_left_off(self, states: dict[str, ExerciseState]) -> Heading | Chapter:
        """The last exercise opened if it is unsolved, else the next unsolved one after it (the book
        wraps round); else the last chapter opened; else the first unsolved exercise of a learner who has
        answered something; else the first chapter."""
        book = self.session.book
        chapter_id, exercise_id = self.session.store.last_opened()
        exercises = book.headings
        ids = [h.id for h in exercises]
        if exercise_id in ids:
            at = ids.index(exercise_id)
            for exercise in exercises[at:] + exercises[:at]:
                if not (exercise.id in states and states[exercise.id].solved):
                    return exercise
            return exercises[at]   # everything is solved: back where the learner was
        if (chapter := book.chapter(chapter_id)) is not None:
            return chapter
        if states:
            unsolved = [h for h in book.headings if not (h.id in states and states[h.id].solved)]
            if unsolved:
                return unsolved[0]
        return book.chapters[0]

    def on_click(self, event: events.Click) -> None:
        if event.widget is not None and event.widget.id == "continue":
            self.action_continue()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.open(event.option.id)

    def action_open_chapter(self) -> None:
        chapters = self.query_one("#chapters", OptionList)
        if chapters.highlighted is not None:
            self.open(chapters.get_option_at_index(chapters.highlighted).id)

    def action_continue(self) -> None:
        store = self.session.store
        target = self.continue_target(store.exercise_states(), store.chapters_opened())
        if isinstance(target, Chapter):
            self.nav.open_chapter(target)
        elif (exercise := self.session.book.exercise(target.id)) is not None:
            self.nav.open_exercise(exercise)   # over home: Back comes here, where the learner was

    def open(self, row_id: str | None) -> None:
        """Open what a row stands for: `quiz:ID`, `lab:ID`, or a chapter id."""
        book = self.session.book
        kind, _, target = (row_id or "").partition(":")
        if kind == "quiz" and (quiz := book.quiz(target)) is not None:
            self.nav.open_quiz(quiz)
        elif kind == "lab" and (lab := book.lab(target)) is not None:
            self.nav.open_lab(lab)
        elif (chapter := book.chapter(row_id or "")) is not None:
            self.nav.open_chapter(chapter)

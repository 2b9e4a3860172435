"""The quiz screen: one question at a time, feedback after each, the score and what to review at the end.

The body is drawn from three facts (which question, the responses so far, whether a reveal card is
turned over), so every change redraws it and no widget carries state of its own. The run
is kept in the store as it goes, so a learner who leaves half way picks up where they were; the finished
run becomes a ledger entry.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Markdown, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from grader.book.quiz import RATINGS, Quiz, QuizQuestion, QuizResult, Response, score
from tui.progress.mastery import unfinished_run
from tui.progress.runs import keep_quiz_run, record_quiz_run
from tui.progress.session import StudySession
from tui.progress.store import StoreError
from tui.screens.navigator import Navigator
from tui.widgets.choice_question import labelled
from tui.widgets.page import Page
from tui.widgets.screen_frame import Footer, Header
from tui.widgets.settling_cursor import SettlingTextArea

READINESS_STYLES = {"ready": "green", "nearly": "yellow", "not yet": "red"}   # grader.book.quiz's words


def results_row(number: Text, topic: Text, points: Text, chapter: Text, style: str = "") -> Table:
    """One row of the results, in columns that line up with the heading's; one line (ResultsList)."""
    row = Table.grid(expand=True, padding=(0, 1, 0, 0))
    row.add_column(width=3)
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_column(justify="right", width=6)
    row.add_column(width=8)
    row.add_row(number, topic, points, chapter, style=style)
    return row


class ResultsList(OptionList, inherit_bindings=False):
    """The results' rows: ↑ and ↓ choose one and Enter opens its chapter; PgUp, PgDn, Home and End are left
    to the page, which they always scroll."""

    BINDINGS = [Binding("up", "cursor_up", show=False), Binding("down", "cursor_down", show=False),
                Binding("enter", "select", show=False)]


class QuizScreen(Screen):
    """Taking a quiz, from the first question to the results."""


    CSS_PATH = "quiz.tcss"
    BINDINGS = [
        Binding("escape", "leave(False)", "Back"),
        Binding("escape", "leave(True)", "Leave box"),   # from the notes box (check_action offers one)
        Binding("a", "pick(0)", "Pick", key_display="a-d"),
        *(Binding(key, f"pick({i})", show=False) for i, key in enumerate("bcdef", 1)),
        Binding("w", "write", "Write notes"),
        Binding("space", "reveal", "Reveal answer"),  # r is Review on the home screen
        Binding("1", "rate('got')", "Got it"),
        Binding("2", "rate('partly')", "Partly"),
        Binding("3", "rate('missed')", "Missed it"),
        Binding("n", "next", "Next"),
        Binding("ctrl+r", "retake", "Retake"),
        Binding("enter", "open_chapter", "Open chapter", priority=True),   # only on the results (check_action)
    ]

    def __init__(self, quiz: Quiz, session: StudySession, nav: Navigator):
        super().__init__()
        self.quiz = quiz
        self.session = session
        self.nav = nav
        self.index = 0
        self.responses: dict[str, Response] = {}
        self.revealed = False
        self.notes = ""  # what the learner wrote on the current reveal card; never graded, never stored

    # --- state ----------------------------------------------------------------------------------

    @property
    def question(self) -> QuizQuestion | None:
        return self.quiz.questions[self.index] if self.index < len(self.quiz) else None

    @property
    def answered(self) -> bool:
        return self.question is not None and self.question.id in self.responses

    def resume(self) -> None:
        """Pick up an unfinished run from the store."""
        responses = unfinished_run(self.session.store, self.quiz)
        ids = [q.id for q in self.quiz]
        if responses:
            self.responses = responses
            self.index = next((i for i, q in enumerate(ids) if q not in responses), len(ids))
            self.notify(f"Picked up where you left off: {len(responses)} of {len(ids)} answered.",
                        title=self.quiz.title)

    def save_run(self) -> None:
        """Keep the unfinished run; a read-only store just means it is not kept."""
        keep_quiz_run(self.session.store, self.quiz, self.responses)

    # --- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Page(id="quiz")
        yield Footer()

    def body(self) -> ComposeResult:
        if self.question is None:
            yield from self.compose_results()
        else:
            yield from self.compose_question(self.question)

    def compose_question(self, question: QuizQuestion) -> ComposeResult:
        yield Static(Text.assemble((f"Question {self.index + 1} of {len(self.quiz)}", "bold"),
                                   (f"  ·  {question.topic}", "dim")), id="quiz-progress")
        yield Markdown(question.prompt, id="quiz-prompt")
        response = self.responses.get(question.id)
        if question.style == "choice":
            if response is None:
                yield OptionList(*self.option_rows(question), id="quiz-options")
            else:
                yield Static(self.answered_options(question, response), id="quiz-options-answered")
                picked = question.option(response.choice)
                right = picked is not None and picked.correct
                yield Static(Text.assemble(("✓ Right. " if right else "✗ Not that one. ", "bold"),
                                           picked.feedback if picked else ""),
                             id="quiz-feedback", classes="right" if right else "wrong")
                if not right:
                    letter = chr(65 + question.presented_options.index(question.correct_option))
                    yield Static(Text.assemble((f"Why {letter} is right: ", "bold"), question.correct_option.feedback),
                                 id="quiz-correct")
                if question.explanation:
                    yield Markdown(question.explanation, id="quiz-explanation")
        else:
            if not self.revealed and response is None:
                yield Static(Text.assemble(
                    "Answer in your head, or press ", ("w", "bold"), " to write in the box below (not graded; ",
                    ("Esc", "bold"), " leaves it). Then press ", ("space", "bold"),
                    " to see the model answer and rate yourself."), id="quiz-instructions")
                yield SettlingTextArea(self.notes, id="quiz-notes", soft_wrap=True)
            else:
                if self.notes.strip():
                    yield Static(Text.assemble(("Your answer: ", "bold"), self.notes.strip()), id="quiz-notes-shown")
                yield Markdown(question.answer, id="quiz-answer")
                yield Static(Text("\n".join(f"☐ {point}" for point in question.checklist)), id="quiz-checklist")
                yield OptionList(*(Option(Text.assemble((f"{n}  ", "bold"), label, ("  (✓)", "bold")
                                                        if response and response.rating == rating else ""),
                                          id=rating, disabled=response is not None)
                                   for n, (rating, (label, _)) in enumerate(RATINGS.items(), 1)), id="quiz-rating")
        if response is not None:
            last = self.index + 1 == len(self.quiz)
            yield Static(Text.assemble(("n", "bold"), " for the results" if last else " for the next question"),
                         id="quiz-next")

    def option_rows(self, question: QuizQuestion) -> list[Option]:
        return [Option(labelled(chr(65 + i), Text(option.text)), id=option.id)
                for i, option in enumerate(question.presented_options)]

    def answered_options(self, question: QuizQuestion, response: Response) -> Table:
        """The options once answered: the right one marked green, a wrong pick red, the rest dimmed."""
        table = Table.grid(expand=True)
        table.add_column()
        for i, option in enumerate(question.presented_options):
            if option.correct:
                text = Text.assemble(option.text, (" ✓", "bold"), style="green")
            elif option.id == response.choice:
                text = Text.assemble(option.text, (" ✗", "bold"), style="red")
            else:
                text = Text(option.text, "dim")
            table.add_row(labelled(chr(65 + i), text))
        return table

    def compose_results(self) -> ComposeResult:
        result = score(self.quiz, self.responses)
        yield Static(Text.assemble((f"{self.quiz.title}: {result.points:g} / {result.out_of}", "bold"),
                                   f"  ({result.percent:.0f}%)"), id="quiz-score")
        yield Static(self.verdict_line(result), id="quiz-verdict")
        yield Static(results_row(Text("#"), Text("Topic"), Text("Points"), Text("Chapter"), style="bold"),
                     id="quiz-results-heading")
        rows = []
        for n, question in enumerate(self.quiz, 1):
            response = self.responses.get(question.id)
            points = response.points(question) if response else 0.0
            style = "green" if points == 1 else ("yellow" if points else "red")
            rows.append(Option(results_row(Text(str(n), "dim"), Text(question.topic), Text(f"{points:g}", style),
                                           Text(f"ch. {question.chapter}", "dim" if points == 1 else "bold")),
                               id=question.id))
        yield ResultsList(*rows, id="quiz-results")
        yield Static(Text.assemble(("Enter", "bold"), " opens a row's chapter   ", ("Ctrl+R", "bold"), " retake   ",
                                   ("Esc", "bold"), " back to the course"), id="quiz-next")

    @staticmethod
    def verdict_line(result: QuizResult) -> Text:
        word, advice = result.readiness
        return Text(f"{word.capitalize()}: {advice}.", READINESS_STYLES[word])

    # --- lifecycle ------------------------------------------------------------------------------

    async def on_mount(self) -> None:
        self.title = self.quiz.title
        self.resume()
        await self.redraw()

    def focus_current(self) -> None:
        """Focus the options to pick from (or the results' rows), if any. The notes box is focused only on
        request (w): keys typed there are text, so space would not reveal."""
        found = self.query("#quiz-options, #quiz-rating, #quiz-results")
        if found and not self.answered:
            found.first().focus(scroll_visible=False)  # the page stays at its top, where the question starts
        else:
            self.set_focus(None)

    async def redraw(self) -> None:
        container = self.query_one("#quiz", Page)
        await container.remove_children()
        await container.mount_all(list(self.body()))
        container.scroll_home(animate=False)
        self.focus_current()
        self.refresh_bindings()

    # --- answering ------------------------------------------------------------------------------

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        question, row = self.question, event.option.id
        if event.option_list.id == "quiz-options" and question is not None and row is not None:
            await self.respond(Response(question.id, choice=row))
        elif event.option_list.id == "quiz-rating" and row is not None:
            await self.action_rate(row)
        elif event.option_list.id == "quiz-results":
            self.open_chapter_of(event.option.id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The row chosen on the results stays in view: the list is as tall as its rows, the page scrolls."""
        if event.option_list.id == "quiz-results":
            top = event.option_list.virtual_region.y + event.option_index   # its row and the list's border
            self.query_one("#quiz", Page).scroll_to_region(Region(0, top, 1, 3), animate=False)

    def open_chapter_of(self, question_id: str | None) -> None:
        """The chapter that teaches a question, over the results (Esc comes back to them)."""
        question = next((q for q in self.quiz if q.id == question_id), None)
        chapter = self.session.book.chapter(question.chapter) if question else None
        if chapter is not None:
            self.nav.open_chapter(chapter)

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()  # typing in the notes box hides the letter keys from the footer

    def on_descendant_blur(self) -> None:
        self.refresh_bindings()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.notes = event.text_area.text

    async def respond(self, response: Response) -> None:
        if self.question is None or self.answered:
            return  # only the first pick counts
        self.responses[response.question_id] = response
        self.save_run()
        await self.redraw()
        # The response just given in view at 80x24: the feedback on a pick, the rating and "n" on a card.
        newest = "#quiz-feedback" if response.choice else "#quiz-next"
        self.query_one("#quiz", Page).reveal(self.query_one(newest))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        question = self.question
        typing = isinstance(self.focused, TextArea)
        if action == "leave":
            return parameters[0] == typing
        if action == "pick":
            return question is not None and question.style == "choice" and not self.answered
        if action == "write":
            return question is not None and question.style == "reveal" and not self.revealed and not typing
        if action == "reveal":
            return (question is not None and question.style == "reveal" and not self.revealed and not self.answered
                    and not typing)
        if action == "rate":
            return question is not None and self.revealed and not self.answered and not typing
        if action == "next":
            return self.answered
        if action in ("retake", "open_chapter"):
            return question is None
        return True

    async def action_pick(self, position: int) -> None:
        question = self.question
        if question is not None and position < len(question.presented_options):
            await self.respond(Response(question.id, choice=question.presented_options[position].id))

    def action_write(self) -> None:
        self.query_one("#quiz-notes", TextArea).focus()

    async def action_reveal(self) -> None:
        self.revealed = True
        await self.redraw()

    async def action_rate(self, rating: str) -> None:
        if self.question is not None and self.revealed:
            await self.respond(Response(self.question.id, rating=rating))

    async def action_next(self) -> None:
        if not self.answered:
            return
        self.index += 1
        self.revealed, self.notes = False, ""
        if self.question is None:
            self.finish()
        await self.redraw()

    def finish(self) -> None:
        """Keep the finished run as a ledger entry and forget the run in progress."""
        try:
            record_quiz_run(self.session.store, self.quiz, self.responses, self.session.clock())
        except StoreError as exc:
            self.notify(str(exc), title="Result not saved", severity="error")

    def action_open_chapter(self) -> None:
        results = self.query_one("#quiz-results", OptionList)
        if results.highlighted is not None:
            self.open_chapter_of(results.get_option_at_index(results.highlighted).id)

    async def action_retake(self) -> None:
        self.index, self.responses, self.revealed, self.notes = 0, {}, False, ""
        await self.redraw()

    def action_leave(self, box: bool) -> None:
        if box:
            self.set_focus(None)  # Escape first gives the keyboard back from the notes box
            return
        self.app.pop_screen()

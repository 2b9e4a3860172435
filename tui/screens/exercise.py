"""The exercise screen: the prompt, an answer box, and a verdict at once.

Typing goes to the answer box and Enter submits. Escape leaves the box, and then the single-letter
keys work: h for a hint, x for the explanation, n and p for the next and previous exercise. Grading
runs in a worker thread, so nothing typed can freeze the screen. A counted attempt is committed to the
store before its verdict is shown.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, Markdown, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from grader.grade import Verdict, grade
from grader.kinds.design import first_wrong
from grader.model import Build, Debug, Design, Exercise, NumericAnswer, Trace
from grader.sandbox import SandboxStatus, allow_unsandboxed, sandbox_status
from tui.store import StoreError
from tui.widgets.answer_input import AnswerInput
from tui.widgets.attempt_list import AttemptList
from tui.widgets.code_listing import CodeListing, highlighted_lines
from tui.widgets.order_list import OrderList
from tui.widgets.step_table import StepTable
from tui.widgets.verdict_panel import VerdictPanel

LETTER_ACTIONS = {"hint", "explain", "next", "previous", "focus_answer", "allow_unsandboxed"}
DRAFT_DELAY = 0.5


def answer_style(exercise: Exercise) -> str:
    """How this exercise is answered: box, choice, steps, lines (debug), order (design) or editor (build)."""
    if isinstance(exercise, Trace) and exercise.options:
        return "choice"
    if isinstance(exercise, Trace) and exercise.steps:
        return "steps"
    if isinstance(exercise, Debug):
        return "lines"
    if isinstance(exercise, Design):
        return "order"
    return "editor" if isinstance(exercise, Build) else "box"


def box_hint(exercise: NumericAnswer) -> tuple[str, str]:
    """(placeholder, label beside the box) for an exercise answered in a text box."""
    if exercise.is_formula:
        return f"a formula in {', '.join(exercise.symbols)}", "formula"
    return "a number, e.g. 7/4 or 1.75e3", exercise.unit


class ExerciseScreen(Screen):
    CSS_PATH = "exercise.tcss"
    BINDINGS = [
        Binding("ctrl+r", "run_tests", "Run tests", priority=True),
        Binding("escape", "leave", "Back"),
        Binding("h", "hint", "Hint"),
        Binding("x", "explain", "Explanation"),
        Binding("n", "next", "Next"),
        Binding("p", "previous", "Previous", show=False),
        Binding("i", "focus_answer", "Answer"),
        Binding("u", "allow_unsandboxed", "Run unsandboxed"),
    ]

    def __init__(self, exercise: Exercise):
        super().__init__()
        self.exercise = exercise
        self.style = answer_style(exercise)
        self.hints_shown = 0
        self.explanation_shown = False
        self.submitted_text: str | None = None
        self.started = time.monotonic()
        self._draft_timer = None
        self.sandbox: SandboxStatus | None = None

    # --- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        exercise = self.exercise
        draft = self.app.store.draft(exercise.id)
        yield Header()
        with VerticalScroll(id="exercise"):
            yield Static(id="exercise-title")
            yield Markdown(exercise.prompt, id="prompt")
            if self.style == "box":
                placeholder, unit = box_hint(exercise)
                with Horizontal(id="answer-row"):
                    yield AnswerInput(value=draft, placeholder=placeholder, id="answer")
                    yield Label(unit, id="unit")
            elif self.style == "choice":
                yield OptionList(*(Option(Text.assemble((f"{chr(65 + i)}  ", "bold"), o.text), id=o.id)
                                   for i, o in enumerate(exercise.presented_options)), id="choices")
            elif self.style == "order":
                yield OrderList(exercise.presented, id="order")
                yield Static(id="item-detail")
            elif self.style == "lines":
                yield CodeListing(exercise.code, exercise.language, id="listing")
                yield Static(id="fix")
            elif self.style == "steps":
                yield StepTable(exercise.steps, exercise.unit, draft.split("\n") if draft else [], id="steps")
            else:
                yield Static(id="sandbox-notice")
                yield Static(Text.assemble(("def ", "bold"), exercise.signature, ("   Ctrl+R runs the tests", "dim")),
                             id="signature")
                yield TextArea.code_editor(draft or exercise.starter, language="python", id="editor",
                                           theme="monokai", soft_wrap=False)
            yield VerdictPanel(id="verdict")
            yield Static(id="test-results")
            yield Static(id="hints")
            yield Markdown(exercise.explanation, id="explanation")
            yield AttemptList(id="attempts")
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self.app.warm_up, "formulas")
        self.title = f"Exercise {self.exercise.id}"
        self.query_one("#explanation").display = False
        self.query_one("#hints").display = False
        self.refresh_state()
        self.action_focus_answer()
        if self.style == "editor":
            self.query_one("#sandbox-notice").display = False
            self.check_sandbox()

    # --- state shown ----------------------------------------------------------------------------

    def refresh_state(self) -> None:
        exercise = self.exercise
        state = self.app.store.exercise_states().get(exercise.id)
        mark = state.mark if state else "new"
        self.query_one("#exercise-title", Static).update(Text.assemble(
            (f"{exercise.id}  ", "bold"), (exercise.title, "bold"), (f"   {exercise.kind} · {mark}", "dim")))
        self.query_one("#attempts", AttemptList).show(self.app.store.attempts(exercise.id))

    def answer_text(self) -> str:
        if self.style == "box":
            return self.query_one("#answer", Input).value
        if self.style == "steps":
            return "\n".join(self.query_one("#steps", StepTable).values())
        if self.style == "editor":
            return self.query_one("#editor", TextArea).text
        return ""

    @work(thread=True, exclusive=True, group="sandbox")
    def check_sandbox(self) -> None:
        """The first look for a sandbox starts a process, so it runs off the UI thread."""
        status = sandbox_status()
        self.app.call_from_thread(self.show_sandbox, status)

    def show_sandbox(self, status: SandboxStatus) -> None:
        """Before any code runs, say so if it cannot run in a sandbox here, and how to allow it anyway."""
        if not self.is_attached:
            return
        self.sandbox = status
        notice = self.query_one("#sandbox-notice", Static)
        notice.update(Text(status.notice("To allow that for this session, press Escape and then u.")))
        notice.display = status.mode != "sandboxed"
        self.refresh_bindings()

    # --- answering ------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.style == "steps":
            table = self.query_one("#steps", StepTable)
            empty = table.first_empty()
            if empty is not None:
                empty.focus()
                return
        self.submit(self.answer_text())

    def on_order_list_submitted(self, event: OrderList.Submitted) -> None:
        self.submit(", ".join(event.order))

    def on_order_list_highlighted(self, event: OrderList.Highlighted) -> None:
        self.query_one("#item-detail", Static).update(Text(event.item.text, style="italic"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.submit(event.option.id or "")

    def submit(self, text: str) -> None:
        if text.strip():
            self.grade_answer(text)
        else:
            self.query_one("#verdict", VerdictPanel).show(Verdict("invalid", "Type an answer first."))

    @work(thread=True, exclusive=True, group="grade")
    def grade_answer(self, text: str) -> None:
        verdict = grade(self.exercise, text)
        self.app.call_from_thread(self.show_verdict, text, verdict)

    def show_verdict(self, text: str, verdict: Verdict) -> None:
        if not self.is_attached:
            return
        saved = True
        if verdict.counts_as_attempt:
            try:
                self.app.store.record_attempt(
                    self.exercise.id, text, verdict.status, message=verdict.message, feedback=verdict.feedback,
                    hints_used=self.hints_shown, seconds_taken=round(time.monotonic() - self.started, 1),
                    now=self.app.clock())
            except StoreError as exc:
                saved = False
                self.notify(str(exc), title="Not saved", severity="error")
            self.submitted_text = text
            self.started = time.monotonic()
        self.query_one("#verdict", VerdictPanel).show(verdict, saved=saved)
        if self.style == "lines" and isinstance(verdict.value, int):
            self.query_one("#listing", CodeListing).mark(verdict.value, "✓" if verdict.status == "correct" else "✗")
            if verdict.status == "correct":
                self.show_fix()
        if self.style == "order" and isinstance(verdict.value, list):
            order = self.query_one("#order", OrderList)
            order.wrong_position = first_wrong(verdict.value, self.exercise.order)
            order.refresh()
        if self.style == "steps" and verdict.rows:
            self.query_one("#steps", StepTable).mark(verdict.rows)
        if self.style == "editor":
            self.query_one("#test-results", Static).update(Text("\n".join(row.message for row in verdict.rows)))
        if verdict.status == "correct":
            self.reveal_explanation(record=False)
            self.set_focus(None)
        elif verdict.status == "incorrect" and self.style == "editor":
            self.call_after_refresh(self.query_one("#exercise", VerticalScroll).scroll_to_widget,
                                    self.query_one("#verdict"), animate=False)
        self.refresh_state()
        self.refresh_bindings()

    # --- actions --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in LETTER_ACTIONS and isinstance(self.focused, (Input, TextArea)):
            return False  # while typing, letters are answer text; Escape leaves the box first
        if action == "run_tests":
            return self.style == "editor"
        if action == "allow_unsandboxed":
            return self.sandbox is not None and self.sandbox.mode == "refused" and self.sandbox.can_allow
        if action == "hint" and self.hints_shown >= len(self.exercise.hints):
            return None
        return True

    def action_leave(self) -> None:
        if isinstance(self.focused, TextArea):
            self.set_focus(None)  # the editor keeps Tab for indenting; Escape gives the keyboard back
            self.refresh_bindings()
            return
        self.save_draft()
        self.app.pop_screen()

    def action_run_tests(self) -> None:
        if self.style == "editor":
            self.query_one("#test-results", Static).update("Running the tests…")
            self.submit(self.answer_text())

    def action_allow_unsandboxed(self) -> None:
        allow_unsandboxed()
        self.show_sandbox(sandbox_status())

    def action_focus_answer(self) -> None:
        if self.style == "box":
            self.query_one("#answer", Input).focus()
        elif self.style == "choice":
            self.query_one("#choices", OptionList).focus()
        elif self.style == "lines":
            self.query_one("#listing", CodeListing).focus()
        elif self.style == "order":
            self.query_one("#order", OrderList).focus()
        elif self.style == "steps":
            table = self.query_one("#steps", StepTable)
            (table.first_empty() or table.inputs[0]).focus()
        elif self.style == "editor":
            self.query_one("#editor", TextArea).focus()

    def show_fix(self) -> None:
        exercise = self.exercise
        fixed = highlighted_lines(exercise.fixed_line, exercise.language)[0]
        self.query_one("#fix", Static).update(Text.assemble(
            ("The fix, line ", "bold"), (str(exercise.buggy_line), "bold"), (":  ", "bold"), fixed))

    def action_hint(self) -> None:
        hints = self.exercise.hints
        if self.hints_shown >= len(hints):
            self.notify("No more hints: open the explanation with x.")
            return
        self.hints_shown += 1
        text = Text()
        for number, hint in enumerate(hints[: self.hints_shown], 1):
            text.append(f"Hint {number} of {len(hints)}: ", "bold")
            text.append(hint + ("\n" if number < self.hints_shown else ""))
        hints_widget = self.query_one("#hints", Static)
        hints_widget.update(text)
        hints_widget.display = True
        self.refresh_bindings()

    def action_explain(self) -> None:
        self.reveal_explanation(record=True)

    def reveal_explanation(self, *, record: bool) -> None:
        explanation = self.query_one("#explanation", Markdown)
        if record and not self.explanation_shown:
            state = self.app.store.exercise_states().get(self.exercise.id)
            if not (state and state.solved):
                try:
                    self.app.store.record_reveal(self.exercise.id, now=self.app.clock())
                except StoreError as exc:
                    self.notify(str(exc), title="Not saved", severity="warning")
        self.explanation_shown = True
        explanation.display = True
        self.call_after_refresh(self.query_one("#exercise", VerticalScroll).scroll_to_widget, explanation,
                                animate=False)

    def action_next(self) -> None:
        self._go(1)

    def action_previous(self) -> None:
        self._go(-1)

    def _go(self, step: int) -> None:
        target = self.app.next_exercise(self.exercise, step)
        if target is None:
            self.notify("That was the last exercise in the book." if step > 0 else "This is the first exercise.")
            return
        self.save_draft()
        self.app.open_exercise(target, replace=True)

    # --- drafts ---------------------------------------------------------------------------------

    def save_draft(self) -> None:
        store = self.app.store
        if store.read_only or self.style not in ("box", "steps", "editor"):
            return
        text = self.answer_text()
        if text == self.submitted_text:
            return
        try:
            store.save_draft(self.exercise.id, text if text.strip() else "")
        except StoreError:
            pass  # a draft is a convenience; the store has already said it is read-only

    def on_input_changed(self, event: Input.Changed | TextArea.Changed) -> None:
        """Keep the draft as it is typed (debounced), so even a killed terminal loses little."""
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(DRAFT_DELAY, self.save_draft)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.on_input_changed(event)

    def on_screen_suspend(self) -> None:
        self.save_draft()

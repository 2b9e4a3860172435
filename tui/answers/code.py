"""A Python function written in an editor and run against the exercise's tests with Ctrl+R.

Before any code runs, the panel says if it cannot run in a sandbox here, and how to allow it anyway.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static, TextArea

from grader.model import Build, Exercise
from grader.sandbox import SandboxStatus, allow_unsandboxed, sandbox_status
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel


SIGNATURE_WIDTH = 70   # a longer signature is written one parameter per line, as Python allows


def signature_text(signature: str) -> Text:
    """`def f(a: int, b: float) -> float`, broken after the parenthesis and at commas when too long for an
    80-column screen, so it never wraps in the middle of a parameter."""
    head, paren, rest = signature.partition("(")
    params, close, tail = rest.rpartition(")")
    if len("def " + signature) <= SIGNATURE_WIDTH or not paren or not close:
        return Text.assemble(("def ", "bold"), signature)
    lines = "".join(f"\n    {p.strip()}," for p in _top_level_split(params))
    return Text.assemble(("def ", "bold"), f"{head}({lines}\n){tail}")


def _top_level_split(params: str) -> list[str]:
    """The parameters, split at the commas outside brackets (`x: dict[str, int]` stays whole)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        depth += (ch in "[(") - (ch in "])")
        if ch == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    return [p for p in parts + [params[start:]] if p.strip()]


class CodePanel(AnswerPanel):
    DEFAULT_CSS = """
    CodePanel #sandbox-notice { height: auto; margin-top: 1; color: $warning; }
    CodePanel #signature { margin: 1 0 0 0; }
    CodePanel #editor { height: 14; margin: 0; }
    """
    BINDINGS = [
        Binding("ctrl+r", "run_tests", "Run", priority=True),
        Binding("u", "allow_unsandboxed", "Run unsandboxed"),
        # The editor keeps Tab for indenting and would pass Escape on to the next widget: take it first.
        Binding("escape", "leave_editor", "Back", priority=True),
        Binding("o", "older_code", "Older"),
    ]
    keeps_draft = True
    keeps_sent = True
    sandbox: SandboxStatus | None = None
    runs_back = 0   # how many runs back the editor was last loaded from (o), 0 while it is the learner's own

    @classmethod
    def answers(cls, exercise: Exercise) -> bool:
        return isinstance(exercise, Build)

    def compose(self) -> ComposeResult:
        yield Static(id="sandbox-notice")
        yield Static(signature_text(self.exercise.signature), id="signature")
        yield TextArea.code_editor(self.draft or self.exercise.starter, language="python", id="editor",
                                   theme="monokai", soft_wrap=True)

    def on_mount(self) -> None:
        self.query_one("#sandbox-notice").display = False
        self.check_sandbox()

    @work(thread=True, exclusive=True, group="sandbox")
    def check_sandbox(self) -> None:
        """The first look for a sandbox starts a process, so it runs off the UI thread."""
        status = sandbox_status()
        self.app.call_from_thread(self.show_sandbox, status)

    def show_sandbox(self, status: SandboxStatus) -> None:
        if not self.is_attached:
            return
        self.sandbox = status
        notice = self.query_one("#sandbox-notice", Static)
        notice.update(Text(status.notice("To allow that for this session, press Escape and then u.")))
        notice.display = status.mode != "sandboxed"
        self.screen.refresh_bindings()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        editing = isinstance(self.screen.focused, TextArea)
        if action == "allow_unsandboxed":
            return self.sandbox is not None and self.sandbox.mode == "refused" and self.sandbox.can_allow and not editing
        if action == "leave_editor":
            return editing
        if action == "older_code":
            return not editing and self.shows_history and bool(self.runs())
        return True

    def runs(self) -> list[str]:
        """The code of every run stored for this exercise, oldest first."""
        return [attempt.answer for attempt in self.app.store.attempts(self.exercise.id)]

    def action_older_code(self) -> None:
        """Load the code of an earlier run into the editor: each press goes one run further back, then
        round again. It is an edit like any other: Ctrl+Z in the editor brings back what it held."""
        runs = self.runs()
        self.runs_back = self.runs_back % len(runs) + 1
        editor = self.query_one("#editor", TextArea)
        editor.replace(runs[-self.runs_back], editor.document.start, editor.document.end)
        attempt = self.app.store.attempts(self.exercise.id)[-self.runs_back]
        mark = "✓" if attempt.status == "correct" else "✗"
        self.notify(f"Run {len(runs) - self.runs_back + 1} of {len(runs)} ({mark} {attempt.message}) is in the "
                    "editor; o goes further back.", title="Older run", timeout=5)

    def action_leave_editor(self) -> None:
        """Give the keyboard back: single letters are commands again, and Escape next leaves the screen."""
        self.focus(scroll_visible=False)
        self.screen.refresh_bindings()

    def action_allow_unsandboxed(self) -> None:
        allow_unsandboxed()
        self.show_sandbox(sandbox_status())

    def answer_text(self) -> str:
        return self.query_one("#editor", TextArea).text

    def describe(self, answer: str, previous: str | None, seed: int = 0) -> str:
        """The first line that changed since the attempt before (or since the starter code)."""
        before = (previous if previous is not None else self.exercise.starter).splitlines()
        for number, line in enumerate(answer.splitlines(), 1):
            if number > len(before) or line != before[number - 1]:
                return f"line {number}: {line.strip()}"
        return "the same code as before" if previous is not None else "the starter code"

    def focus_answer(self, scroll_visible: bool = True) -> None:
        self.query_one("#editor", TextArea).focus(scroll_visible=scroll_visible)

    def action_run_tests(self) -> None:
        self.post_message(self.Submitted(self.answer_text(), pending="Running the tests…"))

    def show_verdict(self, verdict: Verdict) -> str:
        return "\n".join(row.message for row in verdict.rows)

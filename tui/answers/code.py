"""A Python function written in an editor and run against the exercise's tests with Ctrl+R, or written in
the learner's own editor (Ctrl+O), whose file becomes the code and is run at once.

Before any code runs, the panel says if it cannot run in a sandbox here, and how to allow it anyway.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static, TextArea
from textual.widgets.text_area import Selection

from grader.kinds.build import Build
from grader.sandbox.runner import SandboxStatus, allow_unsandboxed, prepare_runs, sandbox_status
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel
from tui.answers.own_editor import run_editor
from tui.progress.editor import editor_command
from tui.progress.store import Attempt
from tui.progress.work_files import (
    Opened,
    WorkFileError,
    open_work_file,
    read_work_file,
    work_file,
    work_folder,
    write_work_file,
)
from tui.widgets.keys_in_order import OwnKeysInOrder
from tui.widgets.page import Page
from tui.widgets.settling_cursor import SettlingTextArea

SIGNATURE_WIDTH = 70   # a longer signature is written one parameter per line, as Python allows
PLACEHOLDERS = ("raise NotImplementedError", "...", "pass")   # a starter's stand-in for the body


def body_start(code: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where the editor's cursor starts, as (anchor, cursor) locations: on the first placeholder of the
    first function's body (`raise NotImplementedError`, `...`, `pass`, selected, so typing replaces it) or
    its first TODO line, else at the indent of the first line after the `def` line (a signature may run
    over several lines); with no `def`, at the start. Never inside the signature."""
    lines = code.splitlines()
    start = next((row for row, line in enumerate(lines) if line.lstrip().startswith("def ")), None)
    if start is None:
        return (0, 0), (0, 0)
    row, depth = start, 0
    for row in range(start, len(lines)):   # the line that ends the signature: brackets closed, then ':'
        depth += sum(lines[row].count(ch) for ch in "([{") - sum(lines[row].count(ch) for ch in ")]}")
        if depth <= 0 and lines[row].rstrip().endswith(":"):
            break
    body = range(row + 1, len(lines))
    for at in body:
        text = lines[at].strip()
        indent = len(lines[at]) - len(lines[at].lstrip())
        if text in PLACEHOLDERS:
            return (at, indent), (at, indent + len(text))
        if "TODO" in text:
            return (at, indent), (at, indent)
    first = next((at for at in body if lines[at].strip()), None)
    if first is None:
        return (row, len(lines[row])), (row, len(lines[row]))
    indent = len(lines[first]) - len(lines[first].lstrip())
    return (first, indent), (first, indent)


def last_change(starter: str, code: str) -> tuple[int, int] | None:
    """The end of the last line of `code` the learner wrote or changed (not in `starter`), where their draft
    reopens; None when every line is the starter's (only lines were deleted, or nothing was changed)."""
    lines = code.splitlines()
    changed = [j2 for tag, _i1, _i2, _j1, j2 in SequenceMatcher(None, starter.splitlines(), lines,
                                                                 autojunk=False).get_opcodes()
               if tag in ("replace", "insert")]
    if not changed:
        return None
    row = changed[-1] - 1
    return row, len(lines[row])


class CodeEditor(OwnKeysInOrder, SettlingTextArea):
    """The editor, whose line being typed on is always on screen: the page keys scroll the page (the
    exercise screen takes them first), and a key typed or a cursor moved brings the line back into view.
    It moves with the arrows, Ctrl+←/→ by word, Ctrl+A and Ctrl+E to a line's start and end, and
    Ctrl+Home and Ctrl+End to the code's start and end."""

    BINDINGS = [
        # The footer says how to move now that Home and End scroll the page; `?` (from the page) says the rest.
        Binding("ctrl+home", "code_edge('start')", "Code start/end", key_display="^home/^end"),
        Binding("ctrl+end", "code_edge('end')", "Code end", show=False),
    ]

    def action_cursor_line_end(self, select: bool = False) -> None:
        """Ctrl+E: the end of the line, not of the screen row it wraps onto (the editor wraps long lines)."""
        row = self.cursor_location[0]
        self.move_cursor((row, len(self.document[row])), select=select)

    def action_code_edge(self, edge: str) -> None:
        self.move_cursor(self.document.start if edge == "start" else self.document.end)

    _keys_pressed = False   # the cursor placed on arrival moves no page: the page opens at its top

    def on_key(self) -> None:
        self._keys_pressed = True

    def on_text_area_selection_changed(self, event: TextArea.SelectionChanged) -> None:
        if self._keys_pressed:
            self.call_after_refresh(self._keep_line_shown)

    def _keep_line_shown(self) -> None:
        page = next((node for node in self.ancestors if isinstance(node, Page)), None)
        if page is not None and self.has_focus:
            page.keep_in_view(self)


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


class CodePanel(AnswerPanel[Build]):
    way = "code"
    DEFAULT_CSS = """
    CodePanel #sandbox-notice { height: auto; margin-top: 1; color: $warning; }
    CodePanel #signature { margin: 1 0 0 0; }
    CodePanel #editor { height: 14; margin: 0; }
    """
    BINDINGS = [
        Binding("ctrl+r", "run_tests", "Run", priority=True),
        # Ctrl+E is the editor's end of line; Ctrl+O (open) is free in the editor and on the page. It works on both,
        # and is shown while the editor has the keyboard: the page's footer is full at 80 columns.
        Binding("ctrl+o", "own_editor(True)", "Your editor", priority=True),
        Binding("ctrl+o", "own_editor(False)", "Your editor", show=False, priority=True),   # `?` lists it
        Binding("u", "allow_unsandboxed", "Run unsandboxed"),
        # The editor keeps Tab for indenting and would pass Escape on to the next widget: take it first.
        Binding("escape", "leave_editor", "Leave editor", priority=True),
        Binding("o", "older_code", "Older"),
    ]
    keeps_draft = True
    keeps_sent = True
    sandbox: SandboxStatus | None = None
    runs_back = 0   # how many runs back the editor was last loaded from (o), 0 while it is the learner's own

    def compose(self) -> ComposeResult:
        yield Static(id="sandbox-notice")
        yield Static(signature_text(self.exercise.signature), id="signature")
        yield CodeEditor.code_editor(self.draft or self.exercise.starter, language="python", id="editor",
                                     theme="monokai", soft_wrap=True)

    def on_mount(self) -> None:
        self.query_one("#sandbox-notice").display = False
        self.call_after_refresh(self.place_cursor)
        self.check_sandbox()

    def place_cursor(self) -> None:
        """In the body, once the editor has its width (placed before, it scrolled sideways to the cursor); in a
        restored draft, after the learner's last change, where they were working."""
        editor = self.query_one("#editor", CodeEditor)
        if editor.selection == Selection():   # not moved yet by the learner
            mine = last_change(self.exercise.starter, editor.text) if self.draft else None
            editor.selection = Selection.cursor(mine) if mine else Selection(*body_start(editor.text))

    @work(thread=True, exclusive=True, group="sandbox")
    def check_sandbox(self) -> None:
        """The first look for a sandbox starts a process, so it runs off the UI thread; where there is one, the
        template that forks this learner's runs starts now, so that their first run finds it ready."""
        status = sandbox_status()
        prepare_runs()
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
            refused = self.sandbox is not None and self.sandbox.mode == "refused" and self.sandbox.can_allow
            return refused and not editing
        if action == "leave_editor":
            return editing
        if action == "own_editor":
            return parameters == (editing,)
        if action == "older_code":
            return not editing and self.shows_history and bool(self.runs())
        return True

    def runs(self) -> list[str]:
        """The code of every run stored for this exercise, oldest first."""
        return [attempt.answer for attempt in self.stored_runs()]

    def stored_runs(self) -> list[Attempt]:
        return self.session.store.attempts(self.exercise.id)

    def action_older_code(self) -> None:
        """Load the code of an earlier run into the editor: each press goes one run further back, then
        round again. It is an edit like any other: Ctrl+Z in the editor brings back what it held."""
        runs = self.runs()
        self.runs_back = self.runs_back % len(runs) + 1
        editor = self.query_one("#editor", TextArea)
        editor.replace(runs[-self.runs_back], editor.document.start, editor.document.end)
        attempt = self.stored_runs()[-self.runs_back]
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

    def action_own_editor(self, _shown: bool) -> None:
        """The code in the learner's own editor: written to their work folder (unless the file there holds code
        edited outside a run, which is taken instead: work_files.open_work_file), the editor run with the
        terminal handed over, and the file read back as the code, which is run as Ctrl+R runs it. Nothing
        changed, nothing run; anything that fails leaves the code here as it was and says why."""
        if self.app.is_web:
            self.notify("In a browser, ringbook cannot hand the terminal to an editor: write the code here, or run "
                        f"`ringbook work {self.exercise.id}` in a terminal beside your editor.", title="Your editor",
                        severity="warning", timeout=10)
            return
        command, source = editor_command()
        if not command:
            self.notify(source, title="Your editor", severity="warning", timeout=15)
            return
        before, known = self.answer_text(), {self.exercise.starter, *self.runs()}
        try:
            path = work_file(work_folder(self.session.store.path), self.exercise.id)
            opened = open_work_file(path, before, known)
            self.say_opened(path, opened)
            problem = run_editor(self.app, command, path)
            if problem:   # what a failed editor left is not taken next time: the file is put back, that kept
                left = write_work_file(path, opened.code, known)
                problem += f"; what it left in {path.name} is kept as {left.name}" if left is not None else ""
            after = read_work_file(path) if not problem else before
        except WorkFileError as exc:
            problem = str(exc)
        if problem:
            self.notify(f"{problem}. The code here is unchanged.", title="Your editor", severity="error", timeout=15)
            return
        if after == before:
            self.notify(f"{path.name} was not changed, so nothing was run.", title="Your editor")
            return
        editor = self.query_one("#editor", TextArea)
        editor.replace(after, editor.document.start, editor.document.end)   # an edit: Ctrl+Z brings back the old
        self.action_run_tests()

    def say_opened(self, path: Path, opened: Opened) -> None:
        """Code edited in the work file outside a run is the learner's newest: taken, as `ringbook work` takes
        it, and said, with where any code it displaced is kept."""
        kept = f"kept as {opened.kept.name}" if opened.kept is not None else ""
        if opened.taken:
            self.notify(f"{path.name} changed since the last run: taking it as your code"
                        + (f"; the code here before it is {kept}" if kept else "") + ".", title="Your editor",
                        timeout=15)
        elif kept:
            self.notify(f"{path.name} held other code: it is {kept}.", title="Your editor", timeout=15)

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


PANEL = CodePanel

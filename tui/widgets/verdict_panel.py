"""The verdict: what the grader said, shown the way a teacher would mark it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from grader.verdict import MARKS, NOT_COUNTED, Verdict


class VerdictPanel(Static):
    """Empty until the first answer; then the status, the message, and any mistake feedback."""

    DEFAULT_CSS = """
    VerdictPanel {
        height: auto;
        margin: 1 0 0 0;
        padding: 0 1;
        display: none;
    }
    VerdictPanel.verdict-correct { border-left: outer $success; background: $success 15%; display: block; }
    VerdictPanel.verdict-incorrect { border-left: outer $error; background: $error 15%; display: block; }
    VerdictPanel.verdict-invalid { border-left: outer $warning; background: $warning 15%; display: block; }
    """

    def show(self, verdict: Verdict, *, not_saved: str = "") -> None:
        """`not_saved`: why the answer could not be kept, said under the verdict (a notice goes away)."""
        text = Text.assemble((f"{MARKS[verdict.status]} ", "bold"), (verdict.message, "bold"))
        if not verdict.counts_as_attempt:
            text.append(f"  {NOT_COUNTED}", "dim")
        if verdict.feedback:
            text.append("\n" + verdict.feedback)
        if not_saved:
            text.append(f"\n{not_saved}", "italic")
        self.set_classes(f"verdict-{verdict.status}")
        self.update(text)

    def clear(self) -> None:
        self.set_classes("")
        self.update("")

"""The verdict: what the grader said, shown the way a teacher would mark it."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Static

from grader.verdict import MARKS, NOT_COUNTED, Verdict


class VerdictPanel(Static):
    """Empty until the first answer; then the status, the message, and any mistake feedback."""

    # The page's layout sizes the panel to its text. Textual's virtual_size asks for a layout whenever it
    # changes (scrolling containers need one), so a verdict that changed the panel's height asked for a second
    # reflow of the whole page right after the first. A panel that does not scroll needs no second.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

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

    _unpadded: Text | None = None   # drawn in rows the panel had before, blank ones under it, until `settle`

    def show(self, verdict: Verdict, *, not_saved: str = "", in_place: bool = False) -> None:
        """`not_saved`: why the answer could not be kept, said under the verdict (a notice goes away).

        `in_place`: a verdict whose rest follows (the explanation, the list of attempts: the exercise screen's
        after_verdict, which calls `settle`) is drawn in the rows the panel has, if it fits them, with blank
        ones under it. The page is then only repainted where the panel is: laid out again, it was reflowed
        whole, and a class submitting together waited for one another's reflows."""
        text = Text.assemble((f"{MARKS[verdict.status]} ", "bold"), (verdict.message, "bold"))
        if not verdict.counts_as_attempt:
            text.append(f"  {NOT_COUNTED}", "dim")
        if verdict.feedback:
            text.append("\n" + verdict.feedback)
        if not_saved:
            text.append(f"\n{not_saved}", "italic")
        rows = self.content_size.height if in_place and self.display else 0
        self.set_classes(f"verdict-{verdict.status}")
        self._unpadded = None
        if rows:
            self.update(text, layout=False)
            spare = rows - self._rows_taken()
            if spare > 0:
                self.update(text + Text("\n" * spare), layout=False)
            if spare >= 0 and self._rows_taken() == rows:
                self._unpadded = text if spare > 0 else None
                return
        self.update(text)

    def settle(self) -> None:
        """The verdict at its own height, now that the page is laid out again anyway."""
        text, self._unpadded = self._unpadded, None
        if text is not None:
            self.update(text)

    def _rows_taken(self) -> int:
        """The rows the panel's text takes at its width."""
        return self.get_content_height(self.size, self.size, self.content_size.width)

    def clear(self) -> None:
        self.set_classes("")
        self._unpadded = None
        self.update("")

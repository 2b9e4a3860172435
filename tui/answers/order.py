"""Items put in order by dragging or by keyboard; the first misplaced item is marked when graded."""

from __future__ import annotations

from textual.app import ComposeResult

from grader.kinds.design import Design, first_wrong
from grader.kinds.registry import label
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel
from tui.widgets.order_list import OrderList


class OrderPanel(AnswerPanel[Design]):
    way = "order"
    DEFAULT_CSS = """
    OrderPanel #order { margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield OrderList(self.exercise.presented, id="order")

    def describe(self, answer: str, previous: str | None, seed: int = 0) -> str:
        return label(self.exercise, answer)

    def focus_answer(self, scroll_visible: bool = True) -> None:
        self.query_one("#order", OrderList).focus(scroll_visible=scroll_visible)

    def on_order_list_submitted(self, event: OrderList.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(", ".join(event.order)))

    def show_verdict(self, verdict: Verdict) -> str:
        if isinstance(verdict.value, list):
            order = self.query_one("#order", OrderList)
            order.wrong_position = first_wrong(verdict.value, self.exercise.order)
            order.refresh()
        return ""


PANEL = OrderPanel

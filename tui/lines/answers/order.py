"""Items put in order: by typing the whole order (`3 1 4 2`) as the items are numbered now, or by moving one at
a time (`move 3 up`, `move 3 down`, `move 3 to 1`) and then `send`."""

from __future__ import annotations

import re

from grader.kinds.design import Design, first_wrong
from grader.verdict import Verdict
from tui.lines.answers.base import Command, Way, command_in
from tui.lines.context import Context

_MOVE = re.compile(r"^move\s+(\d+)\s+(up|down|to\s+(\d+))$", re.IGNORECASE)
_NUMBERS = re.compile(r"^[\d\s,]+$")


class OrderWay(Way):
    name = "order"

    def __init__(self) -> None:
        self.orders: dict[str, list[str]] = {}   # per exercise: the item ids as they stand now

    def current(self, exercise: Design) -> list[str]:
        return self.orders.setdefault(exercise.id, [item.id for item in exercise.presented])

    def show(self, ctx: Context, exercise: Design) -> None:
        self.orders.pop(exercise.id, None)
        self.list_items(ctx, exercise)
        super().show(ctx, exercise)

    def list_items(self, ctx: Context, exercise: Design) -> None:
        texts = {item.id: item.text for item in exercise.items}
        for number, item_id in enumerate(self.current(exercise), 1):
            ctx.console.say(str(number), texts[item_id])

    def how_to(self, exercise: Design) -> str:
        return ("type the item numbers in the right order, like 3 1 2; or move one: move 3 up, move 3 down, "
                "move 3 to 1, then send. list reads the items again.")

    def read(self, ctx: Context, exercise: Design, label: str, draft_key: str) -> str | Command:
        while True:
            reply = ctx.console.ask(label, "", self.help(exercise))
            command = command_in(reply)
            if command is not None:
                return command
            order = self.current(exercise)
            if reply.lower() == "list":
                self.list_items(ctx, exercise)
            elif reply.lower() == "send":
                return ", ".join(order)
            elif (move := _MOVE.match(reply)) is not None:
                self.move(ctx, exercise, int(move.group(1)), move.group(2).lower(), move.group(3))
            elif _NUMBERS.match(reply):
                numbers = [int(n) for n in re.findall(r"\d+", reply)]
                if all(1 <= n <= len(order) for n in numbers):
                    return ", ".join(order[n - 1] for n in numbers)
                ctx.console.say("sorry", f"the items are numbered 1 to {len(order)}")
            else:
                return reply   # item ids or texts: the grader reads them, or says what it cannot

    def move(self, ctx: Context, exercise: Design, number: int, how: str, to: str | None) -> None:
        order = self.current(exercise)
        if not 1 <= number <= len(order):
            ctx.console.say("sorry", f"the items are numbered 1 to {len(order)}")
            return
        target = number - 1 if how == "up" else number + 1 if how == "down" else int(to or number)
        target = min(max(target, 1), len(order))
        order.insert(target - 1, order.pop(number - 1))
        ctx.console.say("moved", f"item {number} is now number {target}")
        self.list_items(ctx, exercise)

    def after(self, ctx: Context, exercise: Design, verdict: Verdict) -> None:
        """Moves and numbers go on from the order sent. When that order is not the one last listed, the
        items are listed again: typing `3 1 2` renumbers them, and a learner who typed an order from the
        old numbers would otherwise send items they never meant."""
        if isinstance(verdict.value, list):
            listed = self.current(exercise)
            self.orders[exercise.id] = list(verdict.value)
            wrong = first_wrong(verdict.value, exercise.order)
            if wrong is not None:
                ctx.console.say("first out of place", f"number {wrong + 1}")
                if listed != verdict.value:
                    ctx.console.say("items", "numbered as you sent them")
                    self.list_items(ctx, exercise)


WAY = OrderWay()

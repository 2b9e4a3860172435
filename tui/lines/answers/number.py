"""A number or a formula, typed on one line."""

from __future__ import annotations

from grader.exercise import NumericAnswer
from grader.maths.numeric import BOX_EXAMPLES
from tui.lines.answers.base import Way


class NumberWay(Way):
    name = "number"

    def how_to(self, exercise: NumericAnswer) -> str:
        if exercise.is_formula:
            return f"type a formula in {', '.join(exercise.symbols)}, for example 2*M*(N-1)/N."
        unit = f" in {exercise.unit}" if exercise.unit else ""
        return f"type a number{unit}, for example {' or '.join(BOX_EXAMPLES)}."


WAY = NumberWay()

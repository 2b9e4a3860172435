"""One answer panel per way of answering: what the learner types, picks, clicks or drags.

Each panel owns its widgets, the text it submits, how it shows a verdict, its draft and its keys; the
exercise screen around it knows none of that. Adding an exercise kind means a judge in grader/kinds/, a
panel here (added to PANELS), and the schema.
"""

from __future__ import annotations

from grader.book.model import Exercise
from tui.answers.base import AnswerPanel
from tui.answers.choice import ChoicePanel
from tui.answers.code import CodePanel
from tui.answers.lines import LinesPanel
from tui.answers.number import NumberPanel
from tui.answers.order import OrderPanel
from tui.answers.steps import StepsPanel

PANELS: tuple[type[AnswerPanel], ...] = (ChoicePanel, StepsPanel, LinesPanel, OrderPanel, CodePanel, NumberPanel)


def panel_for(exercise: Exercise, draft: str) -> AnswerPanel:
    """The first panel that answers this exercise (NumberPanel takes any derive or trace left)."""
    panel = next(panel for panel in PANELS if panel.answers(exercise))
    return panel(exercise, draft, id="answer-panel")

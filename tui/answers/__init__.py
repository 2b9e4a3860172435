"""One answer panel per way of answering: what the learner types, picks, clicks or drags.

Each panel owns its widgets, the text it submits, how it shows a verdict, its draft and its keys; the
exercise screen around it knows none of that. A kind (grader/kinds) declares the ways its exercises are
answered; PANELS has a panel for each way, by name. A way with no panel fails when this module is first
imported, naming the kind, not when a learner opens an exercise.
"""

from __future__ import annotations

from typing import Any

from grader.exercise import Exercise
from grader.kinds.registry import KINDS, KindError, kind_of
from tui.answers.base import AnswerPanel
from tui.answers.choice import ChoicePanel
from tui.answers.code import CodePanel
from tui.answers.lines import LinesPanel
from tui.answers.number import NumberPanel
from tui.answers.order import OrderPanel
from tui.answers.steps import StepsPanel

PANELS: dict[str, type[AnswerPanel[Any]]] = {
    panel.way: panel for panel in (NumberPanel, ChoicePanel, StepsPanel, LinesPanel, OrderPanel, CodePanel)}


def register_panel(panel: type[AnswerPanel[Any]]) -> None:
    """Add the panel of a way of answering (a kind defined elsewhere, such as a test's)."""
    if panel.way in PANELS:
        raise KindError(f"two answer panels for the way {panel.way!r}")
    PANELS[panel.way] = panel


def unregister_panel(way: str) -> None:
    PANELS.pop(way, None)


def missing_panels() -> list[str]:
    """`kind: way` for each way of answering a registered kind declares with no panel."""
    return [f"{kind.name}: {way}" for kind in KINDS.values() for way in kind.ways if way not in PANELS]


def check_panels() -> None:
    missing = missing_panels()
    if missing:
        raise KindError(f"no answer panel for {', '.join(missing)}: add one to tui/answers (PANELS)")


def panel_for(exercise: Exercise, draft: str) -> AnswerPanel[Any]:
    """The panel of the way this exercise is answered."""
    way = kind_of(exercise).way(exercise)
    if way not in PANELS:
        raise KindError(f"no answer panel for {exercise.kind}: {way}: add one to tui/answers (PANELS)")
    return PANELS[way](exercise, draft, id="answer-panel")


check_panels()

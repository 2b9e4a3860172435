"""One way of answering per module, as in tui/answers but in lines: what the learner types for each way a kind
declares (grader.kinds.registry.Kind.ways)."""

from __future__ import annotations

from grader.exercise import Exercise
from grader.kinds.registry import KindError, kind_of
from tui.lines.answers.base import Way
from tui.lines.answers.choice import ChoiceWay
from tui.lines.answers.code import CodeWay
from tui.lines.answers.lines import LinesWay
from tui.lines.answers.number import NumberWay
from tui.lines.answers.order import OrderWay
from tui.lines.answers.steps import StepsWay

WAYS: dict[str, Way] = {way.name: way for way in (NumberWay(), ChoiceWay(), StepsWay(), LinesWay(), OrderWay(),
                                                  CodeWay())}


def way_for(exercise: Exercise) -> Way:
    name = kind_of(exercise).way(exercise)
    if name not in WAYS:
        raise KindError(f"no plain-line way of answering for {exercise.kind}: {name}: add one to tui/lines/answers")
    return WAYS[name]

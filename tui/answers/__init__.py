"""One answer panel per way of answering: what the learner types, picks, clicks or drags.

Each panel owns its widgets, the text it submits, how it shows a verdict, its draft and its keys; the
exercise screen around it knows none of that. A kind (grader/kinds) declares the ways its exercises are
answered; the panel of a way is `PANEL` in tui/answers/<way>.py, found by scanning this folder
(tui.kind_parts). A way with no panel fails when this module is first imported, naming the file to add, not
when a learner opens an exercise.
"""

from __future__ import annotations

from typing import Any

from grader.exercise import Exercise
from grader.kinds.registry import KindError, kind_of
from tui.answers.base import AnswerPanel
from tui.kind_parts import APP, discover

PANELS: dict[str, type[AnswerPanel[Any]]] = discover(APP, "way")


def panel_for(exercise: Exercise, draft: str) -> AnswerPanel[Any]:
    """The panel of the way this exercise is answered."""
    kind = kind_of(exercise)
    way = kind.way(exercise)
    if way not in PANELS:   # a kind registered after this module was imported (a test's)
        raise KindError(APP.missing(kind.name, way))
    return PANELS[way](exercise, draft, id="answer-panel")

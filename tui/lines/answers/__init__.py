"""One way of answering per module, as in tui/answers but in lines: what the learner types for each way a kind
declares (grader.kinds.registry.Kind.ways). The way is `WAY` in tui/lines/answers/<way>.py, found by scanning
this folder (tui.kind_parts); a way with no module fails when this package is first imported, naming the file."""

from __future__ import annotations

from grader.exercise import Exercise
from grader.kinds.registry import KindError, kind_of
from tui.kind_parts import LINES, discover
from tui.lines.answers.base import Way

WAYS: dict[str, Way] = discover(LINES, "name")


def way_for(exercise: Exercise) -> Way:
    kind = kind_of(exercise)
    name = kind.way(exercise)
    if name not in WAYS:   # a kind registered after this module was imported (a test's)
        raise KindError(LINES.missing(kind.name, name))
    return WAYS[name]

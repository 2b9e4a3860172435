"""A toy exercise kind, "pairs" (match each left-hand item to its right-hand one), written outside grader/:
its dataclass, reading, checks, judge, label and expected time in one module with its schema fragment and
example, answered the way "links", which no face has. tests/grader/test_toy_kind.py registers it for one
test at a time: the engine takes it whole, and what start-up says of its missing parts names their files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grader.exercise import Exercise, Where
from grader.kinds.registry import Findings, Hardware, Kind
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_PAIR = re.compile(r"^\s*([a-z][a-z0-9-]*)\s*=\s*([a-z][a-z0-9-]*)\s*$")
_IDS = {"type": "object", "minProperties": 2, "propertyNames": {"pattern": "^[a-z][a-z0-9-]*$"},
        "additionalProperties": {"type": "string", "minLength": 1}}
SCHEMA: dict[str, Any] = {
    "description": "Match each left-hand item to its right-hand one.",
    "required": ["left", "right", "pairs"],
    "additionalProperties": False,
    "properties": {**{name: True for name in ("id", "title", "kind", "prompt", "hints", "explanation", "tolerance")},
                   "left": _IDS, "right": _IDS,
                   "pairs": {"type": "object", "additionalProperties": {"type": "string"}}},
}


@dataclass(kw_only=True, repr=False)
class Pairs(Exercise):
    kind: str = "pairs"
    left: dict[str, str] = field(default_factory=dict)    # id -> text
    right: dict[str, str] = field(default_factory=dict)   # id -> text
    pairs: dict[str, str] = field(default_factory=dict)   # left id -> right id


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Pairs:
    return Pairs(**common, left=dict(raw["left"]), right=dict(raw["right"]), pairs=dict(raw["pairs"]))


def problems(exercise: Pairs, where: Where) -> Findings:
    """A typo in a pair's ids would make the exercise unsolvable."""
    found: Findings = []
    if set(exercise.pairs) != set(exercise.left):
        found.append((where("pairs"), "pairs must give every left-hand id exactly once"))
    for left, right in exercise.pairs.items():
        if right not in exercise.right:
            found.append((where("pairs", left), f"pairs {left}: {right!r} is not a right-hand id "
                                                f"({', '.join(exercise.right)})"))
    return found


def read_answer(exercise: Pairs, text: str) -> dict[str, str] | str:
    given: dict[str, str] = {}
    for part in text.split(","):
        match = _PAIR.match(part)
        if not match or match.group(1) not in exercise.left or match.group(2) not in exercise.right:
            return f"Write each pair as left=right, separated by commas (not {part.strip()!r})."
        given[match.group(1)] = match.group(2)
    missing = [left for left in exercise.left if left not in given]
    return f"Pair every item; missing: {', '.join(missing)}." if missing else given


def judge(exercise: Pairs, text: str, deadline: Deadline) -> Verdict:
    given = read_answer(exercise, text)
    if isinstance(given, str):
        return invalid(given)
    right = sum(given[left] == exercise.pairs[left] for left in exercise.left)
    if right == len(exercise.left):
        return correct("Correct: every pair matches.", value=given)
    return incorrect(f"{right} of {len(exercise.left)} pairs match.", value=given, score=right / len(exercise.left))


def label(exercise: Pairs, answer: str) -> str:
    given = read_answer(exercise, answer)
    if isinstance(given, str):
        return " ".join(answer.split())
    return "; ".join(f"{exercise.left[left]} → {exercise.right[right]}" for left, right in given.items())


KIND = Kind(
    name="pairs", exercise=Pairs, read=read, problems=problems, warnings=lambda exercise, where: [], judge=judge,
    label=label, expected_seconds=60.0, ways=("links",), way=lambda exercise: "links", schema=SCHEMA,
    example="title: Pair them\nkind: pairs\n",
)

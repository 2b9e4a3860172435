"""Match: pair each item on the left with one option on the right (as PrairieLearn's pl-matching). The right
column may hold distractors that fit no item, and one option may fit more than one item. Both columns are
dealt afresh for each variant and review card: the left lettered a, b, c..., the right numbered 1, 2, 3...,
so an answer is typed `a2 b1 c4 d3`. A stored answer names ids (`left=right, ...`), so the class report and
the list of attempts read it without knowing the order it was answered in.

Partial credit is the share of pairs that are right; an author may name a wrong pairing with its own
feedback, as the other kinds name their foreseen mistakes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from grader.draws import fixed_shuffle
from grader.exercise import Exercise, Where
from grader.kinds.registry import COMMON_FIELDS, Figure, Findings, Hardware, Kind, no_findings
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

LETTERS = "abcdefgh"       # the left column: at most eight items
MAX_OPTIONS = 9            # the right column: one digit each, so a table row takes a single key
_BY_POSITION = re.compile(r"([a-z])\s*[-:=]?\s*([0-9])", re.IGNORECASE)
_BY_ID = re.compile(r"([a-z][a-z0-9_-]*)\s*=\s*([a-z][a-z0-9_-]*)", re.IGNORECASE)


@dataclass(repr=False)
class Side:
    """An item on the left or an option on the right."""

    id: str
    text: str


@dataclass(repr=False)
class WrongPair:
    """A wrong pairing an author foresaw, and what to say to whoever makes it."""

    left: str
    right: str
    feedback: str


@dataclass(kw_only=True, repr=False)
class Match(Exercise):
    """Pair each of `left` with one of `right` (`pairs`: left id -> right id)."""

    kind: str = "match"
    left: tuple[Side, ...]
    right: tuple[Side, ...]
    pairs: dict[str, str]
    mistakes: tuple[WrongPair, ...] = field(default=())

    @property
    def deals(self) -> bool:
        return True

    @cached_property
    def presented_left(self) -> tuple[Side, ...]:
        """The items as shown, lettered a, b, c...: dealt by the seed, never in the book's own order."""
        return fixed_shuffle(self.left, f"{self.deal_key}:left", avoid=tuple(side.id for side in self.left))

    @cached_property
    def presented_right(self) -> tuple[Side, ...]:
        """The options as shown, numbered 1, 2, 3...: dealt by the seed, apart from the items."""
        return fixed_shuffle(self.right, f"{self.deal_key}:right")

    def text_of(self, right: str) -> str:
        return next(side.text for side in self.right if side.id == right)

    def letter(self, left: str) -> str:
        return LETTERS[[side.id for side in self.presented_left].index(left)]

    def number(self, right: str) -> int:
        return [side.id for side in self.presented_right].index(right) + 1

    def positions(self, pairs: dict[str, str]) -> str:
        """Pairs as typed in this deal: `a2 b1 c4`, in the order of the letters."""
        return " ".join(f"{self.letter(left.id)}{self.number(pairs[left.id])}"
                        for left in self.presented_left if left.id in pairs)


def stored(pairs: dict[str, str]) -> str:
    """Pairs as an answer is kept: by ids, so it reads the same whatever the deal."""
    return ", ".join(f"{left}={right}" for left, right in pairs.items())


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Match:
    return Match(**common, left=tuple(Side(s["id"], s["text"]) for s in raw["left"]),
                 right=tuple(Side(s["id"], s["text"]) for s in raw["right"]), pairs=dict(raw["pairs"]),
                 mistakes=tuple(WrongPair(m["left"], m["right"], m["feedback"]) for m in raw.get("mistakes", ())))


def problems(ex: Match, where: Where) -> Findings:
    """Every item is paired once with an option that exists; a foreseen mistake is a wrong pairing."""
    found: Findings = []
    left, right = [s.id for s in ex.left], [s.id for s in ex.right]
    for column, ids in (("left", left), ("right", right)):
        if len(set(ids)) != len(ids):
            found.append((where(column), f"duplicate {column} ids"))
    if sorted(ex.pairs) != sorted(set(left)):
        found.append((where("pairs"), "pairs must pair every left id exactly once"))
    for item, option in ex.pairs.items():
        if option not in right:
            found.append((where("pairs", item), f"pairs {item}: {option!r} is not a right id ({', '.join(right)})"))
    for i, mistake in enumerate(ex.mistakes):
        if mistake.left not in left or mistake.right not in right:
            found.append((where("mistakes", i), f"mistake {mistake.left}={mistake.right} names an id that is not "
                                                "in the columns"))
        elif ex.pairs.get(mistake.left) == mistake.right:
            found.append((where("mistakes", i), f"mistake {mistake.left}={mistake.right} is the right pairing"))
    return found


def read_pairs(exercise: Match, text: str) -> dict[str, str] | str:
    """The pairs typed, by ids: `a2 b1` (letters and numbers as dealt, any case, spaces or commas between)
    or `left=right` ids as stored; or a sentence saying what is wrong with the text."""
    letters = {LETTERS[i]: side.id for i, side in enumerate(exercise.presented_left)}
    numbers = {str(i): side.id for i, side in enumerate(exercise.presented_right, 1)}
    left_ids = {s.id.casefold(): s.id for s in exercise.left}
    right_ids = {s.id.casefold(): s.id for s in exercise.right}
    given: dict[str, str] = {}
    position = _skip_separators(text, 0)
    while position < len(text):
        by_id, by_position = _BY_ID.match(text, position), _BY_POSITION.match(text, position)
        if by_id and by_id[1].casefold() in left_ids:
            item, option, end = left_ids[by_id[1].casefold()], right_ids.get(by_id[2].casefold()), by_id.end()
            if option is None:
                return f"{by_id[2]!r} is not one of the options on the right."
        elif by_position and by_position[1].lower() in letters and by_position[2] in numbers:
            item, option, end = letters[by_position[1].lower()], numbers[by_position[2]], by_position.end()
        else:
            token = text[position:].split()[0]
            return (f"{token!r} is not a pair: write a letter from a to {LETTERS[len(letters) - 1]} and a number "
                    f"from 1 to {len(numbers)}, as in a2 b1.")
        if item in given:
            return f"Item {exercise.letter(item)} is paired twice; pair each item once."
        given[item] = option
        position = _skip_separators(text, end)
    missing = [exercise.letter(side.id) for side in exercise.presented_left if side.id not in given]
    if missing:
        return f"Pair every item; {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} no option yet."
    return {side.id: given[side.id] for side in exercise.left}


def _skip_separators(text: str, position: int) -> int:
    return position + len(text[position:]) - len(text[position:].lstrip(" \t\n,;"))


def judge(exercise: Match, text: str, deadline: Deadline) -> Verdict:
    given = read_pairs(exercise, text)
    if isinstance(given, str):
        return invalid(given)
    total = len(exercise.left)
    right = sum(given[item] == option for item, option in exercise.pairs.items())
    if right == total:
        return correct(f"Correct: all {total} pairs are right.", value=given)
    named = [m.feedback for m in exercise.mistakes if given.get(m.left) == m.right]
    return incorrect(f"{right} of {total} pairs are right.", feedback="\n".join(named), value=given,
                     score=right / total)


def label(exercise: Match, answer: str) -> str:
    """Each pair by its texts: `ZeRO-1 → 5.5 bytes; ...`."""
    given = read_pairs(exercise, answer)
    if isinstance(given, str):
        return " ".join(answer.split())
    texts = {side.id: side.text for side in exercise.left}
    return "; ".join(f"{texts[item]} → {exercise.text_of(option)}" for item, option in given.items())


def shown(exercise: Match, explain: bool) -> list[str]:
    """Both columns as dealt; with `explain`, each item's option."""
    lines = [f"{LETTERS[i]}  {side.text}" + (f"  (→ {exercise.number(exercise.pairs[side.id])})" if explain else "")
             for i, side in enumerate(exercise.presented_left)]
    return lines + [""] + [f"{n}  {side.text}" for n, side in enumerate(exercise.presented_right, 1)]


def notes(exercise: Match, figure: Figure) -> list[str]:
    """What each foreseen wrong pairing says."""
    return [f"Pairing {exercise.letter(m.left)}{exercise.number(m.right)}: {m.feedback}" for m in exercise.mistakes]


def answer_line(exercise: Match, figure: Figure) -> str:
    return f"Answer: {exercise.positions(exercise.pairs)}"


def data(exercise: Match) -> dict[str, Any]:
    return {"left": [{"letter": LETTERS[i], "id": s.id, "text": s.text, "pairs_with": exercise.pairs[s.id]}
                     for i, s in enumerate(exercise.presented_left)],
            "right": [{"number": n, "id": s.id, "text": s.text} for n, s in enumerate(exercise.presented_right, 1)],
            "answer": exercise.positions(exercise.pairs),
            "mistakes": [{"left": m.left, "right": m.right, "feedback": m.feedback} for m in exercise.mistakes]}


_ID = {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"}
_SIDE = {"type": "object", "required": ["id", "text"], "additionalProperties": False,
         "properties": {"id": _ID, "text": {"type": "string", "minLength": 1}}}
SCHEMA: dict[str, Any] = {
    "description": "Pair each item on the left with an option on the right, typed (a2 b1) or picked in a table.",
    "required": ["left", "right", "pairs"],
    "additionalProperties": False,
    "properties": {
        **COMMON_FIELDS,
        "left": {"type": "array", "minItems": 2, "maxItems": len(LETTERS), "items": _SIDE,
                 "description": "The items, shown lettered a, b, c... in an order dealt for each variant."},
        "right": {"type": "array", "minItems": 2, "maxItems": MAX_OPTIONS, "items": _SIDE,
                  "description": "The options, shown numbered 1, 2, 3...; options no item pairs with are "
                                 "distractors, and one option may pair with several items."},
        "pairs": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "Each left id with the right id it pairs with."},
        "mistakes": {
            "type": "array",
            "items": {"type": "object", "required": ["left", "right", "feedback"], "additionalProperties": False,
                      "properties": {"left": {"type": "string"}, "right": {"type": "string"},
                                     "feedback": {"type": "string", "minLength": 1}}},
            "description": "Wrong pairings worth a word of their own: shown when the answer makes them.",
        },
    },
}

EXAMPLE = """\
title: Which factor is which
kind: match
prompt: |
  Global batch = b × k × N. Match each letter with what it counts.
hints:
  - Which of the three would change if you bought more GPUs?
left:
  - {id: b, text: "b"}
  - {id: k, text: "k"}
  - {id: n, text: "N"}
right:
  - {id: micro, text: "Sequences in one micro-batch on one GPU"}
  - {id: accum, text: "Micro-batches each GPU runs before one optimizer step"}
  - {id: gpus, text: "GPUs that take the optimizer step together"}
  - {id: steps, text: "Optimizer steps in the warm-up"}
pairs: {b: micro, k: accum, n: gpus}
mistakes:
  - left: k
    right: steps
    feedback: Warm-up counts optimizer steps; k counts micro-batches inside one step.
explanation: |
  b is how many sequences one GPU runs at once, k how many micro-batches
  it accumulates before the step, and N how many GPUs share that step.
  The warm-up length appears nowhere in the batch.
"""


KIND = Kind(
    name="match", exercise=Match, read=read, problems=problems, warnings=no_findings, judge=judge, label=label,
    expected_seconds=90.0, ways=("pairs",), way=lambda exercise: "pairs", schema=SCHEMA, example=EXAMPLE,
    shown=shown, notes=notes, answer_line=answer_line, data=data,
)

"""Design: put items in order. Partial credit is the longest run of items in correct relative order."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from grader.draws import fixed_shuffle
from grader.exercise import Exercise, Where
from grader.kinds.registry import COMMON_FIELDS, Figure, Findings, Hardware, Kind, no_findings
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_SEPARATOR_OR_SPACE = re.compile(r"(?:\s|,|;|->|→|>)+")
_POSITION = re.compile(r"\d+", re.ASCII)
_TOKEN = re.compile(r"[^,;\n>→]*")


@dataclass(repr=False)
class DesignItem:
    """One thing to put in order, with what to say when it is out of place."""

    id: str
    text: str
    feedback: str = ""


@dataclass(kw_only=True, repr=False)
class Design(Exercise):
    """Put `items` in `order` (item ids)."""

    kind: str = "design"
    items: tuple[DesignItem, ...]
    order: tuple[str, ...]

    @property
    def deals(self) -> bool:
        return True

    @cached_property
    def presented(self) -> tuple[DesignItem, ...]:
        """The items as first shown: a fixed shuffle that is never already solved, dealt afresh for each
        seed (`deal`)."""
        return fixed_shuffle(self.items, self.deal_key, avoid=self.order)


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Design:
    return Design(**common, items=tuple(DesignItem(i["id"], i["text"], i.get("feedback", "")) for i in raw["items"]),
                  order=tuple(raw["order"]))


def problems(ex: Design, where: Where) -> Findings:
    found: Findings = []
    ids = [item.id for item in ex.items]
    texts = [item.text for item in ex.items]
    if len(set(ids)) != len(ids):
        found.append((where("items"), "duplicate design item ids"))
    if len(set(texts)) != len(texts):
        found.append((where("items"), "duplicate design item texts"))
    if sorted(ex.order) != sorted(set(ids)) or len(ex.order) != len(ids):
        found.append((where("order"), "order must list every item id exactly once"))
    return found


def label(exercise: Design, answer: str) -> str:
    """The items by their names, in the order given."""
    texts = {item.id: item.text for item in exercise.items}
    return " → ".join(_name(texts.get(i.strip(), i.strip())) for i in answer.split(","))


def _name(text: str) -> str:
    """An item by what comes before its colon ("PP = 16"), or its first three words."""
    head = text.split(":", 1)[0]
    return head if len(head) < len(text) and len(head) <= 24 else " ".join(text.split()[:3])


def read_order(exercise: Design, text: str) -> list[str] | str:
    """Item ids in the order typed (ids, item texts, or 1-based positions in the presented list);
    or a sentence saying what is wrong with the text. Item texts may themselves hold commas, so the
    longest item text or id that matches is taken first, then a separator is expected."""
    keys = {item.id.casefold(): item.id for item in exercise.items}
    keys.update({item.text.strip().casefold(): item.id for item in exercise.items})
    by_length = sorted(keys, key=len, reverse=True)
    presented = [item.id for item in exercise.presented]
    folded, order, position = text.casefold(), [], 0
    while True:
        position = _skip(_SEPARATOR_OR_SPACE, folded, position)
        if position >= len(folded):
            break
        key = next((k for k in by_length if folded.startswith(k, position)), None)
        number = _POSITION.match(folded, position)
        if key is not None:
            order.append(keys[key])
            position += len(key)
        elif number and 1 <= int(number.group()) <= len(presented):
            order.append(presented[int(number.group()) - 1])
            position = number.end()
        else:
            found = _TOKEN.match(text, position)   # always matches, if only the empty string
            token = found.group().strip() if found else ""
            return f"{token!r} is not one of the items ({', '.join(presented)})."
        if position < len(folded) and not _SEPARATOR_OR_SPACE.match(folded, position):
            return f"Separate the items with commas (at column {position + 1})."
    missing = [i for i in presented if i not in order]
    repeated = sorted({i for i in order if order.count(i) > 1})
    if repeated:
        return f"Each item goes in exactly once; {', '.join(repeated)} appears twice."
    if missing:
        return f"Place every item; missing: {', '.join(missing)}."
    return order


def _skip(pattern: re.Pattern, text: str, position: int) -> int:
    match = pattern.match(text, position)
    return match.end() if match else position


def longest_ordered_run(order: list[str], correct_order: tuple[str, ...]) -> int:
    """Length of the longest subsequence of `order` that is in correct relative order."""
    rank = {item: i for i, item in enumerate(correct_order)}
    tails: list[int] = []
    for r in (rank[item] for item in order):
        position = bisect.bisect_left(tails, r)
        tails[position:position + 1] = [r]
    return len(tails)


def first_wrong(order: list[str], target: tuple[str, ...]) -> int | None:
    """The first position (0-based) where `order` differs from `target`; None when they agree."""
    return next((i for i, (a, b) in enumerate(zip(order, target, strict=False)) if a != b), None)


def judge(exercise: Design, text: str, deadline: Deadline) -> Verdict:
    order = read_order(exercise, text)
    if isinstance(order, str):
        return invalid(order)
    target = list(exercise.order)
    first = first_wrong(order, exercise.order)   # read_order gave every item once: None means all in place
    if first is None:
        return correct("Correct: that is the right order.", value=order)
    in_place = sum(a == b for a, b in zip(order, target, strict=True))
    misplaced = next(item for item in exercise.items if item.id == order[first])
    return incorrect(
        f"Position {first + 1} is wrong; {in_place} of {len(target)} items are in the right place.",
        feedback=misplaced.feedback, value=order, score=longest_ordered_run(order, exercise.order) / len(target),
    )


def notes(exercise: Design, figure: Figure) -> list[str]:
    """What each item says when it is the first one out of place."""
    return [f"Item {item.text}: {item.feedback}" for item in exercise.items if item.feedback]


SCHEMA: dict[str, Any] = {
    "description": "Put items in order, with the mouse or the keyboard.",
    "required": ["items", "order"],
    "additionalProperties": False,
    "properties": {
        **COMMON_FIELDS,
        "items": {
            "type": "array",
            "minItems": 2,
            "items": {
                "type": "object",
                "required": ["id", "text"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"},
                    "text": {"type": "string", "minLength": 1},
                    "feedback": {
                        "type": "string",
                        "description": "Shown when this item is the first one out of place.",
                    },
                },
            },
        },
        "order": {
            "type": "array",
            "minItems": 2,
            "items": {"type": "string"},
            "description": "Item ids in the correct order.",
        },
    },
}


EXAMPLE = '''\
title: One optimizer step, in order
kind: design
prompt: |
  Put the parts of one optimizer step with gradient accumulation on
  N GPUs in the order they happen.
hints:
  - What must be true of the gradient buffers before the first backward pass adds to them?
items:
  - id: update
    text: "The optimizer updates the weights"
    feedback: The update uses the averaged gradient, so it comes last.
  - id: allreduce
    text: "AllReduce the gradient buffers across the N GPUs"
    feedback: The AllReduce combines complete gradients, so it waits for every micro-batch.
  - id: zero
    text: "Zero the gradient buffers"
    feedback: Backward passes add into the buffers, so they must start from zero.
  - id: micro
    text: "Forward and backward on each of the k micro-batches"
    feedback: The micro-batches fill the buffers that the AllReduce then combines.
order: [zero, micro, allreduce, update]
explanation: |
  **Zero** the buffers, run the k **micro-batches**, **AllReduce** the
  sums, then **update** the weights. Zeroing anywhere else either
  throws away gradients or adds last step's gradients into this one.
'''


KIND = Kind(
    name="design", exercise=Design, read=read, problems=problems, warnings=no_findings, judge=judge, label=label,
    expected_seconds=120.0, ways=("order",), way=lambda exercise: "order",
    schema=SCHEMA, example=EXAMPLE, notes=notes,
)

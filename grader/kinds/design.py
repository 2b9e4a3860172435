"""Design: put items in order. Partial credit is the longest run of items in correct relative order."""

from __future__ import annotations

import bisect
import re

from grader.grade import Deadline, Verdict, correct, incorrect, invalid
from grader.model import Design

_SEPARATOR = re.compile(r"\s*(?:,|;|\n|->|→|>)\s*")


def read_order(exercise: Design, text: str) -> list[str] | str:
    """Item ids in the order typed (ids, item texts, or 1-based positions in the presented list);
    or a sentence saying what is wrong with the text."""
    by_key = {item.id.casefold(): item.id for item in exercise.items}
    by_key.update({item.text.strip().casefold(): item.id for item in exercise.items})
    presented = [item.id for item in exercise.presented]
    order = []
    for token in filter(None, _SEPARATOR.split(text.strip())):
        key = token.strip().casefold()
        if key.isdigit() and 1 <= int(key) <= len(presented):
            order.append(presented[int(key) - 1])
        elif key in by_key:
            order.append(by_key[key])
        else:
            return f"{token.strip()!r} is not one of the items ({', '.join(presented)})."
    missing = [i for i in presented if i not in order]
    repeated = sorted({i for i in order if order.count(i) > 1})
    if repeated:
        return f"Each item goes in exactly once; {', '.join(repeated)} appears twice."
    if missing:
        return f"Place every item; missing: {', '.join(missing)}."
    return order


def longest_ordered_run(order: list[str], correct_order: tuple[str, ...]) -> int:
    """Length of the longest subsequence of `order` that is in correct relative order."""
    rank = {item: i for i, item in enumerate(correct_order)}
    tails: list[int] = []
    for r in (rank[item] for item in order):
        position = bisect.bisect_left(tails, r)
        tails[position:position + 1] = [r]
    return len(tails)


def judge(exercise: Design, text: str, deadline: Deadline) -> Verdict:
    order = read_order(exercise, text)
    if isinstance(order, str):
        return invalid(order)
    target = list(exercise.order)
    if order == target:
        return correct("Correct: that is the right order.", value=order)
    first = next(i for i, (a, b) in enumerate(zip(order, target)) if a != b)
    in_place = sum(a == b for a, b in zip(order, target))
    misplaced = next(item for item in exercise.items if item.id == order[first])
    return incorrect(
        f"Position {first + 1} is wrong; {in_place} of {len(target)} items are in the right place.",
        feedback=misplaced.feedback, value=order, score=longest_ordered_run(order, exercise.order) / len(target),
    )

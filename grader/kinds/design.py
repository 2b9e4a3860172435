"""Design: put items in order. Partial credit is the longest run of items in correct relative order."""

from __future__ import annotations

import bisect
import re

from grader.book.model import Design
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_SEPARATOR_OR_SPACE = re.compile(r"(?:\s|,|;|->|→|>)+")
_POSITION = re.compile(r"\d+", re.ASCII)
_TOKEN = re.compile(r"[^,;\n>→]*")


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
            token = _TOKEN.match(text, position).group().strip()
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
    return next((i for i, (a, b) in enumerate(zip(order, target)) if a != b), None)


def judge(exercise: Design, text: str, deadline: Deadline) -> Verdict:
    order = read_order(exercise, text)
    if isinstance(order, str):
        return invalid(order)
    target = list(exercise.order)
    if order == target:
        return correct("Correct: that is the right order.", value=order)
    first = first_wrong(order, exercise.order)
    in_place = sum(a == b for a, b in zip(order, target))
    misplaced = next(item for item in exercise.items if item.id == order[first])
    return incorrect(
        f"Position {first + 1} is wrong; {in_place} of {len(target)} items are in the right place.",
        feedback=misplaced.feedback, value=order, score=longest_ordered_run(order, exercise.order) / len(target),
    )

"""What can go wrong with an exercise's variants, found before a learner meets it.

`template_problems` checks what is written (vary rules, constraints, placeholders) on the canonical
numbers, cheaply, whenever a book is read from its files. `sampled_findings` draws many seeds, as
`ringbook content check` does, and reports the first seed that breaks each rule, with its numbers, so an
author can reproduce it with `ringbook content show ID --seed S`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

from grader.evaluate import EvaluationError
from grader.model import NumericAnswer
from grader.parse import ParseError
from grader.variants import (
    VariantError, check_constraint, choices_of, draw, formula_value, graded_values, names_for_text, render, rendered,
    resolve,
)

SAMPLED_SEEDS = 200
ABSURD_RATIO = 1e6   # a variant's answer this many times larger or smaller than the canonical one is a slip

Where = Callable[..., int]


def template_problems(ex: NumericAnswer, where: Where) -> list[tuple[int, str]]:
    """Problems in the vary rules, the constraints and the placeholders, on the canonical numbers."""
    written = ex.written or ex
    found: list[tuple[int, str]] = []
    for name, rule in written.vary.items():
        if name not in written.params:
            found.append((where("vary", name), f"vary {name}: {name} is not one of the params"))
            continue
        try:
            choices_of(name, rule)
        except VariantError as exc:
            found.append((where("vary", name), str(exc)))
    try:
        env = resolve(written, {})
        names = names_for_text(written, env)
    except (ParseError, EvaluationError):
        return found  # the params or answer do not evaluate: reported by grader.check
    for i, constraint in enumerate(written.constraints):
        try:
            if not check_constraint(constraint, names):
                found.append((where("constraints", i), f"the book's own params break constraint {constraint!r}"))
        except VariantError as exc:
            found.append((where("constraints", i), str(exc)))
    for keys, text in _texts_with_keys(written):
        try:
            shown = render(text, names)
        except VariantError as exc:
            found.append((where(*keys), f"{_field(keys)}: {exc}"))
            continue
        if "{{" in shown or "}}" in shown:
            found.append((where(*keys), f"{_field(keys)}: a placeholder is left unrendered (an unclosed {{{{ or a stray }}}})"))
    return found


_FOUND: dict[tuple[str, int], list[tuple[tuple, str, bool]]] = {}


def sampled_findings(ex: NumericAnswer, where: Where, seeds: int = SAMPLED_SEEDS) -> list[tuple[int, str, bool]]:
    """(line, message, is_warning) for the first of `seeds` variants that breaks each rule. Call only on an
    exercise `template_problems` passes. The draws are kept per exercise as written (wherever it is), so
    checking the same exercise again, in another copy of the book, costs nothing."""
    written = ex.written or ex
    identity = (repr(sorted(dataclasses.asdict(dataclasses.replace(written, source=None)).items())), seeds)
    if identity not in _FOUND:
        _FOUND[identity] = _sampled(ex, lambda *keys: keys, seeds)
    return [(where(*keys), message, warning) for keys, message, warning in _FOUND[identity]]


def _sampled(ex: NumericAnswer, where: Where, seeds: int) -> list:
    written = ex.written or ex
    if not written.vary:
        return []
    found: dict[str, tuple[int, str, bool]] = {}
    canonical_values = graded_values(written, resolve(written, {}))
    for seed in range(1, seeds + 1):
        try:
            variant = draw(written, seed)
        except VariantError as exc:
            line = where("constraints") if written.constraints else where("vary")
            return [(line, f"the constraints are never satisfiable: {exc}", False)]
        shown = _numbers(variant.env)
        values = graded_values(written, variant.env)
        for value, old in zip(values, canonical_values):
            if "absurd" not in found and _absurd(value, old):
                found["absurd"] = (where("answer") if written.answer is not None else where("steps"),
                                   f"seed {seed} ({shown}) gives {value:g}, far from the book's {old:g}: "
                                   "add a constraint to keep the numbers sensible", False)
        if values and written.answer is not None and written.mistakes:
            _mistake_findings(written, variant.env, values[0], seed, shown, where, found)
        if "unrendered" not in found:
            posed = rendered(written, variant.env)
            for keys, text in _texts_with_keys(posed):
                if "}}" in text:   # what is left of any placeholder; no need to scan for PLACEHOLDER itself
                    found["unrendered"] = (where(*keys), f"{_field(keys)}: seed {seed} leaves a placeholder unrendered", False)
                    break
    return list(found.values())


def _mistake_findings(ex: NumericAnswer, env: dict[str, float], answer: float, seed: int, shown: str,
                      where: Where, found: dict) -> None:
    values = []
    for i, mistake in enumerate(ex.mistakes):
        try:
            value = formula_value(mistake.answer, env)
        except (ParseError, EvaluationError):
            values.append(math.nan)
            continue
        values.append(value)
        key = f"answer {i}"
        if key not in found and math.isclose(value, answer, rel_tol=ex.tolerance, abs_tol=1e-12):
            found[key] = (where("mistakes", i, "answer"),
                          f"seed {seed} ({shown}): mistake {mistake.answer!r} equals the answer {answer:g} within "
                          "the tolerance, so a right answer would get this feedback; add a constraint", False)
        for j in range(i):
            pair = f"mistakes {j} {i}"
            if pair not in found and math.isclose(value, values[j], rel_tol=ex.tolerance, abs_tol=1e-12):
                found[pair] = (where("mistakes", i, "answer"),
                               f"seed {seed} ({shown}): mistake {mistake.answer!r} gives the same value as mistake "
                               f"{ex.mistakes[j].answer!r} ({value:g}), so it gets the earlier one's feedback", True)


def graded_values_of(formula: str, env: dict[str, float]) -> float:
    from grader.variants import _value

    return formula_value(formula, env)


def _absurd(value: float, canonical: float) -> bool:
    if not math.isfinite(value):
        return True
    if canonical == 0 or value == 0:
        return False
    return (value > 0) != (canonical > 0) or not 1 / ABSURD_RATIO <= abs(value / canonical) <= ABSURD_RATIO


def _numbers(env: dict[str, float]) -> str:
    return ", ".join(f"{name}={value:g}" for name, value in env.items())


def _texts_with_keys(ex: NumericAnswer) -> list[tuple[tuple, str]]:
    pairs: list[tuple[tuple, str]] = [(("prompt",), ex.prompt), (("explanation",), ex.explanation)]
    pairs += [(("hints", i), hint) for i, hint in enumerate(ex.hints)]
    pairs += [(("mistakes", i, "feedback"), m.feedback) for i, m in enumerate(ex.mistakes)]
    for i, step in enumerate(getattr(ex, "steps", ())):
        pairs += [(("steps", i, "label"), step.label), (("steps", i, "feedback"), step.feedback)]
    for i, option in enumerate(getattr(ex, "options", ())):
        pairs += [(("options", i, "text"), option.text), (("options", i, "feedback"), option.feedback)]
    return pairs


def _field(keys: tuple) -> str:
    return " ".join(str(k + 1) if isinstance(k, int) else k for k in keys)

"""What can go wrong with an exercise's variants, found before a learner meets it.

`template_problems` checks what is written (vary rules, constraints, placeholders) on the canonical
numbers, cheaply, whenever a book is read from its files. `sampled_findings` draws many seeds, as
`ringbook content check` does, and reports the first seed that breaks each rule, with its numbers, so an
author can reproduce it with `ringbook content show ID --seed S`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from grader.book.placeholder_slip import placeholder_slip
from grader.book.text_check import (
    arithmetic_problems,
    crossing_findings,
    grammar_problems,
    hardware_problems,
    network_problems,
    products_about,
    wrapping_problems,
)
from grader.book.variants import (
    Draws,
    VariantError,
    check_constraint,
    choices_of,
    formula_value,
    gpu_of,
    graded_values,
    guard_holds,
    mistake_applies,
    names_for_text,
    render,
    rendered,
    resolve,
)
from grader.exercise import GUARDED, NumericAnswer, TextKey, Where
from grader.maths.evaluate import EvaluationError, evaluate
from grader.maths.parse import Call, Node, ParseError, parse

SAMPLED_SEEDS = 200
ABSURD_RATIO = 1e6   # a variant's answer this many times larger or smaller than the canonical one is a slip



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
        return found  # the params or answer do not evaluate: reported by grader.book.check
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
            line, meant = placeholder_slip(text, where(*keys), names)
            found.append((line, f"{_field(keys)}: {exc}{meant}"))
            continue
        if "{{" in shown or "}}" in shown:
            found.append((where(*keys),
                          f"{_field(keys)}: a placeholder is left unrendered (an unclosed {{{{ or a stray }}}})"))
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


def _sampled(ex: NumericAnswer, where: Callable[..., Any], seeds: int) -> list:
    """Every rule over seed 0 (the book's own numbers) and, for an exercise that varies, seeds 1..`seeds`:
    the first seed that breaks each rule (per text, for the rules on rendered texts)."""
    written = ex.written or ex
    found: dict[str, tuple[int, str, bool]] = {}
    canonical_env = resolve(written, {})
    canonical_values = graded_values(written, canonical_env)
    branches = _Branches(written, names_for_text(written, canonical_env))
    applies = [False] * len(written.mistakes)
    guards = {(keys, match["conditions"]): False for keys, text in _texts_with_keys(written)
              for match in GUARDED.finditer(text)}
    checked: set[tuple[tuple, str]] = set()   # a text renders the same in many variants: read it once
    posed_before: set[tuple] = set()          # most exercises have fewer variants than seeds: judge each once
    draws = Draws(written)
    for seed in range(0, seeds + 1) if written.vary else [0]:
        try:
            variant = draws.draw(seed)
        except VariantError as exc:
            line = where("constraints") if written.constraints else where("vary")
            return [(line, f"the constraints are never satisfiable: {exc}", False)]
        numbers = tuple(variant.env.items())
        if numbers in posed_before:
            continue   # the same numbers break the same rules, and an earlier seed was reported for them
        posed_before.add(numbers)
        shown = _numbers(written, variant.env)
        values = graded_values(written, variant.env)
        one_number = written.answer is not None and not written.is_formula
        names = dict(variant.env, answer=values[0]) if one_number else variant.env  # names_for_text, computed
        for i, mistake in enumerate(written.mistakes):
            applies[i] = applies[i] or mistake_applies(mistake, names)
        for guard, met in guards.items():
            guards[guard] = met or _guard_met(guard[1], names)
        _memory_findings(written, names, seed, shown, where, found)
        if seed and written.answer is not None and not written.is_formula:
            branches.findings(names, seed, shown, where, found)
        posed = rendered(written, variant.env) if written.is_template else written
        _text_findings(posed, seed, shown, where, found, checked)
        if not seed:
            continue
        for value, old in zip(values, canonical_values, strict=True):
            if "absurd" not in found and _absurd(value, old):
                found["absurd"] = (where(*_absurd_keys(written, variant.env, canonical_values)),
                                   f"seed {seed} ({shown}) gives {value:g}, far from the book's {old:g}: "
                                   "narrow the vary range or add a constraint to keep the numbers sensible", False)
        if values and written.answer is not None and written.mistakes:
            _mistake_findings(written, variant.env, values[0], seed, shown, where, found)
        if "unrendered" not in found:
            for keys, text in _texts_with_keys(posed):
                if "}}" in text:   # what is left of any placeholder; no need to scan for PLACEHOLDER itself
                    found["unrendered"] = (where(*keys), f"{_field(keys)}: seed {seed} leaves a placeholder unrendered",
                                           False)
                    break
    for name, dead, why in _never_drawn(written, draws) if written.vary else ():
        found[f"never drawn {name}"] = (where("vary", name), _never_drawn_message(written, name, dead, why), False)
    for i, mistake in enumerate(written.mistakes):
        if mistake.when and not applies[i]:
            found[f"never {i}"] = (where("mistakes", i, "when"),
                                   f"mistake {mistake.answer!r} applies in none of the variants checked (seeds 0-"
                                   f"{seeds if written.vary else 0}): its `when` never holds", False)
    for (keys, conditions), met in guards.items():
        if not met:
            found[f"never {keys} {conditions}"] = (
                where(*keys), f"{_field(keys)}: the paragraph guarded by `when {conditions}` is shown in none of "
                              f"the variants checked (seeds 0-{seeds if written.vary else 0}): its `when` never holds",
                False)
    return list(found.values())


def _never_drawn(ex: NumericAnswer, draws: Draws) -> list[tuple[str, list[float], str]]:
    """Each varied param's values no variant uses, with why the first of them is not. Of a range, only
    its ends count: a hole inside it (a constraint keeping a step off the checkpoints) is how a range
    skips values, while a dead end is a range wider than its numbers allow."""
    dead: dict[str, tuple[list[float], str]] = {}
    for name, value, why in draws.never_drawn():
        dead.setdefault(name, ([], why))[0].append(value)
    found = []
    for name, (values, why) in dead.items():
        if "choices" not in ex.vary[name]:
            pool = choices_of(name, ex.vary[name])
            values = _ends(pool, set(values))
        if values:
            found.append((name, values, why))
    return found


def _ends(pool: tuple[float, ...], dead: set[float]) -> list[float]:
    """The values of `pool` in a dead run at its start or its end."""
    start = next((i for i, v in enumerate(pool) if v not in dead), len(pool))
    end = next((i for i, v in enumerate(reversed(pool)) if v not in dead), 0)
    return list(pool[:start]) + list(pool[len(pool) - end:])


def _never_drawn_message(ex: NumericAnswer, name: str, values: list[float], why: str) -> str:
    """`S: choice 0 is never drawn: floor(A/L)/S divides by zero; ...` with what to do about it."""
    in_range = "choices" not in ex.vary[name]
    one = len(values) == 1
    if in_range:
        runs = " and ".join(f"{run[0]:g}" if len(run) == 1 else f"{run[0]:g} to {run[-1]:g}"
                            for run in _runs(choices_of(name, ex.vary[name]), values))
        what = f"{name}: {'value' if one else 'values'} {runs} of the range {'is' if one else 'are'}"
    else:
        shown = ", ".join(f"{v:g}" for v in values)
        what = f"{name}: {'choice' if one else 'choices'} {shown} {'is' if one else 'are'}"
    if why.startswith("constraint "):
        why = f"no constraint lets it through (every draw with it breaks one, the first {why})"
        fix = "narrow the range or loosen the constraints" if in_range else "remove it or loosen the constraints"
    else:
        fix = "narrow the range" if in_range else "remove it"
    return f"{what} never drawn: {why}; {fix}"


def _runs(pool: tuple[float, ...], values: list[float]) -> list[list[float]]:
    """`values` (a start and an end of `pool`) as runs of neighbours in it."""
    runs: list[list[float]] = []
    index = {v: i for i, v in enumerate(pool)}
    for value in values:
        if runs and index[value] == index[runs[-1][-1]] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return runs


def _guard_met(conditions: str, names: dict[str, float]) -> bool:
    try:
        return guard_holds(conditions, names)
    except VariantError:
        return False   # template_problems reports a guard that does not evaluate


def _memory_findings(ex: NumericAnswer, names: dict[str, float], seed: int, shown: str, where: Where,
                     found: dict) -> None:
    """`fits`: what each GPU holds fits on the card; `overflows`: an exercise about not fitting does not."""
    gpu = gpu_of(ex, names)
    if gpu is None:
        return
    card = names["gpu_memory"]
    for key, formula in (("fits", ex.fits), ("overflows", ex.overflows)):
        if formula is None or key in found:
            continue
        try:
            held = formula_value(formula, names)
        except (ParseError, EvaluationError) as exc:
            found[key] = (where(key), f"{key} {formula!r} does not evaluate with seed {seed}: {exc}", False)
            continue
        if key == "fits" and held > card:
            found[key] = (where(key), f"seed {seed} ({shown}): each GPU holds {held:.4g} GB ({formula}), more than "
                                      f"the {gpu}'s {card:g} GB: add a constraint such as `{formula} <= gpu_memory`, "
                                      "or mark an exercise about not fitting with overflows", False)
        elif key == "overflows" and held <= card:
            found[key] = (where(key), f"seed {seed} ({shown}): {held:.4g} GB ({formula}) fits on the {gpu}'s "
                                      f"{card:g} GB, but the exercise is about not fitting (overflows)", False)


def _text_findings(posed: NumericAnswer, seed: int, shown: str, where: Where, found: dict,
                   checked: set[tuple[tuple, str]]) -> None:
    """Worked steps, grammar and hardware figures in every text the learner reads with these numbers
    (each distinct text once: `checked` holds those read already), network ports the card's node has, and
    a group said to cross nodes that fits in one (with every variant's numbers: its text may not show them)."""
    numbers = f"seed {seed} ({shown})" if seed else "the book's own numbers"
    for keys, message in crossing_findings(posed):
        found.setdefault(f"crossing {keys}", (where(*keys), f"{_field(keys)}: with {numbers}, {message}", False))
    about = products_about(posed.texts, posed.hardware, posed.gpu)
    for keys, text in posed.keyed_texts():
        if (keys, text) in checked:
            continue
        checked.add((keys, text))
        rules = (("arithmetic", arithmetic_problems(text)), ("grammar", grammar_problems(text)),
                 ("wrapping", wrapping_problems(text)),
                 ("hardware", hardware_problems(text, posed.hardware)),
                 ("network", network_problems(text, posed.hardware, about)))
        for rule, messages in rules:
            key = f"{rule} {keys}"
            if messages and key not in found:
                found[key] = (where(*keys), f"{_field(keys)}: with {numbers}, {messages[0]}", False)


class _Branches:
    """Which argument each max() and min() of the answer takes. A mistake is written for the book's own
    case; where a variant's answer takes another branch (expert B no longer over capacity), a mistake
    that does not follow the branches itself describes a slip those numbers may not allow, unless its
    `when` says where it applies."""

    def __init__(self, ex: NumericAnswer, names: dict[str, float]):
        self.ex = ex
        self.calls: list[Call] = []
        self.watched: list[int] = []
        if ex.answer is None or ex.is_formula:
            return
        try:
            self.calls = _choosers(parse(ex.answer, names))
            self.watched = [i for i, m in enumerate(ex.mistakes)
                            if not m.when and not _choosers(parse(m.answer, names)) and set(_names(m.answer, names))]
            self.canonical = self._taken(names)
        except (ParseError, EvaluationError):
            self.calls = []

    def _taken(self, names: dict[str, float]) -> tuple[tuple[int, ...], ...]:
        taken = []
        for call in self.calls:
            values = [evaluate(arg, names) for arg in call.args]
            best = max(values) if call.func == "max" else min(values)
            taken.append(tuple(i for i, v in enumerate(values) if math.isclose(v, best, rel_tol=1e-9, abs_tol=1e-12)))
        return tuple(taken)

    def findings(self, names: dict[str, float], seed: int, shown: str, where: Where, found: dict) -> None:
        if not self.calls or not self.watched:
            return
        try:
            taken = self._taken(names)
        except EvaluationError:
            return
        changed = next((i for i, (a, b) in enumerate(zip(taken, self.canonical, strict=True)) if a != b), None)
        if changed is None:
            return
        for i in self.watched:
            key = f"branch {i}"
            if key not in found:
                mistake = self.ex.mistakes[i]
                found[key] = (where("mistakes", i, "answer"),
                              f"seed {seed} ({shown}): the answer's {self.calls[changed].func}() number {changed + 1} "
                              f"takes another branch than with the book's own numbers, so mistake {mistake.answer!r}, "
                              "written for the book's case, may describe a slip these numbers do not allow: "
                              "say where it applies with `when`", False)


def _choosers(node: Node) -> list[Call]:
    """The max() and min() calls of a formula, outermost first."""
    found: list[Call] = []
    stack = [node]
    while stack:
        current = stack.pop(0)
        if isinstance(current, Call) and current.func in ("max", "min"):
            found.append(current)
        stack.extend(getattr(current, name) for name in ("operand", "left", "right") if hasattr(current, name))
        stack.extend(getattr(current, "args", ()))
    return found


def _names(formula: str, names: dict[str, float]) -> set[str]:
    from grader.maths.parse import names_in

    return names_in(parse(formula, names))


def _mistake_findings(ex: NumericAnswer, env: dict[str, float], answer: float, seed: int, shown: str,
                      where: Where, found: dict) -> None:
    values = []
    names = dict(env, answer=answer)
    for i, mistake in enumerate(ex.mistakes):
        if not mistake_applies(mistake, names):
            values.append(math.nan)
            continue
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


def _absurd_keys(ex: NumericAnswer, env: dict[str, float], canonical: tuple[float, ...]) -> tuple[str, ...]:
    """Where an absurd variant is the range's doing: the `vary` line of the one param whose book value,
    put back, makes every graded number sensible again; else the `vary` block itself."""
    drawn = {name: env[name] for name in ex.vary}
    for name in ex.vary:
        try:
            values = graded_values(ex, resolve(ex, {**drawn, name: resolve(ex, {})[name]}))
        except (ParseError, EvaluationError):
            continue
        if not any(_absurd(v, old) for v, old in zip(values, canonical, strict=True)):
            return ("vary", name)
    return ("vary",)


def _absurd(value: float, canonical: float) -> bool:
    if not math.isfinite(value):
        return True
    if canonical == 0 or value == 0:
        return False
    return (value > 0) != (canonical > 0) or not 1 / ABSURD_RATIO <= abs(value / canonical) <= ABSURD_RATIO


def _numbers(ex: NumericAnswer, env: dict[str, float]) -> str:
    """The params of a variant, its card by name."""
    return ", ".join(f"gpu={gpu_of(ex, env)}" if name == "gpu" else f"{name}={env[name]:g}" for name in ex.params)


def _texts_with_keys(ex: NumericAnswer) -> list[tuple[TextKey, str]]:
    """Its texts but the title, whose placeholders are rendered (and checked) with the others'."""
    return [(keys, text) for keys, text in ex.keyed_texts() if keys != ("title",)]


def _field(keys: tuple) -> str:
    return " ".join(str(k + 1) if isinstance(k, int) else k for k in keys)

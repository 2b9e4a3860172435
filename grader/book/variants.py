"""Variants: the same numeric exercise posed with other numbers, and its texts rendered with them.

A variant is fully determined by (exercise id, seed): the draw is seeded by the string "id:seed", never
by hash(), so every machine poses the same numbers. Seed 0 is the book's own params (the canonical
variant), which the narrative quotes. Texts are templates: `{{M}}`, `{{answer}}` or `{{2*M*(N-1)/N:3}}`
are formulas in the learner-answer grammar (grader/maths/parse.py), evaluated, never eval'd.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from grader.draws import MAX_SEED
from grader.exercise import GUARDED, Exercise, Mistake, NumericAnswer, hardware_figures
from grader.maths.evaluate import EvaluationError, evaluate, holds
from grader.maths.parse import Node, ParseError, parse

CANONICAL_SEED = 0
MAX_TRIES = 500            # draws per variant before the constraints are called unsatisfiable
DEFAULT_FIGURES = 4        # significant figures of a placeholder without a format
NEVER_DRAWN_LIMIT = 5000   # assignments of the varied params judged, at most, to find a value never drawn
SAME_AS_BOOK = "the book's own numbers"   # why an assignment is not posed that is no slip

PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)  # search only up to the last "}}": see closed_part
GPU_NAME = "gpu"           # `{{gpu}}` is the name of the card a variant runs on, not its index
_FORMAT = re.compile(r"^(?P<comma>,)?(?:(?P<figures>[1-9][0-9]?)|\.(?P<decimals>[0-9]{1,2}))?(?P<scientific>e)?$")


class VariantError(ValueError):
    """Numbers that cannot be drawn: a vary entry, a constraint or a placeholder that does not work."""


@dataclass(frozen=True)
class Variant:
    """One variant's numbers: its seed (0 for the book's own) and its params, resolved to numbers."""

    seed: int
    env: dict[str, float]


# --- formulas, parsed once --------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _parsed(formula: str, names: frozenset[str]) -> Node:
    return parse(formula, names)


def formula_value(formula: str | float, env: Mapping[str, float]) -> float:
    """An author's formula over `env`, parsed once per text and set of names."""
    if isinstance(formula, (int, float)) and not isinstance(formula, bool):
        return float(formula)
    return evaluate(_parsed(str(formula), frozenset(env)), env)


# --- how params vary --------------------------------------------------------------------------------

def choices_of(name: str, rule: Any) -> tuple[float, ...]:
    """Every value a `vary` entry allows: `{choices: [4, 8, 16]}` (numbers, or formulas without names such
    as "70e9") or `{from: 0.5, to: 8, step: 0.5}`."""
    if not isinstance(rule, Mapping):
        raise VariantError(f"vary {name}: give {{choices: [...]}} or {{from: A, to: B, step: S}}")
    if set(rule) == {"choices"}:
        values = rule["choices"]
        if not isinstance(values, list) or not values:
            raise VariantError(f"vary {name}: choices must be a non-empty list of numbers")
        return tuple(_constant(name, v) for v in values)
    if set(rule) == {"from", "to", "step"}:
        start, stop, step = rule["from"], rule["to"], rule["step"]
        if not all(_is_number(v) for v in (start, stop, step)) or step <= 0 or stop < start:
            raise VariantError(f"vary {name}: from, to and step must be numbers with step > 0 and to >= from")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > 100_000:
            raise VariantError(f"vary {name}: {count:,} values is too many (at most 100,000); take a larger step")
        return tuple(round(start + k * step, 12) for k in range(count))
    raise VariantError(f"vary {name}: give {{choices: [...]}} or {{from: A, to: B, step: S}}, nothing else")


def _constant(name: str, value: Any) -> float:
    """A choice: a number, or a formula without names such as "405e9" (YAML reads 405e9 as text)."""
    if _is_number(value):
        return float(value)
    if isinstance(value, str):
        try:
            number = formula_value(value, {})
        except (ParseError, EvaluationError) as exc:
            raise VariantError(f"vary {name}: choice {value!r} is not a number: {exc}") from exc
        if math.isfinite(number):
            return number
    raise VariantError(f"vary {name}: choices must be a non-empty list of numbers")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def resolve(exercise: NumericAnswer, drawn: Mapping[str, float]) -> dict[str, float]:
    """Params in order, with `drawn` values in place of the written ones; a param written as a formula
    over earlier ones is computed from the drawn values, so derived figures follow the variant."""
    env: dict[str, float] = hardware_figures(exercise.hardware) if exercise.uses_hardware else {}
    for name, written in exercise.params.items():
        env[name] = float(drawn[name]) if name in drawn else formula_value(written, env)
        if name == GPU_NAME:  # the card comes first, so the params after it may use its figures
            env.update(hardware_figures(exercise.hardware, gpu_of(exercise, env)))
    return env


def gpu_of(exercise: NumericAnswer, env: Mapping[str, float]) -> str | None:
    """The product name of the card these numbers run on (`gpu` in env is its index in `exercise.gpus`)."""
    if not exercise.gpus:
        return None
    index = int(env.get(GPU_NAME, 0))
    return exercise.gpus[index] if 0 <= index < len(exercise.gpus) else None


def mistake_applies(mistake: Mistake, names: Mapping[str, float]) -> bool:
    """`mistake.applies`, with each formula parsed once for all the variants checked."""
    try:
        return mistake.applies(dict(names), lambda formula: formula_value(formula, names))
    except (ParseError, EvaluationError, ValueError) as exc:
        raise VariantError(f"when {mistake.when!r}: {exc}") from exc


def graded_values(exercise: NumericAnswer, env: Mapping[str, float]) -> tuple[float, ...]:
    """What a learner is graded against with these params: the answer, or each step's state. A choice or
    a formula has no number to grade (a formula's value needs its symbols): empty."""
    return tuple(formula_value(formula, env) for formula in exercise.graded_formulas())


def names_for_text(exercise: NumericAnswer, env: Mapping[str, float]) -> dict[str, float]:
    """What a placeholder may name: the params and, for a one-number exercise, `answer`."""
    names = dict(env)
    if exercise.answer is not None and not exercise.is_formula:
        names["answer"] = formula_value(exercise.answer, env)
    return names


def check_constraint(constraint: str, names: Mapping[str, float]) -> bool:
    """`m >= p` or `answer < 80`: two formulas and one comparison, each side evaluated, never eval'd."""
    try:
        return holds(constraint, lambda formula: formula_value(formula, names))
    except (ParseError, EvaluationError, ValueError) as exc:
        raise VariantError(f"constraint {constraint!r}: {exc}") from exc


def draw(exercise: NumericAnswer, seed: int) -> Variant:
    """The variant `seed` of `exercise`: seed 0 (or an exercise that does not vary) is the canonical
    params; any other seed draws until the constraints hold and the graded numbers differ from the
    canonical ones, so an answer remembered from the book is not an answer to the variant."""
    return Draws(exercise).draw(seed)


class Draws:
    """The variants of one exercise, for drawing many seeds: what every draw shares (the canonical
    numbers, the vary pools, the numbers a variant must change) is worked out once, and each assignment
    of the varied params is judged once, however many seeds and tries draw it again (most exercises
    have a few dozen assignments, and `ringbook content check` draws 200 seeds of each)."""

    def __init__(self, exercise: NumericAnswer):
        self.exercise = exercise
        self.canonical = resolve(exercise, {})
        self._pools: dict[str, tuple[float, ...]] | None = None   # read on the first seed that varies
        self._old: tuple[float, ...] = ()
        self._judged: dict[tuple[float, ...], dict[str, float] | None] = {}

    def draw(self, seed: int) -> Variant:
        """As `draw(exercise, seed)`: the same numbers for the same seed."""
        exercise = self.exercise
        if seed == CANONICAL_SEED or not exercise.vary:
            return Variant(CANONICAL_SEED, dict(self.canonical))
        pools = self._varied_pools()
        rng = random.Random(f"{exercise.id}:{seed}")
        for _ in range(MAX_TRIES):
            drawn = tuple(rng.choice(pool) for pool in pools.values())
            if drawn not in self._judged:
                self._judged[drawn] = self._posable(dict(zip(pools, drawn, strict=True)))
            env = self._judged[drawn]
            if env is not None:
                return Variant(seed, dict(env))
        raise VariantError(f"no numbers satisfy the constraints after {MAX_TRIES} draws (seed {seed}); "
                           "widen the vary ranges or loosen the constraints")

    def _varied_pools(self) -> dict[str, tuple[float, ...]]:
        if self._pools is None:
            exercise = self.exercise
            pools = {name: choices_of(name, rule) for name, rule in exercise.vary.items()}
            unknown = set(pools) - set(exercise.params)
            if unknown:
                raise VariantError(f"vary names {', '.join(sorted(unknown))}, which is not a param")
            self._old = _posed_numbers(exercise, self.canonical)
            self._pools = pools
        return self._pools

    def _posable(self, drawn: dict[str, float]) -> dict[str, float] | None:
        """The params with `drawn` in place, or None when they cannot be posed (see `_judge`)."""
        env, _ = self._judge(drawn)
        return env

    def _judge(self, drawn: dict[str, float]) -> tuple[dict[str, float] | None, str]:
        """(params, "") with `drawn` in place, or (None, why not): a value that does not evaluate (the
        formula and its error), graded numbers the same as the book's (SAME_AS_BOOK), or a constraint that
        does not hold (that constraint). A constraint that cannot be evaluated raises VariantError."""
        exercise = self.exercise
        try:
            env = resolve(exercise, drawn)
            values = graded_values(exercise, env)
        except (ParseError, EvaluationError):
            return None, _failing_formula(exercise, drawn)  # e.g. a division by a drawn zero
        if not all(math.isfinite(v) for v in values):
            return None, "the answer is not a finite number"
        if not _differ(_posed_numbers(exercise, env, values), self._old, exercise.tolerance):
            return None, SAME_AS_BOOK
        names = dict(env, answer=values[0]) if exercise.answer is not None and not exercise.is_formula else env
        broken = next((c for c in exercise.constraints if not check_constraint(c, names)), None)
        return (env, "") if broken is None else (None, f"constraint {broken!r}")

    def never_drawn(self, limit: int = NEVER_DRAWN_LIMIT) -> list[tuple[str, float, str]]:
        """(name, value, why) for each vary value no variant can use: every assignment of the other varied
        params with it fails, the same way (`why`: the first failure met). A value that gives the book's
        own numbers is not dead (seed 0 poses it). Empty when finding out would judge over `limit`
        assignments: a check must stay quick."""
        pools = self._varied_pools()
        if math.prod(len(pool) for pool in pools.values()) > limit:
            return []
        dead = []
        for name, pool in pools.items():
            for value in pool:
                why = ""
                with_it = [(value,) if other == name else values for other, values in pools.items()]
                for drawn in itertools.product(*with_it):
                    try:
                        env, reason = self._judge(dict(zip(pools, drawn, strict=True)))
                    except VariantError as exc:   # a constraint these numbers cannot evaluate
                        env, reason = None, str(exc)
                    if env is not None or reason == SAME_AS_BOOK:
                        break
                    why = why or reason
                else:
                    dead.append((name, value, why))
        return dead


def _failing_formula(exercise: NumericAnswer, drawn: Mapping[str, float]) -> str:
    """Which formula fails with `drawn` in place, and how: `floor(A/L)/S divides by zero`."""
    env: dict[str, float] = hardware_figures(exercise.hardware) if exercise.uses_hardware else {}
    formulas: list[tuple[str, str | float]] = list(exercise.params.items())
    formulas += [("", formula) for formula in exercise.graded_formulas()]   # "": a graded formula, no param
    for name, written in formulas:
        if name in drawn:
            env[name] = float(drawn[name])
            continue
        try:
            value = formula_value(written, env)
        except (ParseError, EvaluationError) as exc:
            if "divides by zero" in str(exc):
                return f"{written} divides by zero"
            return f"{written}: {exc}"
        if name:
            env[name] = value
            if name == GPU_NAME:
                env.update(hardware_figures(exercise.hardware, gpu_of(exercise, env)))
    return "its formulas do not evaluate"


def _posed_numbers(exercise: NumericAnswer, env: Mapping[str, float], values: tuple[float, ...] | None = None,
                   ) -> tuple[float, ...]:
    """What a variant must change: the graded numbers, or for a choice or a formula (nothing to grade by
    number) the numbers it is posed with."""
    values = graded_values(exercise, env) if values is None else values
    return values or tuple(env[name] for name in exercise.vary)


def _differ(values: tuple[float, ...], canonical: tuple[float, ...], tolerance: float) -> bool:
    return any(not math.isclose(a, b, rel_tol=2 * tolerance, abs_tol=1e-12)
               for a, b in zip(values, canonical, strict=True))


# --- texts ------------------------------------------------------------------------------------------

def format_number(value: float, spec: str = "") -> str:
    """A figure for a reader: integers whole, others to `DEFAULT_FIGURES` significant figures with
    trailing zeros dropped (whole digits are never rounded away: 16384 stays 16384). Spec `3` gives 3
    significant figures, `.2` exactly 2 decimals, a trailing `e` scientific notation as the book writes
    it (`3e`: 2.4e-3, 8.49e-4), and a leading `,` groups thousands (`16,384`)."""
    match = _FORMAT.match(spec)
    if match is None:
        raise VariantError(f"format {spec!r}: use a number of significant figures (`:3`), decimals (`:.2`), "
                           "optionally after a comma for thousands (`:,`)")
    group = "," if match["comma"] else ""
    if not math.isfinite(value):
        raise VariantError(f"the value is {value}, not a finite number")
    if match["decimals"] is not None and not match["scientific"]:
        return _fixed(value, int(match["decimals"]), group)
    figures = int(match["figures"] or DEFAULT_FIGURES)
    if match["scientific"]:
        mantissa, exponent = f"{value:.{figures - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        return f"{mantissa}e{int(exponent)}"
    if value == 0:
        return "0"
    decimals = max(0, figures - 1 - math.floor(math.log10(abs(value))))  # never rounds away a whole digit
    text = _fixed(value, decimals, group)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _fixed(value: float, decimals: int, group: str) -> str:
    """`value` to `decimals` decimals, a tie rounded away from zero as a reader does (12.5 to 13, 14.985 to
    14.99): Python's own formatting rounds the binary value, a tie to even, so a worked step showed
    "15/120 = 12 %" (grader.book.text_check reports such a step). The value is read to 15 figures first,
    so float noise (13.049999999999999 for 13.05) does not decide a tie."""
    from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

    try:
        exact = Decimal(f"{value:.15g}").quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    except InvalidOperation:   # more digits than a decimal context holds: no figure a reader checks
        return f"{value:{group}.{decimals}f}"
    return f"{exact:{group}.{decimals}f}"


_WORD = re.compile(r"^[A-Za-z][A-Za-z-]*(/[A-Za-z][A-Za-z-]*)?$")


def article(number: str) -> str:
    """"a" or "an" for a number as it is read aloud: an 8, an 11, an 18, an 80, an 8,192, an 11,000;
    a 1, a 7, a 110 (a hundred and ten), a 1,100."""
    digits = number.lstrip("-").split(".")[0].split("e")[0].replace(",", "")
    if digits.startswith("8"):
        return "an"
    leading = len(digits) % 3 or 3  # the digits before the first thousands separator: "eleven thousand"
    return "an" if leading == 2 and digits[:2] in ("11", "18") else "a"


def with_word(number: str, helper: str) -> str:
    """`{{N|a}}` "an 8", `{{N|A}}` "An 8" (a sentence's first word), `{{N|slot}}` "1 slot" / "3 slots",
    `{{N|child/children}}` "1 child" / "2 children"."""
    if helper in ("a", "A"):
        word = article(number)
        return f"{word.capitalize() if helper == 'A' else word} {number}"
    if not _WORD.match(helper):
        raise VariantError(f"after | write a (an article), A (one that starts a sentence), a noun (slot) or "
                           f"singular/plural (child/children), not {helper!r}")
    one, _, many = helper.partition("/")
    return f"{number} {one if number == '1' else many or one + 's'}"


def _formula_and_format(inside: str) -> tuple[str, str, str]:
    """`2*M:3|a` -> ("2*M", "3", "a"): the formula, its format spec and its grammar helper."""
    value, _, helper = inside.partition("|")
    formula, _, spec = value.rpartition(":") if ":" in value else (value, "", "")
    return formula.strip(), spec.strip(), helper.strip()


def render(template: str, names: Mapping[str, float], shown: dict[str, str] | None = None) -> str:
    """`template` with every `{{formula}}`, `{{formula:spec}}` or `{{formula:spec|helper}}` replaced by
    its value (and a helper's article or noun); raises VariantError naming the first placeholder that
    does not evaluate. `shown` remembers placeholders already rendered with these `names`, as one
    exercise's texts repeat them."""
    shown = {} if shown is None else shown
    if "{{when " in template:
        template = kept_paragraphs(template, names)

    def one(match: re.Match) -> str:
        inside = match.group(1)
        if inside not in shown:
            formula, spec, helper = _formula_and_format(inside)
            try:
                number = format_number(formula_value(formula, names), spec)
                shown[inside] = with_word(number, helper) if helper else number
            except (ParseError, EvaluationError, VariantError) as exc:
                raise VariantError(f"placeholder {match.group(0)!r}: {exc}") from exc
        return shown[inside]
    closed, rest = closed_part(template)
    return PLACEHOLDER.sub(one, closed) + rest if "{{" in closed else template


def guard_holds(conditions: str, names: Mapping[str, float]) -> bool:
    """Whether every comparison of a guard (`{{when A; B}}`) holds with these numbers; VariantError names the
    one that does not evaluate."""
    for condition in conditions.split(";"):
        try:
            if not holds(condition.strip(), lambda side: formula_value(side, names)):
                return False
        except (ParseError, EvaluationError, ValueError) as exc:
            raise VariantError(f"when {condition.strip()!r}: {exc}") from exc
    return True


def kept_paragraphs(template: str, names: Mapping[str, float]) -> str:
    """`template` with each guarded paragraph kept (without its guard) where its conditions hold and taken
    out, with the blank line before it, where they do not."""
    dropped = "\x00"
    text = GUARDED.sub(lambda m: m["text"] if guard_holds(m["conditions"], names) else dropped, template)
    return re.sub(f"(\n*){dropped}(\n*)", lambda m: "\n" * min(len(m[1]), len(m[2])), text)


def closed_part(template: str) -> tuple[str, str]:
    """`template` cut after its last `}}`: (the part that can hold placeholders, the rest). PLACEHOLDER
    tries each `{{` against the whole rest of the text, so 20,000 unclosed `{{` (66 kB) took 10 s to scan;
    cut there, each `{{` it tries is closed by the next `}}`, so a scan reads each character about once."""
    end = template.rfind("}}") + 2 if "}}" in template else 0
    return template[:end], template[end:]


def rendered(exercise: NumericAnswer, env: Mapping[str, float]) -> NumericAnswer:
    """The exercise as a learner sees it with these params: every text rendered, the params replaced by
    their numbers, and `written` keeping the templates for the next variant."""
    written = exercise.written or exercise
    names, shown = names_for_text(written, env), {}
    gpu = gpu_of(written, env)
    if gpu is not None:
        shown[GPU_NAME] = gpu
    posed = written.with_texts([render(text, names, shown) for text in written.texts])
    return replace(posed, params={name: env[name] for name in written.params})


def variant(exercise: NumericAnswer, seed: int) -> NumericAnswer:
    """The exercise posed with the numbers of `seed` (0: the book's own, with its params as written).
    Raises VariantError when the constraints cannot be met or a placeholder does not evaluate."""
    if exercise.written is None and not exercise.is_template:
        return exercise
    written = exercise.written or exercise
    variant_of_seed = draw(written, seed)
    posed = rendered(written, variant_of_seed.env)
    return replace(posed, params=written.params) if variant_of_seed.seed == CANONICAL_SEED else posed


def pose(exercise: Exercise, seed: int | None) -> Exercise:
    """Any exercise as posed with `seed` (None or 0: the book's own numbers and order): its numbers drawn,
    and a choice's options or a design's items dealt, by the seed. One with a single form (build, debug,
    or a derive, number or table that does not vary) is itself for every seed."""
    if seed is None:
        return exercise
    posed = variant(exercise, seed) if isinstance(exercise, NumericAnswer) else exercise
    return posed.dealt(seed)


def varies(exercise: Exercise) -> bool:
    """Whether another seed poses `exercise` differently: other numbers (its `vary`) or another order (a
    choice's options, a design's items). A build, a debug, and a number that does not vary have one form."""
    return (isinstance(exercise, NumericAnswer) and bool(exercise.vary)) or exercise.deals


def seed_problem(seed: object) -> str | None:
    """Why `seed` is not a seed (a whole number from 0 to 2^63 - 1), in a sentence; None when it is."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return "A seed is a whole number from 0 (the book's own numbers) up to 2^63 - 1."
    return None


def canonical(exercise: NumericAnswer) -> NumericAnswer:
    """The exercise as the book first poses it: its own params, placeholders rendered. A placeholder that
    does not evaluate is left as written, for `ringbook content check` to report with its line."""
    try:
        return variant(exercise, CANONICAL_SEED)
    except (VariantError, ParseError, EvaluationError):
        return replace(exercise, written=exercise)


__all__ = ["CANONICAL_SEED", "Draws", "Variant", "VariantError", "canonical", "check_constraint", "choices_of", "draw",
           "format_number", "formula_value", "graded_values", "pose", "render", "rendered", "seed_problem", "variant",
           "varies"]

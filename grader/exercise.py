"""What every exercise kind shares: the base dataclass, the parts several kinds use (a foreseen mistake, a code
test; an option is grader/draws.py's), the numeric base of the kinds answered by a number or a formula, and the book's
hardware figures those formulas may name.

Each kind's own dataclass lives in its module in grader/kinds/. Nothing changes an exercise once the loader
has built it: a variant is a new one (dataclasses.replace). The dataclasses are not frozen all the same:
Python 3.11 writes three more methods for each frozen class and sets every field through
object.__setattr__, which made the model 5% of ringbook's start. Nor do they have generated reprs (another
1.3%, paid at every start, for a text nothing shows): an exercise names itself by id.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, TypeVar

DEFAULT_TOLERANCE = 0.005  # 3 significant figures always pass; a 4th-digit slip does not

TextKey = tuple[str | int, ...]   # where a text sits in an exercise: ("prompt",), ("hints", 0), ("steps", 1, "label")
Where = Callable[..., int]        # the line of a field of the exercise, given its keys


@dataclass(repr=False)
class Source:
    """Where a thing was written, for `path:line` messages."""

    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(kw_only=True, repr=False)
class Exercise:
    """What every exercise has: what it asks, how it helps (hints), and what it teaches after (explanation)."""

    id: str
    title: str
    kind: str
    prompt: str
    hints: tuple[str, ...]
    explanation: str
    chapter_id: str
    tolerance: float = DEFAULT_TOLERANCE
    source: Source | None = field(default=None, compare=False)
    deal: int = 0   # the seed its options or items are dealt by (grader.book.variants.pose); 0: the book's own order

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"

    @property
    def deals(self) -> bool:
        """Whether it shows things in a dealt order (a choice's options, a design's items)."""
        return False

    def dealt(self, seed: int) -> Exercise:
        """The same exercise with its options or items dealt by `seed`: each variant and review shows
        them in an order of its own, so no letter or position is what gets remembered. Ids stay as
        they are; an exercise that deals nothing is itself."""
        return replace(self, deal=seed) if self.deals and seed != self.deal else self

    @property
    def deal_key(self) -> str:
        """What the shuffle is seeded by: the id for the book's own order (seed 0), else id and seed."""
        return self.id if not self.deal else f"{self.id}:{self.deal}"


@dataclass(repr=False)
class Mistake:
    """A wrong answer an author foresaw (a formula over the params) and what to say to whoever gives it;
    `when` (comparisons over the params and `answer`, all of which must hold) says in which variants the
    slip it describes can be made at all: elsewhere the grader does not use it."""

    answer: str
    feedback: str
    when: tuple[str, ...] = ()

    def applies(self, names: dict[str, float], value: Callable[[str], float] | None = None) -> bool:
        """Whether every comparison of `when` holds with these params (and `answer`); `value` turns a side's
        formula into a number (by default parsed afresh; a caller that checks many variants passes a cached one)."""
        from grader.maths.evaluate import holds

        value = value or (lambda formula: evaluate_text(formula, names))
        return all(holds(condition, value) for condition in self.when)


GUARDED = re.compile(r"\{\{when (?P<conditions>[^{}]*)\}\}(?P<text>.*?)\{\{end\}\}", re.DOTALL)
"""A paragraph shown only in the variants where its conditions (comparisons split by `;`) all hold; the YAML
writes it as `{when: "C <= 1", text: ...}` in a list of paragraphs, and guarded_text makes it a template."""


def guarded_text(value: Any) -> str:
    """An explanation or a feedback as the YAML writes it: one Markdown text, or a list of paragraphs each
    a text or `{text, when}` (a comparison, or a list of them that must all hold), into one template whose
    guarded paragraphs grader.book.variants.render keeps or drops by the variant's numbers."""
    if not isinstance(value, list):
        return str(value)
    paragraphs = []
    for part in value:
        if isinstance(part, dict):
            conditions = part.get("when", ())
            written = "; ".join([str(conditions)] if isinstance(conditions, str) else map(str, conditions))
            paragraphs.append(f"{{{{when {written}}}}}{str(part.get('text', '')).strip()}{{{{end}}}}")
        else:
            paragraphs.append(str(part).strip())
    return "\n\n".join(paragraphs) + "\n"


def evaluate_text(formula: str | float, env: dict[str, float]) -> float:
    """A formula's value; the evaluator loads on first use, so building a book from its cache stays cheap."""
    from grader.maths.evaluate import evaluate_text as evaluate

    return evaluate(formula, env)


@dataclass(repr=False)
class CodeTest:
    """One call: keyword `args` and the `expected` return value as formula(s) over the scalar args."""

    args: dict[str, Any]
    expected: str | list[str]
    note: str = ""

    @property
    def scalar_args(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.args.items()
                if isinstance(v, (int, float)) and not isinstance(v, bool)}

    @property
    def expected_value(self) -> float | tuple[float, ...]:
        if isinstance(self.expected, list):
            return tuple(evaluate_text(e, self.scalar_args) for e in self.expected)
        return evaluate_text(self.expected, self.scalar_args)


def code_tests(raw: Sequence[dict[str, Any]]) -> tuple[CodeTest, ...]:
    """A build's or a debug's `tests` as the YAML writes them."""
    return tuple(CodeTest(dict(t["args"]), [str(e) for e in t["expected"]] if isinstance(t["expected"], list)
                          else str(t["expected"]), t.get("note", "")) for t in raw)


# What book.yaml declares per product (a GPU in its node): GB of HBM per GPU as the system exposes it;
# NVLink GB/s per GPU, one direction; GPUs per node; NICs per node; Gb/s per NIC, one direction; GB/s of
# the PCIe link that feeds each NIC, one direction.
FIGURES = ("memory", "nvlink", "gpus", "nics", "network", "pcie")
# What grader.network derives from them: GB/s through all a node's NICs, and the rate of a ring that spans
# nodes (one channel per NIC), both one direction.
DERIVED_FIGURES = ("node_network", "ring_across_nodes")
_HARDWARE_NAME = re.compile(rf"\b[A-Za-z][A-Za-z0-9]*_(?:{'|'.join(FIGURES + DERIVED_FIGURES)})\b")


def product_figures(figures: dict[str, float]) -> dict[str, float]:
    """One product's declared figures with the network model's derived ones beside them."""
    from grader.network import node_network_gbs, ring_gbs

    return {**{name: float(figures[name]) for name in FIGURES},
            "node_network": node_network_gbs(figures["nics"], figures["network"]),
            "ring_across_nodes": ring_gbs(figures["nvlink"], figures["nics"], figures["network"], True)}


def hardware_figures(hardware: dict[str, dict[str, float]], gpu: str | None = None) -> dict[str, float]:
    """The names the book's hardware gives formulas: `H100_memory`, `B200_nvlink`, `A100_ring_across_nodes`
    ... for every product, and `gpu_memory`, `gpu_nvlink`, ... for `gpu`, the card an exercise (or variant)
    runs on."""
    if not hardware:
        return {}
    kept = _FIGURE_NAMES.get((id(hardware), gpu))
    if kept is not None and kept[0] is hardware:  # variants resolve it thousands of times in a check
        return dict(kept[1])
    names = {f"{product}_{figure}": value for product, figures in hardware.items()
             for figure, value in product_figures(figures).items()}
    if gpu is not None and gpu in hardware:
        names.update({f"gpu_{figure}": value for figure, value in product_figures(hardware[gpu]).items()})
    _FIGURE_NAMES[(id(hardware), gpu)] = (hardware, names)
    return dict(names)


_FIGURE_NAMES: dict[tuple[int, str | None], tuple[dict[str, dict[str, float]], dict[str, float]]] = {}


def resolve_params(params: dict[str, Any], figures: dict[str, float] | None = None) -> dict[str, float]:
    """Evaluate params in order; each may be a formula over the ones before it (and over `figures`, the
    hardware's names, which come first)."""
    env: dict[str, float] = dict(figures or {})
    for name, value in params.items():
        env[name] = evaluate_text(value, env)
    return env


Record = TypeVar("Record")


def _with(record: Record, changes: dict[str, str]) -> Record:
    """A copy of a mistake, step or option with other texts: dataclasses.replace re-runs __init__ through
    the class's fields, which made reading a cached book 25 ms slower (some 360 records at every start)."""
    changed = copy.copy(record)
    vars(changed).update(changes)
    return changed


@dataclass(kw_only=True, repr=False)
class NumericAnswer(Exercise):
    """An exercise answered by one number in a unit, or by a formula over `symbols`: the base of the kinds
    whose numbers come from formulas over params, and may vary (grader.book.variants)."""

    # Every text a learner reads, where placeholders such as `{{M}}` may stand, in order: a field (a string,
    # or a tuple of strings), or a field of records and the text fields of each. The title comes last,
    # since "7B with ZeRO-1 on {{N}} GPUs" must change with the numbers too. A subclass with texts of its
    # own declares the whole list again.
    TEXT_FIELDS: ClassVar[tuple[tuple[str, ...], ...]] = (
        ("prompt",), ("explanation",), ("hints",), ("mistakes", "feedback"), ("title",))

    params: dict[str, Any] = field(default_factory=dict)
    answer: str | None = None
    unit: str = ""
    symbols: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    vary: dict[str, Any] = field(default_factory=dict)   # param -> {choices: [...]} or {from, to, step}
    constraints: tuple[str, ...] = ()                      # comparisons every variant must satisfy
    hardware: dict[str, dict[str, float]] = field(default_factory=dict)  # the book's products and figures
    gpus: tuple[str, ...] = ()     # the card(s) it runs on: the book's own first; more than one varies it
    fits: str | None = None        # GB each GPU holds, which must fit on the card in every variant
    overflows: str | None = None   # GB that must exceed the card in every variant (about not fitting)
    written: NumericAnswer | None = field(default=None, compare=False, repr=False)  # texts with placeholders

    @property
    def is_formula(self) -> bool:
        return bool(self.symbols)

    def keyed_texts(self) -> list[tuple[TextKey, str]]:
        """Each text of TEXT_FIELDS with the keys of where it is written (for `path:line` messages)."""
        found: list[tuple[TextKey, str]] = []
        for name, *parts in self.TEXT_FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                found.append(((name,), value))
            elif not parts:
                found += [((name, i), text) for i, text in enumerate(value)]
            else:
                found += [((name, i, part), getattr(record, part)) for i, record in enumerate(value) for part in parts]
        return found

    @property
    def texts(self) -> list[str]:
        """Every text a learner reads, in the order of TEXT_FIELDS."""
        return [text for _, text in self.keyed_texts()]

    def with_texts(self, texts: Sequence[str]) -> NumericAnswer:
        """This exercise showing `texts` (in the order of `texts`) instead, and kept as `written`: the
        canonical rendering a checked book stores, so a start from its cache renders nothing."""
        given = iter(texts)
        changes: dict[str, Any] = {}
        for name, *parts in self.TEXT_FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                changes[name] = next(given)
            elif not parts:
                changes[name] = tuple(next(given) for _ in value)
            else:
                changes[name] = tuple(_with(record, {part: next(given) for part in parts}) for record in value)
        return replace(self, **changes, written=self)

    def graded_formulas(self) -> tuple[str, ...]:
        """The formulas a learner's numbers are graded against: the answer, unless it is a formula over
        symbols (whose value needs them)."""
        return (self.answer,) if self.answer is not None and not self.is_formula else ()

    @property
    def is_template(self) -> bool:
        """Whether its numbers vary or its texts hold placeholders: then it is posed through grader.book.variants."""
        return bool(self.vary) or any("{{" in text for text in self.texts)

    @property
    def gpu(self) -> str | None:
        """The card of these numbers: the book's own, or the one a variant drew (param `gpu`, an index)."""
        if not self.gpus:
            return None
        index = self.params.get("gpu", 0)
        drawn = isinstance(index, (int, float)) and 0 <= index < len(self.gpus)
        return self.gpus[int(index)] if drawn else self.gpus[0]

    @cached_property
    def uses_hardware(self) -> bool:
        """Whether it names a card or a hardware figure: only then do its formulas carry those names (a
        check resolves each exercise's params hundreds of times)."""
        if self.gpus:
            return True
        formulas = [*map(str, self.params.values()), str(self.answer), str(self.fits), str(self.overflows),
                    *self.constraints, *(m.answer for m in self.mistakes), *(c for m in self.mistakes for c in m.when),
                    *self.graded_formulas(), *self.texts]
        return any(_HARDWARE_NAME.search(formula) for formula in formulas)

    @property
    def figures(self) -> dict[str, float]:
        return hardware_figures(self.hardware, self.gpu) if self.uses_hardware else {}

    @cached_property
    def env(self) -> dict[str, float]:
        return resolve_params(self.params, self.figures)

    @cached_property
    def value(self) -> float:
        """The correct number in the box's unit (numeric exercises only)."""
        if self.is_formula or self.answer is None:
            raise TypeError(f"exercise {self.id} has no single numeric answer")
        return evaluate_text(self.answer, self.env)

    @cached_property
    def mistake_values(self) -> tuple[float, ...]:
        """Each mistake's number (numeric exercises only), computed once."""
        return tuple(evaluate_text(m.answer, self.env) for m in self.mistakes)

    @cached_property
    def applicable_mistakes(self) -> tuple[Mistake, ...]:
        """The mistakes whose `when` holds with these numbers: the only slips the grader names."""
        if not any(m.when for m in self.mistakes):
            return self.mistakes
        names = dict(self.env)
        if self.answer is not None and not self.is_formula:
            names["answer"] = self.value
        return tuple(m for m in self.mistakes if m.applies(names))

"""What a book is: chapters of exercises, one dataclass per exercise kind.

The numbers a learner is graded against are never stored: they are computed from each exercise's
formulas and params, so a typo in a hand-typed figure cannot exist.

Nothing changes an exercise once the loader has built it: a variant is a new one (dataclasses.replace).
The dataclasses are not frozen all the same: Python 3.11 writes three more methods for each frozen class
and sets every field through object.__setattr__, which made the model 5% of ringbook's start. Nor do they
have generated reprs (another 1.3%, paid at every start, for a text nothing shows): an exercise, a
chapter and a book name themselves by id.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from grader.book.files import BookFileError, narrative_cost, read_text
from grader.safe_text import printable

Kind = Literal["derive", "trace", "build", "debug", "design"]
KINDS: tuple[Kind, ...] = ("derive", "trace", "build", "debug", "design")
DEFAULT_TOLERANCE = 0.005  # 3 significant figures always pass; a 4th-digit slip does not


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
    kind: Kind
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


def fixed_shuffle(things: tuple, seed: str, avoid: tuple[str, ...] = ()) -> tuple:
    """The same shuffle on every run and machine (seeded by a string such as the exercise id, never by
    hash()), never in the `avoid` order of ids: what a learner sees, and what letters and positions refer to."""
    shuffled = list(things)
    rng = random.Random(seed)
    for _ in range(20):
        rng.shuffle(shuffled)
        if tuple(t.id for t in shuffled) != avoid:
            return tuple(shuffled)
    return tuple(reversed(things))


@dataclass(repr=False)
class Mistake:
    """A wrong answer an author foresaw (a formula over the params) and what to say to whoever gives it;
    `when` (comparisons over the params and `answer`, all of which must hold) says in which variants the
    slip it describes can be made at all: elsewhere the grader does not use it."""

    answer: str
    feedback: str
    when: tuple[str, ...] = ()

    def applies(self, names: dict[str, float], value=None) -> bool:
        """Whether every comparison of `when` holds with these params (and `answer`); `value` turns a side's
        formula into a number (by default parsed afresh; a caller that checks many variants passes a cached one)."""
        from grader.maths.evaluate import holds

        value = value or (lambda formula: evaluate_text(formula, names))
        return all(holds(condition, value) for condition in self.when)


def evaluate_text(formula: str | float, env: dict[str, float]) -> float:
    """A formula's value; the evaluator loads on first use, so building a book from its cache stays cheap."""
    from grader.maths.evaluate import evaluate_text as evaluate

    return evaluate(formula, env)


FIGURES = ("memory", "nvlink", "network")  # GB per GPU; NVLink GB/s, both directions added; Gb/s per port
_HARDWARE_NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_(?:memory|nvlink|network)\b")


def hardware_figures(hardware: dict[str, dict[str, float]], gpu: str | None = None) -> dict[str, float]:
    """The names the book's hardware gives formulas: `H100_memory`, `B200_nvlink`, ... for every product,
    and `gpu_memory`, `gpu_nvlink`, `gpu_network` for `gpu`, the card an exercise (or variant) runs on."""
    if not hardware:
        return {}
    kept = _FIGURE_NAMES.get((id(hardware), gpu))
    if kept is not None and kept[0] is hardware:  # variants resolve it thousands of times in a check
        return dict(kept[1])
    names = {f"{product}_{figure}": float(value) for product, figures in hardware.items()
             for figure, value in figures.items() if figure in FIGURES}
    if gpu is not None and gpu in hardware:
        names.update({f"gpu_{figure}": float(hardware[gpu][figure]) for figure in FIGURES})
    _FIGURE_NAMES[(id(hardware), gpu)] = (hardware, names)
    return dict(names)


_FIGURE_NAMES: dict[tuple[int, str | None], tuple[dict, dict[str, float]]] = {}


def resolve_params(params: dict[str, Any], figures: dict[str, float] | None = None) -> dict[str, float]:
    """Evaluate params in order; each may be a formula over the ones before it (and over `figures`, the
    hardware's names, which come first)."""
    env: dict[str, float] = dict(figures or {})
    for name, value in params.items():
        env[name] = evaluate_text(value, env)
    return env


@dataclass(kw_only=True, repr=False)
class NumericAnswer(Exercise):
    """An exercise answered by one number in a unit, or by a formula over `symbols`."""

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

    @property
    def texts(self) -> list[str]:
        """Every text a learner reads, where placeholders such as `{{M}}` may stand (grader.book.variants): the
        title last, since "7B with ZeRO-1 on {{N}} GPUs" must change with the numbers too."""
        steps, options = getattr(self, "steps", ()), getattr(self, "options", ())
        return [self.prompt, self.explanation, *self.hints, *(m.feedback for m in self.mistakes),
                *(s.label for s in steps), *(s.feedback for s in steps),
                *(o.text for o in options), *(o.feedback for o in options), self.title]

    def with_texts(self, texts: list[str]) -> NumericAnswer:
        """This exercise showing `texts` (in the order of `texts`) instead, and kept as `written`: the
        canonical rendering a checked book stores, so a start from its cache renders nothing."""
        hints, mistakes = len(self.hints), len(self.mistakes)
        rest = iter(texts[2 + hints + mistakes:-1])
        changes: dict[str, Any] = dict(
            title=texts[-1], prompt=texts[0], explanation=texts[1], hints=tuple(texts[2:2 + hints]),
            mistakes=tuple(Mistake(m.answer, f, m.when) for m, f in zip(self.mistakes, texts[2 + hints:])),
            written=self)
        steps, options = getattr(self, "steps", ()), getattr(self, "options", ())
        if steps:
            labels = [next(rest) for _ in steps]
            changes["steps"] = tuple(Step(label, s.answer, next(rest)) for label, s in zip(labels, steps))
        if options:
            option_texts = [next(rest) for _ in options]
            changes["options"] = tuple(Option(o.id, text, o.correct, next(rest))
                                       for text, o in zip(option_texts, options))
        return replace(self, **changes)

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
        return self.gpus[int(index)] if isinstance(index, (int, float)) and 0 <= index < len(self.gpus) else self.gpus[0]

    @cached_property
    def uses_hardware(self) -> bool:
        """Whether it names a card or a hardware figure: only then do its formulas carry those names (a
        check resolves each exercise's params hundreds of times)."""
        if self.gpus:
            return True
        formulas = [*map(str, self.params.values()), str(self.answer), str(self.fits), str(self.overflows),
                    *self.constraints, *(m.answer for m in self.mistakes), *(c for m in self.mistakes for c in m.when),
                    *(s.answer for s in getattr(self, "steps", ())), *self.texts]
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


@dataclass(kw_only=True, repr=False)
class Derive(NumericAnswer):
    """Work a number or a formula out from the chapter."""

    kind: Kind = "derive"


@dataclass(repr=False)
class Option:
    """One answer of a multiple-choice step, with what to say when it is picked."""

    id: str
    text: str
    correct: bool
    feedback: str


@dataclass(repr=False)
class Step:
    """One row of a table of states: its label, its value as a formula, and a note for a wrong value."""

    label: str
    answer: str
    feedback: str = ""


@dataclass(kw_only=True, repr=False)
class Trace(NumericAnswer):
    """Step through an algorithm: one number (`answer`), one choice (`options`) or a table (`steps`)."""

    kind: Kind = "trace"
    options: tuple[Option, ...] = ()
    steps: tuple[Step, ...] = ()

    @property
    def style(self) -> Literal["number", "choice", "steps"]:
        if self.options:
            return "choice"
        return "steps" if self.steps else "number"

    @property
    def correct_option(self) -> Option:
        return next(o for o in self.options if o.correct)

    @property
    def deals(self) -> bool:
        return bool(self.options)

    @cached_property
    def presented_options(self) -> tuple[Option, ...]:
        """Options in the order shown, lettered A, B, C...: a fixed shuffle, so where an author happened
        to put the right answer tells the learner nothing, dealt afresh for each seed (`deal`)."""
        return fixed_shuffle(self.options, self.deal_key)

    @cached_property
    def step_values(self) -> tuple[float, ...]:
        return tuple(evaluate_text(s.answer, self.env) for s in self.steps)


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


@dataclass(kw_only=True, repr=False)
class Build(Exercise):
    """Write a small function; graded by running it against `tests` in a sandbox."""

    kind: Kind = "build"
    function: str
    signature: str
    starter: str
    solution: str
    tests: tuple[CodeTest, ...]
    tolerance: float = 1e-6


@dataclass(kw_only=True, repr=False)
class Debug(Exercise):
    """Find the one wrong line of `code` (1-based `buggy_line`); `fixed_line` is what it should say."""

    kind: Kind = "debug"
    language: str
    code: str
    buggy_line: int
    fixed_line: str
    function: str = ""
    tests: tuple[CodeTest, ...] = ()
    line_feedback: dict[int, str] = field(default_factory=dict)
    tolerance: float = 1e-6

    @property
    def lines(self) -> list[str]:
        return self.code.rstrip("\n").split("\n")

    @property
    def fixed_code(self) -> str:
        lines = self.lines
        lines[self.buggy_line - 1] = self.fixed_line
        return "\n".join(lines) + "\n"


@dataclass(repr=False)
class DesignItem:
    """One thing to put in order, with what to say when it is out of place."""

    id: str
    text: str
    feedback: str = ""


@dataclass(kw_only=True, repr=False)
class Design(Exercise):
    """Put `items` in `order` (item ids)."""

    kind: Kind = "design"
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


@dataclass(repr=False)
class Chapter:
    """A chapter folder: its narrative (read when it opens) and its exercises."""

    id: str
    title: str
    path: Path
    exercises: tuple[Exercise, ...]
    part: str = ""  # the part of the course it belongs to, as book.yaml names it ("" for the main run)

    def __repr__(self) -> str:
        return f"Chapter({self.id!r})"

    @property
    def narrative_path(self) -> Path:
        return self.path / "chapter.md"

    def narrative(self) -> str:
        """The chapter's Markdown with control characters shown, not sent; a file that cannot be read now,
        or would cost too much to show (changed since the book was checked), is said in its place instead
        of stopping the app."""
        try:
            text = read_text(self.narrative_path)
            too_costly = narrative_cost(text)
            if too_costly:
                line, message = too_costly[0]
                raise BookFileError(f"line {line}: {message}")
            return printable(text)
        except (OSError, BookFileError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return (f"*This chapter cannot be shown: {printable(reason, one_line=True)}. "
                    "Run `ringbook content check` on the book.*")


@dataclass(repr=False)
class LabRef:
    """A lab listed in book.yaml: its own file, read by the lab when it opens."""

    id: str
    title: str
    path: Path


@dataclass(repr=False)
class Book:
    """The whole course, checked: chapters in order, then the quizzes and labs book.yaml lists."""

    title: str
    subtitle: str
    root: Path
    chapters: tuple[Chapter, ...]
    quizzes: tuple[Any, ...] = ()  # grader.book.quiz.Quiz, kept out of this module's imports
    labs: tuple[LabRef, ...] = ()

    def __repr__(self) -> str:
        return f"Book({str(self.root)!r})"

    @cached_property
    def _by_id(self) -> dict[str, Exercise]:
        return {e.id: e for c in self.chapters for e in c.exercises}

    @property
    def exercises(self) -> list[Exercise]:
        return [e for c in self.chapters for e in c.exercises]

    def exercise(self, exercise_id: str) -> Exercise | None:
        return self._by_id.get(exercise_id)

    def chapter(self, chapter_id: str) -> Chapter | None:
        return next((c for c in self.chapters if c.id == chapter_id), None)

    def quiz(self, quiz_id: str):
        return next((q for q in self.quizzes if q.id == quiz_id), None)

    def lab(self, lab_id: str) -> LabRef | None:
        return next((lab for lab in self.labs if lab.id == lab_id), None)

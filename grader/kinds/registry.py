"""What the engine knows of an exercise kind, in one record, and the kinds registered by name.

Every kind is one module of grader/kinds/ holding its dataclass, how it is read from the YAML and what its
fields may be (its schema), what a check finds wrong with it, how an answer is judged and labelled, how long
answering takes, how `content show` prints it and the example `content new` writes. Its `KIND` record is
found by scanning grader/kinds (grader/kinds/__init__.py) and registered here by name; nothing else names a
kind. The faces find a part per way of answering the same way (tui.kind_parts), and
content/exercise.schema.json is generated from the kinds' schemas (grader.book.schema).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grader.exercise import Exercise, Where
from grader.verdict import Deadline, Verdict

Hardware = dict[str, dict[str, float]]
Findings = list[tuple[int, str]]   # (line, message)
Figure = Callable[[float], str]    # a number as the book prints it (grader.book.variants.format_number)

# The fields every exercise has, which a kind's schema lists as allowed (`true`): `$defs/common` in the
# generated schema says what they hold.
COMMON_FIELDS: dict[str, Any] = {name: True for name in (
    "id", "title", "kind", "prompt", "hints", "explanation", "tolerance")}


class KindError(Exception):
    """A kind that is unknown or registered only in part: a mistake in the code, said at start-up."""


# The hooks take the kind's own dataclass: `Any` there, since a Callable over a subclass is no Callable
# over Exercise (its parameter types are contravariant). `register` checks the dataclass instead.
@dataclass(frozen=True)
class Kind:
    """One exercise kind, as the engine sees it."""

    name: str                                   # as exercises.yaml writes it: `kind: derive`
    exercise: type[Exercise]                    # its dataclass, whose `kind` field defaults to `name`
    # (the YAML, the fields every exercise has, read already, the book's hardware) -> the exercise
    read: Callable[[dict[str, Any], dict[str, Any], Hardware], Exercise]
    problems: Callable[[Any, Where], Findings]  # what makes it unusable: `content check` fails
    warnings: Callable[[Any, Where], Findings]  # what a learner would be told wrongly: the book still opens
    judge: Callable[[Any, str, Deadline], Verdict]
    label: Callable[[Any, str], str]            # a stored answer (an id, a line) in the learner's terms
    expected_seconds: float                     # a quick right answer (a share of this) is rated Easy
    ways: tuple[str, ...]                       # the ways of answering it may take: one answer panel each
    way: Callable[[Any], str]                   # the way one exercise of the kind is answered
    schema: dict[str, Any]                      # its `$defs` entry in the exercise schema: its own fields
    example: str                                # one exercise as exercises.yaml writes it, from `title:` on,
                                                # for `content new`'s book (about global batch and warm-up)
    runs_code: bool = False                     # learner code runs: never on an instructor's account
    # How `content show` prints one posed exercise beyond what every exercise has (its title, prompt, hints
    # and explanation): what is shown under the prompt (options, columns), with what only `--explain` gives;
    # the feedback it holds in store for answers, one line each; the answer as a line; the same as data.
    shown: Callable[[Any, bool], list[str]] = lambda exercise, explain: []
    notes: Callable[[Any, Figure], list[str]] = lambda exercise, figure: []
    answer_line: Callable[[Any, Figure], str] = lambda exercise, figure: ""
    data: Callable[[Any], dict[str, Any]] = lambda exercise: {}


KINDS: dict[str, Kind] = {}


HOOKS = ("read", "problems", "warnings", "judge", "label", "way", "shown", "notes", "answer_line", "data")


def register(kind: Kind) -> None:
    """Add `kind`; a kind missing a hook, a second kind of the same name, or a dataclass that says another
    kind, is refused."""
    missing = [hook for hook in HOOKS if not callable(getattr(kind, hook))]
    if missing:
        raise KindError(f"kind {kind.name!r} has no {', '.join(missing)}: give its Kind every one of "
                        f"{', '.join(HOOKS)}")
    if kind.name in KINDS:
        raise KindError(f"kind {kind.name!r} is registered twice")
    field = kind.exercise.__dataclass_fields__.get("kind")
    if not issubclass(kind.exercise, Exercise) or field is None or field.default != kind.name:
        raise KindError(f"kind {kind.name!r}: its dataclass must be an Exercise whose kind defaults to {kind.name!r}")
    if not kind.ways or kind.expected_seconds <= 0:
        raise KindError(f"kind {kind.name!r} needs at least one way of answering and a positive expected time")
    KINDS[kind.name] = kind


def unregister(name: str) -> None:
    """Remove a kind (a test's toy kind, once the test is done)."""
    KINDS.pop(name, None)


def kind_named(name: str) -> Kind:
    """The kind called `name`; a name no module registered fails loudly."""
    try:
        return KINDS[name]
    except KeyError:
        raise KindError(f"unknown exercise kind {name!r}: no module of grader/kinds registers it "
                        f"(registered: {', '.join(KINDS)})") from None


def kind_of(exercise: Exercise) -> Kind:
    return kind_named(exercise.kind)


def label(exercise: Exercise, answer: str) -> str:
    """A stored answer as one line in the learner's terms (an option by its letter and text, a design by its
    items' names, a debug pick by its line); text it cannot place is shown as it is."""
    return kind_of(exercise).label(exercise, answer)


def plain_label(exercise: Exercise, answer: str) -> str:
    """The answer on one line, as typed: for kinds whose answers are what the learner wrote."""
    return " ".join(answer.split())


def no_findings(exercise: Exercise, where: Where) -> Findings:
    """For a kind with nothing of the sort to find."""
    return []

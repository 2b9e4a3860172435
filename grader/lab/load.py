"""A lab file -> Lab, with every problem reported as `path:line: message`, as a book's are.

The YAML is read through the book's guards (grader.files: size, nesting, aliases, printable strings) with
its line numbers kept, and checked against content/lab.schema.json (fields, types, 2 to 4 options, whole
positive TP and PP) with the book's schema helpers (grader.problems). What needs the lab's model is checked
here: the two acts the screen knows, in order; measured GPU counts the lab offers; one right option per
question and unique option ids; layouts that can be built; and every figure named in braces. Then each named
figure is filled in from the model (grader.lab.model), so no number in the lab's prose is typed by hand.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from grader import BUILTIN_CONTENT
from grader.files import BookFileError, load_yaml
from grader.lab.model import (
    GPU_COUNTS,
    Act,
    Hardware,
    Lab,
    LabOption,
    LabQuestion,
    ThreeDSetup,
    check_three_d,
    layout_values,
    prose_values,
)
from grader.problems import Problem, line_loader, line_of, schema_problems, schema_validator

LAB_SCHEMA_PATH = BUILTIN_CONTENT / "lab.schema.json"
ACT_IDS = ("data-parallel", "three-d")   # the acts the lab screen knows, in the order it shows them

Where = tuple[str | int, ...]   # a path into the lab's YAML, as the schema's messages write it: acts/0/title


class LabError(ValueError):
    """A lab file that cannot be used; `problems` says where and why."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def load_lab(path: Path, book: Path) -> Lab:
    """Read and check a lab file of the book whose folder is `book` (outside it, it is refused unread); every
    named figure in its prose is filled in from the model. Raises LabError listing its problems: all the schema
    finds, or else all the checks after it find."""
    path = Path(path)
    raw = _read(path, book)
    problems = schema_problems(path, raw, schema_validator(LAB_SCHEMA_PATH))
    if problems:
        raise LabError(problems)
    return _Reader(path, raw, Hardware()).lab()


def _read(path: Path, book: Path) -> Any:
    """The file's data with its lines; a control character in a string is made printable, not refused (content
    check reports it), so that a lab nobody checked still opens without writing to the terminal."""
    try:
        raw, _, _ = load_yaml(path, book, line_loader())
    except OSError as exc:
        raise LabError([Problem(path, 1, f"cannot read the lab ({exc.strerror or exc})")]) from None
    except BookFileError as exc:
        raise LabError([Problem(path, 1, str(exc))]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise LabError([Problem(path, line, f"not valid YAML ({getattr(exc, 'problem', None) or exc})")]) from None
    return raw


class _Reader:
    """Turns YAML that passed the schema into a Lab, collecting what only the lab's model can check."""

    def __init__(self, path: Path, raw: dict[str, Any], hw: Hardware):
        self.path = path
        self.raw = raw
        self.hw = hw
        self.values: dict[str, str] = {}
        self.problems: list[Problem] = []

    def problem(self, where: Where, message: str) -> Problem:
        return Problem(self.path, line_of(self.raw, where), f"{'/'.join(map(str, where))}: {message}")

    def lab(self) -> Lab:
        raw = self.raw
        acts_raw = raw["acts"]
        if tuple(act["id"] for act in acts_raw) != ACT_IDS:
            raise LabError([self.problem(("acts",), f"expected two acts with ids {', '.join(ACT_IDS)}, in that order")])
        measured = self.measured(acts_raw[0]["measured_mfu"], ("acts", 0, "measured_mfu"))
        self.values = prose_values(self.hw, dict(measured))
        lab = Lab(id=self.text(raw, ("id",)), title=self.text(raw, ("title",)), intro=self.text(raw, ("intro",)),
                  model_statement=self.text(raw, ("model",)),
                  acts=tuple(self.act(act, ("acts", i), measured if i == 0 else ()) for i, act in enumerate(acts_raw)),
                  hardware=self.hw)
        if self.problems:
            raise LabError(self.problems)
        return lab

    def text(self, raw: Mapping[str, Any], where: Where, values: dict[str, str] | None = None) -> str:
        """The text at `where` (its last step is its key in `raw`), its named figures filled in; a figure the
        model does not have is a problem, and the text is then kept as written."""
        value: str = raw[str(where[-1])]
        known = self.values if values is None else values
        try:
            fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(value) if name is not None]
        except ValueError as exc:          # a lone { or }
            self.problems.append(self.problem(where, f"{exc}; write {{{{ and }}}} for a brace in the text"))
            return value
        unknown = [name for name, spec in fields if name not in known or spec]
        for name in unknown:
            self.problems.append(self.problem(where, f"unknown figure {{{name}}}; known: {', '.join(sorted(known))}"))
        return value.strip() if unknown else value.strip().format_map(known)

    def measured(self, points: dict[int, float], where: Where) -> tuple[tuple[int, float], ...]:
        if not set(points) <= set(GPU_COUNTS):
            raise LabError([self.problem(where, f"expected GPU count: MFU %, with GPU counts among {GPU_COUNTS}")])
        return tuple(sorted((n, float(v)) for n, v in points.items()))

    def act(self, raw: dict[str, Any], where: Where, measured: tuple[tuple[int, float], ...]) -> Act:
        return Act(id=raw["id"], title=self.text(raw, (*where, "title")), sender=self.text(raw, (*where, "sender")),
                   message=self.text(raw, (*where, "message")),
                   prediction=self.question(raw["prediction"], (*where, "prediction")),
                   reflection=self.question(raw["reflection"], (*where, "reflection")), measured_mfu=measured)

    def question(self, raw: dict[str, Any], where: Where) -> LabQuestion:
        options = tuple(self.option(option, (*where, "options", i)) for i, option in enumerate(raw["options"]))
        ids = [option.id for option in options]
        if len(set(ids)) != len(ids):
            self.problems.append(self.problem((*where, "options"), "option ids must be unique"))
        if sum(option.correct for option in options) != 1:
            self.problems.append(self.problem((*where, "options"), "exactly one option must have correct: true"))
        return LabQuestion(prompt=self.text(raw, (*where, "prompt")), options=options)

    def option(self, raw: dict[str, Any], where: Where) -> LabOption:
        layout, values = None, self.values
        if "layout" in raw:
            layout = ThreeDSetup(tp=raw["layout"]["tp"], pp=raw["layout"]["pp"])
            try:
                check_three_d(layout)
            except ValueError as exc:   # its figures cannot be computed, so its texts are not checked
                self.problems.append(self.problem((*where, "layout"), str(exc)))
                return LabOption(id=raw["id"], text=raw["text"], feedback=raw["feedback"])
            values = self.values | layout_values(layout, self.hw)
        return LabOption(id=self.text(raw, (*where, "id")), text=self.text(raw, (*where, "text"), values),
                         feedback=self.text(raw, (*where, "feedback"), values), correct=raw.get("correct", False),
                         layout=layout)

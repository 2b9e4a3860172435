"""An exercise built from its fields as its file gives them, by its kind: when a book is read from its files
(grader.book.load), and when a book read from its cached copy first needs its exercises (grader.book.cache).
Only this module of the two imports the kinds, so a start from the copy shows home before they load."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from grader.exercise import Exercise, NumericAnswer, Source, guarded_text
from grader.kinds.registry import Hardware, KindError, kind_named
from grader.problems import Problem, excerpt, line_of

CANONICAL_TEXTS = "_canonical_texts"  # in the book cache only: a templated exercise's texts as first posed


def build_exercise(raw: dict[str, Any], chapter_id: str, source: Source, hardware: Hardware | None = None) -> Exercise:
    """The exercise `raw` describes, read by its kind; one whose numbers are posed shows its canonical texts."""
    common: dict[str, Any] = dict(
        id=str(raw["id"]), title=raw["title"], prompt=raw["prompt"], hints=tuple(raw.get("hints", ())),
        explanation=guarded_text(raw["explanation"]), chapter_id=chapter_id, source=source,
    )
    if "tolerance" in raw:
        common["tolerance"] = float(raw["tolerance"])
    try:
        kind = kind_named(raw["kind"])
    except KindError as exc:
        raise ValueError(unknown_kind(raw["kind"])) from exc
    exercise = kind.read(raw, common, hardware or {})
    return posed(exercise, raw.get(CANONICAL_TEXTS)) if isinstance(exercise, NumericAnswer) else exercise


def posed(exercise: NumericAnswer, shown: list[str] | None = None) -> NumericAnswer:
    """The exercise with its canonical numbers in its texts: `shown` when the book cache kept them,
    else rendered by grader.book.variants, which loads only for an exercise that needs it."""
    if not exercise.is_template:
        return exercise
    if isinstance(shown, list) and len(shown) == len(exercise.texts) and all(isinstance(t, str) for t in shown):
        return exercise.with_texts(shown)
    from grader.book.variants import canonical

    return canonical(exercise)


def unknown_kind(name: object) -> str:
    """What to say of a kind no module registers: the module that would."""
    module = f"grader/kinds/{name}.py" if isinstance(name, str) and name.isidentifier() else "a module of grader/kinds"
    return f"unknown kind {excerpt(name)}: add {module} defining KIND"


def hardware_of(data: dict, book_path: Path, problems: list[Problem]) -> dict[str, dict[str, float]]:
    """book.yaml's `hardware`: per product (a name formulas can use, such as H100), the figures of
    grader.exercise.FIGURES, each a positive number; a NIC faster than the PCIe link that feeds it is a
    card that cannot exist."""
    from grader.exercise import FIGURES

    table = data.get("hardware", {})
    if not isinstance(table, dict):
        problems.append(Problem(book_path, line_of(data, ["hardware"]), "hardware must map product names to figures"))
        return {}
    good: dict[str, dict[str, float]] = {}
    for name, figures in table.items():
        line = line_of(data, ["hardware", name])
        if not isinstance(name, str) or not re.fullmatch(r"[A-Z][A-Za-z0-9]*", name):
            problems.append(Problem(book_path, line, f"hardware {excerpt(name)}: a product name is a capital letter, "
                                                     "then letters and digits (H100, B200), so formulas can say "
                                                     "H100_memory"))
        elif (not isinstance(figures, dict) or set(figures) != set(FIGURES)
              or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < math.inf
                         for v in figures.values())
              or not all(float(figures[count]).is_integer() for count in ("gpus", "nics"))):
            problems.append(Problem(book_path, line, f"hardware {name}: give memory (GB per GPU), nvlink (GB/s "
                                                     "per GPU, one direction), gpus and nics (per node, whole), "
                                                     "network (Gb/s per NIC) and pcie (GB/s of the link feeding a "
                                                     "NIC), positive finite numbers"))
        elif figures["network"] / 8 > figures["pcie"]:
            problems.append(Problem(book_path, line, f"hardware {name}: NICs of {figures['network']:g} Gb/s "
                                                     f"move {figures['network'] / 8:g} GB/s each, more than the "
                                                     f"{figures['pcie']:g} GB/s PCIe link that feeds each (pcie)"))
        else:
            good[name] = {figure: float(figures[figure]) for figure in FIGURES}
    return good

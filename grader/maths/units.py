"""Units in answers: turning what a learner typed (`1750 MB`, `0.07 s`, `112 MiB`) into the unit the
answer box asks for.

Decimal and binary prefixes keep their standard meanings: 1 GB = 10^9 bytes and 1 GiB = 2^30 bytes
(SI and IEC). The book writes decimal units throughout, so `112 MiB` in an MB box is 117.44 MB, not
112. Bytes get a dimension of their own ("information"), so a time or a percentage can never pass for
a size. Box labels that are not physical units (steps, GPUs, dollars, PF-days) are counting words:
the learner may repeat the word or leave it out.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # pint is imported when an answer first needs a conversion (it costs ~1 s)
    from pint import Unit, UnitRegistry

_PHYSICAL = re.compile(r"^[A-Za-zµμ%]+(/[A-Za-zµμ]+)?$")
_DIMENSION_NAMES = {
    "[information]": "a data size",
    "[time]": "a time",
    "[information] / [time]": "a bandwidth",
    "dimensionless": "a plain number",
}


class UnitError(ValueError):
    """A unit that cannot stand in this answer box; `incompatible` tells a wrong dimension apart
    from a unit that could not be read at all."""

    def __init__(self, message: str, *, incompatible: bool):
        super().__init__(message)
        self.message = message
        self.incompatible = incompatible


# pint's own definitions, changed where they would misread a data size: bits are information (pint makes
# them dimensionless, and redefining `bit` afterwards leaves `b` and the byte half-converted), `b` is a
# bit, not a barn, and `Gb` is a gigabit, not a gilbert (which made "3200 Gb/s" a current per second).
_DEFINITION_CHANGES = (
    (r"(?m)^bit = \[\]$", "bit = [information] = b"),
    (r"(?m)^(barn = [^\n=]*?) = b$", r"\1"),
    (r"(?m)^(gilbert = [^\n=]*?) = Gb$", r"\1"),
)


@lru_cache(maxsize=1)
def registry() -> UnitRegistry:
    """pint's registry, built once and only when an answer needs a conversion (it costs ~1 s)."""
    from importlib.resources import files

    import pint

    folder = files("pint")
    text = (folder / "default_en.txt").read_text(encoding="utf-8")
    text = text.replace("@import constants_en.txt", (folder / "constants_en.txt").read_text(encoding="utf-8"))
    for pattern, replacement in _DEFINITION_CHANGES:
        text, count = re.subn(pattern, replacement, text)
        if count != 1:  # a pint release that moved a definition: fail loudly, never read bits as something else
            raise RuntimeError(f"pint's definitions changed; cannot apply {pattern!r}")
    ureg: UnitRegistry = pint.UnitRegistry(None, cache_folder=None)
    ureg.load_definitions(text.splitlines())
    ureg.define("KB = kilobyte")  # what people type; pint reads K as kelvin
    return ureg


@lru_cache(maxsize=256)
def parse_unit(text: str) -> Unit | None:
    import pint

    normalized = text.replace("μ", "µ").replace("µ", "u")
    if not _PHYSICAL.match(text):
        return None
    try:
        return registry().parse_units(normalized)
    except (pint.UndefinedUnitError, pint.errors.DefinitionSyntaxError, AttributeError, TypeError, ValueError,
            AssertionError):
        return None


def _counting_word(text: str) -> str:
    word = text.strip().lower().rstrip(".")
    return word[:-1] if word.endswith("s") and len(word) > 2 else word


def convert(value: float, unit: str, box_unit: str) -> float:
    """`value` in `unit`, expressed in `box_unit`; raises UnitError with a sentence for the learner."""
    if unit == box_unit:
        return value
    if not box_unit:
        if unit == "%":
            return value / 100
        raise UnitError(f"This answer is a plain number: leave out {unit!r}.", incompatible=False)
    target = parse_unit(box_unit)
    if target is None:  # not a unit pint knows: a counting word
        if _counting_word(unit) == _counting_word(box_unit) or (unit == "$" and _counting_word(box_unit) == "dollar"):
            return value
        raise UnitError(f"This box counts {box_unit}: type just the number.", incompatible=False)
    source = parse_unit(unit)
    if source is None:
        folded = unit.casefold()
        if folded == box_unit.casefold():
            return value
        raise UnitError(f"I don't know the unit {unit!r}; this box is in {box_unit}.", incompatible=False)
    if not explained(source):   # tesla, gauss, siemens: a slip of the keyboard
        guess = _meant(unit, target)
        raise UnitError(f"{unit} is {source}, not {_describe(target)}: this box is in {box_unit}."
                        + (f" Did you mean {guess}?" if guess else ""), incompatible=False)
    try:
        return float(registry().Quantity(value, source).to(target).magnitude)
    except Exception:  # pint's DimensionalityError, and anything odd inside pint, reads the same to a learner
        raise UnitError(
            f"You answered in {unit} ({_describe(source)}), but this box asks for {box_unit} ({_describe(target)}).",
            incompatible=True,
        ) from None


def _dimension(unit: Unit) -> str:
    return str(registry().Quantity(1, unit).dimensionality)


def explained(unit: Unit) -> bool:
    """A size, a time, a bandwidth or a plain number: a unit whose kind the grader names to a learner."""
    return _dimension(unit) in _DIMENSION_NAMES


def _describe(unit: Unit) -> str:
    dimensionality = _dimension(unit)
    return _DIMENSION_NAMES.get(dimensionality, "a " + dimensionality.replace("[", "").replace("]", ""))


def _meant(unit: str, target: Unit) -> str | None:
    """The spelling of the box's kind that `unit` is a slip for (`T` for TB, `mS` for ms), if one is."""
    wanted = _dimension(target)
    for spelling in (unit + "B", unit.lower(), unit + "B/s"):
        parsed = parse_unit(spelling)
        if parsed is not None and _dimension(parsed) == wanted:
            return spelling
    return None


# A data size or a bandwidth as a book writes one after a number: `400 Gb/s`, `80 GB`, `112 MiB`.
_SIZE_SPELLING = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?((?:[kKMGTPE]i?)?(?:B|b|bit|byte)s?(?:/s)?)(?![\w/])")


def misread_unit(unit: str) -> str | None:
    """Why `unit`, a spelling the book uses, would be read as something it does not mean, or None. A
    unit pint knows must have a dimension the grader explains (a size, a time, a bandwidth, a plain
    number): pint once read `Gb/s` as gilberts per second, a current, and graded "3200 Gb/s" wrong."""
    parsed = parse_unit(unit) if unit else None
    if parsed is None:
        return None  # a counting word (steps, GPUs), which the box compares as a word
    dimensionality = str(registry().Quantity(1, parsed).dimensionality)
    if dimensionality in _DIMENSION_NAMES:
        return None
    return f"the unit {unit!r} reads as {parsed} ({_describe(parsed)}), not a size, time or bandwidth"


def size_spellings(text: str) -> set[str]:
    """The data sizes and bandwidths `text` writes after a number (`Gb/s` in "400 Gb/s")."""
    return {match.group(1) for match in _SIZE_SPELLING.finditer(text)}

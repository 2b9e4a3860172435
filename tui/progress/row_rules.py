"""What a stored row may hold: one set of rules for every row of the progress store, checked before an
import writes anything, before this ringbook writes its own rows, and when a store opens (rows an older
ringbook or a hand edit left are then left out). The bounds keep every later computation safe: times far
from datetime's limits, counts small."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from grader.draws import MAX_SEED
from grader.safe_text import clipped
from tui.progress.store_errors import StoreError
from tui.progress.store_schema import (
    ATTEMPT_DEFAULTS,
    ATTEMPT_FIELDS,
    EXPORT_FORMAT,
    EXPORT_SECTIONS,
    PURPOSES,
    SCHEMA_VERSION,
    UNDER_WAY,
)

EARLIEST = datetime(2000, 1, 1)
LATEST_STORED = datetime(9000, 1, 1)   # a clock that ran ahead is kept; 9999 would overflow with an offset
FUTURE_SLACK = timedelta(days=2)       # an import may come from a machine whose clock is a little ahead
MAX_OFFSET_MINUTES = 18 * 60
MAX_HINTS = 1000
DAY_SECONDS = 24 * 3600.0
MAX_ID = 200
MAX_TEXT = 100_000
MAX_DRAFT = MAX_TEXT   # a draft is held to an answer's length; the editors' files are capped to it (work_files)
MAX_PAYLOAD = 1_000_000


def utc_text(moment: datetime) -> str:
    """A moment as the store keeps it: UTC, to the microsecond, with a Z."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_UTC_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?Z")


def parse_utc(text: str) -> datetime:
    """A stored `created_utc` back as a naive UTC datetime: the format utc_text writes, or whole seconds.
    Raises ValueError for anything else."""
    if not _UTC_TEXT.fullmatch(text):
        raise ValueError(f"not a UTC time: {text[:40]!r}")
    return datetime.fromisoformat(text[:-1])


@dataclass(repr=False)
class _Limits:
    """How far the clock-dependent fields may go: an import is held to now, a stored row only to sense."""

    latest: datetime
    longest_seconds: float | None

    @classmethod
    def for_import(cls, now: datetime) -> _Limits:
        return cls(now.astimezone(UTC).replace(tzinfo=None) + FUTURE_SLACK, DAY_SECONDS)


STORED = _Limits(LATEST_STORED, None)


def _shown(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"a {type(value).__name__} too long to show"
    return clipped(text, 40)


def _text(value: Any, limit: int) -> str:
    if type(value) is not str:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    if len(value) > limit:
        raise ValueError(f"is too long ({len(value)} characters; at most {limit})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"is not valid text ({_shown(value)})") from None
    return value


def _identifier(value: Any, limits: _Limits) -> str:
    if not _text(value, MAX_ID):
        raise ValueError("is empty")
    return value


def _label(value: Any, limits: _Limits) -> str:
    return _text(value, MAX_ID)


def _prose(value: Any, limits: _Limits) -> str:
    return _text(value, MAX_TEXT)


def _status(value: Any, limits: _Limits) -> str:
    if type(value) is not str or value not in ("correct", "incorrect"):
        raise ValueError(f"is neither 'correct' nor 'incorrect' ({_shown(value)})")
    return value


def _integer(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    if not low <= value <= high:
        raise ValueError(f"is not {what} ({_shown(value)})")
    return value


def _seed(value: Any, limits: _Limits) -> int:
    return _integer(value, 0, MAX_SEED, "a seed from 0 to 2^63 - 1")


def _purpose(value: Any, limits: _Limits) -> str:
    if type(value) is not str or value not in PURPOSES:
        raise ValueError(f"is not one of {', '.join(PURPOSES)} ({_shown(value)})")
    return value


def _hints(value: Any, limits: _Limits) -> int:
    return _integer(value, 0, MAX_HINTS, f"a count of hints from 0 to {MAX_HINTS}")


def _offset(value: Any, limits: _Limits) -> int:
    return _integer(value, -MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES, "an offset from UTC within 18 hours")


def _flag(value: Any, limits: _Limits) -> bool:
    if type(value) not in (bool, int) or value not in (0, 1):
        raise ValueError(f"is neither true nor false ({_shown(value)})")
    return bool(value)


def _seconds(value: Any, limits: _Limits) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float):
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    longest = limits.longest_seconds
    if not (type(value) is int or math.isfinite(value)) or value < 0 or (longest is not None and value > longest):
        bound = f"from 0 to {longest:.0f}" if longest is not None else "of 0 or more"
        raise ValueError(f"is not a number of seconds {bound} ({_shown(value)})")
    return float(value)


class _Ahead(ValueError):
    """A time no calendar forbids but the clock here has not reached (more than FUTURE_SLACK ahead): the
    export was made on a machine whose clock runs ahead, or under RINGBOOK_NOW, not damaged."""

    def __init__(self, moment: datetime):
        super().__init__(f"is {moment:%Y-%m-%d %H:%M} UTC")
        self.moment = moment


def _moment(value: Any, limits: _Limits) -> str:
    try:
        moment = parse_utc(_text(value, 40))
    except ValueError:
        if type(value) is not str:
            raise
        raise ValueError(f"is not a UTC time: {_shown(value)}") from None
    if limits.latest < moment <= LATEST_STORED:
        raise _Ahead(moment)
    if not EARLIEST <= moment <= limits.latest:
        raise ValueError(f"is {_shown(value)}, not between {EARLIEST:%Y-%m-%d} and {limits.latest:%Y-%m-%d}")
    return value


def _day(value: Any, limits: _Limits) -> str:
    try:
        day = date.fromisoformat(_text(value, 10))
    except ValueError:
        if type(value) is not str:
            raise
        raise ValueError(f"is not a date such as 2026-03-12 ({_shown(value)})") from None
    if not EARLIEST.date() <= day <= LATEST_STORED.date():
        raise ValueError(f"is not between {EARLIEST:%Y-%m-%d} and {LATEST_STORED:%Y-%m-%d} ({_shown(value)})")
    return value


def _payload(value: Any, limits: _Limits) -> dict[str, Any]:
    """A ledger entry's details: a JSON object of bounded size with finite numbers; a quiz's score, when
    given, is a number, since the home screen and `progress` take the best of them."""
    if not isinstance(value, dict):
        raise ValueError(f"is not an object ({type(value).__name__})")
    try:
        size = len(json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8"))
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError):
        raise ValueError("holds something that is not plain JSON (a number that is not finite, "
                         "text that is not valid, or nesting too deep)") from None
    if size > MAX_PAYLOAD:
        raise ValueError(f"is too large ({size} bytes; at most {MAX_PAYLOAD})")
    for key in ("score", "out_of"):
        if key in value and (type(value[key]) not in (int, float) or not 0 <= value[key] < math.inf):
            raise ValueError(f"has a {key} that is not a number of 0 or more ({_shown(value[key])})")
    return value


def _stored_payload(value: Any, limits: _Limits) -> dict[str, Any]:
    """A ledger entry's details as the store keeps them: JSON text."""
    if type(value) is not str:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    try:
        details = json.loads(value)
    except (ValueError, RecursionError):
        raise ValueError("is not JSON") from None
    return _payload(details, limits)


def _draft_text(value: Any, limits: _Limits) -> str:
    """A draft's text: what check_draft lets the store keep."""
    if type(value) is not str:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    try:
        check_draft(value)
    except StoreError as exc:
        raise ValueError(f"is not a draft the store keeps ({exc})") from None
    return value


def _under_way(value: Any, limits: _Limits) -> str:
    if value not in UNDER_WAY:
        raise ValueError(f"is not one of {', '.join(UNDER_WAY)} ({_shown(value)})")
    return str(value)


Rule = Callable[[Any, _Limits], Any]   # a field's value checked (and, for a flag, made a bool), or ValueError

RULES: dict[str, Rule] = {
    "uid": _identifier, "exercise_id": _identifier, "answer": _prose, "status": _status, "message": _prose,
    "feedback": _prose, "hints_used": _hints, "revealed_first": _flag, "seconds_taken": _seconds,
    "created_utc": _moment, "utc_offset_minutes": _offset, "local_date": _day, "part": _identifier,
    "name": _label, "payload": _payload, "seed": _seed, "purpose": _purpose,
    "text": _draft_text, "updated_utc": _moment, "kind": _under_way,
}
STORED_RULES: dict[str, Rule] = {**RULES, "payload": _stored_payload}   # a payload is kept as JSON text


def cleaned(row: Any, fields: tuple[str, ...], limits: _Limits) -> dict[str, Any]:
    """`row`'s `fields`, each checked against its rule; raises ValueError naming the first that breaks one."""
    if not isinstance(row, dict):
        raise ValueError("it is not an object")
    checked: dict[str, Any] = {}
    for name in fields:
        if name not in row and fields is ATTEMPT_FIELDS and name in ATTEMPT_DEFAULTS:
            checked[name] = ATTEMPT_DEFAULTS[name]   # an export from before the field existed
            continue
        if name not in row:
            raise ValueError(f"{name!r} is missing")
        try:
            checked[name] = RULES[name](row[name], limits)
        except _Ahead:
            raise
        except ValueError as exc:
            raise ValueError(f"{name!r} {exc}") from None
    return checked


def breaks_rules(values: Sequence[Any], rules: Sequence[Rule], limits: _Limits) -> bool:
    """Whether a stored row (its values in the order of `rules`) breaks any rule: the store's open check."""
    try:
        for rule, value in zip(rules, values, strict=True):
            rule(value, limits)
    except ValueError:
        return True
    return False


def validated_export(data: Any, now: datetime) -> dict[str, list[dict[str, Any]]]:
    """The rows of an export by section (EXPORT_SECTIONS), every field checked, so nothing odd reaches the
    store (or a class report) to break a streak or a sum later. The first bad field refuses the whole export,
    named with its row. A section an older export lacks (drafts, runs under way) is empty."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StoreError("That file is not a ringbook progress export.")
    if not isinstance(data.get("schema"), int) or data["schema"] > SCHEMA_VERSION:
        raise StoreError("That export was written by a newer ringbook; update ringbook to import it.")
    limits = _Limits.for_import(now)
    sections: dict[str, list[dict[str, Any]]] = {}
    for section, fields in EXPORT_SECTIONS.items():
        rows = data.get(section, [])
        if not isinstance(rows, list):
            raise StoreError(f"That export is damaged: its {section!r} is not a list. Nothing was imported.")
        sections[section] = []
        for number, row in enumerate(rows, 1):
            try:
                sections[section].append(cleaned(row, fields, limits))
            except _Ahead as ahead:
                raise StoreError(
                    f"That export was made in the future by this machine's clock: {section} row {number} was made "
                    f"at {ahead.moment:%Y-%m-%d %H:%M} UTC, and it is {now.astimezone(UTC):%Y-%m-%d %H:%M} "
                    "UTC here. The clock of the machine that made it runs ahead, or it was made with RINGBOOK_NOW "
                    "set; import it once this clock has passed that time. Nothing was imported.") from None
            except ValueError as exc:
                raise StoreError(f"That export is damaged: {section} row {number}: {exc}. "
                                 "Nothing was imported.") from None
    return sections


def check_draft(text: str) -> None:
    """A draft the store may keep: text (no surrogate, which undecodable input is read as) of at most MAX_DRAFT
    characters. Anything else is refused with StoreError, never cut: cut code is no longer what was written,
    and refusing leaves the draft kept before as it was."""
    if len(text) > MAX_DRAFT:
        raise StoreError(f"A draft of {len(text):,} characters is not kept: a draft holds at most {MAX_DRAFT:,} "
                         "(a build's code is a function or two)")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StoreError(f"A draft that is not text (character {exc.start + 1}) is not kept") from None


def savable(row: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """A row this ringbook is about to write, held to the rules an import is held to, so that everything
    it writes can be read, exported and imported again."""
    try:
        return cleaned(row, fields, STORED)
    except ValueError as exc:
        raise StoreError(f"This could not be saved: {exc}.") from None

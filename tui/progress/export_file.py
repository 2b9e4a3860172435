"""Progress export files as they arrive from students: read and checked without trusting them, and
written so that printing them is harmless and a failed write never costs an earlier export.

A class report reads whatever students drop into an inbox, and `progress import` whatever file it is
given. Either may be a link to /dev/zero, a FIFO, gigabytes of JSON, JSON nested 100,000 deep, or rows
the store accepts but no calendar can place. So a file is opened without following a link, only a
regular file of bounded size is read, its rows go through the store's own checks in a throwaway store,
and every way it can fail, foreseen or not, becomes a one-line reason instead of an exception.
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import stat
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from grader.safe_text import printable
from tui.progress.row_rules import parse_utc
from tui.progress.store import ProgressStore
from tui.progress.store_errors import StoreError
from tui.progress.store_file import sync
from tui.progress.store_schema import ATTEMPT_FIELDS, ENTRY_FIELDS, EXPORT_FORMAT, EXPORT_SECTIONS, REVEAL_FIELDS

# A typical attempt takes about 400 bytes of export and the largest the app can record about 3 KB (a
# 2,000-character answer with its feedback). Answering every exercise of a 122-exercise book 25 times
# with the longest answers comes to about 9 MB, so an export past this cap was not written by ringbook.
MAX_EXPORT_BYTES = 32 * 1024 * 1024

# Never through a link (the inbox's `zero.json -> /dev/zero`), and never waiting on a FIFO's writer.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)

PARTS = {"attempts": ATTEMPT_FIELDS, "reveals": REVEAL_FIELDS, "entries": ENTRY_FIELDS}
_FILE_KINDS = {stat.S_ISDIR: "a folder", stat.S_ISFIFO: "a named pipe (FIFO)", stat.S_ISCHR: "a character device",
               stat.S_ISBLK: "a block device", stat.S_ISSOCK: "a socket"}


class UnreadableExport(Exception):
    """Why a file is not read as an export, as a clause that follows its name: `FILE: <reason>`."""


@dataclass(frozen=True)
class ExportFile:
    """An export read from disk, and who owns the file (who wrote it, on a shared host)."""

    path: Path
    data: dict[str, Any]
    rows: dict[str, list[dict[str, Any]]]   # by part (attempts, reveals, entries, drafts, runs), as kept
    owner: str   # the owner's login; "uid N" when the account has no name; "" where files have no owner
    day_boundary_hour: int | None           # as the export gives it, when it is an hour of the day


class RowMemo:
    """One file's rows as its last read checked them, by (part, uid), each beside the row as the file gave it.
    A file in a live inbox grows by an attempt at a time and is read again after each: a row given exactly as
    before (same types too: `true` is not `1`) is taken as checked then, and only the new ones go through the
    throwaway store, which costs a millisecond per ten rows."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], tuple[Any, dict[str, Any]]] = {}


def read_export(path: Path, memo: RowMemo | None = None) -> ExportFile:
    """The export in `path`, checked; raises UnreadableExport with a one-line reason for anything else. With
    `memo` (from the last read of the same file), rows unchanged since are not checked again; it is updated."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        if os.path.islink(path):
            raise UnreadableExport("is a symbolic link; only regular files are read (name the file it points to)") \
                from None
        raise UnreadableExport(f"cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _FILE_KINDS.items() if test(info.st_mode)), "not a regular file")
            raise UnreadableExport(f"is {kind}; only regular files are read")
        if info.st_size > MAX_EXPORT_BYTES:
            raise UnreadableExport(_too_big())
        raw = _read_at_most(descriptor, MAX_EXPORT_BYTES + 1)
    except OSError as exc:
        raise UnreadableExport(f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(descriptor)
    data, rows, hour = checked_export(raw, memo)
    return ExportFile(path, data, rows, file_owner(info.st_uid), hour)


def checked_export(raw: bytes, memo: RowMemo | None = None
                   ) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]], int | None]:
    """The bytes of an export (a file's, or what came on standard input) as its data, its checked rows and
    its day boundary hour; raises UnreadableExport with a one-line reason for anything else. `memo`: as for
    read_export."""
    if len(raw) > MAX_EXPORT_BYTES:   # a file that grew after we looked, or a stream
        raise UnreadableExport(_too_big())
    data = parse_export(raw)
    hour = data.get("day_boundary_hour")
    hour = hour if isinstance(hour, int) and not isinstance(hour, bool) and 0 <= hour < 24 else None
    try:
        rows = checked_rows(data, hour or 0, memo)
    except StoreError as exc:
        raise UnreadableExport(str(exc)) from None
    except Exception as exc:  # one file nobody foresaw must not cost the class its report
        raise UnreadableExport(reason_for(exc)) from None
    return data, rows, hour


def parse_export(raw: bytes) -> dict[str, Any]:
    """The bytes of a file as an export's data; raises UnreadableExport saying why they are not one."""
    if raw.startswith(b"SQLite format 3\x00"):   # a progress file itself, e.g. the backup `progress reset` kept
        raise UnreadableExport("is a progress file, not an export: bring it back with "
                               "`ringbook progress restore FILE`")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableExport("is not UTF-8 text, so not a ringbook progress export") from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise UnreadableExport("is nested too deeply to be a ringbook progress export") from None
    except ValueError:   # JSONDecodeError, NaN or Infinity, a number with thousands of digits
        raise UnreadableExport("is not JSON, so not a ringbook progress export") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise UnreadableExport("is not a ringbook progress export")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise UnreadableExport("holds text that is not valid Unicode (a lone surrogate such as \\ud800)") from None
    except RecursionError:
        raise UnreadableExport("is nested too deeply to be a ringbook progress export") from None
    return data


def checked_rows(data: dict[str, Any], day_boundary_hour: int = 0,
                 memo: RowMemo | None = None) -> dict[str, list[dict[str, Any]]]:
    """The rows of an export as the store keeps them, once a throwaway store has accepted them all and
    every figure computed from a row (its study day, its local time) can be computed. Raises StoreError.
    Rows `memo` holds exactly as the file gives them are not checked again; `memo` then holds this read's."""
    known = memo.rows if memo is not None else {}
    fresh, reused = _not_checked_before(data, known)
    scratch = ProgressStore.in_memory()
    try:
        scratch.set_day_boundary_hour(day_boundary_hour)
        scratch.import_data(fresh)
        for part in PARTS:
            uids = Counter(row["uid"] for row in data.get(part, []))
            repeated = [uid for uid, n in uids.items() if n > 1]
            if repeated:   # the store would keep whichever copy came first, silently
                raise StoreError(f"That export lists one of its {part} twice (uid {repeated[0][:40]!r}); "
                                 "ringbook never writes that, so the file was edited.")
        scratch.study_days()
        kept = scratch.export_data()
    finally:
        scratch.close()
    rows = {part: kept[part] for part in EXPORT_SECTIONS}
    for part in PARTS:
        for row in rows[part]:
            local_time(row)
    if memo is not None:
        by_uid = {(part, row["uid"]): row for part in PARTS for row in rows[part]}
        memo.rows = {**{key: known[key] for part in PARTS for key in reused[part]},
                     **{(part, raw["uid"]): (raw, by_uid[(part, raw["uid"])]) for part in PARTS
                        for raw in fresh.get(part, []) if (part, raw["uid"]) in by_uid}}
        for part in PARTS:
            if reused[part]:
                rows[part] = sorted(rows[part] + [known[key][1] for key in reused[part]],
                                    key=lambda row: (row["created_utc"], row["uid"]))   # as the store orders them
    return rows


def _not_checked_before(data: dict[str, Any], known: dict[tuple[str, str], tuple[Any, dict[str, Any]]]
                        ) -> tuple[dict[str, Any], dict[str, list[tuple[str, str]]]]:
    """`data` without the rows `known` holds exactly as given, and the keys of those left out, by part."""
    reused: dict[str, list[tuple[str, str]]] = {part: [] for part in PARTS}
    if not known:
        return data, reused
    fresh = dict(data)
    for part in PARTS:
        given = data.get(part)
        if not isinstance(given, list):
            continue
        left = []
        for row in given:
            uid = row.get("uid") if isinstance(row, dict) else None
            if isinstance(uid, str) and (part, uid) in known and _same(known[(part, uid)][0], row):
                reused[part].append((part, uid))
            else:
                left.append(row)
        fresh[part] = left
    return fresh, reused


def _same(a: Any, b: Any) -> bool:
    """JSON values equal and of the same types all the way down (Python has 1 == True == 1.0). A row's fields
    are mostly scalars, compared in the loop rather than by a call each: this runs for every row of a file."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        if a.keys() != b.keys():
            return False
        pairs: Any = ((a[key], b[key]) for key in a)
    elif type(a) is list:
        if len(a) != len(b):
            return False
        pairs = zip(a, b, strict=True)
    else:
        return bool(a == b)
    for x, y in pairs:
        if type(x) is not type(y):
            return False
        if type(x) in (dict, list):
            if not _same(x, y):
                return False
        elif x != y:
            return False
    return True


def local_time(row: dict[str, Any]) -> datetime:
    """When a row was made, on the learner's clock at that moment."""
    return (parse_utc(row["created_utc"]).replace(tzinfo=UTC)
            .astimezone(timezone(timedelta(minutes=row["utc_offset_minutes"]))))


def reason_for(exc: BaseException) -> str:
    """A one-line reason for an exception nobody planned for while reading an export."""
    if isinstance(exc, OverflowError):
        return "a number or a date in it is out of range, so it was not read"
    if isinstance(exc, UnicodeError):
        return "it holds text that is not valid Unicode, so it was not read"
    if isinstance(exc, RecursionError):
        return "it is nested too deeply, so it was not read"
    return f"it could not be read as an export ({type(exc).__name__}: {exc})"


def inert_json(data: Any) -> str:
    """`data` as indented JSON that is safe to print: control, C1 and bidi characters, which JSON allows
    raw inside strings, are written as \\u escapes, so the text reads back to the same data."""
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return _RAW_NON_ASCII.sub(_escaped_if_unsafe, text)


_RAW_NON_ASCII = re.compile(r"[^\x20-\x7e\n]")


def _escaped_if_unsafe(match: re.Match[str]) -> str:
    char = match.group()
    return char if printable(char) == char else f"\\u{ord(char):04x}"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _too_big() -> str:
    return (f"is larger than {MAX_EXPORT_BYTES // (1024 * 1024)} MB, far more than an export of a whole book, "
            "so it was not read")


def _read_at_most(descriptor: int, limit: int) -> bytes:
    chunks, left = [], limit
    while left > 0:
        chunk = os.read(descriptor, min(left, 1024 * 1024))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def write_whole(target: Path, text: str) -> None:
    """Write `text` (UTF-8) as the file `target`, whole or not at all: into a new file beside it, synced, then
    renamed over it, so a full disk or a kill mid-write leaves an earlier file at `target` as it was. A write
    that fails removes its half-made file (a kill leaves it, as `.NAME.*.partial`). A link is written through,
    and an earlier file's permissions are kept. Raises OSError."""
    target = Path(os.path.realpath(target))
    descriptor, temp = _new_beside(target)
    try:
        with suppress(FileNotFoundError):
            os.fchmod(descriptor, stat.S_IMODE(os.stat(target).st_mode))   # an export made private stays so
        with os.fdopen(descriptor, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    with suppress(OSError):   # the rename on the disk too; a folder that cannot be opened or synced is no error
        sync(target.parent)


def _new_beside(target: Path) -> tuple[int, Path]:
    """A new file (O_EXCL) in `target`'s folder, named after it, opened for writing."""
    while True:
        temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.partial")
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), temp
        except FileExistsError:
            continue


def file_owner(uid: int) -> str:
    """The login of the account with `uid`, as the report names a file's owner."""
    try:
        import pwd
    except ImportError:   # no Unix accounts (Windows): file owners say nothing
        return ""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def export_counts(data: dict[str, Any]) -> Counter[str]:
    """An export's records by kind (its checked rows, or what export_data gives), with the keys of
    ProgressStore.record_counts."""
    counts: Counter[str] = Counter(attempts=len(data["attempts"]), reveals=len(data["reveals"]),
                                   drafts=len(data.get("drafts", [])))
    counts.update(f"entries:{entry['part']}" for entry in data["entries"])
    counts.update(f"runs:{run['kind']}" for run in data.get("runs", []))
    return +counts


def export_csv(data: dict[str, Any]) -> str:
    """Attempts as CSV, one row each, for spreadsheets; every text cell through csv_cell (an answer keeps
    its lines: a quoted cell holds them)."""
    import csv  # only `progress export --csv` needs it: not loaded at every start

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=ATTEMPT_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({field: csv_cell(value, one_line=False) if isinstance(value, str) else value
                      for field, value in attempt.items()} for attempt in data["attempts"])
    return out.getvalue()


# What makes a spreadsheet read a cell as a formula (=HYPERLINK(...), +cmd|...), as OWASP lists them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str, *, one_line: bool = True) -> str:
    """Text a student wrote as a CSV cell: control characters shown as escapes (grader.safe_text), and
    a quote in front of a cell a spreadsheet would run as a formula, as OWASP advises. With `one_line`
    (a name in a row per student) newlines and tabs are escaped too."""
    safe = printable(text, one_line=one_line)
    return "'" + safe if safe.startswith(_FORMULA_START) else safe

"""A class report: many students' progress exports read as one, for an instructor.

An export is a file the student wrote, so nothing in it is taken on trust. Every attempt is graded
again from its answer against the book, and one whose recorded result disagrees is reported and never
counted. A submission belongs to the account that owns the file (on a shared host, who wrote it): files
with the same student name and the same owner are merged by attempt uid, so work submitted twice counts
once, and a uid recorded differently in two places counts in neither; files of one name from different
accounts are reported apart, each naming the other accounts. A file that names another account's student
(by the instructor's roster, or by the host's logins) is flagged, and so is one naming a lookalike of that
name (tui.progress.lookalike): names are compared as they read. Grading time is charged to the account
that owns the file, and the whole report has a bound. A file that cannot be read, for whatever reason, is
named with a one-line reason and left out; the rest is still reported.

What is counted goes into a store of the student's own that lives in memory, so mastery and the day
streak come out exactly as that student would see them for the same attempts.
"""

from __future__ import annotations

import ast
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from grader.book.model import Book
from grader.exercise import Exercise, NumericAnswer
from grader.grade import MAX_INPUT, grade
from grader.kinds.build import Build
from grader.kinds.registry import kind_of, label
from grader.verdict import Verdict, invalid
from tui.progress import clock
from tui.progress.export_file import (
    PARTS,
    RowMemo,
    UnreadableExport,
    file_owner,
    local_time,
    read_export,
    reason_for,
)
from tui.progress.lookalike import folded
from tui.progress.mastery import Mastery, mastery
from tui.progress.roster import Roster
from tui.progress.store import ProgressStore
from tui.progress.store_schema import EXPORT_FORMAT, SCHEMA_VERSION
from tui.progress.streak import Streak

# What `progress submit` adds after the name: the time, a random token, and -2, -3 in older submissions.
SUBMIT_STAMP = re.compile(r"-\d{8}T\d{6}Z(-[0-9a-f]{20})?(-\d+)?$")
# Seconds of grading the files of one account may take (files the instructor's own account owns, or
# where files have no owner, are charged to the student they name), and the whole report: when many
# accounts handed in, each gets an equal share of the whole. An honest export re-grades in well under a
# second (answers the class shares are graded once); one stuffed with slow formulas stops at its share.
# Seconds of CPU, the report's and its proofs' (grading_cpu), never of the clock: on a busy host grading
# waits for a core, and that must not leave an honest student's answers ungraded.
GRADING_SECONDS_PER_ACCOUNT = 60.0
GRADING_SECONDS_IN_ALL = 600.0
# Bytes of exports read for one account, newest files first: reading costs about a second a megabyte
# whatever the files hold, and an honest student's are well under a megabyte each. Where files have no
# owner (Windows) there is no account to charge, and no allowance.
READ_BYTES_PER_ACCOUNT = 64 * 1024 * 1024


@dataclass(frozen=True)
class QuizResult:
    """A student's runs of one of the book's quizzes."""

    latest: float
    best: float
    out_of: float
    runs: int


@dataclass(frozen=True)
class Tampered:
    """An attempt whose recorded result is not the book's verdict on its answer."""

    exercise_id: str
    answer: str
    recorded: str
    regraded: str   # correct, incorrect, or invalid: an answer the app would not have recorded at all


@dataclass(frozen=True)
class OwnerMismatch:
    """A file that names one user and belongs to another."""

    file: str
    declares: str   # its student.user, or its student name when it names no user
    owner: str


@dataclass(frozen=True)
class NameClaim:
    """A file that names a student whose account, by the roster or the host's logins, is not its owner."""

    file: str
    name: str       # the student name the file gives
    account: str    # whose name that is
    reads_as: str   # that account's name (its login, or its roster name) which the name reads as
    owner: str


@dataclass(frozen=True)
class UngradedFile:
    """A file whose attempts were left ungraded when its account's grading time ran out."""

    file: str
    attempts: int


@dataclass(frozen=True)
class Verification:
    """What checking a student's files found. Confirmed and build attempts are counted; the rest not."""

    confirmed: int = 0          # graded again: the same result as recorded
    build_not_rerun: int = 0    # build code is never run on the instructor's account: counted, only parsed
    tampered: tuple[Tampered, ...] = ()
    conflicts: int = 0          # uids recorded differently in two places: neither copy counted
    not_regraded: int = 0       # left when the student's grading time ran out: not counted
    undecided: int = 0          # graded again, but the proof they needed did not come: not counted
    outside_book: int = 0       # exercises not in this book cannot be graded: not counted
    owner_mismatches: tuple[OwnerMismatch, ...] = ()
    ungraded_files: tuple[UngradedFile, ...] = ()   # where the not_regraded attempts came from
    grading_seconds: float = GRADING_SECONDS_PER_ACCOUNT   # the grading time charged_to had
    charged_to: str = ""                     # whose grading time these files spent: "account mallory", "name 'cy'"
    name_claims: tuple[NameClaim, ...] = ()
    name_shared_with: tuple[str, ...] = ()   # other accounts with files under this student name: reported apart
    off_roster: bool = False                 # a roster was given and the account owning the files is not on it

    @property
    def needs_attention(self) -> bool:
        """Something an instructor should look at, beyond the routine (build code, retired exercises)."""
        return bool(self.tampered or self.conflicts or self.not_regraded or self.undecided or self.owner_mismatches
                    or self.name_claims or self.name_shared_with or self.off_roster)


@dataclass(frozen=True)
class StudentReport:
    name: str
    user: str
    host: str
    files: tuple[str, ...]
    owners: tuple[str, ...]     # the logins owning the files, as the file system says
    account: str                # the account the files belong to (their owner); "" where files have no owner
    mastery: Mastery
    streak: Streak              # days with an answer re-graded correct; build attempts do not make a day
    last_active: datetime | None  # in the student's own time zone at that moment
    attempts: int               # attempts counted
    quizzes: dict[str, QuizResult]  # by quiz id; quizzes not taken are absent
    verification: Verification

    @property
    def label(self) -> str:
        """The name, and the account where another account's files use the same name."""
        return f"{self.name} ({self.account})" if self.verification.name_shared_with else self.name


@dataclass(frozen=True)
class WrongAnswer:
    """Wrong answers of one kind. Answers to different variants have different numbers, so they are
    grouped by the named mistake they made (its feedback as the book poses it with its own numbers), and
    only where none matched by their text with the variant (seed) they answered."""

    count: int
    mistake: int | None = None    # 1 for the exercise's first mistake, ...; None when none matched
    feedback: str = ""            # that mistake's feedback, with the book's own numbers
    answer: str = ""              # the text, spaces collapsed, when no mistake matched
    seed: int | None = None       # the variant it answered; None for an exercise whose numbers never vary


@dataclass(frozen=True)
class FailedExercise:
    exercise_id: str
    title: str
    failures: int          # incorrect attempts, all students together
    students: int          # students with at least one incorrect attempt
    wrong_answers: tuple[WrongAnswer, ...]  # most common first


@dataclass
class ClassReport:
    book: Book
    students: list[StudentReport] = field(default_factory=list)
    failed: list[FailedExercise] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line per file left out, naming it
    roster: Roster | None = None

    @property
    def files_read(self) -> int:
        return sum(len(s.files) for s in self.students)


@dataclass(frozen=True)
class StudentFile:
    """One export that passed every check, with what it says about whose it is."""

    path: Path
    name: str
    user: str
    host: str
    owner: str
    day_boundary_hour: int | None
    rows: dict[str, list[dict[str, Any]]]   # by part (attempts, reveals, entries), as the store keeps them


@dataclass
class GradingTime:
    """Seconds one student's answers may still spend being graded; verdicts already cached are free."""

    left: float


@dataclass(frozen=True)
class Regraded:
    """The book's verdict on one answer to one variant, and which of the exercise's mistakes it made."""

    status: str                  # correct, incorrect, or invalid
    mistake: int | None = None   # 1-based, as in the exercise's list of mistakes
    undecided: bool = False      # no verdict on the answer (a proof that did not come): never kept


UNDECIDED = "undecided"   # Regrader.status of an answer whose verdict could not be decided


def grading_cpu() -> float:
    """What grading has cost so far, in seconds of CPU: this process's, and the proofs' in the proof worker
    (as it counts them). Not sympy's start in the worker, which is the report's cost, never a student's."""
    from grader.maths.prover import WORKER

    return time.process_time() + WORKER.cpu_seconds


class Regrader:
    """The book's verdict on recorded answers, each against the variant (seed) it answered. A class
    repeats its answers, so each (exercise, seed, answer) is graded once for the whole report; an undecided
    verdict is not a verdict on the answer, and is never kept. `clock` measures what grading costs (seconds,
    only differences matter)."""

    def __init__(self, clock: Callable[[], float] = grading_cpu) -> None:
        self._verdicts: dict[tuple[str, int, str], Regraded] = {}
        self._clock = clock
        self._warmed: set[str] = set()

    def regraded(self, exercise: Exercise, answer: str, time_left: GradingTime, seed: int = 0) -> Regraded | None:
        """The verdict on `answer` to variant `seed`; None when this student's grading time is spent."""
        key = (exercise.id, seed, answer)
        if key in self._verdicts:
            return self._verdicts[key]
        if time_left.left <= 0:
            return None
        self._warm(exercise)
        started = self._clock()
        verdict = _regrade(exercise, answer, seed)
        time_left.left -= self._clock() - started
        if not verdict.undecided:
            self._verdicts[key] = verdict
        return verdict

    def status(self, exercise: Exercise, answer: str, time_left: GradingTime, seed: int = 0) -> str | None:
        """correct, incorrect, invalid or UNDECIDED; None when this student's grading time is spent."""
        verdict = self.regraded(exercise, answer, time_left, seed)
        return None if verdict is None else UNDECIDED if verdict.undecided else verdict.status

    def _warm(self, exercise: Exercise) -> None:
        """Start the proof worker, as the app does, before the first answer to an exercise whose right answers
        need a proof: waiting for sympy's import is then no student's grading, and no proof's."""
        from grader.kinds.derive import needs_proof
        from grader.maths.prover import WORKER
        from grader.verdict import BACKSTOP_SECONDS

        if exercise.id not in self._warmed and isinstance(exercise, NumericAnswer) and needs_proof(exercise):
            WORKER.wait_until_ready(BACKSTOP_SECONDS)
        self._warmed.add(exercise.id)


BUILD, UNREADABLE, UNGRADED = "build", "unreadable code", "ungraded"   # regraded_attempt's outcomes beside statuses


def regraded_attempt(exercise: Exercise, attempt: dict[str, Any], regrader: Regrader,
                     time_left: GradingTime) -> tuple[str, Regraded | None]:
    """What one recorded attempt comes to, graded again, for the report and `class live` alike: BUILD (code,
    counted as recorded: never run on the instructor's account, only parsed), UNREADABLE (code that could not
    have been recorded), UNGRADED (the account's grading time is spent), UNDECIDED, or the book's status; with
    the verdict, which names the mistake made."""
    if kind_of(exercise).runs_code:
        return (UNREADABLE if isinstance(exercise, Build) and unreadable_code(exercise, attempt["answer"])
                else BUILD), None
    verdict = regrader.regraded(exercise, attempt["answer"], time_left, attempt["seed"])
    if verdict is None:
        return UNGRADED, None
    return (UNDECIDED if verdict.undecided else verdict.status), verdict


def _regrade(exercise: Exercise, answer: str, seed: int) -> Regraded:
    """Grade against the variant the learner was shown. A seed the book cannot pose (the exercise changed,
    or the file was edited) is a variant the app never showed: its answers are invalid, not counted."""
    from grader.book.variants import pose

    try:
        posed = pose(exercise, seed)
    except Exception:   # VariantError, or a formula that does not evaluate for those numbers
        return Regraded(invalid(f"exercise {exercise.id} cannot be posed with seed {seed}").status)
    verdict: Verdict = grade(posed, answer)
    mistake = None
    if verdict.status == "incorrect" and verdict.feedback and isinstance(posed, NumericAnswer):
        mistake = next((number for number, m in enumerate(posed.mistakes, 1) if m.feedback == verdict.feedback), None)
    return Regraded(verdict.status, mistake, verdict.undecided)


def unreadable_code(exercise: Build, answer: str) -> bool:
    """Code the app would have refused to run, and so never recorded: too long, not Python, or never
    naming the function the exercise asks for. Parsing it runs nothing."""
    if len(answer) > MAX_INPUT or not re.search(rf"\b{re.escape(exercise.function)}\b", answer):
        return True
    try:
        ast.parse(answer)
    except SyntaxError:
        return True
    except (ValueError, RecursionError, MemoryError):  # the app's run would have failed, and been recorded
        return False
    return False


def export_files(paths: list[Path], skipped: list[str]) -> list[Path]:
    """The files to read: each FILE as given, and every *.json directly inside each DIR."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                skipped.append(f"{path}: no *.json exports in this folder")
            files += found
        elif path.exists() or path.is_symlink():
            files.append(path)
        else:
            skipped.append(f"{path}: no such file or folder")
    return files


def build_report(book: Book, paths: list[Path], now: datetime | None = None,
                 grading_seconds: float = GRADING_SECONDS_PER_ACCOUNT, roster: Roster | None = None,
                 grading_seconds_in_all: float = GRADING_SECONDS_IN_ALL,
                 grading_clock: Callable[[], float] = grading_cpu,
                 read_bytes_per_account: int = READ_BYTES_PER_ACCOUNT) -> ClassReport:
    """The report on every export in `paths`, as of `now`; files that cannot be read are in `skipped`.
    Files are grouped by (student name, owning account); with a `roster` the name is the roster's for the
    owner. Each account's files may spend `grading_seconds` being graded, or an equal share of
    `grading_seconds_in_all` when that is less, fixed before any grading, so no file changes another's."""
    report = ClassReport(book, roster=roster)
    groups: dict[tuple[str, str], list[StudentFile]] = {}
    for path in _within_read_allowance(export_files(paths, report.skipped), read_bytes_per_account,
                                       report.skipped):
        try:
            student_file = read_student_file(path)
        except UnreadableExport as exc:
            report.skipped.append(f"{path}: {exc}")
        else:
            groups.setdefault((shown_name(student_file, roster), student_file.owner), []).append(student_file)
    me = file_owner(os.getuid()) if hasattr(os, "getuid") else ""
    payers = {key: payer_of(key, me) for key in groups}
    share = min(grading_seconds, grading_seconds_in_all / max(1, len(set(payers.values()))))
    time_left = {payer: GradingTime(share) for payer in payers.values()}
    accounts_of: dict[str, set[str]] = {}   # names as they read -> the accounts giving them
    for name, owner in groups:
        accounts_of.setdefault(folded(name), set()).add(owner)
    logins = _host_logins() if roster is None else {}
    moment = now or clock.now()
    regrader = Regrader(grading_clock)
    wrong: dict[str, list[tuple[tuple[str, str], WrongAnswer]]] = {}
    for key in sorted(groups, key=lambda k: (k[0].casefold(), k[0], k[1])):
        (name, owner), files = key, groups[key]
        payer = payers[key]
        identity = replace(Verification(), grading_seconds=share,
                           charged_to=f"account {payer[1]}" if payer[0] == "account" else f"name {name!r}",
                           name_claims=tuple(_name_claims(files, roster, logins)),
                           name_shared_with=tuple(sorted(accounts_of[folded(name)] - {owner})),
                           off_roster=bool(roster and owner and owner not in roster.names))
        try:
            student, counted = _student_report(book, name, files, regrader, moment, time_left[payer], identity)
        except Exception as exc:  # figures nobody foresaw failing: name this student's files, report the rest
            report.skipped += [f"{f.path}: {reason_for(exc)}" for f in files]
            continue
        report.students.append(student)
        for attempt in counted:
            if attempt["status"] == "incorrect":
                wrong.setdefault(attempt["exercise_id"], []).append((key, _wrong_kind(book, regrader, attempt)))
    report.failed = _most_failed(book, wrong)
    return report


def _within_read_allowance(paths: list[Path], allowance: int, skipped: list[str]) -> list[Path]:
    """The files to read: each account's newest files up to `allowance` bytes in all (as lstat gives them,
    before anything is read); the rest are named in `skipped`, so one account's files cannot hold the
    report however many it drops. A file that cannot be looked at is left to read_export to explain."""
    by_owner: dict[str, list[tuple[float, Path, int]]] = {}
    kept: list[Path] = []
    for path in paths:
        try:
            info = os.lstat(path)
        except OSError:
            kept.append(path)
            continue
        owner = file_owner(info.st_uid)
        if owner:
            by_owner.setdefault(owner, []).append((info.st_mtime, path, info.st_size))
        else:
            kept.append(path)
    for owner, files in by_owner.items():
        used = 0
        for _, path, size in sorted(files, key=lambda f: (-f[0], str(f[1]))):
            used += size
            if used <= allowance:
                kept.append(path)
            else:
                skipped.append(f"{path}: not read: the files of {owner} come to more than "
                               f"{allowance / 2**20:g} MB in all; their newest were read")
    order = {path: number for number, path in reversed(list(enumerate(paths)))}
    return sorted(kept, key=order.__getitem__)


def shown_name(student_file: StudentFile, roster: Roster | None) -> str:
    """The roster's name for the file's owner; else the name the file gives."""
    if roster is not None and student_file.owner in roster.names:
        return roster.names[student_file.owner]
    return student_file.name


def payer_of(key: tuple[str, str], me: str) -> tuple[str, str]:
    """Whose grading time a group of files spends: its owner's, unless the files are the instructor's own
    copies (owned by the account making the report) or have no owner; those are charged to their name."""
    name, owner = key
    return ("account", owner) if owner and owner != me else ("name", name.casefold())


def _name_claims(files: list[StudentFile], roster: Roster | None, logins: dict[str, str]) -> list[NameClaim]:
    """Files that name a student whose account is not their owner: by the roster where there is one, else
    where the name reads as another login of this host (`logins`, by their folded form). (A file whose
    student.user is not its owner is an owner mismatch already.)"""
    claims = []
    for f in files:
        named = roster.account_named(f.name) if roster is not None else _host_login(f.name, logins)
        if f.owner and named and named[0] not in (f.owner, f.user or f.name):
            claims.append(NameClaim(str(f.path), f.name, named[0], named[1], f.owner))
    return claims


def _host_login(name: str, logins: dict[str, str]) -> tuple[str, str] | None:
    """The login `name` is on this host, or reads as (twice: the login, and the word it reads as)."""
    login: str | None
    try:
        import pwd

        login = pwd.getpwnam(name).pw_name
    except (ImportError, KeyError, ValueError, UnicodeError):   # no accounts here, no such login, a NUL in it
        login = logins.get(folded(name, casefold=False))
    return (login, login) if login else None


def _host_logins() -> dict[str, str]:
    """Every login this host lists, by its folded form; case is kept, as the system compares logins."""
    try:
        import pwd
    except ImportError:   # no Unix accounts (Windows)
        return {}
    logins: dict[str, str] = {}
    for entry in sorted(pwd.getpwall(), key=lambda e: e.pw_uid):
        logins.setdefault(folded(entry.pw_name, casefold=False), entry.pw_name)
    return logins


def read_student_file(path: Path, memo: RowMemo | None = None) -> StudentFile:
    """An export read and checked as far as one file can be; raises UnreadableExport with a one-line reason.
    `memo`: the rows of the last read of this file, not checked again where unchanged (export_file.RowMemo)."""
    export = read_export(path, memo)
    student = export.data.get("student")
    details: dict[str, Any] = student if isinstance(student, dict) else {}
    user, host = (value if isinstance(value := details.get(key), str) else "" for key in ("user", "host"))
    return StudentFile(path, student_name(export.data, path), user, host, export.owner, export.day_boundary_hour,
                       export.rows)


def student_name(data: dict[str, Any], path: Path) -> str:
    """The name an export carries; an export from before names were added is named after its file."""
    student = data.get("student")
    if isinstance(student, dict) and isinstance(student.get("name"), str) and student["name"].strip():
        return student["name"].strip()
    return SUBMIT_STAMP.sub("", path.stem) or path.stem


def _student_report(book: Book, name: str, files: list[StudentFile], regrader: Regrader, moment: datetime,
                    time_left: GradingTime, identity: Verification) -> tuple[StudentReport, list[dict[str, Any]]]:
    """The student's row, and the attempts counted for them; `identity` holds what was found about whose
    files these are, and the grading time they had."""
    rows, conflicts, origin = _merged(files)
    confirmed: list[dict[str, Any]] = []
    build: list[dict[str, Any]] = []
    tampered: list[Tampered] = []
    ungraded: Counter[str] = Counter()
    undecided = outside_book = 0
    for attempt in rows["attempts"]:
        exercise = book.exercise(attempt["exercise_id"])
        if exercise is None:
            outside_book += 1
            continue
        outcome, _ = regraded_attempt(exercise, attempt, regrader, time_left)
        if outcome == BUILD:
            build.append(attempt)
        elif outcome == UNGRADED:
            ungraded[origin[attempt["uid"]]] += 1
        elif outcome == UNDECIDED:
            undecided += 1
        elif outcome == attempt["status"]:
            confirmed.append(attempt)
        else:
            tampered.append(Tampered(exercise.id, attempt["answer"], attempt["status"],
                                     "invalid" if outcome == UNREADABLE else outcome))
    hour = next((f.day_boundary_hour for f in reversed(files) if f.day_boundary_hour is not None), 0)
    counted = {**rows, "attempts": confirmed + build}
    with _store_of(counted, hour) as store:
        states, merged = store.exercise_states(), store.export_data()
    with _store_of({**rows, "attempts": confirmed}, hour) as store:
        streak = store.streak(moment)
    last = files[-1]
    student = StudentReport(
        name=name, user=last.user, host=last.host, files=tuple(str(f.path) for f in files),
        owners=tuple(sorted({f.owner for f in files if f.owner})), account=last.owner, mastery=mastery(book, states),
        streak=streak, last_active=_last_active(merged), attempts=len(merged["attempts"]),
        quizzes=_quiz_results(book, merged["entries"]),
        verification=replace(
            identity, confirmed=len(confirmed), build_not_rerun=len(build), tampered=tuple(tampered),
            conflicts=conflicts, not_regraded=sum(ungraded.values()), undecided=undecided, outside_book=outside_book,
            owner_mismatches=tuple(_owner_mismatches(files)),
            ungraded_files=tuple(UngradedFile(path, n) for path, n in ungraded.items())),
    )
    return student, merged["attempts"]


def _merged(files: list[StudentFile]) -> tuple[dict[str, list[dict[str, Any]]], int, dict[str, str]]:
    """Every row of a student's files once, by uid; a uid whose rows differ is left out of all of
    them and counted as a conflict, since either copy could be the forged one. Also the file each
    attempt's uid was first found in."""
    merged: dict[str, list[dict[str, Any]]] = {}
    conflicts = 0
    origin: dict[str, str] = {}
    for part in PARTS:
        seen: dict[str, dict[str, Any]] = {}
        differing: set[str] = set()
        for student_file in files:
            for row in student_file.rows[part]:
                first = seen.setdefault(row["uid"], row)
                if part == "attempts":
                    origin.setdefault(row["uid"], str(student_file.path))
                if first != row:
                    differing.add(row["uid"])
        merged[part] = [row for uid, row in seen.items() if uid not in differing]
        conflicts += len(differing)
    return merged, conflicts, origin


def _owner_mismatches(files: list[StudentFile]) -> list[OwnerMismatch]:
    """Files whose owner is not the user they name. Where files have no owners (Windows) nothing is said."""
    return [OwnerMismatch(str(f.path), f.user or f.name, f.owner)
            for f in files if f.owner and (f.user or f.name) != f.owner]


@contextmanager
def _store_of(rows: dict[str, list[dict[str, Any]]], day_boundary_hour: int) -> Iterator[ProgressStore]:
    """An in-memory store holding `rows`, closed on leaving the `with`."""
    store = ProgressStore.in_memory()
    try:
        store.import_data({"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, **rows})
        store.set_day_boundary_hour(day_boundary_hour)
        yield store
    finally:
        store.close()


def _last_active(export: dict[str, Any]) -> datetime | None:
    """The latest attempt, reveal or ledger entry, at the student's clock when it happened."""
    return max((local_time(row) for part in PARTS for row in export[part]), default=None)


def _quiz_results(book: Book, entries: list[dict[str, Any]]) -> dict[str, QuizResult]:
    """Each of the book's quizzes the student finished: latest and best score (entries come oldest first)."""
    runs: dict[str, list[tuple[float, float]]] = {}
    quiz_ids = {quiz.id for quiz in book.quizzes}
    for entry in entries:
        score, out_of = entry["payload"].get("score"), entry["payload"].get("out_of")
        if entry["part"] == "quiz" and entry["name"] in quiz_ids and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in (score, out_of)):
            runs.setdefault(entry["name"], []).append((score, out_of))
    return {quiz_id: QuizResult(latest=scores[-1][0], best=max(s for s, _ in scores), out_of=scores[-1][1],
                                runs=len(scores))
            for quiz_id, scores in runs.items()}


def _wrong_kind(book: Book, regrader: Regrader, attempt: dict[str, Any]) -> WrongAnswer:
    """A counted wrong attempt as what it has in common with others: its named mistake, or else its text
    and, for an exercise whose numbers vary, its variant. (Its count is filled in by _most_failed.)"""
    exercise = book.exercise(attempt["exercise_id"])
    regraded = (regrader.regraded(exercise, attempt["answer"], GradingTime(0.0), attempt["seed"])
                if exercise is not None and not kind_of(exercise).runs_code else None)   # graded already: free
    if regraded is not None and regraded.mistake is not None and isinstance(exercise, NumericAnswer):  # named
        return WrongAnswer(0, mistake=regraded.mistake, feedback=exercise.mistakes[regraded.mistake - 1].feedback)
    varies = isinstance(exercise, NumericAnswer) and exercise.is_template
    answer = label(exercise, attempt["answer"]) if exercise is not None else " ".join(attempt["answer"].split())
    return WrongAnswer(0, answer=answer, seed=attempt["seed"] if varies else None)   # an option by its text, not id


def _most_failed(book: Book, wrong: dict[str, list[tuple[tuple[str, str], WrongAnswer]]]) -> list[FailedExercise]:
    """Exercises of the book with incorrect attempts: most failures first, then most students, then book order."""
    order = {e.id: i for i, e in enumerate(book.exercises)}
    failed = []
    for exercise_id, rows in wrong.items():
        exercise = book.exercise(exercise_id)
        if exercise is None:
            continue  # retired or from another book; the student's mastery shows those attempts
        kinds = Counter(kind for _, kind in rows)
        ranked = sorted((replace(kind, count=n) for kind, n in kinds.items()),
                        key=lambda w: (-w.count, w.mistake is None, w.mistake or 0, w.answer, w.seed or 0))
        failed.append(FailedExercise(exercise_id, exercise.title, len(rows), len({n for n, _ in rows}),
                                     tuple(ranked)))
    return sorted(failed, key=lambda f: (-f.failures, -f.students, order[f.exercise_id]))

"""`ringbook check`: grade answers as the app would, one on the command line or a batch of JSON lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.common import load_or_report

if TYPE_CHECKING:
    import argparse

    from grader.exercise import Exercise

EXIT_BY_STATUS = {"correct": 0, "incorrect": 1, "invalid": 2}
EXIT_UNKNOWN_ID = 3


def check_answers(args: argparse.Namespace, content: Path | None) -> int:
    from grader.grade import grade
    from grader.kinds.registry import kind_of

    if args.allow_unsandboxed:
        from grader.sandbox.runner import allow_unsandboxed

        allow_unsandboxed()
    if args.batch is not None:
        if args.exercise_id or args.answer:
            print("ringbook check: give either --batch or EXERCISE_ID ANSWER, not both.", file=sys.stderr)
            return 2
        return check_batch(args.batch, content)
    if args.exercise_id is None or args.answer is None:
        print("ringbook check: give EXERCISE_ID ANSWER (or --batch FILE).", file=sys.stderr)
        return 2
    book = load_or_report(content)
    if book is None:
        return 1
    exercise = book.exercise(args.exercise_id)
    if exercise is None:
        print(f"ringbook check: no exercise {args.exercise_id!r} (see `ringbook content list`).", file=sys.stderr)
        return EXIT_UNKNOWN_ID
    exercise, problem = posed(exercise, args.seed)
    if exercise is None:
        print(f"ringbook check: {problem}", file=sys.stderr)
        return EXIT_BY_STATUS["invalid"]
    say_if_seed_changes_nothing(exercise, args.seed, "ringbook check")
    if kind_of(exercise).runs_code:
        say_where_build_code_runs()
    verdict = grade(exercise, args.answer)
    if args.json:
        seed = {} if args.seed is None else {"seed": args.seed}
        print(json.dumps({"id": exercise.id, **seed, "answer": args.answer, **verdict.to_dict()}, ensure_ascii=False))
    else:
        print(f"{verdict.status}: {verdict.message}")
        if verdict.feedback:
            print(f"  {verdict.feedback}")
    return EXIT_BY_STATUS[verdict.status]


def check_batch(source: Path, content: Path | None) -> int:
    """One JSON verdict per input line; a bad line gets an invalid verdict, never a crash."""
    from grader.book.load import exercise_from_spec
    from grader.grade import grade
    from grader.kinds.registry import kind_of

    book = load_or_report(content)
    if book is None:
        return 1
    stream = sys.stdin if str(source) == "-" else None
    try:
        lines = (stream or source.open(encoding="utf-8", errors="replace"))
    except OSError as exc:
        print(f"ringbook check: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2
    told = False
    with lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            row: dict[str, object] = {"line": number}
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise ValueError
            except ValueError:
                row.update(status="invalid", message=f"line {number} is not a JSON object")
                print(json.dumps(row, ensure_ascii=False), flush=True)
                continue
            answer = item.get("answer")
            row.update(id=item.get("id"), answer=answer)
            if "spec" in item:
                exercise, problems = exercise_from_spec(item["spec"])
                if exercise is None:
                    row.update(status="invalid", message="the spec has problems: " + "; ".join(problems), feedback="")
                    print(json.dumps(row, ensure_ascii=False), flush=True)
                    continue
            else:
                exercise = book.exercise(str(item.get("id")))
                if exercise is None:
                    row.update(status="unknown", message=f"no exercise {item.get('id')!r}", feedback="")
                    print(json.dumps(row, ensure_ascii=False), flush=True)
                    continue
            if "seed" in item:
                row["seed"] = item["seed"]
                exercise, problem = posed(exercise, item["seed"])
                if exercise is None:
                    row.update(status="invalid", message=problem, feedback="")
                    print(json.dumps(row, ensure_ascii=False), flush=True)
                    continue
            if kind_of(exercise).runs_code and not told:
                say_where_build_code_runs()
                told = True
            verdict = grade(exercise, answer if isinstance(answer, str) else json.dumps(answer))
            row.update(status=verdict.status, message=verdict.message, feedback=verdict.feedback)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    return 0


def posed(exercise: Exercise, seed: object) -> tuple[Exercise | None, str | None]:
    """(the exercise posed with `seed`, None) or (None, why it cannot be), for a message, never a traceback."""
    from grader.book.variants import VariantError, pose, seed_problem

    if seed is None:
        return exercise, None
    problem = seed_problem(seed)
    if problem is not None or not isinstance(seed, int):   # seed_problem says why anything else is no seed
        return None, problem
    try:
        return pose(exercise, seed), None
    except VariantError as exc:
        return None, (f"exercise {exercise.id} cannot be posed with seed {seed}: {exc}. "
                      "Run `ringbook content check` on the book.")


def say_if_seed_changes_nothing(exercise: Exercise, seed: int | None, command: str) -> None:
    """A seed asked of an exercise with one form is no error (a script may pass one to every id), but
    the author should not believe they saw or graded a variant: a note on stderr says so."""
    from grader.book.variants import CANONICAL_SEED, varies

    if seed is not None and seed != CANONICAL_SEED and not varies(exercise):
        print(f"{command}: note: exercise {exercise.id} ({exercise.kind}) has one form, with no numbers that "
              f"vary and nothing to shuffle, so --seed {seed} changes nothing.", file=sys.stderr)


def say_where_build_code_runs() -> None:
    """Before build code runs without a sandbox, or is refused for want of one, say so on stderr."""
    from grader.sandbox.runner import sandbox_status

    notice = sandbox_status().notice("Add --allow-unsandboxed to allow that.")
    if notice:
        print(f"ringbook check: {notice}", file=sys.stderr)

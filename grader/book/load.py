"""Content folder -> Book, with every problem reported as `path:line: message`.

Authors fix a book from the messages alone, so each problem points at the line that causes it: YAML is
read with line numbers kept, checked against `exercise.schema.json`, and then checked for what a schema
cannot say (formulas that do not evaluate, duplicate ids, a mistake equal to the answer, ...). Files are
read through grader.files, so an oversized file, a "billion laughs" or a control character that
would reach the reader's terminal is a problem here too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from grader import BUILTIN_CONTENT
from grader.book import cache as book_cache
from grader.book.build import CANONICAL_TEXTS, build_exercise, hardware_of, unknown_kind
from grader.book.model import Book, Chapter, LabRef
from grader.book.quiz import Quiz, quiz_from_raw, quiz_problems
from grader.book.schema import QUIZ_SCHEMA_PATH, validator
from grader.exercise import Exercise, NumericAnswer, Source, Where
from grader.files import OUTSIDE, BookFileError, load_yaml, narrative_cost, read_text
from grader.kinds.numeric import gpus_of
from grader.kinds.registry import KINDS, Hardware
from grader.problems import EXCERPT, Problem, excerpt, line_loader, line_of, say, schema_validator, yaml_problem
from grader.problems import schema_problems as schema_problems_of
from grader.safe_text import clipped, markup_tags, unsafe_characters


class BookError(Exception):
    """A book that does not pass its checks; `problems` says where and why."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def _where(data: Any) -> Where:
    """`where(*keys)`: the line of the field of `data` (an exercise as written) at `keys`."""
    return lambda *keys: line_of(data, keys)


def _read_or_report(path: Path, problems: list[Problem], read: Callable[[], Any], missing: str) -> Any:
    """What `read()` gives, or None after adding why the book file could not be read."""
    try:
        return read()
    except FileNotFoundError:
        problems.append(Problem(path, 1, missing))
    except OSError as exc:
        problems.append(Problem(path, 1, f"cannot read the file: {exc.strerror or exc}"))
    except BookFileError as exc:
        problems.append(Problem(path, 1, str(exc)))
    return None


def _read_yaml(path: Path, root: Path, problems: list[Problem]) -> Any:
    import yaml

    try:
        loaded = _read_or_report(path, problems, lambda: load_yaml(path, root, line_loader()), "file is missing")
    except yaml.MarkedYAMLError as exc:
        problems.append(Problem(path, *yaml_problem(exc, read_text(path, root))))   # it was read just now
        return None
    except yaml.YAMLError as exc:
        problems.append(Problem(path, 1, f"invalid YAML: {exc}"))
        return None
    if loaded is None:
        return None
    data, unsafe, markup = loaded
    problems.extend(Problem(path, line, message) for line, message in unsafe)
    problems.extend(Problem(path, line, message, warning=True) for line, message in markup)
    return data


def _check_narrative(path: Path, root: Path, problems: list[Problem]) -> None:
    """A chapter's Markdown: there, inside the book, readable within the size cap, free of control characters,
    within what one chapter may cost to show, and (a warning) free of Textual markup."""
    text = _read_or_report(path, problems, lambda: read_text(path, root), "chapter narrative is missing")
    if text is not None:
        problems.extend(Problem(path, line, message) for line, message in unsafe_characters(text))
        problems.extend(Problem(path, line, message) for line, message in narrative_cost(text))
        problems.extend(Problem(path, line, message, warning=True) for line, message in markup_tags(text))


# --- the book ---------------------------------------------------------------------------------------

def load_book(root: Path | str | None = None, *, cache_dir: Path | None = None) -> Book:
    """Load and check a book; raises BookError listing every problem. With `cache_dir` (the reader's own
    folder, grader.book.cache.default_folder), a book that passed its checks before and whose files have not
    changed since is read from the copy kept there, and one read from its files is kept there."""
    root = Path(root) if root is not None else BUILTIN_CONTENT
    cached = None if cache_dir is None else book_cache.book(root, cache_dir)
    if cached is not None:
        return cached
    raw: dict[str, Any] = {}
    book, problems = check_book(root, validate_schema=False, collect=raw)
    errors = [p for p in problems if not p.warning]
    if book is None or errors:
        raise BookError(errors)
    if cache_dir is not None:
        book_cache.write(root, cache_dir, raw)
    return book


def check_book(root: Path | str | None = None, *, validate_schema: bool = True,
               collect: dict[str, Any] | None = None) -> tuple[Book | None, list[Problem]]:
    """Everything wrong with the book at `root` (the built-in book by default), and the book itself.
    `collect`, when given, receives the raw data the book was built from (for the cache)."""
    root = Path(root) if root is not None else BUILTIN_CONTENT
    problems: list[Problem] = []
    book_path = root / "book.yaml"
    if not root.is_dir():
        return None, [Problem(root, 1, "no such content folder")]
    data = _read_yaml(book_path, root, problems)
    if data is None:
        return None, problems
    if (not isinstance(data, dict) or not isinstance(data.get("title"), str)
            or not isinstance(data.get("chapters"), list)):
        problems.append(Problem(book_path, 1, "book.yaml needs a title (string) and chapters (a list)"))
        return None, problems
    chapters = []
    hardware = hardware_of(data, book_path, problems)
    seen_ids: dict[str, Source] = {}
    chapter_ids: set[str] = set()
    for index, entry in enumerate(data["chapters"]):
        line = line_of(data, ["chapters", index])
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("id", "title", "dir")):
            problems.append(Problem(book_path, line, "each chapter needs id, title and dir (strings; quote ids)"))
            continue
        if not isinstance(entry.get("part", ""), str):
            problems.append(Problem(book_path, line, "a chapter's part must be a string (e.g. part: case study)"))
        if entry["id"] in chapter_ids:
            problems.append(Problem(book_path, line, f"duplicate chapter id {excerpt(entry['id'])}"))
        chapter_ids.add(entry["id"])
        if _climbs_out(entry["dir"]):
            problems.append(Problem(book_path, line, f"chapter folder {excerpt(entry['dir'])} is {OUTSIDE}: "
                                                     "write dir as a path inside it (no .. and no leading /)"))
            continue
        chapter_dir = root / entry["dir"]
        _check_narrative(chapter_dir / "chapter.md", root, problems)
        if validate_schema:   # a full check (`ringbook content check`), as the sampled variants
            from grader.book.check import narrative_problems

            problems.extend(narrative_problems(chapter_dir / "chapter.md", root, hardware))
        raw_chapter: dict[str, Any] = {}
        exercises = _load_chapter(entry["id"], chapter_dir / "exercises.yaml", root, problems, seen_ids,
                                  validate_schema, raw_chapter, hardware)
        chapters.append(Chapter.built(entry["id"], entry["title"], chapter_dir, tuple(exercises), root,
                                      str(entry.get("part", ""))))
        if collect is not None:
            collect.setdefault("chapters", {})[entry["dir"]] = raw_chapter
    if not chapters and not problems:
        problems.append(Problem(book_path, line_of(data, ["chapters"]), "the book has no chapters"))
    quizzes = _load_quizzes(root, data, chapter_ids, problems, validate_schema, collect)
    labs = _load_labs(root, data, problems)
    if collect is not None:
        collect["book"] = data
    book = Book(data["title"], str(data.get("subtitle", "")), root, tuple(chapters), quizzes, labs)
    return book, problems


def _climbs_out(name: str) -> bool:
    """Whether a `dir:` or `file:` of book.yaml names a place outside the book, by its words alone (a link out
    is grader.files' to refuse)."""
    return Path(name).is_absolute() or ".." in Path(name).parts


def _entries(data: dict, key: str, book_path: Path, problems: list[Problem]) -> list[dict]:
    """book.yaml's `quizzes` or `labs`: each needs an id, a title and a file."""
    entries = data.get(key, [])
    if not isinstance(entries, list):
        problems.append(Problem(book_path, line_of(data, [key]), f"{key} must be a list"))
        return []
    good, ids = [], set()
    for index, entry in enumerate(entries):
        line = line_of(data, [key, index])
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("id", "title", "file")):
            problems.append(Problem(book_path, line, f"each entry of {key} needs id, title and file (strings)"))
        elif entry["id"] in ids:
            problems.append(Problem(book_path, line, f"duplicate id {excerpt(entry['id'])} in {key}"))
        elif _climbs_out(entry["file"]):
            problems.append(Problem(book_path, line, f"file {excerpt(entry['file'])} is {OUTSIDE}: write file as "
                                                     "a path inside it (no .. and no leading /)"))
        else:
            ids.add(entry["id"])
            good.append(entry)
    return good


def _load_quizzes(root: Path, data: dict, chapter_ids: set[str], problems: list[Problem], validate_schema: bool,
                  collect: dict[str, Any] | None) -> tuple[Quiz, ...]:
    quizzes = []
    for entry in _entries(data, "quizzes", root / "book.yaml", problems):
        path = root / entry["file"]
        raw = _read_yaml(path, root, problems)
        if raw is None:
            continue
        if validate_schema or not isinstance(raw, dict):
            schema_problems = schema_problems_of(path, raw, schema_validator(QUIZ_SCHEMA_PATH))
            if schema_problems:
                problems.extend(schema_problems)
                continue
        lines = [line_of(raw, ["questions", i]) for i in range(len(raw["questions"]))]
        try:
            quiz = quiz_from_raw(raw, entry["id"], entry["title"], path, lines)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(Problem(path, 1, f"malformed quiz ({clipped(str(exc), 2 * EXCERPT)})"))
            continue
        problems.extend(Problem(path, line, message) for line, message in quiz_problems(quiz, chapter_ids))
        quizzes.append(quiz)
        if collect is not None:
            collect.setdefault("quizzes", {})[entry["file"]] = {"data": raw, "lines": lines}
    return tuple(quizzes)


def _load_labs(root: Path, data: dict, problems: list[Problem]) -> tuple[LabRef, ...]:
    from grader.lab.load import LabError, load_lab  # only when reading files: a cached start skips the checks

    labs = []
    for entry in _entries(data, "labs", root / "book.yaml", problems):
        lab = LabRef(entry["id"], entry["title"], root / entry["file"])
        if not lab.path.is_file():
            problems.append(Problem(lab.path, 1, "lab file is missing"))
            continue
        found = len(problems)
        _read_yaml(lab.path, root, problems)  # its size, nesting, aliases and control characters, with their lines
        if any(not problem.warning for problem in problems[found:]):
            continue
        try:
            load_lab(lab.path, root)
        except LabError as exc:
            problems.extend(exc.problems)
            continue
        labs.append(lab)
    return tuple(labs)


def _load_chapter(chapter_id: str, path: Path, root: Path, problems: list[Problem], seen_ids: dict[str, Source],
                  validate_schema: bool, raw_chapter: dict[str, Any],
                  hardware: dict[str, dict[str, float]]) -> list[Exercise]:
    from grader.book.check import exercise_problems, exercise_warnings  # only when reading files, not from the cache

    data = _read_yaml(path, root, problems)
    if data is None:
        return []
    if validate_schema:
        schema_problems = schema_problems_of(path, data, validator()) + _unknown_kinds(path, data)
        if schema_problems:
            problems.extend(schema_problems)
            return []
    exercises = []
    raw_chapter.update(exercises=[], lines=[], headings=[])
    for index, raw in enumerate(data.get("exercises", []) if isinstance(data, dict) else []):
        source = Source(path, line_of(data, ["exercises", index]))
        try:
            exercise = build_exercise(raw, chapter_id, source, hardware)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(Problem(path, source.line, f"malformed exercise ({clipped(str(exc), 2 * EXCERPT)})"))
            continue
        where = _where(raw)
        if exercise.id in seen_ids:
            problems.append(Problem(path, where("id"),
                                    f"duplicate exercise id {excerpt(exercise.id)} (first at {seen_ids[exercise.id]})"))
        else:
            seen_ids[exercise.id] = source
        if not exercise.id.startswith(chapter_id + "."):
            problems.append(Problem(path, where("id"), f"exercise id {excerpt(exercise.id)} should start with the "
                                                       f"chapter id {chapter_id + '.'!r}"))
        errors = [Problem(path, line, message) for line, message in _gpu_problems(raw, hardware, where)]
        errors = errors or [Problem(path, line, message) for line, message in exercise_problems(exercise, where)]
        problems.extend(errors)
        if not errors:
            problems.extend(Problem(path, line, message, warning=True)
                            for line, message in exercise_warnings(exercise, where))
        if validate_schema:
            from grader.book.check import table_problems  # a full check only

            problems.extend(Problem(path, line, message) for line, message in table_problems(raw, where))
        if not errors and validate_schema and isinstance(exercise, NumericAnswer):
            from grader.book.check import unit_problems, worked_value_problems
            from grader.book.variant_check import sampled_findings  # a full check only: it draws many variants

            problems.extend(Problem(path, line, message) for line, message in unit_problems(exercise, where))
            problems.extend(Problem(path, line, message) for line, message in worked_value_problems(exercise, where))
            problems.extend(Problem(path, line, message, warning) for line, message, warning
                            in sampled_findings(exercise, where))
        if not errors and validate_schema:
            from grader.book.code_runs import code_run_problems  # a full check only: it starts sandboxes

            problems.extend(Problem(path, line, message, warning) for line, message, warning
                            in code_run_problems(exercise, where))
        exercises.append(exercise)
        if isinstance(exercise, NumericAnswer) and exercise.written is not None:
            raw = {**raw, CANONICAL_TEXTS: exercise.texts}   # the cache keeps the texts as first posed
        raw_chapter["exercises"].append(raw)
        raw_chapter["lines"].append(source.line)
        raw_chapter["headings"].append([exercise.id, exercise.title])
    return exercises


def _gpu_problems(raw: dict[str, Any], hardware: Hardware, where: Where) -> list[tuple[int, str]]:
    """An exercise's `gpu` names products of book.yaml's hardware; `fits` and `overflows` need one."""
    gpus = gpus_of(raw.get("gpu"))
    unknown = [g for g in gpus if g not in hardware]
    if unknown:
        return [(where("gpu"), f"gpu {', '.join(unknown)} is not in book.yaml's hardware "
                               f"({', '.join(hardware) or 'none declared'})")]
    if not gpus and ("fits" in raw or "overflows" in raw):
        key = "fits" if "fits" in raw else "overflows"
        return [(where(key), f"{key} compares with the card's memory: name the card with gpu (e.g. gpu: H100)")]
    if gpus and "gpu" in raw.get("params", {}):
        return [(where("params", "gpu"), "gpu is the card's name; give the param another name")]
    return []


def _unknown_kinds(path: Path, data: Any) -> list[Problem]:
    """Each exercise whose kind no module registers, beside the schema's word for it (the kinds it knows)."""
    exercises = data.get("exercises") if isinstance(data, dict) else None
    return [Problem(path, line_of(data, ["exercises", i, "kind"]), unknown_kind(raw["kind"]))
            for i, raw in enumerate(exercises if isinstance(exercises, list) else [])
            if isinstance(raw, dict) and isinstance(raw.get("kind"), str) and raw["kind"] not in KINDS]


def exercise_from_spec(spec: Any) -> tuple[Exercise | None, list[str]]:
    """An exercise written inline (e.g. in a `ringbook check --batch` line), so an author can try the
    grader on a formula before writing the exercise. Only the kind's own fields are needed."""
    if not isinstance(spec, dict):
        return None, ["spec must be an object"]
    raw = _inline(spec)
    errors = [f"{'/'.join(map(str, e.absolute_path)) or 'spec'}: {say(e)}"
              for e in validator().iter_errors({"exercises": [raw]})]
    if errors:
        return None, [e.removeprefix("exercises/0/") for e in errors]
    exercise = _built_inline(raw)
    from grader.book.check import exercise_problems

    problems = [message for _, message in exercise_problems(exercise, lambda *keys: 1)]
    return (None, problems) if problems else (exercise, [])


def exercise_of_ours(spec: dict[str, Any]) -> Exercise:
    """An inline exercise that ringbook writes itself (the app's warm-up grades one), built as an author's
    spec is but without the schema and the checks, which only an author's needs: jsonschema alone is ~70 ms
    of CPU and 4 MB in every learner's app."""
    return _built_inline(_inline(spec))


def _inline(spec: dict[str, Any]) -> dict[str, Any]:
    raw = {"id": "spec.1", "title": "inline", "kind": "derive", "prompt": "-", "hints": [], "explanation": "-", **spec}
    raw["id"] = str(raw["id"])
    return raw


def _built_inline(raw: dict[str, Any]) -> Exercise:
    return build_exercise(raw, raw["id"].split(".")[0], Source(Path("<spec>"), 1))


__all__ = ["BUILTIN_CONTENT", "Book", "BookError", "Problem", "check_book", "exercise_from_spec", "exercise_of_ours",
           "load_book"]

"""The JSON Schemas a book's files are checked against, with the exercise schema checked against the
registered kinds: each kind has its `$defs` entry (in content/exercise.schema.json, or, for a kind defined
elsewhere such as a test's, in its Kind's `schema`, composed in here), and the schema names no kind that no
module registers.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from grader import BUILTIN_CONTENT
from grader.kinds.registry import KINDS, KindError

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_PATH = BUILTIN_CONTENT / "exercise.schema.json"
QUIZ_SCHEMA_PATH = BUILTIN_CONTENT / "quiz.schema.json"


def exercise_schema() -> dict[str, Any]:
    """content/exercise.schema.json with the kinds that bring their own schema added; raises KindError
    for a kind with no schema, or a schema kind with no module."""
    return _exercise_schema(_registered())


def _registered() -> tuple[tuple[str, int], ...]:
    """The kinds as they are registered now, by name and record: what the schema is composed from."""
    return tuple((name, id(kind)) for name, kind in KINDS.items())


@lru_cache(maxsize=2)
def _exercise_schema(kinds: tuple[tuple[str, int], ...]) -> dict[str, Any]:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    named: list[str] = defs["common"]["properties"]["kind"]["enum"]
    unknown = [name for name in named if name not in KINDS]
    if unknown:
        raise KindError(f"{SCHEMA_PATH.name} declares kind(s) {', '.join(unknown)} that no module of grader/kinds "
                        "registers")
    for name, _ in kinds:
        own = KINDS[name].schema
        if own is None:
            if name not in named or name not in defs:
                raise KindError(f"kind {name!r} has no schema: add $defs/{name} to {SCHEMA_PATH.name} (with its name "
                                "in common's kind enum and a branch in exercise's allOf), or give its Kind a schema")
            continue
        if name in named:
            raise KindError(f"kind {name!r} is in {SCHEMA_PATH.name} and brings a schema of its own: keep one")
        defs[name] = own
        named.append(name)
        defs["exercise"]["allOf"].append({"if": {"properties": {"kind": {"const": name}}},
                                          "then": {"$ref": f"#/$defs/{name}"}})
    return schema


def check_kinds() -> None:
    """Fail loudly now (the book's loading calls it) when a kind and the schema disagree."""
    exercise_schema()


@lru_cache(maxsize=2)
def _validator(kinds: tuple[tuple[str, int], ...]) -> Draft202012Validator:
    import jsonschema  # imported on first check only: loading the built-in book needs no schema pass

    return jsonschema.Draft202012Validator(_exercise_schema(kinds))


def validator() -> Draft202012Validator:
    """A validator for the exercise schema with the kinds registered now (other schemas, as written, are
    grader.problems.schema_validator's)."""
    return _validator(_registered())

"""The JSON Schemas a book's files are checked against. The exercise schema is made from the kinds: the
fields every exercise shares (exercise_base.schema.json beside this module) and each registered kind's own
`$defs` entry (its Kind's `schema`), with its name in the kind enum and a branch of `exercise`'s `allOf`.
content/exercise.schema.json is the same schema written out for authors' editors (`ringbook content
schema`); a test fails while it is stale. Loading a book never reads it.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader import BUILTIN_CONTENT
from grader.kinds.registry import KINDS

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_PATH = BUILTIN_CONTENT / "exercise.schema.json"
QUIZ_SCHEMA_PATH = BUILTIN_CONTENT / "quiz.schema.json"
BASE_PATH = Path(__file__).resolve().parent / "exercise_base.schema.json"
REGENERATE = "uv run ringbook content schema"


def exercise_schema() -> dict[str, Any]:
    """The exercise schema with the kinds registered now."""
    return _exercise_schema(_registered())


def _registered() -> tuple[tuple[str, int], ...]:
    """The kinds as they are registered now, by name and record: what the schema is composed from."""
    return tuple((name, id(kind)) for name, kind in KINDS.items())


@lru_cache(maxsize=2)
def _exercise_schema(kinds: tuple[tuple[str, int], ...]) -> dict[str, Any]:
    schema = json.loads(BASE_PATH.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    for name, _ in kinds:
        defs["common"]["properties"]["kind"]["enum"].append(name)
        defs[name] = copy.deepcopy(KINDS[name].schema)
        defs["exercise"]["allOf"].append({"if": {"properties": {"kind": {"const": name}}},
                                          "then": {"$ref": f"#/$defs/{name}"}})
    return schema


def schema_text() -> str:
    """content/exercise.schema.json as it must read: the schema of the registered kinds."""
    return json.dumps(exercise_schema(), indent=2, ensure_ascii=False) + "\n"


@lru_cache(maxsize=2)
def _validator(kinds: tuple[tuple[str, int], ...]) -> Draft202012Validator:
    import jsonschema  # imported on first check only: loading the built-in book needs no schema pass

    return jsonschema.Draft202012Validator(_exercise_schema(kinds))


def validator() -> Draft202012Validator:
    """A validator for the exercise schema with the kinds registered now (other schemas, as written, are
    grader.problems.schema_validator's)."""
    return _validator(_registered())

"""content/exercise.schema.json is made from the kinds (grader.book.schema): the copy authors' editors read
must be what the kinds make now, and every kind has its `$defs` entry, its name and its branch."""

from __future__ import annotations

from grader.book.schema import REGENERATE, SCHEMA_PATH, exercise_schema, schema_text
from grader.kinds.registry import KINDS


def test_the_checked_in_exercise_schema_is_the_one_the_kinds_make():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), \
        f"{SCHEMA_PATH.name} is stale: run `{REGENERATE}` and commit it"


def test_every_kind_brings_its_schema_into_the_exercise_schema():
    schema = exercise_schema()
    defs = schema["$defs"]
    assert defs["common"]["properties"]["kind"]["enum"] == list(KINDS)
    assert all(defs[name] == kind.schema for name, kind in KINDS.items())
    branches = [branch["if"]["properties"]["kind"]["const"] for branch in defs["exercise"]["allOf"][1:]]
    assert branches == list(KINDS)


def test_the_schema_command_writes_the_kinds_schema(tmp_path, monkeypatch, capsys):
    import grader.book.schema
    from tests.helpers import ringbook_in_process as run

    target = tmp_path / "exercise.schema.json"
    monkeypatch.setattr(grader.book.schema, "SCHEMA_PATH", target)
    assert run(capsys, "content", "schema")[:2] == (0, f"wrote {target}\n")
    assert target.read_text(encoding="utf-8") == schema_text()

"""Drafts and quiz/lab runs under way travel in exports (issue 43, item 8): export, reset and import (or a
move to another machine) brings them back; importing twice adds nothing; a newer local draft, a draft an
answer has spent since, and a quiz finished since are not replaced by an older export's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import ringbook_in_process as run
from tui.progress.mastery import quiz_run_key
from tui.progress.store import ProgressStore

QUIZ_RUN = {"responses": [{"question_id": "q1", "choice": 2, "rating": None}]}
LAB_DESIGN = {"act": 2, "controls": {"tp": 8, "pp": 16}}


@pytest.fixture
def at(monkeypatch):
    """Move ringbook's clock to a moment: at("2026-03-01T10:00:00+00:00")."""
    return lambda moment: monkeypatch.setenv("RINGBOOK_NOW", moment)


def learner_under_way(folder: Path) -> None:
    store = ProgressStore.open(folder)
    try:
        store.record_attempt("0.1", "1.75", "correct")
        store.save_draft("0.2", "def ring(n):\n    return 2 * (n - 1)\n")
        store.set_state(quiz_run_key("readiness"), json.dumps(QUIZ_RUN))
        store.set_state("lab:paradox", json.dumps(LAB_DESIGN))
    finally:
        store.close()


def under_way(folder: Path) -> tuple[str, str, str]:
    store = ProgressStore.open(folder)
    try:
        return store.draft("0.2"), store.state(quiz_run_key("readiness")), store.state("lab:paradox")
    finally:
        store.close()


def test_export_reset_import_brings_back_drafts_and_runs_under_way(tmp_path, capsys, at):
    at("2026-03-01T10:00:00+00:00")
    learner = tmp_path / "learner"
    learner_under_way(learner)
    kept = under_way(learner)
    export = tmp_path / "progress.json"
    code, out, _ = run(capsys, "--data-dir", learner, "progress", "export", export)
    assert code == 0
    assert "1 draft" in out and "1 quiz run under way" in out and "1 lab design under way" in out
    assert run(capsys, "--data-dir", learner, "progress", "reset", "--yes")[0] == 0
    assert under_way(learner) == ("", "", "")
    code, out, _ = run(capsys, "--data-dir", learner, "progress", "import", export)
    assert code == 0 and "1 draft" in out and "1 quiz run under way" in out, out
    assert under_way(learner) == kept
    code, out, _ = run(capsys, "--data-dir", learner, "progress", "import", export)
    assert code == 0 and out.startswith("Imported nothing new"), out
    assert under_way(learner) == kept


def exported_a_day_ago(tmp_path: Path, capsys, at) -> tuple[Path, Path, ProgressStore]:
    """A learner with work under way, exported on 1 March; it is now the 2nd, and their store is open."""
    at("2026-03-01T10:00:00+00:00")
    learner, export = tmp_path / "learner", tmp_path / "progress.json"
    learner_under_way(learner)
    assert run(capsys, "--data-dir", learner, "progress", "export", export)[0] == 0
    at("2026-03-02T10:00:00+00:00")
    return learner, export, ProgressStore.open(learner)


def test_a_newer_local_draft_and_run_are_kept_over_an_older_export(tmp_path, capsys, at):
    learner, export, store = exported_a_day_ago(tmp_path, capsys, at)
    store.save_draft("0.2", "newer code")
    store.set_state(quiz_run_key("readiness"), json.dumps({"responses": []}))
    store.close()
    code, out, _ = run(capsys, "--data-dir", learner, "progress", "import", export)
    assert code == 0 and out.startswith("Imported nothing new"), out
    assert under_way(learner)[:2] == ("newer code", json.dumps({"responses": []}))


def test_a_draft_spent_and_a_quiz_finished_since_the_export_stay_gone(tmp_path, capsys, at):
    learner, export, store = exported_a_day_ago(tmp_path, capsys, at)
    store.record_attempt("0.2", "def ring(n): ...", "correct")   # the answer spends the draft
    store.record_entry("quiz", "readiness", {"score": 3, "out_of": 20})
    store.set_state(quiz_run_key("readiness"), "")   # as record_quiz_run leaves a finished run
    store.close()
    assert run(capsys, "--data-dir", learner, "progress", "import", export)[0] == 0
    assert under_way(learner)[:2] == ("", "")


def test_another_machine_gets_them_and_a_class_report_reads_the_export(tmp_path, capsys, at):
    at("2026-03-01T10:00:00+00:00")
    learner, elsewhere = tmp_path / "learner", tmp_path / "elsewhere"
    learner_under_way(learner)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    assert run(capsys, "--data-dir", learner, "progress", "export", inbox / "s.json")[0] == 0
    assert run(capsys, "--data-dir", elsewhere, "progress", "import", inbox / "s.json")[0] == 0
    assert under_way(elsewhere) == under_way(learner)
    code, out, err = run(capsys, "class", "report", inbox, "--format", "json")
    assert code == 0, err
    assert json.loads(out)


def test_an_export_with_a_draft_out_of_the_rules_is_refused_whole(tmp_path, capsys, at):
    at("2026-03-01T10:00:00+00:00")
    learner = tmp_path / "learner"
    learner_under_way(learner)
    export = tmp_path / "progress.json"
    assert run(capsys, "--data-dir", learner, "progress", "export", export)[0] == 0
    data = json.loads(export.read_text(encoding="utf-8"))
    data["drafts"][0]["text"] = "x" * 100_001
    data["runs"][0]["kind"] = "exam"
    export.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "--data-dir", tmp_path / "fresh", "progress", "import", export)
    assert code == 1 and "drafts row 1" in err and "Nothing was imported" in err


def test_a_submission_leaves_out_what_is_under_way(tmp_path, capsys, at):
    """An instructor's inbox holds what a learner handed in, not their unfinished code or quiz."""
    at("2026-03-01T10:00:00+00:00")
    learner, inbox = tmp_path / "learner", tmp_path / "inbox"
    learner_under_way(learner)
    inbox.mkdir()
    code, out, _ = run(capsys, "--data-dir", learner, "progress", "submit", inbox, "--name", "Ada")
    assert code == 0 and out.startswith("Submitted 1 attempt as "), out
    [submission] = inbox.iterdir()
    data = json.loads(submission.read_text())
    assert len(data["attempts"]) == 1 and "drafts" not in data and "runs" not in data
    assert "def ring" not in submission.read_text()

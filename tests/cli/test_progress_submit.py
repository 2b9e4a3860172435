"""`ringbook progress submit DIR`: a timestamped export in a drop folder, readable by the instructor
and not by classmates, under a name nobody can guess, never overwriting, with plain messages when the
folder is wrong; and exports that say whose they are."""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.helpers import ringbook_in_process as run
from tui.progress.export_file import MAX_EXPORT_BYTES
from tui.progress.store import ProgressStore
from tui.progress.submission import login

STAMPED = re.compile(r"^(?P<name>.+)-(?P<stamp>\d{8}T\d{6}Z)-(?P<token>[0-9a-f]{20})\.json$")


@pytest.fixture
def learner(tmp_path: Path) -> Path:
    folder = tmp_path / "learner"
    store = ProgressStore.open(folder)
    store.record_attempt("0.1", "0.875", "incorrect")
    store.record_attempt("0.1", "1.75", "correct")
    store.record_entry("quiz", "readiness", {"score": 14, "out_of": 19})
    store.close()
    return folder


def test_submit_writes_a_named_timestamped_export(learner, tmp_path, capsys):
    drop = tmp_path / "drop"
    drop.mkdir()
    before = datetime.now(UTC).replace(microsecond=0)
    code, out, err = run(capsys, "--data-dir", learner, "progress", "submit", drop)
    after = datetime.now(UTC)
    assert code == 0, err
    [written] = drop.iterdir()
    match = STAMPED.match(written.name)
    assert match and match["name"] == re.sub(r"[^A-Za-z0-9._-]+", "_", login())
    stamp = datetime.strptime(match["stamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    assert before <= stamp <= after
    assert out.strip() == f"Submitted 2 attempts and 1 quiz run as {written}."
    data = json.loads(written.read_text())
    assert data["student"]["user"] == login() and data["student"]["name"] == login()
    assert data["student"]["host"]
    assert [a["answer"] for a in data["attempts"]] == ["0.875", "1.75"]
    assert data["entries"][0]["payload"] == {"score": 14, "out_of": 19}


def test_a_chosen_name_is_kept_whole_inside_and_made_safe_in_the_file_name(learner, tmp_path, capsys):
    drop = tmp_path / "drop"
    drop.mkdir()
    assert run(capsys, "--data-dir", learner, "progress", "submit", drop, "--name", "Ana Lee/../x")[0] == 0
    [written] = drop.iterdir()
    assert STAMPED.match(written.name)["name"] == "Ana_Lee_.._x"
    assert json.loads(written.read_text())["student"]["name"] == "Ana Lee/../x"


def test_submissions_never_overwrite_earlier_ones(learner, tmp_path, capsys, monkeypatch):
    """Even when the random token comes out the same as an earlier submission's, that file is kept and
    the submission takes another token."""
    drop = tmp_path / "drop"
    drop.mkdir()
    assert run(capsys, "--data-dir", learner, "progress", "submit", drop, "--name", "ana")[0] == 0
    [earlier] = drop.iterdir()
    earlier.write_text("earlier submission")
    taken = STAMPED.match(earlier.name)["token"]
    stamp = STAMPED.match(earlier.name)["stamp"]
    tokens = iter([taken, taken, "f" * 20])
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(tokens))
    monkeypatch.setattr("tui.cli.progress.now", _stopped_at(stamp))
    code, out, err = run(capsys, "--data-dir", learner, "progress", "submit", drop, "--name", "ana")
    assert code == 0, err
    assert earlier.read_text() == "earlier submission"
    [new] = set(drop.iterdir()) - {earlier}
    assert new.name == f"ana-{stamp}-{'f' * 20}.json" and len(json.loads(new.read_text())["attempts"]) == 2


def _stopped_at(stamp: str):
    """ringbook's clock, stopped at a submission's stamp, so a second submission lands in the same second."""
    return lambda: datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)


@pytest.mark.parametrize("umask", [0o077, 0o022, 0o000])
def test_a_submission_is_readable_by_its_owner_and_group_only_whatever_the_umask(learner, tmp_path, capsys, umask):
    """Found: submissions were 0644, so any classmate could read one whose name they guessed. Now 0640:
    the student, and the inbox's group (the instructor), and nobody else; a umask of 077 must not take
    the instructor's read away, nor 000 give classmates one."""
    drop = tmp_path / "drop"
    drop.mkdir()
    before = os.umask(umask)
    try:
        assert run(capsys, "--data-dir", learner, "progress", "submit", drop)[0] == 0
    finally:
        os.umask(before)
    [written] = drop.iterdir()
    assert stat.S_IMODE(written.stat().st_mode) == 0o640


def test_submission_names_cannot_be_guessed(learner, tmp_path, capsys):
    """Found: `login-YYYYmmddTHHMMSSZ.json` was guessed on the first try. Two submissions in the same
    second now differ by 80 random bits; the login still comes first, for the instructor's eye."""
    drop = tmp_path / "drop"
    drop.mkdir()
    for _ in range(3):
        assert run(capsys, "--data-dir", learner, "progress", "submit", drop, "--name", "ana")[0] == 0
    matches = [STAMPED.match(p.name) for p in drop.iterdir()]
    assert all(m and m["name"] == "ana" for m in matches)
    assert len({m["token"] for m in matches}) == 3


def test_a_missing_drop_folder_is_named_and_not_created(learner, tmp_path, capsys):
    missing = tmp_path / "no-such-drop"
    code, out, err = run(capsys, "--data-dir", learner, "progress", "submit", missing)
    assert code == 1 and out == ""
    assert err.strip() == (f"ringbook: the drop folder {missing} does not exist; "
                           "check the path your instructor gave.")
    assert not missing.exists()


def test_a_file_is_not_a_drop_folder(learner, tmp_path, capsys):
    not_a_folder = tmp_path / "drop.txt"
    not_a_folder.write_text("x")
    code, _, err = run(capsys, "--data-dir", learner, "progress", "submit", not_a_folder)
    assert code == 1 and f"{not_a_folder} is not a folder" in err
    assert not_a_folder.read_text() == "x"


def test_an_unwritable_drop_folder_says_so(learner, tmp_path, capsys):
    if os.geteuid() == 0:   # root writes anywhere on a normal disk; sysfs refuses new files even to root
        locked = Path("/sys")
        if not locked.is_dir():
            pytest.skip("no unwritable folder to try as root")
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
    code, out, err = run(capsys, "--data-dir", learner, "progress", "submit", locked)
    assert code == 1 and out == ""
    assert err.startswith(f"ringbook: cannot write into the drop folder {locked}: ")
    assert "Traceback" not in err


def test_named_exports_import_like_any_other(learner, tmp_path, capsys):
    target = tmp_path / "export.json"
    assert run(capsys, "--data-dir", learner, "progress", "export", target, "--name", "ana")[0] == 0
    data = json.loads(target.read_text())
    assert data["student"]["name"] == "ana" and data["day_boundary_hour"] == 0
    code, out, _ = run(capsys, "--data-dir", tmp_path / "other", "progress", "import", target)
    assert code == 0 and out.startswith("Imported 2 attempts and 1 quiz run from ")
    old = {k: v for k, v in data.items() if k not in ("student", "day_boundary_hour")}
    (tmp_path / "old.json").write_text(json.dumps(old))
    code, out, _ = run(capsys, "--data-dir", tmp_path / "third", "progress", "import", tmp_path / "old.json")
    assert code == 0 and out.startswith("Imported 2 attempts and 1 quiz run from ")


@pytest.mark.parametrize("field, value", [("utc_offset_minutes", "+02:00"), ("utc_offset_minutes", 10**9),
                                          ("answer", 5), ("hints_used", True), ("created_utc", "yesterday")])
def test_an_export_edited_into_the_wrong_types_is_refused_whole(learner, tmp_path, capsys, field, value):
    target = tmp_path / "export.json"
    assert run(capsys, "--data-dir", learner, "progress", "export", target)[0] == 0
    data = json.loads(target.read_text())
    data["attempts"][1][field] = value
    target.write_text(json.dumps(data))
    other = tmp_path / "other"
    code, out, err = run(capsys, "--data-dir", other, "progress", "import", target)
    assert code == 1 and out == "" and "That export is damaged" in err and repr(field) in err
    store = ProgressStore.open(other)
    assert store.attempts() == [] and store.entries() == []   # nothing half-imported
    store.close()


# --- an export sent in from another host: `progress submit DIR -` (issue 48) ---------------------------

def submitted_from_stdin(capsys, monkeypatch, drop: Path, raw: bytes) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw)))
    return run(capsys, "progress", "--data-dir", drop.parent / "instructor-host-data", "submit", drop, "-")


def test_an_export_on_standard_input_lands_in_the_drop_folder(learner, tmp_path, capsys, monkeypatch):
    code, exported, _ = run(capsys, "--data-dir", learner, "progress", "export", "-")
    assert code == 0
    drop = tmp_path / "drop"
    drop.mkdir()
    code, out, err = submitted_from_stdin(capsys, monkeypatch, drop, exported.encode())
    assert code == 0, err
    [written] = drop.iterdir()
    assert STAMPED.match(written.name)
    assert stat.S_IMODE(written.stat().st_mode) == 0o640
    assert out.strip() == f"Submitted 2 attempts and 1 quiz run as {written}."
    sent, kept = json.loads(exported), json.loads(written.read_text())
    assert kept["attempts"] == sent["attempts"] and kept["student"] == sent["student"]
    assert "drafts" not in kept and "runs" not in kept
    assert not (tmp_path / "instructor-host-data").exists()   # the receiving account's own store is not touched


def test_hostile_standard_input_is_refused_whole_with_one_line(learner, tmp_path, capsys, monkeypatch):
    code, exported, _ = run(capsys, "--data-dir", learner, "progress", "export")
    good = json.loads(exported)
    named = {**good, "student": {**good["student"], "name": "alice\x1b]0;owned\x07"}}
    forged = {**good, "attempts": [{**good["attempts"][0], "hints_used": -1}]}
    drop = tmp_path / "drop"
    drop.mkdir()
    refusals = {
        b"x" * (MAX_EXPORT_BYTES + 1): "is larger than 32 MB",
        b"not json at all": "is not JSON, so not a ringbook progress export",
        b"": "is not JSON, so not a ringbook progress export",
        json.dumps({**good, "student": "alice"}).encode(): "names no student",
        json.dumps(named).encode(): "gives a student name with control or invisible characters",
        json.dumps(forged).encode(): "That export is damaged: attempts row 1: 'hints_used' is not a count",
    }
    for raw, reason in refusals.items():
        code, out, err = submitted_from_stdin(capsys, monkeypatch, drop, raw)
        assert code == 1 and out == "" and len(err.splitlines()) == 1, err
        assert err.startswith("ringbook: nothing was submitted; standard input: ") and reason in err, err
        assert "imported" not in err and "\x1b" not in err and "\x07" not in err
    assert list(drop.iterdir()) == []

"""`ringbook class live DIR --json` and its plain lines, over a real inbox, with RINGBOOK_NOW holding the clock."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from grader.book.load import load_book
from tests.class_inbox import NOW, Class
from tests.helpers import RINGBOOK, ROOT, STACKS_ON_ABORT, WAIT_SECONDS, LineReader, stop_with_ctrl_c
from tests.helpers import ringbook_in_process as run
from tests.progress.test_store_unreadable import another_account, run_as
from tui.progress import clock
from tui.progress.class_live import STUCK_WINDOW, Snapshot
from tui.progress.class_live_text import change_lines, snapshot_lines


def test_json_is_one_snapshot_of_the_class(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RINGBOOK_NOW", NOW.isoformat())
    lesson = Class(tmp_path)
    lesson.answer("ana", [("0.1", "0.875", "incorrect", 7), ("0.1", "14", "incorrect", 4),
                          ("0.1", "3", "incorrect", 1)])
    lesson.answer("ben", [("0.1", "0.875", "incorrect", 3), ("0.1", "1.75", "correct", 2)])
    (lesson.inbox / "junk.json").write_text("[1, 2]")
    code, out, err = run(capsys, "class", "live", lesson.inbox, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"book", "now", "chapters", "learners", "stuck", "slips", "exercises", "skipped",
                         "inbox_unlisted"}
    assert data["inbox_unlisted"] is None
    ana, ben = data["learners"]
    assert (ana["name"], ana["chapters"]["0"], ana["exercises"]["0.1"]["state"]) == \
        ("ana", {"state": "tried", "solved": 0, "total": 8}, "tried")
    assert [a["regraded"] for a in ben["exercises"]["0.1"]["recent"]] == ["incorrect", "correct"]
    assert [(s["learner"], s["exercise"], s["wrong"], s["minutes"]) for s in data["stuck"]] == [("ana", "0.1", 3, 7.0)]
    assert data["slips"][0] == {"exercise": "0.1", "mistake": 1, "name": "That is one phase only", "learners": 2,
                                "attempts": 2}
    assert data["exercises"]["0.1"] == {"tried": 2, "solved": 1, "first_try_rate": 0.0, "median_attempts": 2}
    assert data["skipped"] == [f"{lesson.inbox / 'junk.json'}: is not a ringbook progress export"]


def test_an_unknown_chapter_or_folder_is_said_in_a_line(tmp_path, capsys):
    assert run(capsys, "class", "live", tmp_path / "nowhere")[0:2] == (2, "")
    code, _, err = run(capsys, "class", "live", tmp_path, "--chapter", "99", "--json")
    assert code == 2 and err.startswith("ringbook class live: the book has no chapter '99'")


def test_the_plain_lines_print_the_class_then_a_line_per_change(tmp_path):
    lesson = Class(tmp_path)
    lesson.answer("ana", [("0.1", "0.875", "incorrect", 2), ("0.1", "14", "incorrect", 1)])
    child = subprocess.Popen([*RINGBOOK, "class", "live", str(lesson.inbox)], cwd=ROOT, text=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_NOW": NOW.isoformat()})
    try:
        lines = LineReader(child)
        first = lines.until("nobody stuck now")
        assert first[0].startswith("ringbook class live: plain lines: input or output is not a terminal")
        assert "ana: chapter 0 tried (0 of 8)" in first
        lines.until("slip now: 1 learner · 0.1 · That is one phase only")
        lesson.answer("ana", [("0.1", "3", "incorrect", 0)])
        assert lines.until("stuck now:")[-1] == "stuck now: ana · 0.1 · 3 wrong · 2 min"
        lesson.answer("ana", [("0.1", "1.75", "correct", 0)])
        changed = lines.until("no longer stuck")
        assert "ana: 0.1 solved, 4 attempts" in changed
    finally:
        stop_with_ctrl_c(child)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to become another account")
def test_an_inbox_the_account_cannot_list_is_said_not_shown_as_an_empty_class():
    """A learner (or an instructor outside the inbox's group) running class live on the class's inbox, which
    `class init` makes mode 3733: every learner's file is there, but this account may not list them. Said before
    the book is read (the account cannot read this test's Python, which reading it may need)."""
    account = another_account()
    shared = Path(tempfile.mkdtemp(prefix="ringbook-class-"))   # pytest's own folders are root's alone
    try:
        os.chmod(shared, 0o755)
        lesson = Class(shared)
        lesson.answer("ana", [("0.1", "1.75", "correct", 5)])
        os.chmod(lesson.inbox, 0o3733)
        said = shared / "said.txt"
        code = run_as(account, ["class", "live", str(lesson.inbox), "--json"], said)
        assert code == 2, said.read_text()
        assert said.read_text().startswith(f"ringbook class live: cannot list {lesson.inbox} (Permission denied). "
                                           "Only the inbox's owner and its group"), said.read_text()
    finally:
        shutil.rmtree(shared)


def test_the_plain_lines_say_when_the_inbox_cannot_be_listed_and_when_it_can_again():
    shown = snapshot_lines(load_book(), Snapshot(NOW, (), {}, {}, (), (), {}, (), "Permission denied"))
    assert shown[-1] == ("The inbox cannot be listed now (Permission denied): the class is shown as it was last "
                         "read.")
    listed, unlisted = (Snapshot(NOW, (), {}, {}, (), (), {}, (), reason) for reason in ("", "Permission denied"))
    assert change_lines(listed, unlisted) == [shown[-1]]
    assert change_lines(unlisted, listed) == ["The inbox can be listed again."]


def test_the_plain_lines_end_once_nobody_reads_them(tmp_path):
    """Over `ssh -T` the lines go down a pipe: when the connection closed, class live went on until the next
    change it printed failed, which in a quiet class could be never (a process per closed connection)."""
    lesson = Class(tmp_path)
    lesson.answer("ana", [("0.1", "1.75", "correct", 2)])   # so the class's last line is "no slips now"
    read, write = os.pipe()
    child = subprocess.Popen([*RINGBOOK, "class", "live", str(lesson.inbox), "--lines"], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=write, stderr=subprocess.DEVNULL,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_NOW": NOW.isoformat()})
    os.close(write)
    try:
        printed = b""
        while not printed.endswith(b"no slips now\n"):
            chunk = os.read(read, 4096)
            assert chunk, printed.decode()
            printed += chunk
        os.close(read)   # the connection goes; the class stays quiet
        read = -1
        assert child.wait(timeout=WAIT_SECONDS) == 0
    finally:
        if read != -1:
            os.close(read)
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give files to accounts")
def test_a_roster_names_each_learner_by_their_files_owner_as_the_report_does(tmp_path, capsys):
    accounts = [a for a in pwd.getpwall() if a.pw_uid not in (0, os.getuid())][:2]
    if len(accounts) < 2:
        pytest.skip("this host has fewer than two other accounts to own the files")
    lesson = Class(tmp_path)
    for file_name, account in zip(("ana", "ben"), accounts, strict=True):
        os.chown(lesson.answer(file_name, [("0.1", "1.75", "correct", 1)]), account.pw_uid, account.pw_gid)
    roster = tmp_path / "roster.txt"
    roster.write_text(f"{accounts[0].pw_name} Ana Lima\n{accounts[1].pw_name} Ben Okafor  # second row\n")
    code, out, err = run(capsys, "class", "live", lesson.inbox, "--json", "--roster", roster)
    assert (code, err) == (0, "")
    assert sorted((learner["label"], learner["account"]) for learner in json.loads(out)["learners"]) == [
        ("Ana Lima", accounts[0].pw_name), ("Ben Okafor", accounts[1].pw_name)]
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "class", "live", lesson.inbox, "--json", "--roster", tmp_path / "bad.txt")
    assert (code, err) == (2, f"ringbook class live: the roster {tmp_path / 'bad.txt'} is not UTF-8 text; "
                              "nothing shown.\n")


def test_the_plain_lines_say_when_time_alone_ends_a_stuck_learners_window(tmp_path):
    """The screen reads the class again every 2 s, since "stuck" and "slips" move on with time; the lines were
    read only when a file changed, so a learner whose window ran out was still stuck there until then. The real
    clock runs here: ana's three wrong answers leave the ten-minute window 15 s from now."""
    lesson = Class(tmp_path)
    edge = STUCK_WINDOW.total_seconds() / 60 - 0.25
    lesson.answer("ana", [("0.1", "0.875", "incorrect", edge), ("0.1", "14", "incorrect", edge - 0.01),
                          ("0.1", "3", "incorrect", edge - 0.02)], now=clock.now())
    child = subprocess.Popen([*RINGBOOK, "class", "live", str(lesson.inbox), "--lines"], cwd=ROOT, text=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, **STACKS_ON_ABORT})
    try:
        lines = LineReader(child)
        assert lines.until("stuck now:")[-1].startswith("stuck now: ana · 0.1 · 3 wrong")
        assert lines.until("no longer stuck")[-1] == "no longer stuck: ana · 0.1"   # with no file changed
    finally:
        stop_with_ctrl_c(child)

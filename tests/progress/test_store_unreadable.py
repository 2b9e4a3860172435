"""A store that cannot be read (issue 43, item 2): `progress`, `export` and `submit` fail with exit 1 and the
real cause (permission, not a file, damaged), never an empty "success"; the in-memory fallback is the app's,
for its session only, and says so."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.helpers import ringbook_in_process as run
from tui.progress.store import FILE_NAME, ProgressStore


@pytest.fixture
def learner(tmp_path: Path) -> Path:
    folder = tmp_path / "learner"
    store = ProgressStore.open(folder)
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    return folder


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def damage(folder: Path, how: str) -> None:
    path = folder / FILE_NAME
    for leftover in folder.iterdir():
        leftover.unlink()
    if how == "folder":
        path.mkdir()
    else:
        path.write_bytes(b"not a database, a damaged file\x00" * 200)


CAUSES = {"folder": "is not a file", "damaged": "damaged"}


@pytest.mark.parametrize("how", sorted(CAUSES))
@pytest.mark.parametrize("command", [("progress", "export"), ("progress", "submit"), ("progress",)])
def test_a_command_that_reads_an_unreadable_store_fails_naming_why(learner, inbox, capsys, how, command):
    damage(learner, how)
    before = sorted(p.name for p in learner.iterdir())
    args = [*command, inbox] if command[-1] == "submit" else command
    code, out, err = run(capsys, "--data-dir", learner, *args)
    assert code == 1
    assert "Exported" not in out and "Submitted" not in out and "Mastery" not in out
    assert CAUSES[how] in err and str(learner / FILE_NAME) in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(inbox.iterdir()) == []
    assert sorted(p.name for p in learner.iterdir()) == before   # a reading command moves nothing aside


def another_account() -> pwd.struct_passwd:
    for account in pwd.getpwall():
        if account.pw_uid not in (0, os.getuid()) and account.pw_uid < 65534:
            return account
    pytest.skip("this host has no other account to run as")


def run_as(account: pwd.struct_passwd, args: list[str], out: Path) -> int:
    """`ringbook ARGS` run in-process in a forked child that has become `account`; its output goes to `out`."""
    pid = os.fork()
    if pid == 0:   # the child: never returns to pytest
        code = 70
        try:
            with open(out, "w", encoding="utf-8") as stream:
                os.dup2(stream.fileno(), 1)
                os.dup2(stream.fileno(), 2)
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)   # the child's own streams
            sys.stderr = sys.stdout
            from tui.cli.main import main

            for module in ("getpass", "socket", "uuid"):   # loaded now: the account cannot read root's Python
                __import__(module)

            os.setgroups([])
            os.setgid(account.pw_gid)
            os.setuid(account.pw_uid)
            code = main(args)
            sys.stdout.flush()
        except BaseException:
            import traceback

            traceback.print_exc(file=sys.stdout)
            sys.stdout.flush()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to become another account")
@pytest.mark.parametrize("command", ["export", "submit"])
def test_a_store_of_another_account_is_permission_denied_not_empty(command):
    account = another_account()
    shared = Path(tempfile.mkdtemp(prefix="ringbook-shared-"))   # pytest's own folders are root's alone
    try:
        os.chmod(shared, 0o755)
        learner, inbox, out = shared / "learner", shared / "inbox", shared / "out.txt"
        store = ProgressStore.open(learner)
        store.record_attempt("0.1", "1.75", "correct")
        store.close()
        os.chmod(learner / FILE_NAME, 0o600)   # the learner's own, as root owns it here
        os.chmod(learner, 0o755)
        inbox.mkdir(mode=0o777)
        os.chmod(inbox, 0o777)
        assert_refused_to(account, command, learner, inbox, out)
    finally:
        shutil.rmtree(shared)


def assert_refused_to(account: pwd.struct_passwd, command: str, learner: Path, inbox: Path, out: Path) -> None:
    args = ["--data-dir", str(learner), "progress", command] + ([str(inbox)] if command == "submit" else [])
    code = run_as(account, args, out)
    said = out.read_text(encoding="utf-8")
    assert code == 1, said
    assert "Exported" not in said and "Submitted" not in said and "read-only or full" not in said
    assert "permission denied" in said.lower() and str(learner / FILE_NAME) in said
    assert list(inbox.iterdir()) == []


def test_the_apps_fallback_says_it_is_for_this_session_only(learner):
    damage(learner, "folder")
    store = ProgressStore.open(learner)
    try:
        assert store.path is None and store.read_only
        assert "this session" in store.notice and "is not a file" in store.notice
    finally:
        store.close()


@pytest.mark.parametrize("command", [("progress", "export"), ("progress", "submit")])
def test_a_log_deleted_under_a_running_session_is_said_and_its_answers_come_back(tmp_path, inbox, capsys, command):
    """Issue 43, item 2: the -wal deleted while a ringbook has the store open. Exporting then read only the
    file's older part; now the command says what happened, and the session's close writes the answers back."""
    folder = tmp_path / "learner"
    running = ProgressStore.open(folder)
    try:
        for answer in ("1", "2", "3"):
            running.record_attempt("0.1", answer, "incorrect")
        (folder / f"{FILE_NAME}-wal").unlink()
        args = [*command, inbox] if command[-1] == "submit" else command
        code, out, err = run(capsys, "--data-dir", folder, *args)
        assert code == 1 and "Exported" not in out and "Submitted" not in out
        assert f"its log {FILE_NAME}-wal was deleted while a ringbook still has the file open" in err
        assert list(inbox.iterdir()) == []
    finally:
        running.close()
    code, out, _ = run(capsys, "--data-dir", folder, "progress", "export")
    assert code == 0 and [a["answer"] for a in json.loads(out)["attempts"]] == ["1", "2", "3"]

"""`ringbook class init DIR` (issue 48): the inbox as docs/classroom.md makes it (mode 3733, the instructor's,
in a group only the instructor is in) and the line learners' accounts need; a folder already there is checked
and reported, changed only when it is the instructor's own; bad input gets a sentence, never a traceback. And
`ringbook progress` says that progress is shared, with whom and how to stop."""

from __future__ import annotations

import grp
import json
import os
import pwd
import stat

import pytest

from tests.helpers import ringbook_in_process as run
from tui.progress.submission import login

NOBODY = 65534


def my_group() -> str:
    return grp.getgrgid(os.getegid()).gr_name


def test_a_new_inbox_is_mode_3733_in_the_group_given_and_the_learners_line_is_printed(tmp_path, capsys):
    inbox = tmp_path / "srv" / "inbox"
    code, out, err = run(capsys, "class", "init", inbox, "--group", my_group())
    assert code == 0, err
    info = os.stat(inbox)
    assert stat.S_IMODE(info.st_mode) == 0o3733 and stat.S_ISDIR(info.st_mode)
    assert info.st_uid == os.geteuid() and info.st_gid == os.getegid()
    lines = out.splitlines()
    assert f"  export RINGBOOK_CLASS={inbox}" in lines
    assert f"watch it with `ringbook class live {inbox}`" in out   # what the instructor runs next
    assert f"or each learner starts `ringbook --class {inbox}`." in lines
    assert lines[0] == f"Made {inbox}."


def test_an_inbox_already_right_is_left_as_it_is(tmp_path, capsys):
    inbox = tmp_path / "inbox"
    assert run(capsys, "class", "init", inbox, "--group", my_group())[0] == 0
    code, out, _ = run(capsys, "class", "init", inbox, "--group", my_group())
    assert code == 0 and "was there already" not in out and "now" not in out
    assert stat.S_IMODE(os.stat(inbox).st_mode) == 0o3733


def test_a_folder_of_ones_own_with_other_modes_is_reported_and_set_right(tmp_path, capsys):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    inbox.chmod(0o755)   # anyone could list it
    code, out, _ = run(capsys, "class", "init", inbox, "--group", my_group())
    assert code == 0
    assert out.splitlines()[:2] == [f"{inbox} was there already (owner {login()}, group {my_group()}, mode 0755):",
                                    "Its mode was 0755, now 3733."]
    assert stat.S_IMODE(os.stat(inbox).st_mode) == 0o3733


@pytest.mark.skipif(os.geteuid() != 0, reason="a folder owned by another account needs root to make")
def test_a_folder_of_another_account_is_reported_and_left_alone(tmp_path, capsys):
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o777)
    inbox.chmod(0o777)
    os.chown(inbox, NOBODY, NOBODY)
    code, out, err = run(capsys, "class", "init", inbox, "--group", my_group())
    assert code == 1 and out == ""
    owner = pwd.getpwuid(NOBODY).pw_name
    assert f"{inbox} is there already (owner {owner}, group {grp.getgrgid(NOBODY).gr_name}, mode 0777)" in err
    assert "it is not yours, so it was left as it is" in err and "Traceback" not in err
    info = os.stat(inbox)
    assert stat.S_IMODE(info.st_mode) == 0o777 and info.st_uid == NOBODY


def test_bad_inputs_get_a_sentence_each(tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("")
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    shared = next(grp.getgrgid(account.pw_gid).gr_name for account in pwd.getpwall()
                  if account.pw_gid not in (0, os.getegid()) and account.pw_name != login())
    cases = {
        ("class", "init", a_file, "--group", my_group()): f"{a_file} is there and is not a folder",
        ("class", "init", link, "--group", my_group()): f"{link} is a symbolic link: give the folder itself",
        ("class", "init", tmp_path / "x", "--group", "no-such-group-48"): "there is no group 'no-such-group-48'",
        ("class", "init", tmp_path / "y", "--group", shared): f"the group {shared} has other members",
    }
    for args, reason in cases.items():
        code, out, err = run(capsys, *args)
        assert code == 1 and out == "" and len(err.splitlines()) == 1, err
        assert err.startswith("ringbook class init: ") and reason in err, err
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_without_the_staff_group_it_says_how_to_make_it(tmp_path, capsys):
    try:
        grp.getgrnam("ringbook-staff")
        pytest.skip("this host has a ringbook-staff group")
    except KeyError:
        pass
    code, _, err = run(capsys, "class", "init", tmp_path / "inbox")
    assert code == 1
    assert err == (f"ringbook class init: there is no group 'ringbook-staff' on this host: make it for yourself "
                   f"alone: `sudo addgroup ringbook-staff && sudo adduser {login()} ringbook-staff`, then log in "
                   "again; or give --group GROUP.\n")


def test_progress_says_it_is_shared_with_whom_and_how_to_stop(tmp_path, capsys, monkeypatch):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    data = tmp_path / "data"
    code, out, _ = run(capsys, "progress", "--data-dir", data, "--class", inbox)
    assert code == 0
    assert out.splitlines()[-1] == (f"Class: Shared with {login()} as you answer. Stop: unset RINGBOOK_CLASS or "
                                    f"drop --class. Inbox: {inbox}.")
    code, out, _ = run(capsys, "progress", "--data-dir", data, "--class", inbox, "--json")
    assert json.loads(out)["class"].startswith(f"Shared with {login()} as you answer.")
    monkeypatch.setenv("RINGBOOK_CLASS", str(tmp_path / "gone"))
    code, out, _ = run(capsys, "progress", "--data-dir", data)
    assert out.splitlines()[-1] == (f"Class: Not shared with your class: the class inbox {tmp_path / 'gone'} does "
                                    "not exist; your answers are kept here as always.")
    monkeypatch.delenv("RINGBOOK_CLASS")
    code, out, _ = run(capsys, "progress", "--data-dir", data)
    assert "Class:" not in out

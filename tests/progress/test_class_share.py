"""Sharing progress with a class (tui.progress.class_share) on the real store and a real inbox: a burst waiting
to be shared is written as the session closes; a file of another account, or a link, planted at the learner's
name is never written through or replaced (a new name, and a notice); an inbox that cannot take the file is a
problem said once."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tui.progress.class_share import NAME_KEY, ClassShare
from tui.progress.store import ProgressStore

NOBODY = 65534


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    folder.chmod(0o3733)
    return folder


def answered(store: ProgressStore, *answers: str) -> None:
    for text in answers:
        store.record_attempt("0.1", text, "correct" if text == "1.75" else "incorrect")


def share_of(inbox: Path, store: ProgressStore, said: list[str], quiet: float = 60.0) -> ClassShare:
    assert store.path is not None
    return ClassShare(inbox, store.path.parent, quiet=quiet, said=said.append)


def test_a_burst_still_waiting_is_shared_as_the_session_closes(inbox, store):
    said: list[str] = []
    share = share_of(inbox, store, said)   # a minute's quiet: only closing can share it in this test
    answered(store, "0.875", "9", "1.75")
    for _ in range(3):
        share.attempted()
    share.close()
    [shared] = [path for path in inbox.iterdir()]
    assert [a["answer"] for a in json.loads(shared.read_text())["attempts"]] == ["0.875", "9", "1.75"]
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640 and said == []


def squat(inbox: Path, store: ProgressStore, plant) -> Path:
    """The name the learner's share will use, taken first by `plant(path)`."""
    name = "learner-live-0123456789abcdef0123.json"
    store.set_state(NAME_KEY + str(inbox), name)
    plant(inbox / name)
    return inbox / name


@pytest.mark.skipif(os.geteuid() != 0, reason="a file owned by another account needs root to make")
def test_a_classmates_file_at_the_learners_name_is_left_alone_and_a_new_name_taken(inbox, store):
    def classmates_file(path: Path) -> None:
        path.write_text("mallory's\n")
        os.chown(path, NOBODY, NOBODY)

    squatted = squat(inbox, store, classmates_file)
    said: list[str] = []
    answered(store, "1.75")
    share = share_of(inbox, store, said)
    share.share_now()
    share.close()
    assert squatted.read_text() == "mallory's\n" and squatted.stat().st_uid == NOBODY   # root would have replaced it
    [mine] = [path for path in inbox.iterdir() if path != squatted]
    assert json.loads(mine.read_text())["attempts"][0]["answer"] == "1.75"
    assert store.state(NAME_KEY + str(inbox)) == mine.name
    assert said == [f"Another account's file was in the way of {squatted}: your progress is now shared as {mine}."]


def test_a_link_planted_at_the_learners_name_is_never_written_through(inbox, store, tmp_path):
    target = tmp_path / "elsewhere.json"
    squatted = squat(inbox, store, lambda path: path.symlink_to(target))
    said: list[str] = []
    answered(store, "1.75")
    share = share_of(inbox, store, said)
    share.share_now()
    share.share_now()   # the second write goes to the new name, and says nothing more
    share.close()
    assert not target.exists() and squatted.is_symlink()
    [mine] = [path for path in inbox.iterdir() if path != squatted]
    assert mine.is_file() and not mine.is_symlink() and len(said) == 1 and str(mine) in said[0]


def test_a_kept_name_that_is_not_a_plain_file_name_is_replaced_by_a_new_one(inbox, store, tmp_path):
    store.set_state(NAME_KEY + str(inbox), "../escaped-live-0123456789abcdef0123.json")
    answered(store, "1.75")
    share = share_of(inbox, store, [])
    share.share_now()
    share.close()
    assert not (tmp_path / "escaped-live-0123456789abcdef0123.json").exists()
    [mine] = list(inbox.iterdir())
    assert store.state(NAME_KEY + str(inbox)) == mine.name and mine.name.endswith(".json")


def test_an_inbox_that_is_not_a_folder_is_a_problem_said_once(tmp_path, store):
    inbox = tmp_path / "inbox"
    inbox.write_text("")
    said: list[str] = []
    share = share_of(inbox, store, said)
    assert share.status() == (f"Not shared with your class: the class inbox {inbox} is not a folder; your answers "
                              "are kept here as always.")
    answered(store, "1.75")
    share.share_now()
    share.share_now()
    assert said == []   # the problem was known from the start: the faces say it as they open
    inbox.unlink()
    inbox.mkdir()
    share.share_now()
    assert share.problem == "" and len(list(inbox.iterdir())) == 1
    inbox.chmod(0o500)
    try:
        share.share_now()
    finally:
        inbox.chmod(0o700)
        share.close()
    if os.geteuid() != 0:   # root writes into a read-only folder all the same
        assert said == [f"Not shared with your class: you may not write into the class inbox {inbox}; your "
                        "answers are kept here as always."]


def test_the_class_report_counts_an_attempt_in_the_live_file_and_a_hand_in_once(inbox, store, book, capsys):
    from tests.helpers import ringbook_in_process
    from tui.progress.class_report import build_report

    answered(store, "0.875", "1.75")
    assert store.path is not None
    assert ringbook_in_process(capsys, "--data-dir", store.path.parent, "progress", "submit", inbox)[0] == 0
    answered(store, "9")
    share = share_of(inbox, store, [])
    share.share_now()
    share.close()
    assert len(list(inbox.iterdir())) == 2   # the hand-in (two attempts) and the live file (all three)
    report = build_report(book, [inbox])
    [student] = report.students
    assert report.skipped == [] and len(student.files) == 2
    assert student.attempts == 3 and student.verification.conflicts == 0
    assert not student.verification.needs_attention

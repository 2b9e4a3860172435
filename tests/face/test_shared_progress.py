"""Progress shared with a class as the learner answers (issue 48), driven with Pilot on the real store and a real
inbox folder: the inbox holds one file of the learner's, mode 0640, that the class report reads; more attempts
replace it; an inbox that is missing is one notice, said once, and never a lost attempt; home says it all."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from textual.widgets._toast import Toast

from tests.face.test_learning_loop import answer
from tests.helpers import RINGBOOK, home_ready, open_exercise, settle, text_of, wait_until
from tests.pseudo_terminal import PseudoTerminal, seeded_data_dir
from tui.app import RingbookApp
from tui.progress.class_report import build_report
from tui.progress.class_share import ClassShare
from tui.progress.export_file import read_export

QUIET = 0.05   # the burst's quiet time in these tests: short, as nothing here races it


def class_app(book, store, inbox: Path) -> RingbookApp:
    share = ClassShare(inbox, store.path.parent, quiet=QUIET)
    return RingbookApp(book, store, quiet_host=True, share=share)


def shared_files(inbox: Path) -> list[Path]:
    return sorted(path for path in inbox.iterdir() if path.suffix == ".json")


def attempts_shared(inbox: Path) -> list[str]:
    """The answers of the attempts in the inbox's one file (none while there is no file)."""
    files = shared_files(inbox)
    if not files:
        return []
    assert len(files) == 1, files
    return [attempt["answer"] for attempt in json.loads(files[0].read_text())["attempts"]]


async def test_each_answer_is_shared_in_one_file_of_the_learners_own_that_the_class_report_reads(book, store,
                                                                                                  tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o3733)
    app = class_app(book, store, inbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "0.1")
        await answer(app, pilot, "0.875")
        await wait_until(pilot, lambda: attempts_shared(inbox) == ["0.875"], "the first attempt shared")
        [first] = shared_files(inbox)
        assert stat.S_IMODE(first.stat().st_mode) == 0o640
        assert first.stat().st_uid == os.geteuid()
        await answer(app, pilot, "9")
        await answer(app, pilot, "1.75")
        await wait_until(pilot, lambda: attempts_shared(inbox) == ["0.875", "9", "1.75"], "all three shared")
        assert shared_files(inbox) == [first]   # replaced, under the same name
        assert stat.S_IMODE(first.stat().st_mode) == 0o640
        assert [p.name for p in inbox.iterdir()] == [first.name]   # no temporary file left behind
    assert store.state(f"class_share_file:{inbox}") == first.name   # the name is kept for the next session
    export = read_export(first)
    assert "drafts" not in export.data and export.data["student"]["user"]
    report = build_report(book, [inbox])
    assert report.skipped == []
    [student] = report.students
    assert student.attempts == 3 and student.verification.confirmed == 3
    assert student.mastery.solved == 1


async def test_a_missing_inbox_is_one_notice_and_every_attempt_is_kept(book, store, tmp_path):
    inbox = tmp_path / "no-such-inbox"
    app = class_app(book, store, inbox)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await home_ready(app, pilot)
        sharing = text_of(app.screen.query_one("#sharing"))
        assert "Not shared with your class" in sharing and "does not exist" in sharing
        await open_exercise(app, pilot, "0.1")
        for text in ("0.875", "9", "1.75"):
            await answer(app, pilot, text)
        app.session.close()   # the last burst shared (tried), its thread done
        await settle(app, pilot)
        notices = [text_of(toast) for toast in app.screen.query(Toast)]
    assert len(notices) == 1 and "does not exist" in notices[0], notices
    assert [a.answer for a in store.attempts()] == ["0.875", "9", "1.75"]
    assert not inbox.exists()


async def test_an_inbox_gone_during_the_lesson_is_one_notice_from_the_sharing_thread(book, store, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o3733)
    app = class_app(book, store, inbox)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_exercise(app, pilot, "0.1")
        inbox.rmdir()   # a network file system gone, say
        for text in ("0.875", "9"):
            await answer(app, pilot, text)
        await wait_until(pilot, lambda: app.screen.query(Toast), "the notice from the sharing thread")
        await answer(app, pilot, "1.75")
        app.session.close()
        await settle(app, pilot)
        notices = [text_of(toast) for toast in app.screen.query(Toast)]
    assert len(notices) == 1 and f"the class inbox {inbox} does not exist" in notices[0], notices
    assert [a.answer for a in store.attempts()] == ["0.875", "9", "1.75"]


async def test_home_says_progress_is_shared_with_whom_and_how_to_stop_and_quitting_shares(book, store, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o3733)
    app = class_app(book, store, inbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        line = " ".join(text_of(app.screen.query_one("#sharing")).split())
    [quitting] = shared_files(inbox)   # written as the app closed, with no answer: the learner was there
    assert json.loads(quitting.read_text())["attempts"] == []
    owner = __import__("pwd").getpwuid(os.geteuid()).pw_name
    assert line == (f"⇄ Shared with {owner} as you answer. Stop: unset RINGBOOK_CLASS or drop --class. "
                    f"Inbox: {inbox}.")


def test_plain_ringbook_with_the_class_variable_shares_and_quitting_writes_the_last_answer(tmp_path):
    """The whole path: `ringbook` as sshd's wrapper starts it (no options: its quick start, which read no
    class at first), RINGBOOK_CLASS set, an answer typed and the app quit at once, well inside the quiet time
    after an answer: the inbox has the answer, written as the app closed."""
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o3733)
    data = seeded_data_dir(tmp_path / "data", "0", "0.1")
    terminal = PseudoTerminal(RINGBOOK, env={"RINGBOOK_DATA_DIR": str(data), "RINGBOOK_CLASS": str(inbox)})
    try:
        terminal.wait_for("Shared with")
        terminal.wait_for("palette")
        terminal.type("c")
        terminal.wait_for("a number, e.g.")
        terminal.type("1.75\r")
        terminal.wait_for("✓")
        terminal.type("\x11")   # Ctrl+Q
        assert terminal.wait() == 0
    finally:
        terminal.close()
    assert attempts_shared(inbox) == ["1.75"]

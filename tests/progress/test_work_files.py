"""The work files a build's code is edited in (the app's Ctrl+O, `ringbook work`): always inside the work
folder whatever the exercise id (a book is hostile), never through a link, never over other code unkept."""

from __future__ import annotations

import os

import pytest

from tui.progress.work_files import (
    MAX_BYTES,
    Opened,
    WorkFileError,
    kept_copy,
    open_work_file,
    read_work_file,
    work_file,
    work_folder,
    write_work_file,
)


@pytest.mark.parametrize("hostile", ["../../x", "/etc/passwd", ".bashrc", "a/../../b", "x\\..\\y", "0.5\n.py"])
def test_no_exercise_id_names_a_file_outside_the_work_folder(tmp_path, hostile):
    folder = tmp_path / "data" / "work"
    path = work_file(folder, hostile)
    assert path.parent == folder and not path.name.startswith(".")
    write_work_file(path, "code")
    assert [p for p in (tmp_path / "data").rglob("*") if p.is_file()] == [path]


@pytest.mark.parametrize("nameless", ["", "..", "..."])
def test_an_id_that_gives_no_name_is_refused(tmp_path, nameless):
    with pytest.raises(WorkFileError, match="gives no file name"):
        work_file(tmp_path, nameless)


def test_the_work_folder_is_beside_the_store(tmp_path, monkeypatch):
    assert work_folder(tmp_path / "progress.sqlite3") == tmp_path / "work"
    monkeypatch.setenv("RINGBOOK_DATA_DIR", str(tmp_path / "elsewhere"))
    assert work_folder(None) == tmp_path / "elsewhere" / "work"


def test_other_code_in_the_file_is_kept_beside_it_and_a_link_is_never_followed(tmp_path):
    path = work_file(tmp_path, "0.5")
    assert write_work_file(path, "first") is None
    assert write_work_file(path, "first") is None   # the same text: nothing to keep
    assert write_work_file(path, "second") == kept_copy(path)
    assert kept_copy(path).read_text() == "first" and read_work_file(path) == "second"
    assert write_work_file(path, "third", known={"second"}) is None   # a run's code: the store has it
    target = tmp_path / "elsewhere.txt"
    target.write_text("not the learner's code")
    path.unlink()
    os.symlink(target, path)
    with pytest.raises(WorkFileError, match="not a plain file"):
        write_work_file(path, "third")
    assert target.read_text() == "not the learner's code"


def test_a_file_too_large_not_text_or_gone_is_said_not_read(tmp_path):
    path = work_file(tmp_path, "0.5")
    path.write_bytes(b"x" * (MAX_BYTES + 1))
    with pytest.raises(WorkFileError, match=f"over {MAX_BYTES:,} bytes"):
        read_work_file(path)
    path.write_bytes(b"def f():\n    return '\xff'\n")
    with pytest.raises(WorkFileError, match="not UTF-8"):
        read_work_file(path)
    path.unlink()
    with pytest.raises(WorkFileError, match="is gone"):
        read_work_file(path)


def test_every_displaced_text_is_kept_numbered_and_none_twice(tmp_path):
    """Found (issue 43): a second displaced text replaced the one `.kept` copy, so the first was lost."""
    path = work_file(tmp_path, "0.5")
    for text in ("one", "two", "three", "one"):
        write_work_file(path, text)
    write_work_file(path, "four")
    copies = sorted(tmp_path.glob("0.5.py.kept*"), key=lambda copy: len(copy.name))   # .kept, then .kept.N
    assert [copy.name for copy in copies] == ["0.5.py.kept", "0.5.py.kept.2", "0.5.py.kept.3"]
    assert [copy.read_text() for copy in copies] == ["one", "two", "three"]   # the second "one": kept already
    assert read_work_file(path) == "four"


def test_a_file_edited_outside_a_run_is_taken_and_the_code_it_displaces_is_kept(tmp_path):
    path = work_file(tmp_path, "0.5")
    assert open_work_file(path, "starter", known={"starter"}) == Opened("starter", taken=False, kept=None)
    path.write_text("edited outside")
    assert open_work_file(path, "unrun draft", known={"starter"}) == Opened("edited outside", taken=True,
                                                                             kept=kept_copy(path))
    assert kept_copy(path).read_text() == "unrun draft" and read_work_file(path) == "edited outside"
    # A file holding code the store has (a run's) is older than the draft: the draft is written over it.
    assert open_work_file(path, "newer draft", known={"edited outside"}) == Opened("newer draft", taken=False,
                                                                                   kept=None)
    assert read_work_file(path) == "newer draft"

"""What the plain-line face does with input it cannot take (issue 42): bytes that are not UTF-8 on standard
input, an editor that writes far too much, removes its file or cannot be read as a command. Each is said in a
line, the session goes on, and nothing typed before is lost. `ringbook` itself runs over real pipes."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.helpers import RINGBOOK, ROOT
from tests.lines.test_session import BUILD
from tui.progress.work_files import MAX_BYTES

TO_THE_BUILD = ["2", "0", "5"]   # chapters, chapter 0, exercise 0.5 (a build)
# Python reads stdin strictly under PYTHONIOENCODING (or a locale such as en_US.UTF-8), with surrogates under C
ENCODINGS = [{"PYTHONIOENCODING": "utf-8"}, {"LC_ALL": "C"}]


def session(replies: list[bytes], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`ringbook` over pipes with `replies` (raw bytes, one a line) as its input; what it printed, as text."""
    done = subprocess.run([*RINGBOOK], input=b"".join(reply + b"\n" for reply in replies), capture_output=True,
                          cwd=ROOT, env={**os.environ, **(env or {})}, timeout=300, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def lines(*texts: str) -> list[bytes]:
    return [text.encode() for text in texts]


def editor(folder: Path, body: str) -> str:
    path = folder / "editor"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.parametrize("encoding", ENCODINGS, ids=["strict", "surrogates"])
def test_bytes_that_are_not_utf8_at_a_prompt_are_said_and_asked_again(encoding, store):
    """Found: a UnicodeDecodeError traceback (strict)."""
    done = session([b"\xff\xfe", *lines("6", "quit")], env=encoding)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "sorry: that line is not UTF-8 text (byte 1); type it again" in done.stdout
    assert "progress and streak" in done.stdout.split("sorry: ")[1]   # asked again; 7 was then taken


@pytest.mark.parametrize("encoding", ENCODINGS, ids=["strict", "surrogates"])
def test_a_line_of_code_that_is_not_utf8_is_asked_again_and_the_lines_before_are_kept(encoding, book, store):
    """Found: a UnicodeEncodeError traceback from saving the draft (surrogates), a UnicodeDecodeError one
    (strict)."""
    first, *rest = BUILD.splitlines()
    done = session([*lines(*TO_THE_BUILD, first), b"    x = '\xff'", *lines(*rest, ".", "quit")],
                   env=encoding)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "sorry: line 2 is not UTF-8 text (byte 10); type it again" in done.stdout
    assert "verdict: correct" in done.stdout
    [attempt] = store.attempts("0.5")
    assert attempt.status == "correct" and attempt.answer == BUILD


def test_an_editor_that_writes_too_much_is_not_taken(book, store, tmp_path):
    """Found: a 100 MB file was read whole and kept as a 100 M-character draft."""
    store.save_draft("0.5", "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    return 1.0\n")
    flood = editor(tmp_path, f'head -c {MAX_BYTES * 4} /dev/zero | tr "\\000" x > "$1"')
    done = session(lines(*TO_THE_BUILD, "edit", "quit"), env={"VISUAL": flood})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert f"is over {MAX_BYTES:,} bytes" in done.stdout and "your code is as it was" in done.stdout
    assert store.draft("0.5").endswith("return 1.0\n") and store.attempts("0.5") == []


def test_an_editor_that_removes_its_file_is_said(book, store, tmp_path):
    """Found: "could not start", for an editor that started and deleted the file."""
    done = session(lines(*TO_THE_BUILD, "edit", "quit"), env={"VISUAL": editor(tmp_path, 'rm "$1"')})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith("editor: ")]
    assert any("is gone (deleted or renamed)" in line and "your code is as it was" in line
               for line in said), said
    assert not any("could not start" in line for line in said)


def test_an_editor_variable_with_unbalanced_quotes_is_said(book, store):
    """Found: "none is set", for EDITOR='vi "'."""
    done = session(lines(*TO_THE_BUILD, "edit", "quit"), env={"VISUAL": "", "EDITOR": 'vi "'})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "editor: $EDITOR ('vi \"') cannot be read as a command: its quotes are unbalanced" in done.stdout
    assert "none is set" not in done.stdout

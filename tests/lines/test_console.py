"""The plain-line console and the build's editor: paging by lines or by a terminal's rows, help and quit at
every prompt, and code written in $VISUAL/$EDITOR or typed when neither is set."""

from __future__ import annotations

import io
import os
import shlex
import sys

import pytest

from tests.expected import ch0
from tui.lines.console import Console, Quit
from tui.lines.context import Context
from tui.lines.exercise import work_on
from tui.progress.clock import now
from tui.progress.session import StudySession


def console(replies: str, **options) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(io.StringIO(replies), out, echo=True, **options), out


def test_paging_by_lines_and_by_a_terminals_rows():
    lines = [f"  line {n}" for n in range(1, 8)]
    reader, out = console("\nq\n", page_lines=3)
    reader.page(lines)
    shown = out.getvalue().splitlines()
    assert shown == ["  line 1", "  line 2", "  line 3", "more (Enter, a for all, q to stop): ",
                     "  line 4", "  line 5", "  line 6", "more (Enter, a for all, q to stop): q",
                     "stopped: the rest is not read"]
    reader, out = console("\n", page_lines=4, width=10)   # a 10-column terminal: each line takes two rows
    reader.page(["  " + "x" * 15] * 3)
    assert out.getvalue().count("more (") == 1 and out.getvalue().count("x" * 15) == 3
    reader, out = console("a\n", page_lines=2)
    reader.page(lines)
    assert out.getvalue().count("more (") == 1 and "  line 7" in out.getvalue()


def test_help_and_quit_at_any_prompt_and_the_end_of_input():
    reader, out = console("help\n3\n")
    assert reader.choose("choose", ["one", "two", "three"], "Pick one.") == 2
    assert "help: Pick one. This prompt takes 1 to 3, b back." in out.getvalue()
    reader, _ = console("quit\n")
    with pytest.raises(Quit):
        reader.ask("answer 0.1", "", "Type it.")
    reader, _ = console("")
    with pytest.raises(Quit):
        reader.ask("answer 0.1", "", "Type it.")


def test_a_build_written_in_the_editor_or_typed_when_none_is_set(book, store, monkeypatch, tmp_path):
    """`edit` opens $VISUAL or $EDITOR on a file holding the starter code; what it saves is run. With neither
    set and no editor on PATH, ringbook says how to set one and the code is typed instead."""
    body = "    return 2 * (n - 1) * (latency_us / 1000 + m_gb / n / bw_gbs * 1000)"
    editor = (f"{shlex.quote(sys.executable)} -c \"import sys, pathlib; p = pathlib.Path(sys.argv[1]); "
              f"p.write_text(p.read_text().replace('    raise NotImplementedError', {body!r}))\"")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", editor)
    reader, out = console("edit\nback\n")
    assert work_on(Context(StudySession(book, store, now), reader), book.exercise("0.5")) == "back"
    assert "editor: read 8 lines" in out.getvalue() and "verdict: correct. All 5 tests pass." in out.getvalue()
    assert store.attempts()[-1].answer.startswith("def ring_allreduce_time(m_gb: float")

    monkeypatch.delenv("EDITOR")
    monkeypatch.setenv("PATH", str(tmp_path / "no-editors-here"))   # none of editor, nano, vi either
    code = f"def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n{body}\n"
    reader, out = console(f"edit\n{code}.\nback\n")
    work_on(Context(StudySession(book, store, now), reader), book.exercise("0.5"))
    assert "editor: No editor: neither $VISUAL nor $EDITOR is set, and none of editor, nano, vi" in out.getvalue()
    assert "type the code here, ended by a line holding only a dot" in out.getvalue()
    assert out.getvalue().count("exercise 0.5: ") == 1   # the prompt comes back, not the whole exercise
    assert [a.status for a in store.attempts()] == ["correct", "correct"]
    assert ch0.BUILDS["0.5"](2, 8, 50, 5) == pytest.approx(70.07)   # the figure the tests' second case checks


def test_edit_with_neither_variable_set_opens_an_editor_on_the_path_as_the_app_does(book, store, monkeypatch,
                                                                                    tmp_path):
    """Issue 46: `edit` said "none is set" where the app's Ctrl+O falls back to `editor`, `nano` or `vi` on
    PATH; both faces now choose by one rule (tui.progress.editor.editor_command)."""
    solution = tmp_path / "solution.py"
    solution.write_text(book.exercise("0.5").solution)
    folder = tmp_path / "bin"
    folder.mkdir()
    found = folder / "editor"   # the first fallback, found first on PATH
    found.write_text(f'#!/bin/sh\ncp "{solution}" "$1"\n')
    found.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    reader, out = console("edit\nback\n")
    work_on(Context(StudySession(book, store, now), reader), book.exercise("0.5"))
    assert "editor: opening editor (found on PATH, as neither $VISUAL nor $EDITOR is set)" in out.getvalue()
    assert [(a.status, a.answer) for a in store.attempts()] == [("correct", book.exercise("0.5").solution)]


def test_new_numbers_practice_early_and_continue(book, store):
    """Once solved, `numbers` poses new numbers, kept as practice; with nothing due, review offers the cards that
    come due soonest as practice; continue opens the exercise last opened, in either face."""
    from tests.lines.transcript import assert_plain, session

    transcript, prompts = session(book, store, ["2", "0", "1", str(ch0.NUMERIC["0.1"]), "numbers", "0", "back",
                                                "b", "b", "3", "y", "0", "next", "1", "back", "quit"])
    assert_plain(transcript, prompts)
    assert "numbers: new numbers to practise on; kept with your attempts, your review schedule stays" in transcript
    assert "review: nothing is due now; the next is due " in transcript
    assert "practice 1 of 1: exercise 0.1" in transcript and "practice done: 1 of 1 practised" in transcript
    assert "continue: chapter 0, exercise 0.1" in transcript
    practice = [a for a in store.attempts() if a.purpose == "practice"]
    assert len(practice) == 2 and len({a.seed for a in practice}) == 2 and all(a.seed for a in practice)
    assert transcript.count("exercise 0.1: Traffic per GPU on a ring.") == 4


def test_markdown_becomes_labelled_words():
    from tui.lines.reader import plain_lines

    lines = plain_lines("## Head *it*\n\nSome **bold** and `code`, a [link](https://x.org).\n\n1. one\n2. two\n"
                        "   - inner\n\n> Key **insight**.\n\n```python\nx = 1\n```\n\n| N | t |\n|---|---|\n| 8 | 2 |\n"
                        "\n![a ring](ring.png)\n\n#### Small\n")
    assert lines == [
        "heading: Head it", "", "  Some bold and code, a link (link: https://x.org).", "  1. one", "  2. two",
        "    - inner", "", "  quote: Key insight.", "", "code (python, 1 line):", "    x = 1", "end of code:", "",
        "table (1 row, columns: N, t):", "  row 1: N: 8; t: 2", "end of table:", "", "  image: a ring", "",
        "subheading: Small"]


def test_the_whole_lab_both_acts_a_saved_design_restored(book, store):
    """Act I and Act II in lines: predictions, controls by typed values, a design saved, changed, and restored
    from the list of saved designs; the store holds the design as the app's lab screen reads it."""
    from grader.lab.design import kept_design, lab_state_key
    from grader.lab.load import load_lab
    from tests.lines.transcript import assert_plain, session

    lab = load_lab(book.labs[0].path, book.root)
    transcript, prompts = session(book, store, ["5", "2", "set model 13B", "next", "1", "set tp 4", "save", "set tp 8",
                                                "designs", "1", "set m 99", "reflect", "1", "back", "quit"])
    assert_plain(transcript, prompts)
    assert "act 2: " in transcript and "control tp: set to 4" in transcript and "saved: TP 4 x PP 4" in transcript
    assert "restored: TP 4 x PP 4" in transcript and "sorry: m takes 1, 2, 4, 8" in transcript
    [entry] = store.entries("lab")
    assert entry.payload["three-d"]["config"]["tp"] == 4
    kept = kept_design(store.state(lab_state_key(lab.id)), lab)
    assert kept.three_d.tp == 4 and kept.data_parallel.model.name == "13B"
    assert set(kept.answers) == {("data-parallel", "prediction"), ("three-d", "prediction"), ("three-d", "reflection")}


def test_a_chapter_read_from_one_of_its_headings(book, store):
    from tests.lines.transcript import assert_plain, session

    transcript, prompts = session(book, store, ["2", "0", "h", "3", "a", "quit"])
    assert_plain(transcript, prompts)
    assert "1: The problem: every GPU needs the same sum" in transcript
    read = transcript.split("chapter text: chapter 0, Ring AllReduce\n")[1]
    assert read.startswith("heading: Ring AllReduce in two phases\n") and "end of chapter text: " in read
    assert "The obvious way" not in read


def test_a_wrong_order_typed_is_listed_again_as_the_numbers_now_stand(book, store):
    """Typing an order renumbers the items: after a wrong one they are listed again, numbered as sent, so the
    next order is typed from numbers the learner has seen (typed from the first listing, it sent other items)."""
    from tests.lines.transcript import positions_of

    design = book.exercise("0.8")
    wrong = list(reversed(ch0.ORDERS["0.8"]))
    reader, out = console(f"{positions_of(design, wrong)}\n"
                          f"{' '.join(str(wrong.index(item) + 1) for item in ch0.ORDERS['0.8'])}\nback\n")
    work_on(Context(StudySession(book, store, now), reader), design)
    after_wrong = out.getvalue().split("verdict: incorrect", 1)[1]
    texts = {item.id: item.text for item in design.items}
    assert "items: numbered as you sent them" in after_wrong
    for number, item in enumerate(wrong, 1):
        assert f"{number}: {texts[item][:40]}" in after_wrong
    assert [a.status for a in store.attempts()] == ["incorrect", "correct"]

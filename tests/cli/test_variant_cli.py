"""`ringbook check --seed`, the batch's "seed", and `ringbook content show`: a variant is graded and shown
with its own numbers, and a bad seed is a sentence, never a traceback. The command runs in this process (the
`ringbook` fixture), but in a pseudo-terminal where what a terminal gets is the point."""

from __future__ import annotations

import json
import subprocess

import pytest

from grader.book.variants import format_number, variant
from tests.helpers import RINGBOOK


def test_check_grades_against_the_variant_of_the_seed(book, ringbook):
    posed = variant(book.exercise("0.1"), 5)
    right = format_number(posed.value, "3")
    assert ringbook("check", "0.1", right, "--seed", "5").returncode == 0
    wrong = ringbook("check", "0.1", "1.75", "--seed", "5")
    assert wrong.returncode == 1 and wrong.stdout.startswith("incorrect:")
    assert ringbook("check", "0.1", "1.75", "--seed", "0").returncode == 0
    assert ringbook("check", "0.1", "1.75").returncode == 0


def test_check_json_carries_the_seed_and_the_variant_s_mistake_feedback(book, ringbook):
    posed = variant(book.exercise("0.1"), 9)
    one_phase = format_number(posed.value / 2, "4")
    verdict = json.loads(ringbook("check", "0.1", one_phase, "--seed", "9", "--json").stdout)
    assert verdict["seed"] == 9 and verdict["status"] == "incorrect"
    assert "one phase only" in verdict["feedback"]


@pytest.mark.parametrize("seed", ["-1", "x", "1.5", str(2**64)])
def test_a_bad_seed_is_one_sentence(seed, ringbook):
    result = ringbook("check", "0.1", "1.75", "--seed", seed)
    assert result.returncode == 2
    assert "A seed is a whole number" in result.stderr and "Traceback" not in result.stderr


def test_a_choice_s_right_option_is_right_with_every_seed(ringbook):
    assert ringbook("check", "0.4", "ring", "--seed", "12").returncode == 0   # its constraints keep it so


def test_content_show_lists_a_choice_s_options_with_the_variant_s_numbers(book, ringbook):
    posed = variant(book.exercise("12.3"), 4)
    shown = ringbook("content", "show", "12.3", "--seed", "4").stdout
    letters = [line[:1] for line in shown.splitlines() if line[1:3] == "  "]
    assert letters == ["A", "B", "C", "D"]
    assert all(option.text in shown for option in posed.options) and "(right)" not in shown
    explained = ringbook("content", "show", "12.3", "--seed", "4", "--explain").stdout
    assert f"{posed.correct_option.text} (right)" in explained and posed.correct_option.feedback in explained


def test_batch_lines_grade_against_their_seed(book, ringbook):
    posed = variant(book.exercise("0.1"), 3)
    lines = [{"id": "0.1", "answer": format_number(posed.value, "3"), "seed": 3},
             {"id": "0.1", "answer": "1.75", "seed": 3},
             {"id": "0.1", "answer": "1.75"},
             {"id": "0.1", "answer": "1.75", "seed": -4},
             {"id": "0.1", "answer": "1.75", "seed": True}]
    result = ringbook("check", "--batch", "-", stdin="\n".join(map(json.dumps, lines)))
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["correct", "incorrect", "correct", "invalid", "invalid"]
    assert rows[0]["seed"] == 3 and "seed" not in rows[2]
    assert "A seed is a whole number" in rows[3]["message"]


def test_content_show_prints_the_canonical_prompt_by_default(book, ringbook):
    result = ringbook("content", "show", "0.1")
    assert result.returncode == 0
    assert book.exercise("0.1").prompt.strip() in result.stdout
    assert "**M = 1 GB**" in result.stdout and "{{" not in result.stdout


def test_content_show_with_a_seed_and_explain_prints_the_variant_worked_through(book, ringbook):
    posed = variant(book.exercise("0.1"), 5)
    result = ringbook("content", "show", "0.1", "--seed", "5", "--explain")
    assert result.returncode == 0
    assert posed.prompt.strip() in result.stdout and posed.explanation.strip() in result.stdout
    assert f"Answer: {format_number(posed.value)} GB" in result.stdout
    assert "**M = 1 GB**" not in result.stdout


def test_content_show_an_unknown_id_exits_3(ringbook):
    result = ringbook("content", "show", "42.9")
    assert result.returncode == 3 and "no exercise '42.9'" in result.stderr


def test_an_unsatisfiable_variant_in_an_unchecked_book_is_a_message(chapters_copy, ringbook):
    book_copy = chapters_copy("00-ring-allreduce")
    path = book_copy / "00-ring-allreduce/exercises.yaml"
    text = path.read_text()
    path.write_text(text.replace("      N: {choices: [4, 8, 16, 32, 64]}\n",
                                 "      N: {choices: [4, 8, 16, 32, 64]}\n"
                                 "    constraints: [\"M == 1\", \"N == 8\"]\n", 1))
    result = ringbook("check", "--content", str(book_copy), "0.1", "1.75", "--seed", "2")
    assert result.returncode == 2
    assert "cannot be posed with seed 2" in result.stderr and "Traceback" not in result.stderr


def in_a_terminal(*args: str, columns: int = 80) -> str:
    """What `ringbook ARGS` writes to a terminal (a pseudo-terminal `columns` wide), as text."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    main_end, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    child = subprocess.Popen([*RINGBOOK, *args], stdin=subprocess.DEVNULL, stdout=terminal,
                             stderr=subprocess.PIPE, env={**env, "TERM": "xterm-256color"})
    assert child.stderr is not None  # stderr=PIPE
    os.close(terminal)
    chunks = []
    while True:
        try:
            chunk = os.read(main_end, 65536)
        except OSError:   # EIO: the child has closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main_end)
    assert child.wait(timeout=60) == 0, child.stderr.read()
    child.stderr.close()
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def without_styles(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_content_show_lays_markdown_out_in_a_terminal_and_prints_it_as_written_to_a_pipe(book, ringbook):
    """Issue 23: `content show` printed `**N = 8**` to a terminal. A terminal gets the Markdown laid out
    (bold drawn, markers gone, lines within the app's reading width); a pipe gets the source, and so
    does --raw."""
    source = book.exercise("0.3").prompt
    assert "**N = 8**" in source
    shown = in_a_terminal("content", "show", "0.3", columns=120)
    assert "\x1b[1mN = 8\x1b[0m" in shown
    text = without_styles(shown)
    assert "**" not in text and "N = 8" in text
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 86
    assert "**N = 8**" in ringbook("content", "show", "0.3").stdout
    raw = without_styles(in_a_terminal("content", "show", "0.3", "--raw"))
    assert "**N = 8**" in raw and "\x1b[1m" not in in_a_terminal("content", "show", "0.3", "--raw")


def test_content_show_in_a_terminal_shows_a_book_s_markup_and_links_as_text(chapters_copy):
    """Rich lays out the book's Markdown but never reads its text as Rich markup or emoji codes, and a
    link prints as text, not as a terminal hyperlink (OSC 8). (Control characters cannot get this far:
    a book holding one does not load.)"""
    book_copy = chapters_copy("00-ring-allreduce")
    exercises = book_copy / "00-ring-allreduce" / "exercises.yaml"
    text = exercises.read_text()
    start = text.index("    prompt: |", text.index('id: "0.3"'))
    line_end = text.index("\n", start)
    hostile = "      [@click=app.quit]Click[/] [bold]big[/bold] :smile: [a link](https://example.com/x)\n"
    exercises.write_text(text[:line_end + 1] + hostile + text[line_end + 1:])
    shown = in_a_terminal("content", "show", "0.3", "--content", str(book_copy))
    assert "\x1b]" not in shown                                    # no hyperlink, no window title
    text = without_styles(shown)
    assert "[@click=app.quit]Click[/] [bold]big[/bold] :smile:" in text
    assert "a link" in text and "**N = 8**" not in text


def test_a_seed_for_an_exercise_with_one_form_is_noted(book, ringbook):
    """Issue 23: `--seed` on an exercise that cannot vary was silently ignored. It still shows (exit 0),
    with a note on stderr; an exercise that varies, or seed 0, gets no note."""
    from grader.book.variants import varies

    one_form = [e.id for e in book.exercises if not varies(e)]
    assert {"0.5", "0.6"} <= set(one_form)          # a build and a debug
    shown = ringbook("content", "show", "0.5", "--seed", "7")
    assert shown.returncode == 0 and shown.stdout.startswith("0.5 · ")
    assert shown.stderr == ("ringbook: note: exercise 0.5 (build) has one form, with no numbers that vary and "
                            "nothing to shuffle, so --seed 7 changes nothing.\n")
    graded = ringbook("check", "0.6", "3", "--seed", "7")
    assert "ringbook check: note: exercise 0.6 (debug) has one form" in graded.stderr
    assert graded.returncode in (0, 1)
    assert ringbook("content", "show", "0.5", "--seed", "0").stderr == ""
    assert ringbook("content", "show", "0.1", "--seed", "7").stderr == ""
    assert ringbook("content", "show", "0.4", "--seed", "7").stderr == ""   # a choice: its options are dealt

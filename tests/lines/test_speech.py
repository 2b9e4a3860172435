"""Speech (`--speech`, RINGBOOK_SPEECH=1, the main menu's entry): the plain lines said in words a synthesizer
reads right. Formulas from the grader's own parse, units from pint's names, timelines slot by slot; golden
words for each, a session under speech and without it, and what espeak-ng makes of the real output."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest

from grader.maths.spoken import spoken_formula, spoken_unit
from tests.helpers import ringbook_subprocess
from tests.lines.transcript import assert_plain, session
from tui.lines.console import Console
from tui.lines.mode import SPEECH_KEY, speech_wanted
from tui.lines.reader import plain_lines
from tui.lines.speech import Speech, spoken_line


@pytest.mark.parametrize(("formula", "words"), [
    ("2M(N-1)/N", "2 M times, N minus 1, over N"),
    ("2*M*(N-1)/N", "2 M times, N minus 1, over N"),   # the same tree, so the same words
    ("M (N - 2) / N", "M times, N minus 2, over N"),
    ("(p - 1) / (m + p - 1)", "p minus 1, over, m plus p minus 1"),
    ("10^9", "10 to the 9"),
    ("10^-5", "10 to the minus 5"),
    ("2^(n-1)", "2 to the, n minus 1"),
    ("x^2", "x squared"),
    ("-5", "minus 5"),
    ("-2^2", "minus 2 squared"),
    ("a*-b", "a times minus b"),
    ("-(a+b)", "minus, a plus b"),
    ("a-(b-c)", "a minus, b minus c"),
    ("a-b-c", "a minus b minus c"),
    ("a/(b*c)", "a over, b times c"),
    ("1/(2x)", "1 over, 2 x"),
    ("sqrt(2·C·F)", "the square root of, 2 C times F"),
    ("eta*sqrt(B2/B1)", "eta times the square root of, B2 over B1"),
    ("6.02e23", "6.02 times 10 to the 23"),
    ("1.5e-3", "1.5 times 10 to the minus 3"),
    ("2.4×10^-3", "2.4 times 10 to the minus 3"),
    ("6.1 x 10^-5", "6.1 times 10 to the minus 5"),
    ("min(450, 8 x 50)", "the minimum of 450 and 8 times 50"),
    ("log2(N)", "log base 2 of N"),
    ("ceil(x/2)", "the ceiling of, x over 2"),
    ("pi r^2", "pi times r squared"),
    ("mod(i + 1, N)", "the remainder on division of i plus 1 and N"),
])
def test_a_formula_in_words(formula, words):
    assert spoken_formula(formula) == words


@pytest.mark.parametrize(("unit", "words", "one"), [
    ("GB/s", "gigabytes per second", "gigabyte per second"),
    ("Gb/s", "gigabits per second", "gigabit per second"),
    ("TB/s", "terabytes per second", "terabyte per second"),
    ("μs", "microseconds", "microsecond"),
    ("ms", "milliseconds", "millisecond"),
    ("s", "seconds", "second"),
    ("min", "minutes", "minute"),
    ("GB", "gigabytes", "gigabyte"),
    ("KB", "kilobytes", "kilobyte"),
    ("MiB", "mebibytes", "mebibyte"),
    ("B", "bytes", "byte"),
    ("%", "percent", "percent"),
    ("TFLOP/s", "teraflops per second", "teraflop per second"),
    ("PFLOP", "petaflops", "petaflop"),
    ("GPUs", None, None),   # a counting word: said as written
    ("M", None, None),      # molar to pint, a letter in this book
    ("K/V", None, None),    # kelvins per volt to pint
])
def test_a_unit_in_words_from_pints_names(unit, words, one):
    assert spoken_unit(unit) == words
    assert spoken_unit(unit, one=True) == one


@pytest.mark.parametrize(("line", "said"), [
    ("  The GPUs do useful work only 1/p = 25% of the time.",
     "  The GPUs do useful work only 1 over p equals 25 percent of the time."),
    ("    per GPU, total sent = 2M(N-1)/N (and the same received)",
     "    per GPU, total sent equals 2 M times, N minus 1, over N (and the same received)"),
    ("  2 x 16 x 7/8 / 450 s = 62.2 ms on the eight GPUs of one node, and",
     "  2 times 16 times 7 over 8 over 450 seconds equals 62.2 milliseconds on the eight GPUs of one node, and"),
    ("  a 1 MB tensor on 64 GPUs at 100 GB/s needs about 19.7 μs of transfer time",
     "  a 1 megabyte tensor on 64 GPUs at 100 gigabytes per second needs about 19.7 microseconds of transfer time"),
    ("    GB/s          = Gb/s / 8", "    gigabytes per second equals gigabits per second over 8"),
    ("  Take g = 8, H = 64, p = 2 and F = 400 TFLOP/s.",
     "  Take g equals 8, H equals 64, p equals 2 and F equals 400 teraflops per second."),
    ("  x = -5", "  x equals minus 5"),
    ("  1 GB = 10^9 bytes.", "  1 gigabyte equals 10 to the 9 bytes."),
    ("  - Multiply 16 bytes by 70 × 10^9 parameters.", "  - Multiply 16 bytes by 70 times 10 to the 9 parameters."),
    ("    hidden if  s/c >= g p F / (2 H W)", "    hidden if s over c is at least g times p times F over, 2 H times W"),
    ("  E5M2:  (2 - 2^-2)  × 2^15  = 57,344", "  E5M2: 2 minus 2 to the minus 2, times 2 to the 15 equals 57,344"),
    ("  learning rate is peak · ½", "  learning rate is peak times ½"),
    ("  6 = 2 FLOPs per parameter per token forward + 4 backward.",
     "  6 equals 2 flops per parameter per token forward plus 4 backward."),
    ("  Set eta_new / sqrt(B2) = eta / sqrt(B1)",
     "  Set eta new over the square root of B2 equals eta over the square root of B1"),
    ("verdict: correct. Correct: 29.31 GB.", "verdict: correct. Correct: 29.31 gigabytes."),
    ("    T_tree = 2 log2(N) × (α + M/B)", "    T_tree equals 2 times log base 2 of N times, alpha plus M over B"),
    ("  -C/T^2 + 1/(2F) = 0   =>   T* = sqrt(2 C F)",
     "  minus C over T squared plus 1 over, 2 F equals 0 so T star equals the square root of, 2 C times F"),
    ("  noise proportional to η/√B, and √(2CF)",
     "  noise proportional to eta over the square root of B, and the square root of, 2 CF"),
    ("  HBM keeps 4 B/param (p bytes/element), 20 GB/GPU; K/V and/or s/c",
     "  HBM keeps 4 bytes per param (p bytes per element), 20 gigabytes per GPU; K over V and/or s over c"),
    ("  row 2: Precision: FP16/BF16; an H100/A100 mix; B2/B1",
     "  row 2: Precision: FP16/BF16; an H100/A100 mix; B2 over B1"),
    ("act 1: Act I · The data-parallel wall", "act 1: Act I, The data-parallel wall"),
    ("  PCIe Gen5 is 32 GT/s on 16 lanes; λ = 0.5",
     "  PCIe Gen5 is 32 GT per second on 16 lanes; lambda equals 0.5"),
    # prose that only looks like maths stays as written
    ("  GPU 0 holds layers 1-10 and 41-50, an NDR port (ConnectX-7 card)",
     "  GPU 0 holds layers 1 to 10 and 41 to 50, an NDR port (ConnectX-7 card)"),
    ("  Pick GPU 0 as the coordinator; a 70B model, 1F1B, all-reduce, 10 s b h",
     "  Pick GPU 0 as the coordinator; a 70B model, 1F1B, all-reduce, 10 s b h"),
    ("review: nothing is due now; due 2026-12-01.", "review: nothing is due now; due 2026-12-01."),
    ("choose (1 to 8, b back): ", "choose (1 to 8, b back): "),
])
def test_book_passages_in_words(line, said):
    assert spoken_line(line) == said


def test_a_pipeline_timeline_is_said_slot_by_slot_and_program_code_as_written():
    book = ("Stage 0's timeline:\n\n```text\nF1 F2 F3 | F4 . . . | B1 F5 | . B6 | step\n```\n\n"
            "```python\nreturn 2 * (n - 1) / n\n```\n\n```text\nT = 2M(N-1)/N\n```\n")
    speech = Speech()
    assert [speech.line(line) for line in plain_lines(book)] == [
        "  Stage 0's timeline:", "",
        "code (text, 1 line):",
        "    timeline: forward 1, forward 2, forward 3, bar, forward 4, idle, idle, idle, bar, backward 1, "
        "forward 5, bar, idle, backward 6, bar, step",
        "end of code:", "",
        "code (python, 1 line):", "    return 2 * (n - 1) / n", "end of code:", "",
        "code (text, 1 line):", "    T equals 2 M times, N minus 1, over N", "end of code:"]


def test_listings_read_as_written_columns_as_pauses_and_a_text_stopped_in_a_block_closes_it():
    """A debug listing's and a build's lines are program code; a text block's column gap is a pause; stopping
    at `more` inside a python block leaves the lines after it said in words."""
    speech = Speech()
    for code in ("line 3: return 2 * (n - 1) / n", "the fix, line 6: x = -x", "function: def f(m_gb: float)"):
        assert speech.line(code) == code
    assert [speech.line(line) for line in plain_lines("```text\nFP32 master weights   4\n```")][1] == \
        "    FP32 master weights, 4"

    said = io.StringIO()
    console = Console(io.StringIO("q\n"), said, echo=True, page_lines=2, speech=True)
    console.book("```python\ny = -x\nz = 2 ** x\nw = x // 2\n```")
    console.say("feedback", "x = -5")
    assert said.getvalue().splitlines()[-3:] == [
        "more (Enter, a for all, q to stop): q", "stopped: the rest is not read", "feedback: x equals minus 5"]
    assert "    y = -x" in said.getvalue()


@pytest.mark.parametrize(("flag", "environ", "setting", "wanted"), [
    (False, {}, "", False),
    (True, {}, "", True),
    (False, {"RINGBOOK_SPEECH": "1"}, "", True),
    (False, {"RINGBOOK_SPEECH": "0"}, "", False),
    (False, {}, "on", True),
    (False, {}, "off", False),
])
def test_speech_is_asked_for_never_the_default(flag, environ, setting, wanted):
    assert speech_wanted(flag=flag, environ=environ, setting=setting) is wanted


def test_the_menu_turns_speech_on_at_once_and_keeps_it(book, store):
    """Off by default (a braille display keeps `2M(N-1)/N`); the menu's entry turns it on for the lines that
    follow and saves it; the next start reads it; the entry turns it off again."""
    from tests.expected import ch0

    transcript, prompts = session(book, store, ["8", "2", "0", "1", ch0.NUMERIC["0.1"], "back", "b", "b", "quit"])
    assert_plain(transcript, prompts)
    assert "8: speech, formulas and units said in words: off" in transcript
    assert "setting: speech is on: formulas, units, symbols and timelines are said in words" in transcript
    assert "verdict: correct: 1.75 gigabytes." in transcript
    assert store.state(SPEECH_KEY) == "on"
    assert speech_wanted(flag=False, environ={}, setting=store.state(SPEECH_KEY))

    transcript, _ = session(book, store, ["8", "quit"], speech=True)
    assert "8: speech, formulas and units said in words: on" in transcript
    assert store.state(SPEECH_KEY) == "off"
    transcript, _ = session(book, store, ["2", "0", "1", ch0.NUMERIC["0.1"], "back", "b", "b", "quit"])
    assert "verdict: correct: 1.75 GB." in transcript


def spoken_session(tmp_path, *args: str, env: dict[str, str] | None = None) -> str:
    """Chapter 0's text and exercise 0.1 answered, over a pipe, as `ringbook ARGS` prints them."""
    from tests.expected import ch0

    done = ringbook_subprocess("--data-dir", tmp_path / "data", *args, env=env,
                               stdin=f"2\n0\nt\na\n1\n{ch0.NUMERIC['0.1']}\nback\nb\nb\nquit\n")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_speech_from_the_command(tmp_path, how):
    said = spoken_session(tmp_path, *(["--speech"] if how == "flag" else []),
                          env={"TERM": "dumb", **({"RINGBOOK_SPEECH": "1"} if how == "environment" else {})})
    assert_plain(said)
    assert "verdict: correct: 1.75 gigabytes." in said
    assert "    per GPU, total sent equals 2 M times, N minus 1, over N, (and the same received)" in said
    assert "2M(N-1)/N" not in said and "GB/s" not in said


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_ng_pronounces_minus_powers_and_units(tmp_path):
    """The real output of a session under --speech, through espeak-ng's phonemes (-x): the minus sign, a power
    and the units are heard as words; the same lines without speech lose them."""
    said = spoken_session(tmp_path, "--speech", env={"TERM": "dumb"})
    plain = spoken_session(tmp_path, env={"TERM": "dumb"})

    def phonemes(text: str) -> str:
        return subprocess.run(["espeak-ng", "-q", "-x", "--stdin"], input=text, capture_output=True, text=True,
                              check=True, timeout=120).stdout

    heard, heard_plain = phonemes(said), phonemes(plain)
    for word in ("m'aIn@s", "t@ D@ n'aIn", "g'Ig@b,aIts p3: s'Ek@nd", "m'aIkroUs,Ek@ndz", "m'IlIs,Ek@ndz"):
        assert word in heard, word      # minus; to the 9; gigabytes per second; microseconds; milliseconds
        assert word not in heard_plain, word

"""ringbook in real terminals: tmux at 80x24 with the TERM values a classroom meets, with NO_COLOR, and
with no mouse. Each run reads the home screen, opens a chapter, goes back and quits with exit status 0,
and checks the colours the app drew are the ones that terminal can show.

tmux with no client attached never sends mouse events, so every case here is driven by the keyboard
alone; the no-mouse case also switches tmux's mouse off and answers an exercise.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import RINGBOOK
from tests.tmux_pane import TmuxPane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed (apt-get install tmux)")

SGR = re.compile(r"\x1b\[([0-9;]*)m")
GREYS = {0, 7, 8, 15, 16, 231, *range(232, 256)}   # the 256-colour palette's black, white and grey ramp


def colours(screen: str) -> set[str]:
    """Each colour the screen uses, as 'fg:<code>' / 'bg:<code>' where code is '5;N' (256 colours),
    '2;R;G;B' (true colour) or the SGR number of one of the 16 basic colours."""
    found = set()
    for params in SGR.findall(screen):
        codes = params.split(";")
        i = 0
        while i < len(codes):
            code = codes[i]
            if code in ("38", "48"):
                width = 3 if codes[i + 1] == "5" else 5
                found.add(("fg:" if code == "38" else "bg:") + ";".join(codes[i + 1:i + width]))
                i += width
                continue
            if code.isdigit() and (30 <= int(code) <= 37 or 90 <= int(code) <= 97):
                found.add(f"fg:{code}")
            elif code.isdigit() and (40 <= int(code) <= 47 or 100 <= int(code) <= 107):
                found.add(f"bg:{code}")
            i += 1
    return found


def depths(used: set[str]) -> set[str]:
    """Which colour depths the screen uses: '16', '256', 'truecolor'."""
    return {{0: "16", 1: "256", 3: "truecolor"}[colour.count(";")] for colour in used}


def greys_only(used: set[str]) -> bool:
    return all(c.count(";") == 1 and int(c.split(";")[1]) in GREYS for c in used)


CASES = {
    # name: (environment, a check of the colours drawn)
    "xterm-256color": ({"TERM": "xterm-256color"}, lambda used: depths(used) - {"16"} == {"256"}),
    "truecolor": ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, lambda used: "truecolor" in depths(used)),
    "xterm": ({"TERM": "xterm"}, lambda used: depths(used) == {"16"}),
    "screen": ({"TERM": "screen"}, lambda used: depths(used) == {"16"}),
    "vt100": ({"TERM": "vt100"}, lambda used: depths(used) == {"16"}),
    "no-color": ({"TERM": "xterm-256color", "NO_COLOR": "1"}, greys_only),
    "no-mouse": ({"TERM": "xterm-256color"}, lambda used: bool(used)),
}


def start(tmp_path: Path, environment: dict[str, str], **options) -> TmuxPane:
    """ringbook on a fresh data dir, with exactly these colour-related variables (none inherited)."""
    command = ["env", "-u", "COLORTERM", "-u", "NO_COLOR", "-u", "TEXTUAL_COLOR_SYSTEM",
               *(f"{name}={value}" for name, value in environment.items()),
               *RINGBOOK, "--data-dir", str(tmp_path / "data")]
    return TmuxPane(tmp_path, command, **options)


@pytest.mark.parametrize("case", CASES)
def test_home_chapter_back_quit(tmp_path: Path, case: str):
    environment, colours_fit = CASES[case]
    pane = start(tmp_path, environment, options=("set -g mouse off",) if case == "no-mouse" else ())
    try:
        pane.wait_for("Mastery 0 /", timeout=60)
        home = pane.wait_for("q Quit")                  # the footer: the frame has been drawn to its end
        assert "Distributed Training, Derived" in home and "Ring AllReduce" in home and "q Quit" in home
        used = colours(pane.screen(escapes=True))
        assert colours_fit(used), sorted(used)
        pane.press("Enter")
        pane.wait_for("e Exercises")
        if case == "no-mouse":
            pane.press("e")
            pane.wait_for("0.1  Traffic per GPU")
            pane.press("Enter")
            pane.wait_for("a number, e.g.")
            pane.type("2*1*(8-1)/8")
            pane.press("Enter")
            pane.wait_for("Correct: 1.75 GB")
            pane.press("Escape")                        # a correct answer leaves the box: back to the chapter
            pane.wait_for("1 of 8 solved")
        pane.press("Escape")
        pane.wait_for("Mastery")
        pane.press("q")
        assert pane.wait_exit() == 0
    finally:
        pane.close()

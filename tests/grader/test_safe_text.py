"""Untrusted text is shown, never obeyed: every control character becomes a visible escape."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from grader.safe_text import clipped, markup_tags, printable, unsafe_characters

# Defined independently of the module: what a terminal could act on or a reader be fooled by.
REORDERING = {"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"}


def inert(c: str) -> bool:
    return unicodedata.category(c) not in ("Cc", "Cs") and unicodedata.bidirectional(c) not in REORDERING

ATTACKS = {
    "clear screen": "\x1b[2J",
    "OSC 52 clipboard": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "OSC 2 title": "\x1b]2;owned\x1b\\",
    "C1 CSI": "\x9b2J",
    "bidi override": "\u202e",
    "lone surrogate": "\ud800",
}


def test_each_attack_is_shown_as_an_escape():
    for name, attack in ATTACKS.items():
        shown = printable(f"alice{attack}bob")
        assert shown.startswith("alice") and shown.endswith("bob"), name
        assert all(inert(c) for c in shown), (name, shown)


def test_newlines_stay_unless_one_line_is_asked_for():
    assert printable("a\nb\tc") == "a\nb\tc"
    assert printable("a\nb\tc", one_line=True) == "a\\x0ab\\x09c"


@given(st.text(), st.integers(min_value=1, max_value=40))
def test_a_clipped_cell_is_printable_and_fits(text, width):
    cell = clipped(text, width)
    assert len(cell) <= width
    assert all(inert(c) for c in cell)


def test_content_lines_with_control_characters_are_found_by_line():
    text = "# Fine\n# Title \x1b]2;x\x07\nplain\nlast \x9b\n"
    assert [line for line, _ in unsafe_characters(text)] == [2, 4]


# --- markup: what Textual or Rich would obey instead of showing -----------------------------------------

MARKUP = ["[@click=app.screenshot('victim.txt','/tmp')]Click here[/]", "[@click=app.simulate_key('q')]",
          "[link='https://example.com']here[/link]", "[bold]loud[/bold]", "so [b]this[/] is", "end [/]"]
ORDINARY = ["a [b·s, d] activation", "the list [1, 2]", "x[i] in code", "[s, d/t] per rank", "[E]",
            "[TP, CP, PP, DP]", "a [link](https://example.com) in Markdown", "[false, true, false]", "a \\[bold] tag"]


def test_markup_is_found_with_its_line():
    for text in MARKUP:
        assert [line for line, _ in markup_tags(f"first line\n{text}\n")] == [2], text


def test_ordinary_brackets_are_not_markup():
    for text in ORDINARY:
        assert markup_tags(text) == [], text

"""Untrusted text is shown, never obeyed: every control character becomes a visible escape."""

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from grader import safe_text
from grader.safe_text import clipped, markup_tags, printable, unsafe_characters

# Defined independently of the module: what a terminal could act on or a reader be fooled by.
REORDERING = {"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"}


def inert(c: str) -> bool:
    return unicodedata.category(c) not in ("Cc", "Cs", "Cf") and unicodedata.bidirectional(c) not in REORDERING


def inert_text(text: str) -> bool:
    """Every character inert, but a zero-width joiner or non-joiner a script needs: after a virama (Indic
    conjuncts), or a non-joiner between two letters of a joining script (Persian)."""
    for at, c in enumerate(text):
        if c in "\u200c\u200d" and at and unicodedata.combining(text[at - 1]) == 9:
            continue
        if c == "\u200c" and 0 < at < len(text) - 1 and all(
                unicodedata.category(n).startswith("L") and "ARABIC" in unicodedata.name(n, "")
                for n in (text[at - 1], text[at + 1])):
            continue
        if not inert(c):
            return False
    return True

ATTACKS = {
    "clear screen": "\x1b[2J",
    "OSC 52 clipboard": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "OSC 2 title": "\x1b]2;owned\x1b\\",
    "C1 CSI": "\x9b2J",
    "bidi override": "\u202e",
    "lone surrogate": "\ud800",
}

# Invisible format characters (Unicode category Cf), issue 42.11: each hides in a title, a name or a prompt,
# and some make a terminal draw text other than it is (a BOM, tags that spell words no one sees).
INVISIBLE = {
    "\u061c": "\\u061c",          # Arabic letter mark
    "\u200b": "\\u200b",          # zero width space
    "\u200c": "\\u200c",          # zero width non-joiner, between Latin letters
    "\u200d": "\\u200d",          # zero width joiner, between Latin letters
    "\u2060": "\\u2060",          # word joiner
    "\ufeff": "\\ufeff",          # a byte order mark inside text
    "\xad": "\\xad",              # soft hyphen
    "\U000e0001": "\\U000e0001",  # language tag
    "\U000e0061": "\\U000e0061",  # tag latin small letter a
    "\U000e007f": "\\U000e007f",  # cancel tag
}


def test_each_attack_is_shown_as_an_escape():
    for name, attack in ATTACKS.items():
        shown = printable(f"alice{attack}bob")
        assert shown.startswith("alice") and shown.endswith("bob"), name
        assert inert_text(shown), (name, shown)


def test_each_invisible_format_character_is_shown_as_an_escape():
    for char, escape in INVISIBLE.items():
        assert printable(f"alice{char}bob") == f"alice{escape}bob", escape
        assert clipped(f"alice{char}bob", 40) == f"alice{escape}bob", escape
        assert [line for line, _ in unsafe_characters(f"fine\nalice{char}bob\n")] == [2], escape


def test_every_format_character_this_python_knows_is_escaped():
    """Every Cf code point of the running Python's Unicode database (a newer one may add some), outside
    the joiners' contexts below, is shown as an escape."""
    for code in range(0x110000):
        if unicodedata.category(chr(code)) == "Cf":
            assert printable(chr(code)) != chr(code), f"U+{code:04X}"


NEEDED_JOINERS = [
    "\u0915\u094d\u200d\u0937",   # Devanagari KA, virama, ZWJ, SSA: the half form of KA
    "\u0915\u094d\u200c\u0937",   # ... virama, ZWNJ: the virama kept visible
    "\u0d23\u0d4d\u200d",          # Malayalam NNA, virama, ZWJ: the chillu of older text
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",   # Persian "mi-khaham": ZWNJ between two Arabic letters
]


def test_the_joiners_a_script_needs_are_kept():
    """ZWJ and ZWNJ where a script needs them, as IDNA allows them (RFC 5892, CONTEXTJ): after a virama, and
    a ZWNJ between two letters of a joining script. Anywhere else they only hide something."""
    for word in NEEDED_JOINERS:
        assert printable(word) == word and unsafe_characters(word) == [], word
    assert printable("\U0001f469\u200d\U0001f4bb") == "\U0001f469\\u200d\U0001f4bb"   # emoji: widths differ by terminal
    assert printable("\u0645\u200c") == "\u0645\\u200c"   # at the end of text: nothing to join


def test_newlines_stay_unless_one_line_is_asked_for():
    assert printable("a\nb\tc") == "a\nb\tc"
    assert printable("a\nb\tc", one_line=True) == "a\\x0ab\\x09c"


def test_text_python_calls_printable_holds_nothing_to_escape():
    """printable returns such text as it is, without its expression: sound only while every character it escapes
    is one Python does not call printable (Unicode's controls, format characters, surrogates, unassigned)."""
    every = "".join(map(chr, range(0x110000)))
    escaped = re.findall(safe_text._UNSAFE, every)
    assert len(escaped) > 2000 and not any(char.isprintable() for char in escaped)


# One line as it was first written: tab and newline in the same character class as the rest (a second regular
# expression, compiled at every start). printable(one_line=True) now escapes them after the rest.
IN_ONE_LINE = re.compile(f"[\t\n{safe_text._CONTROL}{safe_text._FORMAT}]")


@given(st.text(alphabet=st.sampled_from("a\t\n\r\x1b\u200b\u200c\u200d\u094d\u0915\u0645\u0627")) | st.text())
def test_one_line_escapes_tabs_and_newlines_as_one_class_with_the_rest_did(text):
    assert printable(text, one_line=True) == IN_ONE_LINE.sub(safe_text._escape_unless_needed, text)


@given(st.text(), st.integers(min_value=1, max_value=40))
def test_a_clipped_cell_is_printable_and_fits(text, width):
    cell = clipped(text, width)
    assert len(cell) <= width
    assert inert_text(cell)


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

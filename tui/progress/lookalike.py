"""Names compared as a reader sees them: two names that print alike are one name.

A student types their own name, so `alice` with a zero-width space after it, or with a Cyrillic "а",
reads as alice and is another string. Before the class report compares a name with a login or a
roster's name, both are folded as Unicode's UTS #39 says: NFKC (fullwidth and other compatibility
forms), then without the characters nobody sees (every format character, category Cf, and the other
default-ignorable code points), then the confusables skeleton, each character mapped to the prototype
it looks like, from Unicode's table in confusables.txt beside this module.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

TABLE = Path(__file__).with_name("confusables.txt")

# Default_Ignorable_Code_Point (DerivedCoreProperties.txt) outside category Cf: the combining grapheme
# joiner, Hangul fillers, Khmer inherent vowels, variation selectors, and the unassigned ones among them.
_IGNORABLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2065\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8"
                        "\U000e0000-\U000e0fff]")


def visible(name: str) -> str:
    """`name` in NFKC without the characters that print as nothing."""
    text = _IGNORABLE.sub("", unicodedata.normalize("NFKC", name))
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(char, char)
                                                for char in unicodedata.normalize("NFD", text)))


def folded(name: str, *, casefold: bool = True) -> str:
    """The key two names share when they read alike: visible, skeleton, and with `casefold` alike in any
    case too (a roster's names); a login is compared with its case, as the system compares it."""
    text = visible(name)
    if not casefold:
        return skeleton(text)
    # The skeleton before the case as well as after: a capital I reads as a small l ("AIice"), which
    # casefolding first would turn into an i that reads as nothing else.
    return skeleton(skeleton(text).casefold()).casefold()


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as {character: prototype}; read once, on the first name compared."""
    table = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, *target = line.split()
            table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target)
    return table

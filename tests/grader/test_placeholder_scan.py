"""Finding `{{placeholders}}` reads a text once, however many `{{` are never closed.

`PLACEHOLDER = r"\\{\\{(.*?)\\}\\}"` tries every `{{` against the whole rest of the text: a prompt of
20,000 unclosed `{{` (60 kB) made content check, content show and check take 10 s each before refusing
the book. The pattern is linear on a text whose every `{{` has a `}}` after it, so it is only ever given
the part of a text up to its last `}}` (grader.book.variants.closed_part); these tests watch what it is given.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import grader.book.variants as variants
from grader.book.load import check_book
from grader.book.variants import PLACEHOLDER, render

UNCLOSED = "{{N" * 20_000


class Watched:
    """PLACEHOLDER, keeping every text it is asked to scan."""

    def __init__(self, pattern: re.Pattern[str]):
        self.pattern = pattern
        self.scanned: list[str] = []

    def sub(self, replace, text, *args):
        self.scanned.append(text)
        return self.pattern.sub(replace, text, *args)

    def finditer(self, text, pos=0, endpos=None):
        self.scanned.append(text[pos:endpos])
        return self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)

    def search(self, text, pos=0, endpos=None):
        self.scanned.append(text[pos:endpos])
        return self.pattern.search(text, pos, len(text) if endpos is None else endpos)


def unclosed_starts(text: str) -> int:
    """How many `{{` have no `}}` after them: each costs the lazy pattern a scan to the end of `text`."""
    return text[text.rfind("}}") + 2 if "}}" in text else 0:].count("{{")


@pytest.fixture
def watched(monkeypatch) -> Watched:
    watch = Watched(PLACEHOLDER)
    monkeypatch.setattr(variants, "PLACEHOLDER", watch)
    return watch


def test_rendering_never_scans_past_the_last_closing_braces(watched):
    text = f"{{{{N}}}} GPUs {UNCLOSED}"
    assert render(text, {"N": 8.0}) == f"8 GPUs {UNCLOSED}"
    assert watched.scanned and max(map(unclosed_starts, watched.scanned)) == 0


def test_a_book_of_unclosed_braces_is_refused_without_a_quadratic_scan(chapters_copy, watched):
    book_copy = chapters_copy("00-ring-allreduce")
    exercises = book_copy / "00-ring-allreduce" / "exercises.yaml"
    text = exercises.read_text()
    exercises.write_text(text.replace("    hints:\n", f"      {UNCLOSED}\n    hints:\n", 1))  # the prompt's last line
    _, problems = check_book(book_copy)
    assert any("placeholder is left unrendered" in p.message and p.path == exercises for p in problems)
    assert watched.scanned and max(map(unclosed_starts, watched.scanned)) == 0


templates = st.lists(st.sampled_from(["{{", "}}", "{", "}", "N", "M", ":", "2", " "]), max_size=30).map("".join)


@given(templates)
def test_placeholders_are_found_as_the_plain_pattern_finds_them(template):
    assert ([m.group(0) for m in PLACEHOLDER.finditer(variants.closed_part(template)[0])]
            == [m.group(0) for m in PLACEHOLDER.finditer(template)])
    assert "".join(variants.closed_part(template)) == template

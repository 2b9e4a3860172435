"""A draft's size rule (issue 42): the store keeps a draft of at most MAX_DRAFT characters of text (row_rules), and
refuses a larger one, or one that is not text, with a sentence; the draft kept before stays."""

from __future__ import annotations

import pytest

from tui.progress.row_rules import MAX_DRAFT
from tui.progress.store import StoreError


def test_a_draft_too_large_or_not_text_is_refused_and_the_one_before_kept(store):
    store.save_draft("0.5", "def f():\n    return 1\n")
    with pytest.raises(StoreError, match=f"A draft of {MAX_DRAFT + 1:,} characters is not kept: a draft holds at most"):
        store.save_draft("0.5", "x" * (MAX_DRAFT + 1))
    with pytest.raises(StoreError, match="is not text"):
        store.save_draft("0.5", "def f():\n    return '\udcff'\n")
    assert store.draft("0.5") == "def f():\n    return 1\n"
    store.save_draft("0.5", "x" * MAX_DRAFT)
    assert len(store.draft("0.5")) == MAX_DRAFT

"""Screens as a learner sees them, at the 80x24 minimum and a roomier 120x40."""

import pytest

from tui.app import RingbookApp


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_home(snap_compare, book, size, store):
    assert snap_compare(RingbookApp(book, store), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_chapter(snap_compare, book, size, store):
    assert snap_compare(RingbookApp(book, store), press=["enter"], terminal_size=size)

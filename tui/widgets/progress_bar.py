"""A text progress bar that reads the same in colour, in monochrome and in a copied screen."""

from __future__ import annotations

from rich.text import Text

WIDTH = 10


def bar(done: float, total: int, width: int = WIDTH) -> Text:
    filled = round(width * done / total) if total else 0
    return Text.assemble(("█" * filled, "green"), ("░" * (width - filled), "dim"))

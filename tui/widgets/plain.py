"""Untrusted text (a book's, a learner's, a student's name) made into something Textual only shows.

Textual and Rich read a plain `str` as markup: `[@click=app.screenshot('x','DIR')]` in a book's subtitle
became a link that overwrote a file with one click, and `[@click=app.simulate_key('q')]` quit the app.
So text from outside never reaches a widget as a `str`: it goes through `plain`, which escapes control
characters (grader.safe_text) and wraps the result in a `Content`, which Textual draws as it is.
"""

from __future__ import annotations

from textual.content import Content

from grader.safe_text import printable


def plain(text: str, style: str = "") -> Content:
    """`text` as content that is shown literally: markup stays text, control characters show as escapes."""
    content = Content(printable(text))
    return content.stylize(style) if style else content

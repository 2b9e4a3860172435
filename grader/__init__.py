"""The ringbook engine: the content model, loading and validating books, judging answers. Imports no Textual."""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# The built-in book: installed from the wheel it is grader/builtin_book (pyproject's force-include); in a
# source checkout or an editable install it is the repository's content/. A wheel is always unpacked, so a
# plain path serves and start-up needs no importlib.resources.
BUILTIN_CONTENT = _PACKAGE / "builtin_book" if (_PACKAGE / "builtin_book").is_dir() else _PACKAGE.parent / "content"

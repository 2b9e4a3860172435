"""An unknown name in a placeholder, said where it is written and with the name its author likely meant:
`{{mis}}` on the sixth line of a prompt is reported at that line (not at `prompt:`), with "did you mean `miss`?"
(difflib over the params the text may name)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from grader.book.variants import PLACEHOLDER, _formula_and_format, formula_value
from grader.maths.evaluate import EvaluationError
from grader.maths.parse import ParseError, names_in, parse


def placeholder_slip(text: str, key_line: int, names: Mapping[str, float]) -> tuple[int, str]:
    """(line, advice) for the first placeholder of `text` (the value of the field written at `key_line`) that
    does not evaluate over `names`; advice is "" when no known name is close. A text with a line break is a
    block (`prompt: |`), whose first line is the one after its key; a one-line text is on its key's line."""
    for match in PLACEHOLDER.finditer(text):
        formula = _formula_and_format(match.group(1))[0]
        try:
            formula_value(formula, names)
        except (ParseError, EvaluationError):
            line = key_line + 1 + text.count("\n", 0, match.start()) if "\n" in text else key_line
            return line, _meant(formula, names)
    return key_line, ""


def _meant(formula: str, names: Mapping[str, float]) -> str:
    try:
        unknown = sorted(names_in(parse(formula, names)) - set(names))
    except ParseError:
        return ""
    for name in unknown:
        close = difflib.get_close_matches(name, list(names), n=1)
        if close:
            return f" Did you mean `{close[0]}`?"
    return ""

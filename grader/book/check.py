"""What a schema cannot say about an exercise: its kind's problems (formulas that do not parse or evaluate,
a mistake equal to the answer, a debug line outside the listing, design items that repeat) and, for one whose
numbers are posed, its vary rules and placeholders; and its kind's warnings (feedback a learner would get
for the wrong slip).

Only reading a book from its files runs these checks; a start from the book cache does not need them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.exercise import Exercise, NumericAnswer, Where
from grader.files import BookFileError, read_text
from grader.kinds.registry import Findings, Hardware, kind_of
from grader.problems import Problem


def exercise_problems(exercise: Exercise, where: Where) -> Findings:
    """(line, message) for each problem; `where(*keys)` gives the line of a field of the exercise."""
    found = kind_of(exercise).problems(exercise, where)
    if not isinstance(exercise, NumericAnswer) and "{{when " in exercise.explanation:
        found.append((where("explanation"), "a paragraph guarded by `when` needs numbers to compare: only a "
                                            "derive's or a trace's explanation can have one"))
    if not found and isinstance(exercise, NumericAnswer) and exercise.is_template:
        from grader.book.variant_check import template_problems

        found = template_problems(exercise, where)
    return found


def exercise_warnings(exercise: Exercise, where: Where) -> Findings:
    """(line, message) for feedback a learner would get for the wrong slip. The grade itself is still
    right, so these do not fail a check; call only on an exercise `exercise_problems` passes."""
    return kind_of(exercise).warnings(exercise, where)


def unit_problems(ex: NumericAnswer, where: Where) -> Findings:
    """The exercise's unit, and each size or bandwidth its texts write after a number (what a learner
    copies into the box), must be read as what it means. A full check only (`ringbook content check`): it
    loads pint, which grading a plain number never needs."""
    from grader.maths.units import misread_unit, size_spellings  # pint only when a book is checked

    found = [(where("unit"), message) for message in [misread_unit(ex.unit)] if message]
    spellings = sorted({spelling for text in ex.texts for spelling in size_spellings(text)} - {ex.unit})
    found += [(where("prompt"), f"{message} (written in the exercise's text)")
              for message in map(misread_unit, spellings) if message]
    return found


def worked_value_problems(ex: NumericAnswer, where: Where) -> Findings:
    """A formula answer checked against each worked example in its explanation that sets every symbol to a
    number (grader.book.text_check.worked_value_problems), at the example's own line. A full check only."""
    from grader.book.text_check import worked_value_problems as examples
    from grader.book.variants import formula_value

    if not ex.is_formula or ex.answer is None:
        return []
    answer = ex.answer
    found = []
    for keys, text in ex.keyed_texts():
        if keys[0] != "explanation":
            continue
        for line, message in examples(text, ex.symbols, lambda bound: formula_value(answer, {**ex.env, **bound}),
                                      answer):
            found.append((where(*keys) + (line if "\n" in text else 0), f"{' '.join(map(str, keys))}: {message}"))
    return found


def narrative_problems(path: Path, root: Path, hardware: Hardware) -> list[Problem]:
    """A chapter's Markdown quoting a network port faster than the products its paragraph names have
    (grader.book.text_check.network_problems), a table row with a missing or an extra cell, and a
    placeholder (only exercises render them). A full check only; a narrative that cannot be read is
    reported by the load."""
    from grader.book.markdown_check import placeholder_problems, table_problems
    from grader.book.text_check import narrative_problems as ports  # a full check only, as the variants

    try:
        text = read_text(path, root)
    except (OSError, BookFileError):
        return []
    found = ports(text, hardware) + table_problems(text) + placeholder_problems(text)
    return [Problem(path, line, message) for line, message in sorted(found)]


def table_problems(raw: dict[str, Any], where: Where) -> Findings:
    """A table row with a missing or an extra cell in an exercise's prompt, hints or explanation, as written,
    at the row's own line (a `|` block's text starts on the line after its key)."""
    from grader.book.markdown_check import table_problems as rows

    found = []
    for keys, text in _written_texts(raw):
        for offset, message in rows(text):
            found.append((where(*keys) + (offset if "\n" in text else 0), f"{' '.join(map(str, keys))}: {message}"))
    return found


def _written_texts(raw: dict[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    """(keys, text) of the prompt, each hint and the explanation (or each of its paragraphs) as written."""
    texts: list[tuple[tuple[str | int, ...], Any]] = [(("prompt",), raw.get("prompt"))]
    texts += [(("hints", i), hint) for i, hint in enumerate(raw.get("hints") or [])]
    explanation = raw.get("explanation")
    if isinstance(explanation, list):
        texts += [(("explanation", i, "text"), p.get("text")) if isinstance(p, dict) else (("explanation", i), p)
                  for i, p in enumerate(explanation)]
    else:
        texts.append((("explanation",), explanation))
    return [(keys, text) for keys, text in texts if isinstance(text, str)]

"""`ringbook content show ID --explain`: an author reads a whole exercise without the app, its hints and the
feedback of each foreseen slip (with its value for the numbers shown) as well as the explanation."""

from __future__ import annotations

from grader.book.variants import format_number, variant


def test_explain_prints_the_hints_and_each_mistake_with_its_value_and_feedback(book, ringbook):
    posed = variant(book.exercise("0.1"), 5)
    result = ringbook("content", "show", "0.1", "--seed", "5", "--explain")
    assert result.returncode == 0 and "\x1b" not in result.stdout
    lines = result.stdout.splitlines()
    for number, hint in enumerate(posed.hints, 1):
        assert f"Hint {number} of {len(posed.hints)}: {hint}" in lines
    applicable = posed.applicable_mistakes
    shown = [f"Mistake {m.answer} = {format_number(value)}: {m.feedback}"
             for m, value in zip(posed.mistakes, posed.mistake_values, strict=True) if m in applicable]
    assert shown and all(line in lines for line in shown)
    assert lines.index(shown[-1]) < lines.index(posed.explanation.strip().splitlines()[0])


def test_explain_prints_a_listing_s_note_per_line_and_without_explain_none(book, ringbook):
    debug = book.exercise("0.6")
    explained = ringbook("content", "show", "0.6", "--explain").stdout.splitlines()
    assert all(f"Line {line}: {note}" in explained for line, note in debug.line_feedback.items())
    plain = ringbook("content", "show", "0.6").stdout
    assert "Hint 1" not in plain and "Line 2:" not in plain


def test_explain_prints_each_step_of_a_table_with_its_value_for_the_seed(book, ringbook):
    """An author proofreading a variant's step table needs each step's value, not only its note (before, only
    `--json` had them)."""
    table = next(e for e in book.exercises if getattr(e, "steps", None) and e.vary and e.unit
                 and any(not step.feedback for step in e.steps))
    posed = variant(table, 7)
    lines = ringbook("content", "show", table.id, "--seed", "7", "--explain").stdout.splitlines()
    for step, value in zip(posed.steps, posed.step_values, strict=True):
        line = f"{step.label} = {format_number(value)} {posed.unit} ({step.answer})"
        assert line + (f": {step.feedback}" if step.feedback else "") in lines

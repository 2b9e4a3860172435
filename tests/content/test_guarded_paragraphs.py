"""Issue 41 §5: an explanation's or a feedback's paragraph may be guarded by `when`, as a mistake is, so a
claim true in only some variants is made only there (15.4's "getting above 90 % takes a smaller R" was
false wherever even R = 0 leaves the goodput under 90 %). `content check` reports a guard no variant meets,
one that does not evaluate, and one in an exercise without numbers."""

from __future__ import annotations

import math

import pytest

from grader.book.variants import render, variant
from tests.built_in import builtin_book
from tests.content.test_content_rules import edit, line_of, reported, run_check

RESTART_CLAIM = "goodput above 90 % needs a restart"
NO_RESTART_ENOUGH = "A faster restart alone cannot reach 90 %"


def test_15_4_says_a_faster_restart_helps_only_where_one_can_reach_90_percent():
    """Every variant of the first 200: at Young's interval, stalls and lost work take sqrt(2C/M) even with R = 0
    (C/T + T/(2M) at T = sqrt(2CM)); only where that is under 10 % can a smaller R lift goodput above 90 %."""
    exercise = builtin_book().exercise("15.4")
    seen = set()
    for seed in range(200):
        posed = variant(exercise, seed)
        c, m, r = posed.env["C"], posed.env["M"], posed.env["R"]
        best_with_no_restart = 1 - math.sqrt(2 * c / m)
        can_reach = best_with_no_restart > 0.90
        seen.add(can_reach)
        assert (RESTART_CLAIM in posed.explanation) == can_reach, (seed, c, m)
        assert (NO_RESTART_ENOUGH in posed.explanation) == (not can_reach), (seed, c, m)
        if can_reach:   # the restart it names is the largest that reaches 90 %, and this variant's R is over it
            largest_restart = m * (0.10 - math.sqrt(2 * c / m))
            assert f"= {largest_restart:.2f} minutes" in posed.explanation
            assert r > largest_restart
        assert "{{" not in posed.explanation and "}}" not in posed.explanation
    assert seen == {True, False}   # the variants hold both cases, so both paragraphs are read somewhere


def test_a_guarded_paragraph_is_taken_out_with_its_blank_line():
    text = "Before {{x}}.\n\n{{when x > 1}}Big: {{2*x}}.{{end}}\n\n{{when x <= 1; x > 0}}Small.{{end}}\n\nAfter.\n"
    assert render(text, {"x": 2}) == "Before 2.\n\nBig: 4.\n\nAfter.\n"
    assert render(text, {"x": 0.5}) == "Before 0.5.\n\nSmall.\n\nAfter.\n"
    assert render(text, {"x": -1}) == "Before -1.\n\nAfter.\n"     # both conditions of a list must hold


@pytest.mark.parametrize(("guard", "message", "at", "below"), [
    ("100*sqrt(2*C/M) < 1", "explanation: the paragraph guarded by `when 100*sqrt(2*C/M) < 1` is shown in none of the "
                            "variants checked (seeds 0-200): its `when` never holds", "      - |", 0),
    ("100*sqrt(2*C/MTBF) < 10", "explanation: when '100*sqrt(2*C/MTBF) < 10': Unknown name 'MTBF'.",
     'when: "100*sqrt(2*C/MTBF)', 1),                     # the guarded paragraph's own text, under its `when`
])
def test_a_guard_never_met_or_not_evaluating_is_reported(chapters_copy, capsys, guard, message, at, below):
    book = chapters_copy("15-failures-at-scale")
    path = edit(book, "15-failures-at-scale", 'when: "100*sqrt(2*C/M) < 10"', f'when: "{guard}"')
    code, out = run_check(book, capsys)
    assert code == 1
    assert reported(out, path, line_of(path, at, after='id: "15.4"') + below) == [message]


def test_a_guard_in_an_exercise_without_numbers_is_reported(chapters_copy, capsys):
    book = chapters_copy("00-ring-allreduce")
    path = book / "00-ring-allreduce" / "exercises.yaml"
    text = path.read_text()
    debug_start = text.index("kind: debug")
    explanation = text.index("    explanation: |", debug_start)
    block_end = text.index("\n  - id:", explanation)
    block = text[explanation + len("    explanation: |"):block_end].replace("\n      ", "\n        ")
    path.write_text(text[:explanation] + '    explanation:\n      - {when: "N > 2", text: Only sometimes.}\n'
                    + "      - |" + block + text[block_end:])
    code, out = run_check(book, capsys)
    messages = reported(out, path, text[:explanation].count("\n") + 2)   # the explanation's first line
    assert code == 1
    assert messages == ["a paragraph guarded by `when` needs numbers to compare: only a derive's or a trace's "
                        "explanation can have one"]


def test_a_mistakes_feedback_may_guard_a_paragraph(chapters_copy):
    from grader.book.load import load_book

    book = chapters_copy("15-failures-at-scale")
    edit(book, "15-failures-at-scale",
         "        feedback: You left out the checkpoint stalls, {{60*C}} s in every {{T}} minutes.",
         "        feedback:\n          - You left out the checkpoint stalls, {{60*C}} s in every {{T}} minutes.\n"
         '          - {when: "C >= 1", text: "A whole minute of stall each time."}')
    exercise = load_book(book).exercise("15.4")
    said = {}
    for seed in range(60):
        posed = variant(exercise, seed)
        feedback = posed.mistakes[2].feedback
        said[posed.env["C"]] = "A whole minute" in feedback
        assert feedback.startswith(f"You left out the checkpoint stalls, {60 * posed.env['C']:g} s")
    assert said == {0.25: False, 0.5: False, 1: True}

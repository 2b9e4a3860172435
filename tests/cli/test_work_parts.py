"""The parts of `ringbook work` (issue 46) on their own: the keys read from lines, the next unsolved build in
book order, the list and progress read from the real store, and a run's verdict as the status block's lines."""

from __future__ import annotations

from grader.grade import grade
from tui.cli.work_keys import key_of
from tui.cli.work_screen import BuildRow, list_lines, verdict_lines
from tui.cli.work_watch import builds, next_unsolved


def test_a_line_is_a_key_by_its_letter_or_its_word():
    assert [key_of(line) for line in ["h\n", " X ", "list\n", "Next", "quit", "", "hello", "nq"]] == \
        ["h", "x", "l", "n", "q", None, None, None]


def test_the_next_unsolved_build_goes_in_book_order_and_wraps_round(book, store):
    order = [exercise.id for exercise in builds(book)]
    assert order == ["0.5", "2.4", "4.5", "7.5", "8.6"]
    first = next_unsolved(book, store)
    assert first is not None and first.id == "0.5"
    store.record_attempt("0.5", "x", "correct")
    store.record_attempt("2.4", "x", "incorrect")   # tried, not solved: still next
    assert [next_unsolved(book, store).id, next_unsolved(book, store, after=book.exercise("2.4")).id,
            next_unsolved(book, store, after=book.exercise("8.6")).id] == ["2.4", "4.5", "2.4"]
    for exercise_id in order[1:]:
        store.record_attempt(exercise_id, "x", "correct")
    assert next_unsolved(book, store) is None


def test_an_error_shows_the_learners_lines_after_its_test():
    from tests.built_in import builtin_book

    ring = builtin_book().exercise("0.5")
    code = ("def share(a, b):\n    return a / b\n\n"
            "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    print('n', n)\n"
            "    return share(m_gb, latency_us)\n")
    lines = verdict_lines(grade(ring, code))
    first = lines.index("✗ (m_gb=2, n=8, bw_gbs=50, latency_us=0) expected 70, got ZeroDivisionError: division by "
                        "zero  (zero latency: pure bandwidth term, 3.5 GB at 50 GB/s)")
    assert lines[0] == "✗ 0 of 5 tests pass."
    assert lines[first + 1:first + 4] == ["    line 6: return share(m_gb, latency_us)",
                                          "    line 2: return a / b -> ZeroDivisionError: division by zero",
                                          "    printed: n 8"]


def test_a_run_that_stopped_before_any_test_is_its_message():
    from tests.built_in import builtin_book

    verdict = grade(builtin_book().exercise("0.5"), "def ring_allreduce_time(:\n")
    assert verdict_lines(verdict) == verdict.lines() and verdict_lines(verdict)[0].startswith("? Python could not")


def test_the_list_marks_each_build_and_the_current_one():
    rows = [BuildRow("0.5", "Ring", "solved", False), BuildRow("2.4", "Steps", "tried", True),
            BuildRow("4.5", "Ratio", "new", False)]
    assert list_lines(rows) == ["  ✓ 0.5  Ring  (solved)", "> ✗ 2.4  Steps  (tried)", "  · 4.5  Ratio  (new)"]


def test_a_hint_asked_for_is_drawn_below_the_tests_where_a_short_terminal_shows_it(tmp_path):
    """At 80x24 the block of a run with five failing tests is taller than the screen; the hint that `h` showed
    was drawn above the tests, scrolled off the top, and the learner saw nothing change."""
    import io

    from rich.console import Console

    from tests.built_in import builtin_book
    from tui.cli.work_screen import TerminalScreen

    ring = builtin_book().exercise("0.5")
    screen = TerminalScreen()
    screen.console = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    screen.task(ring, tmp_path / "0.5.py", [], "builds solved: 0 of 5")
    screen.verdict(grade(ring, ring.starter), [], "builds solved: 0 of 5")   # each test: its error's line too
    screen.console.file = io.StringIO()
    screen.hint(1, len(ring.hints), ring.hints[0])
    lines = screen.console.file.getvalue().split("\n")
    last_screen = "\n".join(lines[-24:])
    assert "Hint 1 of" in last_screen and ring.hints[0].split()[0] in last_screen, last_screen
    assert "✗ 0 of 5 tests pass." not in last_screen or last_screen.index("tests pass") < last_screen.index("Hint 1")

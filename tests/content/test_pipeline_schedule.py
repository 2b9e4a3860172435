"""The book's bubble formulas against simulated schedules: where the formula holds (plain 1F1B for any m,
interleaved 1F1B for m a multiple of p) and where it does not (interleaving with fewer micro-batches
than stages, the mistake that was exercise 9.6)."""

from __future__ import annotations

import pytest

from grader.maths.evaluate import evaluate_text
from tests.expected.pipeline_schedule import (
    all_forwards_first,
    idle_share,
    interleaved_1f1b,
    one_f_one_b,
    step_time,
)

TIMINGS = [(1.0, 1.0), (1.0, 2.0)]     # forward, backward: equal, and the usual backward = 2 x forward


def book_idle_share(book, p: int, m: int, v: int) -> float:
    """Exercise 5.7's answer, the book's formula for the idle share, at these values."""
    return evaluate_text(book.exercise("5.7").answer, {"p": p, "m": m, "v": v})


@pytest.mark.parametrize("forward, backward", TIMINGS)
@pytest.mark.parametrize("p, m", [(1, 3), (2, 1), (4, 2), (4, 4), (4, 12), (8, 3), (16, 16), (16, 4)])
def test_plain_1f1b_idle_share_is_the_formula_for_any_m(book, p, m, forward, backward):
    simulated = idle_share(one_f_one_b(p, m), m, 1, forward, backward)
    assert simulated == pytest.approx(book_idle_share(book, p, m, 1), abs=1e-12)


@pytest.mark.parametrize("forward, backward", TIMINGS)
@pytest.mark.parametrize("p, m, v", [(2, 4, 2), (4, 4, 2), (4, 12, 4), (4, 8, 3), (8, 16, 2), (16, 16, 2),
                                     (16, 32, 4), (16, 48, 2)])
def test_interleaved_idle_share_is_the_formula_when_m_is_a_multiple_of_p(book, p, m, v, forward, backward):
    simulated = idle_share(interleaved_1f1b(p, m, v), m, v, forward, backward)
    assert simulated == pytest.approx(book_idle_share(book, p, m, v), abs=1e-12)


def test_the_interleaved_schedule_refuses_m_that_is_not_a_multiple_of_p():
    with pytest.raises(ValueError, match="multiple of p"):
        interleaved_1f1b(16, 4, 2)


@pytest.mark.parametrize("p, m, v", [(16, 4, 2), (16, 4, 4), (4, 2, 4), (8, 4, 2)])
def test_with_fewer_micro_batches_than_stages_a_step_lasts_at_least_one_round_trip(p, m, v):
    """Each micro-batch crosses all p*v chunks forward and back: p (forward + backward) at the least."""
    forward, backward = 1.0, 2.0
    assert step_time(all_forwards_first(p, m, v), v, forward, backward) >= p * (forward + backward)
    assert idle_share(all_forwards_first(p, m, v), m, v) >= 1 - m / p


def test_the_old_exercise_9_6_was_below_the_floor(book):
    """p = 16, m = 4, v = 2: the formula says 65.2%, but no schedule can idle less than 1 - m/p = 75%."""
    assert book_idle_share(book, 16, 4, 2) < 1 - 4 / 16 < idle_share(all_forwards_first(16, 4, 2), 4, 2)
    assert book.exercise("9.6").env["m"] >= book.exercise("9.6").env["p"]

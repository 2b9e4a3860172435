"""A true identity is never graded wrong because floats (or 100 digits) lost it to cancellation.

`2M(N-1)/N + (M+N+1)^40 - (M+N+1)^40` for exercise 0.7 was "not equivalent", and counted: at a point
such as M+N = 10^6 the two big terms are 10^240, and what is left of 2M(N-1)/N after they cancel is
noise in floats and in 100 digits alike. The class report grades attempts again at fresh points, so such
noise could also make an honest "correct" look tampered with.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.exercise import NumericAnswer
from grader.grade import grade
from grader.maths.parse import parse
from grader.maths.symbolic import Points, compare
from tests.built_in import builtin_book

BOOK = builtin_book()
RING = BOOK.exercise("0.7")       # answer 2*M*(N-1)/N over M and N
assert isinstance(RING, NumericAnswer) and RING.answer is not None
ANSWER = parse(RING.answer, {"M", "N"})

CANCELLING = [
    "2M(N-1)/N + (M+N+1)^40 - (M+N+1)^40",                   # the attempt from the issue
    "2M(N-1)/N + (M*N)^30 - (M*N)^30",
    "(M+N)^20 + 2M(N-1)/N - (N+M)^20",
    "2M(N-1)/N + (M+N)^2 - M^2 - 2*M*N - N^2",               # the same polynomial, expanded
    "2M(N-1)/N + 1e200 - 1e200",
    "2M - 2M/N + (M+1)^35*(M+1) - (M+1)^36",
]


def at(point: dict[str, float]) -> Points:
    return Points(typical=(), wide=(point,) * 3)


@pytest.mark.parametrize("text", CANCELLING)
def test_a_point_where_big_terms_cancel_is_no_disproof(text):
    """At M = 10^6, N = 3 the old grader called each of these different from the answer."""
    tree = parse(text, {"M", "N"})
    assert compare(tree, ANSWER, at({"M": 1e6, "N": 3.0})).same is True


@pytest.mark.parametrize("text", CANCELLING)
def test_true_identities_with_cancelling_terms_are_never_incorrect(text):
    for _ in range(3):   # fresh random points each time
        verdict = grade(RING, text)
        assert verdict.status != "incorrect", verdict.message


def test_a_real_difference_hidden_among_big_terms_is_still_found():
    for text in ("2M(N-1)/N + (M+N+1)^40 - (M+N)^40", "2M(N-1)/N + 1e200 - 1e200 + 1",
                 "M(N-1)/N + (M*N)^30 - (M*N)^30"):
        tree = parse(text, {"M", "N"})
        assert compare(tree, ANSWER, at({"M": 1e6, "N": 3.0})).same is False, text
        assert grade(RING, text).status == "incorrect", text


whole = st.integers(min_value=1, max_value=9)


@settings(max_examples=150, deadline=None)
@given(a=whole, b=whole, c=whole, power=st.integers(min_value=2, max_value=40),
       m=st.floats(min_value=1e-4, max_value=1e12), n=st.integers(min_value=2, max_value=10**6),
       form=st.sampled_from(["{t}^{k} - {r}^{k}", "{t}^{k1}*{t} - {r}^{k}", "-{r}^{k} + {t}^{k}"]))
def test_no_point_disproves_an_identity_with_large_cancelling_terms(a, b, c, power, m, n, form):
    big, reordered = f"({a}*M + {b}*N + {c})", f"({c} + {b}*N + {a}*M)"
    text = "2*M*(N-1)/N + " + form.format(t=big, r=reordered, k=power, k1=power - 1)
    assert compare(parse(text, {"M", "N"}), ANSWER, at({"M": m, "N": float(n)})).same is not False, text


@settings(max_examples=15, deadline=None)
@given(a=whole, b=whole, c=whole, power=st.integers(min_value=20, max_value=40))
def test_grading_an_identity_with_large_cancelling_terms_never_says_incorrect(a, b, c, power):
    text = f"2M(N-1)/N + ({a}M + {b}N + {c})^{power} - ({c} + {b}N + {a}M)^{power}"
    assert grade(RING, text).status != "incorrect", text

"""Numbers, units and tolerances, on exercises built inline so each case states its own answer."""

import pytest

from grader.book.load import exercise_from_spec
from grader.grade import grade


def exercise(**spec):
    built, problems = exercise_from_spec(spec)
    assert built is not None, problems
    return built


GB = exercise(answer="2*M*(N-1)/N", params={"M": 1, "N": 8}, unit="GB")        # 1.75 GB
MS = exercise(answer="1000*2*M*(N-1)/N/B", params={"M": 2, "N": 8, "B": 50}, unit="ms")  # 70 ms
MB = exercise(answer="2*S*(t-1)/t", params={"S": 4096 * 8192 * 2 / 1e6, "t": 8}, unit="MB")  # 117.44 MB
PCT = exercise(answer="100*(p-1)/m", params={"p": 4, "m": 12}, unit="%")        # 25 %
TINY = exercise(answer="2^-14", tolerance=0.005)                                 # 6.1035e-5
LR = exercise(answer="3e-4*2048/256")                                            # 2.4e-3
BIG = exercise(answer="2^14", unit="steps")                                      # 16384


@pytest.mark.parametrize("case, text", [
    (GB, "1.75"), (GB, "7/4"), (GB, "1.75e0"), (GB, " 1.75 "), (GB, "1750 MB"), (GB, "1.75 GB"),
    (GB, "1750000 KB"), (GB, "1.6298 GiB"), (MS, "70"), (MS, "0.07 s"), (MS, "70ms"), (MS, "70000 us"),
    (MB, "117.44"), (MB, "112 MiB"), (MB, "0.11744 GB"), (PCT, "25"), (PCT, "25%"), (PCT, "25 %"),
    (TINY, "6.1035e-5"), (TINY, "6.1 x 10^-5"), (TINY, "6.1×10^-5"), (TINY, "2^-14"), (TINY, "6.1035 × 10^−5"),
    (LR, "2.4E-03"), (LR, "2.4×10^-3"), (LR, "2.4*10**-3"), (LR, "0.0024"), (LR, "24e-4"),
    (BIG, "16,384"), (BIG, "16384"), (BIG, "16384 steps"), (BIG, "2^14"),
])
def test_reads_as_correct(case, text):
    verdict = grade(case, text)
    assert verdict.status == "correct", verdict.message


@pytest.mark.parametrize("case, text, status, fragment", [
    (GB, "1,75", "invalid", "use a point: 1.75"),
    (GB, "1.75 ms", "incorrect", "You answered in ms (a time), but this box asks for GB (a data size)"),
    (GB, "25%", "incorrect", "a plain number"),
    (GB, "1.76", "incorrect", "check your rounding"),
    (GB, "17.5", "incorrect", "factor of 10^1"),
    (GB, "0.00175", "incorrect", "factor of 10^-3"),
    (GB, "-1.75", "incorrect", "wrong sign"),
    (GB, "3", "incorrect", "is not the answer"),
    (GB, "1.75 blorps", "invalid", "don't know the unit 'blorps'"),
    (GB, "1.75 GB/s", "incorrect", "You answered in GB/s (a bandwidth), but this box asks for GB"),  # counted
    # Not a size, time, bandwidth or plain number: a slip of the keyboard, said in words and not counted.
    (GB, "1.75 T", "invalid", "T is tesla, not a data size: this box is in GB. Did you mean TB?"),
    (GB, "1.75 G", "invalid", "G is gauss, not a data size: this box is in GB. Did you mean GB?"),
    (MS, "70 mS", "invalid", "mS is millisiemens, not a time: this box is in ms. Did you mean ms?"),
    (GB, "1.75 furlongs", "invalid", "furlongs is furlong, not a data size: this box is in GB."),
    (GB, "1.75 GB GB", "invalid", "don't know the unit"),
    (PCT, "0.25", "invalid", "This box is in percent: write 25 (or 25%), not 0.25"),   # not counted
    (PCT, "1/4", "invalid", "write 25 (or 25%), not 0.25"),
    (BIG, "16384 GB", "invalid", "This box counts steps"),
    (LR, "2.4e-3 GB", "invalid", "plain number"),
    (GB, "M", "invalid", "no number"),
    (GB, "", "invalid", "Type an answer"),
])
def test_near_misses_say_what_happened(case, text, status, fragment):
    verdict = grade(case, text)
    assert verdict.status == status
    assert fragment in verdict.message


def test_invalid_never_counts_as_an_attempt():
    assert not grade(GB, "1,75").counts_as_attempt
    assert grade(GB, "3").counts_as_attempt


def test_mistake_feedback_wins_over_generic_messages():
    case = exercise(answer="2*M*(N-1)/N", params={"M": 1, "N": 8}, unit="GB",
                    mistakes=[{"answer": "M*(N-1)/N", "feedback": "One phase only."}])
    verdict = grade(case, "0.875")
    assert verdict.status == "incorrect" and verdict.feedback == "One phase only."


def test_parse_errors_name_the_column():
    verdict = grade(GB, "2 + (3")
    assert verdict.status == "invalid" and verdict.column == 5


BANDWIDTH = exercise(answer="8*L/8", params={"L": 50}, unit="GB/s")              # 50 GB/s: a 400 Gb/s port


@pytest.mark.parametrize("case, text", [
    (BANDWIDTH, "400 Gb/s"), (BANDWIDTH, "0.4 Tb/s"), (BANDWIDTH, "400000 Mb/s"), (BANDWIDTH, "400 Gbit/s"),
    (BANDWIDTH, "50 GB/s"), (BANDWIDTH, "400e9 b/s"), (GB, "14 Gb"), (GB, "14000 Mb"), (MB, "939.52 Mb"),
])
def test_bits_mean_bits(case, text):
    """pint read `Gb` as the gilbert, a unit of magnetomotive force: "3200 Gb/s" was "a current / time"."""
    verdict = grade(case, text)
    assert verdict.status == "correct", verdict.message


def test_the_books_own_bandwidth_answer_in_gigabits_is_right(book):
    exercise = book.exercise("13.1")                # k ports of R Gb/s each: k*R Gb/s in all
    verdict = grade(exercise, f"{exercise.params['k'] * exercise.params['R']} Gb/s")
    assert exercise.unit == "GB/s" and verdict.status == "correct", verdict.message


def test_every_unit_the_book_writes_reads_as_what_it_means(book):
    """The box units and every size or bandwidth written after a number in an exercise's texts."""
    from grader.maths.units import misread_unit, registry, size_spellings

    numeric = [e for e in book.exercises if hasattr(e, "unit")]
    spellings = {e.unit for e in numeric} | {s for e in numeric for t in e.texts for s in size_spellings(t)}
    assert {"Gb/s", "GB/s", "GB", "MB"} <= spellings
    assert [(unit, misread_unit(unit)) for unit in sorted(spellings) if misread_unit(unit)] == []
    assert str(registry().Quantity(1, "Gb/s").dimensionality) == "[information] / [time]"

"""Choices and design items are dealt afresh for every variant and review (grader.exercise `deal`, set by
grader.book.variants.pose): the seed decides the order, so it is reproducible; letters and positions follow the
order shown; ids, which the store keeps, never change; seed 0 is the book's own order, as the chapter and its
snapshots show it. Before, every seed showed the same order, so "it's D" was what a learner remembered."""

from grader.book.variants import pose
from grader.draws import fixed_shuffle
from grader.grade import grade
from grader.kinds.registry import label
from tui.progress.review import practice_seed, review_seed

SEEDS = [review_seed("0.4", n) for n in range(1, 51)]


def letter_of_right(exercise) -> str:
    return "ABCDEF"[[o.correct for o in exercise.presented_options].index(True)]


def test_the_right_option_of_0_4_moves_between_letters_over_50_seeds(book):
    letters = {letter_of_right(pose(book.exercise("0.4"), seed)) for seed in SEEDS}
    assert len(letters) >= 3, letters


def test_a_letter_means_the_option_shown_under_it_for_that_seed(book):
    for seed in SEEDS[:10]:
        posed = pose(book.exercise("0.4"), seed)
        right = letter_of_right(posed)
        assert grade(posed, right.lower()).status == "correct"
        wrong = next(letter for letter in "ABCD" if letter != right)
        assert grade(posed, wrong).status == "incorrect"
        assert grade(posed, posed.correct_option.id).status == "correct"   # the id the store keeps still grades
        assert label(posed, posed.correct_option.id) == f"{right}  {posed.correct_option.text}"


def test_seed_0_is_the_books_own_order(book):
    for exercise in book.exercises:
        if exercise.kind == "design":
            assert pose(exercise, 0) is exercise
            assert exercise.presented == fixed_shuffle(exercise.items, exercise.id, avoid=exercise.order)
        elif getattr(exercise, "options", ()):
            assert [o.id for o in pose(exercise, 0).presented_options] == \
                [o.id for o in fixed_shuffle(exercise.options, exercise.id)]


def test_a_design_is_dealt_afresh_reproducibly_never_solved_with_its_ids_kept(book):
    exercise = book.exercise("0.8")
    chapter = [item.id for item in exercise.presented]
    deals = [[item.id for item in pose(exercise, seed).presented] for seed in SEEDS]
    assert sum(deal != chapter for deal in deals) >= 40
    assert len({tuple(deal) for deal in deals}) >= 10
    assert all(sorted(deal) == sorted(chapter) and deal != list(exercise.order) for deal in deals)
    assert deals[0] == [item.id for item in pose(exercise, SEEDS[0]).presented]     # the same seed, the same deal
    again = pose(exercise, SEEDS[0])
    positions = ", ".join(str([i.id for i in again.presented].index(item) + 1) for item in exercise.order)
    assert grade(again, positions).status == "correct"                              # positions follow the deal


def test_a_choice_that_does_not_vary_is_dealt_all_the_same(book):
    exercise = book.exercise("8.4")
    assert not exercise.vary
    orders = {tuple(o.id for o in pose(exercise, practice_seed("8.4", n)).presented_options) for n in range(1, 21)}
    assert len(orders) >= 3
    assert all(pose(exercise, seed).prompt == exercise.prompt for seed in SEEDS[:3])

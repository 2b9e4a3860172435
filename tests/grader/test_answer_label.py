"""Stored answers in the learner's terms (each kind's `label`, through grader.kinds.registry.label): the
attempt list and the class report showed ids such as `ring-one-phase` and `rs-first, owns-one` instead."""

from grader.kinds.registry import label


def test_an_option_is_its_letter_and_text(book):
    exercise = book.exercise("0.4")
    for letter, option in zip("ABCD", exercise.presented_options, strict=True):
        assert label(exercise, option.id) == f"{letter}  {option.text}"


def test_a_design_is_its_items_names_in_the_order_given(book):
    exercise = book.exercise("9.8")
    shown = label(exercise, ", ".join(exercise.order))
    first = next(item for item in exercise.items if item.id == exercise.order[0])
    assert shown.split(" → ")[0] == first.text.split(":")[0]
    assert not any(item_id in shown for item_id in exercise.order if len(item_id) > 3)


def test_a_debug_pick_is_its_line(book):
    exercise = next(e for e in book.exercises if e.kind == "debug")
    assert label(exercise, "2") == f"line 2: {exercise.lines[1].strip()}"


def test_what_cannot_be_placed_is_shown_as_it_is(book):
    assert label(book.exercise("0.4"), "no-such-option") == "no-such-option"
    assert label(book.exercise("0.1"), "  1.75   GB ") == "1.75 GB"

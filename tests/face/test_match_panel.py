"""A match exercise in the app: pairs typed in the box, chosen in the table with the keys its footer shows,
or with the mouse; each item marked right or wrong after a wrong answer."""

from __future__ import annotations

from grader.kinds.match import stored
from tests.helpers import (
    footer_keys,
    offered_keys,
    open_exercise,
    ringbook_app,
    settle,
    text_of,
    wait_until,
    wait_until_still,
)
from tui.answers.pairs import PairsPanel, PairTable
from tui.widgets.page import Page

ZERO = "1.9"


async def test_pairs_typed_in_the_box_are_graded_and_kept_by_ids(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, ZERO)
        exercise = screen.query_one("#answer-panel", PairsPanel).exercise
        wrong = dict(exercise.pairs, z1="b3_75")
        screen.query_one("#pairs-typed").focus()
        await pilot.press(*exercise.positions(wrong).upper().replace(" ", ", "), "enter")
        await settle(app, pilot)
        assert "3 of 4 pairs are right." in text_of(screen.query_one("#verdict"))
        row = screen.query_one(f"#item-{'abcd'.index(exercise.letter('z1'))}")
        assert text_of(row).startswith("✗ ")
    assert [a.answer for a in store.attempts(ZERO)] == [stored(wrong)]


async def test_the_table_takes_letters_digits_and_arrows_shown_in_the_footer(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, ZERO)
        table = screen.query_one("#pairs-table", PairTable)
        exercise = table.exercise
        table.focus()
        await pilot.pause()
        keys = offered_keys(app)
        # the footer's a-h is b while a is picked (a would change nothing)
        assert {keys[k] for k in ("up", "b", "left", "1", "enter")} == {"Item", "Option", "Give", "Submit"}
        for side in reversed(exercise.presented_left):            # letters pick, digits give
            await pilot.press(exercise.letter(side.id), str(exercise.number(exercise.pairs[side.id])))
        first = exercise.presented_left[0].id
        await pilot.press("a", "right")                           # arrows step to the next option and back
        assert table.chosen[first] == exercise.presented_right[exercise.number(exercise.pairs[first]) %
                                                               len(exercise.presented_right)].id
        await pilot.press("left")
        assert table.chosen == exercise.pairs
        await pilot.press("enter")
        await settle(app, pilot)
    assert [a.status for a in store.attempts(ZERO)] == ["correct"]


async def test_the_mouse_picks_an_item_then_gives_it_an_option(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 40)) as pilot:
        screen = await open_exercise(app, pilot, ZERO)
        table = screen.query_one("#pairs-table", PairTable)
        exercise = table.exercise
        for index, side in enumerate(exercise.presented_left):
            await pilot.click(f"#item-{index}")
            await pilot.click(f"#option-{exercise.number(exercise.pairs[side.id])}")
        assert table.chosen == exercise.pairs
        assert all(text_of(screen.query_one(f"#item-{i}")).endswith(exercise.text_of(exercise.pairs[side.id]))
                   for i, side in enumerate(exercise.presented_left))



async def test_the_picked_item_is_marked_in_text_comes_into_view_and_the_footer_offers_another_letter(book, store):
    """↑ on the first item picked the last, but only its colour said so (the keyboard walk, which reads the
    screen's text, saw nothing change; nor would a NO_COLOR terminal): the picked item carries a ▶, as a
    design's cursor does, and scrolls into view. The footer's a-h stood for a, which changes nothing while a
    is picked: it stands for b then."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, ZERO)
        table = screen.query_one("#pairs-table", PairTable)
        page = screen.query_one("#exercise", Page)
        last = len(table.exercise.presented_left) - 1
        table.focus()
        await settle(app, pilot)
        assert text_of(screen.query_one("#item-0")).startswith("▶")
        assert [key.key for key in footer_keys(screen) if key.key_display == "a-h"] == ["b"]
        await pilot.press("up")
        await settle(app, pilot)
        assert table.cursor == last and text_of(screen.query_one(f"#item-{last}")).startswith("▶")
        assert not text_of(screen.query_one("#item-0")).startswith("▶")
        assert [key.key for key in footer_keys(screen) if key.key_display == "a-h"] == ["a"]
        await pilot.press("a")
        await settle(app, pilot)
        assert table.cursor == 0 and text_of(screen.query_one("#item-0")).startswith("▶")
        await pilot.press("x", "x", "end")            # the worked answer shown, the page's end: the table above
        await wait_until_still(pilot, lambda: page.scroll_y, "the page at its end")
        assert not page.content_region.contains_region(screen.query_one("#item-1").region)
        await pilot.press("b")
        await wait_until(pilot, lambda: page.content_region.contains_region(screen.query_one("#item-1").region),
                         "item b in view")

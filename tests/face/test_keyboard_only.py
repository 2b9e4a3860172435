"""Every debug and design exercise, and a build exercise typed key by key, solved with the keyboard
alone (no mouse). One build is typed in full, a short correct solution (about 8 s of key presses); the
others use the same editor and keys."""

from __future__ import annotations

from textual.widgets import TextArea

from grader.kinds.debug import Debug
from grader.kinds.design import Design
from tests.helpers import open_exercise, ringbook_app, settle, text_of
from tui.widgets.order_list import OrderList

KEY_NAMES = {"\n": "enter", " ": "space", "\t": "tab"}


TYPED_BUILD = "0.5"
TYPED_SOLUTION = ("def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n"
                  "    return 2 * (n - 1) * (m_gb / n / bw_gbs * 1000 + latency_us / 1000)\n")


def hands_on_ids(book):
    return [e.id for e in book.exercises if isinstance(e, (Debug, Design)) or e.id == TYPED_BUILD]


def pytest_generate_tests(metafunc):
    if "exercise_id" in metafunc.fixturenames:
        from tests.built_in import builtin_book

        metafunc.parametrize("exercise_id", hands_on_ids(builtin_book()))


async def test_solved_with_keys_only(book, store, exercise_id):
    exercise = book.exercise(exercise_id)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise_id)
        if isinstance(exercise, Debug):
            await pilot.press("home", *["down"] * (exercise.buggy_line - 1), "enter")
        elif isinstance(exercise, Design):
            order = screen.query_one("#order", OrderList)
            await pilot.press(*["up"] * order.cursor)                    # the cursor to the top
            for target, item_id in enumerate(exercise.order):           # each item in turn, from the top
                at = order.order.index(item_id)
                if at != target:                                         # down to it, pick it up, up, drop
                    await pilot.press(*["down"] * (at - order.cursor), "space", *["up"] * (at - target), "space")
            assert order.order == list(exercise.order) and not order.held
            await pilot.press("enter")
        else:
            editor = screen.query_one("#editor", TextArea)
            assert app.focused is editor
            await pilot.press("f7", "delete")                        # select all, then clear
            await pilot.press(*(KEY_NAMES.get(ch, ch) for ch in TYPED_SOLUTION))
            assert editor.text == TYPED_SOLUTION
            await pilot.press("ctrl+r")
        await settle(app, pilot)
        verdict = text_of(screen.query_one("#verdict"))
        assert verdict.startswith("✓"), verdict

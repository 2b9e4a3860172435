"""The hands-on views, driven with Pilot: drag to order, keyboard reorder, pick a line, run code."""

from __future__ import annotations

from textual.widgets import TextArea

from grader import sandbox
from tui.app import RingbookApp
from tui.widgets.order_list import OrderList

from tests.face.test_learning_loop import open_exercise, settle, text_of


async def test_a_real_mouse_drag_reorders(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        top = order.content_region.y - order.region.y
        start = order.order.index("tp")
        assert start != 0
        await pilot.mouse_down("#order", offset=(6, top + start))
        await pilot.hover("#order", offset=(6, top))
        assert order.order[0] == "tp" and order.dragging          # the list shows where it will land
        await pilot.mouse_up("#order", offset=(6, top))
        assert order.order[0] == "tp" and not order.dragging


async def test_a_drag_released_outside_or_escaped_is_put_back(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        before = list(order.order)
        top = order.content_region.y - order.region.y
        await pilot.mouse_down("#order", offset=(6, top + 3))
        await pilot.hover("#order", offset=(6, top))
        await pilot.mouse_up("#exercise-title")                  # released outside the list
        assert order.order == before
        await pilot.mouse_down("#order", offset=(6, top + 3))
        await pilot.hover("#order", offset=(6, top))
        await pilot.press("escape")
        assert order.order == before and not order.dragging


async def test_keyboard_reorder_and_submit_to_solved(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        assert app.focused is order
        await pilot.press("enter")                               # the shuffle is never already right
        await settle(app, pilot)
        verdict = text_of(screen.query_one("#verdict"))
        assert "is wrong" in verdict and "items are in the right place" in verdict
        assert order.wrong_position is not None
        for target, item_id in enumerate(screen.exercise.order):  # Space picks up, arrows carry, Space drops
            order.cursor = order.order.index(item_id)
            await pilot.press("space", *["up"] * (order.cursor - target), "space")
        assert order.order == list(screen.exercise.order)
        order.cursor = 1
        await pilot.press("alt+down", "alt+up")                   # the direct move, there and back
        assert order.order == list(screen.exercise.order)
        await pilot.press("enter")
        await settle(app, pilot)
        assert "right order" in text_of(screen.query_one("#verdict"))
        assert screen.query_one("#explanation").display
    assert [a.status for a in store.attempts("9.8")] == ["incorrect", "correct"]


async def test_space_pick_up_then_escape_puts_the_item_back(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "8.8")
        order = screen.query_one("#order", OrderList)
        before = list(order.order)
        await pilot.press("space", "down", "down", "escape")
        assert order.order == before and not order.held


async def test_an_endless_loop_is_stopped_while_the_ui_keeps_answering(book, store, monkeypatch):
    # A longer wall than a learner gets, so that "still running" cannot depend on how loaded the machine is.
    monkeypatch.setattr(sandbox, "WALL_SECONDS", 6.0)
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        screen.query_one("#editor", TextArea).text = screen.exercise.solution
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "✓" in text_of(screen.query_one("#verdict"))
        screen.query_one("#editor", TextArea).text = (
            "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    while True:\n        pass\n")
        await pilot.press("ctrl+r")
        await pilot.pause(0.3)
        assert "Running the tests" in text_of(screen.query_one("#verdict-details"))
        await pilot.press("escape", "h")                          # the UI answers keys while the code runs:
        await pilot.pause()
        assert "Hint 1 of" in text_of(screen.query_one("#hints"))
        assert "Running the tests" in text_of(screen.query_one("#verdict-details"))  # the run is still going
        assert not text_of(screen.query_one("#verdict"))         # not the last run's "all pass"
        await settle(app, pilot)
        assert "stopped after 6 s" in text_of(screen.query_one("#verdict"))
    assert [a.status for a in store.attempts("0.5")] == ["correct", "incorrect"]


async def test_a_drag_released_on_the_row_under_the_last_item_lands_last(book, store):
    """It snapped back: the row under the last item is the list's border, outside its content."""
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        top = order.content_region.y - order.region.y
        first = order.order[0]
        below_last = top + len(order.order)                        # the border under the last row
        await pilot.mouse_down("#order", offset=(6, top))
        await pilot.hover("#order", offset=(6, below_last))
        await pilot.mouse_up("#order", offset=(6, below_last))
        assert order.order[-1] == first and not order.dragging

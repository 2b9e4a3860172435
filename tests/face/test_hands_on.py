"""The hands-on views, driven with Pilot: drag to order, keyboard reorder, pick a line, run code."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from grader.sandbox import runner as sandbox
from tests.helpers import footer_keys, open_exercise, settle, text_of, wait_until
from tui.app import RingbookApp
from tui.widgets.order_list import OrderList


async def test_a_real_mouse_drag_reorders(book, store):
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        top = order.content_region.y - order.region.y
        start = order.order.index("tp")
        assert start != 0
        await pilot.mouse_down("#order", offset=(6, top + order.item_of_row.index(start)))   # its first row
        await pilot.hover("#order", offset=(6, top))
        assert order.order[0] == "tp" and order.dragging          # the list shows where it will land
        await pilot.mouse_up("#order", offset=(6, top))
        assert order.order[0] == "tp" and not order.dragging


async def test_a_drag_released_outside_or_escaped_is_put_back(book, store):
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        before = list(order.order)
        top = order.content_region.y - order.region.y
        last = top + order.item_of_row.index(3)                   # the last item's first row
        await pilot.mouse_down("#order", offset=(6, last))
        await pilot.hover("#order", offset=(6, top))
        await pilot.mouse_up("#exercise-title")                  # released outside the list
        assert order.order == before
        await pilot.mouse_down("#order", offset=(6, last))
        await pilot.hover("#order", offset=(6, top))
        await pilot.press("escape")
        assert order.order == before and not order.dragging


async def test_keyboard_reorder_and_submit_to_solved(book, store):
    app = RingbookApp(book, store, quiet_host=True)
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
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "8.8")
        order = screen.query_one("#order", OrderList)
        before = list(order.order)
        await pilot.press("space", "down", "down", "escape")
        assert order.order == before and not order.held


async def test_alt_arrows_at_either_end_of_the_order_say_why_the_item_stays(book, store):
    """alt+↑ on the first item (alt+↓ on the last) did nothing (the keyboard walk found it): the item stays, and a
    notice says which way it can go."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "8.8")
        order = screen.query_one("#order", OrderList)
        before = list(order.order)
        await pilot.press("alt+up")
        await pilot.press(*["down"] * (len(before) - 1), "alt+down")
        assert order.order == before
        said = [notice.message for notice in app._notifications]
        assert any(message.startswith("Item 1 is first") for message in said), said
        assert any(message.startswith(f"Item {len(before)} is last") for message in said), said


async def test_an_endless_loop_is_stopped_while_the_ui_keeps_answering(book, store, monkeypatch):
    # A longer wall than a learner gets, so that "still running" cannot depend on how loaded the machine is.
    monkeypatch.setattr(sandbox, "WALL_SECONDS", 6.0)
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        screen.query_one("#editor", TextArea).text = screen.exercise.solution
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "✓" in text_of(screen.query_one("#verdict"))
        await pilot.press("i")                                    # passed: the page had the keys; the editor back
        screen.query_one("#editor", TextArea).text = (
            "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    while True:\n        pass\n")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: "Running the tests" in text_of(screen.query_one("#verdict-details")),
                         "the endless run showing as running")
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
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)
        top = order.content_region.y - order.region.y
        first = order.order[0]
        below_last = top + len(order.item_of_row)                  # the border under the last row
        await pilot.mouse_down("#order", offset=(6, top))
        await pilot.hover("#order", offset=(6, below_last))
        await pilot.mouse_up("#order", offset=(6, below_last))
        assert order.order[-1] == first and not order.dragging


def screen_lines(app) -> list[str]:
    """The screen as the terminal shows it, line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def in_box(line: str) -> str:
    """A screen line's text inside a list's box (its tall border ▊ ▎), without the page's scrollbar."""
    return line.split("▎")[0].strip(" ▊")


def row_of(app, start: str) -> str:
    """The one screen line whose text in its box starts with `start`."""
    [row] = [in_box(line) for line in screen_lines(app) if in_box(line).startswith(start)]
    return row


async def test_a_wrong_pick_is_marked_in_the_choice_list_and_the_right_one_once_known(book, store):
    """Issue 23: the quiz marked a wrong pick in its list; an exercise's choice list did not."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "12.3")
        options = screen.exercise.presented_options
        right = next(i for i, o in enumerate(options) if o.correct)
        wrong = [i for i in range(len(options)) if i != right]
        letter = "ABCDEF"
        await pilot.press(letter[wrong[0]].lower())
        await settle(app, pilot)
        assert row_of(app, f"{letter[wrong[0]]}  ").endswith(" ✗")
        await pilot.press(letter[wrong[1]].lower())
        await settle(app, pilot)
        assert row_of(app, f"{letter[wrong[0]]}  ").endswith(" ✗")   # each wrong pick stays marked
        assert row_of(app, f"{letter[wrong[1]]}  ").endswith(" ✗")
        assert not row_of(app, f"{letter[right]}  ").endswith("✓")   # not given away before it is known
        await pilot.press("x", "x")                                  # the list has the keys: x asks, x explains
        await pilot.pause()
        screen.query_one("#choices").scroll_visible(animate=False)
        await pilot.pause()
        assert row_of(app, f"{letter[right]}  ").endswith(" ✓")      # the explanation has told it


async def test_a_right_pick_is_marked_in_the_choice_list(book, store):
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "12.3")
        right = next(i for i, o in enumerate(screen.exercise.presented_options) if o.correct)
        await pilot.press("abcdef"[right])
        await settle(app, pilot)
        screen.query_one("#choices").scroll_visible(animate=False)
        await pilot.pause()
        assert row_of(app, f"{'ABCDEF'[right]}  ").endswith(" ✓")


async def test_the_debug_listing_cursor_shows_without_colour(book, store, monkeypatch):
    """Issue 23: with NO_COLOR the highlighted line differed only by a grey background; it carries a `▶`
    as the design view's cursor does."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.6")
        cursor = [in_box(line) for line in screen_lines(app) if "▶" in line]
        assert len(cursor) == 1 and cursor[0].startswith("▶ 1  def ")
        await pilot.press("down", "down")
        await pilot.pause()
        cursor = [in_box(line) for line in screen_lines(app) if "▶" in line]
        assert len(cursor) == 1 and cursor[0].startswith("▶ 3  ")
        await pilot.press("enter")
        await settle(app, pilot)
        if screen.exercise.buggy_line != 3:
            assert row_of(app, "✗▶ 3  ")                              # a mark and the cursor side by side


async def test_exercise_text_reads_at_the_chapter_s_width_on_a_wide_terminal(book, store):
    """Issue 23: at 120 columns an exercise's prompt ran 114 columns wide; chapter text is capped at 86."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_exercise(app, pilot, "0.4")
        for selector in ("#prompt", "#answer-panel", "#verdict", "#explanation"):
            assert screen.query_one(selector).outer_size.width <= 86, selector
        prompt = screen.query_one("#prompt")
        assert prompt.outer_size.width == 86            # the cap, not a narrower layout


async def test_every_design_item_reads_whole_at_80_columns(book, store):
    """Issue 23: items longer than a line ended in "…" (only the highlighted one was shown whole, under the
    list). Each wraps under its own text now, and a click on any of its rows picks that item."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for exercise in (e for e in book.exercises if e.kind == "design"):
            screen = await open_exercise(app, pilot, exercise.id)
            order = screen.query_one("#order", OrderList)
            rows = order.render().plain.split("\n")
            assert "…" not in order.render().plain and len(rows) == len(order.item_of_row)
            for index, item_id in enumerate(order.order):
                words = " ".join(rows[row][order._indent():].strip() for row, item in enumerate(order.item_of_row)
                                 if item == index)
                assert words == " ".join(order.by_id[item_id].text.split()), (exercise.id, item_id)
                assert rows[order.item_of_row.index(index)].strip().startswith(f"{index + 1}.") or index == order.cursor
            assert max(len(row) for row in rows) <= order.content_size.width
            app.pop_screen()
            await pilot.pause()
        order = (await open_exercise(app, pilot, "9.8")).query_one("#order", OrderList)
        top = order.content_region.y - order.region.y
        rows_of_second = [row for row, item in enumerate(order.item_of_row) if item == 1]
        assert len(rows_of_second) > 1
        await pilot.click("#order", offset=(12, top + rows_of_second[-1]))   # its second row
        assert order.cursor == 1


async def test_a_build_starter_s_long_first_line_reads_whole_at_80_columns(book, store):
    """Issue 23: the editor cut the starter's line 1 (the whole `def` line) at the box's edge; it wraps."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        editor = screen.query_one("#editor", TextArea)
        first = editor.text.splitlines()[0]
        assert len(first) > editor.content_size.width                 # the case: longer than the box
        screen.query_one("#exercise").scroll_to_widget(editor, animate=False, top=True)
        await pilot.pause()
        rows = [in_box(line) for line in screen_lines(app)]
        [at] = [i for i, row in enumerate(rows) if row.startswith("1  def ")]
        shown = rows[at].removeprefix("1") + " " + rows[at + 1]   # line 1 and the row it wraps onto
        assert " ".join(shown.split()) == " ".join(first.split())


async def test_the_footer_says_drop_while_an_item_is_carried(book, store):
    """Issue 45, 2.10: the footer kept `space Pick` while an item was carried, where space drops it."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "9.8")
        order = screen.query_one("#order", OrderList)

        def space_says() -> str | None:
            return next((key.description for key in footer_keys(screen) if key.key == "space"), None)

        await wait_until(pilot, lambda: space_says() == "Pick", "space Pick in the footer")
        await pilot.press("space")
        assert order.held
        await wait_until(pilot, lambda: space_says() == "Drop", "space Drop while an item is carried")
        await pilot.press("space")
        assert not order.held
        await wait_until(pilot, lambda: space_says() == "Pick", "space Pick once it is dropped")


@pytest.mark.parametrize(("exercise_id", "said"), [("0.6", "a click on a line submits it"),
                                                    ("0.4", "a click submits the option at once")])
async def test_a_pick_by_click_is_said_to_submit(book, store, exercise_id, said):
    """Issue 45, 2.10: one click on a debug line or an option submitted it, and nothing on screen said so."""
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise_id)
        shown = " ".join(text_of(static) for static in screen.query(".submits-at-once"))
        assert said in shown


@pytest.mark.parametrize(("exercise_id", "start", "rest"), [
    ("1.6", "B  ZeRO-3, plus activation checkpointing", "headroom"),         # a choice's option
    ("1.8", '2      """Model-state GB per GPU', 'ZeRO."""'),                 # a debug listing's line
])
async def test_a_long_option_or_line_wraps_under_its_text_not_its_label(book, store, exercise_id, start, rest):
    app = RingbookApp(book, store, quiet_host=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, exercise_id)
        lines = [line.replace("\u00a0", " ") for line in screen_lines(app)]
        first = next(i for i, line in enumerate(lines) if start in line)
        label_end = lines[first].index(start) + len(start.split("  ")[0])   # where the label ends
        wrapped = lines[first + 1]
        assert rest in wrapped, lines[first:first + 2]
        assert wrapped.index(rest) > label_end, f"wrapped under the label: {wrapped!r}"

"""The Parallelism Paradox lab's screen driven with Pilot on the real store: locked until a prediction, live
figures and plots, the OOM and cross-node warnings, the design saved to the ledger. Its model and its file are
tested without the app in tests/grader/test_lab_model.py. Snapshots live in snapshots/test_lab/."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from grader.lab.design import LabDesign
from grader.lab.model import GPU_COUNTS, PP_DEGREES, DataParallelSetup, ThreeDSetup, data_parallel_mfu, three_d_figures
from tests.built_in import builtin_book
from tests.expected import lab as EXPECTED
from tests.helpers import footer_keys, ringbook_app, wait_until, wait_until_still
from tui.app import RingbookApp
from tui.progress.runs import keep_lab_design
from tui.progress.store import ProgressStore
from tui.widgets.choice_question import ChoiceQuestion
from tui.widgets.stepper import Stepper

# --- the screen -----------------------------------------------------------------------------------------

@asynccontextmanager
async def lab_opened(store: ProgressStore, **run_test: Any) -> AsyncIterator[tuple[RingbookApp, Pilot]]:
    """The real app, with the lab opened from home as a learner opens it; the lab screen stands still."""
    app = ringbook_app(builtin_book(), store)   # the book read once per process, not per app
    async with app.run_test(size=(80, 24), **run_test) as pilot:
        await open_the_lab(pilot)
        yield app, pilot


async def open_the_lab(pilot: Pilot) -> None:
    app = pilot.app
    assert isinstance(app, RingbookApp)
    lab = app.session.book.lab("parallelism-paradox")
    assert lab is not None, "the built-in book has the lab"
    app.open_lab(lab)
    await _settle(pilot)


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def plot_text(screen, act_id: str) -> str:
    plot = screen.query_one(f"#{act_id}-plot")
    plot.plt.plotsize(plot.size.width, plot.size.height)
    return plot.plt.build()


ANSI_STYLE = re.compile(r"\x1b\[[0-9;]*m")


def plot_lines(screen, act_id: str) -> list[str]:
    """The plot as plain text, one string per row, as a NO_COLOR terminal shows it."""
    return ANSI_STYLE.sub("", plot_text(screen, act_id)).splitlines()


def marks(lines: list[str], marker: str) -> list[tuple[int, int]]:
    return [(row, col) for row, line in enumerate(lines) for col, char in enumerate(line) if char == marker]


def x_tick_at(lines: list[str], col: int) -> str:
    """The x-axis label nearest to column `col` (labels sit on the row below the axis line)."""
    axis = next(row for row, line in enumerate(lines) if "└" in line)
    labels = [(abs((m.start() + m.end() - 1) / 2 - col), m.group()) for m in re.finditer(r"\S+", lines[axis + 1])]
    return min(labels)[1]


def y_value_at(lines: list[str], row: int) -> tuple[float, float]:
    """The value the y axis gives row `row`, and how much one row spans, from the axis labels (`54.2┤`)."""
    labelled = [(r, float(line.split("┤")[0])) for r, line in enumerate(lines) if "┤" in line]
    (top_row, top), (bottom_row, bottom) = labelled[0], labelled[-1]
    per_row = (top - bottom) / (bottom_row - top_row)
    return top - (row - top_row) * per_row, per_row


async def test_the_plots_draw_your_setting_in_both_acts(store):
    """Issue 16, item 3: Act II multiplied a curve already in % by 100, so the dot landed at 2727% off the axis."""
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        keys = {"data-parallel": ("2", "enter", "tab", "right", "right", "right"),   # Act I: 8 -> 64 GPUs
                "three-d": ("a", "2", "enter", "tab", "right")}                     # Act II: PP 4 -> 8, m = 8
        settings = {"data-parallel": ("64", EXPECTED.MFU[64]), "three-d": ("8", 100 * (8 - 1) / (8 + 8 - 1))}
        for act_id, (tick, value) in settings.items():
            await pilot.press(*keys[act_id])
            await pilot.pause()
            lines = plot_lines(screen, act_id)                 # a plot is drawn at its size while its tab shows
            [(row, col)] = marks(lines, "●")
            assert x_tick_at(lines, col) == tick, act_id
            shown, per_row = y_value_at(lines, row)
            assert abs(shown - value) <= per_row, (act_id, shown, value)
        assert screen.three_d.pp == 8 and screen.data_parallel.gpus == 64


async def test_out_of_memory_gpu_counts_are_marked_not_drawn_as_running(store):
    """Issue 13, 11d: by a marker of their own, so NO_COLOR users see it, and named in the caption."""
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("2", "enter")
        await pilot.pause()
        lines = plot_lines(screen, "data-parallel")
        assert sorted(x_tick_at(lines, col) for _, col in marks(lines, "!")) == ["1", "2"]
        caption = str(screen.query_one("#data-parallel-instruments .caption", Static).render())
        assert "! marks a GPU count where the setup is out of memory" in caption
        await pilot.press("right", "right")                                     # 7B -> 70B: nothing fits
        await pilot.pause()
        assert screen.data_parallel.model.name == "70B"
        lines = plot_lines(screen, "data-parallel")
        [(_, col)] = marks(lines, "●")                                          # your setting, 8 GPUs, on top
        assert x_tick_at(lines, col) == "8"
        assert sorted(x_tick_at(lines, col) for _, col in marks(lines, "!")) == sorted(
            str(n) for n in GPU_COUNTS if n != 8)
        assert "Out of memory" in text_of(screen, "#data-parallel-warnings")


async def test_instruments_stay_locked_until_a_prediction(store):
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        for act_id in ("data-parallel", "three-d"):
            assert not screen.query_one(f"#{act_id}-instruments").display
            assert screen.query_one(f"#{act_id}-locked").display
        for _ in range(8):                                   # Tab never reaches a locked control
            await pilot.press("tab")
            assert not isinstance(app.focused, Stepper)
        await pilot.press("s")                               # nor can a design be saved
        assert store.entries("lab") == []
        await pilot.press("enter")                           # Enter without a pick commits nothing
        assert screen.query_one("#data-parallel-prediction", ChoiceQuestion).chosen is None


async def test_a_prediction_unlocks_the_instruments_and_reveals_its_feedback(store):
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("3", "enter")
        await pilot.pause()
        question = screen.query_one("#data-parallel-prediction", ChoiceQuestion)
        assert question.chosen.id == "hbm" and question.options.disabled
        feedback = str(question.query_one(".question-feedback", Static).render())
        assert "Not this one" in feedback and "The answer is 2)" in feedback
        assert screen.query_one("#data-parallel-instruments").display
        assert not screen.query_one("#data-parallel-locked").display
        assert isinstance(app.focused, Stepper) and app.focused.id == "model-size"
        assert not screen.query_one("#three-d-instruments").display   # each act has its own lock


async def test_up_and_down_move_between_the_controls_and_left_right_change_the_one_reached(store):
    """Issue 23, 5: ↓ scrolled the page and left "Model size" focused, so → changed the model when the
    learner meant the GPUs. Now ↑/↓ move between the controls (the one reached in view), ←/→ change that
    one, ↓ past the last goes on to the open reflection, and the page keys still scroll the page."""
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("2", "enter")
        await pilot.pause()
        assert app.focused.id == "model-size"
        model, gpus = screen.query_one("#model-size", Stepper).value, screen.query_one("#gpus", Stepper).value
        await pilot.press("down", "right")
        await pilot.pause()
        assert app.focused.id == "gpus" and app.focused.value == GPU_COUNTS[GPU_COUNTS.index(gpus) + 1]
        assert screen.query_one("#model-size", Stepper).value == model
        scroll = screen.query_one("#data-parallel-scroll")
        assert scroll.region.contains_region(app.focused.region)          # the control reached is in view
        await pilot.press("up")
        assert app.focused.id == "model-size"
        await pilot.press("up")                                           # the first control stays put
        assert app.focused.id == "model-size"
        await pilot.press("down", "down", "down")
        assert app.focused.id == "fabric"
        await pilot.press("down")                                         # on to the reflection, still open
        await pilot.pause()
        assert app.focused is screen.query_one("#data-parallel-reflection", ChoiceQuestion).options
        assert scroll.region.contains_region(app.focused.region)
        await pilot.press("shift+tab")
        assert app.focused.id == "fabric"
        top = scroll.scroll_y
        await pilot.press("pageup")                                       # the page keys scroll the page
        await pilot.pause()
        assert scroll.scroll_y < top and app.focused.id == "fabric"
        keys = footer_keys(screen)
        assert {"down", "left"} <= {key.key for key in keys}              # ↑↓ and ←→ are in the footer,
        for key in keys:                                                  # whole, at 80 columns
            label = f"{key.key_display} {key.description}".strip()
            assert key.end <= 80 and key.end - key.start >= len(label), (label, key.start, key.end)


def shown_line(widget) -> str:
    """The text a one-line widget shows, without its styles."""
    [line] = widget.render_lines(Region(0, 0, widget.size.width, 1))
    return line.text


async def test_the_focused_control_is_marked_without_colour_in_the_light_theme(store, monkeypatch):
    """Issue 23: in the light theme the focused control differed from the others by two grey levels, and
    with NO_COLOR by none; a ▶ before its label marks it, and moves with it."""
    monkeypatch.setenv("NO_COLOR", "1")
    async with lab_opened(store) as (app, pilot):
        app.theme = "textual-light"
        await pilot.press("2", "enter", "down")
        await pilot.pause()
        screen = app.screen
        lines = {stepper.id: shown_line(stepper) for stepper in screen.query(Stepper) if stepper.display}
        assert lines["gpus"].lstrip().startswith("▶ GPUs (DP degree)")
        assert all(line.lstrip().startswith(label) for line, label in (
            (lines["model-size"], "Model size"), (lines["micro-batch"], "Micro-batch"),
            (lines["fabric"], "Between nodes")))
        await pilot.press("down")
        await pilot.pause()
        assert shown_line(screen.query_one("#micro-batch")).lstrip().startswith("▶ Micro-batch")
        assert shown_line(screen.query_one("#gpus")).lstrip().startswith("GPUs (DP degree)")


async def test_moving_a_control_changes_the_figures_and_the_plot(store):
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("2", "enter", "tab")               # to the GPU count
        await pilot.pause()
        assert app.focused.id == "gpus"
        figures, plot = text_of(screen, "#data-parallel-figures"), plot_text(screen, "data-parallel")
        expected = f"MFU {100 * data_parallel_mfu(DataParallelSetup(gpus=8)):.1f}%"
        assert expected in figures
        await pilot.press("right", "right", "right")         # 8 -> 64 GPUs
        await pilot.pause()
        assert app.focused.value == 64
        after = text_of(screen, "#data-parallel-figures")
        assert f"MFU {100 * data_parallel_mfu(DataParallelSetup(gpus=64)):.1f}%" in after
        assert "8 nodes" in after and after != figures
        assert plot_text(screen, "data-parallel") != plot


async def test_an_out_of_memory_layout_shows_the_warning(store):
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("a", "2", "enter")
        await pilot.pause()
        warnings = screen.query_one("#three-d-warnings")
        assert not warnings.display
        await pilot.press("tab", "left", "left")             # PP 4 -> 1
        await pilot.pause()
        assert warnings.display and "Out of memory" in text_of(screen, "#three-d-warnings")
        memory = three_d_figures(ThreeDSetup(tp=8, pp=1)).memory_gb
        assert f"{memory:.1f} GB per GPU" in text_of(screen, "#three-d-warnings")
        await pilot.press("shift+tab", "right")              # TP 8 -> 16 crosses nodes too
        await pilot.pause()
        warning = " ".join(text_of(screen, "#three-d-warnings").split())
        assert "TP crosses nodes" in warning and "one port" not in warning
        across = EXPECTED.three_d(16, 1, 8)
        assert (f"A TP group of 16 spans 2 nodes: each of its AllReduces takes 30 ring steps that cross the network "
                f"instead of 14 on NVLink, at 400 GB/s through all the node's NICs instead of 450, and every layer "
                f"waits for four of them ({across['tp_one'] * 1e6:.0f} µs each against "
                f"{EXPECTED.TP_ALLREDUCE_US:.0f} µs inside a node)") in warning


async def test_saving_the_design_writes_a_ledger_entry(store):
    async with lab_opened(store) as (app, pilot):
        await pilot.press("2", "enter")                      # Act I: the right prediction
        await pilot.press("a", "4", "enter")                 # Act II: a wrong one
        await pilot.pause()
        await pilot.press("tab", "tab", "right", "right")    # m 8 -> 16
        await pilot.press("s")
        await pilot.pause()
    [entry] = store.entries("lab")
    assert entry.name == "parallelism-paradox"
    act_one, act_two = entry.payload["data-parallel"], entry.payload["three-d"]
    assert act_one["prediction"] == "comm-ratio" and act_one["prediction_right"] is True
    assert act_two["prediction"] == "no-pp" and act_two["prediction_right"] is False
    assert act_two["config"] == {"tp": 8, "pp": 4, "dp": 32, "microbatches": 16}
    assert act_two["figures"]["mfu"] == pytest.approx(three_d_figures(ThreeDSetup(microbatches=16)).mfu, abs=1e-4)
    assert act_two["reflection"] is None


async def test_a_read_only_store_is_reported_not_crashed(tmp_path):
    (tmp_path / "blocked").write_text("a file where the data folder should be")
    store = ProgressStore.open(tmp_path / "blocked" / "data")
    assert store.read_only
    async with lab_opened(store) as (app, pilot):
        await pilot.press("a", "2", "enter", "s")
        await pilot.pause()
        assert any(n.title == "Design not saved" for n in app._notifications)
        assert app.screen.query_one("#three-d-instruments").display


async def test_reflection_and_the_mouse(store):
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        prediction = screen.query_one("#data-parallel-prediction", ChoiceQuestion)
        await pilot.click(OptionList, offset=(4, 1))          # the first option
        await pilot.pause()
        assert prediction.chosen is prediction.question.options[0]
        gpus = screen.query_one("#gpus", Stepper)
        screen.query_one("#data-parallel-scroll").scroll_to_widget(gpus, animate=False)
        await pilot.pause()
        await pilot.click("#gpus", offset=(40, 0))            # right of the value: one step up
        await pilot.pause()
        assert gpus.value == 16
        await pilot.press("down", "down", "down", "2", "enter")   # to the reflection: its right answer
        reflection = screen.query_one("#data-parallel-reflection", ChoiceQuestion)
        assert reflection.chosen.id == "overlap" and "Right" in str(
            reflection.query_one(".question-feedback", Static).render())
        await pilot.pause()
        page = screen.query_one("#data-parallel-scroll")
        feedback = reflection.query_one(".question-feedback", Static)   # issue 16: it sat under the footer
        assert page.region.contains_region(feedback.region), (page.region, feedback.region)


def plotted(screen, act_id: str) -> list[tuple[list, list, list, str | None]]:
    """What the act's plot was given, series by series: (x, y, markers, label), read from plotext's data."""
    monitor = screen.query_one(f"#{act_id}-plot").plt._active.monitor
    return list(zip(monitor.x, monitor.y, monitor.marker, monitor.label, strict=True))


async def test_your_setting_is_plotted_inside_the_axes_in_both_acts(store):
    """Issue 16, item 3, read from the plot's data rather than its pixels: the one point drawn with the setting
    marker sits at the setting's x tick and inside the y range the axis shows."""
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("2", "enter", "a", "2", "enter", "tab", "right")       # Act II: PP 4 -> 8
        await pilot.pause()
        expected = {"data-parallel": (GPU_COUNTS.index(8), EXPECTED.MFU[8]),
                    "three-d": (PP_DEGREES.index(8), 100 * (8 - 1) / (8 + 8 - 1))}
        for act_id, (x, y) in expected.items():
            monitor = screen.query_one(f"#{act_id}-plot").plt._active.monitor
            [(xs, ys)] = [(xs, ys) for xs, ys, markers, _ in plotted(screen, act_id) if markers == ["●"]]
            low, high = monitor.ylim[0]
            assert xs == [x] and ys == [pytest.approx(y)], act_id
            assert low <= ys[0] <= high, (act_id, ys, (low, high))


async def test_act_two_curves_differ_by_marker_not_only_by_colour(store, monkeypatch):
    """Issue 16: with NO_COLOR the four curves of m were one grey; each now has a marker of its own, named in
    the caption, and every one of them is on the plot a NO_COLOR terminal shows."""
    monkeypatch.setenv("NO_COLOR", "1")
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("a", "2", "enter")
        await pilot.pause()
        curves = [(markers, label) for _, _, markers, label in plotted(screen, "three-d") if label]
        assert [label for _, label in curves] == ["m=1", "m=4", "m=8", "m=32"]
        markers = [set(m) for m, _ in curves]
        assert all(len(m) == 1 for m in markers)
        symbols = [m.pop() for m in markers]
        assert len(set(symbols)) == 4 and "●" not in symbols
        caption = str(screen.query_one("#three-d-instruments .caption", Static).render())
        drawn = "\n".join(plot_lines(screen, "three-d"))
        for symbol, m in zip(symbols, (1, 4, 8, 32), strict=True):
            assert f"{symbol} m = {m}" in caption
            assert drawn.count(symbol) > 3, symbol                 # a line of them, not only the legend


def reopened(tmp_path: Path) -> AbstractAsyncContextManager[tuple[RingbookApp, Pilot]]:
    """The lab in a fresh app on the same data folder, as after quitting ringbook and starting it again."""
    return lab_opened(ProgressStore.open(tmp_path / "data"))


async def test_the_lab_keeps_predictions_and_settings_when_left_and_after_a_restart(tmp_path):
    async with reopened(tmp_path) as (app, pilot):
        await pilot.press("3", "enter", "tab", "right", "right", "right")      # Act I: a wrong answer, 64 GPUs
        await pilot.press("a", "2", "enter", "tab", "tab", "right")             # Act II: m 8 -> 12
        await pilot.pause()
        await pilot.press("escape")                                              # back home, and in again
        await pilot.pause()
        app.open_lab(app.session.book.lab("parallelism-paradox"))
        await pilot.pause()
        assert app.screen.query_one("#gpus", Stepper).value == 64
    app.session.store.close()

    async with reopened(tmp_path) as (app, pilot):
        screen = app.screen
        await pilot.pause()
        act_one = screen.query_one("#data-parallel-prediction", ChoiceQuestion)
        act_two = screen.query_one("#three-d-prediction", ChoiceQuestion)
        assert act_one.chosen.id == "hbm" and act_one.options.disabled
        assert "Not this one" in str(act_one.query_one(".question-feedback", Static).render())
        assert act_two.chosen.id == "node-tp"
        assert screen.query_one("#data-parallel-reflection", ChoiceQuestion).chosen is None
        for act_id in ("data-parallel", "three-d"):
            assert screen.query_one(f"#{act_id}-instruments").display
            assert not screen.query_one(f"#{act_id}-locked").display
        assert screen.query_one("#gpus", Stepper).value == 64 and screen.data_parallel.gpus == 64
        assert screen.query_one("#microbatches", Stepper).value == 12 and screen.three_d.microbatches == 12
        assert f"MFU {EXPECTED.MFU[64]:.1f}%" in text_of(screen, "#data-parallel-figures")
        assert app.focused is screen.query_one("#model-size", Stepper)          # in the act on show
        await pilot.press("down", "down", "down", "down", "2", "enter")         # the reflection is still open
        assert screen.query_one("#data-parallel-reflection", ChoiceQuestion).chosen.id == "overlap"


def in_view(screen, act_id: str, widget) -> bool:
    return screen.query_one(f"#{act_id}-scroll").region.contains_region(widget.region)


async def test_an_option_list_with_the_keyboard_leaves_the_page_keys_and_its_highlight_to_the_page(store):
    """Issue 45, 2.2: with an option list focused, ↓ highlighted Act II's option 4 below the screen's edge at
    80x24, PgDn and End moved the highlight instead of the page, and PgUp did nothing in Act I's reflection."""
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("a")
        await _settle(pilot)
        options = screen.query_one("#three-d-prediction", ChoiceQuestion).options
        assert app.focused is options and options.highlighted == 0
        await pilot.press("down", "down", "down")
        await wait_until(pilot, lambda: options.highlighted == 3 and in_view(screen, "three-d", options),
                         "Act II's option 4 highlighted and its list on screen")
        scroll = screen.query_one("#three-d-scroll")
        await pilot.press("home")
        await wait_until(pilot, lambda: scroll.scroll_y == 0, "Home scrolling the page to its top")
        await pilot.press("end")
        await wait_until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y > 0, "End scrolling the page")
        assert options.highlighted == 3 and app.focused is options                # the list kept its place
        await pilot.press("a", "a")                                               # Act I: commit, to the reflection
        await pilot.press("2", "enter")
        await _settle(pilot)
        await pilot.press("down", "down", "down", "down")
        reflection = screen.query_one("#data-parallel-reflection", ChoiceQuestion).options
        assert app.focused is reflection
        page = screen.query_one("#data-parallel-scroll")
        await pilot.press("end")
        await wait_until(pilot, lambda: page.scroll_y == page.max_scroll_y > 0, "End at the reflection")
        await pilot.press("pageup")
        await wait_until(pilot, lambda: page.scroll_y < page.max_scroll_y, "PgUp scrolling up from the reflection")


async def test_a_prediction_answered_in_the_plain_line_face_shows_answered(tmp_path):
    """Issue 45, 2.2: a prediction made in the plain-line face (kept in the store) opened the app's lab at
    the top, the question looking open and its "✓ Right" off screen; 1 then picked a reflection option."""
    store = ProgressStore.open(tmp_path / "data")
    async with lab_opened(store) as (app, pilot):
        lab = app.screen.lab
        right = next(option.id for option in lab.acts[0].prediction.options if option.correct)
        keep_lab_design(store, lab, LabDesign(DataParallelSetup(), ThreeDSetup(),
                                              {("data-parallel", "prediction"): right}))
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        feedback = screen.query_one("#data-parallel-prediction", ChoiceQuestion).query_one(".question-feedback")
        await wait_until(pilot, lambda: in_view(screen, "data-parallel", feedback), "the restored answer's feedback")
        assert "✓ Right" in str(feedback.render())
        assert "1-4" not in {key.key_display for key in footer_keys(screen)}    # from a control, not the reflection's
        await pilot.press("1")
        await pilot.pause()
        assert screen.query_one("#data-parallel-reflection", ChoiceQuestion).chosen is None
        assert isinstance(app.focused, Stepper) and in_view(screen, "data-parallel", app.focused)


@pytest.mark.parametrize("kept", [
    "not json", "[]", '{"data-parallel": 7}',
    '{"data-parallel": {"config": {"gpus": 3, "model": "9B", "fabric": null}, "prediction": "no-such-option"},'
    ' "three-d": {"config": {"tp": true, "pp": "4", "microbatches": 1e9}, "reflection": ["x"]}}',
])
async def test_a_damaged_kept_design_opens_the_lab_at_its_start(tmp_path, kept):
    store = ProgressStore.open(tmp_path / "data")
    store.set_state("lab:parallelism-paradox", kept)
    async with lab_opened(store) as (app, pilot):
        await pilot.pause()
        screen = app.screen
        assert screen.data_parallel == DataParallelSetup() and screen.three_d == ThreeDSetup()
        assert screen.query_one("#data-parallel-locked").display
        assert screen.query_one("#data-parallel-prediction", ChoiceQuestion).chosen is None


async def test_saved_designs_are_listed_and_one_is_restored(store):
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("2", "enter", "a", "2", "enter", "tab", "tab", "right", "right", "s")   # m = 16
        await pilot.pause()
        saved = [n for n in app._notifications if n.title == "Design saved"][-1].message
        assert "TP 8 x PP 4 x DP 32, m = 16" in saved and "design 1 of this lab" in saved and "press d" in saved
        await pilot.press("left", "left", "left", "s")                                         # m = 4
        await pilot.press("d")
        await pilot.pause()
        listed = app.screen.query_one("#design-list", OptionList)
        shown = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert [line[:2] for line in shown] == ["2.", "1."]                                     # newest first
        assert "m = 4:" in shown[0] and "m = 16:" in shown[1]
        await pilot.press("down", "enter")                                                      # the first one
        await pilot.pause()
        assert app.screen is screen
        assert screen.three_d.microbatches == 16 and screen.query_one("#microbatches", Stepper).value == 16
        mfu = 100 * three_d_figures(ThreeDSetup(microbatches=16)).mfu
        assert f"MFU {mfu:.1f}%" in text_of(screen, "#three-d-figures")
        await pilot.press("d", "escape")                                                        # Esc changes nothing
        await pilot.pause()
        assert app.screen is screen and screen.three_d.microbatches == 16
    assert len(store.entries("lab")) == 2


async def test_restoring_a_design_answers_only_questions_still_open(tmp_path):
    """A design saved with both predictions, restored into a lab whose kept state was lost."""
    store = ProgressStore.open(tmp_path / "data")
    async with lab_opened(store) as (app, pilot):
        await pilot.press("2", "enter", "a", "4", "enter", "s")
        await pilot.pause()
    store.set_state("lab:parallelism-paradox", "")
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        await pilot.press("a", "1", "enter")                       # Act II answered differently this time
        await pilot.press("d", "enter")
        await pilot.pause()
        assert screen.query_one("#data-parallel-prediction", ChoiceQuestion).chosen.id == "comm-ratio"
        assert screen.query_one("#data-parallel-instruments").display
        assert screen.query_one("#three-d-prediction", ChoiceQuestion).chosen.id == "wide-tp"   # given once


async def test_every_footer_key_of_the_lab_is_whole_at_80_columns(store):
    """Issue 16: the lab's footer ended in `? Keys ^▏`. In every state of the lab each key the footer shows is
    inside the screen and overlaps no other; every key it leaves out is listed by `?`."""
    async with lab_opened(store) as (app, pilot):
        screen = app.screen
        seen: set[str] = set()

        async def check(state: str) -> None:
            await _settle(pilot)   # the footer draws its keys at the next refresh: wait for that, not one pause
            keys = footer_keys(app.screen)
            active = screen.active_bindings
            shown = {binding.action for _, binding, _, _ in active.values() if binding.show}  # one key per action
            left_out = {active[key].binding.action for key in getattr(screen, "FOOTER_HIDES", ())}
            visible = {key.action for key in keys if not key.palette}   # ^p is on the right, apart
            assert visible <= shown and shown - visible <= left_out, state
            for key in keys:
                label = f"{key.key_display} {key.description}".strip()
                assert key.end <= 80 and key.end - key.start >= len(label), (state, label, key.start, key.end)
            assert all(a.end <= b.start for a, b in itertools.pairwise(keys)), state
            seen.update(key.key for key in keys)

        await check("prediction open")
        await pilot.press("2")
        await check("option picked")
        await pilot.press("enter")
        await check("a control focused, the reflection open")
        await pilot.press("2", "enter")
        await check("act answered")
        await pilot.press("a")
        await check("act II locked")
        await pilot.press("a")
        await check("the model")
        assert {"escape", "1", "enter", "a", "s", "d", "left", "question_mark"} <= seen
        await pilot.press("question_mark")
        await pilot.pause()
        listed = " ".join(f"{key} {what}" for _, rows in app.screen.groups for key, what in rows)
        for hidden in ("Quit", "Screenshot", "^p"):
            assert hidden in listed


async def test_the_keys_dialog_says_each_control_key_once_and_how_to_reach_the_question(store):
    """The lab's `?` listed `→ More`, `+ More` and `= More` as three keys, and did not say how the keyboard
    gets from the controls to the question below them (↓ after the last control)."""
    async with lab_opened(store) as (app, pilot):
        await pilot.press("2", "enter")                            # the prediction made: a control has the keys
        await pilot.press("question_mark")
        await pilot.pause()
        rows = dict(app.screen.groups)["This screen"]
        descriptions = [what for _, what in rows]
        assert len(descriptions) == len(set(descriptions)), rows
        assert ("→ + =", "More") in rows and ("←→ -", "Adjust") in rows, rows
        assert any(key == "↑↓" and "question" in what for key, what in rows), rows


# --- snapshots at 80x24 -----------------------------------------------------------------------------------

def lab_app(tmp_path: Path) -> RingbookApp:
    """The app at home: each snapshot's run_before opens the lab first (open_the_lab)."""
    return ringbook_app(builtin_book(), ProgressStore.open(tmp_path / "data"))


async def _settle(pilot, shown: str = "LabScreen"):
    """Frames until the lab (or the screen named `shown`) is shown and still: its scroll areas' sizes and
    offsets the same over three frames. A fixed pause or two let a loaded machine take the picture before the
    lab opened or stopped scrolling."""
    def scrolls() -> list[tuple] | None:
        screen = pilot.app.screen
        if type(screen).__name__ != shown:
            return None
        return [(w.id, w.scroll_offset, w.virtual_size) for w in screen.query(VerticalScroll)]

    await pilot.wait_for_scheduled_animations()
    await wait_until_still(pilot, scrolls, f"{shown} showing and standing still")


def test_snapshot_locked(snap_compare, tmp_path):
    assert snap_compare(lab_app(tmp_path), run_before=open_the_lab, terminal_size=(80, 24))


def test_snapshot_unlocked(snap_compare, tmp_path):
    async def run_before(pilot):
        await open_the_lab(pilot)
        await pilot.press("2", "enter")
        await _settle(pilot)
    assert snap_compare(lab_app(tmp_path), run_before=run_before, terminal_size=(80, 24))


def test_snapshot_out_of_memory(snap_compare, tmp_path):
    async def run_before(pilot):
        await open_the_lab(pilot)
        await pilot.press("a", "2", "enter", "tab", "left", "left")
        await _settle(pilot)
        screen = pilot.app.screen
        screen.query_one("#three-d-scroll").scroll_to_widget(screen.query_one("#three-d-figures"), animate=False,
                                                             top=True)
        await _settle(pilot)
    assert snap_compare(lab_app(tmp_path), run_before=run_before, terminal_size=(80, 24))


@pytest.mark.parametrize("keys", [("2", "enter"), ("a", "2", "enter")], ids=["data-parallel", "three-d"])
def test_snapshot_plot(snap_compare, tmp_path, keys):
    """Each act's plot at its starting settings: Act I marks 1 and 2 GPUs out of memory, both show the dot."""
    async def run_before(pilot):
        await open_the_lab(pilot)
        await pilot.press(*keys)
        await _settle(pilot)
        screen, act_id = pilot.app.screen, "three-d" if "a" in keys else "data-parallel"
        screen.query_one(f"#{act_id}-scroll").scroll_to_widget(screen.query_one(f"#{act_id}-plot"), animate=False,
                                                               top=True)
        await _settle(pilot)
    assert snap_compare(lab_app(tmp_path), run_before=run_before, terminal_size=(80, 24))


def test_snapshot_saved_designs(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("RINGBOOK_NOW", "2026-12-01T09:00:00+01:00")     # the dates the list shows

    async def run_before(pilot):
        await open_the_lab(pilot)
        await pilot.press("2", "enter", "a", "2", "enter", "tab", "tab", "right", "s", "left", "left", "s")
        await pilot.pause()
        pilot.app.clear_notifications()
        # The act behind the dialog at its top: where the commit's reveal and Tab's scroll leave it differs by a
        # row from run to run (which of the two lands last), and the picture is of the dialog.
        await pilot.press("home")
        await _settle(pilot)
        await pilot.press("d")
        await _settle(pilot, "LabDesignsScreen")
    assert snap_compare(lab_app(tmp_path), run_before=run_before, terminal_size=(80, 24))


async def test_the_design_saved_notice_does_not_cover_the_saved_designs_dialog(store):
    """Issue 23: "Design saved" (press d to see your designs) sat over the dialog's border once d was
    pressed; the dialog it pointed to replaces it."""
    from textual.widgets._toast import Toast

    async with lab_opened(store, notifications=True) as (app, pilot):
        await pilot.press("2", "enter", "a", "4", "enter")
        await pilot.pause()
        await pilot.press("s")
        for _ in range(20):   # the notice is mounted a refresh after it is posted
            await pilot.pause()
            if app.screen.query(Toast):
                break
        assert [n.title for n in app._notifications] == ["Design saved"]
        await pilot.press("d")
        await pilot.pause()
        await pilot.pause()
        dialog = app.screen.query_one("#designs").region
        assert all(not toast.region.overlaps(dialog) for toast in app.screen.query(Toast))
        assert not app._notifications

"""The Parallelism Paradox lab: its performance model (figures recomputed here by hand), its YAML, and the
screen driven with Pilot on the real store: locked until a prediction, live figures and plots, the OOM and
cross-node warnings, the design saved to the ledger. Snapshots live in snapshots/test_lab/."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from grader.lab import (
    FABRICS, GPU_COUNTS, MICRO_BATCHES, MODELS, PIPELINE_MICROBATCHES, PP_DEGREES, TP_DEGREES,
    DataParallelSetup, Hardware, LabError, ThreeDSetup, bubble_overhead, data_parallel_figures,
    data_parallel_mfu, idle_share, load_lab, mfu_curve, three_d_figures,
)
from grader.load import BUILTIN_CONTENT, load_book
from tui.app import RingbookApp
from tui.progress.store import ProgressStore
from tui.widgets.choice_question import ChoiceQuestion
from tui.widgets.stepper import Stepper

LAB_PATH = BUILTIN_CONTENT / "labs" / "parallelism-paradox.yaml"
HW = Hardware()


# --- the model, recomputed independently ---------------------------------------------------------------

def ring(size, n, gbs, alpha=5e-6, bucket=25e6):
    return math.ceil(size / bucket) * 2 * (n - 1) * alpha + 2 * size * (n - 1) / n / (gbs * 1e9)


def test_hardware_uses_dense_bf16_and_one_direction_bandwidths():
    assert (HW.peak_tflops, HW.nvlink_gbs, HW.network_gbs, HW.hbm_gb) == (989, 450, 50, 80)
    assert {f.id: f.network_gbs for f in FABRICS} == {"ndr-hier": 400 / 8, "hdr-hier": 200 / 8, "ndr-flat": 50}


def test_data_parallel_inside_one_node():
    setup = DataParallelSetup()                              # 7B, 8 GPUs, 2 x 2048 tokens
    figures = data_parallel_figures(setup)
    compute = 6 * 7e9 * 2 * 2048 / (989e12 * 0.60)
    comm = ring(2 * 7e9, 8, 450)
    assert figures.compute_s == pytest.approx(compute)
    assert figures.comm_s == pytest.approx(comm)
    assert data_parallel_mfu(setup) == pytest.approx(0.60 * compute / (compute + comm))
    activations = 32 * 2048 * 2 * 4096 * 34
    assert figures.memory_gb == pytest.approx((7e9 * (4 + 12 / 8) + activations) / 1e9)
    assert figures.inside_node and not figures.oom


def test_hierarchical_and_flat_allreduce_across_nodes():
    grad = 2 * 7e9
    hierarchical = data_parallel_figures(replace(DataParallelSetup(), gpus=64))
    assert hierarchical.comm_s == pytest.approx(ring(grad, 8, 450) + ring(grad / 8, 8, 50))
    flat = data_parallel_figures(DataParallelSetup(gpus=64, fabric=FABRICS[2]))
    assert flat.comm_s == pytest.approx(ring(grad, 64, 50))
    assert not hierarchical.inside_node


@pytest.mark.parametrize("fabric", FABRICS, ids=lambda f: f.id)
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_more_gpus_never_raise_data_parallel_mfu(model, fabric):
    for micro_batch in MICRO_BATCHES:
        curve = [mfu for _, mfu in mfu_curve(DataParallelSetup(model, 8, micro_batch, fabric))]
        assert all(later <= earlier for earlier, later in zip(curve, curve[1:]))
        assert curve[0] == pytest.approx(100 * HW.base_efficiency)   # one GPU: nothing to wait for


def test_a_bigger_micro_batch_never_lowers_mfu_and_a_slower_network_never_raises_it():
    for gpus in GPU_COUNTS:
        by_batch = [data_parallel_mfu(DataParallelSetup(gpus=gpus, micro_batch=b)) for b in MICRO_BATCHES]
        assert by_batch == sorted(by_batch)
        assert (data_parallel_mfu(DataParallelSetup(gpus=gpus, fabric=FABRICS[1]))
                <= data_parallel_mfu(DataParallelSetup(gpus=gpus, fabric=FABRICS[0])))


def test_three_d_memory_and_time_for_the_reference_layout():
    f = three_d_figures(ThreeDSetup(tp=8, pp=4, microbatches=8))
    params = 175e9 / 32
    activations = 4 * 24 * 2048 * 1 * 12288 * (10 + 24 / 8)      # 1F1B: min(m, p) = 4 micro-batches in flight
    assert f.dp == 32 and f.global_batch == 32 * 8
    assert f.memory_gb == pytest.approx((params * (4 + 12 / 32) + activations) / 1e9)
    compute_mb = 6 * params * 2048 / (989e12 * 0.60)
    tp_mb = 4 * 24 * ring(2 * 2048 * 12288, 8, 450)
    dp = ring(2 * params, 32, 50)
    assert f.pipeline_s == pytest.approx((8 + 4 - 1) * (compute_mb + tp_mb))
    assert f.step_s == pytest.approx(f.pipeline_s + dp)
    assert f.mfu == pytest.approx(8 * 6 * params * 2048 / (989e12 * f.step_s))
    assert not f.oom and not f.tp_cross_node


def test_tp_beyond_a_node_sets_the_cross_node_flag_and_costs_more_than_compute():
    for tp in TP_DEGREES:
        for pp in PP_DEGREES:
            assert three_d_figures(ThreeDSetup(tp=tp, pp=pp)).tp_cross_node == (tp > 8)
    wide = three_d_figures(ThreeDSetup(tp=16, pp=4))
    assert wide.tp_comm_s > wide.compute_s


def test_out_of_memory_above_80_gb():
    no_pipeline = three_d_figures(ThreeDSetup(tp=8, pp=1))
    assert no_pipeline.weights_grads_gb == pytest.approx(4 * 175e9 / 8 / 1e9)
    assert no_pipeline.oom and no_pipeline.memory_gb > 80
    assert data_parallel_figures(DataParallelSetup(model=MODELS[3], gpus=1024)).oom   # 70B replicated


def test_bubble_measures_match_chapter_5():
    assert bubble_overhead(4, 4) == pytest.approx(0.75) and idle_share(4, 4) == pytest.approx(3 / 7)
    assert bubble_overhead(8, 4) == pytest.approx(1.75) and idle_share(4, 12) == pytest.approx(0.2)
    for pp in PP_DEGREES:
        for m in PIPELINE_MICROBATCHES:
            overhead = bubble_overhead(pp, m)
            assert idle_share(pp, m) == pytest.approx(overhead / (1 + overhead))
            assert idle_share(pp, m) < 1


def test_more_microbatches_shrink_the_bubble_and_raise_mfu():
    mfus = [three_d_figures(ThreeDSetup(tp=8, pp=4, microbatches=m)).mfu for m in PIPELINE_MICROBATCHES]
    assert mfus == sorted(mfus)


# --- the lab file ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lab():
    return load_lab(LAB_PATH)


def test_the_lab_loads_with_its_figures_filled_in(lab):
    assert lab.id == "parallelism-paradox" and [a.id for a in lab.acts] == ["data-parallel", "three-d"]
    prose = [lab.model_statement] + [a.message for a in lab.acts] + [
        o.feedback for a in lab.acts for q in (a.prediction, a.reflection) for o in q.options]
    assert not any("{" in text or "}" in text for text in prose)
    assert "989 TFLOPS" in lab.model_statement and "(p-1)/(m+p-1)" in lab.model_statement
    model_64 = f"{100 * data_parallel_mfu(DataParallelSetup(gpus=64)):.1f}%"
    assert model_64 in lab.model_statement
    assert dict(lab.act("data-parallel").measured_mfu) == {8: 52, 64: 38, 512: 19}


def test_act_two_options_say_what_the_model_computes(lab):
    options = {o.id: o for o in lab.act("three-d").prediction.options}
    figures = {key: three_d_figures(o.layout) for key, o in options.items()}
    assert options["node-tp"].correct
    assert max(figures, key=lambda k: figures[k].mfu if not figures[k].oom else 0) == "node-tp"
    assert figures["no-pp"].oom and "does not fit" in options["no-pp"].feedback
    assert figures["wide-tp"].tp_cross_node and not figures["wide-tp"].oom
    deep = options["deep-pp"].layout
    assert three_d_figures(replace(deep, microbatches=32)).activations_gb == pytest.approx(
        4 * figures["deep-pp"].activations_gb)
    assert three_d_figures(replace(deep, microbatches=32)).oom


@pytest.mark.parametrize("damage, message", [
    (lambda t: t.replace("model: |", "model: [", 1), "not valid YAML"),
    (lambda t: t.replace("{model_64}", "{nonsense}", 1), r"lab\.model: unknown figure \{nonsense\}"),
    (lambda t: t.replace("          correct: true\n", "", 1), r"acts\[0\]\.prediction\.options: exactly one"),
    (lambda t: t.replace("layout: {tp: 8, pp: 1}", "layout: {tp: 3, pp: 1}", 1), "must divide"),
    (lambda t: t.replace("  - id: three-d", "  - id: three-dee", 1), "two acts"),
])
def test_a_damaged_lab_file_is_named_in_the_error(tmp_path, damage, message):
    broken = tmp_path / "lab.yaml"
    broken.write_text(damage(LAB_PATH.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(LabError, match=message) as caught:
        load_lab(broken)
    assert str(broken) in str(caught.value)


def test_a_missing_lab_file_is_a_lab_error(tmp_path):
    with pytest.raises(LabError, match="cannot read"):
        load_lab(tmp_path / "nope.yaml")


# --- the screen -----------------------------------------------------------------------------------------

class LabApp(RingbookApp):
    """The real app, opened on the lab as a learner opens it from the home screen."""

    def __init__(self, store: ProgressStore):
        super().__init__(load_book(), store, warm=False)

    def on_mount(self) -> None:
        super().on_mount()
        self.open_lab(self.book.lab("parallelism-paradox"))


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def plot_text(screen, act_id: str) -> str:
    plot = screen.query_one(f"#{act_id}-plot")
    plot.plt.plotsize(plot.size.width, plot.size.height)
    return plot.plt.build()


async def test_instruments_stay_locked_until_a_prediction(store):
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
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
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
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


async def test_moving_a_control_changes_the_figures_and_the_plot(store):
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
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
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
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
        assert "TP crosses nodes" in text_of(screen, "#three-d-warnings")


async def test_saving_the_design_writes_a_ledger_entry(store):
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
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
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "2", "enter", "s")
        await pilot.pause()
        assert any(n.title == "Design not saved" for n in app._notifications)
        assert app.screen.query_one("#three-d-instruments").display


async def test_reflection_and_the_mouse(store):
    app = LabApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
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
        await pilot.press("2", "enter")                       # the reflection's right answer
        reflection = screen.query_one("#data-parallel-reflection", ChoiceQuestion)
        assert reflection.chosen.id == "overlap" and "Right" in str(
            reflection.query_one(".question-feedback", Static).render())


# --- snapshots at 80x24 -----------------------------------------------------------------------------------

def lab_app(tmp_path: Path) -> LabApp:
    return LabApp(ProgressStore.open(tmp_path / "data"))


async def _settle(pilot):
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def test_snapshot_locked(snap_compare, tmp_path):
    assert snap_compare(lab_app(tmp_path), run_before=_settle, terminal_size=(80, 24))


def test_snapshot_unlocked(snap_compare, tmp_path):
    async def run_before(pilot):
        await pilot.press("2", "enter")
        await _settle(pilot)
    assert snap_compare(lab_app(tmp_path), run_before=run_before, terminal_size=(80, 24))


def test_snapshot_out_of_memory(snap_compare, tmp_path):
    async def run_before(pilot):
        await pilot.press("a", "2", "enter", "tab", "left", "left")
        await _settle(pilot)
        screen = pilot.app.screen
        screen.query_one("#three-d-scroll").scroll_to_widget(screen.query_one("#three-d-figures"), animate=False,
                                                             top=True)
        await _settle(pilot)
    assert snap_compare(lab_app(tmp_path), run_before=run_before, terminal_size=(80, 24))

"""The Parallelism Paradox lab without its screen: its performance model (figures recomputed by hand in
tests/expected/lab.py), its YAML and its schema, and the cluster it prices. The screen is tested in
tests/face/test_lab.py."""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import replace

import pytest
import yaml

from grader.book.load import BUILTIN_CONTENT, check_book
from grader.lab.design import design_from
from grader.lab.load import LAB_SCHEMA_PATH, LabError, load_lab
from grader.lab.model import (
    FABRICS,
    GPU_COUNTS,
    MICRO_BATCHES,
    MODELS,
    PIPELINE_MICROBATCHES,
    PP_DEGREES,
    TP_DEGREES,
    DataParallelSetup,
    Hardware,
    ThreeDSetup,
    bubble_overhead,
    data_parallel_figures,
    data_parallel_mfu,
    idle_share,
    mfu_curve,
    three_d_figures,
)
from tests.built_in import builtin_book
from tests.expected import lab as EXPECTED

LAB_PATH = BUILTIN_CONTENT / "labs" / "parallelism-paradox.yaml"
HW = Hardware()


# --- the model, against tests/expected/lab.py --------------------------------------------------------------

def test_hardware_uses_dense_bf16_and_one_direction_bandwidths():
    assert (HW.peak_tflops, HW.nvlink_gbs, HW.fabric.nic_gbs, HW.fabric.node_gbs, HW.hbm_gb) == (989, 450, 50, 400, 80)
    assert {f.id: f.node_gbs * 1e9 for f in FABRICS} == EXPECTED.NODE_NETWORK


@pytest.mark.parametrize("fabric", FABRICS, ids=lambda f: f.id)
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_data_parallel_figures_match_the_hand_model(model, fabric):
    for gpus in GPU_COUNTS:
        for micro_batch in MICRO_BATCHES:
            setup = DataParallelSetup(model, gpus, micro_batch, fabric)
            compute, comm, memory = EXPECTED.data_parallel(model.name, gpus, micro_batch, fabric.id)
            figures = data_parallel_figures(setup)
            assert figures.compute_s == pytest.approx(compute) and figures.comm_s == pytest.approx(comm), setup
            assert figures.memory_gb == pytest.approx(memory / 1e9) and figures.oom == (memory > EXPECTED.HBM)
            assert 100 * data_parallel_mfu(setup) == pytest.approx(100 * 0.60 * compute / (compute + comm))


def test_every_gradient_bucket_pays_its_own_start_ups_between_nodes_too():
    """Issue 13, 11a: the hierarchical AllReduce counted 70 buckets between nodes (S/8 in 25 MB pieces) where
    each of the 560 buckets is its own AllReduce, so 64 and 512 GPUs read 38.7% and 35.0% MFU."""
    start = DataParallelSetup()
    assert EXPECTED.BUCKETS_7B == 560
    for gpus in (16, 64, 512):
        nodes = gpus // 8
        latency = 560 * 2 * (8 - 1) * 5e-6 + 560 * 2 * (nodes - 1) * 5e-6
        with_alpha = data_parallel_figures(replace(start, gpus=gpus)).comm_s
        without = data_parallel_figures(replace(start, gpus=gpus), replace(HW, alpha_us=0)).comm_s
        assert with_alpha - without == pytest.approx(latency)
    assert f"{100 * data_parallel_mfu(replace(start, gpus=64)):.1f}" == f"{EXPECTED.MFU[64]:.1f}" == "35.9"
    assert f"{100 * data_parallel_mfu(replace(start, gpus=512)):.1f}" == f"{EXPECTED.MFU[512]:.1f}" == "21.6"


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_more_gpus_never_raise_data_parallel_mfu(model):
    for fabric in FABRICS:
        for micro_batch in MICRO_BATCHES:
            curve = [point.mfu_pct for point in mfu_curve(DataParallelSetup(model, 8, micro_batch, fabric))]
            assert all(later <= earlier for earlier, later in itertools.pairwise(curve))
            assert curve[0] == pytest.approx(100 * HW.base_efficiency)   # one GPU: nothing to wait for


def test_the_curve_marks_the_gpu_counts_that_are_out_of_memory():
    """Issue 13, 11d: 7B at 1 and 2 GPUs needs 130.3 and 88.3 GB, yet the plot drew them as running jobs."""
    curve = mfu_curve(DataParallelSetup())
    assert [p.gpus for p in curve] == list(GPU_COUNTS)
    assert {p.gpus for p in curve if p.oom} == EXPECTED.OUT_OF_MEMORY == {1, 2}
    assert [f"{EXPECTED.MEMORY_GB[n]:.1f}" for n in (1, 2)] == ["130.3", "88.3"]
    assert all(p.oom for p in mfu_curve(DataParallelSetup(model=MODELS[3])))   # 70B never fits


def test_a_bigger_micro_batch_never_lowers_mfu_and_a_slower_network_never_raises_it():
    for gpus in GPU_COUNTS:
        by_batch = [data_parallel_mfu(DataParallelSetup(gpus=gpus, micro_batch=b)) for b in MICRO_BATCHES]
        assert by_batch == sorted(by_batch)
        by_fabric = [data_parallel_mfu(DataParallelSetup(gpus=gpus, fabric=fabric)) for fabric in FABRICS]
        assert by_fabric == sorted(by_fabric, reverse=True)     # the fabrics are offered fastest first


def test_three_d_figures_match_the_hand_model_for_every_layout():
    checked = 0
    for tp in TP_DEGREES:
        for pp in PP_DEGREES:
            for m in PIPELINE_MICROBATCHES:
                f, hand = three_d_figures(ThreeDSetup(tp=tp, pp=pp, microbatches=m)), EXPECTED.three_d(tp, pp, m)
                assert f.dp == hand["dp"] and f.oom == hand["oom"]
                for name in ("compute", "tp_comm", "dp_comm", "pipeline", "step"):
                    assert getattr(f, f"{name}_s") == pytest.approx(hand[name]), (tp, pp, m, name)
                assert f.memory_gb == pytest.approx(hand["memory"] / 1e9)
                assert 100 * f.mfu == pytest.approx(hand["mfu"])
                assert 100 * f.idle_share == pytest.approx(hand["idle_share"])
                checked += 1
    assert checked == len(TP_DEGREES) * len(PP_DEGREES) * len(PIPELINE_MICROBATCHES)


def test_a_tp_allreduce_pays_its_start_ups_once():
    """Issue 13, 11e: a 50 MB activation AllReduce was billed as three 25 MB gradient buckets (210 µs of α
    on 8 GPUs); it is one collective, 2(t-1)α = 70 µs."""
    f = three_d_figures(ThreeDSetup(tp=8, pp=4, microbatches=8))
    one = 2 * 7 * 5e-6 + 2 * (2 * 2048 * 12288) * 7 / 8 / 450e9
    assert EXPECTED.TP_ALLREDUCE_US == pytest.approx(one * 1e6)
    assert f.tp_comm_s == pytest.approx(8 * 4 * 24 * one)


def test_tp_beyond_a_node_sets_the_cross_node_flag_and_costs_most_where_nodes_have_one_port():
    """Issue 41: TP = 16 cost more than its compute because the old model ran the ring at one port; on rails it
    costs a larger share of the step than TP = 8, and more than its compute only where a node has one port."""
    for tp in TP_DEGREES:
        for pp in PP_DEGREES:
            assert three_d_figures(ThreeDSetup(tp=tp, pp=pp)).tp_cross_node == (tp > 8)
    node, wide = three_d_figures(ThreeDSetup(tp=8, pp=4)), three_d_figures(ThreeDSetup(tp=16, pp=4))
    assert node.tp_comm_s / node.compute_s < wide.tp_comm_s / wide.compute_s < 1
    one_port = three_d_figures(ThreeDSetup(tp=16, pp=4), replace(HW, fabric=FABRICS[-1]))
    assert one_port.tp_comm_s > 10 * one_port.compute_s


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
    return load_lab(LAB_PATH, LAB_PATH.parent.parent)


def _prose(text: str) -> str:
    return " ".join(text.split())


def test_the_lab_loads_with_its_figures_filled_in(lab):
    assert lab.id == "parallelism-paradox" and [a.id for a in lab.acts] == ["data-parallel", "three-d"]
    questions = [q for a in lab.acts for q in (a.prediction, a.reflection)]
    prose = [lab.model_statement] + [a.message for a in lab.acts] + [q.prompt for q in questions] + [
        text for q in questions for o in q.options for text in (o.text, o.feedback)]
    assert not any("{" in text or "}" in text for text in prose)
    assert "989 TFLOPS" in lab.model_statement and "(p-1)/(m+p-1)" in lab.model_statement
    assert dict(lab.act("data-parallel").measured_mfu) == EXPECTED.MEASURED


def fall(a: int, b: int, curve=None) -> float:
    """MFU points lost from a to b GPUs in the hand model, on the starting fabric unless `curve` is given."""
    curve = EXPECTED.MFU if curve is None else curve
    return curve[a] - curve[b]


def test_the_model_statement_says_where_the_model_falls(lab):
    """Issue 13, 11b, and issue 41: a rail-optimized fabric has no cliff where the job leaves the node; nodes whose
    eight GPUs share one or two ports have one. Each claim is checked against the hand model, each figure is the
    hand model's."""
    statement = _prose(lab.model_statement)
    one_port, two_ports = EXPECTED.FABRIC_MFU["eth-1x100"], EXPECTED.FABRIC_MFU["eth-2x200"]
    assert fall(8, 16) < 1.25 * fall(4, 8) and fall(8, 16, one_port) > 5 * fall(4, 8, one_port)
    assert fall(8, 16, two_ports) > 4 * fall(4, 8, two_ports)
    assert "no cliff where the job leaves the node" in statement
    assert (f"falls {fall(8, 16):.1f} points from 8 to 16 GPUs, about as much as the {fall(4, 8):.1f} from 4 to 8"
            in statement)
    assert abs(fall(16, 32) - fall(32, 64)) < 0.5 and f"about {fall(32, 64):.1f} points per doubling" in statement
    past_64 = [fall(a, b) for a, b in itertools.pairwise(GPU_COUNTS[6:])]           # 64 -> 128 onwards
    assert GPU_COUNTS[6] == 64 and past_64 == sorted(past_64) and past_64[0] > fall(32, 64)
    assert f"{fall(64, 128):.1f} points from 64 to 128 GPUs, {fall(256, 512):.1f} from 256 to 512" in statement
    assert (f"where eight GPUs share one 100 Gb/s port, MFU drops from {EXPECTED.MFU[8]:.1f}% at 8 GPUs to "
            f"{one_port[16]:.1f}% at 16, and two 200 Gb/s ports still give only {two_ports[16]:.1f}%") in statement
    assert "The cliff belongs to the fabric, not to leaving the node" in statement


def test_the_model_statement_says_a_ring_across_nodes_runs_at_all_the_nics(lab):
    """Issue 41: the lab said a ring across nodes runs at one port; NCCL runs one channel per NIC."""
    statement = _prose(lab.model_statement)
    assert "slowest hop, one port" not in statement and "crawl" not in statement
    ring_rate = EXPECTED.cross_node_ring_bandwidth("rail-ndr") / 1e9
    assert ring_rate == 400 and f"min(NVLink, 400) = {ring_rate:g} GB/s here, never at one port's 50" in statement
    assert "8 NICs of 400 Gb/s, one per GPU, 50 GB/s each and 400 GB/s together" in statement


def test_the_model_statement_compares_the_model_with_the_measurements_as_they_are(lab):
    """Issue 13, 11a: counted consistently the model explains most of the fall; the statement says what is
    left, and each comparison it makes holds in the hand model."""
    statement, model, measured = _prose(lab.model_statement), EXPECTED.MFU, EXPECTED.MEASURED
    assert f"The model gives {model[8]:.1f}%, {model[64]:.1f}% and {model[512]:.1f}% MFU at 8, 64 and 512" in statement
    assert model[8] < measured[8] and model[64] < measured[64] and "below the measurements at 8 and 64" in statement
    assert model[512] > measured[512] and "At 512 GPUs the job falls below even this model" in statement
    lost = measured[64] - measured[512]
    assert lost > fall(64, 512)
    assert f"lost {lost:g} points from 64 to 512 GPUs against the model's {fall(64, 512):.1f}" in statement


def test_the_model_statement_prices_latency_per_bucket_and_says_why(lab):
    statement = _prose(lab.model_statement)
    assert f"the 7B gradient pays them {EXPECTED.BUCKETS_7B} times" in statement
    one_allreduce = EXPECTED.hierarchical(2 * 7e9, 64, 400e9)                      # chapter 4: one AllReduce
    alpha_share = 1 - EXPECTED.hierarchical(2 * 7e9, 64, 400e9, alpha=0) / one_allreduce
    assert alpha_share < 0.01 and EXPECTED.LATENCY_MS[512] > EXPECTED.BANDWIDTH_MS[512]
    assert f"one AllReduce of gigabytes hardly notices it; {EXPECTED.BUCKETS_7B} of them on a long ring do" in statement


def test_act_one_names_zero_1_because_plain_ddp_never_fits(lab):
    """Issue 13, 11c: Act I said "plain data parallelism" while the model shards the optimizer (ZeRO-1)."""
    act = lab.act("data-parallel")
    message, statement = _prose(act.message), _prose(lab.model_statement)
    assert EXPECTED.PLAIN_DDP_7B_GB == 112 > EXPECTED.HBM / 1e9
    assert "plain data parallelism" not in message.lower()
    assert "ZeRO-1" in message and "plain DDP would need 112 GB per GPU" in message
    assert "Plain data parallelism (DDP) would keep all 16 bytes on every GPU: 112 GB for the 7B model" in statement


def test_act_one_feedback_splits_the_allreduce_as_the_model_does(lab):
    """Issue 13, 11e: the "nccl" feedback quoted 44 ms of latency at 64 GPUs, 39.2 ms of which was already paid at
    8; it now says how start-ups and bytes grow from 8 to 64 and from 64 to 512 GPUs."""
    options = {o.id: o for o in lab.act("data-parallel").prediction.options}
    latency, bandwidth = EXPECTED.LATENCY_MS, EXPECTED.BANDWIDTH_MS
    nccl = _prose(options["nccl"].feedback)
    assert bandwidth[64] - bandwidth[8] > latency[64] - latency[8]
    assert latency[512] - latency[64] > bandwidth[512] - bandwidth[64] and "past 64 GPUs the larger part" in nccl
    assert (f"gains {latency[64] - latency[8]:.0f} ms of start-ups and {bandwidth[64] - bandwidth[8]:.0f} ms of "
            "moving bytes") in nccl
    assert (f"gains {latency[512] - latency[64]:.0f} ms of start-ups and only {bandwidth[512] - bandwidth[64]:.0f} "
            "ms of bytes") in nccl
    right = _prose(options["comm-ratio"].feedback)
    comm, model = EXPECTED.COMM_MS, EXPECTED.MFU
    assert options["comm-ratio"].correct and f"computes for {EXPECTED.COMPUTE_MS:.0f} ms" in right
    assert f"from {comm[8]:.0f} ms at 8 GPUs to {comm[64]:.0f} ms at 64 and {comm[512]:.0f} ms at 512" in right
    assert f"falls from {model[8]:.1f}% to {model[64]:.1f}% and {model[512]:.1f}%" in right


def test_act_two_options_say_what_the_model_computes(lab):
    options = {o.id: o for o in lab.act("three-d").prediction.options}
    hand = EXPECTED.ACT_TWO
    assert {key: (o.layout.tp, o.layout.pp) for key, o in options.items()} == EXPECTED.ACT_TWO_LAYOUTS
    feedback = {key: _prose(o.feedback) for key, o in options.items()}
    best_that_fits = max((k for k in hand if not hand[k]["oom"]), key=lambda k: hand[k]["mfu"])
    assert options["node-tp"].correct and best_that_fits == "node-tp"

    wide = hand["wide-tp"]
    assert not wide["oom"] and wide["tp_comm"] > wide["compute"]
    assert f"It fits ({wide['memory'] / 1e9:.1f} GB per GPU), but a TP group of 32 spans 4 nodes" in feedback["wide-tp"]
    assert (f"{wide['tp_comm']:.2f} s of TP traffic per step against {wide['compute']:.2f} s of compute, for an MFU "
            f"of {wide['mfu']:.1f}%") in feedback["wide-tp"]
    wide_one_port = EXPECTED.three_d(32, 1, 8, fabric="eth-1x100")
    assert (f"({EXPECTED.cross_node_ring_bandwidth('rail-ndr') / 1e9:g} GB/s across all eight NICs against NVLink's "
            "450)") in feedback["wide-tp"]
    assert (f"now has 62 ring steps instead of 14, and every GPU waits for four of them in each of its 96 layers: "
            f"{wide['tp_one'] * 1e6:.0f} µs each against {EXPECTED.TP_ALLREDUCE_US:.0f} µs inside a node"
            ) in feedback["wide-tp"]
    assert f"would spend {wide_one_port['tp_comm']:.2f} s on TP alone" in feedback["wide-tp"]

    node = hand["node-tp"]
    assert f"4 stages of 24 layers bring a GPU down to {node['memory'] / 1e9:.1f} GB" in feedback["node-tp"]
    assert (f"(overhead {node['bubble_overhead']:.1f}%, idle share {node['idle_share']:.1f}%) and MFU is "
            f"{node['mfu']:.1f}%") in feedback["node-tp"]

    deep, deep_full = hand["deep-pp"], EXPECTED.three_d(1, 32, 32)
    assert deep_full["oom"] and deep_full["activations"] == pytest.approx(4 * deep["activations"])
    assert (f"the bubble overhead is {deep['bubble_overhead']:.1f}% and {deep['idle_share']:.1f}% of each step is "
            f"idle, for an MFU of {deep['mfu']:.1f}%") in feedback["deep-pp"]
    assert (f"{deep['activations'] / 1e9:.1f} GB at m = 8 becomes {deep_full['activations'] / 1e9:.1f} GB at m = 32, "
            f"and the GPU then needs {deep_full['memory'] / 1e9:.1f} GB, more than the card holds"
            ) in feedback["deep-pp"]

    no_pp = hand["no-pp"]
    assert no_pp["oom"] and "does not fit" in feedback["no-pp"]
    assert (f"weights and gradients alone take {4 * 175e9 / 8 / 1e9:.1f} GB and the total is "
            f"{no_pp['memory'] / 1e9:.1f} GB against 80 GB") in feedback["no-pp"]


def test_act_two_reflection_prices_tensor_parallelism_across_nodes(lab):
    """Issue 41: the reflection said TP across nodes "crawls at one port's bandwidth"; on rail-optimized nodes the
    ring keeps most of NVLink's, and the feedback gives the model's real cost, and the one-port node's."""
    options = {o.id: o for o in lab.act("three-d").reflection.options}
    right = options["critical-path"]
    text, feedback = _prose(right.text), _prose(right.feedback)
    assert right.correct and "one port" not in text + feedback
    tp16, tp8, one_port = EXPECTED.TP16, EXPECTED.TP8, EXPECTED.TP16_ONE_PORT
    assert tp16["compute"] == pytest.approx(tp8["compute"]) and tp16["tp_comm"] > 2 * tp8["tp_comm"]
    assert one_port["tp_comm"] > 10 * tp16["tp_comm"]
    assert (f"In this model TP = 16 with PP = 2 spends {tp16['tp_comm']:.2f} s of each step on TP against "
            f"{tp8['tp_comm']:.2f} s for TP = 8, for the same {tp8['compute']:.2f} s of compute; on nodes with one "
            f"100 Gb/s port it would be {one_port['tp_comm']:.2f} s") in feedback
    assert "(400 GB/s through all the NICs against NVLink's 450)" in feedback


@pytest.mark.parametrize(("saved", "now"), [("ndr-hier", "rail-ndr"), ("hdr-hier", "rail-hdr"),
                                            ("ndr-flat", "rail-ndr"), ("eth-1x100", "eth-1x100")])
def test_a_design_saved_with_a_former_fabric_reads_as_the_fabric_it_meant(lab, saved, now):
    """Designs saved before issue 41 name the fabrics of the old model; the ledger lists and restores them
    on the rail-optimized fabric they described, priced by the model as it is now."""
    design = design_from({"data-parallel": {"config": {"gpus": 64, "fabric": saved}}}, lab)
    assert design.data_parallel.fabric.id == now and design.data_parallel.gpus == 64
    mfu = EXPECTED.FABRIC_MFU[now][64]
    assert f"(Act I: 7B on 64 GPUs, {mfu:.1f}%)" in design.summary(lab)


def _line(text: str, needle: str) -> int:
    """The line of `text` on which `needle` starts."""
    return text[: text.index(needle)].count("\n") + 1


# (text to find, text to put in its place, where the problem is, the message: a regular expression). `where` is
# the text whose line the problem must name, in the damaged file.
DAMAGE = [
    ("model: |", "model: [", None,
     r"not valid YAML"),
    ("{model_64}", "{nonsense}", "model: |",
     r"model: unknown figure \{nonsense\}; known: alpha_us, "),
    ("{model_64}%", "{model_64%", "model: |",
     r"model: .*; write \{\{ and \}\} for a brace in the text"),
    ("          correct: true\n", "", "        - id: nccl",
     r"acts/0/prediction/options: exactly one option must have correct: true"),
    ("        - id: hbm\n", "        - id: nccl\n", "        - id: nccl",
     r"acts/0/prediction/options: option ids must be unique"),
    ("          correct: true\n", "          corect: true\n", "- id: comm-ratio",
     r"acts/0/prediction/options/1: Additional properties are not allowed \('corect' is not allowed here\)"),
    ("layout: {tp: 8, pp: 1}", "layout: {tp: 3, pp: 1}", "{tp: 3, pp: 1}",
     r"acts/1/prediction/options/3/layout: TP x PP = 3 must divide the 1024 GPUs"),
    ("layout: {tp: 8, pp: 1}", "layout: {tp: 64, pp: 1}", "{tp: 64, pp: 1}",
     r"acts/1/prediction/options/3/layout: TP = 64 must divide the 96 attention heads"),
    ("layout: {tp: 8, pp: 1}", "layout: {tp: 0, pp: 1}", "{tp: 0, pp: 1}",
     r"acts/1/prediction/options/3/layout/tp: 0 is less than the minimum of 1"),
    ("  - id: three-d", "  - id: three-dee", "  - id: data-parallel",
     r"acts: expected two acts with ids data-parallel, three-d, in that order"),
    ("{8: 52, 64: 38, 512: 19}", "{8: 52, 63: 38, 512: 19}", "measured_mfu",
     r"acts/0/measured_mfu: expected GPU count: MFU %, with GPU counts among"),
    ("{8: 52, 64: 38, 512: 19}", "{8: 52, 64: 380, 512: 19}", "measured_mfu",
     r"acts/0/measured_mfu/64: 380 is greater than the maximum of 100"),
    ("    measured_mfu: {8: 52, 64: 38, 512: 19}\n", "", "  - id: data-parallel",
     r"acts/0: 'measured_mfu' is a required property"),
    ("title: The Parallelism Paradox", "title: '  '", "title: '  '",
     r"title: a non-empty text is required"),
    ("    reflection:\n",
     "        - id: fifth\n          text: A fifth option.\n          feedback: No key picks it.\n    reflection:\n",
     "        - id: nccl",
     r"acts/0/prediction/options: 5 items; expected at most 4"),
]


@pytest.mark.parametrize("old, new, where, message", DAMAGE, ids=[m.split(":")[0] + f"-{i}" for i, (*_, m) in
                                                                   enumerate(DAMAGE)])
def test_a_damaged_lab_file_is_named_in_the_error_with_its_line(tmp_path, old, new, where, message):
    """Issue 24, 8: labs are checked against content/lab.schema.json and then for what needs the model; every
    problem names the file, the line and the field, as a book's problems do. A lone brace was a traceback."""
    text = LAB_PATH.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "lab.yaml"
    damaged = text.replace(old, new, 1)
    broken.write_text(damaged, encoding="utf-8")
    with pytest.raises(LabError) as caught:
        load_lab(broken, tmp_path)
    line = r"\d+" if where is None else str(_line(damaged, where))
    assert any(re.fullmatch(f"{re.escape(str(broken))}:{line}: {message}.*", str(problem), re.S)
               for problem in caught.value.problems), (line, str(caught.value))
    assert str(caught.value) == "\n".join(map(str, caught.value.problems))


def test_every_unknown_figure_is_reported_at_once(tmp_path):
    text = LAB_PATH.read_text(encoding="utf-8")
    broken = tmp_path / "lab.yaml"
    broken.write_text(text.replace("{model_64}", "{first}", 1).replace("{compute_ms}", "{second}", 1),
                      encoding="utf-8")
    with pytest.raises(LabError) as caught:
        load_lab(broken, tmp_path)
    named = [re.search(r"unknown figure (\{\w+\})", str(problem)) for problem in caught.value.problems]
    assert [match.group(1) for match in named if match] == ["{first}", "{second}"]


def test_content_check_names_the_line_of_a_broken_lab(chapters_copy):
    """Before issue 24 every lab problem was reported at line 1."""
    book_copy = chapters_copy("00-ring-allreduce", lab=True)
    lab = book_copy / "labs/parallelism-paradox.yaml"
    damaged = lab.read_text(encoding="utf-8").replace("layout: {tp: 8, pp: 1}", "layout: {tp: 1, pp: 64}", 1)
    lab.write_text(damaged, encoding="utf-8")
    _, problems = check_book(book_copy)
    assert [str(p) for p in problems if p.path == lab] == [
        f"{lab}:{_line(damaged, 'pp: 64')}: acts/1/prediction/options/3/layout: PP = 64 must divide the 96 layers."]


def test_the_built_in_lab_is_valid_against_its_schema():
    import jsonschema

    data = yaml.safe_load(LAB_PATH.read_text(encoding="utf-8"))
    schema = json.loads(LAB_SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data)) == []


def test_a_missing_lab_file_is_a_lab_error(tmp_path):
    with pytest.raises(LabError, match="cannot read"):
        load_lab(tmp_path / "nope.yaml", tmp_path)


def test_the_labs_cluster_is_the_books_h100_node():
    """Issue 41: one network model. The lab prices the node book.yaml declares (its H100: memory, NVLink per
    direction, GPUs, NICs and their rate), and its cross-node ring is grader.network's."""
    from grader.exercise import product_figures
    from grader.lab.model import tp_ring_gbs

    h100 = product_figures(builtin_book().exercise("13.2").hardware["H100"])
    assert (HW.hbm_gb, HW.nvlink_gbs, HW.gpus_per_node) == (h100["memory"], h100["nvlink"], h100["gpus"])
    assert (HW.fabric.nics, HW.fabric.nic_gbps, HW.fabric.node_gbs) == (h100["nics"], h100["network"],
                                                                       h100["node_network"])
    assert tp_ring_gbs(16, HW.fabric, HW) == h100["ring_across_nodes"]

"""The Parallelism Paradox lab: a stated performance model (setups in, figures out), the lab's prose as
dataclasses, and the figures that prose may name. grader.lab.load reads a lab file into these.

The model reuses the book's formulas so the lab never contradicts a chapter: ring AllReduce time
2(N-1)α + 2S(N-1)/(NB) (chapters 0 and 4), with B from the book's network model (grader.network: NVLink inside
a node; across nodes one channel per NIC, so all the node's NICs together), paid by every gradient bucket since
each is its own AllReduce,
MFU_eff = MFU x T_compute / (T_compute + T_exposed) (chapter 4), the bubble overhead (p-1)/m and idle share
(p-1)/(m+p-1) (chapter 5), four TP AllReduces of 2bsh bytes per layer (chapter 6), activations
s b h (10 + 24/t) bytes per layer (chapter 10), 16 bytes per parameter for mixed-precision Adam (chapter 1)
and the hardware figures of chapter 13. Nothing here imports Textual.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from grader.network import node_network_gbs, ring_gbs

GB = 1e9


@dataclass(frozen=True)
class Fabric:
    """The network between nodes: `nics` cards of `nic_gbps` Gb/s each per node. A ring that spans nodes runs
    one channel per NIC (grader.network), so what a node can send is all its NICs together."""

    id: str
    name: str
    nics: int
    nic_gbps: float

    @property
    def nic_gbs(self) -> float:
        """One NIC, GB/s one way."""
        return node_network_gbs(1, self.nic_gbps)

    @property
    def node_gbs(self) -> float:
        """All the node's NICs together, GB/s one way."""
        return node_network_gbs(self.nics, self.nic_gbps)


FABRICS = (
    Fabric("rail-ndr", "8 x 400 Gb/s per node, rail-optimized", 8, 400),   # HGX H100 with ConnectX-7 NDR
    Fabric("rail-hdr", "8 x 200 Gb/s per node, rail-optimized", 8, 200),   # the DGX A100 generation's HDR
    Fabric("eth-2x200", "2 x 200 Gb/s Ethernet per node", 2, 200),         # a cloud node with two ports
    Fabric("eth-1x100", "1 x 100 Gb/s Ethernet per node", 1, 100),         # a cloud node with one port
)
# Fabrics a design saved before 2026-11 may name: the hierarchical ones are these rail-optimized nodes, and the
# old flat ring "at one port" was NDR too (it modelled a ring NCCL does not run there).
FORMER_FABRIC_IDS = {"ndr-hier": "rail-ndr", "hdr-hier": "rail-hdr", "ndr-flat": "rail-ndr"}


@dataclass(frozen=True)
class Hardware:
    """An HGX H100 cluster, and the assumptions every figure of the lab rests on."""

    peak_tflops: float = 989.0          # H100 SXM dense BF16; 1979 is the 2:4-sparsity figure
    hbm_gb: float = 80.0
    nvlink_gbs: float = 450.0           # NVLink 4 per GPU, one direction (the data sheet's 900 adds both)
    gpus_per_node: int = 8
    fabric: Fabric = field(default=FABRICS[0])   # Act II's cluster: a ConnectX-7 NDR NIC per GPU, on rails
    base_efficiency: float = 0.60       # share of peak the matrix multiplies reach with no communication
    alpha_us: float = 5.0               # start-up latency of one ring step
    bucket_mb: float = 25.0             # DDP's default gradient bucket; each bucket is its own AllReduce
    seq_len: int = 2048


@dataclass(frozen=True)
class ModelShape:
    name: str
    params_b: float
    layers: int
    hidden: int
    heads: int

    @property
    def params(self) -> float:
        return self.params_b * 1e9


MODELS = (
    ModelShape("1.3B", 1.3, 24, 2048, 16),
    ModelShape("7B", 7, 32, 4096, 32),
    ModelShape("13B", 13, 40, 5120, 40),
    ModelShape("70B", 70, 80, 8192, 64),
    ModelShape("175B", 175, 96, 12288, 96),
)
GPT3 = MODELS[-1]
GPU_COUNTS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
MICRO_BATCHES = (1, 2, 3, 4, 6, 8)
TP_DEGREES = (1, 2, 4, 8, 16, 32)
PP_DEGREES = (1, 2, 4, 8, 16, 32)
PIPELINE_MICROBATCHES = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64)
PLOTTED_MICROBATCHES = (1, 4, 8, 32)   # Act II plots a bubble curve for each, in either face
CLUSTER_GPUS = 1024


# --- shared formulas ----------------------------------------------------------------------------------

def ring_allreduce_s(size_bytes: float, ranks: int, bandwidth_gbs: float, hw: Hardware) -> float:
    """Chapter 0: one ring AllReduce, 2(N-1) steps of α plus 2S(N-1)/N bytes at B."""
    if ranks <= 1 or size_bytes <= 0:
        return 0.0
    return 2 * (ranks - 1) * hw.alpha_us * 1e-6 + 2 * size_bytes * (ranks - 1) / (ranks * bandwidth_gbs * GB)


def hierarchical_allreduce_s(size_bytes: float, nodes: int, fabric: Fabric, hw: Hardware) -> float:
    """Chapter 4: reduce-scatter and all-gather on NVLink inside each node (together one NVLink ring), and
    between them a ring of the nodes for each GPU's eighth. The eight eighths cross at once and share the
    node's NICs: each its own NIC on a rail-optimized node, all of them one port on a node that has one."""
    node = hw.gpus_per_node
    return (ring_allreduce_s(size_bytes, node, hw.nvlink_gbs, hw)
            + ring_allreduce_s(size_bytes / node, nodes, fabric.node_gbs / node, hw))


def per_gpu_network_gbs(fabric: Fabric, hw: Hardware) -> float:
    """What one GPU can send between nodes while all its node's GPUs send too: its share of the NICs."""
    return fabric.node_gbs / hw.gpus_per_node


def tp_ring_gbs(tp: int, fabric: Fabric, hw: Hardware) -> float:
    """The bandwidth of a TP group's ring: NVLink inside a node, the book's cross-node ring beyond it."""
    return ring_gbs(hw.nvlink_gbs, fabric.nics, fabric.nic_gbps, tp > hw.gpus_per_node)


def bucket_count(size_bytes: float, hw: Hardware) -> int:
    """How many AllReduces DDP makes of a gradient of `size_bytes`."""
    return math.ceil(size_bytes / (hw.bucket_mb * 1e6))


def gradient_sync_s(size_bytes: float, one_allreduce: Callable[[float], float], hw: Hardware) -> float:
    """The gradient leaves in DDP's buckets, each its own collective, so every bucket pays the start-ups of
    whichever AllReduce carries it (on NVLink, hierarchical or over the DP ranks)."""
    full, rest = divmod(size_bytes, hw.bucket_mb * 1e6)
    return full * one_allreduce(hw.bucket_mb * 1e6) + (one_allreduce(rest) if rest else 0.0)


def activation_bytes_per_layer(model: ModelShape, micro_batch: int, tp: int, hw: Hardware) -> float:
    """Chapter 10: s b h (10 + 24/t) bytes stashed per layer, BF16, FlashAttention, no sequence parallelism."""
    return hw.seq_len * micro_batch * model.hidden * (10 + 24 / tp)


def model_state_bytes(params: float, optimizer_shards: int) -> tuple[float, float]:
    """(BF16 weights + gradients, FP32 master + Adam moments) for `params` parameters: 2 + 2 bytes kept
    whole, 12 bytes sharded over `optimizer_shards` data-parallel ranks (ZeRO-1)."""
    return 4 * params, 12 * params / optimizer_shards


# --- Act I: data parallelism -----------------------------------------------------------------------------

@dataclass(frozen=True)
class DataParallelSetup:
    model: ModelShape = MODELS[1]
    gpus: int = 8
    micro_batch: int = 2
    fabric: Fabric = FABRICS[0]


class MemoryBudget:
    """Per-GPU memory and whether it fits, for figures that carry its parts and the card's HBM."""

    weights_grads_gb: float
    optimizer_gb: float
    activations_gb: float
    hbm_gb: float

    @property
    def memory_gb(self) -> float:
        return self.weights_grads_gb + self.optimizer_gb + self.activations_gb

    @property
    def oom(self) -> bool:
        return self.memory_gb > self.hbm_gb


@dataclass(frozen=True)
class DataParallelFigures(MemoryBudget):
    compute_s: float
    comm_s: float
    weights_grads_gb: float
    optimizer_gb: float
    activations_gb: float
    inside_node: bool
    hbm_gb: float

    @property
    def ratio(self) -> float:
        return self.comm_s / self.compute_s

    @property
    def step_s(self) -> float:
        return self.compute_s + self.comm_s


def data_parallel_comm_s(setup: DataParallelSetup, hw: Hardware) -> float:
    """The gradient sync bucket by bucket, nothing overlapped: NVLink inside a node; across nodes chapter 4's
    hierarchical AllReduce over the fabric's NICs."""
    n, node, fabric = setup.gpus, hw.gpus_per_node, setup.fabric
    if n <= node:
        def one_bucket(size: float) -> float:
            return ring_allreduce_s(size, n, hw.nvlink_gbs, hw)
    else:
        def one_bucket(size: float) -> float:
            return hierarchical_allreduce_s(size, n // node, fabric, hw)
    return gradient_sync_s(2 * setup.model.params, one_bucket, hw)      # BF16 gradients


def data_parallel_figures(setup: DataParallelSetup, hw: Hardware = Hardware()) -> DataParallelFigures:
    model = setup.model
    flops = 6 * model.params * setup.micro_batch * hw.seq_len
    weights_grads, optimizer = model_state_bytes(model.params, setup.gpus)
    activations = model.layers * activation_bytes_per_layer(model, setup.micro_batch, 1, hw)
    return DataParallelFigures(
        compute_s=flops / (hw.peak_tflops * 1e12 * hw.base_efficiency),
        comm_s=data_parallel_comm_s(setup, hw),
        weights_grads_gb=weights_grads / GB, optimizer_gb=optimizer / GB, activations_gb=activations / GB,
        inside_node=setup.gpus <= hw.gpus_per_node, hbm_gb=hw.hbm_gb)


def data_parallel_mfu(setup: DataParallelSetup, hw: Hardware = Hardware()) -> float:
    """Chapter 4: MFU_eff = base efficiency x T_compute / (T_compute + T_exposed), T_exposed = T_comm."""
    figures = data_parallel_figures(setup, hw)
    return hw.base_efficiency * figures.compute_s / figures.step_s


@dataclass(frozen=True)
class CurvePoint:
    """One GPU count of Act I's plot; an out-of-memory point is drawn as such, not as a job that runs."""

    gpus: int
    mfu_pct: float
    oom: bool


def mfu_curve(setup: DataParallelSetup, hw: Hardware = Hardware()) -> list[CurvePoint]:
    """Every GPU count the lab offers, the rest of `setup` unchanged."""
    points = []
    for n in GPU_COUNTS:
        at_n = replace(setup, gpus=n)
        points.append(CurvePoint(n, 100 * data_parallel_mfu(at_n, hw), data_parallel_figures(at_n, hw).oom))
    return points


# --- Act II: 3D parallelism for GPT-3 175B on 1024 GPUs ----------------------------------------------

@dataclass(frozen=True)
class ThreeDSetup:
    tp: int = 8
    pp: int = 4
    microbatches: int = 8
    micro_batch: int = 1
    model: ModelShape = GPT3
    gpus: int = CLUSTER_GPUS

    @property
    def dp(self) -> int:
        return self.gpus // (self.tp * self.pp)


@dataclass(frozen=True)
class ThreeDFigures(MemoryBudget):
    dp: int
    params_per_gpu_b: float
    weights_grads_gb: float
    optimizer_gb: float
    activations_gb: float
    compute_s: float
    tp_comm_s: float
    dp_comm_s: float
    pipeline_s: float
    bubble_overhead: float
    idle_share: float
    tp_cross_node: bool
    global_batch: int
    mfu: float
    hbm_gb: float

    @property
    def step_s(self) -> float:
        return self.pipeline_s + self.dp_comm_s

    @property
    def ratio(self) -> float:
        return (self.tp_comm_s + self.dp_comm_s) / self.compute_s


def check_three_d(setup: ThreeDSetup) -> None:
    """Raise ValueError with a sentence when a layout cannot be built at all."""
    model = setup.model
    if setup.tp * setup.pp > setup.gpus or setup.gpus % (setup.tp * setup.pp):
        raise ValueError(f"TP x PP = {setup.tp * setup.pp} must divide the {setup.gpus} GPUs.")
    if model.heads % setup.tp:
        raise ValueError(f"TP = {setup.tp} must divide the {model.heads} attention heads.")
    if model.layers % setup.pp:
        raise ValueError(f"PP = {setup.pp} must divide the {model.layers} layers.")


def bubble_overhead(pp: int, m: int) -> float:
    """Chapter 5: idle time over ideal compute, (p-1)/m; can exceed 1."""
    return (pp - 1) / m


def idle_share(pp: int, m: int) -> float:
    """Chapter 5: idle time over the whole step, (p-1)/(m+p-1); always below 1."""
    return (pp - 1) / (m + pp - 1)


def three_d_figures(setup: ThreeDSetup, hw: Hardware = Hardware()) -> ThreeDFigures:
    """One step of 1F1B: (m + p - 1) slots of one micro-batch's compute plus its TP AllReduces, then the
    ZeRO-1 gradient sync over DP on each GPU's share of the NICs, bucket by bucket. Nothing overlaps; pipeline
    sends are neglected."""
    check_three_d(setup)
    model, tp, pp, m = setup.model, setup.tp, setup.pp, setup.microbatches
    dp = setup.dp
    params_per_gpu = model.params / (tp * pp)
    weights_grads, optimizer = model_state_bytes(params_per_gpu, dp)
    in_flight = min(m, pp)                 # 1F1B: stage 0 holds at most p micro-batches
    activations = in_flight * (model.layers // pp) * activation_bytes_per_layer(model, setup.micro_batch, tp, hw)
    compute_mb = 6 * params_per_gpu * setup.micro_batch * hw.seq_len / (hw.peak_tflops * 1e12 * hw.base_efficiency)
    cross_node = tp > hw.gpus_per_node
    one_tp_allreduce = ring_allreduce_s(2 * setup.micro_batch * hw.seq_len * model.hidden, tp,
                                        tp_ring_gbs(tp, hw.fabric, hw), hw)
    tp_mb = 4 * (model.layers // pp) * one_tp_allreduce     # activations are not bucketed: one α set each
    pipeline = (m + pp - 1) * (compute_mb + tp_mb)
    dp_gbs = per_gpu_network_gbs(hw.fabric, hw)              # DP peers sit on other nodes: each GPU its own rail
    dp_comm = gradient_sync_s(2 * params_per_gpu, lambda size: ring_allreduce_s(size, dp, dp_gbs, hw), hw)
    useful_flops = 6 * params_per_gpu * setup.micro_batch * hw.seq_len * m
    return ThreeDFigures(
        dp=dp, params_per_gpu_b=params_per_gpu / 1e9, weights_grads_gb=weights_grads / GB,
        optimizer_gb=optimizer / GB, activations_gb=activations / GB, compute_s=m * compute_mb,
        tp_comm_s=m * tp_mb, dp_comm_s=dp_comm, pipeline_s=pipeline, bubble_overhead=bubble_overhead(pp, m),
        idle_share=idle_share(pp, m), tp_cross_node=cross_node, global_batch=dp * m * setup.micro_batch,
        mfu=useful_flops / (hw.peak_tflops * 1e12 * (pipeline + dp_comm)), hbm_gb=hw.hbm_gb)


def tp_cross_node_warning(setup: ThreeDSetup, hw: Hardware) -> str:
    """What a TP group that spans nodes costs, in one sentence both faces show under Act II's figures."""
    node = replace(setup, tp=min(setup.tp, hw.gpus_per_node))
    return (f"A TP group of {setup.tp} spans {math.ceil(setup.tp / hw.gpus_per_node)} nodes: each of its "
            f"AllReduces takes {2 * (setup.tp - 1)} ring steps that cross the network instead of "
            f"{2 * (node.tp - 1)} on NVLink, at {tp_ring_gbs(setup.tp, hw.fabric, hw):g} GB/s through all the "
            f"node's NICs instead of {hw.nvlink_gbs:g}, and every layer waits for four of them "
            f"({1e6 * tp_allreduce_s(setup, hw):.0f} µs each against {1e6 * tp_allreduce_s(node, hw):.0f} µs "
            "inside a node). Real clusters also lose NVLink SHARP and share the NICs with DP and PP traffic.")


def bubble_curve(m: int, pp_degrees: tuple[int, ...] = PP_DEGREES) -> list[tuple[int, float]]:
    """(PP, idle share of the step in %) for `m` micro-batches."""
    return [(pp, 100 * idle_share(pp, m)) for pp in pp_degrees]


# --- the lab's prose, and the figures it may name ---------------------------------------------------------------------

@dataclass(frozen=True)
class LabOption:
    id: str
    text: str
    feedback: str
    correct: bool = False
    layout: ThreeDSetup | None = None


@dataclass(frozen=True)
class LabQuestion:
    prompt: str
    options: tuple[LabOption, ...]

    @property
    def right(self) -> LabOption:
        return next(option for option in self.options if option.correct)

    def option(self, option_id: str) -> LabOption | None:
        return next((option for option in self.options if option.id == option_id), None)


@dataclass(frozen=True)
class Act:
    id: str
    title: str
    sender: str
    message: str
    prediction: LabQuestion
    reflection: LabQuestion
    measured_mfu: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True)
class Lab:
    id: str
    title: str
    intro: str
    model_statement: str
    acts: tuple[Act, ...]
    hardware: Hardware = Hardware()

    def act(self, act_id: str) -> Act:
        return next(act for act in self.acts if act.id == act_id)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def tp_allreduce_s(setup: ThreeDSetup, hw: Hardware) -> float:
    """One of a layout's TP AllReduces: the micro-batch's activation over the TP group's ring."""
    size = 2 * setup.micro_batch * hw.seq_len * setup.model.hidden
    return ring_allreduce_s(size, setup.tp, tp_ring_gbs(setup.tp, hw.fabric, hw), hw)


def layout_values(setup: ThreeDSetup, hw: Hardware) -> dict[str, str]:
    """The figures one Act II layout offers to prose, already formatted; `one_port_` ones price the same layout
    on nodes with a single port (the last fabric) instead of the cluster's."""
    figures = three_d_figures(setup, hw)
    full_pipeline = three_d_figures(replace(setup, microbatches=setup.pp), hw)   # m = p: all p in flight
    one_port = replace(hw, fabric=FABRICS[-1])
    in_node = replace(setup, tp=min(setup.tp, hw.gpus_per_node))
    return {
        "tp_ring_gbs": f"{tp_ring_gbs(setup.tp, hw.fabric, hw):g}", "tp_steps": str(2 * (setup.tp - 1)),
        "node_tp_steps": str(2 * (in_node.tp - 1)),
        "tp_allreduce_us": f"{1e6 * tp_allreduce_s(setup, hw):.0f}",
        "node_tp_allreduce_us": f"{1e6 * tp_allreduce_s(in_node, hw):.0f}",
        "one_port_tp_comm_s": f"{three_d_figures(setup, one_port).tp_comm_s:.2f}",
        "one_port_mfu": _pct(three_d_figures(setup, one_port).mfu),
        "tp": str(setup.tp), "pp": str(setup.pp), "dp": str(figures.dp), "m": str(setup.microbatches),
        "shards": str(setup.tp * setup.pp), "stage_layers": str(setup.model.layers // setup.pp),
        "tp_nodes": str(math.ceil(setup.tp / hw.gpus_per_node)),
        "full_pipeline_activations_gb": f"{full_pipeline.activations_gb:.1f}",
        "full_pipeline_memory_gb": f"{full_pipeline.memory_gb:.1f}",
        "memory_gb": f"{figures.memory_gb:.1f}", "weights_grads_gb": f"{figures.weights_grads_gb:.1f}",
        "optimizer_gb": f"{figures.optimizer_gb:.1f}", "activations_gb": f"{figures.activations_gb:.1f}",
        "params_per_gpu_b": f"{figures.params_per_gpu_b:.2f}", "compute_s": f"{figures.compute_s:.2f}",
        "tp_comm_s": f"{figures.tp_comm_s:.2f}", "dp_comm_s": f"{figures.dp_comm_s:.2f}",
        "bubble_overhead": _pct(figures.bubble_overhead), "idle_share": _pct(figures.idle_share),
        "mfu": _pct(figures.mfu),
    }


def prose_values(hw: Hardware, measured: dict[int, float]) -> dict[str, str]:
    """Constants and Act I figures at the starting settings, formatted for the lab's prose: MFU per GPU
    count on the starting fabric (model_N) and on each fabric (rail_ndr_N, eth_1x100_N, ... by its id), the
    points lost between two counts (fall_A_B), the AllReduce's time split into start-ups and bytes at 8, 64
    and 512 GPUs, and the TP=16 example of Act II's reflection on the cluster and on one-port nodes."""
    start = DataParallelSetup()
    no_latency = replace(hw, alpha_us=0.0)
    one_port = FABRICS[-1]
    weights_grads, optimizer = model_state_bytes(start.model.params, 1)
    values = {
        "peak_tflops": f"{hw.peak_tflops:g}", "hbm_gb": f"{hw.hbm_gb:g}", "nvlink_gbs": f"{hw.nvlink_gbs:g}",
        "nic_gbs": f"{hw.fabric.nic_gbs:g}", "nic_gbps": f"{hw.fabric.nic_gbps:g}", "nics": str(hw.fabric.nics),
        "node_network_gbs": f"{hw.fabric.node_gbs:g}",
        "cross_node_ring_gbs": f"{tp_ring_gbs(2 * hw.gpus_per_node, hw.fabric, hw):g}",
        "one_port_gbps": f"{one_port.nic_gbps:g}", "one_port_gbs": f"{one_port.node_gbs:g}",
        "base_efficiency": _pct(hw.base_efficiency).removesuffix(".0"),
        "alpha_us": f"{hw.alpha_us:g}", "bucket_mb": f"{hw.bucket_mb:g}", "seq_len": str(hw.seq_len),
        "model_states_tb": f"{16 * GPT3.params / 1e12:.1f}", "m": str(ThreeDSetup().microbatches),
        "gpt3_layers": str(GPT3.layers), "gpt3_hidden": str(GPT3.hidden), "gpt3_heads": str(GPT3.heads),
        "cluster_gpus": str(CLUSTER_GPUS), "cluster_nodes": str(CLUSTER_GPUS // hw.gpus_per_node),
        "gpus_per_node": str(hw.gpus_per_node),
        "plain_ddp_gb": f"{(weights_grads + optimizer) / GB:g}", "model_name": start.model.name,
        "micro_batch": str(start.micro_batch),
        "buckets": str(bucket_count(2 * start.model.params, hw)),
        "compute_ms": f"{1000 * data_parallel_figures(start, hw).compute_s:.0f}",
    }
    mfu = {n: 100 * data_parallel_mfu(replace(start, gpus=n), hw) for n in GPU_COUNTS}
    for earlier, later in [*itertools.pairwise(GPU_COUNTS), (64, 512)]:
        values[f"fall_{earlier}_{later}"] = f"{mfu[earlier] - mfu[later]:.1f}"
    for n in GPU_COUNTS:
        values[f"model_{n}"] = f"{mfu[n]:.1f}"
        for fabric in FABRICS:
            at_n = replace(start, gpus=n, fabric=fabric)
            values[f"{fabric.id.replace('-', '_')}_{n}"] = f"{100 * data_parallel_mfu(at_n, hw):.1f}"
    latency, bandwidth = {}, {}
    for n in (8, 64, 512):
        setup = replace(start, gpus=n)
        bandwidth[n] = 1000 * data_parallel_comm_s(setup, no_latency)
        latency[n] = 1000 * data_parallel_comm_s(setup, hw) - bandwidth[n]
        values[f"comm_ms_{n}"] = f"{latency[n] + bandwidth[n]:.0f}"
    for earlier, later in ((8, 64), (64, 512)):
        values[f"latency_gain_{earlier}_{later}"] = f"{latency[later] - latency[earlier]:.0f}"
        values[f"bandwidth_gain_{earlier}_{later}"] = f"{bandwidth[later] - bandwidth[earlier]:.0f}"
    node_tp, wide_tp = ThreeDSetup(), replace(ThreeDSetup(), tp=2 * hw.gpus_per_node, pp=2)
    for name, layout in (("tp8", node_tp), ("tp16", wide_tp)):
        values[f"{name}_comm_s"] = f"{three_d_figures(layout, hw).tp_comm_s:.2f}"
        values[f"{name}_compute_s"] = f"{three_d_figures(layout, hw).compute_s:.2f}"
        values[f"{name}_one_port_comm_s"] = f"{three_d_figures(layout, replace(hw, fabric=one_port)).tp_comm_s:.2f}"
    values["tp16_pp"] = str(wide_tp.pp)
    for n, value in measured.items():
        values[f"measured_{n}"] = f"{value:g}"
    if 64 in measured and 512 in measured:
        values["measured_fall_64_512"] = f"{measured[64] - measured[512]:g}"
    return values

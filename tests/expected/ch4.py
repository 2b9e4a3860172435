"""Chapter 4 answers recomputed by hand, independently of the YAML formulas."""
from pathlib import Path

GB = 1e9  # decimal gigabyte, bytes


def _ring_allreduce_seconds(grad_bytes, ring_size, one_way_bytes_per_s):
    # reduce-scatter + all-gather: 2 (N-1) steps, each sends a chunk of S/N bytes
    bytes_sent = 2 * (ring_size - 1) * grad_bytes / ring_size
    return bytes_sent / one_way_bytes_per_s


# 4.1: 10B params, FP16 gradients, 64 H100s on one NVLink fabric: 18 NVLink 4 links x 25 GB/s each way
h100_nvlink_one_way = 18 * 25 * GB                                          # 450 GB/s (data sheet: 900)
grad_10b = 10e9 * 2
t_41_ms = _ring_allreduce_seconds(grad_10b, 64, h100_nvlink_one_way) * 1000  # 87.5

# 4.2: 40 buckets, 5 ms compute and 1.5 ms AllReduce each; only the final bucket is exposed
layers, per_layer_compute, per_bucket_comm = 40, 5.0, 1.5
assert per_bucket_comm <= per_layer_compute  # no queue builds up
comm_total = layers * per_bucket_comm
exposed = per_bucket_comm
hidden_pct = (comm_total - exposed) / comm_total * 100  # 97.5

# 4.3: cross-node step of a hierarchical AllReduce over 8 H100 nodes. The node's 8 slices, its whole
# 20 GB, leave through all of its ports at once: two 400 Gb/s ports = 2 x 50 = 100 GB/s per node.
node_2x400 = 2 * 400e9 / 8                                         # bytes/s
t_43_ms = _ring_allreduce_seconds(grad_10b, 8, node_2x400) * 1000  # 350
# with a NIC per GPU (8 x 400 Gb/s), each GPU's 2.5 GB slice on its own 50 GB/s rail
t_43_rail_ms = _ring_allreduce_seconds(grad_10b / 8, 8, 400e9 / 8) * 1000   # 43.75
assert t_43_rail_ms == _ring_allreduce_seconds(grad_10b, 8, 8 * 400e9 / 8) * 1000

# 4.4: 120 TFLOP at a sustained 495 TFLOP/s, vs the 350 ms AllReduce
compute_ms = 120e12 / 495e12 * 1000
ratio_44 = 350 / compute_ms  # 1.44375


def comm_compute_ratio(params_b, n, bw_gbs, flops_per_step_t, gpu_tflops):
    """Independent reference for build exercise 4.5."""
    comm = _ring_allreduce_seconds(params_b * 1e9 * 2, n, bw_gbs * GB)
    compute = flops_per_step_t * 1e12 / (gpu_tflops * 1e12)
    return comm / compute


NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "4.1": t_41_ms,
    "4.2": hidden_pct,
    "4.3": t_43_ms,
    "4.4": ratio_44,
}
STEPS: dict[str, list[float]] = {}           # id -> list of row values (step-table traces)
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "4.6": lambda S, N, B: _ring_allreduce_seconds(S, N, B),
}
CHOICES: dict[str, str] = {}         # id -> id of the correct option
# 4.7: per-GPU bandwidth, GB/s in one direction (HBM: total of a memory).
_paths_47 = {
    "hbm": 3350.0,                          # H100 SXM HBM3
    "nvlink": 18 * 25.0,                    # 18 NVLink 4 links x 25 GB/s each way
    "pcie": 32e9 * 16 * 128 / 130 / 8 / GB, # Gen5 x16 after 128b/130b encoding
    "infiniband": 400 / 8,                  # NDR, Gb/s -> GB/s
    "ethernet": 100 / 8,
}
ORDERS = {           # id -> list of item ids in the correct order
    "4.7": sorted(_paths_47, key=_paths_47.__getitem__, reverse=True),
}
BUGGY_LINES: dict[str, int] = {}     # id -> 1-based buggy line
FUNCTIONS = {        # id -> independent reference implementation (build exercises)
    "4.5": comm_compute_ratio,
}

STATED = {           # where ("4.1" or "chapter 4") -> {figure as written: recomputed value}
    "4.1": {
        "87.5 ms": t_41_ms,
        "77.8 ms": _ring_allreduce_seconds(grad_10b, 8, h100_nvlink_one_way) * 1000,
        "88.9 ms": 2 * grad_10b / h100_nvlink_one_way * 1000,     # the ring's limit as N grows: 2S/B
    },
    "4.3": {
        "78 ms": _ring_allreduce_seconds(grad_10b, 8, h100_nvlink_one_way) * 1000,   # the two NVLink phases
    },
    "4.4": {
        "88 ms": _ring_allreduce_seconds(grad_10b, 8, 8 * 400e9 / 8) * 1000,   # eight 400 Gb/s NICs per node
    },
}

CHAPTER = " ".join((Path(__file__).parents[2] / "content/04-communication-overhead/chapter.md").read_text().split())


def _states(figure: str) -> None:
    """The narrative must state this recomputed figure (compared with line breaks as spaces)."""
    assert figure in CHAPTER, f"chapter 4 should state {figure!r}"


# Leaving the node: a NIC per GPU (one channel per NIC) against one or two ports per node
h100_nvlink_gbs, ndr_gbs = 18 * 25, 400 / 8
_states(f"8 x {ndr_gbs:.0f} = {8 * ndr_gbs:.0f} GB/s for the node")
_states(f"min({h100_nvlink_gbs}, {8 * ndr_gbs:.0f}) = {min(h100_nvlink_gbs, 8 * ndr_gbs):.0f} GB/s")
two_200 = 2 * 200 / 8
one_100 = 1 * 100 / 8
_states(f"2 x 200 Gb/s is {two_200:.0f} GB/s, {h100_nvlink_gbs / two_200:.0f}x below NVLink")
_states(f"1 x 100 Gb/s is {one_100} GB/s, {h100_nvlink_gbs / one_100:.0f}x below")

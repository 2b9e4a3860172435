"""Chapter 4 answers recomputed by hand, independently of the YAML formulas."""

GB = 1e9  # decimal gigabyte, bytes


def _ring_allreduce_seconds(grad_bytes, ring_size, one_way_bytes_per_s):
    # reduce-scatter + all-gather: 2 (N-1) steps, each sends a chunk of S/N bytes
    bytes_sent = 2 * (ring_size - 1) * grad_bytes / ring_size
    return bytes_sent / one_way_bytes_per_s


# 4.1: 10B params, FP16 gradients, 64 GPUs, 600 GB/s per direction
grad_10b = 10e9 * 2
t_41_ms = _ring_allreduce_seconds(grad_10b, 64, 600 * GB) * 1000  # 65.625

# 4.2: 40 buckets, 5 ms compute and 1.5 ms AllReduce each; only the final bucket is exposed
layers, per_layer_compute, per_bucket_comm = 40, 5.0, 1.5
assert per_bucket_comm <= per_layer_compute  # no queue builds up
comm_total = layers * per_bucket_comm
exposed = per_bucket_comm
hidden_pct = (comm_total - exposed) / comm_total * 100  # 97.5

# 4.3: cross-node ring of 8 nodes, whole 20 GB per node through one 100 GB/s link
t_43_ms = _ring_allreduce_seconds(grad_10b, 8, 100 * GB) * 1000  # 350

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
        "65.6 ms": t_41_ms,
        "58.3 ms": _ring_allreduce_seconds(grad_10b, 8, 600 * GB) * 1000,
        "66.7 ms": 2 * grad_10b / (600 * GB) * 1000,     # the ring's limit as N grows: 2S/B
    },
}

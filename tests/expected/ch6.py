"""Chapter 6 answers recomputed by hand, independently of the YAML formulas."""
from pathlib import Path

# Shared setup for 6.2 / 6.5: one micro-batch of one 4096-token sequence, d = 8192, TP = 8.
_d = 8192
_seq = 4096
_micro = 1
_tp = 8
_fp16 = 2  # bytes per value

_activation_bytes = _micro * _seq * _d * _fp16          # 67,108,864 B = 64 MiB
_reduce_scatter = _activation_bytes * (_tp - 1) / _tp    # each GPU sends t-1 chunks of S/t
_all_gather = _activation_bytes * (_tp - 1) / _tp        # ...and again in the gather pass
_per_gpu_bytes = _reduce_scatter + _all_gather           # 117,440,512 B

# 6.3: 12 d^2 params per layer, FP16, 80 layers, split over 8 GPUs.
_params_per_layer = 12 * _d * _d
_all_layers_bytes = 80 * _params_per_layer * _fp16

# 6.5: H100 NVLink, 450 GB/s per GPU in each direction (18 NVLink 4 links x 25 GB/s), 80 layers x 2
# AllReduces x (fwd + bwd), 500 ms compute.
_nvlink = 18 * 25e9  # bytes/s, one direction
_one_allreduce_ms = _per_gpu_bytes / _nvlink * 1000
_allreduces_per_step = 80 * 2 * 2
_comm_ms = _allreduces_per_step * _one_allreduce_ms
# the step's compute: 6 FLOPs per parameter per token, 12 d^2 parameters a layer, 4096 tokens, 80 layers,
# split over 8 GPUs, at 40% of an H100's 989 TFLOP/s dense BF16
_flops_per_gpu = 6 * _params_per_layer * _seq * _micro * 80 / _tp
_compute_ms = round(_flops_per_gpu / (0.40 * 989e12) * 1000)          # 500
assert _compute_ms == 500

# TP = 16 over two H100 nodes. Rail-optimized: 8 NICs of 400 Gb/s, one ring per NIC, so the ring runs at
# min(NVLink, 8 x 50 GB/s). A cloud node with one 100 Gb/s port: 12.5 GB/s for the whole node.
_per_gpu_bytes_16 = 2 * _activation_bytes * 15 / 16                    # 125.8 MB
_rail_node = 8 * 400e9 / 8                                             # 400 GB/s
_ring_16 = min(_nvlink, _rail_node)
_one_allreduce_16_ms = _per_gpu_bytes_16 / _ring_16 * 1000             # 0.3146
_comm_16_ms = _allreduces_per_step * _one_allreduce_16_ms              # 100.7
_cloud_node = 1 * 100e9 / 8                                            # 12.5 GB/s
_cloud_allreduce_ms = _per_gpu_bytes_16 / _cloud_node * 1000           # 10.1
# NCCL's cost model (src/graph/tuning.cc), Simple protocol ring: base 8.4 us, 3.4 us per NVLink step,
# 14 us per step that crosses the network, x1.4 for a multi-node ring on Ampere or later.
_lat_8_us = 8.4 + 2 * (8 - 1) * 3.4                                    # 56
_lat_16_us = (8.4 + (2 * (16 - 1) - 2) * 3.4 + 2 * 14.0) * 1.4        # 184


def _states_in(text: str, figure: str) -> None:
    assert figure in " ".join(text.split()), f"chapter 6 should state {figure!r}"


_CHAPTER = (Path(__file__).parents[2] / "content/06-tensor-parallelism/chapter.md").read_text()
_EXERCISES = (Path(__file__).parents[2] / "content/06-tensor-parallelism/exercises.yaml").read_text()
_states_in(_CHAPTER, f"{_per_gpu_bytes / 1e6:.2f} MB / 450 GB/s ≈ {_one_allreduce_ms:.3f} ms")
_states_in(_CHAPTER, f"320 × {_one_allreduce_ms:.3f} ms = {320 * round(_one_allreduce_ms, 3):.1f} ms")
_states_in(_CHAPTER, f"about {_flops_per_gpu / 1e14:.2f}e14 FLOPs per GPU")
_states_in(_CHAPTER, f"that is {_compute_ms / 1000:.2f} s")
_states_in(_CHAPTER, f"takes {_per_gpu_bytes / 300e9 * 1000:.3f} ms")                     # A100 NVLink
_states_in(_CHAPTER, f"8 × 50 GB/s = {_rail_node / 1e9:.0f} GB/s for the node")
_states_in(_CHAPTER, f"= {_per_gpu_bytes_16 / 1e6:.1f} MB, which takes {_one_allreduce_16_ms:.3f} ms at 400 GB/s")
_states_in(_CHAPTER, f"only {_one_allreduce_16_ms / _one_allreduce_ms:.1f} times")
_states_in(_CHAPTER, f"{_compute_ms / 2000:.2f} s")
_states_in(_CHAPTER, f"320 × {_one_allreduce_16_ms:.3f} ms = {_comm_16_ms:.0f} ms "
                     f"is {100 * _comm_16_ms / (_compute_ms / 2):.0f}%")
_states_in(_CHAPTER, f"adds {_lat_8_us:.0f} µs")
_states_in(_CHAPTER, f"charges {2 * (16 - 1) - 2} NVLink steps, 2 network steps of 14 µs, and a factor of 1.4")
_states_in(_CHAPTER, f"the node: about {_lat_16_us:.0f} µs")
_states_in(_CHAPTER, f"cost {320 * _lat_8_us / 1000:.0f} ms against {320 * _lat_16_us / 1000:.0f} ms")
_states_in(_CHAPTER, f"2(t-1)/t = {2 * 7 / 8} times")
_states_in(_CHAPTER, f"{_cloud_node / 1e9} GB/s for the whole node, {_nvlink / _cloud_node:.0f} times below")
_states_in(_CHAPTER, f"{2 * 200 / 8:.0f} GB/s, {_nvlink / 50e9:.0f} times below")
_states_in(_CHAPTER, f"AllReduce takes {_cloud_allreduce_ms:.1f} ms, and 320 of them take "
                     f"{320 * _cloud_allreduce_ms / 1000:.1f} s")
_states_in(_EXERCISES, f"would take {_cloud_allreduce_ms:.1f} ms")
# 6.7: the halved traffic against the right one, at H100 NVLink
_states_in(_EXERCISES, f"about {320 * _per_gpu_bytes / 2 / _nvlink * 1000:.0f} ms instead of {_comm_ms:.0f} ms")

NUMERIC = {
    "6.1": 8192 / 8,                                  # columns per GPU
    "6.2": _per_gpu_bytes / 1e6,                      # MB (decimal), ~117.44
    "6.3": _all_layers_bytes / _tp / 1e9,             # GB per GPU, ~16.11
    "6.5": _comm_ms / _compute_ms * 100,              # %, ~16.70
}

# 6.4: 64 query heads, 8 KV heads; TP = 8, then TP = 16.
_q_heads, _kv_heads = 64, 8
STEPS = {
    "6.4": [
        _q_heads / 8,            # Q heads per GPU at TP=8
        _kv_heads / 8,           # KV heads per GPU at TP=8
        (_q_heads / 8) / (_kv_heads / 8),  # Q heads per local KV head
        _q_heads / 16,           # Q heads per GPU at TP=16
        16 / _kv_heads,          # GPUs sharing (replicating) each KV head at TP=16
    ],
}


def _tp_allreduce_bytes(b, s, d, t):
    tensor = b * s * d * 2          # FP16 bytes
    chunk = tensor / t
    sends_per_pass = t - 1
    return 2 * sends_per_pass * chunk


# 6.6's slips, typed as a learner would: one ring pass of a {w}-byte tensor, and both passes of the
# tensor counted in values instead of bytes.
ONE_PASS_FORMULA = "{w} b s d (t - 1)/t"
VALUES_NOT_BYTES_FORMULA = "2 b s d (t - 1)/t"

FORMULAS = {
    "6.6": _tp_allreduce_bytes,
}
CHOICES: dict[str, str] = {}
ORDERS: dict[str, list[str]] = {}
BUGGY_LINES = {
    "6.7": 8,         # sent_bytes = steps * chunk / 2: the ring total is already per GPU
}

"""Chapter 6 answers recomputed by hand, independently of the YAML formulas."""

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

# 6.5: 600 GB/s NVLink, 80 layers x 2 AllReduces x (fwd + bwd), 300 ms compute.
_nvlink = 600e9  # bytes/s
_one_allreduce_ms = _per_gpu_bytes / _nvlink * 1000
_allreduces_per_step = 80 * 2 * 2
_comm_ms = _allreduces_per_step * _one_allreduce_ms
_compute_ms = 300

NUMERIC = {
    "6.1": 8192 / 8,                                  # columns per GPU
    "6.2": _per_gpu_bytes / 1e6,                      # MB (decimal), ~117.44
    "6.3": _all_layers_bytes / _tp / 1e9,             # GB per GPU, ~16.11
    "6.5": _comm_ms / _compute_ms * 100,              # %, ~20.88
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

"""Chapter 12 answers recomputed by hand, independently of the YAML formulas."""
import math
from pathlib import Path

GB = 1e9


def _slices_not_owned(total, ranks):
    # a rank owns one of `ranks` equal slices and exchanges all the others
    return (ranks - 1) * (total / ranks)


# 12.1: one layer of Llama 3 405B in BF16, from its shapes: attention (q and o are d x 128 heads x 128, k and v
# d x 8 heads x 128), a SwiGLU feed-forward of three d x 53248 matrices, and two norm vectors.
d, ffn, q_heads, kv_heads, head_dim = 16384, 53248, 128, 8, 128
layer_params = 2 * d * q_heads * head_dim + 2 * d * kv_heads * head_dim + 3 * d * ffn + 2 * d
layer_gb = layer_params * 2 / GB                                   # 6.375 GB
assert 401e9 < 126 * layer_params < 402e9                          # 126 layers: 401.7B of the 405B
assert round(layer_gb, 1) == 6.4                                    # the book's M
llama70_gb = (2 * 8192 * 64 * 128 + 2 * 8192 * 8 * 128 + 3 * 8192 * 28672 + 2 * 8192) * 2 / GB   # 1.711 GB
_EX = " ".join((Path(__file__).parents[2] / "content/12-collectives-toolkit/exercises.yaml").read_text().split())
assert f"{layer_params / 1e9:.2f}B parameters, {layer_gb:.2f} GB in BF16" in _EX             # 3.19B, 6.38 GB
assert f"Llama 3 70B holds {llama70_gb:.2f} GB" in _EX                                       # 1.71 GB

# 12.1: all-gather of a 6.4 GB layer over 16 GPUs, GB received per GPU
ag_121 = _slices_not_owned(6.4, 16)  # 6.0

# 12.2: alpha-beta ring all-reduce, 64 MB, 64 GPUs, 10 us, 50 GB/s
steps_122 = 2 * (64 - 1)
chunk_bytes = 64e6 / 64
per_step_s = 10e-6 + chunk_bytes / (50 * GB)
t_122_ms = steps_122 * per_step_s * 1000  # 3.78

# 12.3: 4 KB over 1024 GPUs: ring latency ~20 ms vs tree ~0.2 ms
ring_123 = 2 * 1023 * (10e-6 + (4e3 / 1024) / (50 * GB))
tree_123 = 2 * math.log2(1024) * (10e-6 + 4e3 / (50 * GB))
assert tree_123 < ring_123 / 50

# 12.5: cost table with M = 12 GB, N = 4
M5, N5 = 12.0, 4
rs = _slices_not_owned(M5, N5)
ag = _slices_not_owned(M5, N5)
steps_125 = [rs, ag, rs + ag, _slices_not_owned(M5, N5), M5]


def _ring_allreduce_time(M, N, a, B):
    n_steps = 2 * (N - 1)
    return n_steps * a + n_steps * (M / N) / B


NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "12.1": ag_121,
    "12.2": t_122_ms,
}
STEPS = {            # id -> list of row values (step-table traces)
    "12.5": steps_125,
}
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "12.6": _ring_allreduce_time,
}
CHOICES = {          # id -> id of the correct option
    "12.3": "tree",
}
ORDERS = {           # id -> list of item ids in the correct order
    "12.4": ["ag-fwd", "fwd", "ag-bwd", "rs-grads", "opt"],
}
BUGGY_LINES: dict[str, int] = {}     # id -> 1-based buggy line


def _ring_bytes_sent(collective, m, n):
    """Bytes one GPU sends on a ring, M the full tensor: every GPU passes on the N - 1 slices it does not own,
    once for a reduce-scatter or an all-gather and twice for an all-reduce (one of each); a pipelined
    broadcast passes the whole buffer on about once."""
    slices_passed = {"reducescatter": n - 1, "allgather": n - 1, "allreduce": 2 * (n - 1)}
    return m if collective == "broadcast" else slices_passed[collective] * m / n


MATCHES = {          # id -> {left id: the right option's id, or the number its text states}
    "12.7": {c: _ring_bytes_sent(c, 8, 4) for c in ("allreduce", "allgather", "reducescatter", "broadcast")},
    "12.8": {"data": "grads", "tensor": "partial", "pipeline": "sendrecv", "expert": "alltoall"},
}

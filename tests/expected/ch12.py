"""Chapter 12 answers recomputed by hand, independently of the YAML formulas."""
import math

GB = 1e9


def _slices_not_owned(total, ranks):
    # a rank owns one of `ranks` equal slices and exchanges all the others
    return (ranks - 1) * (total / ranks)


# 12.1: all-gather of an 8 GB layer over 16 GPUs, GB received per GPU
ag_121 = _slices_not_owned(8.0, 16)  # 7.5

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

"""Chapter 2 answers recomputed by hand, independently of the YAML formulas."""

# Shared setup: 2048-sequence effective batch, 4 sequences per GPU, 8 GPUs.
target = 2048
micro = 4
gpus = 8
per_round = micro * gpus            # 32 sequences per micro-batch round
accum = target // per_round         # 64, divides exactly
assert accum * per_round == target

allreduce_ms = 50
compute_ms = 120

# 2.2: 64 AllReduces without accumulation, 1 with it.
without_acc_ms = accum * allreduce_ms
with_acc_ms = 1 * allreduce_ms
saved_ms = without_acc_ms - with_acc_ms          # 3150

# 2.3: step time and global throughput.
step_ms = accum * compute_ms + allreduce_ms      # 7730 ms
step_s = step_ms / 1000
throughput = (micro * accum * gpus) / step_s     # ~264.9 sequences/s

NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "2.1": accum,
    "2.2": saved_ms,
    "2.3": throughput,
}
STEPS: dict[str, list[float]] = {}   # id -> list of row values (step-table traces)


def _throughput(b, D, k, t, r):
    sequences = b * D * k
    seconds = k * t + r
    return sequences / seconds


FORMULAS = {         # id -> python function of the symbols (formula derives)
    "2.6": _throughput,
}

# 2.5: Plain = 32 micro-batches of T; Checkpointed = 16 micro-batches of 2T * 4/3.
time_a = (target / (8 * gpus)) * 1.0
time_b = (target / (16 * gpus)) * 2.0 * (1 + 1 / 3)
assert time_a < time_b
CHOICES = {          # id -> id of the correct option
    "2.5": "a-no-checkpointing",
}
ORDERS: dict[str, list[str]] = {}          # id -> list of item ids in the correct order
BUGGY_LINES = {      # id -> 1-based buggy line
    "2.7": 8,         # steps = target // per_round floors; needs ceil
}

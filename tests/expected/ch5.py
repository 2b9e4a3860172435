"""Chapter 5 answers recomputed by hand, independently of the YAML formulas."""

from tests.expected.pipeline_schedule import interleaved_1f1b, one_f_one_b, step_time

# Time is counted in slots: one (chunk of a) stage's forward+backward for one
# micro-batch. Each GPU works m*v chunk slots and idles p-1 chunk slots.


def _slots(p, m, v=1):
    work = m * v
    idle = p - 1
    return work, idle


# 5.1: bubble overhead = idle / ideal compute, p=4, m=12, from a simulated 1F1B step
# (forward 1, backward 2: one micro-batch's work on a stage is 3)
overhead_51 = (step_time(one_f_one_b(4, 12), 1) / (12 * 3) - 1) * 100  # 25 %

# 5.2: 1F1B, stage 0 holds (p-1) warm-up forwards + 1 more before its first backward
p, per_mb_gb = 4, 2
warmup_stage0 = p - 0 - 1
peak_in_flight = warmup_stage0 + 1
act_52 = peak_in_flight * per_mb_gb  # 8 GB

# 5.3: interleaved, v=4, from a simulated interleaved 1F1B step
overhead_53 = (step_time(interleaved_1f1b(4, 12, 4), 4) / (12 * 3) - 1) * 100  # 6.25 %

# 5.4: 16 chunks -> 15 boundaries, each crossed forward and backward by 12 micro-batches
chunks = 4 * 4
boundaries = chunks - 1
crossings = boundaries * 12 * 2
traffic_54 = crossings * 0.5  # 180 GB

# 5.6: smallest integer m with (p-1)/m strictly below 5 %, p=8
m = 1
while not (7 * 100 < 5 * m):  # (p-1)/m < 5/100, in exact integer arithmetic
    m += 1
min_m_56 = m  # 141


def _idle_share(p, m, v):
    work, idle = _slots(p, m, v)
    return idle / (work + idle)


NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "5.1": overhead_51,
    "5.2": act_52,
    "5.3": overhead_53,
    "5.4": traffic_54,
    "5.6": min_m_56,
}
STEPS: dict[str, list[float]] = {}           # id -> list of row values (step-table traces)
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "5.7": _idle_share,
}
CHOICES: dict[str, str] = {}         # id -> id of the correct option


def _stage_ops(p, m, stage):
    """1F1B operation list of one stage: warm-up, steady 1F1B, drain."""
    warmup = min(p - stage - 1, m)
    ops = [("F", k) for k in range(1, warmup + 1)]
    f, b = warmup + 1, 1
    for _ in range(m - warmup):
        ops += [("F", f), ("B", b)]
        f, b = f + 1, b + 1
    ops += [("B", k) for k in range(b, m + 1)]
    return ops


# 5.8: stage 0 of p = 4, m = 8: F1-F3 | F4 (peak, then wait) | B1 F5 ... F8 B5 | B6-B8 | step
_ops_58 = _stage_ops(4, 8, 0)
assert _ops_58[:3] == [("F", 1), ("F", 2), ("F", 3)]
assert _ops_58[3] == ("F", 4) and _ops_58[4] == ("B", 1)
assert _ops_58[4:13] == [("B", 1), ("F", 5), ("B", 2), ("F", 6), ("B", 3), ("F", 7), ("B", 4), ("F", 8), ("B", 5)]
assert _ops_58[13:] == [("B", 6), ("B", 7), ("B", 8)]
ORDERS = {           # id -> list of item ids in the correct order
    "5.8": ["warmup", "peak", "steady", "drain", "step"],
}
BUGGY_LINES = {      # id -> 1-based buggy line
    "5.5": 11,
}

# Chapter 5's example of interleaving below m = p: p = 4, m = 2, v = 4.
STATED = {           # where ("5.6" or "chapter 5") -> {figure as written: recomputed value}
    "chapter 5": {
        "27.3%": 100 * 3 / (2 * 4 + 3),                 # what the interleaved formula would claim
        "50%": 100 * (1 - 2 / 4),                       # the floor: one round trip takes p t
    },
    "5.6": {
        "72": next(m for m in range(8, 1000, 8) if 7 / (m * 2) < 0.05),   # m a multiple of p = 8, v = 2
        "40": next(m for m in range(8, 1000, 8) if 7 / (m * 4) < 0.05),   # v = 4
    },
}

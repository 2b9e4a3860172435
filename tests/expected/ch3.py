"""Chapter 3 answers recomputed by hand, independently of the YAML formulas."""
import math

base_lr = 3e-4
base_batch = 256
new_batch = 2048
growth = new_batch / base_batch                  # 8

linear_lr = base_lr * growth                     # 2.4e-3
sqrt_lr = base_lr * math.sqrt(growth)            # ~8.49e-4
warmup_steps = 1000 * growth                     # 8000

# 3.4: S = S_min (1 + Bc/B), E = E_min (1 + B/Bc), at B = 4 Bc and 8 Bc.
steps_ratio = (1 + 1 / 8) / (1 + 1 / 4)          # 0.9  -> 10% fewer steps
examples_ratio = (1 + 8) / (1 + 4)               # 1.8  -> 80% more compute
assert abs(steps_ratio - 0.9) < 1e-12 and abs(examples_ratio - 1.8) < 1e-12

# 3.5: a 100K-step cosine with peak 6e-4 at step 50K is still at half the peak.
lr_at_midpoint = 6e-4 * 0.5 * (1 + math.cos(math.pi * 50_000 / 100_000))
assert abs(lr_at_midpoint - 3e-4) < 1e-12

NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "3.1": linear_lr,
    "3.2": sqrt_lr,
    "3.3": warmup_steps,
}
STEPS: dict[str, list[float]] = {}   # id -> list of row values (step-table traces)


def _sqrt_rule(eta, B1, B2):
    # constant update noise: eta_new / sqrt(B2) == eta / sqrt(B1)
    noise = eta / math.sqrt(B1)
    return noise * math.sqrt(B2)


FORMULAS = {         # id -> python function of the symbols (formula derives)
    "3.6": _sqrt_rule,
}
CHOICES = {          # id -> id of the correct option
    "3.4": "small-speedup-big-cost",
    "3.5": "actual-50k",
}
ORDERS: dict[str, list[str]] = {}          # id -> list of item ids in the correct order
BUGGY_LINES: dict[str, int] = {}     # id -> 1-based buggy line

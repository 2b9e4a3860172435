"""Chapter 9 answers recomputed by hand, independently of the YAML formulas."""
import math

from tests.expected.pipeline_schedule import all_forwards_first, idle_share, interleaved_1f1b, one_f_one_b, step_time

# Llama 3 405B shape
D_MODEL = 16384
N_HEADS = 128
N_KV_HEADS = 8
FFN = 53248
HEAD_DIM = D_MODEL // N_HEADS          # 128
KV_WIDTH = N_KV_HEADS * HEAD_DIM       # 1024

q_and_o = 2 * D_MODEL * D_MODEL
k_and_v = 2 * D_MODEL * KV_WIDTH
swiglu = 3 * D_MODEL * FFN
params_per_layer = q_and_o + k_and_v + swiglu   # 3,187,671,040

layers_in_stage = 8
tp = 8
bf16_bytes = 2
shard_params = layers_in_stage * params_per_layer / tp
shard_bytes = shard_params * bf16_bytes           # 6.375e9

# compute budget
n_params = 405e9
n_tokens = 15.6e12
train_flops = 6 * n_params * n_tokens
pf_day = 1e15 * 86400

gpus = 16384
dense_bf16_peak = 989e12
mfu = 0.40
seconds = train_flops / (gpus * dense_bf16_peak * mfu)

# pipeline: p = 16 stages, m = 16 micro-batches (the fewest Megatron's interleaved schedule allows),
# v = 2 chunks per GPU; the idle share comes from simulating the schedule, not from the formula
p, m, v = 16, 16, 2
idle_share_pct = 100 * idle_share(interleaved_1f1b(p, m, v), m, v)

# what 9.6's explanation states beside its answer (forward 1 + backward 2 = 3 of work per micro-batch)
bubble_overhead_pct = 100 * (step_time(interleaved_1f1b(p, m, v), v) / (m * 3) - 1)   # idle over useful work
plain_1f1b_pct = 100 * idle_share(one_f_one_b(p, m), m, 1)                  # the same m, not interleaved
four_chunks_pct = 100 * idle_share(interleaved_1f1b(p, m, 4), m, 4)
few_m = 4                                                                    # fewer micro-batches than stages
few_m_floor_pct = 100 * (1 - few_m / p)        # one micro-batch's trip through all p*v chunks and back takes p t
few_m_simulated_pct = 100 * idle_share(all_forwards_first(p, few_m, v), few_m, v)

# DP ring AllReduce
dp = 128
ring_bytes = 2 * shard_bytes * (dp - 1) / dp

# electricity
power_kw = gpus * 700 / 1000
hours = 77 * 24
energy_kwh = power_kw * hours
cost = energy_kwh * 0.05

NUMERIC = {
    "9.1": gpus / (8 * 16),
    "9.2": -(-126 // 16),
    "9.3": shard_bytes / 1e9,
    "9.4": train_flops / pf_day,
    "9.5": seconds / 86400,
    "9.6": idle_share_pct,
    "9.7": ring_bytes / 1e9,
    "9.9": cost,
}
STEPS: dict[str, list[float]] = {}
FORMULAS = {
    "9.10": lambda d, h, k, f: d * d + d * d + 2 * d * (k * (d / h)) + 3 * d * f,
}
CHOICES: dict[str, str] = {}
ORDERS = {
    "9.8": ["tp", "cp", "pp", "dp"],
}
BUGGY_LINES: dict[str, int] = {}
STATED = {           # where ("9.6" or "chapter 9") -> {figure as written: recomputed value}
    "9.6": {
        "16.8M": m * 128 * 8192 / 1e6,                 # tokens per step: m one-sequence micro-batches x 128 pipelines
        "46.9%": bubble_overhead_pct,
        "48.4%": plain_1f1b_pct,
        "19.0%": four_chunks_pct,
        "65.2%": 100 * (p - 1) / (few_m * v + p - 1),   # what the formula would claim at m = 4
        "75%": few_m_floor_pct,
        "77.1%": few_m_simulated_pct,
    },
    "chapter 9": {
        "75%": few_m_floor_pct,
        "6.38 GB": shard_bytes / 1e9,
        "12.65 GB": ring_bytes / 1e9,
        # the DP ring stays on one rail: each GPU's own NIC, 400 Gb/s = 50 GB/s
        "50 GB/s": 400 / 8,
        "0.25 s": ring_bytes / (400e9 / 8),
    },
}

if __name__ == "__main__":
    for key, val in NUMERIC.items():
        print(key, val)
    total = 126 * params_per_layer + 2 * 128256 * D_MODEL
    print("total params", total)
    assert math.isclose(FORMULAS["9.10"](D_MODEL, N_HEADS, N_KV_HEADS, FFN), params_per_layer)

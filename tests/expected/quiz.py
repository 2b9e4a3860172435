"""Readiness quiz: the right option of every choice question, worked out independently of the YAML.

Each entry is a substring that only the correct option contains. Where the option quotes a number,
the substring is built from the number recomputed here, so a slip in the quiz text fails the test.
"""

GB = 1e9
ADAM_MIXED_BYTES = 2 + 2 + 4 + 4 + 4      # BF16 weights, BF16 grads, FP32 master, Adam m, Adam v


def _ring_bytes(size, ranks):
    """Bytes one rank sends in a ring all-reduce: reduce-scatter plus all-gather."""
    return 2 * size * (ranks - 1) / ranks


# q01: 70B with mixed-precision Adam, fully sharded over one 8-GPU node: 140 GB > 80 GB, so no plan fits.
q01_total_gb = 70e9 * ADAM_MIXED_BYTES / GB                 # 1,120
q01_per_gpu_gb = q01_total_gb / 8                          # 140

# q02: DP is what TP x PP leaves of the 16,384 GPUs.
q02_dp = 16_384 // (8 * 16)                                # 128

# q03: an 80 GB card is full of model states at 80 / 16 = 5B parameters.
q03_ddp_limit_b = 80 / ADAM_MIXED_BYTES                    # 5

# q04: TP all-reduce of the layer output [s, d] in BF16 over t = 8.
q04_sent_mb = _ring_bytes(2 * 4096 * 8192, 8) / 1e6        # 117.4

# q05: p = 8, m = 32: idle (p-1) over the step (m + p - 1).
q05_idle = (8 - 1, 32 + 8 - 1)                             # 7/39

# q06: dispatch + combine, 2 T k h b (P-1)/P.
q06_sent_mb = 2 * 4096 * 8 * 7168 * 2 * 63 / 64 / 1e6      # 924.8

# q07: each GPU syncs its 810/128 GB gradient shard with the 127 other DP replicas.
q07_sent_gb = _ring_bytes(810 / (8 * 16), 128)             # 12.56

# q11: 70B x 16 B.
q11_total_gb = 70e9 * ADAM_MIXED_BYTES / GB                # 1,120

# q14: interleaving with v = 2 halves (p-1)/m.
q14_overhead = (8 - 1) / (16 * 2)                          # 21.9%

# q17: optimizer state (12 B/param) to CPU leaves sharded BF16 weights + grads in HBM.
q17_hbm_gb = 70e9 * (2 + 2) / 8 / GB                       # 35

# q19: with SHARP a GPU sends its M once instead of 2M(N-1)/N.
q19_ring_gb = _ring_bytes(1, 64)                           # 1.97

CORRECT = {
    "q01": f"even ZeRO-3 leaves {q01_total_gb:,.0f} GB / 8 = {q01_per_gpu_gb:.0f} GB",
    "q02": f"(8 × 16) = {q02_dp} replicas",
    "q03": f"under about {q03_ddp_limit_b:.0f}B params; past that FSDP, at 1.5×",
    "q04": f"sends about {q04_sent_mb:.0f} MB per GPU, and the next matmul waits",
    "q05": f"idle share {q05_idle[0]}/{q05_idle[1]}",
    "q06": f"About {q06_sent_mb:.0f} MB: 2·T·k·h·b·(P-1)/P",
    "q07": f"About {q07_sent_gb:.1f} GB",
    "q09": "the all-reduce becomes reduce-scatter + all-gather, same bytes",
    "q10": "so it stops at 8 here",
    "q11": f"FP32 Adam v 4: {q11_total_gb:,.0f} GB",
    "q14": f"to 7/32 ≈ {100 * q14_overhead:.1f}%; the price is about twice",
    "q15": "the big batch's gradient, one micro-batch's memory",
    "q16": "grow with s² but take few FLOPs",
    "q17": f"{q17_hbm_gb:.0f} GB/GPU, and a slow CPU Adam step",
    "q19": f"each GPU sends M = 1 GB instead of 2M(N-1)/N ≈ {q19_ring_gb:.2f} GB",
    "q20": "must end before the next snapshot",
}

"""Readiness quiz: the right option of every choice question, worked out independently of the YAML.

Each entry is a substring that only the correct option contains. Where the option quotes a number,
the substring is built from the number recomputed here, so a slip in the quiz text fails the test.
"""
from pathlib import Path

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


# Figures the quiz's feedback, explanations and reveal answers state, recomputed (issue 41: the network model).


_QUIZ = " ".join((Path(__file__).parents[2] / "content/quizzes/readiness.yaml").read_text().split())


def _states(figure: str) -> None:
    assert figure in _QUIZ, f"the readiness quiz should state {figure!r}"


_NVLINK_H100 = 18 * 25                      # GB/s one way: 18 NVLink 4 links of 25 GB/s
_NDR = 400 / 8                              # GB/s: one 400 Gb/s NIC
_TWO_PORTS = 2 * 200 / 8                    # GB/s: a server with two 200 Gb/s ports, for all eight GPUs
_RAIL_RING = min(_NVLINK_H100, 8 * _NDR)    # a ring across servers, one channel per NIC
_states(f"{8 * _NDR:.0f} GB/s against NVLink's {_NVLINK_H100}")                   # q02
_states(f"it has {2 * (16 - 1)} steps instead of {2 * (8 - 1)}")
_states(f"That takes {q04_sent_mb / _NVLINK_H100:.2f} ms at NVLink's 450 GB/s")   # q04, MB / (GB/s) = ms
_states(f"{_TWO_PORTS:.0f} GB/s for all eight GPUs, it would take {q04_sent_mb / _TWO_PORTS:.2f} ms")
_states(f"320 × 117.4 MB = {320 * q04_sent_mb / 1000:.1f} GB per GPU per step: about "
        f"{320 * q04_sent_mb / _NVLINK_H100:.0f} ms")
_states(f"it would be about {320 * q04_sent_mb / _TWO_PORTS:.0f} ms")
_states(f"8 × 50 = {_RAIL_RING:.0f} GB/s")
_states(f"about {q07_sent_gb / _NDR:.2f} s at 50 GB/s")                            # q07
_states(f"runs about {_NVLINK_H100 / 63:.0f}× below NVLink")                      # q18: PCIe Gen5 x16, 63 GB/s
# q09: per TP region, TP is two all-reduces (4 halves); Megatron's SP adds one all-gather in backward
_tp_halves, _sp_halves = 2 * 2, 2 + 2 + 1
_states(f"per TP region {_sp_halves} half-collectives against TP's {_tp_halves}")
_states(f"adds one half more per region, {_sp_halves / _tp_halves}×, not 1.5×")

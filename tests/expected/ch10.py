"""Chapter 10 answers recomputed by hand, independently of the YAML formulas."""
from pathlib import Path

_NARRATIVE = Path(__file__).parents[2] / "content/10-sequence-context-parallelism/chapter.md"
CHAPTER = " ".join(_NARRATIVE.read_text().split())


def _states(figure: str) -> None:
    """The narrative must state this recomputed figure (compared with line breaks as spaces)."""
    assert figure in CHAPTER, f"chapter 10 should state {figure!r}"


# Narrative: at 128k tokens one Llama 3 405B layer's Q, K, V fit; the 34 s b h / t stash of 126 layers does not.
seq, hidden, n_layers, q_heads, kv_heads_405b, dim, bf16, tp = 131072, 16384, 126, 128, 8, 128, 2, 8
q_bytes = seq * q_heads * dim * bf16
kv_bytes = 2 * seq * kv_heads_405b * dim * bf16
stash_layer = (10 + 24) * seq * hidden / tp          # TP + SP: both parts divided by t
_states(f"= {q_bytes / 1e9:.2f} GB")                 # 4.29
_states(f"= {kv_bytes / 1e9:.2f} GB")                # 0.54
_states(f"= {(q_bytes + kv_bytes) / tp / 1e9:.2f} GB")   # 0.60
_states(f"= {stash_layer / 1e9:.2f} GB")             # 9.13
_states(f"= {n_layers * stash_layer / 1e9:,.0f} GB")     # 1,150

# Narrative: sequence parallelism's bytes per layer and micro-batch, counted in halves of an all-reduce (an
# all-gather or a reduce-scatter moves half of what a ring all-reduce moves). Plain TP: two all-reduces forward,
# two backward. Megatron-LM also re-gathers each of the two column-parallel inputs in the backward pass.
tp_halves = 2 * (2 + 2)
megatron_sp_halves = tp_halves + 2
_states(f"{megatron_sp_halves}/{tp_halves} = {megatron_sp_halves / tp_halves:.2f}")   # 10/8 = 1.25

# Narrative: bytes one rank sends in one layer's forward pass, Ulysses against ring attention, by counting
# elements. Ulysses' all-to-all keeps 1/c of each of q, k, v and out (s/c tokens each) and sends the rest; the
# ring sends c-1 blocks of K and V (s/c tokens, g heads).
s_u, H_u, g_u, c_u, d_u, p_u = 131072, 64, 8, 8, 128, 2
ulysses_sent = sum((c_u - 1) / c_u * (s_u // c_u) * heads * d_u * p_u for heads in (H_u, g_u, g_u, H_u))
ring_sent = (c_u - 1) * 2 * (s_u // c_u) * g_u * d_u * p_u
ratio_fwd = ulysses_sent / ring_sent
assert abs(ratio_fwd - 1.125) < 1e-12
_states(f"{H_u + g_u}/{g_u * c_u} = {ratio_fwd:.3f}")                                  # 72/64 = 1.125
assert abs(2 * H_u / (H_u * c_u) - 1 / 4) < 1e-12   # without GQA (g = H): 2/c, a quarter at c = 8
# Ulysses sends less only when c > 1 + H/g: with g = 8, H = 64 that needs c >= 10, more than the 8 K/V heads.
assert all(c_try * g_u <= H_u + g_u for c_try in range(1, g_u + 1))   # c <= g = 8: never below the ring
# Over a step: Ulysses' backward moves as much as its forward; the ring's about twice its forward.
step_ratio = (2 * ulysses_sent) / (3 * ring_sent)
_states(f"2 x {ratio_fwd:.3f} / 3 = {step_ratio:.2f}")                                # 0.75

# 10.1: activations per layer = 24 sbh (TP-sharded) + 10 sbh (replicated without SP)
s, b, h, t, layers = 4096, 1, 8192, 8, 80
unit = s * b * h                       # bytes of one "s b h"
per_layer_sp = (24 + 10) * unit / t    # SP shards the 10 sbh part too
mem_101 = layers * per_layer_sp / 1e9  # 11.41 GB

# 10.2: ring attention forward, one layer: c-1 K/V block transfers per rank
S, c, kv_heads, head_dim, bytes_el = 131072, 8, 8, 128, 2
tokens_per_rank = S // c
k_block = tokens_per_rank * kv_heads * head_dim * bytes_el
kv_block = 2 * k_block
sent_102 = (c - 1) * kv_block / 1e6    # 469.76 MB

# 10.3: Ulysses degree must divide 40 query heads and 8 K/V heads
ulysses_max = max(x for x in range(1, 41) if 40 % x == 0 and 8 % x == 0)
assert ulysses_max == 8


# 10.4: 4 n^2 H d / F = 2 n g d p / W  ->  n = g p F / (2 H W)   (p bytes per element)
def _min_block(g, p, F, H, W):
    d = 128.0                          # cancels; any value works
    send_per_token = 2 * g * d * p / W
    compute_per_token_sq = 4 * H * d / F
    return send_per_token / compute_per_token_sq


# 10.4's explanation: the bar n for g = 8, H = 64, p = 2, F = 400 TFLOP/s on NVLink (450 GB/s one way), on a
# GPU's own 400 Gb/s NIC, and on one 100 Gb/s port shared by a node's eight GPUs.
assert round(_min_block(8, 2, 400e12, 64, 450e9)) == 111
assert round(_min_block(8, 2, 400e12, 64, 400e9 / 8), 6) == 1000
assert 100e9 / 8 / 8 == 1.5625e9
assert round(_min_block(8, 2, 400e12, 64, 1.5625e9), 6) == 32000 > 131072 // 8


NUMERIC = {
    "10.1": mem_101,
    "10.2": sent_102,
}
STEPS: dict[str, list[float]] = {}
FORMULAS = {
    "10.4": _min_block,
}
CHOICES = {
    "10.3": "c8",
}
ORDERS = {
    "10.5": ["layernorm", "all_gather", "column_parallel", "row_parallel", "reduce_scatter", "dropout_residual"],
}
BUGGY_LINES: dict[str, int] = {}

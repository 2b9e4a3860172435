"""Chapter 10 answers recomputed by hand, independently of the YAML formulas."""

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


# 10.4: 4 n^2 H d / F = 2 n g d b / W  ->  n = g b F / (2 H W)
def _min_block(g, b, F, H, W):
    d = 128.0                          # cancels; any value works
    send_per_token = 2 * g * d * b / W
    compute_per_token_sq = 4 * H * d / F
    return send_per_token / compute_per_token_sq


NUMERIC = {
    "10.1": mem_101,
    "10.2": sent_102,
}
STEPS = {}
FORMULAS = {
    "10.4": _min_block,
}
CHOICES = {
    "10.3": "c8",
}
ORDERS = {
    "10.5": ["layernorm", "all_gather", "column_parallel", "row_parallel", "reduce_scatter", "dropout_residual"],
}
BUGGY_LINES = {}

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

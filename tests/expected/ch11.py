"""Chapter 11 answers recomputed by hand, independently of the YAML formulas."""
from tests.built_in import builtin_book

_CHAPTER = builtin_book().chapter("11")
assert _CHAPTER is not None, "the built-in book has chapter 11"

# The texts as the book first poses them: placeholders ({{answer}}) rendered with the book's own params.
EXERCISES = " ".join(" ".join(text for e in _CHAPTER.exercises
                              for text in (e.prompt, e.explanation, *e.hints)).split())


def _states(figure: str) -> None:
    """The explanations must state this recomputed figure (compared with line breaks as spaces)."""
    assert figure in EXERCISES, f"chapter 11's exercises should state {figure!r}"


# 11.1: capacity = capacity factor x even share of assignments
tokens, top_k, experts, cf = 8192, 2, 64, 1.25
assignments = tokens * top_k
even_share = assignments / experts     # 256
capacity_111 = cf * even_share         # 320

# 11.2: each assignment leaving the GPU carries h*2 bytes; dispatch + combine
P, T, k, h, bytes_el = 64, 4096, 8, 7168, 2
remote = T * k * (P - 1) / P
dispatch = remote * h * bytes_el
a2a_112 = 2 * dispatch / 1e6           # 924.84 MB

# 11.3: 4 experts per GPU per layer, 58 layers, SwiGLU = 3 matrices
experts_here = (256 // 64) * 58
params_per_expert = 3 * 7168 * 2048
weights_113 = experts_here * params_per_expert * 2 / 1e9   # 20.43 GB

# 11.2 and 11.3 explanations: side figures rounded to what the grader accepts
# 11.2's timing on H100 nodes: 8 GPUs on NVLink (450 GB/s one way), one 400 Gb/s NIC per GPU. Of the 63 peers,
# 7 share the GPU's node and 56 are on other nodes; each peer gets an equal share of the traffic.
gpus_per_node, nvlink_gbs, nic_gbs = 8, 450, 400 / 8
per_peer = 2 * T * k * h * bytes_el / P / 1e6                  # MB, dispatch + combine
in_node, elsewhere = (gpus_per_node - 1) * per_peer, (P - gpus_per_node) * per_peer
assert abs(in_node + elsewhere - a2a_112) < 1e-9
_states(f"7 x {per_peer:.2f} MB = {in_node:.1f} MB / 450 GB/s = {in_node / nvlink_gbs:.3f} ms")      # 0.228
_states(f"56 x {per_peer:.2f} MB = {elsewhere:.1f} MB / 50 GB/s = {elsewhere / nic_gbs:.1f} ms")     # 16.4
_states(f"the slower sets the pace: {max(in_node / nvlink_gbs, elsewhere / nic_gbs):.1f} ms per layer")
_states(f"brings it down to {weights_113:.1f} GB")                              # 20.4


# 11.4
def _a2a_bytes(T, k, h, b, P):
    per_copy = h * b
    leaving = T * k - T * k / P
    return 2 * leaving * per_copy


# 11.5: capacity 1.25*16*1/4 = 5, loads 8, 5, 2, 1
cap = 1.25 * 16 * 1 / 4
dropped_115 = sum(max(0, n - cap) for n in (8, 5, 2, 1))   # 3
_states(f"drops {dropped_115:.0f} tokens ({100 * dropped_115 / 16:.1f} % of them)")   # 3/16 = 18.75 -> 18.8
assert 100 * 1 / 16 == 6.25   # seed 1 drops 1 of 16: 6.25 %, shown to 3 figures



def dropped(T, f, loads, E=4, k=1):
    """11.5 in any variant: each expert drops what exceeds its own capacity f T k / E."""
    capacity = f * T * k / E
    return sum(max(0, n - capacity) for n in loads)


def drop_whole_experts(T, f, loads, E=4, k=1):
    """11.5's named slip: every token of each over-full expert dropped, not only the overflow."""
    capacity = f * T * k / E
    return sum(n for n in loads if n > capacity)


NUMERIC = {
    "11.1": capacity_111,
    "11.2": a2a_112,
    "11.3": weights_113,
    "11.5": dropped_115,
}
STEPS: dict[str, list[float]] = {}
FORMULAS = {
    "11.4": _a2a_bytes,
}
CHOICES = {
    "11.6": "residual",
}
ORDERS: dict[str, list[str]] = {}
BUGGY_LINES: dict[str, int] = {}

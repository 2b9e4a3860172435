"""Chapter 13 answers recomputed by hand, independently of the YAML formulas."""
from pathlib import Path

CHAPTER = " ".join((Path(__file__).parents[2] / "content/13-hardware/chapter.md").read_text().split())


def _states(figure: str) -> None:
    """The narrative must state this recomputed figure (compared with line breaks as spaces)."""
    assert figure in CHAPTER, f"chapter 13 should state {figure!r}"


GB = 1e9
BITS_PER_BYTE = 8

ndr_port_gbs = 400 / BITS_PER_BYTE          # 50 GB/s per direction
nvlink_one_way = 18 * 25.0                  # 18 NVLink 4 links x 25 GB/s each way


def _ring_allreduce_ms(grad_gb, ranks, one_way_gbs):
    sent_gb = 2 * (ranks - 1) / ranks * grad_gb
    return sent_gb / one_way_gbs * 1000


# 13.1: an H100 node with eight NDR ports, one per GPU (rail-optimized)
node_nic_gbs = 8 * ndr_port_gbs            # 400

# 13.2: NVLink vs one NDR port, both one direction
cliff = nvlink_one_way / ndr_port_gbs      # 9

# 13.3: 8B params x 2 bytes = 16 GB over 8 GPUs on NVLink
grad_gb = 8e9 * 2 / GB
t_node_ms = _ring_allreduce_ms(grad_gb, 8, nvlink_one_way)   # 62.2

# 13.4: flat ring over 16 GPUs in two H100 nodes with eight NDR NICs each. NCCL runs one channel per
# NIC, each over its own rail, so the ring's rate is the slower of NVLink and all eight ports together.
ring_across_gbs = min(nvlink_one_way, 8 * ndr_port_gbs)       # min(450, 400) = 400
t_two_nodes_ms = _ring_allreduce_ms(16, 16, ring_across_gbs)  # 75
assert abs(t_two_nodes_ms / t_node_ms - 1.205) < 1e-3         # "1.2x one"

# 13.5: one rail's GPUs over 16 nodes, each through its own 50 GB/s port; SHARP sends M once
# instead of 2M(N-1)/N
t_ring_rail_ms = _ring_allreduce_ms(16, 16, ndr_port_gbs)    # 600
t_sharp_ms = 16 / ndr_port_gbs * 1000                        # 320
saved_ms = t_ring_rail_ms - t_sharp_ms                       # 280

# Narrative, a ring that leaves the node: one channel per NIC, so min(NVLink, NICs x port)
_states(f"min({nvlink_one_way:.0f}, 8 x {ndr_port_gbs:.0f}) = {ring_across_gbs:.0f} GB/s")
_states(f"{nvlink_one_way:.0f} / {ring_across_gbs:.0f} = {nvlink_one_way / ring_across_gbs}, about 1.1x")
_states(f"2 x 16 x 7/8 / 450 s = {_ring_allreduce_ms(16, 8, 450):.1f} ms")
_states(f"2 x 16 x 15/16 / 400 s = {_ring_allreduce_ms(16, 16, 400):.0f} ms")
_states(f"{8 * 46} to {8 * 48} GB/s")                      # nccl-tests: 46-48 GB/s per NDR port
one_100g = 1 * 100 / BITS_PER_BYTE                          # 12.5 GB/s for the node
two_200g = 2 * 200 / BITS_PER_BYTE                          # 50 GB/s
_states(f"1 x 100 Gb/s = {one_100g} GB/s NVLink is 450 / {one_100g} = {nvlink_one_way / one_100g:.0f}x")
_states(f"2 x 200 Gb/s = {two_200g:.0f} GB/s NVLink is 450 / {two_200g:.0f} = {nvlink_one_way / two_200g:.0f}x")
_states(f"2 x 16 x 15/16 / 50 s = {_ring_allreduce_ms(16, 16, two_200g):.0f} ms")
_states(f"{_ring_allreduce_ms(16, 16, one_100g):,.0f} ms")  # 2,400 ms behind one 100 Gb/s port
# Why TP stays in the node: 4 all-reduces per layer per micro-batch (2 forward, 2 backward)
layers, per_layer = 80, 4
_states(f"{per_layer} x {layers} = {per_layer * layers} for an 80-layer model")
tp_msg_mb = 4096 * 8192 * 2 / 1e6                           # 67.1 MB
_states(f"4096 x 8192 x 2 = {tp_msg_mb:.1f} MB")
assert 0.2 < _ring_allreduce_ms(tp_msg_mb / 1000, 8, 450) < 0.3   # "a quarter of a millisecond"
_states(f"{2 * (8 - 1)} in one node of 8, {2 * (16 - 1)} over two nodes")
nvlink_step_us, net_step_us = (0.6, 3.4), (2.7, 14.0)       # NCCL src/graph/tuning.cc hwLat, Ring LL..Simple
_states("0.6 to 3.4 us on NVLink and 2.7 to 14 us over the network")
assert all(3.9 < net / nv < 4.6 for nv, net in zip(nvlink_step_us, net_step_us, strict=True))   # "about 4x"
_states(f"at N = 8 is {2 * 7 / 8}x fewer")                 # NVLS: M once against 2M(N-1)/N
tp_node_gb = per_layer * layers * 2 * tp_msg_mb * 15 / 16 / 1000
_states(f"320 x 2 x 67.1 MB x 15/16 = {tp_node_gb:.1f} GB")
assert abs(tp_node_gb / ring_across_gbs - 0.1) < 0.005       # "about 0.1 s" of the node's NICs
_states(f"min(900, 8 x 50) = {min(900, 8 * 50)} GB/s, {900 / 400}x below NVLink")

# Narrative, GB200 NVL72 (the readiness quiz's q18 sends learners here): 72 Blackwell GPUs in one
# NVLink domain, each with 18 NVLink 5 links at 50 GB/s per direction.
nvl72_gpus, nvlink5_links, nvlink5_one_way = 72, 18, 50.0
blackwell_one_way = nvlink5_links * nvlink5_one_way        # 900 GB/s
blackwell_both_tbs = 2 * blackwell_one_way / 1000           # 1.8 TB/s
_states(f"{nvlink5_links} x {nvlink5_one_way:.0f} GB/s = {blackwell_one_way:.0f} GB/s per direction")
_states(f"(printed as {blackwell_both_tbs:.1f} TB/s)")
_states(f"{nvl72_gpus} x {blackwell_both_tbs:.1f} TB/s = {nvl72_gpus * blackwell_both_tbs:.1f} TB/s")   # 129.6
_states(f"is a factor of {blackwell_one_way / ndr_port_gbs:.0f}")                                     # 900 / 50 = 18
_states(f"split {max(d for d in range(1, nvl72_gpus + 1) if 128 % d == 0)} ways, not {nvl72_gpus}")    # 64

NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "13.1": node_nic_gbs,
    "13.2": cliff,
    "13.3": t_node_ms,
    "13.4": t_two_nodes_ms,
    "13.5": saved_ms,
}
STEPS: dict[str, list[float]] = {}           # id -> list of row values (step-table traces)
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "13.6": lambda M, N: 2 * M * (N - 1) / N - M,
}
CHOICES = {          # id -> id of the correct option
    "13.7": "b450",
}
ORDERS: dict[str, list[str]] = {}          # id -> list of item ids in the correct order
BUGGY_LINES: dict[str, int] = {}     # id -> 1-based buggy line

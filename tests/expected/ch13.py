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


# 13.1: eight NDR ports per node
node_nic_gbs = 8 * ndr_port_gbs            # 400

# 13.2: NVLink vs one NDR port, both one direction
cliff = nvlink_one_way / ndr_port_gbs      # 9

# 13.3: 8B params x 2 bytes = 16 GB over 8 GPUs on NVLink
grad_gb = 8e9 * 2 / GB
t_node_ms = _ring_allreduce_ms(grad_gb, 8, nvlink_one_way)   # 62.2

# 13.4: flat ring over 16 GPUs paced by the 50 GB/s IB hop
t_two_nodes_ms = _ring_allreduce_ms(grad_gb, 16, ndr_port_gbs)  # 600

# 13.5: SHARP sends M once instead of 2M(N-1)/N
t_sharp_ms = grad_gb / ndr_port_gbs * 1000   # 320
saved_ms = t_two_nodes_ms - t_sharp_ms       # 280

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

"""Chapter 13 answers recomputed by hand, independently of the YAML formulas."""

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

NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "13.1": node_nic_gbs,
    "13.2": cliff,
    "13.3": t_node_ms,
    "13.4": t_two_nodes_ms,
    "13.5": saved_ms,
}
STEPS = {}           # id -> list of row values (step-table traces)
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "13.6": lambda M, N: 2 * M * (N - 1) / N - M,
}
CHOICES = {          # id -> id of the correct option
    "13.7": "b450",
}
ORDERS = {}          # id -> list of item ids in the correct order
BUGGY_LINES = {}     # id -> 1-based buggy line

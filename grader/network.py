"""The book's network model, in one place, so the chapters' formulas, `content check` and the lab agree.

A node holds `gpus` GPUs joined by NVLink (GB/s per GPU, one direction) and `nics` network cards of
`network` Gb/s each, one direction. A ring all-reduce inside the node runs at NVLink's rate. A ring that
spans nodes is what NCCL builds on a rail-optimized cluster: one ring (channel) per NIC, each carrying its
share of the buffer and crossing between nodes on its own rail, so the node's NICs work side by side and
the ring runs at min(NVLink, all the node's NICs together) (NVIDIA/nccl issues #601 and #1277,
nccl-tests' PERFORMANCE.md). A node with one or two NICs for eight GPUs (many cloud nodes) has a real
cliff; a node with a NIC per GPU has almost none for large buffers, and what keeps tensor parallelism
inside it is latency, NVLink SHARP and sharing the NICs (chapter 13).
"""

from __future__ import annotations

BITS_PER_BYTE = 8


def node_network_gbs(nics: float, nic_gbps: float) -> float:
    """GB/s one way through all of a node's NICs together: `nics` ports of `nic_gbps` Gb/s."""
    return nics * nic_gbps / BITS_PER_BYTE


def ring_gbs(nvlink_gbs: float, nics: float, nic_gbps: float, crosses_nodes: bool) -> float:
    """The rate B of T = 2S(N-1)/(NB) for a ring all-reduce: NVLink inside a node; across nodes one
    channel per NIC, so the slower of NVLink and the node's NICs together."""
    if not crosses_nodes:
        return nvlink_gbs
    return min(nvlink_gbs, node_network_gbs(nics, nic_gbps))

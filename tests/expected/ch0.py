"""Chapter 0 answers recomputed by hand, independently of the YAML formulas."""
import math


def _ex_0_1():
    grad_gb, gpus = 1.0, 8
    chunk = grad_gb / gpus
    sends_per_phase = gpus - 1
    return 2 * sends_per_phase * chunk          # reduce-scatter + all-gather


def _ex_0_2():
    grad_gb, gpus, link_gbs = 2.0, 8, 50.0
    steps = 2 * (gpus - 1)
    step_seconds = (grad_gb / gpus) / link_gbs
    return steps * step_seconds * 1000          # ms


def _ex_0_3():
    grad_gb, gpus, seconds, peak_one_way = 4.0, 8, 0.030, 300.0
    sent_per_gpu = 2 * (gpus - 1) * grad_gb / gpus    # 7 GB
    bus_bw = sent_per_gpu / seconds                   # 233.3 GB/s
    return 100 * bus_bw / peak_one_way


def _ring_time_ms(m_gb, n, bw_gbs, latency_us):
    total = 0.0
    for _ in range(2 * (n - 1)):
        total += latency_us / 1000 + (m_gb / n) / bw_gbs * 1000
    return total


def _ex_0_4():
    grad_gb, gpus, link, alpha = 4.0, 8, 50.0, 5e-6
    ring = 2 * (gpus - 1) * (alpha + grad_gb / gpus / link)
    rounds = 2 * int(math.log2(gpus))
    tree = rounds * (alpha + grad_gb / link)
    assert abs(ring - 0.14007) < 1e-9 and abs(tree - 0.48003) < 1e-9
    return "ring" if ring < tree else "tree"


def _all_reduce_time_fixed(m, n, bw):
    return (2 * (n - 1)) * (m / n) / bw


NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "0.1": _ex_0_1(),
    "0.2": _ex_0_2(),
    "0.3": _ex_0_3(),
}
STEPS: dict[str, list[float]] = {}           # id -> list of row values (step-table traces)
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "0.7": lambda M, N: (N - 1) * (M / N) + (N - 1) * (M / N),
}
CHOICES = {          # id -> id of the correct option
    "0.4": _ex_0_4(),
}
# 0.8: ring AllReduce, N = 4. Chunks first; reduce-scatter adds for N-1 steps
# (step 1 sends own chunks, later steps forward partial sums); then each GPU
# owns one finished chunk; all-gather copies for N-1 steps; then all hold it.
ORDERS = {           # id -> list of item ids in the correct order
    "0.8": ["split", "rs-first", "rs-later", "owns-one", "all-gather", "full-sum"],
}
BUGGY_LINES = {      # id -> 1-based buggy line
    "0.6": 6,
}
BUILDS = {           # id -> independent reference implementation (build/debug)
    "0.5": _ring_time_ms,
    "0.6": _all_reduce_time_fixed,
}

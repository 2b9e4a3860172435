"""A small pipeline-schedule simulator, so bubble figures are recomputed from a schedule rather than from
the closed-form formulas the book teaches (and would otherwise be checked against themselves).

The model is cut into p*v chunks; chunk c sits on GPU c % p. Each GPU runs its own list of passes in
order, each as soon as the GPU is free and the pass's input has arrived (no communication time). A
forward of chunk c needs the forward of chunk c - 1; a backward of chunk c needs the backward of c + 1,
or the forward of the last chunk. A chunk's forward takes forward/v and its backward backward/v.
"""

from __future__ import annotations

Pass = tuple[str, int, int]          # ("F" or "B", micro-batch, chunk)


def one_f_one_b(p: int, m: int) -> list[list[Pass]]:
    """Plain 1F1B: stage i runs min(p - i - 1, m) warm-up forwards, then alternates, then drains."""
    orders = []
    for gpu in range(p):
        warmup = min(p - gpu - 1, m)
        order = [("F", k, gpu) for k in range(warmup)]
        for k in range(m - warmup):
            order += [("F", warmup + k, gpu), ("B", k, gpu)]
        order += [("B", k, gpu) for k in range(m - warmup, m)]
        orders.append(order)
    return orders


def interleaved_1f1b(p: int, m: int, v: int) -> list[list[Pass]]:
    """Megatron-LM's interleaved 1F1B order. Micro-batches go through a GPU's chunks in groups of p, which
    is why Megatron requires m to be a multiple of p."""
    if m % p:
        raise ValueError(f"the interleaved schedule needs m to be a multiple of p (m = {m}, p = {p})")
    total = m * v

    def chunk_pass(k: int, kind: str, gpu: int) -> Pass:
        local = (k % (p * v)) // p
        if kind == "B":
            local = v - 1 - local
        return (kind, (k // (p * v)) * p + k % p, local * p + gpu)

    orders = []
    for gpu in range(p):
        warmup = total if m == p else min((p - gpu - 1) * 2 + (v - 1) * p, total)
        order = [chunk_pass(k, "F", gpu) for k in range(warmup)]
        for k in range(total - warmup):
            order += [chunk_pass(warmup + k, "F", gpu), chunk_pass(k, "B", gpu)]
        order += [chunk_pass(k, "B", gpu) for k in range(total - warmup, total)]
        orders.append(order)
    return orders


def all_forwards_first(p: int, m: int, v: int) -> list[list[Pass]]:
    """Every GPU runs all its forwards, chunk by chunk, then all its backwards, as GPipe does: valid for
    any m, including m < p where the interleaved order is not."""
    return [[("F", k, c * p + gpu) for c in range(v) for k in range(m)]
            + [("B", k, c * p + gpu) for c in reversed(range(v)) for k in range(m)]
            for gpu in range(p)]


def step_time(orders: list[list[Pass]], v: int, forward: float = 1.0, backward: float = 2.0) -> float:
    """When the last pass of the step ends, running each GPU's order as early as its inputs allow."""
    p = len(orders)
    last_chunk = p * v - 1
    finished: dict[Pass, float] = {}
    position = [0] * p
    free_at = [0.0] * p
    left = sum(map(len, orders))
    while left:
        moved = False
        for gpu, order in enumerate(orders):
            while position[gpu] < len(order):
                kind, batch, chunk = order[position[gpu]]
                if kind == "F":
                    needs = ("F", batch, chunk - 1) if chunk else None
                else:
                    needs = ("F", batch, chunk) if chunk == last_chunk else ("B", batch, chunk + 1)
                if needs is not None and needs not in finished:
                    break
                start = max(free_at[gpu], finished[needs] if needs else 0.0)
                free_at[gpu] = finished[(kind, batch, chunk)] = start + (forward if kind == "F" else backward) / v
                position[gpu] += 1
                left -= 1
                moved = True
        if not moved:
            raise RuntimeError("the schedule deadlocks")
    return max(free_at)


def idle_share(orders: list[list[Pass]], m: int, v: int, forward: float = 1.0, backward: float = 2.0) -> float:
    """Idle time over step time; every GPU does m (forward + backward) of useful work."""
    return 1 - m * (forward + backward) / step_time(orders, v, forward, backward)

"""Chapter 1 answers recomputed by hand, independently of the YAML formulas."""

GB = 1e9
FP16 = 2
FP32 = 4
WEIGHTS, GRADS = FP16, FP16
OPTIMIZER = 3 * FP32                 # master weights + Adam m + Adam v
FULL = WEIGHTS + GRADS + OPTIMIZER   # 16 bytes/param


def _per_gpu_bytes(params, n, stage):
    if stage == 0:
        return params * FULL
    if stage == 1:
        return params * (WEIGHTS + GRADS + OPTIMIZER / n)
    if stage == 2:
        return params * (WEIGHTS + (GRADS + OPTIMIZER) / n)
    return params * FULL / n


P7 = 7e9


def _ex_1_5():
    weights_bytes = P7 * FP16                  # 14 GB; gradients the same
    n = 64
    per_collective = weights_bytes * (n - 1) / n
    collectives = ["allgather fwd", "allgather bwd", "reducescatter grads"]
    return len(collectives) * per_collective / GB


def _ex_1_6():
    params, n, card, activations = 30e9, 8, 80 * GB, 20 * GB
    fits_strictly = {s: _per_gpu_bytes(params, n, s) + activations < card for s in range(4)}
    assert not any(fits_strictly.values())
    assert _per_gpu_bytes(params, 8, 3) + activations == card          # zero headroom
    assert _per_gpu_bytes(params, 16, 2) > card                         # 86.25 GB states
    assert _per_gpu_bytes(params, 16, 3) + activations < card          # more GPUs help
    return "zero3-plus"


NUMERIC = {          # id -> value in the box's unit (derive + numeric trace)
    "1.1": _per_gpu_bytes(P7, 1, 0) / GB,
    "1.2": _per_gpu_bytes(P7, 64, 1) / GB,
    "1.3": _per_gpu_bytes(P7, 64, 2) / GB,
    "1.4": _per_gpu_bytes(P7, 64, 3) / GB,
    "1.5": _ex_1_5(),
}
STEPS: dict[str, list[float]] = {}           # id -> list of row values (step-table traces)
FORMULAS = {         # id -> python function of the symbols (formula derives)
    "1.7": lambda P, N: _per_gpu_bytes(P, N, 2),
}
CHOICES = {          # id -> id of the correct option
    "1.6": _ex_1_6(),
}
ORDERS: dict[str, list[str]] = {}          # id -> list of item ids in the correct order
BUGGY_LINES = {      # id -> 1-based buggy line
    "1.8": 5,         # optimizer = 8 * params_b: Adam state is 12 bytes (master + m + v)
}

# Figures the chapter states beside the exercises: ZeRO-Offload for the 13B model on one 80 GB GPU.
P13 = 13e9
STATED = {           # where ("1.2" or "chapter 1") -> {figure as written: recomputed value}
    "chapter 1": {
        "208 GB": P13 * FULL / GB,                       # model states without ZeRO
        "156 GB": P13 * OPTIMIZER / GB,                  # FP32 optimizer state moved to the host
        "52 GB": P13 * (WEIGHTS + GRADS) / GB,           # what the GPU keeps at most
    },
}


def _bytes_per_parameter(n, stage):
    return _per_gpu_bytes(1, n, stage)


MATCHES = {          # id -> {left id: the right option's id, or the number its text states}
    "1.9": {"dp": _bytes_per_parameter(8, 0), "z1": _bytes_per_parameter(8, 1), "z2": _bytes_per_parameter(8, 2),
            "z3": _bytes_per_parameter(8, 3)},
}

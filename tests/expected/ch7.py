"""Chapter 7 answers recomputed by hand, independently of the YAML formulas."""
import math

# 7.1: 70 B params; FP16 weights, FP32 master, FP32 momentum, FP32 variance. No gradients.
_P = 70e9
_ckpt_bytes = _P * 2 + _P * 4 + _P * 4 + _P * 4 + 8   # + 8 bytes of step/LR state
_ckpt_gb = _ckpt_bytes / 1e9                           # ~980 GB

# 7.2: 10 GB/s NFS.
_write_s = _ckpt_gb / 10                               # 98 s

# 7.3: Young, F = 24 h, C = 98 s.
_C_h = 98 / 3600
_young_min = math.sqrt(2 * _C_h * 24) * 60             # ~68.59 min

# 7.4: 512 GPUs at $2/GPU-h, checkpoint every 68 min, 2 min restart.
_lost_min = 68 / 2 + 2
_crash_dollars = 512 * 2 * (_lost_min / 60)            # $614.40

NUMERIC = {
    "7.1": _ckpt_gb,
    "7.2": _write_s,
    "7.3": _young_min,
    "7.4": _crash_dollars,
}
STEPS: dict[str, list[float]] = {}


def _young(C, F):
    # minimise C/T + T/(2F): derivative -C/T^2 + 1/(2F) = 0
    return (2 * F * C) ** 0.5


FORMULAS = {
    "7.6": _young,
}
CHOICES: dict[str, str] = {}
ORDERS = {
    "7.8": ["detect", "stop-all", "replace-node", "load-checkpoint", "restore-data-rng", "resume"],
}
BUGGY_LINES = {
    "7.7": 8,         # sqrt(2 * seconds * hours): C must be converted to hours
}

STATED = {           # where ("7.2" or "chapter 7") -> {figure as written: recomputed value}
    "7.2": {"1.63 minutes": _write_s / 60},
    "7.7": {"68.6 minutes": _young_min, "4115 minutes": _young_min * 60},   # the fixed and the buggy interval
}

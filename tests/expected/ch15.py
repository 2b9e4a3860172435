"""Chapter 15 answers recomputed by hand, independently of the YAML formulas."""
import math
from pathlib import Path

from tests.built_in import builtin_book

_CHAPTER = builtin_book().chapter("15")
assert _CHAPTER is not None, "the built-in book has chapter 15"

_CONTENT = Path(__file__).parents[2] / "content/15-failures-at-scale"
# The narrative, and the exercises as the book first poses them (placeholders rendered with its own params).
TEXT = " ".join(((_CONTENT / "chapter.md").read_text() + " ".join(
    text for e in _CHAPTER.exercises
    for text in (e.prompt, e.explanation, *e.hints, *(m.feedback for m in getattr(e, "mistakes", ()))))).split())


def _states(figure: str) -> None:
    """The chapter or its exercises must state this recomputed figure (line breaks read as spaces)."""
    assert figure in TEXT, f"chapter 15 should state {figure!r}"


# 15.1: Llama 3, 466 interruptions in 54 days, 47 planned.
_unexpected = 466 - 47                          # 419
_per_day = _unexpected / 54                     # ~7.76

# 15.2: per-GPU MTBF 50,000 h, 16,384 GPUs.
_job_rate_per_h = 16384 * (1 / 50000)
_job_mtbf_h = 1 / _job_rate_per_h               # ~3.05 h

# 15.4: M = 180 min, T = 30 min, C = 0.5 min, R = 10 min.
_ckpt_share = 0.5 / 30
_fail_share = (30 / 2 + 10) / 180
_goodput_pct = 100 * (1 - _ckpt_share - _fail_share)   # ~84.44 %

# Figures the narrative and explanations state, rounded to what the grader accepts.
_hours_between = 54 * 24 / _unexpected                  # ~3.09 h
_states(f"419 / 54 ≈ {_per_day:.2f} unexpected interruptions per day")
_states(f"54 × 24 / 419 ≈ {_hours_between:.2f} hours")
_states(f"**≈ {_per_day:.2f} per day**, one about every {_hours_between:.2f} hours")
_states(f"saw an interruption every {_hours_between:.2f} hours")

# 15.4: the restart (10 min) is not the biggest cost per failure; the lost work T/2 (15 min) is.
_states(f"on top of the {30 / 2:.0f} minutes of work it loses on average")
_young_min = math.sqrt(2 * 0.5 * 180)
_goodput_young = 100 * (1 - 0.5 / _young_min - (_young_min / 2 + 10) / 180)   # 86.99 %
_states(f"a goodput of {_goodput_young:.1f} %")

# 15.6's explanation: 16,384 GPUs of 50,000 h MTBF and 2,048 hosts of 100,000 h. Rates add, MTBFs do not.
_gpu_mtbf, _host_mtbf = 50000 / 16384, 100000 / 2048          # 3.05 h, 48.8 h
_rate = 1 / _gpu_mtbf + 1 / _host_mtbf                        # 0.32768 + 0.02048 = 0.34816 per hour
_wrong_per_day = 24 / (_gpu_mtbf + _host_mtbf)                # 0.46
_states(f"{1 / _gpu_mtbf:.3f} + {1 / _host_mtbf:.3f} = {_rate:.3f} per hour, an MTBF of {1 / _rate:.2f}")
_states(f"**{24 * _rate:.2f} failures a day**")              # 24 x 0.34816 = 8.356 -> 8.36
_states(f"{_gpu_mtbf + _host_mtbf:.1f} h, or {_wrong_per_day:.2f} failures a day")
assert round(24 * _rate / _wrong_per_day) == 18               # "eighteen times more"

# The narrative's hang detection: the watchdog belongs to PyTorch's NCCL process group, not to NCCL.
_states("PyTorch's **watchdog** (a thread of its NCCL process group, ProcessGroupNCCL)")


NUMERIC = {
    "15.1": _per_day,
    "15.2": _job_mtbf_h,
    "15.4": _goodput_pct,
}
STEPS: dict[str, list[float]] = {}


def _job_mtbf(N, G, H):
    gpu_rate = N / G
    host_rate = (N / 8) / H
    return 1 / (gpu_rate + host_rate)


FORMULAS = {
    "15.3": _job_mtbf,
}
CHOICES = {
    "15.5": "replay",
}
ORDERS: dict[str, list[str]] = {}
BUGGY_LINES = {
    "15.6": 7,   # adds MTBFs; must add rates: 1 / (1/gpu_mtbf + 1/host_mtbf)
}

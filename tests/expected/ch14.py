"""Chapter 14 answers recomputed by hand, independently of the YAML formulas."""
import math

from grader.kinds.trace import Trace
from tests.built_in import builtin_book

_CHAPTER = builtin_book().chapter("14")
assert _CHAPTER is not None, "the built-in book has chapter 14"

# The texts as the book first poses them: placeholders ({{answer}}) rendered with the book's own params.
EXERCISES = " ".join(" ".join(text for e in _CHAPTER.exercises
                              for text in (e.prompt, e.explanation, *e.hints,
                                           *(m.feedback for m in getattr(e, "mistakes", ())))).split())


def _states(figure: str) -> None:
    """The exercises must state this recomputed figure (compared with line breaks as spaces)."""
    assert figure in EXERCISES, f"chapter 14's exercises should state {figure!r}"


# 14.5 never states the checkpoint's size, so no option or explanation may quote one ("about 1 TB").
_ex145 = next(e for e in _CHAPTER.exercises if e.id == "14.5")
assert isinstance(_ex145, Trace)
_texts145 = " ".join([_ex145.prompt, _ex145.explanation, *(o.text + " " + o.feedback for o in _ex145.options)])
assert "TB" not in _texts145 and "terabyte" not in _texts145


# 14.1: 70B params x 14 bytes, ZeRO-3 over 64 ranks.
_total_bytes = 70e9 * (2 + 4 + 4 + 4)
_total_gb = _total_bytes / 1e9                  # 980 GB
_shard_gb = _total_gb / 64                      # 15.3125 GB

# 14.2: snapshot to pinned host memory, each GPU over its own 25 GB/s link.
_stall_s = _shard_gb / 25                       # 0.6125 s

# 14.3: Daly, C = 5 min, M = 3 h = 180 min.
_C = 5.0
_M = 3 * 60.0
_young = math.sqrt(2 * _C * _M)                 # 42.43 min
_x = _C / (2 * _M)
_daly = _young * (1 + math.sqrt(_x) / 3 + _x / 9) - _C   # ~39.16 min

# 14.1 explanation: the side figure rounds to what the grader accepts.
_states(f"64 writers of {_shard_gb:.1f} GB each")
# 14.3 feedback for sqrt(2*C*M*60): that M is the 3 hours in seconds, with C still in minutes.
_states(f"3 h = {3 * 3600:,} s")

NUMERIC = {
    "14.1": _shard_gb,
    "14.2": _stall_s,
    "14.3": _daly,
}
STEPS: dict[str, list[float]] = {}


def _waste(C, T, M, R):
    checkpoint_share = C / T
    lost_per_failure = T / 2 + R
    failure_share = lost_per_failure / M
    return checkpoint_share + failure_share


FORMULAS = {
    "14.4": _waste,
}
CHOICES = {
    "14.5": "reshard",
}
ORDERS = {
    "14.6": ["wait-prev", "snapshot", "train-persist", "commit", "prune"],
}
BUGGY_LINES: dict[str, int] = {}

"""Chapter 8 answers recomputed by hand, independently of the YAML formulas."""
import math

# 8.1: FP16 smallest normal. Exponent field 1 is the lowest one a normal may
# use; with bias 15 the unbiased exponent is 1 - 15 = -14.
_fp16_bias = 2 ** (5 - 1) - 1
_fp16_min_normal = 1.0 * 2.0 ** (1 - _fp16_bias)  # 1/16384

# 8.2: simulate the scaler by hand.
def _scale_trace(events, s0, w):
    rows, s, good = [], s0, 0
    for overflow in events:
        if overflow:
            s, good = s / 2, 0
        else:
            good += 1
            if good == w:
                s, good = s * 2, 0
        rows.append(s)
    return rows

_trace_82 = _scale_trace([False, True, False, True, False], 65536, 2000)

# 8.3: bytes per parameter of model state.
_mixed_bytes = 2 + 2 + 4 + 4 + 4   # fp16 w, fp16 g, fp32 master, m, v
_fp32_bytes = 4 + 4 + 4 + 4        # w, g, m, v
_params_13b = 13e9
_ratio_83 = (_params_13b * _mixed_bytes) / (_params_13b * _fp32_bytes)

# 8.5: activation elements kept for backward, all layers.
_b, _s, _d, _layers = 4, 4096, 8192, 80
_elements_per_layer = 2 * _b * _s * _d          # attention input + FFN input
_elements = _elements_per_layer * _layers       # 21,474,836,480
_fp16_gb = _elements * 2 / 1e9
_fp8_gb = _elements * 1 / 1e9
_saved_gb = _fp16_gb - _fp8_gb

NUMERIC = {
    "8.1": _fp16_min_normal,
    "8.3": _ratio_83,
    "8.5": _saved_gb,
}

STEPS = {
    "8.2": _trace_82,   # [65536, 32768, 32768, 16384, 16384]
}


def _min_normal(E):
    bias = 2 ** (E - 1) - 1
    return 2.0 ** (1 - bias)


FORMULAS = {
    "8.7": _min_normal,
}

CHOICES = {
    "8.4": "precision-vs-range",
}

# 8.8: forward -> scale loss -> backward -> unscale (clip after) -> check -> step/skip + update S
ORDERS = {
    "8.8": ["forward", "scale-loss", "backward", "unscale", "check", "decide"],
}

# 8.9: line 6 resets the counter on clean steps instead of on overflows.
BUGGY_LINES = {
    "8.9": 6,
}

assert math.isclose(NUMERIC["8.1"], 6.103515625e-05)
assert STEPS["8.2"] == [65536, 32768, 32768, 16384, 16384]
assert NUMERIC["8.3"] == 1.0
assert _elements == 21_474_836_480
assert math.isclose(NUMERIC["8.5"], 21.47483648)
assert FORMULAS["8.7"](5) == 2.0 ** -14 and FORMULAS["8.7"](8) == 2.0 ** -126


def _largest_ieee(exponent_bits, mantissa_bits):
    """The largest finite value of an IEEE-style format: the top exponent field is Inf and NaN."""
    bias = 2 ** (exponent_bits - 1) - 1
    top_field = 2 ** exponent_bits - 2
    return (2 - 2.0 ** -mantissa_bits) * 2.0 ** (top_field - bias)


def _largest_e4m3():
    """E4M3 keeps its top exponent field for numbers; only mantissa 111 there is NaN, so 110 is the largest."""
    bias = 2 ** 3 - 1
    return (1 + 6 / 8) * 2.0 ** (15 - bias)


MATCHES = {          # id -> {left id: the right option's id, or the number its text states}
    "8.10": {"fp16": _largest_ieee(5, 10), "bf16": _largest_ieee(8, 7), "e4m3": _largest_e4m3(),
             "e5m2": _largest_ieee(5, 2)},
}

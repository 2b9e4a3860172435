"""Chapter 15 answers recomputed by hand, independently of the YAML formulas."""

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

NUMERIC = {
    "15.1": _per_day,
    "15.2": _job_mtbf_h,
    "15.4": _goodput_pct,
}
STEPS = {}


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
ORDERS = {}
BUGGY_LINES = {
    "15.6": 7,   # adds MTBFs; must add rates: 1 / (1/gpu_mtbf + 1/host_mtbf)
}

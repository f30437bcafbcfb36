"""Significant figures: round values as they will be shown, and count the values a range can show.

>>> round_sig(np.array([0.0123456, 98765.0, 2.5e-31]), 3).tolist()
[0.0123, 98800.0, 2.5e-31]
>>> distinct_values((1.0, 10.0), 2, False), distinct_values((2, 8), 3, True)
(90, 7)
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def round_sig(values: FloatArray, sig_figs: int) -> FloatArray:
    """Round to significant figures through decimal text, so it is exact and portable."""
    fmt = f"{{:.{sig_figs - 1}e}}".format
    return np.array([float(fmt(v)) for v in values.tolist()], dtype=np.float64)


def distinct_values(bounds: tuple[float, float], sig_figs: int, integer: bool) -> int:
    """How many values with ``sig_figs`` significant figures lie in ``bounds`` (about)."""
    lo, hi = bounds
    if integer:
        return int(hi - lo + 1)
    if lo < 0 < hi:
        return distinct_values((0.0, -lo), sig_figs, False) + distinct_values((0.0, hi), sig_figs, False)
    a, b = sorted((abs(lo), abs(hi)))
    a = max(a, b * 1e-12)
    count = 0.0
    for exp in range(math.floor(math.log10(a)), math.floor(math.log10(b)) + 1):
        step = 10.0 ** (exp - sig_figs + 1)
        span = min(b, 10.0 ** (exp + 1)) - max(a, 10.0**exp)
        count += max(span, 0.0) / step
    return max(round(count), 1)

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


#: Powers of ten that are exact doubles: 10**0 … 10**22 (each an exact int converted exactly).
_POWERS = np.array([float(10**i) for i in range(23)])
#: Below this many values, rounding through the text is faster than NumPy's fixed cost per call.
_VECTOR = 32
#: How far (relatively) a value must be from a power of ten for its exponent to be sure.
_MARGIN = 1e-9


def round_sig(values: FloatArray, sig_figs: int) -> FloatArray:
    """Round to significant figures exactly as through decimal text (``float(f"{v:.{s-1}e}")``),
    so it is exact and portable.

    Vectorised: a value's kept digits are ``M = rint(|v| / 10**k)``, and ``M·10**k`` as a
    double is one correctly rounded product or quotient of exact numbers (``10**|k|`` with
    ``|k| ≤ 22``), so it is the double nearest the decimal the text shows. The digits
    ``|v| / 10**k`` are computed with one rounding, so they are off by at most half a unit in
    their last place; values where that could pick another digit than the text (within 32
    such units of a tie, or within ``_MARGIN`` of a power of ten), zero, values not finite,
    ``|k| > 22``, 16 or more figures, and calls with fewer than ``_VECTOR`` values go through
    the text, one by one.

    >>> round_sig(np.array([2.675, 0.125, 9.9951, -0.0, 1e300]), 3).tolist()
    [2.67, 0.125, 10.0, -0.0, 1e+300]
    """
    fmt = f"{{:.{sig_figs - 1}e}}".format
    if values.size < _VECTOR or sig_figs > 15:
        return np.array([float(fmt(v)) for v in values.tolist()], dtype=np.float64)
    a = np.abs(values)
    with np.errstate(all="ignore"):
        k = np.floor(np.log10(a)) - (sig_figs - 1)  # the place of the last kept digit
        scale = _POWERS[np.fmin(np.abs(k), len(_POWERS) - 1).astype(np.intp)]
        scaled = np.where(k < 0, a * scale, a / scale)  # the digits, as a number in [10**(s-1), 10**s)
        kept = np.rint(scaled)
        out: FloatArray = np.copysign(np.where(k < 0, kept / scale, kept * scale), values)
        low, high = float(10 ** (sig_figs - 1)), float(10**sig_figs)
        tie = np.abs(scaled - np.floor(scaled) - 0.5) <= high * 2.0**-48
        unsure = ~((np.abs(k) < len(_POWERS)) & (scaled >= low * (1 + _MARGIN))
                   & (scaled <= high * (1 - _MARGIN)) & ~tie)
    if unsure.any():
        rows = np.flatnonzero(unsure)
        out[rows] = [float(fmt(v)) for v in values[rows].tolist()]
    return out


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

"""Worked examples of the hard optics and waves templates of the `we` branch, each computed by a
route of its own (bisection, numerical differentiation, summing the reflected beams), not the
template's closed form retyped."""

from __future__ import annotations

import math
from collections.abc import Callable

R_GAS = 8.314462618  # J/(mol K)


def _bisect(f: Callable[[float], float], lo: float, hi: float, steps: int = 200) -> float:
    """A root of ``f`` between ``lo`` and ``hi`` (where ``f`` changes sign)."""
    f_lo = f(lo)
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        f_mid = f(mid)
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _pipe_fork() -> dict[str, tuple[float, str]]:
    # 40 cm pipe, r 2.0 cm, 20 °C; 5 Hz beats, 3 Hz when loaded: the beats fell, so the fork was above.
    # v = 343.2 m/s, f_p = 343.2/(4*0.412) = 208.3 Hz, fork 213.3 Hz; retuned at +14.1 K or -9.66 mm
    temp, length, r = 293.15, 0.40, 0.020

    def f_pipe(t_k: float, l_m: float) -> float:
        return math.sqrt(1.40 * R_GAS * t_k / 0.02896) / (4 * (l_m + 0.6 * r))

    fork = f_pipe(temp, length) + 5.0  # loading lowered the beats (5 -> 3 Hz): the fork was above
    t_u = _bisect(lambda t: f_pipe(t, length) - fork, 200.0, 400.0)
    l_u = _bisect(lambda x: f_pipe(temp, x) - fork, 0.2, 0.6)
    return {"f_fork": (fork, "Hz"), "dT": (t_u - temp, "K"), "dL": ((l_u - length) * 1e3, "mm")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "waves.pipe_fork_wax_beats": (
        {"L": "40 cm", "r": "2.0 cm", "T": "20 degC", "b1": "5 Hz", "b2": "3 Hz"}, _pipe_fork),
}

"""Worked examples of the hard fluids and orbital templates of the `wg` branch, each computed by a
route of its own, not the template's closed form retyped: the orbit radius bisected from the
period, the burn summed propellant slice by propellant slice, and the coast after the burn
integrated with RK4 until the probe is slowest."""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import rk4

GM_EARTH = 3.986e14  # m^3/s^2


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


def _kick_stage() -> dict[str, tuple[float, str]]:
    # T = 100 min, 800 kg dry, 600 kg propellant at 3.2 km/s: r = 7.20e3 km, v_c = 7.54 km/s,
    # Δv = 1.79 km/s, v1 = 9.33 km/s (bound: v1² r/GM = 1.57), apogee speed about 2.9 km/s
    period, m_dry, m_p, u = 6000.0, 800.0, 600.0, 3200.0
    r = _bisect(lambda x: 2 * math.pi * math.sqrt(x**3 / GM_EARTH) - period, 6.0e6, 1.0e7)
    v_c = 2 * math.pi * r / period
    slices = 20_000  # momentum balance slice by slice: m dv = u dm
    dm = m_p / slices
    dv = sum(u * dm / (m_dry + m_p - (k + 0.5) * dm) for k in range(slices))
    v1 = v_c + dv

    def deriv(_t: float, y: list[float]) -> list[float]:
        x, z, vx, vz = y
        d3 = (x * x + z * z) ** 1.5
        return [vx, vz, -GM_EARTH * x / d3, -GM_EARTH * z / d3]

    y, t, v_min = [r, 0.0, 0.0, v1], 0.0, v1
    while True:  # coast until the radial velocity turns inward: the apogee has been passed
        y = rk4(deriv, t, y, 1.0)
        t += 1.0
        v_min = min(v_min, math.hypot(y[2], y[3]))
        if y[0] * y[2] + y[1] * y[3] < 0:
            break
    return {"r": (r / 1e3, "km"), "v1": (v1 / 1e3, "km/s"), "v_min": (v_min / 1e3, "km/s")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.kick_stage_escape_or_bound": (
        {"T": "100 min", "m_dry": "800 kg", "m_p": "600 kg", "u": "3.2 km/s"}, _kick_stage),
}

"""Worked examples of the hard circuit templates (issue 19), each computed by a route other than the
template's closed form: nodal equations solved by bisection with a steep diode law, ODEs integrated
step by step, and powers summed over the parts (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable


def _bisect(f: Callable[[float], float], lo: float, hi: float) -> float:
    flo = f(lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2


def _zener() -> dict[str, tuple[float, str]]:
    # 6 × 1.50 V cells, 0.30 Ω each (E 9 V, r 1.8 Ω); R_s 220 Ω; V_Z 4.7 V; load 5.0 V / 50 mW = 500 Ω;
    # open divider 9*500/721.8 = 6.23 V > 4.7 V: clamped. I_s = 4.3/221.8 = 19.39 mA,
    # P_L = 4.7²/500 = 44.18 mW, t = 2000 mAh/19.39 mA = 103.2 h.
    # Route: node equation (E − V)/(r + R_s) = V/R_L + i_Z(V), with a steep exponential Zener law,
    # solved by bisection.
    e, r, r_s, r_l, v_z = 9.0, 1.8, 220.0, 5.0**2 / 0.050, 4.7

    def i_z(v: float) -> float:
        return 1e-9 * math.exp(min((v - v_z) / 1e-9, 700.0))

    v = _bisect(lambda x: (e - x) / (r + r_s) - x / r_l - i_z(x), 0.0, e)
    i_s = (e - v) / (r + r_s)
    return {"I_s": (i_s * 1e3, "mA"), "P_L": (v * v / r_l * 1e3, "mW"), "t_run": (2.0 / i_s, "h")}


def _max_power() -> dict[str, tuple[float, str]]:
    # 12 V, r 0.5 Ω, R_1 4.5 Ω, R_2 20 Ω, load ≥ 6 Ω: R_th = 5*20/25 = 4 Ω < 6 Ω, so R_L = 6 Ω;
    # V_th = 9.6 V, I_L = 0.96 A, P_L = 5.5296 W, I_2 = 5.76/20 = 0.288 A, I_b = 1.248 A,
    # P_w = 14.976 − 5.5296 = 9.4464 W.
    # Route: nodal analysis of the whole network for each setting, golden-section search of the load
    # power over [R_min, 1 kΩ]; the waste summed part by part as I²R.
    e, r, r1, r2, r_min = 12.0, 0.5, 4.5, 20.0, 6.0

    def node(load: float) -> float:
        return e / (r + r1) / (1 / (r + r1) + 1 / r2 + 1 / load)

    def power(load: float) -> float:
        return node(load) ** 2 / load

    lo, hi = r_min, 1000.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(300):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if power(a) >= power(b):
            hi = b
        else:
            lo = a
    best = (lo + hi) / 2
    v = node(best)
    i_b = (e - v) / (r + r1)
    waste = i_b**2 * (r + r1) + v**2 / r2
    return {"P_L": (power(best), "W"), "I_b": (i_b, "A"), "P_w": (waste, "W")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "electricity.zener_regulator_battery_life": (
        {"n": "6", "e_c": "1.50 V", "r_c": "0.30 ohm", "R_s": "220 ohm", "V_Z": "4.7 V", "V_rat": "5.0 V",
         "P_rat": "50 mW", "Q_b": "2000 mAh"}, _zener),
    "electricity.max_power_limited_load": (
        {"E": "12 V", "r": "0.5 ohm", "R_1": "4.5 ohm", "R_2": "20 ohm", "R_min": "6 ohm"}, _max_power),
}

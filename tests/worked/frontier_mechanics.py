"""Worked examples of the harder mechanics templates added for the frontier catalog, computed by
hand (paper values in comments; formulas written from the physics, not from the templates)."""

from __future__ import annotations

import math
from collections.abc import Callable

G = 9.81


def _wedge() -> dict[str, tuple[float, str]]:
    # m 1 kg, M 3 kg, 30°: denominator 3 + 0.25 = 3.25; A = 4.2478/3.25 = 1.3070 m/s²,
    # a_rel = 4*9.81*0.5/3.25 = 6.0369 m/s², N = 3*9.81*0.8660/3.25 = 7.842 N
    s, c = math.sin(math.radians(30)), math.cos(math.radians(30))
    den = 3 + 1 * s**2
    return {"A": (1 * G * s * c / den, "m/s^2"), "a_rel": (4 * G * s / den, "m/s^2"),
            "N": (3 * 1 * G * c / den, "N")}


def _bowling() -> dict[str, tuple[float, str]]:
    # v0 7 m/s, mu 0.2: t = 14/13.734 = 1.0194 s, d = 12/1.962 = 6.116 m, v = 5 m/s
    return {"t": (2 * 7 / (7 * 0.2 * G), "s"), "d": (12 * 49 / (49 * 0.2 * G), "m"), "v": (5.0, "m/s")}


def _bumper() -> dict[str, tuple[float, str]]:
    # 1 kg at 3 m/s into 2 kg with k = 1500 N/m: v = 1 m/s;
    # energy 4.5 J = 0.5*3*1 + 0.5*1500 x² -> x = 6.3246 cm
    x = math.sqrt((0.5 * 1 * 3**2 - 0.5 * 3 * 1**2) / (0.5 * 1500))
    return {"v_c": (1.0, "m/s"), "x": (x * 100, "cm")}


def _hohmann() -> dict[str, tuple[float, str]]:
    # 7000 km -> 42000 km, GM 3.986e14: dv1 = 2334.1 m/s, dv2 = 1433.9 m/s, t = 19082 s = 5.3006 h
    gm, r1, r2 = 3.986e14, 7.0e6, 4.2e7
    a = (r1 + r2) / 2
    v_p = math.sqrt(gm * (2 / r1 - 1 / a))
    v_a = math.sqrt(gm * (2 / r2 - 1 / a))
    return {"dv1": ((v_p - math.sqrt(gm / r1)) / 1000, "km/s"),
            "dv2": ((math.sqrt(gm / r2) - v_a) / 1000, "km/s"),
            "t_transfer": (math.pi * math.sqrt(a**3 / gm) / 3600, "h")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.block_on_free_wedge": (
        {"m": "1 kg", "M": "3 kg", "theta": "30 deg", "g": "9.81 m/s^2"}, _wedge),
    "mechanics.bowling_ball_skid_to_roll": ({"v0": "7 m/s", "mu_k": "0.2", "g": "9.81 m/s^2"}, _bowling),
    "mechanics.spring_bumper_collision": (
        {"m1": "1 kg", "m2": "2 kg", "u": "3 m/s", "k": "1500 N/m"}, _bumper),
    "mechanics.hohmann_transfer": ({"r1": "7000 km", "r2": "42000 km"}, _hohmann),
}

"""Worked examples of the tmpl-mech batch of hard mechanics templates (multi-stage launch, rigid-body
collisions, rolling with slipping, driven and coupled oscillators, non-inertial frames, orbits, variable
mass, tipping versus sliding), computed by hand with plain formulas (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

G = 9.81  # m/s^2


def _spring_loop() -> dict[str, tuple[float, str]]:
    # 200 g, k 800 N/m, x 10 cm, R 25 cm, H 0.5 m, lip 20° down:
    # v0² = 800*0.01/0.2 = 40; x_min = sqrt(5*0.2*9.81*0.25/800) = 5.537 cm;
    # v1 = sqrt(40 - 9.81) = 5.4945 m/s; vx = 5.1632, vy = 1.8792 (down);
    # t = (sqrt(1.8792² + 9.81) - 1.8792)/9.81 = (3.6441 - 1.8792)/9.81 = 0.17991 s; d = 0.9289 m
    v0sq = 800 * 0.10**2 / 0.200
    v1 = math.sqrt(v0sq - 2 * G * 0.5)
    th = math.radians(20)
    t = (math.sqrt((v1 * math.sin(th))**2 + 2 * G * 0.5) - v1 * math.sin(th)) / G
    return {"x_min": (math.sqrt(5 * 0.2 * G * 0.25 / 800) * 100, "cm"), "v1": (v1, "m/s"),
            "d": (v1 * math.cos(th) * t, "m")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.spring_loop_ramp_launch": (
        {"m": "200 g", "k": "800 N/m", "x": "10 cm", "R": "25 cm", "H": "0.5 m", "theta": "20 deg",
         "g": "9.81 m/s^2"}, _spring_loop),
}

"""Worked examples of the hard fluids and orbital templates of the `wg` branch, each computed by a
route of its own, not the template's closed form retyped: the orbit radius bisected from the
period, the burn summed propellant slice by propellant slice, and the coast after the burn
integrated with RK4 until the probe is slowest; the tank filled from empty and drained again
with RK4, the jet's landing point followed until it halves; the two siphoned tanks stepped with
RK4 until the head vanishes or air reaches the inlet; the ball thrown down faster than its terminal
speed integrated with RK4, the drag's work summed as its power; the astronaut's jump from a spinning
asteroid coasted with RK4 in a non-rotating frame."""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import bisect as _bisect
from tests.ode import rk4

GM_EARTH = 3.986e14  # m^3/s^2


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


def _hose_tank() -> dict[str, tuple[float, str]]:
    # 40 L/min into a 0.80 m tank through a 1.20 cm² hole (jet 0.62 of it), rim 1.50 m, hole 1.20 m up:
    # balancing the hose would need 4.09 m of water, so the tank overflows and the level is the rim's
    g, q, a, c, d, rim, y = 9.81, 40e-3 / 60, 1.2e-4, 0.62, 0.80, 1.5, 1.2
    area = math.pi * d**2 / 4

    def level_rate(h: float) -> float:
        return (q - c * a * math.sqrt(2 * g * max(h, 0.0))) / area

    h, dt = 0.0, 1.0
    for _ in range(40_000):  # fill from empty, the rim spilling whatever rises above it
        h = min(rim, rk4(lambda _t, z: [level_rate(z[0])], 0.0, [h], dt)[0])
    t_fall = _bisect(lambda t: y - g * t * t / 2, 0.0, 5.0)

    def landing(depth: float) -> float:
        return math.sqrt(2 * g * depth) * t_fall

    x0 = landing(h)
    v_hit = math.hypot(math.sqrt(2 * g * h), g * t_fall)
    t, z, step = 0.0, h, 0.05  # hose off: drain until the jet lands half as far out
    while True:
        z_new = rk4(lambda _t, s: [-c * a * math.sqrt(2 * g * max(s[0], 0.0)) / area], t, [z], step)[0]
        if landing(z_new) <= x0 / 2:
            frac = (landing(z) - x0 / 2) / (landing(z) - landing(z_new))
            t += frac * step
            break
        z, t = z_new, t + step
    return {"x": (x0, "m"), "v_hit": (v_hit, "m/s"), "t_q": (t / 60, "min")}


def _siphon() -> dict[str, tuple[float, str]]:
    # 50 cm head, tanks 60 cm and 40 cm across, 12 mm tube, inlet 30 cm down, C = 0.55: the levels would
    # meet after a 15.4 cm drop, before the inlet is uncovered, so the flow runs until the head is zero
    g, c, h0, s, d1, d2, d = 9.81, 0.55, 0.50, 0.30, 0.60, 0.40, 0.012
    a1, a2, a = math.pi * d1**2 / 4, math.pi * d2**2 / 4, math.pi * d**2 / 4
    q0 = c * a * math.sqrt(2 * g * h0)

    def rates(_t: float, z: list[float]) -> list[float]:  # z = [level 1, level 2], from tank 2's start
        q = c * a * math.sqrt(2 * g * max(z[0] - z[1], 0.0))
        return [-q / a1, q / a2]

    t, z, dt = 0.0, [h0, 0.0], 0.01
    while True:  # step until the head vanishes or the first level reaches the inlet
        nz = rk4(rates, t, z, dt)
        if nz[0] - nz[1] <= 1e-9 or nz[0] <= h0 - s:
            if nz[0] - nz[1] <= 1e-9:  # the head touches zero tangentially: interpolate its root
                root_old, root_new = math.sqrt(z[0] - z[1]), math.sqrt(max(nz[0] - nz[1], 0.0))
                frac = root_old / (root_old - root_new)
            else:
                frac = (z[0] - (h0 - s)) / (z[0] - nz[0])
            t += frac * dt
            z = [z[0] + frac * (nz[0] - z[0]), z[1] + frac * (nz[1] - z[1])]
            break
        t, z = t + dt, nz
    return {"Q0": (q0 * 6e4, "L/min"), "V": ((h0 - z[0]) * a1 * 1e3, "L"), "t": (t / 60, "min")}


def _ball_down() -> dict[str, tuple[float, str]]:
    # 100 g, 6.0 cm ball thrown down at 160 km/h (44.4 m/s, above its terminal 35.1 m/s), 2.0 s later:
    # integrate v' = g − k v², x' = v and the drag's power k m v³ with RK4
    g, rho, cd, m, dia, v0, tau = 9.81, 1.20, 0.47, 0.100, 0.060, 160 / 3.6, 2.0
    k = rho * cd * math.pi * dia**2 / (8 * m)

    def deriv(_t: float, y: list[float]) -> list[float]:
        v = y[0]
        return [g - k * v * v, v, m * k * v**3]

    y, n = [v0, 0.0, 0.0], 20_000
    for j in range(n):
        y = rk4(deriv, j * tau / n, y, tau / n)
    return {"v": (y[0], "m/s"), "d": (y[1], "m"), "W": (y[2], "J")}


def _asteroid_jump() -> dict[str, tuple[float, str]]:
    # 8 km, 2.2 g/cm³, 3.5 h spin, 5 m/s straight up: the ground moves at 3.99 m/s, so she leaves at
    # 6.39 m/s against an escape speed of 8.87 m/s (bound); coast with RK4 in a non-rotating frame
    g_const, radius, rho, period, u = 6.674e-11, 8.0e3, 2200.0, 3.5 * 3600, 5.0
    gm = g_const * rho * 4 / 3 * math.pi * radius**3
    spin = 2 * math.pi / period
    g_eff = gm / radius**2 - spin**2 * radius  # gravity less the centripetal need of the ground

    def deriv(_t: float, y: list[float]) -> list[float]:
        x, z, vx, vz = y
        d3 = (x * x + z * z) ** 1.5
        return [vx, vz, -gm * x / d3, -gm * z / d3]

    y, t, v_min = [radius, 0.0, u, spin * radius], 0.0, math.hypot(u, spin * radius)
    while True:  # until the radial velocity turns inward: the farthest point has been passed
        y = rk4(deriv, t, y, 0.25)
        t += 0.25
        v_min = min(v_min, math.hypot(y[2], y[3]))
        if y[0] * y[2] + y[1] * y[3] < 0:
            break
    return {"g_eff": (g_eff * 1e3, "mm/s^2"), "v_min": (v_min, "m/s")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.kick_stage_escape_or_bound": (
        {"T": "100 min", "m_dry": "800 kg", "m_p": "600 kg", "u": "3.2 km/s"}, _kick_stage),
    "fluids.hose_filled_tank_overflow_jet": (
        {"Q": "40 L/min", "a": "1.2 cm^2", "D": "0.80 m", "H": "1.50 m", "y": "1.20 m"}, _hose_tank),
    "fluids.siphon_between_tanks_breaks_or_levels": (
        {"H0": "50 cm", "s": "30 cm", "D1": "60 cm", "D2": "40 cm", "d": "12 mm"}, _siphon),
    "fluids.ball_thrown_down_past_terminal_speed": (
        {"m": "100 g", "D": "6.0 cm", "v0": "160 km/h", "tau": "2.0 s"}, _ball_down),
    "mechanics.asteroid_equator_jump_escape_or_bound": (
        {"R": "8.0 km", "rho": "2.2 g/cm^3", "P": "3.5 h", "u": "5.0 m/s"}, _asteroid_jump),
}

"""Worked examples of the hard mechanics and fluids templates of issue 19, computed by a numerical
route independent of the templates' closed forms: each stage is integrated as an ODE (classical
RK4, events located by bisection inside the last step), the barometric pressure by integrating
dp/dz = −p g/(R T(z)), and the Mach number by bisecting the isentropic Pitot relation.
Only the physics (forces, conservation laws at an instant) is typed in; no formula of a template is.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import State
from tests.ode import bisect as _bisect
from tests.ode import until as _until


def _ball_to_ice() -> dict[str, tuple[float, str]]:
    # solid ball, R 10 cm, 150 cm down a 40° incline with μ 0.2 (tan 40° = 0.839 > 3.5·0.2: it slips),
    # then a rough floor (skids until v = ωR), then frictionless ice (slides up, spin kept)
    g, mu, th, L, R = 9.81, 0.2, math.radians(40), 1.50, 0.10
    inertia = 0.4  # I/(m R²)
    # on the incline: rolling needs friction f/m = g sin θ · (I/mR²)/(1 + I/mR²); static can give μ g cos θ
    f_roll = g * math.sin(th) * inertia / (1 + inertia)
    f = f_roll if f_roll <= mu * g * math.cos(th) else mu * g * math.cos(th)

    def incline(_t: float, y: State) -> State:  # y = [s, v, ωR]
        return [y[1], g * math.sin(th) - f, f / inertia]

    _, (_, v1, u1) = _until(incline, [0.0, 0.0, 0.0], lambda y: y[0] - L)

    def floor(_t: float, y: State) -> State:  # kinetic friction backwards while v > ωR
        return [y[1], -mu * g, mu * g / inertia]

    _, (_, v2, u2) = _until(floor, [0.0, v1, u1], lambda y: y[1] - y[2], dt=1e-3)

    def ice(_t: float, y: State) -> State:  # up a 25° frictionless ramp; no torque
        return [y[1], -g * math.sin(math.radians(25))]

    _, (s_top, _) = _until(ice, [0.0, v2], lambda y: y[1], dt=1e-3)
    return {"v1": (v1, "m/s"), "h": (s_top * math.sin(math.radians(25)) * 100, "cm"), "w2": (u2 / R, "rad/s")}


def _trailer() -> dict[str, tuple[float, str]]:
    # 50 km/h, stops in 12 m (8.04 m/s² > 1.1·0.5·g: the crate slides); μ_k 0.4; crate 8 m behind the wall
    g, mu_k, G, m = 9.81, 0.4, 8.0, 80.0
    v0 = 50 / 3.6
    a = v0**2 / (2 * 12.0)  # uniform braking over 12 m

    def both(_t: float, y: State) -> State:  # y = [x_truck, v_truck, x_crate, v_crate]
        truck_a = -a if y[1] > 0 else 0.0
        return [y[1], truck_a, y[3], -mu_k * g]  # the crate slides forward relative to the bed

    t_stop, y = _until(both, [0.0, v0, 0.0, v0], lambda y: y[1])
    y[1] = 0.0  # the truck stays at rest
    t_more, y = _until(both, y, lambda y: y[2] - y[0] - G)
    u = y[3] - y[1]
    return {"u_hit": (u, "m/s"), "t_hit": (t_stop + t_more, "s"), "J": (m * u, "N*s")}


def _bullet() -> dict[str, tuple[float, str]]:
    # 10 g at 400 m/s into 1.5 kg; 40 cm of rough floor (μ 0.25) to an 80 N/m spring
    g, mu, k, s0 = 9.81, 0.25, 80.0, 0.40
    mass = 1.51
    v = 0.010 * 400 / mass  # momentum conserved in the embedding

    def sliding(_t: float, y: State) -> State:  # y = [x, v], x from the point of impact, towards the wall
        return [y[1], -mu * g]

    def sliding_back(_t: float, y: State) -> State:  # moving away from the wall
        return [y[1], mu * g]

    def going(_t: float, y: State) -> State:  # in contact with the spring, moving towards the wall
        return [y[1], -mu * g - k * (y[0] - s0) / mass]

    def back(_t: float, y: State) -> State:  # in contact, moving away from the wall: friction towards it
        return [y[1], mu * g - k * (y[0] - s0) / mass]

    _, at_spring = _until(sliding, [0.0, v], lambda y: y[0] - s0)
    _, (x_turn, _) = _until(going, at_spring, lambda y: y[1])
    x = x_turn - s0
    t_out, (_, v_out) = _until(back, [x_turn, 0.0], lambda y: y[0] - s0)
    t_stop, _ = _until(sliding_back, [s0, v_out], lambda y: y[1])
    return {"x": (x * 100, "cm"), "t_out": (t_out * 1e3, "ms"), "v2": (-v_out, "m/s"),
            "t_stop": (t_stop, "s")}


def _pitot() -> dict[str, tuple[float, str]]:
    # ISA at 12 km (above the tropopause), Pitot − static 12 kPa, 80 kn headwind, 1500 km, 2400 kg/h
    t0, lapse, p0, r, gam, g = 288.15, 0.0065, 101325.0, 287.05, 1.4, 9.80665

    def temp(z: float) -> float:
        return t0 - lapse * min(z, 11000.0)

    steps, h = 12000, 12000.0
    ln_p = math.log(p0)
    for n in range(steps):  # d ln p/dz = −g/(R T(z)), midpoint of each metre (T is piecewise linear)
        ln_p -= g / (r * temp((n + 0.5) * h / steps)) * h / steps
    p = math.exp(ln_p)
    ratio = (12000.0 + p) / p
    mach = _bisect(lambda m: (1 + (gam - 1) / 2 * m * m) ** (gam / (gam - 1)) - ratio, 0.0, 1.0)
    v = mach * math.sqrt(gam * r * temp(h)) * 3.6  # km/h
    t_leg = 1500 / (v - 80 * 1.852)  # h
    return {"v": (v, "km/h"), "t_leg": (t_leg * 60, "min"), "m_fuel": (2400 * t_leg, "kg")}


def _jet() -> dict[str, tuple[float, str]]:
    # 150 kPa gauge, 50 cm of water above an 8 mm nozzle 1 m up, 30°; a tall wall 10 m away
    g, rho, p_g, depth, y0, alpha, x_w = 9.81, 1000.0, 150e3, 0.50, 1.0, math.radians(30), 10.0
    v0 = math.sqrt(2 * (p_g / rho + g * depth))  # Bernoulli, large tank
    q = math.pi * 0.008**2 / 4 * v0

    def flight(_t: float, y: State) -> State:  # y = [x, y, vx, vy]
        return [y[2], y[3], 0.0, -g]

    start = [0.0, y0, v0 * math.cos(alpha), v0 * math.sin(alpha)]
    t_hit, at = _until(flight, start, lambda y: min(x_w - y[0], y[1]))  # the wall or the ground
    assert at[0] > x_w - 1e-9  # it strikes the wall
    return {"Q": (q * 60e3, "L/min"), "t_imp": (t_hit, "s"), "v_imp": (math.hypot(at[2], at[3]), "m/s")}


def _dome() -> dict[str, tuple[float, str]]:
    # smooth hemisphere R 1.5 m, pushed at 2 m/s at the top (v0² < g R: it slides first)
    g, r, v0 = 9.81, 1.5, 2.0

    def on_dome(_t: float, y: State) -> State:  # y = [θ, θ'], θ from the top
        return [y[1], g / r * math.sin(y[0])]

    def normal(y: State) -> float:  # N/m = g cos θ − R θ'²
        return g * math.cos(y[0]) - r * y[1] ** 2

    _, (th, w) = _until(on_dome, [0.0, v0 / r], normal)
    v = r * w

    def flight(_t: float, y: State) -> State:  # y = [x, y, vx, vy]
        return [y[2], y[3], 0.0, -g]

    start = [r * math.sin(th), r * math.cos(th), v * math.cos(th), -v * math.sin(th)]
    t_f, land = _until(flight, start, lambda y: y[1])
    angle = math.degrees(math.atan2(-land[3], land[2]))
    return {"t_f": (t_f, "s"), "X": (land[0], "m"), "phi": (angle, "deg")}


def _sluice() -> dict[str, tuple[float, str]]:
    # 3 m deep behind a gate raised 80 cm in a 5 m channel; the stream contracts to 0.61 × 80 cm
    g, y0, b = 9.81, 3.0, 5.0
    y1 = 0.61 * 0.80

    def bernoulli(v1: float) -> float:  # upstream head minus head at the vena contracta
        return y0 + (v1 * y1 / y0) ** 2 / (2 * g) - y1 - v1**2 / (2 * g)

    v1 = _bisect(bernoulli, 0.0, 50.0)
    q = v1 * y1

    def momentum(y: float) -> float:  # momentum function relative to the fast stream's
        return q**2 / (g * y) + y**2 / 2 - (q**2 / (g * y1) + y1**2 / 2)

    y2 = _bisect(momentum, y1 * 1.001, 50 * y1)
    v2 = q / y2
    return {"Q": (q * b, "m^3/s"), "y2": (y2, "m"), "v2": (v2, "m/s"), "Fr2": (v2 / math.sqrt(g * y2), "")}


def _ramp_flight() -> dict[str, tuple[float, str]]:
    # 100 g off an 800 N/m spring squeezed 8 cm, sticks to 100 g; 40 cm ramp at 30°, μ 0.2:
    # the pair leaves the ramp's edge
    g, m1, m2, k, th, ramp, mu = 9.81, 0.100, 0.100, 800.0, math.radians(30), 0.40, 0.2

    def spring(_t: float, y: State) -> State:  # y = [compression, speed]
        return [-y[1], k * y[0] / m1]

    _, (_, v0) = _until(spring, [0.08, 0.0], lambda y: y[0])
    v = m1 * v0 / (m1 + m2)

    def up(_t: float, y: State) -> State:  # y = [s, v, heat]
        friction = mu * (m1 + m2) * g * math.cos(th)
        return [y[1], -g * math.sin(th) - friction / (m1 + m2), friction * y[1]]

    t1, (s, v_edge, heat) = _until(up, [0.0, v, 0.0], lambda y: y[0] - ramp)
    assert v_edge > 0  # it reaches the edge moving

    def flight(_t: float, y: State) -> State:  # y = [height, vertical speed]
        return [y[1], -g]

    t2, (rise, _) = _until(flight, [0.0, v_edge * math.sin(th)], lambda y: y[1])
    height = (s * math.sin(th) + rise) * 100
    return {"h_max": (height, "cm"), "t_max": (t1 + t2, "s"), "Q": (heat * 1e3, "mJ")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.ball_rolls_or_slips_to_ice_ramp": (
        {"theta": "40 deg", "mu": "0.2", "L": "150 cm", "R": "10 cm", "g": "9.81 m/s^2"}, _ball_to_ice),
    "mechanics.braking_trailer_crate_slides": (
        {"v0": "50 km/h", "D": "12 m", "mu_s": "0.5", "mu_k": "0.4", "m": "80 kg", "G": "8 m",
         "g": "9.81 m/s^2"}, _trailer),
    "mechanics.bullet_block_spring_rebound": (
        {"m_b": "10 g", "v_b": "400 m/s", "M": "1.5 kg", "s0": "40 cm", "mu": "0.25", "k": "80 N/m",
         "g": "9.81 m/s^2"}, _bullet),
    "mechanics.spring_block_sticks_ramp_flight": (
        {"m1": "100 g", "k": "800 N/m", "x": "8 cm", "m2": "100 g", "theta": "30 deg", "L": "40 cm",
         "mu": "0.2", "g": "9.81 m/s^2"}, _ramp_flight),
    "mechanics.block_leaves_smooth_dome": ({"R": "1.5 m", "v0": "2 m/s", "g": "9.81 m/s^2"}, _dome),
    "fluids.sluice_gate_hydraulic_jump": (
        {"y0": "3 m", "a": "80 cm", "b": "5 m", "g": "9.81 m/s^2"}, _sluice),
    "fluids.pitot_airspeed_standard_atmosphere": (
        {"h": "12 km", "dp": "12 kPa", "w": "80 knot", "d": "1500 km", "mdot": "2400 kg/h"}, _pitot),
    "fluids.pressurised_tank_jet_over_wall": (
        {"P_g": "150 kPa", "h": "50 cm", "dn": "8 mm", "y0": "1 m", "alpha": "30 deg", "X_w": "10 m",
         "g": "9.81 m/s^2"}, _jet),
}

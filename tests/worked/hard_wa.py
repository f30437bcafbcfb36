"""Worked examples of the hard mechanics and fluids templates of issue 19 (branch wa), computed by a
numerical route independent of the templates' closed forms: the motions are integrated step by step
(classical RK4, events located by bisection inside the step), equilibria and turning points are found
by bisection. Only the physics (the forces on each body, the conservation laws at an impact) is typed
in; no formula of a template is.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import Deriv, State
from tests.ode import bisect as _bisect
from tests.ode import rk4 as _rk4
from tests.ode import until as _until


def _free_plank() -> dict[str, tuple[float, str]]:
    # 2 kg block from 50 cm onto a 1 kg, 50 cm plank, μ 0.3: sharing the speed would need 55.6 cm of
    # relative sliding, more than the plank, so the block slides off the far end
    g, h, m, big_m, mu, length = 9.81, 0.50, 2.0, 1.0, 0.30, 0.50
    y = [0.0, math.sqrt(2 * g * h), 0.0, 0.0]  # block x, v; plank X, V (ground frame)

    def f(_t: float, s: State) -> State:
        slip = 1.0 if s[1] > s[3] else 0.0  # kinetic friction opposes the sliding; the event ends it
        return [s[1], -slip * mu * g, s[3], slip * mu * m * g / big_m]

    def event(s: State) -> float:  # stops at relative rest or at the plank's far end, whichever is first
        return min(s[1] - s[3], length - (s[0] - s[2]))

    _t, y = _until(f, y, event, 1e-3)
    slid = y[0] - y[2]
    return {"V_p": (y[3], "m/s"), "v_b": (y[1], "m/s"), "Q": (mu * m * g * slid, "J")}


def _floating_post() -> dict[str, tuple[float, str]]:
    # 15 cm × 40 cm post of 500 kg/m³ wood (3.53 kg), 2 kg of clay from 1 m: the swing would reach
    # 62 cm, past the post's length, so the top goes under and the buoyancy stops growing
    g, rho, d, length, rho_w, m, h = 9.81, 1000.0, 0.15, 0.40, 500.0, 2.0, 1.00
    area = math.pi * d**2 / 4
    big_m = rho_w * area * length
    v1 = math.sqrt(2 * g * h)
    u = m * v1 / (m + big_m)  # brief impact: momentum of clay + post is kept
    depth0 = _bisect(lambda y: rho * g * area * y - big_m * g, 0.0, length)  # floating before

    def f(_t: float, s: State) -> State:  # s = [depth of the bottom, its rate]
        buoyancy = rho * g * area * min(max(s[0], 0.0), length)
        return [s[1], ((big_m + m) * g - buoyancy) / (big_m + m)]  # depth grows downward

    t, s = _until(f, [depth0, u], lambda s: s[1], 1e-4)
    return {"u": (u, "m/s"), "y_max": (s[0] * 100, "cm"), "t_low": (t, "s")}


def _cargo_drop() -> dict[str, tuple[float, str]]:
    # 60 kg, drag areas 1.0 and 12 m², air 1.2 kg/m³, canopy out after 5 m and 8 m above the ground:
    # v_t2 = 9.04 m/s and the crate opens at about 9.5 m/s, so the canopy slows it
    g, m, ca1, ca2, h1, h2, rho = 9.81, 60.0, 1.0, 12.0, 5.0, 8.0, 1.2

    def fall(ca: float) -> Deriv:  # s = [distance fallen, speed]
        return lambda _t, s: [s[1], g - rho * ca * s[1] * abs(s[1]) / (2 * m)]

    _t1, s = _until(fall(ca1), [0.0, 0.0], lambda s: h1 - s[0], 1e-4)
    v1 = s[1]
    a_open = abs(fall(ca2)(0.0, [0.0, v1])[1])
    t2, s = _until(fall(ca2), [0.0, v1], lambda s: h2 - s[0], 1e-4)
    return {"v1": (v1, "m/s"), "a_open": (a_open, "m/s^2"), "v_g": (s[1], "m/s"), "t2": (t2, "s")}


def _oil_pumped() -> dict[str, tuple[float, str]]:
    # 60 L/min of 890 kg/m³, 80 mPa·s oil through 60 m of 40 mm pipe, 20 m up, pump 70 %: Re ≈ 354, so
    # the flow is laminar and the pressure gradient is the one whose parabolic profile carries Q
    rho, mu, q, d, length, z, eta, g = 890.0, 0.080, 60e-3 / 60, 0.040, 60.0, 20.0, 0.70, 9.81
    r = d / 2
    assert rho * (q / (math.pi * r**2)) * d / mu < 2000  # laminar

    def flow(grad: float, n: int = 2000) -> float:  # Q of u(s) = grad (r² − s²)/(4μ), midpoint rule
        ds = r / n
        return sum(grad * (r**2 - s**2) / (4 * mu) * 2 * math.pi * s * ds
                   for s in ((k + 0.5) * ds for k in range(n)))

    grad = _bisect(lambda gr: flow(gr) - q, 0.0, 1e7)
    v = q / (math.pi * r**2)
    dp = rho * g * z + grad * length + rho * v**2 / 2  # lift, friction, kinetic energy lost at the exit
    return {"dp": (dp / 1e3, "kPa"), "P": (dp * q / eta, "W")}


def _cylinder_curb() -> dict[str, tuple[float, str]]:
    # 50 kg, R 30 cm roller at 2.5 km/h against a 4.5 cm curb: after the impact it cannot pivot over
    # the edge, so it rocks back onto the floor (a second impact) and rolls away backwards
    g, m, r, h, v = 9.81, 50.0, 0.30, 0.045, 2.5 / 3.6
    i_cm, i_edge = m * r**2 / 2, 1.5 * m * r**2
    beta0 = math.acos((r - h) / r)  # line edge → centre, from the vertical, on the approach side
    # impact: angular momentum about the edge, L = I_cm ω + m (r × v), centre at (−R sin β0, R cos β0)
    centre = (-r * math.sin(beta0), r * math.cos(beta0))
    w1 = (i_cm * v / r + m * (centre[1] * v)) / i_edge  # clockwise, with v along +x
    normal = m * g * math.cos(beta0) - m * w1**2 * r  # radial Newton's law at the start of the pivot

    def pivot(_t: float, s: State) -> State:  # s = [β, β'], gravity's torque about the edge
        return [s[1], m * g * r * math.sin(s[0]) / i_edge]

    _t, s = _until(pivot, [beta0, -w1], lambda s: min(s[0], -s[1]), 1e-5)
    if s[0] <= 1e-9:  # over the top: rolls on along the curb
        u, lift = r * -s[1], h
    else:  # turned back: swing down to the floor, then the floor contact's impact
        _t, s = _until(pivot, s, lambda s: beta0 - s[0], 1e-5)
        w = s[1]  # now positive: turning back (anticlockwise)
        vel = (-w * r * math.cos(beta0), -w * r * math.sin(beta0))  # ω × (centre − edge)
        l_floor = i_cm * w + m * (0.0 * vel[1] - r * vel[0])  # about the floor point below the centre
        u, lift = -l_floor / i_edge * r, 0.0  # rolling anticlockwise: the axle moves backwards
    lost = 0.75 * m * v**2 - 0.75 * m * u**2 - m * g * lift
    return {"N1": (normal, "N"), "u_f": (u, "m/s"), "E_lost": (lost, "J")}


def _downhill_skid() -> dict[str, tuple[float, str]]:
    # 1500 kg car locks its wheels at 80 km/h on a 5° downhill, μ 0.6, 30 m before a parked 1200 kg car:
    # it would need 49 m to stop, so it hits the parked car and the locked wreck slides on
    g, v0, m1, m2, mu, theta, dist = 9.81, 80 / 3.6, 1500.0, 1200.0, 0.6, math.radians(5.0), 30.0

    def skid(_t: float, s: State) -> State:  # s = [distance down the slope, speed]; friction while moving
        return [s[1], g * math.sin(theta) - mu * g * math.cos(theta)]

    t1, s = _until(skid, [0.0, v0], lambda s: min(s[1], dist - s[0]), 1e-4)
    if s[1] <= 1e-9:  # stopped short of the parked car
        return {"x_rest": (s[0], "m"), "t_rest": (t1, "s")}
    v_c = m1 * s[1] / (m1 + m2)  # perfectly inelastic crash: momentum kept
    t2, w = _until(skid, [s[0], v_c], lambda s: s[1], 1e-4)
    return {"x_rest": (w[0], "m"), "t_rest": (t1 + t2, "s")}


def _snow_kicker() -> dict[str, tuple[float, str]]:
    # 4 m above the lip on a 30° in-run (μ 0.08), landing slope 25° and 12 m, braking μ 0.3: the rider
    # touches down about 7.1 m down the slope, so the landing is on the slope, not on the flat
    g, h, alpha, mu, beta, ls, mu_b = 9.81, 4.0, math.radians(30), 0.08, math.radians(25), 12.0, 0.3

    def slide(angle: float, coeff: float) -> Deriv:  # s = [distance along the surface, speed], downhill
        return lambda _t, s: [s[1], g * math.sin(angle) - coeff * g * math.cos(angle)]

    _t, s = _until(slide(alpha, mu), [0.0, 0.0], lambda s: h / math.sin(alpha) - s[0], 1e-4)
    v0 = s[1]

    def fly(_t: float, s: State) -> State:  # s = [x, drop below the lip, vx, vy (down)]
        return [s[2], s[3], 0.0, g]

    # the surface below the lip: the slope down to its foot, then the flat (one step first: at the lip
    # itself the rider is on the surface)
    _t, s = _until(fly, _rk4(fly, 0.0, [0.0, 0.0, v0, 0.0], 1e-4),
                   lambda s: min(s[0] * math.tan(beta), ls * math.sin(beta)) - s[1], 1e-4)
    x, vx, vy = s[0], s[2], s[3]
    if x < ls * math.cos(beta):  # on the slope: keep the component along it, slide to the foot
        v_n = vy * math.cos(beta) - vx * math.sin(beta)
        v_t = vx * math.cos(beta) + vy * math.sin(beta)
        _t, s = _until(slide(beta, mu), [x / math.cos(beta), v_t], lambda s: ls - s[0], 1e-4)
        v_flat = s[1]
    else:
        v_n, v_flat = vy, vx
    _t, s = _until(slide(0.0, mu_b), [0.0, v_flat], lambda s: s[1], 1e-4)
    return {"x_land": (x, "m"), "v_n": (v_n, "m/s"), "d_stop": (s[0], "m")}


def _suspension_drop() -> dict[str, tuple[float, str]]:
    # 300 kg on 30 kN/m (sag 9.81 cm), 10 cm of free travel, 200 kN/m bump stop, 10 cm drop: the swing
    # about the sag would be 17.1 cm, past the stop, so the body compresses the rubber too
    g, m, k, delta, k2, h = 9.81, 300.0, 30e3, 0.10, 200e3, 0.10
    stop = m * g / k + delta  # compression of the spring at which the bump stop is touched

    def body(_t: float, s: State) -> State:  # s = [compression from natural length, its rate]
        force = k * s[0] + k2 * max(s[0] - stop, 0.0)
        return [s[1], g - force / m]

    t, s = _until(body, [0.0, math.sqrt(2 * g * h)], lambda s: s[1], 1e-5)
    return {"x_max": (s[0] * 100, "cm"), "t_low": (t * 1e3, "ms"),
            "F_max": ((k * s[0] + k2 * max(s[0] - stop, 0.0)) / 1e3, "kN")}


def _arrester_bed() -> dict[str, tuple[float, str]]:
    # 20 t at 90 km/h into a 100 m bed with μ = 0.15 + 0.004 x: the resistance would stop the truck
    # about 94 m in, so it stays inside the bed
    g, m, v0, mu0, b, length = 9.81, 20e3, 90 / 3.6, 0.15, 0.004, 100.0

    def bed(_t: float, s: State) -> State:  # s = [distance into the bed, speed]
        return [s[1], -g * (mu0 + b * s[0])]

    t, s = _until(bed, [0.0, v0], lambda s: min(s[1], length - s[0]), 1e-4)
    speed = max(s[1], 0.0)
    return {"t_s": (t, "s"), "Q": (m * (v0**2 - speed**2) / 2 / 1e6, "MJ")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.block_slides_across_free_plank": (
        {"h": "50 cm", "m": "2 kg", "M": "1 kg", "mu": "0.3", "L": "50 cm", "g": "9.81 m/s^2"}, _free_plank),
    "fluids.floating_post_struck_by_falling_lump": (
        {"D": "15 cm", "H": "40 cm", "rho_w": "500 kg/m^3", "m": "2 kg", "h": "100 cm"}, _floating_post),
    "fluids.cargo_drop_static_line_canopy": (
        {"m": "60 kg", "CA1": "1.0 m^2", "CA2": "12 m^2", "h1": "5 m", "h2": "8 m", "rho": "1.2 kg/m^3"},
        _cargo_drop),
    "fluids.oil_pumped_uphill_flow_regime": (
        {"Q": "60 L/min", "D": "40 mm", "L": "60 m", "z": "20 m", "rho": "890 kg/m^3", "mu": "80 mPa*s",
         "eta": "0.70"}, _oil_pumped),
    "mechanics.rolling_cylinder_meets_curb": (
        {"m": "50 kg", "R": "30 cm", "h": "4.5 cm", "v": "2.5 km/h", "g": "9.81 m/s^2"}, _cylinder_curb),
    "mechanics.downhill_skid_into_parked_car": (
        {"v0": "80 km/h", "m1": "1500 kg", "m2": "1200 kg", "mu": "0.6", "theta": "5 deg", "D": "30 m",
         "g": "9.81 m/s^2"}, _downhill_skid),
    "mechanics.snow_kicker_landing_or_flat": (
        {"H": "4 m", "alpha": "30 deg", "mu": "0.08", "beta": "25 deg", "Ls": "12 m", "mu_b": "0.3",
         "g": "9.81 m/s^2"}, _snow_kicker),
    "mechanics.suspension_drop_test_bump_stop": (
        {"M": "300 kg", "k": "30 kN/m", "delta": "10 cm", "k2": "200 kN/m", "h": "10 cm"}, _suspension_drop),
    "mechanics.runaway_truck_arrester_bed": (
        {"m": "20 t", "v0": "90 km/h", "mu0": "0.15", "b": "0.004 1/m", "P": "100 m", "g": "9.81 m/s^2"},
        _arrester_bed),
}

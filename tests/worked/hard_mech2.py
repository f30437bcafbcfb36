"""Worked examples of the hard rotation, orbit and oscillator templates of issue 19 (branch w-mech2),
computed by a numerical route independent of the templates' closed forms: orbits and oscillations are
integrated as ODEs (classical RK4, events located by bisection inside the last step), launch speeds and
waiting times are found by bisection on the integrated motion. Only the physics (Newton's law of
gravitation, the forces on each body) is typed in; no formula of a template is.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import Deriv, State
from tests.ode import bisect as _bisect
from tests.ode import rk4 as _rk4
from tests.ode import until as _until


def _kepler(gm: float) -> Deriv:
    """Planar motion about a point mass: y = [x, y, vx, vy]."""
    def f(_t: float, y: State) -> State:
        r3 = math.hypot(y[0], y[1]) ** 3
        return [y[2], y[3], -gm * y[0] / r3, -gm * y[1] / r3]
    return f


def _rendezvous() -> dict[str, tuple[float, str]]:
    # chaser 400 km, target 20 000 km altitude, target leads by 30°: the lead needed at the burn is
    # about 90°, so the chaser must wait into the next synodic cycle
    gm, re = 3.986e14, 6371e3
    r1, r2, phi0 = re + 400e3, re + 20000e3, math.radians(30.0)
    f = _kepler(gm)

    def apogee(vp: float) -> tuple[float, State]:  # from perigee on +x, until the radial speed is zero
        first = _rk4(f, 0.0, [r1, 0.0, 0.0, vp], 2.0)  # one step off perigee, where it is zero too
        t, y = _until(f, first, lambda y: y[0] * y[2] + y[1] * y[3], dt=2.0)
        return t + 2.0, y

    v1, v2 = math.sqrt(gm / r1), math.sqrt(gm / r2)  # circular: gm/r² = v²/r
    vp = _bisect(lambda v: math.hypot(*apogee(v)[1][:2]) - r2, v1, 1.5 * v1)
    t_t, at_apogee = apogee(vp)
    va = math.hypot(at_apogee[2], at_apogee[3])
    w1, w2 = v1 / r1, v2 / r2

    def miss(wait: float) -> float:  # target's angle minus chaser's at arrival, wrapped to (−π, π]
        d = (phi0 + w2 * (wait + t_t)) - (w1 * wait + math.pi)
        return math.atan2(math.sin(d), math.cos(d))

    # scan for the first coast after which the miss crosses zero from above (not the ±π jump)
    wait, step = 0.0, 10.0
    while not (miss(wait) > 0 >= miss(wait + step) and miss(wait) - miss(wait + step) < 1.0):
        wait += step
    wait = _bisect(miss, wait, wait + step)
    return {"t_wait": (wait / 60, "min"), "dv": ((vp - v1 + v2 - va) / 1e3, "km/s"),
            "t_total": ((wait + t_t) / 3600, "h")}


def _lunar_ejecta() -> dict[str, tuple[float, str]]:
    # 0.9 km/s at 40° from the surface of an airless, non-rotating Moon: integrate the orbit in the
    # plane of flight until the rock is back at r = R; the top is where the radial speed vanishes
    gm, r = 4.905e12, 1737e3
    v0, th = 900.0, math.radians(40.0)
    f = _kepler(gm)
    start = [0.0, r, v0 * math.cos(th), v0 * math.sin(th)]  # launched from the top of the circle
    _, top = _until(f, start, lambda y: y[0] * y[2] + y[1] * y[3], dt=0.05)
    first = _rk4(f, 0.0, start, 0.05)  # off the surface, where r − R is zero
    t_land, land = _until(f, first, lambda y: math.hypot(y[0], y[1]) - r, dt=0.05)
    arc = math.atan2(land[0], land[1])  # angle swept clockwise from the launch point
    return {"H": ((math.hypot(top[0], top[1]) - r) / 1e3, "km"), "D": (r * arc / 1e3, "km"),
            "T_f": ((t_land + 0.05) / 60, "min")}


def _sandbag() -> dict[str, tuple[float, str]]:
    # 1 kg bag dropped 15 cm onto a 1 kg pan on a 400 N/m spring: the pair would rise above the
    # natural length, so the bag leaves the pan; integrate the pair while the pan pushes the bag up,
    # then the bag alone
    g, big_m, m, k, h = 9.81, 1.0, 1.0, 400.0, 0.15
    x0 = big_m * g / k  # the pan's equilibrium compression; heights y are measured from there, up
    _, (_, v) = _until(lambda _t, y: [y[1], -g], [h, 0.0], lambda y: y[0], dt=1e-5)
    v_pair = m * v / (big_m + m)  # momentum in the landing (v < 0: downward)

    def pair(_t: float, y: State) -> State:
        return [y[1], k * (x0 - y[0]) / (big_m + m) - g]

    def push(y: State) -> float:  # the pan's push on the bag, N = m (g + a)
        return m * (g + pair(0.0, y)[1])

    t_low, (y_low, _) = _until(pair, [0.0, v_pair], lambda y: y[1], dt=1e-5)
    t_up, y_up = _until(pair, [y_low, 0.0], lambda y: min(push(y), y[1]), dt=1e-5)
    t_fly = 0.0
    if push(y_up) <= 1e-9:  # the bag leaves while still rising; it flies up until it stops
        t_fly, y_up = _until(lambda _t, y: [y[1], -g], y_up, lambda y: y[1], dt=1e-5)
    x_max = x0 - y_low
    return {"x_max": (x_max * 100, "cm"), "y_top": (y_up[0] * 100, "cm"),
            "t_top": (t_low + t_up + t_fly, "s")}


def _cable_drum() -> dict[str, tuple[float, str]]:
    # 60 kg drum, rims 40 cm, hub 20 cm, k_g 28 cm; μ_s 0.15, μ_k 0.10; 300 N for 1.5 s. At each
    # instant the friction is the static one that keeps the contact at rest if μ_s m g allows it,
    # else kinetic against the slip; y = [x, v, ω], ω positive in the rolling sense
    g, m, big_r, r, k_g, mu_s, mu_k, force, t_pull = 9.81, 60.0, 0.40, 0.20, 0.28, 0.15, 0.10, 300.0, 1.5
    inertia = m * k_g**2

    def accelerations(pull: float, fr: float) -> tuple[float, float]:  # fr: forward friction on the rims
        return (pull + fr) / m, (-fr * big_r - pull * r) / inertia  # backward friction spins it forward

    def contact(pull: float, fr: float) -> float:  # acceleration of the rims' contact point
        a, alpha = accelerations(pull, fr)
        return a - alpha * big_r

    def motion(pull: float, y: State) -> Deriv:
        """The stage starting from ``y``: rolling if static friction can hold the contact point at
        rest, else kinetic friction against the slip, whose sense holds until the slip ends."""
        slip = y[1] - y[2] * big_r
        if slip == 0:
            f_stick = _bisect(lambda fr: contact(pull, fr), -10 * m * g, 10 * m * g)
            if abs(f_stick) <= mu_s * m * g:
                return lambda _t, z: [z[1], *accelerations(pull, f_stick)]
            slip = contact(pull, 0.0)  # it starts to slip the way it would without friction
        fr = -math.copysign(mu_k * m * g, slip)
        return lambda _t, z: [z[1], *accelerations(pull, fr)]

    y: State = [0.0, 0.0, 0.0]
    dt = 1e-3
    pulled = motion(force, y)
    for k in range(round(t_pull / dt)):
        y = _rk4(pulled, k * dt, y, dt)
    a, w1 = y[1] / t_pull, y[2]
    _, y = _until(motion(0.0, y), y, lambda y: y[1] - y[2] * big_r, dt=1e-4)
    return {"a": (a, "m/s^2"), "w1": (w1, "rad/s"), "D": (y[0], "m")}


def _struck_damped() -> dict[str, tuple[float, str]]:
    # 2 kg on 200 N/m with a 100 N·s/m dashpot (γ = 25/s > ω0 = 10/s: overdamped), struck with 1.5 N·s;
    # integrate x'' = −(k x + b x')/m from equilibrium, with the dashpot's heat ∫ b v² dt as a third state
    m, k, b, impulse, g = 2.0, 200.0, 100.0, 1.5, 9.81

    def f(_t: float, y: State) -> State:
        return [y[1], -(k * y[0] + b * y[1]) / m, b * y[1] ** 2]

    t_m, (x_max, _, heat) = _until(f, [0.0, impulse / m, 0.0], lambda y: y[1], dt=1e-5)
    return {"t_m": (t_m * 1e3, "ms"), "x_max": (x_max * 100, "cm"), "E_diss": (heat * 1e3, "mJ"),
            "T_low": (m * g + k * x_max, "N")}


def _pendulum_peg() -> dict[str, tuple[float, str]]:
    # 100 g on 1.00 m released at 70°, peg 30 cm above the lowest point: integrate the swing about the
    # pivot, then about the peg while the tension m(r ψ'² + g cos ψ) stays positive, then free flight
    m, big_l, th0, r, g = 0.100, 1.00, math.radians(70.0), 0.30, 9.81
    _, (_, w) = _until(lambda _t, y: [y[1], -g / big_l * math.sin(y[0])], [th0, 0.0], lambda y: y[0], dt=1e-5)
    v_b = abs(w) * big_l
    t_before, t_after = m * (g + v_b**2 / big_l), m * (g + v_b**2 / r)

    def about_peg(_t: float, y: State) -> State:  # ψ from the downward vertical through the peg
        return [y[1], -g / r * math.sin(y[0])]

    def tension(y: State) -> float:
        return m * (r * y[1] ** 2 + g * math.cos(y[0]))

    _, slack = _until(about_peg, [0.0, v_b / r], lambda y: min(tension(y), math.pi - y[0]), dt=1e-5)
    if slack[0] >= math.pi - 1e-9:  # over the top with the string taut
        top = 2 * r
    else:  # free flight from the slack point: height above the lowest point and vertical speed
        psi, dpsi = slack
        start = [r * (1 - math.cos(psi)), r * dpsi * math.sin(psi)]
        _, (top, _) = _until(lambda _t, y: [y[1], -g], start, lambda y: y[1], dt=1e-6)
    return {"T_before": (t_before, "N"), "T_after": (t_after, "N"), "y_max": (top * 100, "cm")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.rendezvous_phasing_hohmann": (
        {"h1": "400 km", "h2": "20000 km", "phi0": "30 deg"}, _rendezvous),
    "mechanics.lunar_ejecta_exact_flight": ({"v0": "0.9 km/s", "theta": "40 deg"}, _lunar_ejecta),
    "mechanics.sandbag_on_spring_pan": (
        {"M": "1 kg", "m": "1 kg", "k": "400 N/m", "h": "15 cm", "g": "9.81 m/s^2"}, _sandbag),
    "mechanics.cable_drum_pulled_roll_or_skid": (
        {"m": "60 kg", "R": "40 cm", "r": "20 cm", "k_g": "28 cm", "mu_s": "0.15", "mu_k": "0.10",
         "F": "300 N", "t": "1.5 s", "g": "9.81 m/s^2"}, _cable_drum),
    "mechanics.struck_damped_spring_mass": (
        {"m": "2 kg", "k": "200 N/m", "b": "100 N*s/m", "J": "1.5 N*s", "g": "9.81 m/s^2"}, _struck_damped),
    "mechanics.pendulum_peg_slack_or_loop": (
        {"m": "100 g", "L": "1.00 m", "theta0": "70 deg", "r_p": "30 cm", "g": "9.81 m/s^2"}, _pendulum_peg),
}

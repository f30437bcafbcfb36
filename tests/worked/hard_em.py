"""Worked examples of the level-5 electricity and magnetism templates of issue 19, each computed by a
numerical route independent of the template's closed form: trajectories and circuits integrated with
a fourth-order Runge–Kutta stepper (the event, a plate reached or a current falling to zero, located
by bisection on the last step), equilibria found by bisection. Constants are typed in by hand."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

Q_E = 1.602176634e-19  # C
M_E = 9.1093837015e-31  # kg
C_LIGHT = 299_792_458.0  # m/s
G = 9.81  # m/s², as the templates state it

State = list[float]
Rhs = Callable[[State], State]


def _rk4(f: Rhs, y: State, h: float) -> State:
    k1 = f(y)
    k2 = f([a + h / 2 * b for a, b in zip(y, k1, strict=True)])
    k3 = f([a + h / 2 * b for a, b in zip(y, k2, strict=True)])
    k4 = f([a + h * b for a, b in zip(y, k3, strict=True)])
    return [a + h / 6 * (p + 2 * q + 2 * r + s) for a, p, q, r, s in zip(y, k1, k2, k3, k4, strict=True)]


def _run_until(f: Rhs, y: State, h: float, events: Sequence[Callable[[State], float]],
               t_max: float) -> tuple[float, State, int]:
    """Integrate ``dy/dt = f(y)`` from t = 0 until one of ``events`` turns negative (which one is
    returned), or until ``t_max`` (index -1). The crossing is found by bisecting the last step."""
    t = 0.0
    while t < t_max:
        nxt = _rk4(f, y, h)
        hit = [k for k, ev in enumerate(events) if ev(nxt) < 0]
        if hit:
            k = hit[0]
            lo, hi = 0.0, h
            for _ in range(80):
                mid = (lo + hi) / 2
                if events[k](_rk4(f, y, mid)) < 0:
                    hi = mid
                else:
                    lo = mid
            return t + hi, _rk4(f, y, hi), k
        t, y = t + h, nxt
    return t, y, -1


def _bisect(f: Callable[[float], float], lo: float, hi: float) -> float:
    flo = f(lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        if (f(mid) < 0) == (flo < 0):
            lo, flo = mid, f(mid)
        else:
            hi = mid
    return (lo + hi) / 2


def _field_strip() -> dict[str, tuple[float, str]]:
    # 300 kV electron into a 10 mT strip 10 cm wide: γ = 1.587, r = 21.0 cm > d, so it crosses;
    # integrate dp/dt = −e v × B with v = p/(γ m) until x = d (or x = 0 on the way back)
    b, d = 0.010, 0.10
    gamma = 1 + Q_E * 300e3 / (M_E * C_LIGHT**2)
    p0 = M_E * C_LIGHT * math.sqrt(gamma**2 - 1)

    def rhs(y: State) -> State:
        _, _, px, py = y
        g = math.sqrt(1 + (px**2 + py**2) / (M_E * C_LIGHT) ** 2)
        vx, vy = px / (g * M_E), py / (g * M_E)
        return [vx, vy, -Q_E * vy * b, Q_E * vx * b]  # F = −e (v × B ẑ) = −e (vy, −vx)

    t, (_, yy, px, py), _ = _run_until(rhs, [0.0, 0.0, p0, 0.0], 2e-13,
                                       [lambda s: d - s[0], lambda s: s[0] + 1e-12], 1e-6)
    turned = math.degrees(math.atan2(abs(py), px))
    return {"y": (abs(yy) * 100, "cm"), "theta": (turned, "deg"), "t": (t * 1e9, "ns")}


def _inductor_dump() -> dict[str, tuple[float, str]]:
    # 12 V through 20 Ω into 100 mH for 5 ms; then L–200 Ω–diode–1 µF: α = 1000/s < ω0 = 3162/s.
    # Integrate the current's growth, then (q, i, heat) until the current falls to zero.
    e, r1, ind, t1, r2, cap = 12.0, 20.0, 0.100, 5e-3, 200.0, 1e-6
    steps = 20000
    i = [0.0]
    for _ in range(steps):
        i = _rk4(lambda s: [(e - r1 * s[0]) / ind], i, t1 / steps)
    i0 = i[0]

    def rhs(y: State) -> State:
        q, cur, _heat = y
        return [cur, (-r2 * cur - q / cap) / ind, r2 * cur**2]

    t0, (q, _, heat), _ = _run_until(rhs, [0.0, i0, 0.0], 1e-8, [lambda s: s[1]], 1.0)
    return {"t0": (t0 * 1e3, "ms"), "V_C": (q / cap, "V"), "W_R": (heat * 1e3, "mJ")}


def _putty_rod() -> dict[str, tuple[float, str]]:
    # 30 g putty at 36 km/h sticks to a 150 g rod; rails 30 cm apart, 1 T, 20 mΩ, 50 cm of rail:
    # v0 = 1.667 m/s; it would stop after 6.67 cm, so it stays on the rails. Integrate
    # (x, v, charge, heat) for 40 time constants (e^−40 of the motion is left).
    mb, u, mr, ell, b, res, rail = 0.030, 10.0, 0.150, 0.30, 1.0, 0.020, 0.50
    m = mb + mr
    v0 = mb * u / m
    tau = m * res / (b * ell) ** 2

    def rhs(y: State) -> State:
        _, v, _, _ = y
        return [v, -(b * ell) ** 2 * v / (m * res), b * ell * v / res, (b * ell * v) ** 2 / res]

    _, (_, _, q, heat), _ = _run_until(rhs, [0.0, v0, 0.0, 0.0], tau / 500,
                                       [lambda s: rail - s[0]], 40 * tau)
    return {"q": (q, "C"), "Q_R": (heat * 1e3, "mJ"), "f": (heat / (0.5 * mb * u**2), "")}


def _crossed_fields() -> dict[str, tuple[float, str]]:
    # 500 V across 5 mm, 12 mT along the plates: the cycloid would rise 7.9 mm, so the electron
    # reaches the anode. Integrate m dv/dt = −e (E + v × B) until y = d (or vy < 0: top of the arch).
    volts, d, b = 500.0, 5e-3, 12e-3
    field = volts / d  # the force −eE points from the cathode (y = 0) to the anode

    def rhs(y: State) -> State:
        _x, _y, vx, vy = y
        return [vx, vy, -Q_E / M_E * (vy * b), -Q_E / M_E * (-field - vx * b)]

    t, (_, _, vx, vy), _ = _run_until(rhs, [0.0, 0.0, 0.0, 0.0], 1e-13,
                                      [lambda s: d - s[1], lambda s: s[3] + 1e-3], 1e-6)
    speed = math.hypot(vx, vy)
    return {"K": (0.5 * M_E * speed**2 / Q_E, "eV"), "v_far": (speed / 1e3, "km/s"), "t_far": (t * 1e9, "ns")}


def _plates() -> dict[str, tuple[float, str]]:
    # 1 kV gun; 300 V on plates 1.2 cm apart and 4 cm long; screen 20 cm on. The electron falls
    # through 6 mm after 3.10 cm, so it hits a plate. Integrate (x, y, vx, vy, work) until y = d/2
    # or x = l, then drift on to the screen if it left the plates.
    va, vp, ell, d, screen = 1000.0, 300.0, 0.04, 0.012, 0.20
    v0 = math.sqrt(2 * Q_E * va / M_E)
    acc = Q_E * vp / (M_E * d)

    def rhs(y: State) -> State:
        return [y[2], y[3], 0.0, acc, M_E * acc * y[3]]

    t, (_, _, vx, vy, work), which = _run_until(
        rhs, [0.0, 0.0, v0, 0.0, 0.0], 1e-12, [lambda s: d / 2 - s[1], lambda s: ell - s[0]], 1e-6)
    if which == 1:
        t += screen / vx
    k_ev = (0.5 * M_E * v0**2 + work) / Q_E
    return {"t_total": (t * 1e9, "ns"), "K": (k_ev, "eV"),
            "angle": (math.degrees(math.atan2(vy, vx)), "deg")}


def _millikan_trip() -> dict[str, tuple[float, str]]:
    # Oil 900 kg/m³ falls 1 mm in 10 s; 8 electrons in 62.5 kV/m; 5 mm below the upper plate, 3 mm above
    # the lower. r from weight = Stokes drag and the new velocity from the force balance, both by
    # bisection: n e E = 2.44 m g, so it rises, at 144 µm/s, for 34.6 s.
    eta, rho, field, n, above, below = 1.81e-5, 900.0, 62.5e3, 8, 5e-3, 3e-3
    vf = 1e-3 / 10
    r = _bisect(lambda x: 4 / 3 * math.pi * x**3 * rho * G - 6 * math.pi * eta * x * vf, 1e-8, 1e-4)
    weight = 4 / 3 * math.pi * r**3 * rho * G
    v = _bisect(lambda w: n * Q_E * field - weight - 6 * math.pi * eta * r * w, -1.0, 1.0)
    t = above / v if v > 0 else below / -v
    return {"r": (r * 1e6, "um"), "speed": (abs(v) * 1e6, "um/s"), "t": (t, "s")}


def _string_cut() -> dict[str, tuple[float, str]]:
    # 10 kV across 20 cm; 0.1 g ball with 15 nC on a 10 cm thread, 5 cm above the floor unloaded:
    # θ = 37.4°, the plate is reached after 102 ms, the floor would be after 120 ms.
    # θ by bisection on the torque about the support; then integrate (x, y, vx, vy) from rest
    # until the ball reaches the plate or the floor.
    volts, d, m, q, ell, h0 = 10e3, 0.20, 0.1e-3, 15e-9, 0.10, 0.05
    force = q * volts / d
    theta = _bisect(lambda th: force * ell * math.cos(th) - m * G * ell * math.sin(th), 0.0, math.pi / 2)
    x0, y0 = ell * math.sin(theta), h0 + ell * (1 - math.cos(theta))

    def rhs(y: State) -> State:
        return [y[2], y[3], force / m, -G]

    t, (_, _, vx, vy), _ = _run_until(rhs, [x0, y0, 0.0, 0.0], 1e-5,
                                      [lambda s: d / 2 - s[0], lambda s: s[1]], 10.0)
    return {"theta": (math.degrees(theta), "deg"), "t_hit": (t * 1e3, "ms"),
            "v_hit": (math.hypot(vx, vy), "m/s")}


def _retarding_gap() -> dict[str, tuple[float, str]]:
    # 300 keV electron at 30° to the normal into 150 kV across 20 cm: at the far grid it would have
    # 661 keV of energy, more than ε_y = 600 keV, so it crosses. Integrate dp/dt = (−eV/d, 0) with
    # v = p c²/E until x = d (or x = 0 on the way back).
    k0, theta, volts, d = 300e3 * Q_E, math.radians(30), 150e3, 0.20
    mc2 = M_E * C_LIGHT**2
    p0 = math.sqrt(k0**2 + 2 * k0 * mc2) / C_LIGHT
    force = Q_E * volts / d

    def rhs(y: State) -> State:
        _x, _y, px, py = y
        energy = math.sqrt((px**2 + py**2) * C_LIGHT**2 + mc2**2)
        return [px * C_LIGHT**2 / energy, py * C_LIGHT**2 / energy, -force, 0.0]

    t, (_, yy, _, _), _ = _run_until(rhs, [0.0, 0.0, p0 * math.cos(theta), p0 * math.sin(theta)], 1e-13,
                                     [lambda s: d - s[0], lambda s: s[0] + 1e-12], 1e-6)
    return {"t": (t * 1e9, "ns"), "y": (yy * 100, "cm")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "magnetism.electron_field_strip_exit": ({"V": "300 kV", "B": "10 mT", "d": "10 cm"}, _field_strip),
    "magnetism.inductor_dump_into_capacitor": (
        {"E": "12 V", "R1": "20 ohm", "L": "100 mH", "t1": "5 ms", "R2": "200 ohm", "C": "1 uF"},
        _inductor_dump),
    "magnetism.putty_ball_rod_on_rails": (
        {"m_b": "30 g", "u": "36 km/h", "M": "150 g", "L": "30 cm", "B": "1 T", "R": "20 mohm", "D": "50 cm"},
        _putty_rod),
    "magnetism.crossed_field_diode_cutoff": ({"V": "500 V", "d": "5 mm", "B": "12 mT"}, _crossed_fields),
    "electricity.electron_plates_strike_point": (
        {"V_a": "1 kV", "V_p": "300 V", "l": "4 cm", "d": "1.2 cm", "D": "20 cm"}, _plates),
    "electricity.millikan_drop_reaches_plate": (
        {"s": "1 mm", "t_f": "10 s", "rho": "900 kg/m^3", "E_f": "62.5 kV/m", "n": "8",
         "a": "5 mm", "b": "3 mm"},
        _millikan_trip),
    "electricity.charged_ball_string_cut": (
        {"V": "10 kV", "d": "20 cm", "m": "0.1 g", "q": "15 nC", "l": "10 cm", "h0": "5 cm"}, _string_cut),
    "electricity.relativistic_electron_retarding_gap": (
        {"K0": "300 keV", "theta": "30 deg", "V": "150 kV", "d": "20 cm"}, _retarding_gap),
}

"""Worked examples of the hard electricity and magnetism templates of branch wb (issue 19), each
computed by a numerical route independent of the template's closed form: circuits and motions
integrated step by step with the classical Runge–Kutta stepper of ``tests/ode.py`` (an event, a
current or a speed falling to a level, located by bisection on the last step), operating points
found by bisection on the device's characteristic. Constants are typed in by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tests.ode import State, rk4
from tests.ode import bisect as _bisect

Deriv = Callable[[float, State], State]


def _until(f: Deriv, y: State, h: float, event: Callable[[State], float],
           t_max: float) -> tuple[float, State]:
    """Integrate ``dy/dt = f(t, y)`` from t = 0 until ``event`` turns negative (the crossing bisected
    on the last step) or until exactly ``t_max``."""
    t = 0.0
    while t < t_max:
        h = min(h, t_max - t)  # the last step ends exactly at t_max
        nxt = rk4(f, t, y, h)
        if event(nxt) < 0:
            lo, hi = 0.0, h
            for _ in range(80):
                mid = (lo + hi) / 2
                if event(rk4(f, t, y, mid)) < 0:
                    hi = mid
                else:
                    lo = mid
            return t + hi, rk4(f, t, y, hi)
        t, y = t + h, nxt
    return t, y


def _relay() -> dict[str, tuple[float, str]]:
    # 5 V logic through 15 kΩ, h_FE 100, 12 V coil of 240 Ω and 300 mH, 0.8 V diode, release 10 mA.
    # Operating point: the collector loop V_CC = i R_c + V_CE meets the transistor's characteristic
    # (i = h_FE I_B for V_CE > 0.2 V, any i ≤ h_FE I_B at 0.2 V): bisect on V_CE.
    v_in, r_b, beta, v_cc, r_c, ind, v_f, i_rel = 5.0, 15e3, 100, 12.0, 240.0, 0.300, 0.8, 10e-3
    i_b = (v_in - 0.7) / r_b
    saturated = (v_cc - 0.2) / r_c <= beta * i_b
    v_ce = 0.2 if saturated else _bisect(lambda v: (v_cc - v) / r_c - beta * i_b, 0.2, v_cc)
    i0 = (v_cc - v_ce) / r_c
    p_q = i0 * v_ce + i_b * 0.7

    def coil(_t: float, y: State) -> State:  # (i, diode charge): L di/dt = −(i R_c + V_f)
        return [-(y[0] * r_c + v_f) / ind, y[0]]

    t_rel, _ = _until(coil, [i0, 0.0], 1e-7, lambda s: s[0] - i_rel, 1.0)
    _, (_, q) = _until(coil, [i0, 0.0], 1e-7, lambda s: s[0], 1.0)
    return {"I_0": (i0 * 1e3, "mA"), "P_Q": (p_q * 1e3, "mW"), "t_rel": (t_rel * 1e3, "ms"),
            "W_D": (v_f * q * 1e6, "uJ")}


def _coil_cart() -> dict[str, tuple[float, str]]:
    # 100 turns of 8 cm side, 500 g, 3 Ω, 0.4 T, 100 cm/s: integrate (x, v, charge, heat) while only
    # the leading side is in the field, until the coil is wholly in (x = a) or 40 time constants.
    n, a, m, r, b, v0 = 100, 0.08, 0.500, 3.0, 0.4, 1.00
    nba = n * b * a

    def cart(_t: float, y: State) -> State:
        v = y[1]
        i = nba * v / r
        return [v, -nba * i / m, i, i * i * r]

    _, (_, v, q, heat) = _until(cart, [0.0, v0, 0.0, 0.0], 1e-5, lambda s: a - s[0], 40 * m * r / nba**2)
    assert abs(0.5 * m * (v0**2 - v**2) - heat) < 1e-9  # the integrated heat is the kinetic energy lost
    return {"q": (q * 1e3, "mC"), "Q": (heat * 1e3, "mJ")}


def _kicked_rod() -> dict[str, tuple[float, str]]:
    # 50 V through 50 Ω into 20 mF for 1 s; 0.4 T, 20 cm of rod, 20 g, leads 20 cm. Integrate the
    # charging, then the swing θ'' = −(g/l) sin θ until the leads' tension m (l θ'² + g cos θ) vanishes,
    # then the free flight to its apex.
    e, r, c, t1, b, ell, m, lead, g = 50.0, 50.0, 0.020, 1.0, 0.4, 0.20, 0.020, 0.20, 9.81
    n = 20000
    v = [0.0]
    for k in range(n):
        v = rk4(lambda _t, y: [(e - y[0]) / (r * c)], k * t1 / n, v, t1 / n)
    v0 = b * ell * c * v[0] / m

    def swing(_t: float, y: State) -> State:
        return [y[1], -g / lead * math.sin(y[0])]

    def tension(y: State) -> float:
        return lead * y[1] ** 2 + g * math.cos(y[0])

    _, (th, om) = _until(swing, [0.0, v0 / lead], 1e-6, lambda y: min(tension(y), y[1]), 10.0)
    height = lead - lead * math.cos(th)
    vy = lead * om * math.sin(th)
    h = height + max(vy, 0.0) ** 2 / (2 * g) if tension([th, om]) < 1e-6 else height
    return {"v0": (v0, "m/s"), "h": (h * 100, "cm"), "T": (m * (g + v0**2 / lead) / 2, "N")}


def _defibrillator() -> dict[str, tuple[float, str]]:
    # 200 J in 32 µF (V0 = 3536 V) through 50 mH, 10 Ω of inductor and 50 Ω of patient: integrate
    # (q, i, patient's heat) until di/dt turns negative (the peak), then on for 40 ms (e^−24 left).
    e_s, c, ind, r_i, r_p = 200.0, 32e-6, 0.050, 10.0, 50.0
    r = r_i + r_p

    def rlc(_t: float, y: State) -> State:
        q, i, _ = y
        return [-i, (q / c - i * r) / ind, i * i * r_p]  # the capacitor's charge q drives i

    start = [c * math.sqrt(2 * e_s / c), 0.0, 0.0]
    t_p, (q, i_p, _) = _until(rlc, start, 1e-7, lambda y: rlc(0.0, y)[1], 1.0)
    _, (_, _, heat) = _until(rlc, start, 1e-7, lambda y: 1.0, 0.040)
    return {"t_p": (t_p * 1e3, "ms"), "i_p": (i_p, "A"), "V_Cp": (q / c / 1e3, "kV"), "E_p": (heat, "J")}


def _two_rods() -> dict[str, tuple[float, str]]:
    # Released from 20 cm (v0 = 1.981 m/s); 50 g and 30 g rods, 20 cm apart on the rails, 0.5 T,
    # 50 mΩ each, the second rod 20 cm into the field. Integrate both rods, the charge and the Joule
    # heat until the gap closes (or for 40 relative time constants); then momentum gives the final speed.
    h, m1, m2, ell, b, r, d0, g = 0.20, 0.050, 0.030, 0.20, 0.5, 0.100, 0.20, 9.81
    v0 = math.sqrt(2 * g * h)

    def rods(_t: float, y: State) -> State:
        _x1, w1, _x2, w2, _, _ = y
        i = b * ell * (w1 - w2) / r
        return [w1, -b * i * ell / m1, w2, b * i * ell / m2, i, i * i * r]

    tau = m1 * m2 / (m1 + m2) * r / (b * ell) ** 2
    _, (_, w1, _, w2, q, heat) = _until(rods, [0.0, v0, d0, 0.0, 0.0, 0.0], tau / 2000,
                                        lambda y: y[2] - y[0], 40 * tau)
    return {"v_c": ((m1 * w1 + m2 * w2) / (m1 + m2), "m/s"), "q": (q, "C"), "Q_J": (heat * 1e3, "mJ")}


def _resonant_transfer() -> dict[str, tuple[float, str]]:
    # 470 µF at 300 V into 100 µF through 5 mH and 4 Ω with an ideal diode: integrate the loop
    # (both capacitors' voltages, the current, the heat) until the current returns to zero (diode
    # blocks) or for 40 time constants 2L/R.
    v1, c1, c2, ind, r = 300.0, 470e-6, 100e-6, 5e-3, 4.0

    def loop(_t: float, y: State) -> State:
        u1, u2, i, _ = y
        return [-i / c1, i / c2, (u1 - u2 - i * r) / ind, i * i * r]

    _, (u1, u2, _, heat) = _until(loop, [v1, 0.0, 1e-12, 0.0], 1e-7, lambda y: y[2], 40 * 2 * ind / r)
    return {"V2": (u2, "V"), "V1f": (u1, "V"), "W_R": (heat, "J")}


def _flywheel() -> dict[str, tuple[float, str]]:
    # 0.02 kg·m², 1 mV/rpm (= 0.001·60/(2π) V·s), 0.1 Ω, 2000 rpm, 50 mN·m, circuit opened at 15 s.
    # Integrate (ω, angle, heat in R) with the circuit closed until 15 s or rest, then with friction alone.
    inertia, r, tau_f, t_open = 0.020, 0.100, 0.050, 15.0
    k_e = 1e-3 * 60 / (2 * math.pi)
    w0 = 2000 * 2 * math.pi / 60

    def closed(_t: float, y: State) -> State:
        w = y[0]
        return [(-tau_f - k_e**2 / r * w) / inertia, w, (k_e * w) ** 2 / r]

    def friction_only(_t: float, y: State) -> State:
        return [-tau_f / inertia, y[0], 0.0]

    t1, y1 = _until(closed, [w0, 0.0, 0.0], 1e-4, lambda y: y[0], t_open)
    t2, (_, angle, heat) = _until(friction_only, y1, 1e-4, lambda y: y[0], 1e4) if y1[0] > 0 else (0.0, y1)
    return {"N": (angle / (2 * math.pi), ""), "t_stop": (t1 + t2, "s"), "W_R": (heat, "J")}


def _rlc_ratings() -> dict[str, tuple[float, str]]:
    # 500 Hz; 20 Ω, 20 mH, 8 µF; inductor 1.5 A rms, capacitor 50 V rms. Drive the circuit with 1 V rms,
    # integrate 40 periods (the transient decays as e^(−500 t)), measure the rms current and capacitor
    # voltage over the next period, and scale the drive (the circuit is linear) to the first rating.
    f, r, ind, cap, i_max, vc_max = 500.0, 20.0, 0.020, 8e-6, 1.5, 50.0
    w = 2 * math.pi * f

    def circuit(t: float, y: State) -> State:
        q, i = y
        return [i, (math.sqrt(2) * math.sin(w * t) - r * i - q / cap) / ind]

    n = 4000
    h = 1 / (f * n)
    y, t = [0.0, 0.0], 0.0
    for _ in range(40 * n):
        y, t = rk4(circuit, t, y, h), t + h
    sq_i = sq_q = sq_l = 0.0
    for _ in range(n):
        y, t = rk4(circuit, t, y, h), t + h
        sq_q, sq_i = sq_q + y[0] ** 2 / n, sq_i + y[1] ** 2 / n
        sq_l += (ind * circuit(t, y)[1]) ** 2 / n
    i_rms, vc_rms = math.sqrt(sq_i), math.sqrt(sq_q) / cap
    scale = min(i_max / i_rms, vc_max / vc_rms)  # source rms voltage at which the first rating is reached
    return {"V_s": (scale, "V"), "P": ((i_rms * scale) ** 2 * r, "W"), "V_L": (math.sqrt(sq_l) * scale, "V")}


def _led_bridge() -> dict[str, tuple[float, str]]:
    # 6 V; left 220 Ω over 680 Ω, right 470 Ω over 220 Ω; LED 2.0 V. Nodal analysis: first with the
    # LED off (two independent dividers); it is forward-biased beyond 2.0 V, so solve KCL at A and B
    # with the LED as a 2.0 V drop carrying an unknown current I (unknowns V_A, V_B, I).
    e, r1, r2, r3, r4, v_f = 6.0, 220.0, 680.0, 470.0, 220.0, 2.0
    v_a, v_b = e * r2 / (r1 + r2), e * r4 / (r3 + r4)
    if v_a - v_b > v_f:
        kcl = [[1 / r1 + 1 / r2, 0.0, 1.0], [0.0, 1 / r3 + 1 / r4, -1.0], [1.0, -1.0, 0.0]]
        v_a, v_b, _ = (float(x) for x in np.linalg.solve(kcl, [e / r1, e / r3, v_f]))
    i_b = (e - v_a) / r1 + (e - v_b) / r3
    return {"V_A": (v_a, "V"), "I_b": (i_b * 1e3, "mA"), "P_2": (v_a**2 / r2 * 1e3, "mW")}


def _inclined_rod() -> dict[str, tuple[float, str]]:
    # 100 g rod, rails 20 cm apart at 45°, 0.5 T vertical, 2 A held constant, μ_s 0.3, μ_k 0.2, 50 cm.
    # Resolve the forces in x (up the rails) and y (out of the rails): at rest the net drive beats
    # static friction, so integrate x'' = (drive − μ_k N sign(x'))/m from rest until x reaches 50 cm.
    m, ell, th, b, cur, mu_s, mu_k, dist, g = 0.100, 0.20, math.radians(45), 0.5, 2.0, 0.3, 0.2, 0.50, 9.81
    fx = b * cur * ell * math.cos(th) - m * g * math.sin(th)  # magnetic force towards the uphill side
    normal = m * g * math.cos(th) + b * cur * ell * math.sin(th)
    assert abs(fx) > mu_s * normal  # it moves
    way = 1.0 if fx > 0 else -1.0

    def rod(_t: float, y: State) -> State:
        return [y[1], (fx - mu_k * normal * way) / m]

    t, (_, v) = _until(rod, [0.0, 0.0], 1e-5, lambda y: dist - abs(y[0]), 10.0)
    emf = b * ell * abs(v) * math.cos(th)  # the horizontal velocity component cuts the vertical field
    return {"a": (abs(v) / t, "m/s^2"), "v": (abs(v), "m/s"), "emf": (emf * 1e3, "mV")}


def _mirror() -> dict[str, tuple[float, str]]:
    # 10 keV proton at 40° in a mirror with B = 0.2 T (1 + z²/(50 cm)²) up to 1.0 T. With the magnetic
    # moment conserved, v_∥² = v² − v_⊥0² B(z)/B_min: bisect for its zero between the centre and the
    # throat (it has one: the proton is reflected), then the gyration there.
    m_p, q_e = 1.67262192e-27, 1.602176634e-19
    b_min, b_max, ell, k_ev, alpha = 0.2, 1.0, 0.50, 10e3, math.radians(40)
    v = math.sqrt(2 * k_ev * q_e / m_p)

    def field(z: float) -> float:
        return b_min * (1 + (z / ell) ** 2)

    def v_par_sq(z: float) -> float:
        return v**2 - (v * math.sin(alpha)) ** 2 * field(z) / b_min

    z_throat = ell * math.sqrt(b_max / b_min - 1)
    z_t = _bisect(v_par_sq, 0.0, z_throat) if v_par_sq(z_throat) < 0 else z_throat
    b_t = field(z_t)
    v_perp = math.sqrt(v**2 - max(v_par_sq(z_t), 0.0))
    return {"z_t": (z_t * 100, "cm"), "r_L": (m_p * v_perp / (q_e * b_t) * 1e3, "mm"),
            "f_c": (q_e * b_t / (2 * math.pi * m_p) / 1e6, "MHz")}


def _regen() -> dict[str, tuple[float, str]]:
    # 1800 kg from 100 km/h to 30 km/h in 8 s, generator limit 60 kW at the wheels, 85 % to the cells,
    # 60 kWh battery. Integrate the stored energy dE/dt = η min(m a v(t), P_max) over the braking, and
    # track the largest power into the battery.
    m, v1, v2, t_b, p_max, eta, e_b = 1800.0, 100 / 3.6, 30 / 3.6, 8.0, 60e3, 0.85, 60 * 3.6e6
    a = (v1 - v2) / t_b

    def power(t: float) -> float:
        return eta * min(m * a * (v1 - a * t), p_max)

    n = 80000
    stored, t, peak = [0.0], 0.0, 0.0
    for _ in range(n):
        stored = rk4(lambda tt, _y: [power(tt)], t, stored, t_b / n)
        t += t_b / n
        peak = max(peak, power(t))
    return {"E_in": (stored[0] / 3600, "W*h"), "dSOC": (stored[0] / e_b * 100, "percent"),
            "P_in": (peak / 1e3, "kW")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "electricity.relay_driver_flyback_release": (
        {"V_in": "5 V", "R_B": "15 kohm", "beta": "100", "V_CC": "12 V", "R_c": "240 ohm", "L": "300 mH",
         "V_f": "0.8 V", "I_rel": "10 mA"}, _relay),
    "magnetism.coil_cart_into_field_region": (
        {"N": "100", "a": "8 cm", "m": "500 g", "R": "3 ohm", "B": "0.4 T", "v0": "100 cm/s"}, _coil_cart),
    "magnetism.capacitor_kicked_rod_swing": (
        {"E": "50 V", "R": "50 ohm", "C": "20 mF", "t1": "1 s", "B": "0.4 T", "L": "20 cm", "m": "20 g",
         "l": "20 cm"}, _kicked_rod),
    "electricity.defibrillator_pulse_peak": (
        {"E_s": "200 J", "C": "32 uF", "L": "50 mH", "R_i": "10 ohm", "R_p": "50 ohm"}, _defibrillator),
    "magnetism.two_rods_on_rails_catch_up": (
        {"h": "20 cm", "m1": "50 g", "m2": "30 g", "L": "20 cm", "B": "0.5 T", "r1": "50 mohm",
         "r2": "50 mohm", "d0": "20 cm"}, _two_rods),
    "electricity.resonant_charge_transfer_diode": (
        {"V1": "300 V", "C1": "470 uF", "C2": "100 uF", "L": "5 mH", "R": "4 ohm"}, _resonant_transfer),
    "magnetism.generator_braked_flywheel": (
        {"J": "0.02 kg*m**2", "K": "1 mV/rpm", "R": "0.1 ohm", "f0": "2000 rpm", "tau_f": "50 mN*m",
         "T": "15 s"}, _flywheel),
    "electricity.series_rlc_ratings_limit": (
        {"f": "500 Hz", "R": "20 ohm", "L": "20 mH", "C": "8 uF", "I_max": "1.5 A", "V_Cmax": "50 V"},
        _rlc_ratings),
    "electricity.led_across_bridge": (
        {"E": "6 V", "R1": "220 ohm", "R2": "680 ohm", "R3": "470 ohm", "R4": "220 ohm", "V_f": "2.0 V"},
        _led_bridge),
    "magnetism.current_rod_on_inclined_rails": (
        {"m": "100 g", "L": "20 cm", "theta": "45 deg", "B": "0.5 T", "I": "2 A", "mu_s": "0.3",
         "mu_k": "0.2", "s": "50 cm"}, _inclined_rod),
    "magnetism.proton_in_magnetic_mirror": (
        {"B_min": "0.2 T", "B_max": "1.0 T", "L": "50 cm", "K": "10 keV", "alpha": "40 deg"}, _mirror),
    "electricity.ev_regenerative_braking_limit": (
        {"m": "1800 kg", "v1": "100 km/h", "v2": "30 km/h", "t_b": "8 s", "P_max": "60 kW",
         "eta": "85 percent", "E_b": "60 kWh"}, _regen),
}

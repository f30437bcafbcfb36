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


def _supercap() -> dict[str, tuple[float, str]]:
    # 12 V setting, 3 A limit, 1 Ω, 50 F, target 10 V: knee 12 − 3 = 9 V < 10 V;
    # t = 50*9/3 + 50 ln(3/2) = 150 + 20.273 = 170.273 s = 2.83789 min;
    # heat 9*150 + 25*(9 − 4) = 1475 J; supply 1475 + 2500 = 3975 J = 1.104167 Wh.
    # Route: RK4 on C dV/dt = min(I_max, (V_set − V)/R), with the heat ∫ i²R dt and the supply's
    # energy ∫ i (V + iR) dt integrated alongside; the last step is cut by bisection at V = V_T.
    v_set, i_max, r, c, v_t = 12.0, 3.0, 1.0, 50.0, 10.0

    def rhs(y: list[float]) -> list[float]:
        i = min(i_max, (v_set - y[0]) / r)
        return [i / c, i * i * r, i * (y[0] + i * r)]

    def rk4(y: list[float], h: float) -> list[float]:
        k1 = rhs(y)
        k2 = rhs([a + h / 2 * b for a, b in zip(y, k1, strict=True)])
        k3 = rhs([a + h / 2 * b for a, b in zip(y, k2, strict=True)])
        k4 = rhs([a + h * b for a, b in zip(y, k3, strict=True)])
        return [a + h / 6 * (p + 2 * q + 2 * s + w) for a, p, q, s, w in zip(y, k1, k2, k3, k4, strict=True)]

    h, t, y = 0.002, 0.0, [0.0, 0.0, 0.0]
    while rk4(y, h)[0] < v_t:
        y, t = rk4(y, h), t + h
    lo, hi = 0.0, h
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if rk4(y, mid)[0] < v_t else (lo, mid)
    y = rk4(y, lo)
    return {"t_total": ((t + lo) / 60, "min"), "W_heat": (y[1] / 1e3, "kJ"), "W_s": (y[2] / 3600, "W*h")}


def _pfc() -> dict[str, tuple[float, str]]:
    # 2.0 kW shaft, 80 %: P = 2.5 kW; 230 V, cos φ1 0.60 (tan 4/3): Q1 = 3.3333 kvar; target 0.95
    # (tan 0.32868): Q_t = 0.82171 kvar; Q_C = 2.51162 kvar; C = 2511.62/(100π·230²) = 151.13 µF;
    # I_C = 10.920 A; I_2 = 2500/(230*0.95) = 11.442 A; E_loss = 11.442²*0.25*3000 = 98.19 kWh.
    # Route: phasors. The motor current is conj(S/V) with S = P + jQ1; bisection on C for the total
    # current's cos φ = 0.95 on the lagging side (C below the full compensation Q1/(ωV²)).
    p, v, r_f, hours, w = 2000 / 0.80, 230.0, 0.25, 3000.0, 2 * math.pi * 50
    i_motor = ((p + 1j * p * math.tan(math.acos(0.60))) / v).conjugate()

    def total(c: float) -> complex:
        return i_motor + 1j * w * c * v

    def pf_gap(c: float) -> float:
        i = total(c)
        return i.real / abs(i) - 0.95

    c = _bisect(pf_gap, 0.0, -i_motor.imag / (w * v))
    i2 = abs(total(c))
    return {"C": (c * 1e6, "uF"), "I_C": (w * c * v, "A"), "I_2": (i2, "A"),
            "E_loss": (i2**2 * r_f * hours / 1e3, "kW*h")}


def _cable() -> dict[str, tuple[float, str]]:
    # 4 × 3.70 V, 50 mΩ each: E = 14.8 V, r = 0.2 Ω; 10 m of 1.0 mm² two-core copper:
    # R_c = 1.72e-8*20/1e-6 = 0.344 Ω, R_t = 0.544 Ω; P_in = 72/0.90 = 80 W;
    # I = (14.8 − √(219.04 − 174.08))/1.088 = 7.4401 A, V_in = 10.753 V; 5.0 Ah lasts 0.67204 h,
    # W = 72 × 0.67204 = 48.387 Wh.
    # Route: the converter's input voltage V found by bisection of E − (P_in/V) R_t − V = 0 on the
    # upper branch V in (E/2, E), and the current from I = P_in/V.
    e, r_t, p_in = 4 * 3.70, 4 * 0.050 + 1.72e-8 * 2 * 10 / 1.0e-6, 72 / 0.90
    v = _bisect(lambda x: e - p_in / x * r_t - x, e / 2, e)
    i = p_in / v
    return {"I": (i, "A"), "V_in": (v, "V"), "W_out": (72 * 5.0 / i, "W*h")}


def _diode_or() -> dict[str, tuple[float, str]]:
    # adapter 12.0 V open, 3.0 A short (r_1 = 4 Ω); battery 7.4 V, 0.2 Ω; load 4 Ω: alone the adapter
    # gives 6 V < 7.4 V, so both feed: V = (3 + 37)/(0.25 + 5 + 0.25) = 7.2727 V, I_1 = 1.1818 A,
    # P_L = 13.223 W, adapter's share 8.5950/14.182 = 60.606 %.
    # Route: the node equation with each ideal diode as max(0, (E − V)/r), solved by bisection.
    e1, r1, e2, r2, load = 12.0, 12.0 / 3.0, 7.4, 0.2, 4.0
    v = _bisect(lambda x: max(0.0, (e1 - x) / r1) + max(0.0, (e2 - x) / r2) - x / load, 0.0, e1)
    i1 = (e1 - v) / r1
    share = (e1 * i1 - i1**2 * r1) / (e1 * i1)  # emf power less the internal heat, over the emf power
    return {"I_1": (i1, "A"), "P_L": (v * v / load, "W"), "eta_1": (100 * share, "percent")}


def _series_caps() -> dict[str, tuple[float, str]]:
    # 10 µF/50 V and 47 µF/16 V: charges at rating 500 and 752 µC, so Q = 500 µC (C_1 limits);
    # V_s = 50 + 10.638 = 60.638 V; parallel: 1000 µC/57 µF = 17.544 V, 8.7719 mJ;
    # τ = 10 kΩ × 57 µF = 0.57 s, after 0.30 s the resistor took 8.7719 (1 − e^(−1.05263)) = 5.7104 mJ.
    # Route: bisection on the supply voltage for the first rating reached (series divider
    # V_1 = V C_2/(C_1 + C_2)), charge conservation, then Simpson's rule on ∫ i² R dt.
    c1, c2, v1r, v2r, res, t = 10e-6, 47e-6, 50.0, 16.0, 10e3, 0.30
    v_s = _bisect(lambda v: max(v * c2 / (c1 + c2) / v1r, v * c1 / (c1 + c2) / v2r) - 1, 0.0, 1e3)
    q = v_s * c1 * c2 / (c1 + c2)
    v_p = 2 * q / (c1 + c2)
    steps = 20000
    h = t / steps

    def power(x: float) -> float:
        return (v_p * math.exp(-x / (res * (c1 + c2)))) ** 2 / res

    heat = h / 3 * sum((1 if k in (0, steps) else 4 if k % 2 else 2) * power(k * h) for k in range(steps + 1))
    return {"V_s": (v_s, "V"), "V_p": (v_p, "V"), "W_R": (heat * 1e3, "mJ")}


def _self_heating() -> dict[str, tuple[float, str]]:
    # 24 V on 10.0 Ω (at 20 °C), K 0.50 W/K, room 25 °C: R_a = 10.1965 Ω, the quadratic
    # 0.01965 x² + 5.09825 x − 576 = 0 gives x = 85.08 K, T = 110.08 °C; I_0 = 2.3537 A, I = 1.7725 A;
    # 1000 turns over 5.0 cm: B = 44.55 mT.
    # Route: fixed-point iteration T ← T_amb + V²/(K R(T)), damped, until it stops moving.
    v, r20, k, t_amb, alpha = 24.0, 10.0, 0.50, 25.0, 3.93e-3

    def resistance(t: float) -> float:
        return r20 * (1 + alpha * (t - 20.0))

    t = t_amb
    for _ in range(2000):
        t = 0.5 * t + 0.5 * (t_amb + v * v / (k * resistance(t)))
    i0, i = v / resistance(t_amb), v / resistance(t)
    b = 1.25663706e-6 * 1000 * i / 0.050
    return {"T_c": (t, "degC"), "B": (b * 1e3, "mT"), "k": (i0 / i, "")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "electricity.zener_regulator_battery_life": (
        {"n": "6", "e_c": "1.50 V", "r_c": "0.30 ohm", "R_s": "220 ohm", "V_Z": "4.7 V", "V_rat": "5.0 V",
         "P_rat": "50 mW", "Q_b": "2000 mAh"}, _zener),
    "electricity.max_power_limited_load": (
        {"E": "12 V", "r": "0.5 ohm", "R_1": "4.5 ohm", "R_2": "20 ohm", "R_min": "6 ohm"}, _max_power),
    "electricity.current_limited_supercap_charge": (
        {"V_set": "12 V", "I_max": "3 A", "R": "1 ohm", "C": "50 F", "V_T": "10 V"}, _supercap),
    "electricity.motor_power_factor_correction": (
        {"P_m": "2.0 kW", "eta": "80 percent", "V": "230 V", "pf_1": "0.60", "pf_t": "0.95",
         "R_f": "0.25 ohm", "t_op": "3000 h"}, _pfc),
    "electricity.constant_power_load_on_cable": (
        {"n": "4", "e_c": "3.70 V", "r_c": "50 mohm", "Q_b": "5.0 A*h", "l": "10 m", "A": "1.0 mm^2",
         "P_out": "72 W", "eta_c": "90 percent"}, _cable),
    "electricity.diode_or_backup_battery": (
        {"E_1": "12.0 V", "I_sc": "3.0 A", "E_2": "7.4 V", "r_2": "200 mohm", "R": "4.0 ohm"}, _diode_or),
    "electricity.series_capacitors_rating_then_parallel": (
        {"C_1": "10 uF", "V_1r": "50 V", "C_2": "47 uF", "V_2r": "16 V", "R": "10 kohm", "t": "300 ms"},
        _series_caps),
    "electricity.solenoid_coil_self_heating": (
        {"V": "24 V", "R_20": "10.0 ohm", "K": "0.50 W/K", "T_amb": "25 degC", "N": "1000", "len": "5.0 cm"},
        _self_heating),
}

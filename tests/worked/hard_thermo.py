"""Worked examples of the level-5 thermodynamics and statistical-mechanics templates of the hard tier,
computed by numerical routes that do not retype the templates' closed forms: energy balances solved by
bisection, heat added in small steps through the regimes, entropy as a numerical integral of dQ/T,
and equilibria found by bisecting the law of mass action."""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import bisect as _bisect

R_GAS = 8.314462618  # J/(mol K)
K0 = 273.15


def _entropy_integral(heat_capacity: float, t_from: float, t_to: float, n: int = 2000) -> float:
    """∫ C dT / T by Simpson's rule (n even), in J/K."""
    h = (t_to - t_from) / n
    total = heat_capacity / t_from + heat_capacity / t_to
    for k in range(1, n):
        total += (4 if k % 2 else 2) * heat_capacity / (t_from + k * h)
    return total * h / 3


def _quench() -> dict[str, tuple[float, str]]:
    # 2 kg block, c 460, 600 °C into 1 kg water at 20 °C (c_w 4186, L 2257 kJ/kg).
    # Block to 100 °C gives 460 kJ, water to 100 °C needs 334.88 kJ: 55.4 g boils away, T_f = 100 °C;
    # ΔS = −782.3 + 1011.1 + 335.2 = 564 J/K
    mb, cb, tb, mw, tw, cw, lv = 2.0, 460.0, 600 + K0, 1.0, 20 + K0, 4186.0, 2257e3
    t_boil = 100 + K0

    def surplus(t: float) -> float:  # heat the block gives cooling to t minus what the water takes to reach t
        return mb * cb * (tb - t) - mw * cw * (t - tw)

    if surplus(t_boil) > 0:
        t_f, m_vap = t_boil, surplus(t_boil) / lv
    else:
        t_f, m_vap = _bisect(surplus, tw, t_boil), 0.0
    ds = (_entropy_integral(mb * cb, tb, t_f) + _entropy_integral(mw * cw, tw, t_f) + m_vap * lv / t_boil)
    return {"T_f": (t_f - K0, "degC"), "dS_total": (ds, "J/K")}


def _piston() -> dict[str, tuple[float, str]]:
    # 3 L of air at 20 °C and 100 kPa under a 20 kg, 50 cm² piston on stops; 500 J of heat.
    # p_lift = 139.24 kPa, Q1 = 2.5*3e-3*39.24e3 = 294.3 J < 500 J: the piston lifts;
    # T_f = 408.17 K + 205.7/(0.12308*29.10) = 465.61 K = 192.46 °C, p_f = 139.24 kPa, ΔS = 1.318 J/K.
    # Route: the heat goes in 20,000 small portions; each raises T at constant volume while the
    # pressure is below the piston's (the portion that reaches it is split there), at constant
    # pressure after; ΔS sums dQ/T at each portion's mean temperature (reversible heating).
    v, t, p_atm, m_p, area, q = 3e-3, 20 + K0, 100e3, 20.0, 50e-4, 500.0
    n = p_atm * v / (R_GAS * t)
    p_lift = p_atm + m_p * 9.81 / area
    steps = 20000
    ds = 0.0
    for _ in range(steps):
        dq = q / steps
        while dq > 0:
            lifted = n * R_GAS * t / v >= p_lift * (1 - 1e-15)
            c = n * (3.5 if lifted else 2.5) * R_GAS
            part = dq if lifted else min(dq, c * (p_lift * v / (n * R_GAS) - t))
            ds += part / (t + part / (2 * c))
            t += part / c
            dq -= part
            if lifted:
                v = n * R_GAS * t / p_lift
    p = min(n * R_GAS * t / v, p_lift)
    return {"T_f": (t - K0, "degC"), "p_f": (p / 1e3, "kPa"), "dS": (ds, "J/K")}

def _dehumidifier() -> dict[str, tuple[float, str]]:
    # 100 m³ of air at 30 °C, 60 % RH, cooled to 12 °C at 101.3 kPa (Clausius–Clapeyron through
    # 2.339 kPa at 20 °C, L 2.45 MJ/kg): p_s1 = 4.252 kPa, p_v = 2.551 kPa, dew point 21.4 °C > 12 °C,
    # so water condenses: m_v1 = 1.824 kg, m_v2 = 0.992 kg, Q = 2.07 + 2.04 = 4.11 MJ, RH 100 %.
    # Route: the saturation pressure comes from integrating d ln p/dT = L M/(R T²) numerically, and
    # the air is cooled in 4,000 small steps, condensing vapour whenever it would exceed saturation.
    vol, t1, phi, t2 = 100.0, 30 + K0, 0.60, 12 + K0
    p, lv, m_w, m_a, cp_a, cp_v = 101.3e3, 2.45e6, 18.02e-3, 28.97e-3, 1005.0, 1860.0

    def p_sat(t: float) -> float:
        n = 400
        h = (t - (20 + K0)) / n
        total = sum((4 if k % 2 else 2) / (20 + K0 + k * h) ** 2 for k in range(1, n))
        total += 1 / (20 + K0) ** 2 + 1 / t**2
        return 2339.0 * math.exp(lv * m_w / R_GAS * total * h / 3)

    p_v = phi * p_sat(t1)
    dry = (p - p_v) * vol * m_a / (R_GAS * t1)
    vap = p_v * vol * m_w / (R_GAS * t1)
    steps = 4000
    dt = (t1 - t2) / steps
    q, t, water = 0.0, t1, vap
    for _ in range(steps):
        # with L constant, liquid and vapour enthalpies run parallel (h_l = h_g − L), so all the
        # water, condensed or not, gives up c_p,v per kelvin as it cools to the outlet temperature
        q += (dry * cp_a + water * cp_v) * dt
        t -= dt
        ps = p_sat(t)
        holdable = dry * (m_w / m_a) * ps / (p - ps)
        if vap > holdable:
            q += (vap - holdable) * lv
            vap = holdable
    p_v2 = p * (vap / m_w) / (vap / m_w + dry / m_a)
    return {"Q": (q / 1e6, "MJ"), "RH2": (100 * p_v2 / p_sat(t2), "percent")}


def _n2o4() -> dict[str, tuple[float, str]]:
    # 2.30 g of N2O4 in 1.00 L at 45 °C, then opened to 1.50 L more (ΔH° 57.2 kJ/mol, ΔS° 175.8 J/(mol K)):
    # K = exp(−1268.8/2645.3) = 0.6189, P0 = 66.12 kPa, α1 = 0.3807; P0′ = 26.45 kPa, α2 = 0.5264,
    # p = 40.37 kPa, Q = 0.024997 mol × 0.1457 × 54.55 kJ/mol = 198.7 J.
    # Route: at fixed T and V the equilibrium is the minimum over the extent ξ of the mixture's
    # Helmholtz energy F = G − pV, F(ξ) = ξ ΔG° + R T Σ n_i [ln(p_i/p°) − 1] + const, found by
    # golden-section search (no quadratic formula).
    m, vol, t, vol_b = 2.30e-3, 1.00e-3, 45 + K0, 1.50e-3
    dh, ds, p_std, molar = 57.2e3, 175.8, 1e5, 92.01e-3
    n0 = m / molar
    dg = dh - t * ds

    def helmholtz(xi: float, v: float) -> float:
        amounts = (n0 - xi, 2 * xi)
        return xi * dg + R_GAS * t * sum(n * (math.log(n * R_GAS * t / v / p_std) - 1) for n in amounts)

    def extent(v: float) -> float:
        lo, hi = 1e-12 * n0, n0 * (1 - 1e-12)
        ratio = (math.sqrt(5) - 1) / 2
        for _ in range(200):
            a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
            if helmholtz(a, v) < helmholtz(b, v):
                hi = b
            else:
                lo = a
        return 0.5 * (lo + hi)

    xi1, xi2 = extent(vol), extent(vol + vol_b)
    p2 = (n0 + xi2) * R_GAS * t / (vol + vol_b)
    q = (xi2 - xi1) * (dh - R_GAS * t)  # heat at constant volume and temperature: ΔU of the extra reaction
    return {"alpha1": (xi1 / n0, ""), "alpha2": (xi2 / n0, ""), "p2": (p2 / 1e3, "kPa"), "Q": (q, "J")}


def _stove() -> dict[str, tuple[float, str]]:
    # Camp at 4 km, air column at 0 °C: p = 61.41 kPa, boiling point 86.3 °C
    # (Clausius–Clapeyron, L 2.26 MJ/kg).
    # 1.5 L (1.5 kg) of water at 5 °C; 900 W for 12 min = 648 kJ > 1.5*4186*81.3 = 510.6 kJ: it boils,
    # 60.8 g boil away; ΔS = 1.5*4186 ln(359.4/278.15) + 0.0608*2.26e6/359.4 = 1609 + 382 = 1991 J/K.
    # Route: the pressure by integrating dp/dz = −p M g/(R T) upwards (RK4), the boiling point by
    # bisecting p_sat(T) = p with p_sat from integrating Clausius–Clapeyron numerically, and the pot
    # heated in one-second steps, boiling once it reaches that point; ΔS sums dQ/T.
    h, t_air, m, t0, power, burn = 4000.0, 0 + K0, 1.5 * 1.00, 5 + K0, 900.0, 720.0
    m_air, m_w, lv, cw, p0 = 28.97e-3, 18.02e-3, 2.26e6, 4186.0, 101.3e3
    p, dz = p0, 1.0
    for _ in range(int(h / dz)):
        def slope(q: float) -> float:
            return -q * m_air * 9.81 / (R_GAS * t_air)
        k1 = slope(p)
        k2 = slope(p + dz * k1 / 2)
        k3 = slope(p + dz * k2 / 2)
        k4 = slope(p + dz * k3)
        p += dz * (k1 + 2 * k2 + 2 * k3 + k4) / 6

    def p_sat(t: float) -> float:  # ln p rises by ∫ L M/(R T²) dT from 100 °C (Simpson)
        n, a = 200, 100 + K0
        step = (t - a) / n
        total = 1 / a**2 + 1 / t**2 + sum((4 if k % 2 else 2) / (a + k * step) ** 2 for k in range(1, n))
        return p0 * math.exp(lv * m_w / R_GAS * total * step / 3)

    t_boil = _bisect(lambda t: p_sat(t) - p, 50 + K0, 100 + K0)
    temp, water_entropy, boiled = t0, 0.0, 0.0
    dq = power * 1.0
    for _ in range(int(burn)):
        if temp < t_boil:
            rise = min(dq / (m * cw), t_boil - temp)
            water_entropy += m * cw * math.log((temp + rise) / temp)
            spare = dq - rise * m * cw
            temp += rise
        else:
            spare = dq
        boiled += spare / lv
        water_entropy += spare / t_boil
    return {"T_b": (t_boil - K0, "degC"), "T_end": (temp - K0, "degC"), "dS": (water_entropy, "J/K")}


def _two_chambers() -> dict[str, tuple[float, str]]:
    # 1 L each side, piston 40 cm², stop 5 cm away, 100 kPa and 20 °C, 200 J into A (γ = 1.4).
    # A free balance would need p = 140 kPa and 5.34 cm of travel > 5 cm: the piston rests on the stop,
    # V_B = 0.8 L, p_B = 136.67 kPa, W_B = 23.34 J; V_A = 1.2 L, p_A = (100 + 0.4*176.66/1)/1.2 = 142.22 kPa,
    # T_A = 293.15*1.4222*1.2 = 500.3 K = 227.2 °C, T_B = 293.15*1.3667*0.8 = 320.5 K = 47.4 °C.
    # Route: while the piston is free, the first law for A (heated) and for B (adiabatic) at equal
    # pressure gives dp/dQ = 1/(c_v (V_A + V_B)) and dV_B/dQ = −c_v V_B dp/dQ / ((c_v + 1) p), which
    # is integrated by RK4 in the heat; the step that would pass the stop is bisected so the piston
    # lands on it, and the rest of the heat goes into A at constant volume.
    v0, area, d, p0, t0, q, gamma = 1e-3, 40e-4, 0.05, 100e3, 20 + K0, 200.0, 1.4
    cv = 1 / (gamma - 1)  # C_v/R, so U = cv p V
    v_stop = v0 - area * d

    def rates(p: float, v_b: float) -> tuple[float, float]:
        dp = 1 / (cv * 2 * v0)
        return dp, -cv * v_b * dp / ((cv + 1) * p)

    def rk4(p: float, v_b: float, h: float) -> tuple[float, float]:
        k1 = rates(p, v_b)
        k2 = rates(p + h * k1[0] / 2, v_b + h * k1[1] / 2)
        k3 = rates(p + h * k2[0] / 2, v_b + h * k2[1] / 2)
        k4 = rates(p + h * k3[0], v_b + h * k3[1])
        return (p + h * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]) / 6,
                v_b + h * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]) / 6)

    p, v_b, heat, h = p0, v0, 0.0, q / 2000
    while heat < q:
        step = min(h, q - heat)
        p_new, vb_new = rk4(p, v_b, step)
        if vb_new < v_stop:
            def gap(s: float, p: float = p, v_b: float = v_b) -> float:
                return rk4(p, v_b, s)[1] - v_stop
            step = _bisect(gap, 0.0, step)
            p, v_b = rk4(p, v_b, step)
            heat += step
            break
        p, v_b, heat = p_new, vb_new, heat + step
    p_b = p
    p_a = p + (q - heat) / (cv * (2 * v0 - v_b))
    v_a = 2 * v0 - v_b
    return {"p_A": (p_a / 1e3, "kPa"), "T_A": (t0 * p_a * v_a / (p0 * v0) - K0, "degC"),
            "T_B": (t0 * p_b * v_b / (p0 * v0) - K0, "degC")}

def _bottle() -> dict[str, tuple[float, str]]:
    # 1.00 kg of water at 20 °C in a −18 °C freezer, G = 0.5 W/K, for 4 h: τ = 8372 s = 2.3256 h, it reaches
    # 0 °C at t1 = 2.3256 ln(38/18) = 1.7377 h, then freezes at 9 W for 2.2623 h: 73.30 kJ, 219.5 g of ice.
    # Q = 83.72 + 73.30 = 157.0 kJ; ΔS = 4186 ln(273.15/293.15) − 73.30e3/273.15 + 157.0e3/255.15 = 51.3 J/K.
    # Route: dT/dt = −G (T − T_env)/(m c) integrated by RK4 in one-second steps until the water reaches
    # 0 °C (the last step found by bisection); afterwards the heat flow G (0 °C − T_env) freezes water.
    # ΔS of the water sums dQ/T along the way; the freezer gains Q/T_env.
    m, t0, t_env, g, t_end = 1.00, 20 + K0, -18 + K0, 0.5, 4 * 3600.0
    c, t_fr = 4186.0, 0 + K0

    def rk4(temp: float, h: float) -> float:
        def f(x: float) -> float:
            return -g * (x - t_env) / (m * c)
        k1 = f(temp)
        k2 = f(temp + h * k1 / 2)
        k3 = f(temp + h * k2 / 2)
        k4 = f(temp + h * k3)
        return temp + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6

    temp, now, ds_water = t0, 0.0, 0.0
    while now < t_end:
        h = min(1.0, t_end - now)
        new = rk4(temp, h)
        if new < t_fr:
            def above(s: float, temp: float = temp) -> float:
                return rk4(temp, s) - t_fr
            h = _bisect(above, 0.0, h)
            new = t_fr
        ds_water += m * c * math.log(new / temp)
        temp, now = new, now + h
        if temp <= t_fr:
            break
    freeze_heat = g * (t_fr - t_env) * (t_end - now)
    ds_water -= freeze_heat / t_fr
    q = m * c * (t0 - temp) + freeze_heat
    return {"T_t": (temp - K0, "degC"), "Q_out": (q / 1e3, "kJ"), "dS_tot": (ds_water + q / t_env, "J/K")}


def _relief_tank() -> dict[str, tuple[float, str]]:
    # 20 L of air at 500 kPa and 20 °C, valve at 650 kPa, 20 kJ of heat: m1 = 118.86 g, the valve opens at
    # 381.10 K after Q1 = 7.506 kJ; the other 12.49 kJ are taken while venting:
    # T_f = 381.10 exp(12494/(1005*0.11886*381.10)) = 501.8 K = 228.7 °C, m = 118.86*381.10/501.8 = 90.3 g,
    # ΔS of that air = 0.0903 (1005 ln(501.8/293.15) − 287.0 ln 1.3) = 41.9 J/K.
    # Route: the heat goes in 150,000 portions. Below the opening pressure a portion warms the closed air
    # (dT = dq/(m c_v)); at the opening pressure each portion pushes out the mass whose enthalpy carries
    # it away (dq = c_p T dm_out, U fixed), and T follows from p V = m R T / M at the fixed pressure.
    # The air that stays receives the heat spread evenly, reversibly: its entropy per kilogram grows by
    # dq/(m T), summed along the way.
    v, p1, t1, p_set, q = 20e-3, 500e3, 20 + K0, 650e3, 20e3
    molar, cv, cp = 28.97e-3, 718.0, 1005.0
    m = p1 * v * molar / (R_GAS * t1)
    t, s_per_kg = t1, 0.0
    steps = 150000
    for _ in range(steps):
        dq = q / steps
        p = m * R_GAS * t / (molar * v)
        if p < p_set:
            part = min(dq, m * cv * (t1 * p_set / p1 - t))
            s_per_kg += cv * math.log((t + part / (m * cv)) / t)
            t += part / (m * cv)
            dq -= part
        if dq > 0:
            t_mid = p_set * v * molar / (R_GAS * (m - dq / (2 * cp * t)))  # midpoint temperature
            s_per_kg += dq / ((m - dq / (2 * cp * t_mid)) * t_mid)
            m -= dq / (cp * t_mid)
            t = p_set * v * molar / (R_GAS * m)
    return {"T_f": (t - K0, "degC"), "m_left": (m * 1e3, "g"), "dS_left": (m * s_per_kg, "J/K")}

EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "thermo.quench_block_boiling_entropy": (
        {"m_b": "2 kg", "c_b": "460 J/(kg*K)", "T_b": "600 degC", "m_w": "1 kg", "T_w": "20 degC"},
        _quench),
    "thermo.piston_on_stops_heating": (
        {"V1": "3 L", "T1": "20 degC", "p_atm": "100 kPa", "m_p": "20 kg", "A": "50 cm^2", "Q": "500 J"},
        _piston),
    "thermo.dehumidifier_dew_point": (
        {"V": "100 m^3", "T1": "30 degC", "phi1": "60 percent", "T2": "12 degC"}, _dehumidifier),
    "statmech.dinitrogen_tetroxide_expansion": (
        {"m": "2.30 g", "V": "1.00 L", "T": "45 degC", "Vb": "1.50 L"}, _n2o4),
    "thermo.stove_boiling_at_altitude": (
        {"h": "4 km", "T_air": "0 degC", "V_w": "1.5 L", "T0": "5 degC", "P": "900 W", "t": "12 min"},
        _stove),
    "thermo.two_chamber_piston_stop": (
        {"V0": "1 L", "A": "40 cm^2", "d": "5 cm", "p0": "100 kPa", "T0": "20 degC", "Q": "200 J"},
        _two_chambers),
    "thermo.bottle_freezing_newton": (
        {"m": "1.00 kg", "T0": "20 degC", "T_env": "-18 degC", "G": "0.5 W/K", "t": "4 h"}, _bottle),
    "thermo.tank_relief_valve_heating": (
        {"V": "20 L", "p1": "500 kPa", "T1": "20 degC", "p_set": "650 kPa", "Q": "20 kJ"}, _relief_tank),
}

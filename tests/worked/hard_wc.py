"""Worked examples of the hard thermodynamics and statistical-mechanics templates of branch wc,
computed by numerical routes that do not retype the templates' closed forms: the effusing gas
integrated as an ODE in (N, T) with the switch found by bisection inside the crossing step, ...
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import bisect as _bisect
from tests.ode import rk4

R_GAS = 8.314462618  # J/(mol K)
K_B = 1.380649e-23  # J/K
K0 = 273.15


def _effusion() -> dict[str, tuple[float, str]]:
    # 10 L of argon at 1.00 Pa, 20 °C; hole of 0.0314 mm²; switch at 0.100 Pa; asked 60 min after.
    # τ0 = 3234 s; without the switch p(60 min) = 0.256 Pa, so the switch never closes.
    # State y = [n (mol), T (K)]: dn/dt = −n v̄(T) A/(4V) (effusion flux), and with no heat each
    # escaping atom takes 2kT while U = 3/2 n R T: d(3/2 n R T) = 2 R T dn, so dT/dt = (T/(3n)) dn/dt.
    # Fixed RK4 steps until t or until the pressure crosses the switch's setting; the crossing is
    # bisected inside its step (one RK4 sub-step from the last state).
    v, area, p0, t0, t_end, p_s, molar = 10e-3, 0.0314e-6, 1.00, 20 + K0, 3600.0, 0.100, 39.95e-3

    def deriv(_t: float, y: list[float]) -> list[float]:
        n, temp = y
        dn = -n * math.sqrt(8 * R_GAS * temp / (math.pi * molar)) * area / (4 * v)
        return [dn, temp / (3 * n) * dn]

    def pressure(y: list[float]) -> float:
        return y[0] * R_GAS * y[1] / v

    y = [p0 * v / (R_GAS * t0), t0]
    n0 = y[0]
    steps = 4000
    h = t_end / steps
    t = 0.0
    for _ in range(steps):
        nxt = rk4(deriv, t, y, h)
        if pressure(nxt) <= p_s:
            h_cross = _bisect(lambda s, t=t, y=y: pressure(rk4(deriv, t, y, s)) - p_s, 0.0, h)
            y = rk4(deriv, t, y, h_cross)
            break
        y, t = nxt, t + h
    n_f, t_f = y
    e_out = 1.5 * R_GAS * (n0 * t0 - n_f * t_f)
    return {"T_f": (t_f, "K"), "m_out": ((n0 - n_f) * molar * 1e9, "ug"), "E_out": (e_out * 1e3, "mJ")}


def _gasification() -> dict[str, tuple[float, str]]:
    # 2.00 L rigid vessel, 500 mg graphite, CO2 filled to 50.0 kPa at 25 °C, furnace at 950 °C.
    # Route: K from ΔG° = ΔH° − TΔS°; the equilibrium extent found by bisecting
    # (p_CO/p°)² − K p_CO2/p° on the CO2 pressure drop x in (0, b), then capped by the graphite
    # (the reaction stops when the graphite is gone); the heat as ΔU = ΔH − V Δp (constant volume).
    v, p1, m_g, t = 2.00e-3, 50.0e3, 0.500e-3, 950 + K0
    dh, ds, p_std, m_c, t1 = 172.5e3, 175.9, 100e3, 12.01e-3, 25 + K0
    b = p1 * t / t1
    k = math.exp(-(dh - t * ds) / (R_GAS * t))
    x_eq = _bisect(lambda x: (2 * x / p_std) ** 2 - k * (b - x) / p_std, 0.0, b)
    x = min(x_eq, m_g / m_c * R_GAS * t / v)
    xi = x * v / (R_GAS * t)
    q = xi * dh - v * x  # total pressure rises by x (2 CO for each CO2)
    return {"p_CO": (2 * x / 1e3, "kPa"), "f_conv": (100 * x / b, "percent"), "Q": (q, "J")}


def _simpson(f: Callable[[float], float], a: float, b: float, n: int = 2000) -> float:
    """∫ f from a to b by Simpson's rule (n even)."""
    h = (b - a) / n
    total = f(a) + f(b) + sum((4 if k % 2 else 2) * f(a + k * h) for k in range(1, n))
    return total * h / 3


def _jar() -> dict[str, tuple[float, str]]:
    # 2.00 L jar, dry air at 100 kPa and 20 °C, 0.500 g of water, warmed to 80 °C.
    # Route: the saturation pressure integrated from 100 °C down to T2 by RK4 on the
    # Clausius–Clapeyron ODE dp/dT = L M p/(R T²); the vapour mass found by bisecting the
    # equilibrium condition (liquid left only while the vapour is saturated); the entropy of the
    # warming as ∫ C dT/T by Simpson's rule; the vapour's expansion below saturation as ∫ dV p/T.
    v, m_w, p1, t1, t2 = 2.00e-3, 0.500e-3, 100e3, 20 + K0, 80 + K0
    m_water, m_air, cva, cw, lat = 18.02e-3, 28.97e-3, 718.0, 4186.0, 2257e3
    p_s = 101.325e3
    steps = 2000
    h = (t2 - (100 + K0)) / steps
    temp = 100 + K0
    for _ in range(steps):
        p_s = rk4(lambda t, y: [lat * m_water * y[0] / (R_GAS * t**2)], temp, [p_s], h)[0]
        temp += h

    def excess(m_v: float) -> float:  # vapour pressure of m_v minus what it may be (saturation)
        return m_v * R_GAS * t2 / (m_water * v) - p_s

    m_v = m_w if excess(m_w) < 0 else _bisect(excess, 0.0, m_w)
    p_v = m_v * R_GAS * t2 / (m_water * v)
    m_a = p1 * v * m_air / (R_GAS * t1)
    heat_cap = m_a * cva + m_w * cw
    q = heat_cap * (t2 - t1) + m_v * lat - p_s * (m_v * R_GAS * t2 / (m_water * p_s))  # ΔH − p_s V_vapour
    # vapour from p_s (volume n R T/p_s) to p_v (volume V) at T2: ΔS = ∫ p dV / T with p = n R T/V
    n_v = m_v / m_water
    ds_exp = _simpson(lambda vol: n_v * R_GAS / vol, n_v * R_GAS * t2 / p_s, v)
    ds = _simpson(lambda t: heat_cap / t, t1, t2) + m_v * lat / t2 + ds_exp
    return {"p_f": ((p1 * t2 / t1 + p_v) / 1e3, "kPa"), "Q": (q, "J"), "dS": (ds, "J/K")}


def _einstein_block() -> dict[str, tuple[float, str]]:
    # 1.00 kg copper (Einstein θ = 240 K, M = 63.55 g/mol) at 20 °C into 300 g of liquid nitrogen
    # (77.36 K, L = 199 kJ/kg). Route: each of the 3n N_A oscillators by its partition function
    # summed level by level, Z = Σ e^(−kθ/T) (k = 0..), U = ⟨E⟩ and F = −kT ln Z from the sums;
    # the heat the nitrogen can take is m L; the final temperature by bisecting U(T) = U0 − Q;
    # C = dU/dT by a central difference; S = (U − F)/T.
    mb, t0, m_n, theta, molar, lat, t_n = 1.00, 20 + K0, 0.300, 240.0, 63.55e-3, 199e3, 77.36
    oscillators_r = 3 * mb / molar * R_GAS  # 3n R: the sums below are per oscillator in units of k

    def sums(t: float) -> tuple[float, float]:  # mean energy/k and ln Z of one oscillator
        z = e = 0.0
        for level in range(400):
            w = math.exp(-level * theta / t)
            z += w
            e += level * theta * w
        return e / z, math.log(z)

    def energy(t: float) -> float:
        return oscillators_r * sums(t)[0]

    def entropy(t: float) -> float:
        e, ln_z = sums(t)
        return oscillators_r * (e / t + ln_z)

    q = min(energy(t0) - energy(t_n), m_n * lat)
    u_f = energy(t0) - q
    t_f = t_n if q < m_n * lat else _bisect(lambda t: energy(t) - u_f, t_n, t0)
    h = 1e-3
    c_f = (energy(t_f + h) - energy(t_f - h)) / (2 * h)
    ds = entropy(t_f) - entropy(t0) + q / t_n
    return {"T_f": (t_f, "K"), "Q": (q / 1e3, "kJ"), "C_f": (c_f, "J/K"), "dS_gen": (ds, "J/K")}


def _series_profile(conductances: list[float], left: float, right: float) -> list[float]:
    """Node values of a chain of links (conductance per link) held at ``left`` and ``right``,
    by Gauss–Seidel sweeps on the node balances (not the series formula)."""
    nodes = [left] + [0.5 * (left + right)] * (len(conductances) - 1) + [right]
    for _ in range(20000):
        for j in range(1, len(nodes) - 1):
            a, b = conductances[j - 1], conductances[j]
            nodes[j] = (a * nodes[j - 1] + b * nodes[j + 1]) / (a + b)
    return nodes


def _wall() -> dict[str, tuple[float, str]]:
    # 6.0 cm mineral wool (k 0.040, μ 1.3) inside 20 cm brick (k 0.80, μ 8.0); 20 °C/50 % in,
    # 5.0 °C/80 % out; films 0.13 and 0.04 m²K/W; δ = 2.0e-10 kg/(m s Pa).
    # Route: each layer cut into slices; temperatures and (uncapped) vapour pressures at the nodes
    # found by Gauss–Seidel sweeps of the node balances; the interface node's vapour pressure is
    # compared with saturation there and capped (Glaser).
    t_in, rh_in, t_out, rh_out = 20.0, 0.50, 5.0, 0.80
    l1, l2, k1, k2, mu1, mu2, dl = 0.06, 0.20, 0.040, 0.80, 1.3, 8.0, 2.0e-10

    def p_sat(theta: float) -> float:
        return 610.94 * math.exp(17.625 * theta / (theta + 243.04))

    slices = 10
    heat = [1 / 0.13] + [slices * k1 / l1] * slices + [slices * k2 / l2] * slices + [1 / 0.04]
    temps = _series_profile(heat, t_in, t_out)
    q = (temps[0] - temps[1]) / 0.13
    t_i = temps[1 + slices]  # the node between the last wool slice and the first brick slice
    vapour = [slices * dl / (mu1 * l1)] * slices + [slices * dl / (mu2 * l2)] * slices
    pressures = _series_profile(vapour, rh_in * p_sat(t_in), rh_out * p_sat(t_out))
    p_int = min(pressures[slices], p_sat(t_i))
    return {"q": (q, "W/m^2"), "T_i": (t_i, "degC"), "p_int": (p_int, "Pa")}


def _ammonium_chloride() -> dict[str, tuple[float, str]]:
    # 2.00 L rigid vessel, 0.500 g NH4Cl, NH3 admitted at 30.0 kPa and 25 °C, oven at 600 K,
    # K = 0.350 there (p° = 100 kPa), ΔH° = 176.0 kJ/mol.
    # Route: the HCl pressure x found by bisecting the mass-action residual x(a + x) − K p°² on
    # (0, √K p°), then capped by the salt present; the heat as ΔU = ΔH − V Δp (constant volume).
    v, pa1, m, t, k = 2.00e-3, 30.0e3, 0.500e-3, 600.0, 0.350
    dh, p_std, molar, t1 = 176.0e3, 100e3, 53.49e-3, 25 + K0
    a = pa1 * t / t1
    x_eq = _bisect(lambda x: x * (a + x) - k * p_std**2, 0.0, math.sqrt(k) * p_std)
    x = min(x_eq, m / molar * R_GAS * t / v)
    q = x * v / (R_GAS * t) * dh - v * 2 * x
    return {"p_HCl": (x / 1e3, "kPa"), "p_tot": ((a + 2 * x) / 1e3, "kPa"), "Q": (q, "J")}


def _tanks() -> dict[str, tuple[float, str]]:
    # A: 20.0 L at 800 kPa, B: 40.0 L at 150 kPa, both 20 °C; the valve shuts when A falls to 400 kPa
    # (equal pressures would be 366.7 kPa, so the valve shuts first).
    # Route: the moved amount s is the variable; RK4 on dT_A/ds = −(γ − 1) T_A/(n_A0 − s) (the air
    # left in A expands reversibly and adiabatically) and dU_B/ds = c_p T_A (each bit carries its
    # enthalpy into B), stopped where p_A meets max(p_B, p_set) (bisected inside the last step).
    v_a, v_b, p0, p_b0, t0, p_set, molar = 20e-3, 40e-3, 800e3, 150e3, 20 + K0, 400e3, 28.97e-3
    gamma, cp = 1.4, 3.5 * R_GAS
    n_a0, n_b0 = p0 * v_a / (R_GAS * t0), p_b0 * v_b / (R_GAS * t0)

    def deriv(s: float, y: list[float]) -> list[float]:
        return [-(gamma - 1) * y[0] / (n_a0 - s), cp * y[0]]

    def gap(s: float, y: list[float]) -> float:  # p_A minus the pressure at which the flow stops
        p_a = (n_a0 - s) * R_GAS * y[0] / v_a
        return p_a - max((gamma - 1) * y[1] / v_b, p_set)

    y = [t0, p_b0 * v_b / (gamma - 1)]
    s, h = 0.0, n_a0 / 20000
    while True:
        nxt = rk4(deriv, s, y, h)
        if gap(s + h, nxt) <= 0:
            step = _bisect(lambda d, s=s, y=y: gap(s + d, rk4(deriv, s, y, d)), 0.0, h)
            y, s = rk4(deriv, s, y, step), s + step
            break
        y, s = nxt, s + h
    t_a, u_b = y
    p_b = (gamma - 1) * u_b / v_b
    p_a = (n_a0 - s) * R_GAS * t_a / v_a
    t_b = p_b * v_b / ((n_b0 + s) * R_GAS)

    def molar_entropy(t: float, p: float) -> float:  # c_p ln T − R ln p, up to a constant
        return cp * math.log(t) - R_GAS * math.log(p)

    ds = ((n_a0 - s) * (molar_entropy(t_a, p_a) - molar_entropy(t0, p0))
          + s * (molar_entropy(t_b, p_b) - molar_entropy(t0, p0))
          + n_b0 * (molar_entropy(t_b, p_b) - molar_entropy(t0, p_b0)))
    return {"T_A": (t_a, "K"), "T_B": (t_b, "K"), "m_moved": (s * molar * 1e3, "g"), "dS_gen": (ds, "J/K")}


def _engine_ice() -> dict[str, tuple[float, str]]:
    # 10.0 kg iron (450 J/(kg K)) at 400 °C; 2.00 kg ice at −20 °C (c 2100, L 334 kJ/kg, water 4186).
    # Route: the engine run in small steps of the block's temperature; each step's heat C_b dT goes in
    # reversibly, so the tub receives dQ_c = C_b dT T_c/T_b, with the tub's temperature read from the
    # heat it has received (warming ice, melting at 0 °C, warming water); RK4 on Q_c(T_b), stopped
    # where T_b meets T_c (bisected inside the last step).
    mb, cb, th, mi, ti = 10.0, 450.0, 400 + K0, 2.00, -20 + K0
    ci, cw, lat, t0 = 2100.0, 4186.0, 334e3, K0
    q_warm = mi * ci * (t0 - ti)

    def tub_temperature(q: float) -> float:
        if q < q_warm:
            return ti + q / (mi * ci)
        if q < q_warm + mi * lat:
            return t0
        return t0 + (q - q_warm - mi * lat) / (mi * cw)

    def deriv(t_b: float, y: list[float]) -> list[float]:
        return [-mb * cb * tub_temperature(y[0]) / t_b]

    t_b, y, h = th, [0.0], -(th - ti) / 200000
    while True:
        nxt = rk4(deriv, t_b, y, h)
        if t_b + h <= tub_temperature(nxt[0]):
            step = _bisect(lambda d, t=t_b, y=y: t + d - tub_temperature(rk4(deriv, t, y, d)[0]), 0.0, h)
            y, t_b = rk4(deriv, t_b, y, step), t_b + step
            break
        y, t_b = nxt, t_b + h
    q_h, q_c = mb * cb * (th - t_b), y[0]
    w = q_h - q_c
    return {"W": (w / 1e3, "kJ"), "Q_c": (q_c / 1e3, "kJ"), "eta": (100 * w / q_h, "percent")}


def _boiler_tube() -> dict[str, tuple[float, str]]:
    # Gas 1.00 kg/s (c_p 1100) at 450 °C, water 0.600 kg/s (c 4186) at 40 °C, parallel flow,
    # UA = 2.00 kW/K; the water boils at 120 °C. Route: RK4 along the tube (x from 0 to 1) on the
    # gas temperature and the heat the water has taken; the water's temperature is read from that
    # heat and stops at 120 °C once it boils (the surplus makes steam).
    c_g, c_w, tg0, tw0, ua, t_s = 1.00 * 1100.0, 0.600 * 4186.0, 450.0, 40.0, 2.00e3, 120.0

    def deriv(_x: float, y: list[float]) -> list[float]:
        t_w = min(t_s, tw0 + y[1] / c_w)
        flow = ua * (y[0] - t_w)
        return [-flow / c_g, flow]

    y, steps = [tg0, 0.0], 200000
    for k in range(steps):
        y = rk4(deriv, k / steps, y, 1 / steps)
    t_go, q = y
    return {"T_go": (t_go, "degC"), "Q": (q / 1e3, "kW"), "T_wo": (min(t_s, tw0 + q / c_w), "degC")}


def _hot_tub() -> dict[str, tuple[float, str]]:
    # 1500 L at 10 °C, air 0 °C, UA 80 W/K, heater 4 kW, set point 38 °C, 30 h.
    # Route: RK4 on [T, energy drawn, heat lost] with the heater on while T < T_set; the moment
    # T reaches T_set is bisected inside its step; after it the thermostat holds T and supplies
    # the loss. The set time, the energy and the loss are read off the integration.
    cap, t0, t_air, ua, power, t_set, t_end = 4.186e6 * 1.5, 10.0, 0.0, 80.0, 4e3, 38.0, 30 * 3600.0

    def heating(_t: float, y: list[float]) -> list[float]:
        loss = ua * (y[0] - t_air)
        return [(power - loss) / cap, power, loss]

    y, time, h = [t0, 0.0, 0.0], 0.0, 10.0
    reached = None
    while time < t_end - 1e-9:
        step = min(h, t_end - time)
        nxt = rk4(heating, time, y, step)
        if nxt[0] >= t_set:
            d = _bisect(lambda s, t=time, y=y: rk4(heating, t, y, s)[0] - t_set, 0.0, step)
            y, time, reached = rk4(heating, time, y, d), time + d, time + d
            hold = ua * (t_set - t_air) * (t_end - time)
            y = [t_set, y[1] + hold, y[2] + hold]
            break
        y, time = nxt, time + step
    assert reached is not None  # 30 h is longer than the 26.2 h the water needs
    return {"t_set": (reached / 3600, "h"), "E": (y[1] / 3.6e6, "kWh"), "Q_loss": (y[2] / 3.6e6, "kWh")}


def _foehn() -> dict[str, tuple[float, str]]:
    # 20.0 °C, 60 % at 600 m; ridge 2500 m; lee town 200 m; lapse rates 9.8, 6.0 (saturated),
    # 1.8 (dew point) K/km. Route: the dew point by bisecting the Magnus ratio p_sat(T_d)/p_sat(T)
    # = RH; the parcel marched up in 0.1 m steps (dry while T > T_d, saturated with T_d = T once
    # they meet, its condensate rained out), then down to the town dry, the dew point rising at its
    # lapse rate; RH from the Magnus ratio at the end.
    t1, rh, z1, z_top, z2 = 20.0, 0.60, 600.0, 2500.0, 200.0
    gd, gm, gdew = 9.8e-3, 6.0e-3, 1.8e-3

    def p_sat(theta: float) -> float:
        return math.exp(17.625 * theta / (theta + 243.04))

    temp = t1
    dew = _bisect(lambda d: p_sat(d) / p_sat(t1) - rh, -40.0, t1)
    dz, z = 0.1, z1
    while z < z_top - 1e-9:
        step = min(dz, z_top - z)
        if temp - gd * step > dew - gdew * step:
            temp, dew = temp - gd * step, dew - gdew * step
        elif temp > dew:  # they meet inside this step: dry up to there, saturated after
            frac = (temp - dew) / ((gd - gdew) * step)
            temp = temp - gd * frac * step - gm * (1 - frac) * step
            dew = temp
        else:
            temp -= gm * step
            dew = temp
        z += step
    t_top = temp
    t2, dew2 = t_top + gd * (z_top - z2), dew + gdew * (z_top - z2)
    return {"T_top": (t_top, "degC"), "dT": (t2 - t1, "K"), "RH2": (100 * p_sat(dew2) / p_sat(t2), "percent")}


def _paramagnet() -> dict[str, tuple[float, str]]:
    # 200 mmol of spin-1/2 ions (moment μ_B), magnetised at 1.50 K in 3.00 T, demagnetised to
    # 50.0 mT; then 20.0 mJ of heat, limit 0.300 K. Route: each spin's two Boltzmann populations;
    # the Gibbs entropy −Σ p ln p and the energy from them; T_f by bisecting S(T at B_f) = S after
    # magnetising; the end state by bisecting U(T) = U + min(E, capacity) at the final field.
    mu_b, k_b, n_a = 9.2740100783e-24, 1.380649e-23, 6.02214076e23
    spins, t_i, b_i, b_f, heat, t_w = 0.200 * n_a, 1.50, 3.00, 0.050, 20.0e-3, 0.300

    def populations(b: float, t: float) -> tuple[float, float]:
        up, down = math.exp(mu_b * b / (k_b * t)), math.exp(-mu_b * b / (k_b * t))
        return up / (up + down), down / (up + down)

    def entropy(b: float, t: float) -> float:
        return -spins * k_b * sum(p * math.log(p) for p in populations(b, t))

    def energy(b: float, t: float) -> float:
        p_up, p_down = populations(b, t)
        return -spins * mu_b * b * (p_up - p_down)

    s_i = entropy(b_i, t_i)
    q1 = t_i * (spins * k_b * math.log(2) - s_i)
    t_f = _bisect(lambda t: entropy(b_f, t) - s_i, 1e-4, 1.0)
    capacity = energy(b_f, t_w) - energy(b_f, t_f)
    u_end = energy(b_f, t_f) + min(heat, capacity)
    t_end = _bisect(lambda t: energy(b_f, t) - u_end, t_f, 10.0)
    return {"Q1": (q1, "J"), "T_f": (t_f * 1e3, "mK"), "Q_hold": (capacity * 1e3, "mJ"),
            "S_end": (entropy(b_f, t_end), "J/K")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "statmech.effusion_cooling_pressure_switch": (
        {"V": "10 L", "A": "0.0314 mm^2", "p0": "1 Pa", "T0": "20 degC", "t": "60 min", "p_s": "0.1 Pa"},
        _effusion),
    "statmech.graphite_gasification_co2": (
        {"V": "2 L", "p1": "50 kPa", "m_g": "500 mg", "T": "950 degC"}, _gasification),
    "thermo.sealed_jar_water_evaporates": (
        {"V": "2 L", "m_w": "0.5 g", "p1": "100 kPa", "T1": "20 degC", "T2": "80 degC"}, _jar),
    "statmech.einstein_block_liquid_nitrogen": (
        {"mb": "1 kg", "T0": "20 degC", "mN": "300 g"}, _einstein_block),
    "thermo.wall_interstitial_condensation": (
        {"T_in": "20 degC", "RH_in": "50 percent", "T_out": "5 degC", "RH_out": "80 percent", "L1": "6 cm",
         "L2": "20 cm", "k2": "0.8 W/(m*K)", "mu2": "8"}, _wall),
    "statmech.ammonium_chloride_with_ammonia": (
        {"V": "2 L", "pa1": "30 kPa", "m": "0.5 g", "T": "600 K", "K": "0.35"}, _ammonium_chloride),
    "thermo.tank_discharge_valve_closes": (
        {"V_A": "20 L", "V_B": "40 L", "p0": "800 kPa", "p_B0": "150 kPa", "T0": "20 degC",
         "p_set": "400 kPa"}, _tanks),
    "thermo.engine_hot_block_ice_tub": (
        {"mb": "10 kg", "Th": "400 degC", "mi": "2 kg", "Ti": "-20 degC"}, _engine_ice),
    "thermo.parallel_flow_boiler_tube": (
        {"mg": "1 kg/s", "Tg0": "450 degC", "mw": "0.6 kg/s", "Tw0": "40 degC", "UA": "2 kW/K"},
        _boiler_tube),
    "thermo.hot_tub_heater_thermostat": (
        {"V": "1500 L", "T0": "10 degC", "Ta": "0 degC", "UA": "80 W/K", "P": "4 kW", "T_set": "38 degC",
         "t": "30 h"}, _hot_tub),
    "thermo.foehn_wind_over_ridge": (
        {"T1": "20 degC", "RH1": "60 percent", "z1": "600 m", "z_top": "2500 m", "z2": "200 m"}, _foehn),
    "statmech.paramagnet_demag_heat_load": (
        {"n": "200 mmol", "Ti": "1.5 K", "Bi": "3 T", "Bf": "50 mT", "E": "20 mJ", "Tw": "0.3 K"},
        _paramagnet),
}

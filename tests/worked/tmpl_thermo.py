"""Worked examples of the thermodynamics and statistical-mechanics templates of the tmpl-thermo batch
(cycles, calorimetry with a phase decision, conduction, entropy, partition functions), computed by hand
with plain formulas and constants typed in (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

R_GAS = 8.314462618  # J/(mol K)
K_B = 1.380649e-23  # J/K
N_A = 6.02214076e23  # 1/mol
Q_E = 1.602176634e-19  # C


def _triangle() -> dict[str, tuple[float, str]]:
    # 100/400 kPa, 1/4 L (kPa·L = J): W = ½·300·3 = 450 J; s = 100 kPa/L, p0 = 500 kPa, V* = 2500/800 = 3.125
    # L;
    # Q_AB = 1.5·1·300 = 450 J; Q_BV* = 2.5·500·2.125 − 2·100·(3.125² − 1) = 2656.25 − 1753.125 = 903.125 J;
    # Q_in = 1353.125 J, eta = 450/1353.125 = 0.33256
    s = (400 - 100) / (4 - 1)
    p0 = 400 + s * 1
    v_star = 5 * p0 / (8 * s)
    q_in = 1.5 * 1 * 300 + 2.5 * p0 * (v_star - 1) - 2 * s * (v_star**2 - 1)
    return {"W": (450.0, "J"), "Q_in": (q_in, "J"), "eta": (450 / q_in, "")}


def _ice() -> dict[str, tuple[float, str]]:
    # 100 g ice at −10 °C into 400 g water at 50 °C: warm ice 2100 J, melt 33 400 J, water can give 83 720 J
    # down to 0 °C > 35 500 J, so all melts; T_f = 273.15 + 48 220/(0.5·4186) = 296.189 K;
    # ΔS = 7.832 + 122.277 + 33.90 − 145.8 ≈ 18.2 J/K; liquid 500 g
    t0 = 273.15
    q_warm = 0.100 * 2100 * 10
    q_avail = 0.400 * 4186 * 50
    t_f = t0 + (q_avail - q_warm - 0.100 * 334e3) / (0.500 * 4186)
    ds = (
        0.100 * 2100 * math.log(t0 / 263.15)
        + 0.100 * 334e3 / t0
        + 0.100 * 4186 * math.log(t_f / t0)
        + 0.400 * 4186 * math.log(t_f / 323.15)
    )
    return {"m_liq": (500.0, "g"), "dS": (ds, "J/K")}


def _stirling() -> dict[str, tuple[float, str]]:
    # 1 mol He, 800 K / 300 K, r = 2: W = 8.3145·500·ln 2 = 2881.6 J; Q_h,iso = 4610.5 J; Q_v = 1.5·8.3145·500
    # = 6235.8 J;
    # η without regenerator = 2881.6/10 846.3 = 0.2657; with = 1 − 300/800 = 0.625
    w = R_GAS * 500 * math.log(2)
    q_iso = R_GAS * 800 * math.log(2)
    return {"W": (w, "J"), "eta_plain": (w / (q_iso + 1.5 * R_GAS * 500), ""), "eta_regen": (w / q_iso, "")}


def _diatomic() -> dict[str, tuple[float, str]]:
    # 1 mol, θ_v = 3000 K, 800 K → 1600 K: x1 = 3.75, C_vib = 14.0625·42.52/41.52² R = 0.3468 R = 2.884,
    # C_v = 20.786 + 2.884 = 23.670 J/(mol K), γ = 31.984/23.670 = 1.3513;
    # ΔU_vib = R·3000·(1/(e^1.875 − 1) − 1/(e^3.75 − 1)) = 24 943·(0.18116 − 0.02409) = 3.918 kJ; Q = 16.629 +
    # 3.918 = 20.55 kJ
    x1, x2 = 3000 / 800, 3000 / 1600
    c_v = 2.5 * R_GAS + R_GAS * x1**2 * math.exp(x1) / (math.exp(x1) - 1) ** 2
    q = 2.5 * R_GAS * 800 + R_GAS * 3000 * (1 / (math.exp(x2) - 1) - 1 / (math.exp(x1) - 1))
    return {"C_v": (c_v, "J/(mol*K)"), "gamma": ((c_v + R_GAS) / c_v, ""), "Q": (q / 1e3, "kJ")}


def _otto_q() -> dict[str, tuple[float, str]]:
    # 0.5 L at 100 kPa, 300 K, r = 9, γ = 1.4, Q = 500 J: p1 V1 = 50 J, T2 = 300·9^0.4 = 722.47 K,
    # T3 = 722.47 + 500·0.4·300/50 = 1922.47 K, p3 = 100·9·1922.47/300 kPa = 5.7674 MPa,
    # W = 500·(1 − 9^−0.4) = 292.38 J, mep = 292.38 J/(0.5 L·8/9) = 657.9 kPa
    t3 = 300 * 9**0.4 + 500 * 0.4 * 300 / 50
    w = 500 * (1 - 9**-0.4)
    return {
        "T3": (t3, "K"),
        "p3": (100e3 * 9 * t3 / 300 / 1e6, "MPa"),
        "W": (w, "J"),
        "mep": (w / (0.5e-3 * 8 / 9) / 1e3, "kPa"),
    }


def _brayton() -> dict[str, tuple[float, str]]:
    # r_p = 10, 300 K → 1400 K, 20 kg/s: 10^(0.4/1.4) = 1.93070, T2 = 579.21 K, T4 = 725.13 K,
    # w_c = 1.005·279.21 = 280.61 kJ/kg, w_t = 1.005·674.87 = 678.25 kJ/kg, P = 20·397.64 kJ/s = 7.953 MW,
    # η = 1 − 1/1.9307 = 0.48205, bwr = 579.21/1400 = 0.41372
    f = 10 ** (0.4 / 1.4)
    w_c = 1.005 * (300 * f - 300)
    w_t = 1.005 * (1400 - 1400 / f)
    return {"P_net": (20 * (w_t - w_c) / 1e3, "MW"), "eta": (1 - 1 / f, ""), "bwr": (300 * f / 1400, "")}


def _vdw() -> dict[str, tuple[float, str]]:
    # 1 mol CO2 (a = 0.364, b = 4.27e-5 SI), 0.3 L → 1.2 L at 350 K: nRT = 2910.06 J,
    # ln(1.1573/0.2573) = 1.50359 → 4375.5 J; a n²(1/V1 − 1/V2) = 0.364·2500 = 910 J;
    # W = 3465.5 J, ΔU = 910 J, Q = 4375.5 J
    a, b = 0.364, 4.27e-5
    w = R_GAS * 350 * math.log((1.2e-3 - b) / (0.3e-3 - b)) - a * (1 / 0.3e-3 - 1 / 1.2e-3)
    du = a * (1 / 0.3e-3 - 1 / 1.2e-3)
    return {"W": (w, "J"), "dU": (du, "J"), "Q": (w + du, "J")}


def _free_then_adiabatic() -> dict[str, tuple[float, str]]:
    # 1 mol diatomic at 300 K, volume ×2 freely, then reversible adiabatic back: T_f = 300·2^0.4 = 395.85 K,
    # W_on = 2.5·8.3145·95.85 = 1.9923 kJ, ΔS = 8.3145·ln 2 = 5.7632 J/K
    t_f = 300 * 2**0.4
    return {
        "T_f": (t_f, "K"),
        "W_on": (2.5 * R_GAS * (t_f - 300) / 1e3, "kJ"),
        "dS": (R_GAS * math.log(2), "J/K"),
    }


def _lake() -> dict[str, tuple[float, str]]:
    # 2 kg, c = 450, 200 °C into a lake at 10 °C: mc = 900 J/K, ΔS_block = 900·ln(283.15/473.15) = −462.1 J/K,
    # ΔS_lake = 900·190/283.15 = 603.9 J/K, total 141.8 J/K
    ds_b = 900 * math.log(283.15 / 473.15)
    ds_l = 900 * 190 / 283.15
    return {"dS_block": (ds_b, "J/K"), "dS_lake": (ds_l, "J/K"), "dS_total": (ds_b + ds_l, "J/K")}


def _negative_t() -> dict[str, tuple[float, str]]:
    # 1e20 ions, ε = 100 µeV (ε/k = 1.16045 K), ρ = 4, lattice 1 K: T_s = −1.16045/ln 4 = −0.83709 K;
    # f = 0.8, f_eq = 1/(1 + e^1.16045) = 0.23859, Q = 1e20·1.6022e-23 J·0.56141 = 0.89948 mJ;
    # s/k: 0.50040 → 0.54941, ΔS_spin = 1.3806e-3·0.04901 = 0.06767 mJ/K, + Q/T_L → 0.9671 mJ/K
    eps = 100e-6 * Q_E
    x = eps / (K_B * 1.0)
    f, f_eq = 0.8, 1 / (1 + math.exp(x))

    def s(p: float) -> float:
        return -(p * math.log(p) + (1 - p) * math.log(1 - p))

    q = 1e20 * eps * (f - f_eq)
    return {
        "T_s": (-eps / (K_B * math.log(4)), "K"),
        "Q": (q * 1e3, "mJ"),
        "dS": ((1e20 * K_B * (s(f_eq) - s(f)) + q / 1.0) * 1e3, "mJ/K"),
    }


def _rotational() -> dict[str, tuple[float, str]]:
    # B = 0.25 meV, 300 K, k = 8.617e-5 eV/K as shown: kT/B = 103.404, J* = √51.702 − ½ = 6.690;
    # J = 6: 13·e^(−42/103.404) = 8.6605; J = 7: 15·e^(−56/103.404) = 8.7272 → J = 7, ratio 8.727
    x = 0.25e-3 / (8.617e-5 * 300)

    def pop(j: int) -> float:
        return (2 * j + 1) * math.exp(-j * (j + 1) * x)

    j_best = max(range(30), key=pop)
    return {"J_max": (float(j_best), ""), "ratio": (pop(j_best), "")}


def _three_level() -> dict[str, tuple[float, str]]:
    # 0 (g 1), 10 meV (g 2), 20 meV (g 1) at 150 K, kT = 8.617e-5·150 eV = 12.9255 meV:
    # e^−0.77367 = 0.46133, e^−1.54733 = 0.21283, Z = 2.13549; P_top = 0.09966;
    # U = (9.2266 + 4.2566)/2.13549 = 6.3138 meV; S/k = ln 2.13549 + 6.3138/12.9255 = 0.75870 + 0.48848 =
    # 1.2472
    kt = 8.617e-5 * 150 * 1e3
    b1, b2 = math.exp(-10 / kt), math.exp(-20 / kt)
    z = 1 + 2 * b1 + b2
    u = (2 * 10 * b1 + 20 * b2) / z
    return {"p_top": (b2 / z, ""), "U": (u, "meV"), "S": (math.log(z) + u / kt, "")}


def _two_species() -> dict[str, tuple[float, str]]:
    # 250 K, 10 km, 10 % He at the ground, g = 9.81: H_He = 2078.6/(0.004·9.81) = 52.97 km, H_N2 = 7.567 km;
    # e^(−0.18878) = 0.82797, e^(−1.32146) = 0.26675, x = 0.082797/(0.082797 + 0.240075) = 25.64 %
    rt = R_GAS * 250
    h_he, h_n2 = rt / (0.004 * 9.81), rt / (0.028 * 9.81)
    a, b = 0.1 * math.exp(-10e3 / h_he), 0.9 * math.exp(-10e3 / h_n2)
    return {"H_He": (h_he / 1e3, "km"), "H_N2": (h_n2 / 1e3, "km"), "x_h": (a / (a + b), "")}


def _pipe() -> dict[str, tuple[float, str]]:
    # r1 3 cm; 3 cm of k 0.05, then 2 cm of k 0.03; h = 8; 150 °C pipe, 20 °C air. Per metre ×2π:
    # ln 2/0.05 = 13.863, ln(8/6)/0.03 = 9.589, 1/(8·0.08) = 1.5625 → q = 2π·130/25.014 = 32.654 W/m;
    # T_12 = 150 − 32.654·13.863/(2π) = 77.95 °C
    l1, l2, f = math.log(2) / 0.05, math.log(8 / 6) / 0.03, 1 / (8 * 0.08)
    q = 2 * math.pi * 130 / (l1 + l2 + f)
    return {"q": (q, "W/m"), "T_12": (150 - q * l1 / (2 * math.pi), "degC")}


def _heat_pump() -> dict[str, tuple[float, str]]:
    # 10 kW into a house at 20 °C from 0 °C outside with 3 kW: COP = 3.333; Q_c = 7 kW;
    # S_gen = 10 000/293.15 − 7000/273.15 = 34.112 − 25.627 = 8.486 W/K; P_min = 10·(1 − 273.15/293.15) =
    # 0.6823 kW
    return {
        "COP": (10 / 3, ""),
        "S_gen": (10e3 / 293.15 - 7e3 / 273.15, "W/K"),
        "P_min": (10 * (1 - 273.15 / 293.15), "kW"),
    }


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "thermo.triangle_cycle_heat_input": (
        {"p1": "100 kPa", "p2": "400 kPa", "V1": "1 L", "V2": "4 L"},
        _triangle,
    ),
    "thermo.ice_in_water_entropy": (
        {"m_i": "100 g", "T_i": "-10 degC", "m_w": "400 g", "T_w": "50 degC"},
        _ice,
    ),
    "thermo.stirling_regenerator": ({"n": "1 mol", "T_h": "800 K", "T_c": "300 K", "r": "2"}, _stirling),
    "statmech.diatomic_vibrational_heat": (
        {"n": "1 mol", "theta_v": "3000 K", "T1": "800 K", "T2": "1600 K"},
        _diatomic,
    ),
    "thermo.otto_heat_input_peak": (
        {"V1": "0.5 L", "r": "9", "p1": "100 kPa", "T1": "300 K", "Q": "500 J", "gamma": "1.4"},
        _otto_q,
    ),
    "thermo.brayton_cycle_power": (
        {"r_p": "10", "T1": "300 K", "T3": "1400 K", "m_dot": "20 kg/s"},
        _brayton,
    ),
    "thermo.van_der_waals_isothermal_work": (
        {"n": "1 mol", "V1": "0.3 L", "V2": "1.2 L", "T": "350 K"},
        _vdw,
    ),
    "thermo.free_expansion_then_adiabatic": ({"n": "1 mol", "T1": "300 K", "r": "2"}, _free_then_adiabatic),
    "thermo.hot_block_in_lake_entropy": (
        {"m": "2 kg", "c": "450 J/(kg*K)", "T_b": "200 degC", "T_L": "10 degC"},
        _lake,
    ),
    "statmech.negative_temperature_spins": (
        {"N": "1e20", "eps": "100 ueV", "rho": "4", "T_L": "1 K"},
        _negative_t,
    ),
    "statmech.rotational_level_populations": ({"B": "0.25 meV", "T": "300 K"}, _rotational),
    "statmech.three_level_system": ({"eps1": "10 meV", "eps2": "20 meV", "T": "150 K"}, _three_level),
    "statmech.barometric_two_species": (
        {"T": "250 K", "h": "10 km", "x0": "0.1", "g": "9.81 m/s^2"},
        _two_species,
    ),
    "thermo.insulated_pipe_heat_loss": (
        {
            "r1": "3 cm",
            "t1": "3 cm",
            "k1": "0.05 W/(m*K)",
            "t2": "2 cm",
            "k2": "0.03 W/(m*K)",
            "h": "8 W/(m^2*K)",
            "T_p": "150 degC",
            "T_a": "20 degC",
        },
        _pipe,
    ),
    "thermo.heat_pump_entropy_generation": (
        {"Q_h": "10 kW", "P": "3 kW", "T_h": "20 degC", "T_c": "0 degC"},
        _heat_pump,
    ),
}

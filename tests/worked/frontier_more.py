"""Worked examples of further hard templates (yo-yo, unbalanced bridge, proton helix, composite wall,
rectangular cycle, Compton recoil), computed by hand (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

M_P = 1.67262192369e-27  # kg
Q_E = 1.602176634e-19  # C
M_E_C2_KEV = 9.1093837015e-31 * 299_792_458.0**2 / Q_E / 1e3  # 510.999 keV


def _yo_yo() -> dict[str, tuple[float, str]]:
    # 100 g, R 4 cm, r 8 mm: R²/(2r²) = 12.5, a = 9.81/13.5 = 0.72667 m/s²,
    # T = 0.1*(9.81 − 0.72667) = 0.90833 N
    a = 9.81 / (1 + 0.04**2 / (2 * 0.008**2))
    return {"a": (a, "m/s^2"), "T": (0.100 * (9.81 - a), "N")}


def _bridge() -> dict[str, tuple[float, str]]:
    # 10 V; 100/200 left, 300/100 right; R_g 50: V_th = 6.6667 − 2.5 = 4.1667 V, R_th = 66.667 + 75 = 141.667,
    # I_g = 4.1667/191.667 = 21.739 mA
    v_th = 10 * 200 / 300 - 10 * 100 / 400
    r_th = 100 * 200 / 300 + 300 * 100 / 400
    return {"V_th": (v_th, "V"), "R_th": (r_th, "ohm"), "I_g": (v_th / (r_th + 50) * 1e3, "mA")}


def _helix() -> dict[str, tuple[float, str]]:
    # 1000 km/s at 30° in 100 mT: r = 5.2198 cm, pitch = 2π*9.0410 cm = 56.806 cm
    v, b = 1.0e6, 0.100
    r = M_P * v * math.sin(math.radians(30)) / (Q_E * b)
    pitch = 2 * math.pi * M_P / (Q_E * b) * v * math.cos(math.radians(30))
    return {"r": (r * 100, "cm"), "pitch": (pitch * 100, "cm")}


def _wall() -> dict[str, tuple[float, str]]:
    # 10 m²; 20 cm brick (0.8), 5 cm foam (0.04); 20 °C to −5 °C: R = 0.025 + 0.125 = 0.15 K/W,
    # P = 166.67 W, T_mid = −5 + 166.67*0.125 = 15.833 °C
    p = 25 / (0.20 / (0.8 * 10) + 0.05 / (0.04 * 10))
    return {"P": (p, "W"), "T_mid": (-5 + p * 0.05 / (0.04 * 10), "degC")}


def _rectangle() -> dict[str, tuple[float, str]]:
    # 100/300 kPa, 2/6 L: W = 800 J, Q_in = 600 + 3000 = 3600 J, eta = 0.2222
    return {"W": (800.0, "J"), "Q_in": (3600.0, "J"), "eta": (800 / 3600, "")}


def _compton() -> dict[str, tuple[float, str]]:
    # 500 keV at 90°: E' = 500/(1 + 500/510.999) = 252.72 keV, K = 247.28 keV
    e_out = 500 / (1 + 500 / M_E_C2_KEV * (1 - math.cos(math.radians(90))))
    return {"E_scattered": (e_out, "keV"), "K_e": (500 - e_out, "keV")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.yo_yo_descent": ({"m": "100 g", "R": "4 cm", "r": "8 mm", "g": "9.81 m/s^2"}, _yo_yo),
    "electricity.wheatstone_bridge_unbalanced": (
        {"E": "10 V", "R1": "100 ohm", "R2": "200 ohm", "R3": "300 ohm", "R4": "100 ohm", "R_g": "50 ohm"},
        _bridge),
    "magnetism.charged_particle_helix": ({"v": "1000 km/s", "alpha": "30 deg", "B": "100 mT"}, _helix),
    "thermo.composite_wall_conduction": (
        {"A": "10 m^2", "d1": "20 cm", "k1": "0.8 W/(m*K)", "d2": "5 cm", "k2": "0.04 W/(m*K)",
         "T_in": "20 degC", "T_out": "-5 degC"}, _wall),
    "thermo.rectangular_cycle_efficiency": (
        {"p1": "100 kPa", "p2": "300 kPa", "V1": "2 L", "V2": "6 L"}, _rectangle),
    "modern.compton_electron_energy": ({"E": "500 keV", "theta": "90 deg"}, _compton),
}

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

U_KG = 1.66053906660e-27  # kg
M_E = 9.1093837015e-31  # kg
R_GAS = 8.314462618  # J/(mol K)
C = 299_792_458.0  # m/s


def _pendulum_block() -> dict[str, tuple[float, str]]:
    # 1 kg bob, 1 m string, 60°: u = sqrt(9.81) = 3.1321 m/s;
    # elastic onto 0.5 kg: V = 2*3.1321/1.5 = 4.1761 m/s;
    # off a 1 m table: x = 4.1761*0.45152 = 1.8856 m
    u = math.sqrt(2 * 9.81 * 1 * (1 - math.cos(math.radians(60))))
    v = 2 * 1 * u / 1.5
    return {"u": (u, "m/s"), "V": (v, "m/s"), "x": (v * math.sqrt(2 * 1 / 9.81), "m")}


def _spectrometer() -> dict[str, tuple[float, str]]:
    # 100 kV/m, 0.2 T -> 500 km/s; in 0.5 T: r1 (20 u) = 20.729 cm; 2 u apart -> s = 41.457 mm
    v = 1e5 / 0.2
    return {"v": (v / 1e3, "km/s"), "r1": (20 * U_KG * v / (Q_E * 0.5) * 100, "cm"),
            "s": (2 * 2 * U_KG * v / (Q_E * 0.5) * 1e3, "mm")}


def _crt() -> dict[str, tuple[float, str]]:
    # 2 kV gun: v0 = 2.6523e7 m/s; 100 V on plates 10 mm apart, 4 cm long: y1 = 2 mm;
    # 20 cm to the screen: Y = 22 mm
    v0 = math.sqrt(2 * Q_E * 2000 / M_E)
    a = Q_E * 100 / (M_E * 0.010)
    t = 0.04 / v0
    y1 = 0.5 * a * t**2
    return {"v0": (v0 / 1e3, "km/s"), "y1": (y1 * 1e3, "mm"), "Y": ((y1 + a * t / v0 * 0.20) * 1e3, "mm")}


def _two_steps() -> dict[str, tuple[float, str]]:
    # 1 mol diatomic at 300 K, volume ×2 at constant p, then p ×0.8: T3 = 480 K, W = 2494.3 J,
    # ΔU = 2.5*R*180 = 3741.5 J, Q = 6235.9 J
    w = R_GAS * 300 * (2 - 1)
    du = 2.5 * R_GAS * (480 - 300)
    return {"T3": (480.0, "K"), "W": (w, "J"), "dU": (du, "J"), "Q": (du + w, "J")}


def _absorb() -> dict[str, tuple[float, str]]:
    # 10 GeV/c² nucleus, 1 MeV level: extra (1 MeV)²/(2*10 GeV) = 50 eV;
    # v = c*1.00005/10001.00005 = 29.977 km/s
    e_g = 1.0 * (1 + 1.0 / (2 * 10_000))  # MeV
    return {"shift": (1.0**2 / (2 * 10_000) * 1e6, "eV"), "v": (e_g * C / (10_000 + e_g), "m/s")}


EXAMPLES.update({
    "mechanics.pendulum_strikes_block_off_table": (
        {"m": "1 kg", "M": "0.5 kg", "L": "1 m", "theta": "60 deg", "H": "1 m", "g": "9.81 m/s^2"},
        _pendulum_block),
    "magnetism.velocity_selector_spectrometer": (
        {"E": "100 kV/m", "B1": "0.2 T", "B2": "0.5 T", "m1": "20 u", "dm": "2 u"}, _spectrometer),
    "electricity.electron_deflection_to_screen": (
        {"V_acc": "2 kV", "V_p": "100 V", "d": "10 mm", "l": "4 cm", "D": "20 cm"}, _crt),
    "thermo.two_step_process_heat": ({"n": "1 mol", "T1": "300 K", "r_V": "2", "r_p": "0.8"}, _two_steps),
    "relativity.photon_absorbed_by_atom": ({"M": "10 GeV/c^2", "dE": "1 MeV"}, _absorb),
})


def _rough_spring() -> dict[str, tuple[float, str]]:
    # 1 kg at 2 m/s into k = 100 N/m with μ 0.3: ½kx² + 2.943x − 2 = 0 -> x = 0.17272 m;
    # back out: v = sqrt(4 − 4*0.3*9.81*0.17272) = 1.4024 m/s
    a, b, c = 0.5 * 100, 0.3 * 1 * 9.81, -0.5 * 1 * 2**2
    x = (-b + math.sqrt(b**2 - 4 * a * c)) / (2 * a)
    return {"x": (x * 100, "cm"), "v_back": (math.sqrt(2**2 - 4 * 0.3 * 9.81 * x), "m/s")}


def _millikan() -> dict[str, tuple[float, str]]:
    # 100 um/s, 900 kg/m³, 3 electrons: r = 0.96049 um, m = 3.3404e-15 kg, E = 68.18 kV/m
    r = math.sqrt(9 * 1.81e-5 * 100e-6 / (2 * 900 * 9.81))
    m = 4 / 3 * math.pi * r**3 * 900
    return {"r": (r * 1e6, "um"), "m": (m, "kg"), "E": (m * 9.81 / (3 * Q_E) / 1e3, "kV/m")}


EXAMPLES.update({
    "mechanics.block_spring_rough_floor": (
        {"m": "1 kg", "v0": "2 m/s", "k": "100 N/m", "mu": "0.3", "g": "9.81 m/s^2"}, _rough_spring),
    "electricity.millikan_oil_drop": ({"v_t": "100 um/s", "rho": "900 kg/m^3", "n": "3"}, _millikan),
})


def _incline_pulley() -> dict[str, tuple[float, str]]:
    # 2 kg on a 30° slope (μ 0.2) pulled by a hanging 5 kg: drag 2*(0.5 + 0.17321) = 1.3464 kg-equivalent;
    # a = (5 − 1.3464)*9.81/7 = 5.1202 m/s², T = 5*(9.81 − 5.1202) = 23.449 N
    s, c = math.sin(math.radians(30)), math.cos(math.radians(30))
    a = (5 - 2 * (s + 0.2 * c)) * 9.81 / 7
    return {"a": (a, "m/s^2"), "T": (5 * (9.81 - a), "N")}


def _rc_two_stage() -> dict[str, tuple[float, str]]:
    # 12 V, 100 uF, 10 kohm for 1 s (τ1 = 1 s): V1 = 12(1 − e^-1) = 7.5854 V;
    # then 20 kohm (τ2 = 2 s) for 1 s: V2 = 7.5854 e^-0.5 = 4.6008 V; ΔU = 50e-6*(57.539 − 21.167) = 1.8186 mJ
    v1 = 12 * (1 - math.exp(-1))
    v2 = v1 * math.exp(-0.5)
    return {"V1": (v1, "V"), "V2": (v2, "V"), "U_lost": (0.5 * 100e-6 * (v1**2 - v2**2) * 1e3, "mJ")}


def _finite_carnot() -> dict[str, tuple[float, str]]:
    # C 10 kJ/K, 900 K and 300 K: T_f = sqrt(270000) = 519.62 K; W = 10*(1200 − 1039.23) = 1607.7 kJ
    tf = math.sqrt(900 * 300)
    return {"T_f": (tf, "K"), "W": (10 * (900 + 300 - 2 * tf), "kJ")}


EXAMPLES.update({
    "mechanics.incline_pulley_friction": (
        {"m1": "2 kg", "m2": "5 kg", "theta": "30 deg", "mu_k": "0.2", "g": "9.81 m/s^2"}, _incline_pulley),
    "electricity.rc_charge_then_discharge": (
        {"E": "12 V", "C": "100 uF", "R1": "10 kohm", "R2": "20 kohm", "t1": "1 s", "t2": "1 s"},
        _rc_two_stage),
    "thermo.carnot_between_finite_bodies": ({"C": "10 kJ/K", "T_h": "900 K", "T_c": "300 K"}, _finite_carnot),
})

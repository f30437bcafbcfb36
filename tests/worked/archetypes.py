"""Worked examples of the twelve named hard archetypes (issue 10), computed by hand.

Each expected value is a plain-Python formula written from the physics, with
CODATA 2018 constants typed in below; the comments give the numbers worked out
on paper (to 4 figures) as a second check of the formulas themselves.
"""

from __future__ import annotations

import math
from collections.abc import Callable

H = 6.62607015e-34  # J s
HBAR = H / (2 * math.pi)
C = 299_792_458.0  # m/s
Q_E = 1.602176634e-19  # C
M_E = 9.1093837015e-31  # kg
EPS0 = 8.8541878128e-12  # F/m
K_B_EV = 8.617333262e-5  # eV/K
G = 9.81


def _rocket() -> dict[str, tuple[float, str]]:
    # v_e 2500 m/s, 1000 kg -> 300 kg in 30 s, g 9.81
    ln = math.log(1000 / 300)  # 1.2040
    v_b = 2500 * ln - G * 30  # 3010.0 - 294.3 = 2715.7 m/s
    h_b = 2500 * 30 * (1 - 300 / 700 * ln) - G * 30**2 / 2  # 75000*(0.48400) - 4414.5 = 31886 m
    # coast in the inverse-square field: 1/(R + h_max) = 1/(R + h_b) - v_b²/(2 GM)
    gm, r_e = 3.986e14, 6.371e6
    h_max = 1 / (1 / (r_e + h_b) - v_b**2 / (2 * gm)) - r_e  # 435015 m (uniform g: 407780 m)
    return {"v_b": (v_b, "m/s"), "h_b": (h_b / 1000, "km"), "h_max": (h_max / 1000, "km")}


def _barrier() -> dict[str, tuple[float, str]]:
    # E 2 eV, V0 5 eV, a 0.1 nm: kappa = sqrt(2 m_e 3 eV)/hbar = 8.873e9 /m, kappa a = 0.8873
    e, v0, a = 2 * Q_E, 5 * Q_E, 0.1e-9
    kappa = math.sqrt(2 * M_E * (v0 - e)) / HBAR
    t = 1 / (1 + v0**2 * math.sinh(kappa * a) ** 2 / (4 * e * (v0 - e)))  # sinh² = 1.0165; T = 0.4857
    return {"T": (t, "")}


def _well() -> dict[str, tuple[float, str]]:
    # L 1 nm, 3 -> 1: E1 = h²/(8 m_e L²) = 0.3760 eV, E = 8 E1 = 3.008 eV, lambda = 412.2 nm
    e1 = H**2 / (8 * M_E * (1e-9) ** 2)
    e_ph = (9 - 1) * e1
    return {"E_photon": (e_ph / Q_E, "eV"), "wavelength": (H * C / e_ph * 1e9, "nm")}


def _ballistic() -> dict[str, tuple[float, str]]:
    # 10 g at 300 m/s into 2 kg on a 1.5 m string: v = 3/2.01 = 1.4925 m/s, h = 0.11354 m, theta = 22.38°
    v = 0.010 * 300 / 2.010
    h = v**2 / (2 * G)
    theta = math.degrees(math.acos(1 - h / 1.5))
    return {"v": (v, "m/s"), "h": (h * 100, "cm"), "theta": (theta, "deg")}


def _sphere() -> dict[str, tuple[float, str]]:
    # h 30 cm, H 1.2 m: v = sqrt(10*9.81*0.3/7) = 2.0496 m/s, t = 0.49462 s, x = 1.0138 m
    v = math.sqrt(10 * G * 0.30 / 7)
    return {"v": (v, "m/s"), "x": (v * math.sqrt(2 * 1.2 / G), "m")}


def _two_lenses() -> dict[str, tuple[float, str]]:
    # f1 10, f2 15, d 50, s1 30 (cm): s1' = 15, s2 = 35, s2' = 1/(1/15 - 1/35) = 26.25,
    # m = (-0.5)(-0.75) = 0.375
    s1p = 1 / (1 / 10 - 1 / 30)
    s2 = 50 - s1p
    s2p = 1 / (1 / 15 - 1 / s2)
    return {"s2_image": (s2p, "cm"), "m_total": ((-s1p / 30) * (-s2p / s2), "")}


def _diesel() -> dict[str, tuple[float, str]]:
    # r 18, r_c 2, gamma 1.4: 18^0.4 = 3.1777, (2^1.4 - 1)/(1.4*1) = 1.6390/1.4 = 1.1707;
    # eta = 1 - 1.1707/3.1777 = 1 - 0.36842 = 0.6316
    eta = 1 - (2**1.4 - 1) / (1.4 * (2 - 1) * 18**0.4)
    return {"efficiency": (eta, "")}


def _dielectric() -> dict[str, tuple[float, str]]:
    # A 200 cm², d 2 mm, V0 300 V, kappa 4: C0 = 88.54 pF, V = 75 V,
    # dU = 0.5*88.54e-12*9e4*(-0.75) = -2.988 uJ
    c0 = EPS0 * 200e-4 / 2e-3
    return {"C0": (c0 * 1e12, "pF"), "V": (75.0, "V"), "dU": (0.5 * c0 * 300**2 * (1 / 4 - 1) * 1e6, "uJ")}


def _rail() -> dict[str, tuple[float, str]]:
    # E 6 V, B 0.5 T, L 0.2 m, R 0.5 ohm, m 50 g, t 2 s: v_t = 60 m/s, tau = 0.025/0.01 = 2.5 s,
    # v = 60 (1 - e^-0.8) = 33.04 m/s
    v_t = 6 / (0.5 * 0.2)
    tau = 0.050 * 0.5 / (0.5 * 0.2) ** 2
    return {"v_t": (v_t, "m/s"), "tau": (tau, "s"), "v": (v_t * (1 - math.exp(-2 / tau)), "m/s")}


def _two_level() -> dict[str, tuple[float, str]]:
    # dE 25 meV at 300 K: kT = 25.852 meV, ratio = exp(-0.96704) = 0.38022, fraction = 0.27548
    r = math.exp(-0.025 / (K_B_EV * 300))
    return {"ratio": (r, ""), "fraction_upper": (r / (1 + r), "")}


def _merge() -> dict[str, tuple[float, str]]:
    # m 938 MeV/c², v 0.8c: gamma = 5/3, M = 2*(5/3)*938 = 3126.7 MeV/c²
    gamma = 1 / math.sqrt(1 - 0.8**2)
    return {"gamma": (gamma, ""), "M": (2 * gamma * 938, "MeV/c^2")}


def _doppler() -> dict[str, tuple[float, str]]:
    # 600 THz receding at 0.5c: f = 600 * sqrt(0.5/1.5) = 346.41 THz
    return {"f_obs": (600 * math.sqrt(0.5 / 1.5), "THz")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.rocket_vertical_burn": (
        {"v_e": "2500 m/s", "m0": "1000 kg", "m_f": "300 kg", "t_b": "30 s", "g": "9.81 m/s^2"}, _rocket),
    "quantum.rectangular_barrier_transmission": ({"E": "2 eV", "V0": "5 eV", "a": "0.1 nm"}, _barrier),
    "quantum.infinite_well_transition": ({"L": "1 nm", "n_i": "3", "n_f": "1"}, _well),
    "mechanics.ballistic_pendulum": (
        {"m": "10 g", "M": "2 kg", "u": "300 m/s", "L": "1.5 m", "g": "9.81 m/s^2"}, _ballistic),
    "mechanics.sphere_rolls_off_table": ({"h": "30 cm", "H": "1.2 m", "g": "9.81 m/s^2"}, _sphere),
    "optics.two_lens_system": ({"f1": "10 cm", "f2": "15 cm", "d": "50 cm", "s1": "30 cm"}, _two_lenses),
    "thermo.diesel_cycle_efficiency": ({"r": "18", "r_c": "2", "gamma": "1.4"}, _diesel),
    "electricity.dielectric_insert_isolated": (
        {"A": "200 cm^2", "d": "2 mm", "V0": "300 V", "kappa": "4"}, _dielectric),
    "magnetism.rail_launcher_speed": (
        {"E": "6 V", "B": "0.5 T", "L": "0.2 m", "R": "0.5 ohm", "m": "50 g", "t": "2 s"}, _rail),
    "statmech.two_level_population": ({"dE": "25 meV", "T": "300 K"}, _two_level),
    "relativity.relativistic_inelastic_merge": ({"m": "938 MeV/c^2", "v": "0.8 c"}, _merge),
    "relativity.doppler_receding": ({"f_src": "600 THz", "v": "0.5 c"}, _doppler),
}

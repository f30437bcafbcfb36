"""Worked examples of the quantum, statistical-mechanics and relativity templates beyond the
archetypes, computed by hand (CODATA 2018 constants typed in; paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

HBAR = 6.62607015e-34 / (2 * math.pi)  # J s
C = 299_792_458.0  # m/s
Q_E = 1.602176634e-19  # C
M_E = 9.1093837015e-31  # kg
U = 1.66053906660e-27  # kg
R_GAS = 8.314462618  # J/(mol K)


def _step() -> dict[str, tuple[float, str]]:
    # E 6 eV over a 4 eV step: k1 = 1.2549e10 /m = 12.549 /nm, k2 = 7.2452 /nm,
    # T = 4*12.549*7.2452/(19.794)^2 = 363.68/391.80 = 0.9282
    k1 = math.sqrt(2 * M_E * 6 * Q_E) / HBAR
    k2 = math.sqrt(2 * M_E * 2 * Q_E) / HBAR
    return {"k1": (k1 * 1e-9, "1/nm"), "k2": (k2 * 1e-9, "1/nm"), "T": (4 * k1 * k2 / (k1 + k2) ** 2, "")}


def _oscillator() -> dict[str, tuple[float, str]]:
    # k 500 N/m, mu 1 u, n 1: omega = sqrt(500/1.6605e-27) = 5.4873e14 rad/s,
    # E_1 = 1.5*hbar*omega = 8.680e-20 J = 0.5418 eV, lambda = 2 pi c/omega = 3.4327 um
    w = math.sqrt(500 / (1.0 * U))
    return {"E_n": (1.5 * HBAR * w / Q_E, "eV"), "wavelength": (2 * math.pi * C / w * 1e6, "um")}


def _maxwell() -> dict[str, tuple[float, str]]:
    # N2 (28.0 g/mol) at 300 K: v_p = 422.0, <v> = 476.2, v_rms = 516.8 m/s
    m = 0.0280
    return {"v_p": (math.sqrt(2 * R_GAS * 300 / m), "m/s"),
            "v_mean": (math.sqrt(8 * R_GAS * 300 / (math.pi * m)), "m/s"),
            "v_rms": (math.sqrt(3 * R_GAS * 300 / m), "m/s")}


def _einstein() -> dict[str, tuple[float, str]]:
    # theta_E 300 K at 150 K: x = 2, C/3R = 4 e^2/(e^2 - 1)^2 = 29.556/40.820 = 0.7241, C = 18.06 J/(mol K)
    x = 2.0
    ratio = x**2 * math.exp(x) / (math.exp(x) - 1) ** 2
    return {"C": (3 * R_GAS * ratio, "J/(mol*K)"), "ratio": (ratio, "")}


def _mixing() -> dict[str, tuple[float, str]]:
    # 1 mol + 3 mol: dS = -R (ln 0.25 + 3 ln 0.75) = R (1.3863 + 0.8630) = 18.70 J/K; per mole 4.675
    ds = -R_GAS * (1 * math.log(0.25) + 3 * math.log(0.75))
    return {"dS": (ds, "J/K"), "dS_per_mole": (ds / 4, "J/(mol*K)")}


def _addition() -> dict[str, tuple[float, str]]:
    # 0.6c + 0.5c: w = 1.1/1.3 = 0.84615c, gamma = 1/sqrt(1 - 0.71598) = 1.8764
    w = 1.1 / 1.3
    return {"w": (w, "c"), "gamma_w": (1 / math.sqrt(1 - w**2), "")}


def _threshold() -> dict[str, tuple[float, str]]:
    # X of 135.0 MeV: E_cm = 2011.544 MeV, E_beam = (2011.544^2 - 2*938.272^2)/(2*938.272) = 1218.0 MeV,
    # K = 279.7 MeV
    mp, mx = 938.272, 135.0
    e_beam = ((2 * mp + mx) ** 2 - 2 * mp**2) / (2 * mp)
    return {"E_cm": (2 * mp + mx, "MeV"), "E_beam": (e_beam, "MeV"), "K_th": (e_beam - mp, "MeV")}


def _decay() -> dict[str, tuple[float, str]]:
    # pion 139.57 -> muon 105.66 (MeV): p = (19479.8 - 11164.0)/279.14 = 29.79 MeV/c,
    # E = (19479.8 + 11164.0)/279.14 = 109.78 MeV, K = 4.12 MeV, v = 0.2714 c
    big, small = 139.57, 105.66
    p = (big**2 - small**2) / (2 * big)
    e = (big**2 + small**2) / (2 * big)
    return {"p": (p, "MeV/c"), "E_m": (e, "MeV"), "K_m": (e - small, "MeV"), "v_m": (p / e, "c")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "quantum.finite_step_reflection": ({"E": "6 eV", "V0": "4 eV"}, _step),
    "quantum.harmonic_oscillator_photon": ({"k": "500 N/m", "mu": "1 u", "n": "1"}, _oscillator),
    "statmech.maxwell_speeds": ({"T": "300 K", "M": "28.0 g/mol"}, _maxwell),
    "statmech.einstein_solid_heat_capacity": ({"theta_E": "300 K", "T": "150 K"}, _einstein),
    "statmech.entropy_of_mixing": ({"n1": "1 mol", "n2": "3 mol"}, _mixing),
    "relativity.velocity_addition": ({"v": "0.6 c", "u": "0.5 c"}, _addition),
    "relativity.pion_threshold": ({"m_x": "135.0 MeV/c^2"}, _threshold),
    "relativity.two_body_decay_at_rest": ({"M": "139.57 MeV/c^2", "m": "105.66 MeV/c^2"}, _decay),
}

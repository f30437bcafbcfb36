"""Worked examples of the harder electricity, optics, thermodynamics and oscillation templates added
for the frontier catalog, computed by hand (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

K_E = 8.9875517923e9  # N m² C⁻²


def _sharing() -> dict[str, tuple[float, str]]:
    # 10 uF at 100 V joined to 30 uF: Q = 1 mC, V = 25 V; lost 0.5e-5*1e4 - 0.5*4e-5*625 = 50 - 12.5 = 37.5 mJ
    c1, c2, v0 = 10e-6, 30e-6, 100.0
    v = c1 * v0 / (c1 + c2)
    return {"V": (v, "V"), "U_lost": ((0.5 * c1 * v0**2 - 0.5 * (c1 + c2) * v**2) * 1e3, "mJ")}


def _sphere() -> dict[str, tuple[float, str]]:
    # 10 nC in a 10 cm ball, 5 cm in: E = 4.4938 kN/C; surface 8.9876 kN/C; V(0) = 1.3481 kV
    q, big_r, r = 10e-9, 0.10, 0.05
    return {"E_in": (K_E * q * r / big_r**3 / 1e3, "kN/C"), "E_surface": (K_E * q / big_r**2 / 1e3, "kN/C"),
            "V_center": (1.5 * K_E * q / big_r / 1e3, "kV")}


def _loop() -> dict[str, tuple[float, str]]:
    # 20 g, 0.1 ohm, 1 T, 10 cm: v_t = 0.19620*0.1/0.01 = 1.962 m/s, I = 1.962 A, P = 0.38494 W
    w = 0.020 * 9.81
    v_t = w * 0.1 / (1.0 * 0.10) ** 2
    current = w / (1.0 * 0.10)
    return {"v_t": (v_t, "m/s"), "I": (current, "A"), "P": (w * v_t, "W")}


def _film() -> dict[str, tuple[float, str]]:
    # MgF2 (1.38) on crown glass (1.52) at 550 nm: 199.28 nm bright, 99.64 nm dark
    return {"t_min_bright": (550 / (2 * 1.38), "nm"), "t_min_dark": (550 / (4 * 1.38), "nm")}


def _mixing() -> dict[str, tuple[float, str]]:
    # 1 kg at 80 °C with 1 kg at 20 °C: 50 °C; dS = 4186 (ln(323.15/353.15) + ln(323.15/293.15)) = 36.22 J/K
    tf = 323.15
    return {"T_f": (50.0, "degC"), "dS": (4186 * (math.log(tf / 353.15) + math.log(tf / 293.15)), "J/K")}


def _driven() -> dict[str, tuple[float, str]]:
    # m 1, k 100, b 10, F0 5, w 8: k - m w² = 36, b w = 80, A = 5/87.727 = 5.6995 cm, phi = 65.77°
    return {"omega0": (10.0, "rad/s"), "A": (5 / math.hypot(36, 80) * 100, "cm"),
            "phi": (math.degrees(math.atan2(80, 36)), "deg")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "electricity.capacitor_charge_sharing": ({"C1": "10 uF", "C2": "30 uF", "V0": "100 V"}, _sharing),
    "electricity.uniform_sphere_gauss": ({"Q": "10 nC", "R": "10 cm", "r": "5 cm"}, _sphere),
    "magnetism.falling_loop_terminal_speed": (
        {"m": "20 g", "R": "0.1 ohm", "B": "1 T", "L": "10 cm", "g": "9.81 m/s^2"}, _loop),
    "optics.thin_film_reflection": ({"wavelength": "550 nm", "n_f": "1.38", "n_s": "1.52"}, _film),
    "thermo.mixing_water_entropy": (
        {"m1": "1 kg", "T1": "80 degC", "m2": "1 kg", "T2": "20 degC", "c": "4186 J/(kg*K)"}, _mixing),
    "waves.driven_oscillator_amplitude": (
        {"m": "1 kg", "k": "100 N/m", "b": "10 kg/s", "F0": "5 N", "omega": "8 rad/s"}, _driven),
}

"""Worked examples of the algebraic (derivation) templates added for the frontier catalog: the
answer is an expression; here it is checked at one point, with the numbers worked by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

K_E = 8.9875517923e9  # N m² C⁻²
MU0 = 1.25663706212e-6  # T m/A
HBAR = 1.054571817e-34  # J s


def _chain() -> dict[str, tuple[float, str]]:
    # L 2 m, a 0.5 m, g 9.8: drop of the centre of mass gives v² = g (L² − a²)/L = 18.375, v = 4.2866 m/s
    return {"v": (math.sqrt(9.8 * (2**2 - 0.5**2) / 2), "m/s")}


def _bead() -> dict[str, tuple[float, str]]:
    # omega 10 rad/s, R 0.3 m, g 9.8: cos θ = 9.8/30 = 0.32667, θ = 70.93°
    return {"theta": (math.degrees(math.acos(9.8 / (10**2 * 0.3))), "deg")}


def _rc_split() -> dict[str, tuple[float, str]]:
    # 10 uF to 12 V: battery Q E = 1.2e-4 * 12 = 1.44 mJ; stored and dissipated 0.72 mJ each
    return {"W_battery": (1.44e-3, "J"), "U_C": (0.72e-3, "J"), "Q_R": (0.72e-3, "J")}


def _ring() -> dict[str, tuple[float, str]]:
    # 10 nC, R 5 cm, z 12 cm: distance 13 cm; E = 89.8755*0.12/0.002197 = 4909.0 N/C, V = 691.35 V
    return {"E": (K_E * 10e-9 * 0.12 / 0.13**3, "N/C"), "V": (K_E * 10e-9 / 0.13, "V")}


def _loop() -> dict[str, tuple[float, str]]:
    # 5 A, R 10 cm, z 10 cm: B = mu0*5*0.01/(2*0.02^1.5) = 11.107 uT
    return {"B": (MU0 * 5 * 0.10**2 / (2 * (0.10**2 + 0.10**2) ** 1.5) * 1e6, "uT")}


def _adiabatic() -> dict[str, tuple[float, str]]:
    # 200 kPa, 2 L -> 10 L, γ 1.4: p2 = 200*0.2^1.4 = 21.012 kPa; W = 400 J*(1 - 0.2^0.4)/0.4 = 474.69 J
    p2 = 200 * 0.2**1.4
    work = (200e3 * 2e-3 - p2 * 1e3 * 10e-3) / 0.4  # (p1 V1 − p2 V2)/(γ − 1)
    return {"p2": (p2, "kPa"), "W": (work, "J")}


def _echo() -> dict[str, tuple[float, str]]:
    # 1000 Hz, wall at 30 m/s, c 340: the wall hears 1088.24 Hz, re-emits 1088.24*340/310 = 1193.55 Hz
    heard = 1000 * (340 + 30) / 340
    echo = heard * 340 / (340 - 30)
    return {"f_echo": (echo, "Hz"), "f_beat": (echo - 1000, "Hz")}


def _well() -> dict[str, tuple[float, str]]:
    # L 1 nm, n 1: <x²> = 1/3 − 1/(2π²) = 0.28267 nm², Δx = sqrt(0.28267 − 0.25) = 0.18075 nm,
    # Δp = πħ/L, product = 0.18075*π*ħ = 5.988e-35 J s
    x2 = 1 / 3 - 1 / (2 * math.pi**2)
    dx = math.sqrt(x2 - 0.25)
    return {"x2": (x2, "nm^2"), "dx": (dx, "nm"), "dxdp": (dx * 1e-9 * math.pi * HBAR / 1e-9, "J*s")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.chain_sliding_off_table": ({"L": "2 m", "a": "0.5 m", "g": "9.8 m/s^2"}, _chain),
    "mechanics.bead_on_rotating_hoop": ({"omega": "10 rad/s", "R": "0.3 m", "g": "9.8 m/s^2"}, _bead),
    "electricity.rc_charging_energy_split": ({"C": "10 uF", "E": "12 V", "R": "100 ohm"}, _rc_split),
    "electricity.ring_axis_field": ({"Q": "10 nC", "R": "5 cm", "z": "12 cm"}, _ring),
    "magnetism.loop_axis_field": ({"I": "5 A", "R": "10 cm", "z": "10 cm"}, _loop),
    "thermo.adiabatic_work_symbolic": (
        {"p1": "200 kPa", "V1": "2 L", "V2": "10 L", "gamma": "1.4"}, _adiabatic),
    "waves.doppler_echo_moving_wall": ({"f": "1000 Hz", "u": "30 m/s", "c": "340 m/s"}, _echo),
    "quantum.well_expectation_x_squared": ({"L": "1 nm", "n": "1"}, _well),
}

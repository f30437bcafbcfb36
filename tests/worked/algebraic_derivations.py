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

G_N = 6.67430e-11  # m³ kg⁻¹ s⁻²
EPS0 = 8.8541878128e-12  # F/m


def _escape() -> dict[str, tuple[float, str]]:
    # 6e24 kg, 7000 km: v = 7563.6 m/s, dv = 0.41421*7563.6 = 3132.9 m/s
    v = math.sqrt(G_N * 6e24 / 7e6)
    return {"dv": ((math.sqrt(2) - 1) * v / 1000, "km/s")}


def _atwood_disk() -> dict[str, tuple[float, str]]:
    # 3 kg and 1 kg over a 2 kg disk, g 9.8: a = 19.6/5 = 3.92 m/s², T1 = 3*5.88 = 17.64 N, T2 = 13.72 N
    a = (3 - 1) * 9.8 / (3 + 1 + 2 / 2)
    return {"a": (a, "m/s^2"), "T1": (3 * (9.8 - a), "N"), "T2": (1 * (9.8 + a), "N")}


def _rolling() -> dict[str, tuple[float, str]]:
    # β 0.5 (a cylinder), 30°, g 9.8, 2 kg: a = 4.9/1.5 = 3.2667 m/s², f = β m a = 3.2667 N
    a = 9.8 * 0.5 / 1.5
    return {"a": (a, "m/s^2"), "f": (0.5 * 2 * a, "N")}


def _coax() -> dict[str, tuple[float, str]]:
    # a 1 mm, b 4 mm, 10 m, κ 2.5: C = 2π*2.5*ε₀*10/ln 4 = 1.3908e-9/1.3863 = 1.0033 nF
    return {"C": (2 * math.pi * 2.5 * EPS0 * 10 / math.log(4) * 1e9, "nF")}


def _spherical() -> dict[str, tuple[float, str]]:
    # a 5 cm, b 15 cm: C = 4π ε₀ (0.05*0.15/0.10) = 8.3449 pF; alone 4π ε₀ 0.05 = 5.5633 pF
    return {"C": (4 * math.pi * EPS0 * 0.05 * 0.15 / 0.10 * 1e12, "pF"),
            "C_iso": (4 * math.pi * EPS0 * 0.05 * 1e12, "pF")}


EXAMPLES.update({
    "mechanics.escape_from_orbit_symbolic": ({"M": "6e24 kg", "r": "7000 km"}, _escape),
    "mechanics.atwood_massive_pulley_symbolic": (
        {"m1": "3 kg", "m2": "1 kg", "M": "2 kg", "g": "9.8 m/s^2"}, _atwood_disk),
    "mechanics.rolling_incline_general_symbolic": (
        {"beta": "0.5", "theta": "30 deg", "g": "9.8 m/s^2", "m": "2 kg"}, _rolling),
    "electricity.coaxial_capacitance_symbolic": (
        {"a": "1 mm", "b": "4 mm", "l": "10 m", "kappa": "2.5"}, _coax),
    "electricity.spherical_capacitor_symbolic": ({"a": "5 cm", "b": "15 cm"}, _spherical),
})

Q_E = 1.602176634e-19  # C
K_B = 1.380649e-23  # J/K


def _solenoid() -> dict[str, tuple[float, str]]:
    # 500 turns, 4 cm², 25 cm, 2 A: L = μ₀*250000*4e-4/0.25 = 0.50265 mH, U = 0.5*L*4 = 1.0053 mJ
    big_l = 1.25663706212e-6 * 500**2 * 4e-4 / 0.25
    return {"L": (big_l * 1e3, "mH"), "U": (0.5 * big_l * 2**2 * 1e3, "mJ")}




def _kinetic() -> dict[str, tuple[float, str]]:
    # proton at 1000 MeV/c: E = sqrt(1e6 + 938.272²) = 1371.26 MeV, K = 432.99 MeV, v = 0.72926 c
    e = math.sqrt(1000**2 + 938.272**2)
    return {"E": (e, "MeV"), "K": (e - 938.272, "MeV"), "v": (1000 / e, "c")}


def _threshold() -> dict[str, tuple[float, str]]:
    # pion (139.57) on a proton (938.272) at rest, products 2500 MeV/c²:
    # E = (6.25e6 − 19479.8 − 880354.3)/1876.544 = 2851.1 MeV, K = 2711.5 MeV
    e = (2500**2 - 139.57**2 - 938.272**2) / (2 * 938.272)
    return {"E_a": (e, "MeV"), "K_th": (e - 139.57, "MeV")}


EXAMPLES.update({
    "magnetism.solenoid_inductance_symbolic": (
        {"N": "500", "A": "4 cm^2", "l": "25 cm", "I": "2 A"}, _solenoid),
    "relativity.kinetic_from_momentum_symbolic": ({"p": "1000 MeV/c", "m": "938.272 MeV/c^2"}, _kinetic),
    "relativity.threshold_energy_symbolic": (
        {"m_a": "139.57 MeV/c^2", "m_b": "938.272 MeV/c^2", "M": "2500 MeV/c^2"}, _threshold),
})

R_GAS = 8.314462618  # J/(mol K)


def _apparent() -> dict[str, tuple[float, str]]:
    # 10 cm of water (1.33) on 12 cm of a dense liquid (1.70): 7.5188 + 7.0588 = 14.578 cm
    return {"d_app": (10 / 1.33 + 12 / 1.70, "cm")}


def _free_expansion() -> dict[str, tuple[float, str]]:
    # 2 mol, 5 L -> 20 L: ΔS = 2*8.3145*ln 4 = 23.053 J/K, all of it the universe's
    ds = 2 * R_GAS * math.log(4)
    return {"dS": (ds, "J/K"), "dS_univ": (ds, "J/K")}


def _zero_point() -> dict[str, tuple[float, str]]:
    # m 1e-27 kg, ω 1e14 rad/s: Δx = sqrt(ħ/2e-13) = 22.963 pm, E = ħω/2 = 5.2729e-21 J
    return {"dx": (math.sqrt(HBAR / (2 * 1e-27 * 1e14)) * 1e12, "pm"), "E_min": (HBAR * 1e14 / 2, "J")}


def _launch() -> dict[str, tuple[float, str]]:
    # 3 km/s from a 6e23 kg, 3000 km world: GM = 4.0046e13; h = 8.1e19/(8.0092e13 − 2.7e13) = 1525.7 km
    gm = G_N * 6e23
    return {"h": (3e3**2 * 3e6**2 / (2 * gm - 3e3**2 * 3e6) / 1e3, "km")}


def _rod() -> dict[str, tuple[float, str]]:
    # 0.5 T, 20 rad/s, 1 m: emf = 0.5*0.5*20*1 = 5 V
    return {"emf": (0.5 * 0.5 * 20 * 1**2, "V")}


EXAMPLES.update({
    "optics.apparent_depth_two_layers_symbolic": (
        {"d1": "10 cm", "n1": "1.33", "d2": "12 cm", "n2": "1.70"}, _apparent),
    "thermo.free_expansion_entropy_symbolic": ({"n": "2 mol", "V1": "5 L", "V2": "20 L"}, _free_expansion),
    "quantum.zero_point_energy_symbolic": ({"m": "1e-27 kg", "omega": "1e14 rad/s"}, _zero_point),
    "mechanics.vertical_launch_variable_gravity_symbolic": (
        {"v": "3 km/s", "M": "6e23 kg", "R": "3000 km"}, _launch),
    "magnetism.rotating_rod_emf_symbolic": ({"B": "0.5 T", "omega": "20 rad/s", "L": "1 m"}, _rod),
})

A0_PM = 52.917721090  # pm


def _cone() -> dict[str, tuple[float, str]]:
    # l 2, m 1: |L| = sqrt(6) ħ = 2.5832e-34 J s, θ = acos(1/sqrt 6) = 65.905°
    return {"L": (HBAR * math.sqrt(6), "J*s"), "theta": (math.degrees(math.acos(1 / math.sqrt(6))), "deg")}


def _mean_radius() -> dict[str, tuple[float, str]]:
    # n 3, l 1: <r> = a0 (27 − 2)/2 = 12.5 a0 = 661.47 pm; E = −13.6057/9 = −1.5117 eV
    return {"r_mean": (12.5 * A0_PM, "pm"), "E": (-13.6057 / 9, "eV")}


def _quartic() -> dict[str, tuple[float, str]]:
    # λ 1e11 J/m⁴, m 2e-27 kg, ω 5e13 rad/s, n 1: (ħ/2mω)² = 2.7803e-43 m⁴,
    # ΔE = 3e11*2.7803e-43*5 = 4.1704e-31 J
    s = HBAR / (2 * 2e-27 * 5e13)
    return {"dE": (3 * 1e11 * s**2 * (2 + 2 + 1), "J")}




EXAMPLES.update({
    "quantum.angular_momentum_cone_symbolic": ({"l": "2", "m_l": "1"}, _cone),
    "quantum.hydrogen_mean_radius_symbolic": ({"n": "3", "l": "1"}, _mean_radius),
    "quantum.quartic_perturbation_oscillator_symbolic": (
        {"lam": "1e11 J/m^4", "m": "2e-27 kg", "omega": "5e13 rad/s", "n": "1"}, _quartic),
})


def _string() -> dict[str, tuple[float, str]]:
    # 440 Hz as the 2nd harmonic of a 0.65 m string of 1.2 g/m: v = 286 m/s, T = 0.0012*81796 = 98.155 N
    return {"T": (0.0012 * (2 * 0.65 * 440 / 2) ** 2, "N")}


def _dipole() -> dict[str, tuple[float, str]]:
    # ±5 nC, 2 cm apart, 4 cm from the centre: E = 44.938*(1111.1 − 400) = 31.956 kN/C; far field 28.086 kN/C
    kq = 8.9875517923e9 * 5e-9
    return {"E": (kq * (1 / 0.03**2 - 1 / 0.05**2) / 1e3, "kN/C"),
            "E_far": (2 * kq * 0.02 / 0.04**3 / 1e3, "kN/C")}


def _vdw() -> dict[str, tuple[float, str]]:
    # CO2 (a 0.364, b 4.27e-5), 2 mol in 1 L at 300 K: 5.4545 MPa − 1.456 MPa = 3998.5 kPa; ideal 4988.7 kPa
    nrt = 2 * R_GAS * 300
    return {"p": ((nrt / (1e-3 - 2 * 4.27e-5) - 0.364 * 4 / 1e-6) / 1e3, "kPa"),
            "p_ideal": (nrt / 1e-3 / 1e3, "kPa")}


def _damped() -> dict[str, tuple[float, str]]:
    # 1 kg, 100 N/m, b 12 kg/s: ω_d = sqrt(100 − 36) = 8 rad/s, t½ = 2 ln 2/12 = 0.11552 s
    return {"omega_d": (8.0, "rad/s"), "t_half": (2 * math.log(2) / 12, "s")}


EXAMPLES.update({
    "waves.string_tension_for_frequency_symbolic": (
        {"f": "440 Hz", "n": "2", "L": "0.65 m", "mu": "1.2 g/m"}, _string),
    "electricity.dipole_axis_field_symbolic": ({"q": "5 nC", "d": "2 cm", "r": "4 cm"}, _dipole),
    "thermo.van_der_waals_pressure_symbolic": (
        {"n": "2 mol", "T": "300 K", "V": "1 L", "a": "0.364 Pa*m^6/mol^2", "b": "4.27e-5 m^3/mol"}, _vdw),
    "mechanics.damped_oscillator_decay_symbolic": ({"m": "1 kg", "k": "100 N/m", "b": "12 kg/s"}, _damped),
})

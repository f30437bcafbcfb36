"""One worked example per template, computed independently of the library.

Expected values come from plain-Python formulas written here, with CODATA 2018
constants typed in by hand (not taken from Pint or from the template files).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest

import physgen
from tests import worked

G = 6.67430e-11  # m^3 kg^-1 s^-2
K_E = 8.9875517923e9  # N m^2 C^-2
EPS0 = 8.8541878128e-12  # F/m
H = 6.62607015e-34  # J s
C = 299_792_458.0  # m/s
Q_E = 1.602176634e-19  # C
U = 1.66053906660e-27  # kg
R_GAS = 8.314462618  # J/(mol K)
R_INF = 10_973_731.568160  # 1/m
MU0 = 1.25663706212e-6  # N/A^2
K_B = 1.380649e-23  # J/K
M_E = 9.1093837015e-31  # kg
HBAR = 1.054571817e-34  # J s
M_SUN = 1.98847e30  # kg (IAU 2015 nominal)
AU = 1.495978707e11  # m
SIGMA_SB = 5.670374419e-8  # W m^-2 K^-4
g = 9.81


def _kepler_E(M: float, e: float) -> float:
    """Bisection on E − e sin E − M (independent of the library's Newton solver)."""
    lo, hi = 0.0, 2 * math.pi
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid - e * math.sin(mid) - M > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def _two_sources() -> dict[str, tuple[float, str]]:
    """Branch currents by Cramer's rule on E1 = I1 R1 + (I1+I2) R3, E2 = I2 R2 + (I1+I2) R3."""
    e1, e2, r1, r2, r3 = 20.0, 4.0, 2.0, 3.0, 4.0
    a, b, c, d = r1 + r3, r3, r3, r2 + r3
    det = a * d - b * c
    i1 = (e1 * d - b * e2) / det
    i2 = (a * e2 - c * e1) / det
    return {"V": ((i1 + i2) * r3, "V"), "I3": (i1 + i2, "A"), "I1": (i1, "A"), "I2": (i2, "A")}


def _rlc() -> dict[str, tuple[float, str]]:
    """Series RLC with complex arithmetic: Z = R + j(ωL − 1/ωC)."""
    w = 2 * math.pi * 60
    z = complex(100, w * 0.1 - 1 / (w * 10e-6))
    return {"Z": (abs(z), "ohm"), "I_rms": (120 / abs(z) * 1e3, "mA"),
            "phi": (math.degrees(math.atan2(z.imag, z.real)), "deg")}


def _kepler() -> dict[str, tuple[float, str]]:
    E = _kepler_E(2 * math.pi * 2.5 / 10.0, 0.3)
    return {"E": (math.degrees(E), "deg"), "r": (20000 * (1 - 0.3 * math.cos(E)), "km")}


s30 = math.sin(math.radians(30))
c30 = math.cos(math.radians(30))
m_p = 1.007276 * U

# id -> (inputs given to solve, expected answers as (value, unit))
EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.projectile_range": (
        {"v0": "20 m/s", "theta": "30 deg"},
        lambda: {"R": (400 * math.sin(math.radians(60)) / g, "m"),
                 "t_flight": (2 * 20 * s30 / g, "s"), "h_max": ((20 * s30) ** 2 / (2 * g), "m")},
    ),
    "mechanics.simple_pendulum_period": (
        {"L": "100 cm"}, lambda: {"T": (2 * math.pi * math.sqrt(1 / g), "s")},
    ),
    "mechanics.spring_mass_period_symbolic": (
        {"m": "0.5 kg", "k": "200 N/m"},
        lambda: {"omega": (20.0, "rad/s"), "T": (2 * math.pi / 20, "s")},
    ),
    "mechanics.atwood_machine": (
        {"m1": "2 kg", "m2": "800 g"},
        lambda: {"a": (1.2 * g / 2.8, "m/s^2"), "T": (2 * 2 * 0.8 * g / 2.8, "N")},
    ),
    "mechanics.incline_friction_acceleration": (
        {"theta": "30 deg", "mu_k": "0.2"}, lambda: {"a": (g * (s30 - 0.2 * c30), "m/s^2")},
    ),
    "mechanics.elastic_collision_1d": (
        {"m1": "500 g", "m2": "1.5 kg", "u1": "2 m/s"},
        lambda: {"v1": (-1.0, "m/s"), "v2": (1.0, "m/s")},
    ),
    "mechanics.circular_orbit": (
        {"M": "5.972e24 kg", "r": "42164 km"},
        lambda: {"v": (math.sqrt(G * 5.972e24 / 4.2164e7) / 1e3, "km/s"),
                 "T": (2 * math.pi * 4.2164e7 / math.sqrt(G * 5.972e24 / 4.2164e7) / 3600, "h")},
    ),
    "mechanics.braking_distance": (
        {"v0": "90 km/h", "mu_k": "0.7"}, lambda: {"d": (625 / (2 * 0.7 * g), "m")},
    ),
    "mechanics.kepler_orbit_position": (
        {"a": "20000 km", "e": "0.3", "P": "10 h", "t": "150 min"}, _kepler,
    ),
    "fluids.torricelli_efflux": ({"h": "5 m"}, lambda: {"v": (math.sqrt(2 * g * 5), "m/s")}),
    "electricity.coulomb_force": (
        {"q1": "20 nC", "q2": "-30 nC", "r": "10 cm"}, lambda: {"F": (K_E * 6e-16 / 0.01 * 1e3, "mN")},
    ),
    "electricity.parallel_plate_capacitor": (
        {"A": "100 cm^2", "d": "1 mm", "V": "12 V"},
        lambda: {"C": (EPS0 * 0.01 / 0.001 * 1e12, "pF"), "Q": (EPS0 * 10 * 12 * 1e9, "nC"),
                 "U": (0.5 * EPS0 * 10 * 144 * 1e9, "nJ")},
    ),
    "electricity.series_parallel_resistors": (
        {"R1": "100 ohm", "R2": "200 ohm", "R3": "0.3 kohm", "V": "12 V"},
        lambda: {"R_eq": (220.0, "ohm"), "I": (12 / 220 * 1000, "mA")},
    ),
    "electricity.dc_motor_losses": (
        {"I": "23.7 A", "V": "120 V", "F": "4200 N", "d": "6.44 m", "t": "30.7 s"},
        lambda: {"P_motor": (2844.0, "W"), "P_lift": (4200 * 6.44 / 30.7, "W"),
                 "R": ((2844 - 4200 * 6.44 / 30.7) / 23.7**2, "ohm")},
    ),
    "magnetism.cyclotron_motion": (
        {"m": "12 u", "v": "1e5 m/s", "q": "1 e", "B": "0.5 T"},
        lambda: {"r": (12 * U * 1e5 / (Q_E * 0.5) * 100, "cm"),
                 "f": (Q_E * 0.5 / (2 * math.pi * 12 * U) / 1000, "kHz")},
    ),
    "thermo.ideal_gas_pressure": (
        {"n": "1 mol", "T": "25 degC", "V": "22.414 L"},
        lambda: {"P": (R_GAS * 298.15 / 0.022414 / 1000, "kPa")},
    ),
    "thermo.carnot_efficiency": ({"T_h": "500 K", "T_c": "300 K"}, lambda: {"eta": (40.0, "percent")}),
    "thermo.calorimetry_mixing": (
        {"m1": "1.5 kg", "c1": "900 J/(kg*K)", "T1": "90 degC", "m2": "1 kg", "c2": "4186 J/(kg*K)",
         "T2": "293.15 K"},
        lambda: {"T_f": ((1.5 * 900 * 90 + 4186 * 20) / (1.5 * 900 + 4186), "degC")},
    ),
    "waves.string_fundamental": (
        {"F_T": "100 N", "mu": "5 g/m", "L": "65 cm"},
        lambda: {"v": (math.sqrt(100 / 0.005), "m/s"), "f1": (math.sqrt(100 / 0.005) / 1.3, "Hz")},
    ),
    "waves.doppler_approaching_source": (
        {"f0": "500 Hz", "v_s": "108 km/h", "v_sound": "343 m/s"},
        lambda: {"f": (500 * 343 / (343 - 30), "Hz")},
    ),
    "optics.thin_lens": ({"f": "10 cm", "d_o": "0.3 m"}, lambda: {"d_i": (15.0, "cm"), "m": (-0.5, "")}),
    "optics.snell_refraction": (
        {"n1": "1.0", "n2": "1.5", "theta1": "30 deg"},
        lambda: {"theta2": (math.degrees(math.asin(1 / 3)), "deg")},
    ),
    "modern.photon_energy": ({"wavelength": "500 nm"}, lambda: {"E": (H * C / 500e-9 / Q_E, "eV")}),
    "modern.hydrogen_transition": (
        {"n_i": "3", "n_f": "2"}, lambda: {"wavelength": (1e9 / (R_INF * (1 / 4 - 1 / 9)), "nm")},
    ),
    "modern.radioactive_decay": (
        {"N0": "1e12", "t_half": "2 h", "t": "360 min"}, lambda: {"N": (1.25e11, "")},
    ),
    "mechanics.spring_mass_period": ({"m": "500 g", "k": "200 N/m"}, lambda: {"T": (2 * math.pi * 0.05, "s")}),
    "mechanics.rolling_sphere_incline": ({"h": "2 m"}, lambda: {"v": (math.sqrt(10 * g * 2 / 7), "m/s")}),
    "mechanics.escape_velocity": (
        {"M": "5.972e24 kg", "R": "6371 km"}, lambda: {"v_esc": (math.sqrt(2 * G * 5.972e24 / 6.371e6) / 1e3, "km/s")},
    ),
    "fluids.buoyant_force": ({"rho_fluid": "1.26 g/cm^3", "V": "2 L"}, lambda: {"F_b": (1260 * 0.002 * g, "N")}),
    "electricity.point_charge_field": ({"q": "10 nC", "r": "10 cm"}, lambda: {"E": (K_E * 1e-8 / 0.01 / 1e3, "kN/C")}),
    "electricity.rc_discharge": (
        {"R": "10 kohm", "C": "100 uF", "t": "1.5 s", "V0": "12 V"},
        lambda: {"tau": (1.0, "s"), "V": (12 * math.exp(-1.5), "V")},
    ),
    "magnetism.solenoid_field": ({"n": "10 1/cm", "I": "2 A"}, lambda: {"B": (MU0 * 1000 * 2 * 1e3, "mT")}),
    "magnetism.rotating_coil_emf": (
        {"N": "100", "B": "0.5 T", "A": "100 cm^2", "omega": "100 rad/s"}, lambda: {"emf_peak": (50.0, "V")},
    ),
    "magnetism.long_wire_field": (
        {"I": "10 A", "r": "5 cm"}, lambda: {"B": (MU0 * 10 / (2 * math.pi * 0.05) * 1e6, "uT")},
    ),
    "thermo.rms_speed": ({"T": "300 K", "M": "28 g/mol"}, lambda: {"v_rms": (math.sqrt(3 * R_GAS * 300 / 0.028), "m/s")}),
    "thermo.mean_kinetic_energy": ({"T": "26.85 degC"}, lambda: {"KE": (1.5 * K_B * 300 * 1e21, "zJ")}),
    "thermo.isothermal_work": (
        {"n": "1 mol", "T": "300 K", "V1": "10 L", "V2": "0.02 m^3"},
        lambda: {"W": (R_GAS * 300 * math.log(2), "J")},
    ),
    "waves.open_pipe_harmonics": ({"L": "1 m", "v_sound": "340 m/s", "n": "3"}, lambda: {"f_n": (510.0, "Hz")}),
    "waves.sound_intensity_level": ({"I": "1e-6 W/m^2"}, lambda: {"beta": (60.0, "")}),
    "optics.double_slit_fringes": (
        {"wavelength": "600 nm", "L": "2 m", "d": "0.5 mm"}, lambda: {"dy": (600e-9 * 2 / 0.5e-3 * 1e3, "mm")},
    ),
    "optics.critical_angle": (
        {"n1": "1.6", "n2": "1.33"}, lambda: {"theta_c": (math.degrees(math.asin(1.33 / 1.6)), "deg")},
    ),
    "modern.photoelectric_effect": (
        {"wavelength": "250 nm", "phi": "2.3 eV"}, lambda: {"KE_max": (H * C / 250e-9 / Q_E - 2.3, "eV")},
    ),
    "modern.electron_de_broglie": (
        {"V": "100 V"}, lambda: {"wavelength": (H / math.sqrt(2 * M_E * Q_E * 100) * 1e12, "pm")},
    ),
    "modern.time_dilation": ({"v": "0.6 c", "t0": "2 us"}, lambda: {"t": (2.5, "us")}),
    "modern.compton_scattering": (
        {"E": "100 keV", "theta": "90 deg"},
        lambda: {"omega": (100e3 * Q_E / (1 + 100e3 * Q_E / (M_E * C**2)) / HBAR, "rad/s")},
    ),
    "modern.electron_in_cube": (
        {"L": "1 nm"},
        lambda: {"E1": (3 * H**2 / (8 * M_E * 1e-18) / Q_E, "eV"), "dE": (3 * H**2 / (8 * M_E * 1e-18) / Q_E, "eV")},
    ),
    "mechanics.free_fall_time": (
        {"h": "20 m"}, lambda: {"t": (math.sqrt(40 / g), "s"), "v": (math.sqrt(2 * g * 20), "m/s")},
    ),
    "mechanics.uniform_acceleration_distance": (
        {"v0": "36 km/h", "a": "2 m/s^2", "t": "5 s"}, lambda: {"d": (75.0, "m"), "v": (20.0, "m/s")},
    ),
    "mechanics.horizontal_launch_cliff": (
        {"h": "20 m", "v0": "10 m/s"},
        lambda: {"t": (math.sqrt(40 / g), "s"), "x": (10 * math.sqrt(40 / g), "m"),
                 "v_impact": (math.sqrt(100 + 2 * g * 20), "m/s")},
    ),
    "mechanics.centripetal_force": ({"m": "1000 kg", "v": "72 km/h", "r": "80 m"}, lambda: {"F_c": (5.0, "kN")}),
    "mechanics.banked_curve_speed": (
        {"r": "100 m", "theta": "30 deg"},
        lambda: {"v": (math.sqrt(g * 100 * math.tan(math.radians(30))), "m/s")},
    ),
    "mechanics.conical_pendulum": (
        {"L": "1 m", "theta": "30 deg"},
        lambda: {"v": (math.sqrt(g * s30 * math.tan(math.radians(30))), "m/s"),
                 "T": (2 * math.pi * math.sqrt(c30 / g), "s")},
    ),
    "mechanics.vertical_circle_min_speed": (
        {"r": "0.5 m"}, lambda: {"v_top": (math.sqrt(0.5 * g), "m/s"), "v_bottom": (math.sqrt(2.5 * g), "m/s")},
    ),
    "mechanics.work_energy_push": (
        {"m": "10 kg", "F": "50 N", "d": "4 m"}, lambda: {"W": (200.0, "J"), "v": (math.sqrt(40), "m/s")},
    ),
    "mechanics.power_lifting": ({"m": "500 kg", "h": "10 m", "t": "20 s"}, lambda: {"P": (500 * g * 10 / 20, "W")}),
    "mechanics.spring_launch_speed": (
        {"k": "800 N/m", "x": "5 cm", "m": "200 g"},
        lambda: {"U": (0.5 * 800 * 0.05**2, "J"), "v": (0.05 * math.sqrt(800 / 0.2), "m/s")},
    ),
    "mechanics.inelastic_collision_1d": (
        {"m1": "1.2 kg", "m2": "800 g", "u1": "1.5 m/s"}, lambda: {"v": (0.9, "m/s"), "KE_lost": (0.54, "J")},
    ),
    "mechanics.impulse_average_force": (
        {"m": "150 g", "v1": "20 m/s", "v2": "15 m/s", "dt": "5 ms"},
        lambda: {"J": (0.15 * 35, "N*s"), "F": (0.15 * 35 / 0.005, "N")},
    ),
    "mechanics.lever_balance": ({"m1": "30 kg", "d1": "1.5 m", "d2": "2 m"}, lambda: {"m2": (22.5, "kg")}),
    "mechanics.disk_torque_angular_acceleration": (
        {"M": "4 kg", "R": "20 cm", "F": "10 N"}, lambda: {"I": (0.08, "kg*m^2"), "alpha": (25.0, "rad/s^2")},
    ),
    "mechanics.flywheel_energy": (
        {"M": "100 kg", "R": "0.5 m", "omega": "3000 rpm"},
        lambda: {"KE": (0.5 * (0.5 * 100 * 0.25) * (2 * math.pi * 50) ** 2 / 1e3, "kJ")},
    ),
    "mechanics.geostationary_radius": (
        {"M": "5.972e24 kg", "T": "23.9345 h"},
        lambda: {"r": ((G * 5.972e24 * (23.9345 * 3600) ** 2 / (4 * math.pi**2)) ** (1 / 3) / 1e3, "km")},
    ),
    "mechanics.surface_gravity": (
        {"M": "5.972e24 kg", "R": "6371 km"}, lambda: {"g_s": (G * 5.972e24 / 6.371e6**2, "m/s^2")},
    ),
    "mechanics.kepler_third_law": (
        {"a": "1 au", "M": "1 solar_mass"},
        lambda: {"T": (2 * math.pi * math.sqrt(AU**3 / (G * M_SUN)) / 31_557_600, "year")},
    ),
    "mechanics.hookes_law_extension": ({"m": "2 kg", "k": "196.2 N/m"}, lambda: {"x": (10.0, "cm")}),
    "mechanics.friction_pull_at_angle": (
        {"m": "10 kg", "F": "80 N", "theta": "30 deg", "mu_k": "0.3"},
        lambda: {"N": (10 * g - 40, "N"), "a": ((80 * c30 - 0.3 * (10 * g - 40)) / 10, "m/s^2")},
    ),
    "mechanics.block_pulley_table": (
        {"m1": "4 kg", "m2": "2 kg", "mu_k": "0.2"},
        lambda: {"a": (1.2 * g / 6, "m/s^2"), "T": (2 * (g - 1.2 * g / 6), "N")},
    ),
    "mechanics.physical_pendulum_rod": ({"L": "1.5 m"}, lambda: {"T": (2 * math.pi * math.sqrt(1 / g), "s")}),
    "mechanics.damped_oscillator_amplitude": (
        {"m": "1 kg", "k": "100 N/m", "b": "10 kg/s", "t": "0.2 s"},
        lambda: {"ratio": (math.exp(-1), ""), "T_d": (2 * math.pi / math.sqrt(100 - 25), "s")},
    ),
    "mechanics.projectile_range_symbolic": (
        {"v0": "20 m/s", "theta": "30 deg"},
        lambda: {"t_flight": (20 / g, "s"), "R": (400 * math.sin(math.radians(60)) / g, "m")},
    ),
    "mechanics.atwood_machine_symbolic": (
        {"m1": "5 kg", "m2": "1 kg"}, lambda: {"a": (4 * g / 6, "m/s^2"), "T": (10 * g / 6, "N")},
    ),
    "mechanics.river_crossing": (
        {"v_boat": "4 m/s", "v_river": "10.8 km/h", "w": "100 m"}, lambda: {"t": (25.0, "s"), "drift": (75.0, "m")},
    ),
    "fluids.pressure_at_depth": ({"rho": "1000 kg/m^3", "h": "10 m"}, lambda: {"P": (101.3 + 98.1, "kPa")}),
    "fluids.continuity_pipe": ({"v1": "1 m/s", "d1": "10 cm", "d2": "50 mm"}, lambda: {"v2": (4.0, "m/s")}),
    "fluids.hydraulic_lift": ({"F1": "100 N", "d1": "2 cm", "d2": "0.2 m"}, lambda: {"F2": (10.0, "kN")}),
    "fluids.terminal_velocity_stokes": (
        {"r": "0.5 mm", "rho_s": "7800 kg/m^3", "rho_f": "1.26 g/cm^3", "eta": "1.5 Pa*s"},
        lambda: {"v_t": (2 * 0.5e-3**2 * 6540 * g / (9 * 1.5) * 1e3, "mm/s")},
    ),
    "fluids.poiseuille_flow": (
        {"eta": "1 mPa*s", "L": "1 m", "r": "1 mm", "dP": "1 kPa"},
        lambda: {"Q": (math.pi * 1e-12 * 1000 / 8e-3 * 1e6, "mL/s")},
    ),
    "electricity.ohms_law_power": ({"V": "12 V", "R": "100 ohm"}, lambda: {"I": (120.0, "mA"), "P": (1.44, "W")}),
    "electricity.wire_resistance": (
        {"rho": "1.68e-8 ohm*m", "L": "10 m", "d": "1 mm"}, lambda: {"R": (4 * 1.68e-8 * 10 / (math.pi * 1e-6), "ohm")},
    ),
    "electricity.capacitors_series": (
        {"C1": "2 uF", "C2": "3000 nF", "V": "10 V"}, lambda: {"C_eq": (1.2, "uF"), "Q": (12.0, "uC")},
    ),
    "electricity.capacitors_parallel_energy": (
        {"C1": "2 uF", "C2": "3 uF", "V": "10 V"}, lambda: {"C_eq": (5.0, "uF"), "U": (0.25, "mJ")},
    ),
    "electricity.point_charge_potential": ({"q": "10 nC", "r": "10 cm"}, lambda: {"V": (K_E * 1e-8 / 0.1, "V")}),
    "electricity.charge_pair_potential_energy": (
        {"q1": "20 nC", "q2": "30 nC", "r1": "40 cm", "r2": "10 cm"},
        lambda: {"W": (K_E * 6e-16 * (10 - 2.5) * 1e6, "uJ")},
    ),
    "electricity.electron_accelerated_speed": (
        {"V": "100 V"}, lambda: {"v": (math.sqrt(2 * Q_E * 100 / M_E) / 1e3, "km/s")},
    ),
    "electricity.electron_deflection": (
        {"E": "1 kV/m", "L": "5 cm", "v": "1e7 m/s"},
        lambda: {"t": (5.0, "ns"), "y": (Q_E * 1000 * 0.05**2 / (2 * M_E * 1e14) * 1e3, "mm")},
    ),
    "electricity.parallel_plate_field": ({"V": "100 V", "d": "2 mm"}, lambda: {"E": (50.0, "kV/m")}),
    "electricity.line_charge_field": (
        {"lam": "10 nC/m", "r": "10 cm"}, lambda: {"E": (1e-8 / (2 * math.pi * EPS0 * 0.1) / 1e3, "kN/C")},
    ),
    "electricity.rc_charging": (
        {"R": "10 kohm", "C": "100 uF", "emf": "9 V", "t": "1 s"},
        lambda: {"V_C": (9 * (1 - math.exp(-1)), "V"), "I": (0.9 * math.exp(-1), "mA")},
    ),
    "electricity.two_source_network": (
        {"E1": "20 V", "E2": "4 V", "R1": "2 ohm", "R2": "3 ohm", "R3": "4 ohm"}, _two_sources,
    ),
    "electricity.battery_internal_resistance": (
        {"emf": "12 V", "r": "0.5 ohm", "R": "5.5 ohm"}, lambda: {"I": (2.0, "A"), "V_t": (11.0, "V")},
    ),
    "electricity.kettle_heating_time": (
        {"P": "2 kW", "m": "1 kg", "T1": "20 degC", "T2": "80 degC"}, lambda: {"t": (4186 * 60 / 2000, "s")},
    ),
    "electricity.ac_rms_power": (
        {"V_peak": "170 V", "R": "100 ohm"}, lambda: {"V_rms": (170 / math.sqrt(2), "V"), "P_avg": (144.5, "W")},
    ),
    "electricity.capacitor_energy_symbolic": ({"Q": "10 uC", "C": "2 uF"}, lambda: {"V": (5.0, "V"), "U": (2.5e-5, "J")}),
    "magnetism.force_on_wire": (
        {"I": "5 A", "L": "20 cm", "B": "0.2 T", "theta": "30 deg"}, lambda: {"F": (5 * 0.2 * 0.2 * 0.5, "N")},
    ),
    "magnetism.parallel_wires_force": (
        {"I1": "10 A", "I2": "20 A", "d": "10 cm", "L": "2 m"},
        lambda: {"F": (MU0 * 10 * 20 * 2 / (2 * math.pi * 0.1) * 1e3, "mN")},
    ),
    "magnetism.lorentz_force_charge": (
        {"q": "10 nC", "v": "20 m/s", "B": "0.5 T", "theta": "30 deg"}, lambda: {"F": (1e-8 * 20 * 0.5 * 0.5 * 1e9, "nN")},
    ),
    "magnetism.loop_center_field": (
        {"N": "10", "I": "2 A", "R": "5 cm"}, lambda: {"B": (MU0 * 10 * 2 / (2 * 0.05) * 1e3, "mT")},
    ),
    "magnetism.faraday_changing_field": (
        {"N": "100", "d": "8 cm", "dB": "0.4 T", "dt": "100 ms"},
        lambda: {"emf": (100 * math.pi * 0.04**2 * 0.4 / 0.1, "V")},
    ),
    "magnetism.motional_emf_rod": (
        {"B": "0.5 T", "L": "20 cm", "v": "4 m/s", "R": "2 ohm"},
        lambda: {"emf": (0.4, "V"), "I": (0.2, "A"), "F": (0.02, "N")},
    ),
    "magnetism.transformer": (
        {"Np": "500", "Ns": "60", "Vp": "240 V", "Ip": "0.5 A"}, lambda: {"Vs": (28.8, "V"), "Is": (0.5 * 500 / 60, "A")},
    ),
    "magnetism.inductor_energy": ({"L": "200 mH", "I": "3 A"}, lambda: {"U": (900.0, "mJ")}),
    "magnetism.rl_circuit_current": (
        {"L": "100 mH", "R": "10 ohm", "V": "5 V", "t": "10 ms"},
        lambda: {"tau": (10.0, "ms"), "I": (500 * (1 - math.exp(-1)), "mA")},
    ),
    "magnetism.lc_resonance": (
        {"L": "1 mH", "C": "100 nF"}, lambda: {"f": (1 / (2 * math.pi * math.sqrt(1e-10)) / 1e3, "kHz")},
    ),
    "magnetism.cyclotron_radius_symbolic": (
        {"m": "1.6726e-27 kg", "v": "1e6 m/s", "q": "1.602176634e-19 C", "B": "1 T"},
        lambda: {"r": (1.6726e-27 * 1e6 / Q_E, "m"), "T": (2 * math.pi * 1.6726e-27 / Q_E, "s")},
    ),
    "modern.mass_energy": ({"m": "500 ug"}, lambda: {"E": (500e-9 * C**2 / 1e9, "GJ")}),
    "modern.length_contraction": ({"L0": "100 m", "v": "0.6 c"}, lambda: {"L": (80.0, "m")}),
    "modern.relativistic_momentum": (
        {"v": "0.6 c"},
        lambda: {"p": (1.25 * M_E * 0.6 * C, "kg*m/s"), "KE": (0.25 * M_E * C**2 / Q_E / 1e3, "keV")},
    ),
    "modern.bohr_energy_level": (
        {"n": "2", "Z": "3"}, lambda: {"E_n": (-13.6057 * 9 / 4, "eV"), "E_ion": (13.6057 * 9 / 4, "eV")},
    ),
    "modern.activity_from_half_life": (
        {"N": "1e15", "t_half": "8 day"},
        lambda: {"lam": (math.log(2) / (8 * 86400), "1/s"), "A": (math.log(2) / (8 * 86400) * 1e15, "Bq")},
    ),
    "modern.wien_peak_wavelength": ({"T": "2900 K"}, lambda: {"wavelength": (2.897771955e-3 / 2900 * 1e9, "nm")}),
    "modern.stefan_boltzmann_power": (
        {"T": "1000 K", "A": "0.5 m^2", "eps": "0.8"}, lambda: {"P": (0.8 * SIGMA_SB * 0.5 * 1e12, "W")},
    ),
    "modern.heisenberg_velocity_uncertainty": (
        {"dx": "0.1 nm"}, lambda: {"dv": (HBAR / (2 * M_E * 1e-10) / 1e3, "km/s")},
    ),
    "waves.wave_speed_frequency": (
        {"f": "440 Hz", "v": "343 m/s"}, lambda: {"wavelength": (34300 / 440, "cm")},
    ),
    "waves.closed_pipe_harmonics": ({"L": "0.5 m", "v_sound": "340 m/s", "k": "2"}, lambda: {"f": (510.0, "Hz")}),
    "waves.beat_frequency": ({"f1": "444 Hz", "f2": "440 Hz"}, lambda: {"f_beat": (4.0, "Hz")}),
    "waves.doppler_moving_observer": (
        {"f0": "500 Hz", "v_o": "72 km/h", "v_sound": "340 m/s"},
        lambda: {"f_toward": (500 * 360 / 340, "Hz"), "f_away": (500 * 320 / 340, "Hz")},
    ),
    "waves.shm_max_speed_acceleration": (
        {"A": "5 cm", "f": "2 Hz"},
        lambda: {"v_max": (4 * math.pi * 0.05, "m/s"), "a_max": ((4 * math.pi) ** 2 * 0.05, "m/s^2")},
    ),
    "waves.inverse_square_intensity": (
        {"P": "1 W", "r": "10 m"},
        lambda: {"I": (1 / (400 * math.pi), "W/m^2"), "beta": (10 * math.log10(1 / (400 * math.pi) / 1e-12), "")},
    ),
    "waves.string_tension_for_harmonic": (
        {"f": "1000 Hz", "L": "33 cm", "mu": "1 g/m", "n": "2"}, lambda: {"F_T": (0.001 * (2 * 0.33 * 1000 / 2) ** 2, "N")},
    ),
    "waves.shm_energy": ({"k": "100 N/m", "A": "10 cm", "x": "4 cm"}, lambda: {"E": (0.5, "J"), "KE": (0.42, "J")}),
    "waves.pendulum_frequency_symbolic": ({"L": "1 m", "g": "9.81 m/s^2"}, lambda: {"f": (math.sqrt(g) / (2 * math.pi), "Hz")}),
    "waves.traveling_wave_displacement": (
        {"A": "10 mm", "wavelength": "2 m", "f": "5 Hz", "x": "0.5 m", "t": "0.02 s"},
        lambda: {"v": (10.0, "m/s"), "y": (10 * math.sin(2 * math.pi * 0.5 / 2 - 2 * math.pi * 5 * 0.02), "mm")},
    ),
    "waves.mach_cone_angle": ({"v": "680 m/s", "v_sound": "340 m/s"}, lambda: {"theta": (30.0, "deg"), "Mach": (2.0, "")}),
    "thermo.linear_expansion": (
        {"L0": "100 m", "alpha": "1.2e-5 1/K", "dT": "40 K"}, lambda: {"dL": (48.0, "mm")},
    ),
    "thermo.ice_to_water_heat": ({"m": "1 kg", "T": "20 degC"}, lambda: {"Q": (334 + 4186 * 20 / 1000, "kJ")}),
    "thermo.adiabatic_compression": (
        {"P1": "100 kPa", "T1": "300 K", "V1": "1 L", "V2": "0.25 L", "gamma": "1.4"},
        lambda: {"P2": (100 * 4**1.4, "kPa"), "T2": (300 * 4**0.4, "K"),
                 "W_on": ((100e3 * 4**1.4 * 0.25e-3 - 100e3 * 1e-3) / 0.4, "J")},
    ),
    "thermo.wall_conduction": (
        {"k": "0.8 W/(m*K)", "A": "10 m^2", "dT": "20 K", "d": "20 cm"}, lambda: {"P": (800.0, "W")},
    ),
    "thermo.refrigerator_cop": (
        {"T_c": "260 K", "T_h": "300 K", "P": "100 W"}, lambda: {"COP": (6.5, ""), "Q_c": (650.0, "W")},
    ),
    "optics.concave_mirror": ({"f": "10 cm", "d_o": "30 cm"}, lambda: {"d_i": (15.0, "cm"), "m": (-0.5, "")}),
    "optics.diffraction_grating": (
        {"N": "600 1/mm", "wavelength": "500 nm", "order": "1"},
        lambda: {"theta": (math.degrees(math.asin(0.3)), "deg")},
    ),
    "optics.single_slit_minimum": (
        {"a": "10 um", "wavelength": "500 nm", "L": "2 m"},
        lambda: {"theta": (math.degrees(math.asin(0.05)), "deg"), "w": (4 * math.tan(math.asin(0.05)) * 1e3, "mm")},
    ),
    "optics.lensmaker": ({"n": "1.5", "R1": "20 cm", "R2": "0.2 m"}, lambda: {"f": (20.0, "cm"), "P": (5.0, "1/m")}),
    "optics.malus_law": ({"I0": "100 W/m^2", "theta": "45 deg"}, lambda: {"I": (25.0, "W/m^2")}),
    "optics.rayleigh_resolution": (
        {"wavelength": "550 nm", "D": "10 cm"}, lambda: {"theta": (1.22 * 550e-9 / 0.1 * 1e6, "urad")},
    ),
    "mechanics.projectile_to_plateau": (
        {"v0": "30 m/s", "theta": "60 deg", "H": "15 m"},
        lambda: {"t": ((30 * math.sin(math.radians(60)) + math.sqrt(675 - 2 * g * 15)) / g, "s"),
                 "x": (15 * (30 * math.sin(math.radians(60)) + math.sqrt(675 - 2 * g * 15)) / g, "m"),
                 "v_land": (math.sqrt(900 - 2 * g * 15), "m/s")},
    ),
    "mechanics.ladder_against_wall": (
        {"m": "20 kg", "L": "5 m", "theta": "60 deg"},
        lambda: {"tau_w": (20 * g * 5 * 0.5 / 2, "N*m"), "N_wall": (20 * g / (2 * math.sqrt(3)), "N"), "f": (20 * g / (2 * math.sqrt(3)), "N"),
                 "mu_min": (1 / (2 * math.sqrt(3)), "")},
    ),
    "thermo.otto_cycle": (
        {"r": "8", "gamma": "1.4", "T1": "300 K", "T3": "2000 K"},
        lambda: {"T2": (300 * 8**0.4, "K"), "T4": (2000 / 8**0.4, "K"), "eta": (100 * (1 - 8**-0.4), "percent"),
                 "W_net": (R_GAS / 0.4 * ((2000 - 300 * 8**0.4) - (2000 / 8**0.4 - 300)) / 1e3, "kJ/mol")},
    ),
    "modern.muon_decay_length": (
        {"v": "0.995 c", "tau0": "2.197 us"},
        lambda: {"gamma": (1 / math.sqrt(1 - 0.995**2), ""),
                 "tau": (2.197 / math.sqrt(1 - 0.995**2), "us"),
                 "d": (0.995 * C * 2.197e-6 / math.sqrt(1 - 0.995**2) / 1e3, "km")},
    ),
    "electricity.rlc_series_circuit": (
        {"R": "100 ohm", "L": "100 mH", "C": "10 uF", "f": "60 Hz", "V_rms": "120 V"}, lambda: _rlc(),
    ),
    "magnetism.mass_spectrometer": (
        {"m": "12 u", "q": "1 e", "V": "1000 V", "B": "0.5 T"},
        lambda: {"v": (math.sqrt(2 * Q_E * 1000 / (12 * U)) / 1e3, "km/s"),
                 "r": (12 * U * math.sqrt(2 * Q_E * 1000 / (12 * U)) / (Q_E * 0.5) * 100, "cm"),
                 "x": (2 * 12 * U * math.sqrt(2 * Q_E * 1000 / (12 * U)) / (Q_E * 0.5) * 100, "cm")},
    ),
}


for _module in pkgutil.iter_modules(worked.__path__):
    _more = importlib.import_module(f"tests.worked.{_module.name}").EXAMPLES
    assert not set(_more) & set(EXAMPLES), f"tests/worked/{_module.name}.py repeats {set(_more) & set(EXAMPLES)}"
    EXAMPLES.update(_more)


def test_every_template_has_a_worked_example(catalog: physgen.Catalog) -> None:
    assert sorted(EXAMPLES) == sorted(catalog)


@pytest.mark.parametrize("template_id", sorted(EXAMPLES))
def test_worked_example(catalog: physgen.Catalog, template_id: str) -> None:
    inputs, expected = EXAMPLES[template_id]
    got = catalog[template_id].solve(**inputs)
    want = expected()
    assert list(got) == list(want)
    for name, (value, unit) in want.items():
        q: Any = got[name]
        # 1e-6: Pint's CODATA release may differ from the values typed above in the 9th digit
        assert q.to(unit or "dimensionless").magnitude == pytest.approx(value, rel=1e-6), name

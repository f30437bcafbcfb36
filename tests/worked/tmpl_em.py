"""Worked examples of the tmpl-em batch (Gauss's and Ampère's laws in non-trivial geometries, induction,
circuit transients, mutual inductance, the Hall effect, a proton entering a field region), computed by
hand with plain formulas and CODATA 2018 constants typed in (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

K_E = 8.9875517923e9  # N m^2 C^-2
EPS0 = 8.8541878128e-12  # F/m
MU0 = 1.25663706212e-6  # N/A^2
Q_E = 1.602176634e-19  # C
M_P = 1.67262192369e-27  # kg
G = 9.81  # m/s^2, as the templates state it


def _sphere_kr() -> dict[str, tuple[float, str]]:
    # 10 nC, R 10 cm, r 5 cm: α = Q/(πR⁴) = 31.831 µC/m⁴; E = kQr²/R⁴ = 2.2469 kN/C; V0 = 4kQ/(3R) = 1.1983 kV
    q, r_s, r = 10e-9, 0.10, 0.05
    return {
        "alpha": (q / (math.pi * r_s**4) * 1e6, "uC/m^4"),
        "E_in": (K_E * q * r**2 / r_s**4 / 1e3, "kN/C"),
        "V0": (4 * K_E * q / (3 * r_s) / 1e3, "kV"),
    }


def _shell() -> dict[str, tuple[float, str]]:
    # q 20 nC at the centre, shell −6 nC (a 10 cm, b 13 cm); r1 4 cm, r2 30 cm:
    # E1 = kq/r1² = 112.34 kN/C; E2 = k(14 nC)/0.09 = 1.3981 kN/C;
    # V1 = k[14 nC/0.13 + 20 nC (1/0.04 − 1/0.10)] = k·4.0769e-7 = 3.6641 kV
    q, qs, a, b, r1, r2 = 20e-9, -6e-9, 0.10, 0.13, 0.04, 0.30
    v1 = K_E * (q + qs) / b + K_E * q * (1 / r1 - 1 / a)
    return {
        "E1": (K_E * q / r1**2 / 1e3, "kN/C"),
        "E2": (K_E * (q + qs) / r2**2 / 1e3, "kN/C"),
        "V1": (v1 / 1e3, "kV"),
    }


def _coax_breakdown() -> dict[str, tuple[float, str]]:
    # a 1 mm, b 4 mm, κ 2.5, 20 MV/m: V = E a ln 4 = 27.726 kV; λ = 2πκε0 a E = 2.7816 µC/m;
    # U' = ½λV = 38.562 mJ/m
    a, b, kappa, e_bd = 1e-3, 4e-3, 2.5, 20e6
    v = e_bd * a * math.log(b / a)
    lam = 2 * math.pi * kappa * EPS0 * a * e_bd
    return {"V_max": (v / 1e3, "kV"), "lam": (lam * 1e6, "uC/m"), "U_len": (lam * v / 2 * 1e3, "mJ/m")}


def _lc() -> dict[str, tuple[float, str]]:
    # 10 µF at 20 V into 10 mH: I_max = 20 √(1e-3) = 632.46 mA; t = (π/2)√(1e-7) = 0.49673 ms;
    # at half the maximum current the capacitor keeps ¾ of the energy: V = 20 √0.75 = 17.321 V
    c, v0, ind, f = 10e-6, 20.0, 10e-3, 0.5
    return {
        "I_max": (v0 * math.sqrt(c / ind) * 1e3, "mA"),
        "t1": (math.pi / 2 * math.sqrt(ind * c) * 1e3, "ms"),
        "V1": (v0 * math.sqrt(1 - f**2), "V"),
    }


def _rlc() -> dict[str, tuple[float, str]]:
    # 1 µF, 10 mH, 120 Ω: ω0 = 10⁴ rad/s, α = 6000 /s, ω_d = 8000 rad/s, f_d = 1.2732 kHz;
    # t½ = ln 2/6000 = 115.52 µs; R_c = 2√(L/C) = 200 Ω
    c, ind, r = 1e-6, 10e-3, 120.0
    alpha = r / (2 * ind)
    w_d = math.sqrt(1 / (ind * c) - alpha**2)
    return {
        "f_d": (w_d / (2 * math.pi) / 1e3, "kHz"),
        "t_half": (math.log(2) / alpha * 1e6, "us"),
        "R_c": (2 * math.sqrt(ind / c), "ohm"),
    }


def _thevenin() -> dict[str, tuple[float, str]]:
    # 12 V, R1 = R2 = 10 kΩ, R3 5 kΩ, 100 µF, t 1 s: V_th = 6 V, R_th = 5 kΩ, τ = 10 kΩ·100 µF = 1 s;
    # V_C = 6 (1 − e^-1) = 3.7927 V
    e, r1, r2, r3, c, t = 12.0, 10e3, 10e3, 5e3, 100e-6, 1.0
    v_th = e * r2 / (r1 + r2)
    tau = (r1 * r2 / (r1 + r2) + r3) * c
    return {"V_f": (v_th, "V"), "tau": (tau * 1e3, "ms"), "V_C": (v_th * (1 - math.exp(-t / tau)), "V")}


def _rl_switch() -> dict[str, tuple[float, str]]:
    # 12 V, 10 Ω, 100 mH for 10 ms (τ1 = 10 ms): I1 = 1.2 (1 − e^-1) = 0.75854 A;
    # then 500 Ω: V = 379.27 V; W = ½·0.1·0.75854² = 28.770 mJ
    e, r1, ind, t1, r2 = 12.0, 10.0, 0.100, 0.010, 500.0
    i1 = e / r1 * (1 - math.exp(-t1 * r1 / ind))
    return {"I1": (i1, "A"), "V2": (i1 * r2, "V"), "W2": (0.5 * ind * i1**2 * 1e3, "mJ")}


def _coax_energy() -> dict[str, tuple[float, str]]:
    # 10 A, a 1 mm, b 5 mm, 10 m: inside the core μ0 I² l/(16π) = 25.000 µJ;
    # gap (μ0 I² l/(4π)) ln 5 = 160.94 µJ; U = 185.94 µJ; L = 2U/I² = 3.7189 µH
    i, a, b, length = 10.0, 1e-3, 5e-3, 10.0
    # core: ∫0^a (B²/2μ0) 2πr l dr with B = μ0 I r/(2πa²), done by the midpoint rule as a check on the algebra
    n = 20000
    core = sum(
        (MU0 * i * ((k + 0.5) * a / n) / (2 * math.pi * a**2)) ** 2
        / (2 * MU0)
        * 2
        * math.pi
        * ((k + 0.5) * a / n)
        * length
        * (a / n)
        for k in range(n)
    )
    gap = MU0 * i**2 * length / (4 * math.pi) * math.log(b / a)
    return {
        "U_in": (core * 1e6, "uJ"),
        "U": ((core + gap) * 1e6, "uJ"),
        "L": (2 * (core + gap) / i**2 * 1e6, "uH"),
    }


def _loop_wire() -> dict[str, tuple[float, str]]:
    # 100 A; loop 10 cm (parallel) × 10 cm, near side 2 cm, 5 m/s, 0.05 Ω:
    # emf = 2e-7·100·0.1·5·(1/0.02 − 1/0.12) = 1e-5·41.667 = 416.67 µV; i = 8.3333 mA;
    # F = i a·2e-7·100·(1/0.02 − 1/0.12) = 8.3333e-3·0.1·8.3333e-4 = 0.69444 µN
    i_w, a, w, x, v, r = 100.0, 0.10, 0.10, 0.02, 5.0, 0.05
    emf = MU0 * i_w * a * v / (2 * math.pi) * (1 / x - 1 / (x + w))
    i = emf / r
    f = i * a * MU0 * i_w / (2 * math.pi) * (1 / x - 1 / (x + w))
    return {"emf": (emf * 1e6, "uV"), "i": (i * 1e3, "mA"), "F": (f * 1e6, "uN")}


def _rod_generator() -> dict[str, tuple[float, str]]:
    # 0.5 T, rod 20 cm, 0.5 Ω, 100 g on a 1 cm axle: ω = 4mgρR/(B²L⁴) = 0.01962/(0.25·0.0016) = 49.05 rad/s;
    # I = BωL²/(2R) = 0.981 A; v = ωρ = 49.05 cm/s
    b, length, r, m, rho = 0.5, 0.20, 0.5, 0.100, 0.01
    omega = 4 * m * G * rho * r / (b**2 * length**4)
    return {
        "omega": (omega, "rad/s"),
        "I": (b * omega * length**2 / (2 * r), "A"),
        "v": (omega * rho * 100, "cm/s"),
    }


def _loop_drop() -> dict[str, tuple[float, str]]:
    # 10 g, 0.01 Ω, 1 T, 10 cm edge, dropped 5 cm: v = √(2·9.81·0.05) = 0.99045 m/s;
    # I = 1·0.1·0.99045/0.01 = 9.9045 A; a = 9.81 − 1·9.9045·0.1/0.01 = −89.235 m/s² (it brakes hard)
    m, r, b, w, h = 0.010, 0.01, 1.0, 0.10, 0.05
    v = math.sqrt(2 * G * h)
    i = b * w * v / r
    return {"v": (v, "m/s"), "I": (i, "A"), "a": (G - b * i * w / m, "m/s^2")}


def _mutual() -> dict[str, tuple[float, str]]:
    # 20 turns/cm, r_s 2 cm; 100-turn coil of radius 4 cm; 0 → 5 A in 50 ms; 10 Ω:
    # M = μ0·2000·100·π·(0.02)² = 0.31583 mH; emf = 31.583 mV; q = M·5/10 = 157.91 µC
    n, r_s, turns, i0, dt, r = 2000.0, 0.02, 100, 5.0, 0.050, 10.0
    m = MU0 * n * turns * math.pi * r_s**2
    return {"M": (m * 1e3, "mH"), "emf": (m * i0 / dt * 1e3, "mV"), "q": (m * i0 / r * 1e6, "uC")}


def _hall() -> dict[str, tuple[float, str]]:
    # 10 mA, 0.5 T, t 0.5 mm, w 4 mm, l 10 mm, V_H 10 mV, V_L 1 V:
    # n = IB/(e t V_H) = 6.2415e21 m⁻³ = 6.2415e15 cm⁻³; v_d = V_H/(B w) = 5 m/s;
    # σ = I l/(V_L w t) = 50 S/m; μ = σ/(n e) = 0.05 m²/(V s) = 500 cm²/(V s)
    i, b, t, w, length, v_h, v_l = 10e-3, 0.5, 0.5e-3, 4e-3, 10e-3, 10e-3, 1.0
    n = i * b / (Q_E * t * v_h)
    sigma = i * length / (v_l * w * t)
    return {
        "n": (n / 1e6, "1/cm^3"),
        "v_d": (v_h / (b * w), "m/s"),
        "mu": (sigma / (n * Q_E) * 1e4, "cm^2/(V*s)"),
    }


def _wire_kr() -> dict[str, tuple[float, str]]:
    # 50 A, R 5 mm, r 2 mm: J(R) = 3I/(2πR²) = 0.95493 A/mm²; B = μ0 I r²/(2πR³) = 1e-5·4e-6/1.25e-7 T = 0.32
    # mT;
    # outside, μ0 I/(2πr') = B at r' = R³/r² = 31.25 mm
    i, r_w, r = 50.0, 5e-3, 2e-3
    return {
        "J_s": (3 * i / (2 * math.pi * r_w**2) / 1e6, "A/mm^2"),
        "B_in": (MU0 * i * r**2 / (2 * math.pi * r_w**3) * 1e3, "mT"),
        "r_out": (r_w**3 / r**2 * 1e3, "mm"),
    }


def _coax_regions() -> dict[str, tuple[float, str]]:
    # 10 A; a 1.5 mm, b 4 mm, c 10 mm; r 0.75, 3, 5 mm:
    # B1 = 2e-7·10·0.75e-3/2.25e-6 = 0.66667 mT; B2 = 2e-7·10/3e-3 = 0.66667 mT;
    # B3 = 2e-7·10·(75/84)/5e-3 = 0.35714 mT
    i, a, b, c = 10.0, 1.5e-3, 4e-3, 10e-3
    r1, r2, r3 = 0.75e-3, 3e-3, 5e-3
    enc3 = i * (c**2 - r3**2) / (c**2 - b**2)
    return {
        "B1": (MU0 * i * r1 / (2 * math.pi * a**2) * 1e3, "mT"),
        "B2": (MU0 * i / (2 * math.pi * r2) * 1e3, "mT"),
        "B3": (MU0 * enc3 / (2 * math.pi * r3) * 1e3, "mT"),
    }


def _proton_edge() -> dict[str, tuple[float, str]]:
    # 1000 km/s at 30° to the normal into 100 mT: r = 10.440 cm; chord 2r cos 30° = 18.082 cm;
    # major arc π + π/3: t = (4π/3) m/(eB) = 437.30 ns; depth r (1 + ½) = 15.660 cm
    v, th, b = 1.0e6, math.radians(30), 0.100
    r = M_P * v / (Q_E * b)
    return {
        "d": (2 * r * math.cos(th) * 100, "cm"),
        "t": ((math.pi + 2 * th) * M_P / (Q_E * b) * 1e9, "ns"),
        "depth": (r * (1 + math.sin(th)) * 100, "cm"),
    }


def _toroid() -> dict[str, tuple[float, str]]:
    # 500 turns, 2 A, a 2 cm, b 6 cm, h 2 cm: B(a) = 2e-7·1000/0.02 = 10 mT;
    # L = 2e-7·500²·0.02·ln 3 = 1.0986 mH; U = ½ L I² = 2.1972 mJ
    n, i, a, b, h = 500, 2.0, 0.02, 0.06, 0.02
    ind = MU0 * n**2 * h * math.log(b / a) / (2 * math.pi)
    return {
        "B_a": (MU0 * n * i / (2 * math.pi * a) * 1e3, "mT"),
        "L": (ind * 1e3, "mH"),
        "U": (0.5 * ind * i**2 * 1e3, "mJ"),
    }


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "electricity.sphere_linear_charge_density": ({"Q": "10 nC", "R": "10 cm", "r": "5 cm"}, _sphere_kr),
    "electricity.shell_with_point_charge": (
        {"q": "20 nC", "Q": "-6 nC", "a": "10 cm", "b": "13 cm", "r1": "4 cm", "r2": "30 cm"},
        _shell,
    ),
    "electricity.coaxial_cable_breakdown": (
        {"a": "1 mm", "b": "4 mm", "kappa": "2.5", "E_bd": "20 MV/m"},
        _coax_breakdown,
    ),
    "electricity.lc_oscillation_initial_charge": (
        {"C": "10 uF", "V0": "20 V", "L": "10 mH", "f_I": "0.5"},
        _lc,
    ),
    "electricity.rlc_underdamped_discharge": ({"C": "1 uF", "L": "10 mH", "R": "120 ohm"}, _rlc),
    "electricity.thevenin_capacitor_charging": (
        {"E": "12 V", "R1": "10 kohm", "R2": "10 kohm", "R3": "5 kohm", "C": "100 uF", "t": "1 s"},
        _thevenin,
    ),
    "magnetism.rl_energise_then_switch": (
        {"E": "12 V", "R1": "10 ohm", "L": "100 mH", "t1": "10 ms", "R2": "500 ohm"},
        _rl_switch,
    ),
    "magnetism.coaxial_magnetic_energy": ({"I": "10 A", "a": "1 mm", "b": "5 mm", "l": "10 m"}, _coax_energy),
    "magnetism.loop_receding_from_wire": (
        {"I": "100 A", "a": "10 cm", "w": "10 cm", "x": "2 cm", "v": "5 m/s", "R": "0.05 ohm"},
        _loop_wire,
    ),
    "magnetism.rotating_rod_generator_terminal": (
        {"B": "0.5 T", "L": "20 cm", "R": "0.5 ohm", "m": "100 g", "rho": "1 cm"},
        _rod_generator,
    ),
    "magnetism.loop_dropped_into_field": (
        {"m": "10 g", "R": "0.01 ohm", "B": "1 T", "w": "10 cm", "h": "5 cm"},
        _loop_drop,
    ),
    "magnetism.solenoid_coil_mutual_inductance": (
        {"n": "20 1/cm", "r_s": "2 cm", "N": "100", "r_c": "4 cm", "I0": "5 A", "dt": "50 ms", "R": "10 ohm"},
        _mutual,
    ),
    "magnetism.hall_effect_carrier_density": (
        {"I": "10 mA", "B": "0.5 T", "t": "0.5 mm", "w": "4 mm", "l": "10 mm", "V_H": "10 mV", "V_L": "1 V"},
        _hall,
    ),
    "magnetism.wire_linear_current_density": ({"I": "50 A", "R": "5 mm", "r": "2 mm"}, _wire_kr),
    "magnetism.coaxial_cable_field_regions": (
        {"I": "10 A", "a": "1.5 mm", "b": "4 mm", "c": "10 mm", "r1": "0.75 mm", "r2": "3 mm", "r3": "5 mm"},
        _coax_regions,
    ),
    "magnetism.proton_enters_field_at_angle": (
        {"v": "1000 km/s", "theta": "30 deg", "B": "100 mT"},
        _proton_edge,
    ),
    "magnetism.toroid_rectangular_section": (
        {"N": "500", "I": "2 A", "a": "2 cm", "b": "6 cm", "h": "2 cm"},
        _toroid,
    ),
}

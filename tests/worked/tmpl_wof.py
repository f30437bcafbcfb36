"""Worked examples of the wave-optics, waves and fluids templates of the tmpl-wof batch (issue 10), computed
by hand with plain formulas and hand-typed constants (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

G = 9.81  # m/s², the value the templates show


def _venturi() -> dict[str, tuple[float, str]]:
    # D1 10 cm, D2 6 cm, h 20 cm: Δp = 12600*9.81*0.2 = 24721.2 Pa; (0.6)^4 = 0.1296,
    # v2 = sqrt(49442.4/870.4) = sqrt(56.804) = 7.5369 m/s; Q = π*0.03²*7.5369 = 21.310 L/s
    dp = (13600 - 1000) * G * 0.20
    v2 = math.sqrt(2 * dp / (1000 * (1 - 0.6**4)))
    return {"dp": (dp / 1e3, "kPa"), "v2": (v2, "m/s"), "Q": (math.pi * 0.03**2 * v2 * 1e3, "L/s")}


def _telescope() -> dict[str, tuple[float, str]]:
    # 550 nm, pupil 5 mm, objective 100 mm, ×40, Moon at 384000 km: θ_eye = 134.2 µrad, s_eye = 51.533 km;
    # objective 6.710 µrad, eye/M = 3.355 µrad, the objective rules: θ = 6.710 µrad, s = 2.5766 km
    theta_eye = 1.22 * 550e-9 / 5e-3
    theta = max(1.22 * 550e-9 / 0.100, theta_eye / 40)
    return {
        "s_eye": (3.84e8 * theta_eye / 1e3, "km"),
        "theta_sys": (theta * 1e6, "urad"),
        "s_scope": (3.84e8 * theta / 1e3, "km"),
    }


def _settling() -> dict[str, tuple[float, str]]:
    # steel r 2 mm (7800) in water (1000, 1 mPa s): F = 4/3 π 8e-9 6800 9.81 = 2.2355 mN;
    # Stokes would give 59.3 m/s (Re ~ 2.4e5: no); quadratic: v = sqrt(8*0.002*9.81*6800/(3*0.47*1000)) =
    # 0.87004 m/s
    force = 4 / 3 * math.pi * 0.002**3 * 6800 * G
    v_newton = math.sqrt(8 * 0.002 * G * 6800 / (3 * 0.47 * 1000))
    return {"F_d": (force * 1e3, "mN"), "v_t": (v_newton, "m/s")}


def _melde() -> dict[str, tuple[float, str]]:
    # 100 Hz, 1.2 m, 2 g/m, 3 loops: λ 0.8 m, v 80 m/s, T 12.8 N, M = 1.3048 kg;
    # submerged: 4 loops, λ' 0.6 m, T' = 0.002*60² = 7.2 N; ρ = 1000/(1 − 9/16) = 2285.7 kg/m³
    return {"M": (12.8 / G, "kg"), "T_sub": (7.2, "N"), "rho_b": (1000 / (1 - 9 / 16), "kg/m^3")}


def _rope() -> dict[str, tuple[float, str]]:
    # 2 cm, 5 Hz, 100 N, 0.1 and 0.4 kg/m: Z1 = 3.1623, Z2 = 6.3246 kg/s; P = 2π²·25·4e-4·3.1623 = 0.62403 W,
    # r = (Z1 − Z2)/(Z1 + Z2) = −1/3, A_r = −0.6667 cm, P_t = P (1 − 1/9) = 0.55469 W
    power = 0.5 * 0.1 * (2 * math.pi * 5) ** 2 * 0.02**2 * math.sqrt(100 / 0.1)
    return {"P_i": (power, "W"), "A_r": (-2 / 3, "cm"), "P_t": (power * 8 / 9, "W")}


def _siphon() -> dict[str, tuple[float, str]]:
    # outlet 2 m down, crest 3 m up, 2 cm bore, p_v 12 kPa, ρ 985, p_atm 101 kPa: v = sqrt(39.24) = 6.2642
    # m/s,
    # Q = 1.9680 L/s, p_c = 101000 − 985*9.81*5 = 52685.75 Pa, H_max = 89000/9662.85 − 2 = 7.2105 m
    v = math.sqrt(2 * G * 2)
    return {
        "v": (v, "m/s"),
        "Q": (math.pi * 0.01**2 * v * 1e3, "L/s"),
        "p_c": ((101000 - 985 * G * 5) / 1e3, "kPa"),
        "H_max": (89000 / (985 * G) - 2, "m"),
    }


def _oil_film() -> dict[str, tuple[float, str]]:
    # 800 nm of oil n 1.45 on water: one half-wave shift; 2nt = 2320 nm. Bright: 2320/(m + 0.5) ≤ 700 first at
    # m = 3:
    # 662.86 nm. Dark: 2320/k ≤ 700 first at k = 4: 580 nm
    return {"lam_b": (2320 / 3.5, "nm"), "lam_d": (2320 / 4, "nm")}


def _grating() -> dict[str, tuple[float, str]]:
    # 600 lines/mm (d = 1666.7 nm), 500 nm: d/λ = 3.33, m_max = 3, sin θ = 0.9, θ = 64.158°;
    # 20 mm lit: 12000 lines, R = 36000, Δλ = 500 nm/36000 = 13.889 pm
    return {
        "theta": (math.degrees(math.asin(3 * 500 / (1e6 / 600))), "deg"),
        "dlam": (500e3 / (3 * 600 * 20), "pm"),
    }


def _double_slit() -> dict[str, tuple[float, str]]:
    # 600 nm, a 40 um, d 100 um, 2 m: Δy = 600e-9*2/1e-4 = 12 mm; w = 2*600e-9*2/4e-5 = 60 mm;
    # d/a = 2.5: orders 0, ±1, ±2 inside, 5 fringes
    return {
        "dy": (600e-9 * 2 / 100e-6 * 1e3, "mm"),
        "w": (2 * 600e-9 * 2 / 40e-6 * 1e3, "mm"),
        "N_b": (5.0, ""),
    }


def _swell() -> dict[str, tuple[float, str]]:
    # T 10 s, 1000 km: λ = 9.81*100/(2π) = 156.13 m; c = 15.613 m/s, c_g = 7.8065 m/s; t = 1e6/7.8065 s =
    # 35.583 h
    c_g = G * 10 / (4 * math.pi)
    return {"lam": (G * 100 / (2 * math.pi), "m"), "c_g": (c_g, "m/s"), "t_arr": (1e6 / c_g / 3600, "h")}


def _tank() -> dict[str, tuple[float, str]]:
    # D 1 m, hole 5 cm, 2 m down to 0.5 m: (D/d)^4 = 160000; v0 = sqrt(39.24/(1 − 6.25e-6)) = 6.2642 m/s;
    # t1 = 399.999*0.45152*(1.41421 − 0.70711) = 127.71 s = 2.1285 min; t_empty = 399.999*0.63855 = 255.42 s =
    # 4.2570 min
    k = math.sqrt((1 / 0.05) ** 4 - 1)
    return {
        "v0": (math.sqrt(2 * G * 2 / (1 - 0.05**4)), "m/s"),
        "t1": (k * math.sqrt(2 / G) * (math.sqrt(2) - math.sqrt(0.5)) / 60, "min"),
        "t_empty": (k * math.sqrt(2 * 2 / G) / 60, "min"),
    }


def _pipes() -> dict[str, tuple[float, str]]:
    # 50 kPa, 0.1 Pa s; 2 m of 4 mm then 1 m of 5 mm: L/D⁴ = 7.8125e9 and 1.6e9 m⁻³ (sum 9.4125e9);
    # Q = π 5e4/(128*0.1*9.4125e9) = 1.3038e-6 m³/s = 1.3038 mL/s; Δp1 = 50*7.8125/9.4125 = 41.501 kPa
    r1, r2 = 2 / 0.004**4, 1 / 0.005**4
    return {"Q": (math.pi * 5e4 / (128 * 0.1 * (r1 + r2)) * 1e6, "mL/s"), "dp1": (50 * r1 / (r1 + r2), "kPa")}


def _block_oil() -> dict[str, tuple[float, str]]:
    # H 10 cm, ρ_b 700, 3 cm of oil 850 on water 1000: 700*10 = 850*3 + 1000*h_w, h_w = 4.45 cm; above: 10 − 3
    # − 4.45 = 2.55 cm
    h_w = (700 * 10 - 850 * 3) / 1000
    return {"h_w": (h_w, "cm"), "h_air": (10 - 3 - h_w, "cm")}


def _ball_lens() -> dict[str, tuple[float, str]]:
    # R 5 mm, n 1.5: first image 15 mm behind the front vertex, 5 mm beyond the ball (virtual object, s2 = −5
    # mm);
    # 1.5/(−5) + 1/s = 0.5/5 gives s = 2.5 mm; f = nR/(2(n − 1)) = 7.5 mm
    s2 = 1 / ((1.5 - 1) / 5 - 1.5 / (-5))
    return {"f_eff": (1.5 * 5 / (2 * 0.5), "mm"), "bfd": (s2, "mm")}


def _michelson() -> dict[str, tuple[float, str]]:
    # 5 cm cell, 600 nm, 40 fringes at 50 kPa: n − 1 = 40*600e-9/(2*0.05) = 2.4e-4; at 101.3 kPa: 4.8624e-4
    return {"dn": (2.4e-4, ""), "dn0": (2.4e-4 * 101.3 / 50, "")}


def _tube() -> dict[str, tuple[float, str]]:
    # 500 Hz, r 2 cm, 343 m/s: λ = 68.6 cm, e = 1.2 cm; L1 = 17.15 − 1.2 = 15.95 cm, L2 = 51.45 − 1.2 = 50.25
    # cm
    return {"L1": (15.95, "cm"), "L2": (50.25, "cm")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "fluids.venturi_mercury_manometer": ({"D1": "10 cm", "D2": "6 cm", "h": "20 cm"}, _venturi),
    "optics.telescope_moon_resolution": (
        {"wavelength": "550 nm", "D_e": "5 mm", "D_o": "100 mm", "M": "40"},
        _telescope,
    ),
    "fluids.sphere_settling_regime": (
        {"r": "2 mm", "rho_s": "7800 kg/m^3", "rho_f": "1000 kg/m^3", "eta": "1 mPa*s"},
        _settling,
    ),
    "waves.string_loops_submerged_mass": ({"f": "100 Hz", "L": "1.2 m", "mu": "2 g/m", "n": "3"}, _melde),
    "waves.rope_junction_power": (
        {"A": "2 cm", "f": "5 Hz", "T": "100 N", "mu1": "0.1 kg/m", "mu2": "0.4 kg/m"},
        _rope,
    ),
    "fluids.siphon_crest_limit": ({"d": "2 m", "H": "3 m", "D": "2 cm", "p_v": "12 kPa"}, _siphon),
    "optics.oil_film_visible_colours": ({"t": "800 nm", "n_o": "1.45"}, _oil_film),
    "optics.grating_highest_order_resolution": (
        {"N": "600 1/mm", "W": "20 mm", "wavelength": "500 nm"},
        _grating,
    ),
    "optics.double_slit_envelope_count": (
        {"wavelength": "600 nm", "a": "40 um", "d": "100 um", "L": "2 m"},
        _double_slit,
    ),
    "waves.deep_water_swell_arrival": ({"T": "10 s", "D": "1000 km"}, _swell),
    "fluids.tank_draining_time": ({"D": "1 m", "d": "5 cm", "h0": "2 m", "h1": "0.5 m"}, _tank),
    "fluids.pipes_in_series_symbolic": (
        {"dp": "50 kPa", "eta": "0.1 Pa*s", "L1": "2 m", "D1": "4 mm", "L2": "1 m", "D2": "5 mm"},
        _pipes,
    ),
    "fluids.block_under_oil_layer_symbolic": (
        {"H": "10 cm", "t": "3 cm", "rho_b": "700 kg/m^3", "rho_o": "850 kg/m^3", "rho_w": "1000 kg/m^3"},
        _block_oil,
    ),
    "optics.ball_lens_focus_symbolic": ({"R": "5 mm", "n": "1.5"}, _ball_lens),
    "optics.michelson_gas_cell": (
        {"L": "5 cm", "wavelength": "600 nm", "N": "40", "p": "50 kPa"},
        _michelson,
    ),
    "waves.resonance_tube_end_correction": ({"f": "500 Hz", "r": "2 cm", "v_s": "343 m/s"}, _tube),
}

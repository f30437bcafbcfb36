"""Worked examples of the quantum, relativity and modern-physics templates of batch tmpl-qrm
(finite well, Gamow tunnelling, twin paradox, lab-frame elastic scattering, reaction kinematics, …),
computed by hand with CODATA 2018 constants typed in (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

HBAR = 1.054571817e-34  # J s
M_E = 9.1093837015e-31  # kg
Q_E = 1.602176634e-19  # C
C = 299_792_458.0  # m/s


def _finite_well() -> dict[str, tuple[float, str]]:
    # a = 1 nm, E = 0.06 eV: k = 1.2548 /nm, ka/2 = 0.6274 rad; V0 = 0.06/cos²(0.6274) = 0.09156 eV;
    # κ = k tan(ka/2) = 0.9101 /nm, δ = 1.0988 nm; P_out = (c³/s)/(θ + s c + c³/s) = 0.4504
    k = math.sqrt(2 * M_E * 0.06 * Q_E) / HBAR
    th = k * 1e-9 / 2
    v0 = 0.06 / math.cos(th) ** 2
    kappa = k * math.tan(th)
    inside = 1e-9 / 2 + math.sin(k * 1e-9) / (2 * k)
    outside = math.cos(th) ** 2 / kappa
    return {"V0": (v0, "eV"), "delta": (1e9 / kappa, "nm"), "P_out": (outside / (inside + outside), "")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "quantum.finite_well_depth_from_ground_state": ({"a": "1 nm", "E": "0.06 eV"}, _finite_well),
}


def _twin() -> dict[str, tuple[float, str]]:
    # 6 ly at 0.5c: T = 24 yr, γ = 1.1547, τ = 20.785 yr, return-leg rate √3 = 1.7321 /yr,
    # Earth sees the turnaround at 12 + 6 = 18 yr
    return {
        "T_earth": (24.0, "year"),
        "tau": (24 * math.sqrt(1 - 0.25), "year"),
        "rate_in": (math.sqrt(1.5 / 0.5), "1/year"),
        "t_see": (18.0, "year"),
    }


def _alpha_nitrogen() -> dict[str, tuple[float, str]]:
    # Q = (4.002603 + 14.003074 − 1.007825 − 16.999132) u = −0.001280 u = −1.1923 MeV;
    # K_th = 1.1923 (1 + 4.002603/14.003074) = 1.5331 MeV; at 90°, 6 MeV alphas:
    # K_p (1 + m_p/m_O) = K (1 − m_α/m_O) + Q → K_p = (4.5872 − 1.1923)/1.059287 = 3.2049 MeV.
    # Here solved by bisection on energy conservation with momentum conservation, not the quadratic formula.
    ma, mn, mp, mo = 4.002603, 14.003074, 1.007825, 16.999132
    q = (ma + mn - mp - mo) * 931.494
    k, th = 6.0, math.radians(90)

    def excess(kp: float) -> float:
        # oxygen momentum² from the vector triangle (units: u·MeV), then energy balance
        po2 = 2 * ma * k + 2 * mp * kp - 2 * 2 * math.sqrt(ma * k * mp * kp) * math.cos(th)
        return kp + po2 / (2 * mo) - (k + q)

    lo, hi = 1e-9, k + 5
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) < 0 else (lo, mid)
    return {"Q": (q, "MeV"), "K_th": (-q * (1 + ma / mn), "MeV"), "K_p": (lo, "MeV")}


def _gamow() -> dict[str, tuple[float, str]]:
    # Q = 5 MeV, daughter Z = 82, A = 206: R = 1.2·206^(1/3) = 7.0870 fm; V_B = 2·82·1.44/7.0870 = 33.32 MeV;
    # b = 236.16/5 = 47.232 fm; x = 0.15005; √(2·3727·5)/197.3 = 0.97848 /fm;
    # 2G = 2·0.97848·47.232·(1.17303 − 0.35706) = 75.42 (here a midpoint-rule integral, not the closed form);
    # f = c√(2·5/3727)/(2R) = 1.0956e21 /s
    z, a, q = 82, 206, 5.0
    r = 1.2 * a ** (1 / 3)
    b = 2 * z * 1.440 / q
    n = 200_000
    h = (b - r) / n
    integral = (
        sum(math.sqrt(2 * 3727 * (2 * z * 1.440 / (r + (i + 0.5) * h) - q)) for i in range(n)) * h / 197.3
    )
    f = C * math.sqrt(2 * q / 3727) / (2 * r * 1e-15)
    return {"V_B": (2 * z * 1.440 / r, "MeV"), "b": (b, "fm"), "G2": (2 * integral, ""), "f": (f, "1/s")}


EXAMPLES.update(
    {
        "relativity.twin_paradox_signals": ({"D": "6 light_year", "v": "0.5 c"}, _twin),
        "modern.alpha_nitrogen_proton_energy": ({"K": "6 MeV", "theta": "90 deg"}, _alpha_nitrogen),
        "quantum.alpha_decay_gamow": ({"Q": "5 MeV", "Z": "82", "A": "206"}, _gamow),
    }
)


def _pp_elastic() -> dict[str, tuple[float, str]]:
    # 1000 MeV protons, θ = 30°: K′ = 1000·0.75/(1 + 1000·0.25/1876.54) = 661.83 MeV, K_rec = 338.17 MeV;
    # tan φ = 2/((γ + 1) tan 30°), γ = 2.06579 → φ = 48.49°. Here: bisection on energy conservation
    # with the recoil momentum from the vector triangle, then φ from the momentum components.
    m, k, th = 938.27, 1000.0, math.radians(30)
    p = math.sqrt(k * k + 2 * k * m)

    def excess(k1: float) -> float:
        p1 = math.sqrt(k1 * k1 + 2 * k1 * m)
        p2sq = p * p + p1 * p1 - 2 * p * p1 * math.cos(th)
        return k1 + (math.sqrt(p2sq + m * m) - m) - k

    lo, hi = 0.0, k
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) < 0 else (lo, mid)
    p1 = math.sqrt(lo * lo + 2 * lo * m)
    phi = math.degrees(math.atan2(p1 * math.sin(th), p - p1 * math.cos(th)))
    return {"K_scat": (lo, "MeV"), "K_rec": (k - lo, "MeV"), "phi": (phi, "deg")}


def _two_photons() -> dict[str, tuple[float, str]]:
    # 1200 and 400 MeV at 60°: M² = 2·1200·400·0.5 = 480000 → M = 692.82 MeV/c²;
    # (pc)² = 1.44e6 + 1.6e5 + 4.8e5 = 2.08e6 → p = 1442.2 MeV/c; v = 1442.2/1600 = 0.90139 c
    px, py = 1200 + 400 * math.cos(math.radians(60)), 400 * math.sin(math.radians(60))
    p = math.hypot(px, py)
    return {"M": (math.sqrt(1600**2 - p * p), "MeV/c^2"), "p": (p, "MeV/c"), "v": (p / 1600, "c")}


EXAMPLES.update(
    {
        "relativity.elastic_proton_scattering_lab": ({"K": "1000 MeV", "theta": "30 deg"}, _pp_elastic),
        "relativity.two_photon_invariant_mass": (
            {"E1": "1200 MeV", "E2": "400 MeV", "theta": "60 deg"},
            _two_photons,
        ),
    }
)


def _rocket() -> dict[str, tuple[float, str]]:
    # u = 0.5c, m0/m1 = 8: (1 − v/c)/(1 + v/c) = 8^(−2u/c) = 1/8 → v = 7/9 c = 0.77778 c;
    # γ = 9/√32 = 1.59099; kinetic fraction (γ − 1)/8 = 0.073874
    v = 7 / 9
    gamma = 1 / math.sqrt(1 - v * v)
    return {"v": (v, "c"), "gamma": (gamma, ""), "f_K": ((gamma - 1) / 8, "")}


def _aberration() -> dict[str, tuple[float, str]]:
    # β = 0.6 (γ = 1.25), θ′ = 120°, E0 = 100 keV: cos θ = (−0.5 + 0.6)/(1 − 0.3) = 1/7 → θ = 81.787°;
    # E = 1.25·100·0.7 = 87.5 keV; θ_h = arccos 0.6 = 53.130°.
    # Here via the photon's momentum components boosted by a Lorentz transformation.
    b, g, th0, e0 = 0.6, 1.25, math.radians(120), 100.0
    px, py = e0 * math.cos(th0), e0 * math.sin(th0)
    e_lab, px_lab = g * (e0 + b * px), g * (px + b * e0)
    return {
        "theta": (math.degrees(math.atan2(py, px_lab)), "deg"),
        "E": (e_lab, "keV"),
        "theta_h": (math.degrees(math.acos(0.6)), "deg"),
    }


EXAMPLES.update(
    {
        "relativity.relativistic_rocket": ({"u": "0.5 c", "R": "8"}, _rocket),
        "relativity.aberration_headlight": (
            {"v": "0.6 c", "theta0": "120 deg", "E0": "100 keV"},
            _aberration,
        ),
    }
)


def _half_well_ramp() -> dict[str, tuple[float, str]]:
    # L = 1 nm, V1 = 200 meV: E1⁽⁰⁾ = π²ħ²/(2mL²) = 0.37603 eV; ΔE1 = 50 − 200/π² = 29.736 meV,
    # ΔE2 = 50 meV, E1 = 0.40577 eV. Here the matrix elements are integrated numerically (midpoint rule).
    e10 = math.pi**2 * HBAR**2 / (2 * M_E * 1e-18) / Q_E
    n_pts = 100_000

    def shift(n: int) -> float:
        h = 0.5 / n_pts
        total = 0.0
        for i in range(n_pts):
            u = 0.5 + (i + 0.5) * h
            total += 2 * math.sin(n * math.pi * u) ** 2 * 200 * (2 * u - 1)
        return total * h

    d1 = shift(1)
    return {"dE1": (d1, "meV"), "dE2": (shift(2), "meV"), "E1": (e10 + d1 / 1000, "eV")}


def _zeeman() -> dict[str, tuple[float, str]]:
    # l = 1 (p level), B = 20 mT: μ_B B = 1.15769 µeV; g(3/2) = 4/3 → 1.5436 µeV; g(1/2) = 2/3 → 0.77179 µeV;
    # 2j = 3 gaps in j = 3/2: 4.6308 µeV
    mub = 9.2740100783e-24 / Q_E * 1e6 * 0.020  # µeV at 20 mT

    def lande(j: float, ell: int) -> float:
        return 1 + (j * (j + 1) + 0.75 - ell * (ell + 1)) / (2 * j * (j + 1))

    up, low = lande(1.5, 1) * mub, lande(0.5, 1) * mub
    return {"dE_up": (up, "ueV"), "dE_low": (low, "ueV"), "spread": (3 * up, "ueV")}


EXAMPLES.update(
    {
        "quantum.half_well_ramp_perturbation": ({"L": "1 nm", "V1": "200 meV"}, _half_well_ramp),
        "quantum.anomalous_zeeman_levels": ({"l": "1", "B": "20 mT"}, _zeeman),
    }
)


def _rabi() -> dict[str, tuple[float, str]]:
    # Ω/2π = 1 MHz, Δ/2π = 0.75 MHz, 0.3 µs: Ω′/2π = 1.25 MHz, amplitude 1/1.5625 = 0.64,
    # phase π·1.25·0.3 = 1.1781 rad, sin² = 0.85355, P = 0.54627.
    # Here by RK4 integration of the rotating-frame Schrödinger equation, H = (ħ/2)[[−Δ, Ω], [Ω, Δ]].
    om, de = 2 * math.pi * 1.0e6, 2 * math.pi * 0.75e6
    a, b = complex(1), complex(0)

    def deriv(a: complex, b: complex) -> tuple[complex, complex]:
        return (-0.5j * (-de * a + om * b), -0.5j * (om * a + de * b))

    n, t_end = 20_000, 0.3e-6
    h = t_end / n
    for _ in range(n):
        k1 = deriv(a, b)
        k2 = deriv(a + h / 2 * k1[0], b + h / 2 * k1[1])
        k3 = deriv(a + h / 2 * k2[0], b + h / 2 * k2[1])
        k4 = deriv(a + h * k3[0], b + h * k3[1])
        a += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        b += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    return {"f_gen": (math.hypot(1.0, 0.75), "MHz"), "P_max": (1 / (1 + 0.75**2), ""), "P": (abs(b) ** 2, "")}


EXAMPLES.update(
    {
        "quantum.rabi_detuned_pulse": ({"f_R": "1 MHz", "f_D": "0.75 MHz", "t": "0.3 us"}, _rabi),
    }
)


def _pair() -> dict[str, tuple[float, str]]:
    # 3 MeV photon near a nucleus of rest energy 100 GeV: E_th = 1.022·(1 + 0.511/1e5) = 1.0220052 MeV;
    # the products then move together at V = c·p/E_total = c·E_th/√(E_th² + (M + 2m)²) = 3.0639 km/s;
    # K at threshold = 2·0.511²/1e5 MeV = 5.2224 eV; K = (3 − 1.022)/2 = 0.989 MeV; γ = 2.93542, v = 0.94019
    # c.
    # Threshold here from s = (E + M)² − E² = (M + 2m)²; the products' kinetic energy at threshold from their
    # common motion (momentum E_th, rest energy M + 2m), written without cancellation.
    m, mn = 0.511, 100_000.0
    mt = mn + 2 * m
    e_th = (mt**2 - mn**2) / (2 * mn)
    k_th = e_th**2 / (math.sqrt(e_th**2 + mt**2) + mt)
    k = (3.0 - 2 * m) / 2
    gamma = 1 + k / m
    return {
        "V_N": (C * e_th / math.sqrt(e_th**2 + mt**2) / 1e3, "km/s"),
        "K_th": (k_th * 1e6, "eV"),
        "K": (k, "MeV"),
        "v": (math.sqrt(1 - 1 / gamma**2), "c"),
    }


def _moseley() -> dict[str, tuple[float, str]]:
    # Cu (Z = 29) at 30 kV: Kα = 0.75·13.6·28² = 7996.8 eV; V_K = 13.6·784 = 10.662 kV;
    # λ_min = hc/(e·30 kV) = 41.328 pm
    h, e = 6.62607015e-34, Q_E
    return {
        "E_Ka": (0.75 * 13.6 * 28**2 / 1000, "keV"),
        "V_K": (13.6 * 28**2 / 1000, "kV"),
        "lam_min": (h * C / (e * 30e3) * 1e12, "pm"),
    }


EXAMPLES.update(
    {
        "modern.pair_production_near_nucleus": ({"E": "3 MeV", "Mc2": "100 GeV"}, _pair),
        "modern.moseley_xray_tube": ({"Z": "29", "V": "30 kV"}, _moseley),
    }
)


def _yttrium() -> dict[str, tuple[float, str]]:
    # 10 GBq of Sr-90, 64.05 h after extraction (one daughter half-life): A_Y = 5 GBq;
    # N_Y = 1e10·64.05·3600/ln 2 = 3.3266e15 → 0.49666 µg; N_Sr = 1e10·28.79·3.15576e7/ln 2 = 1.3107e19 →
    # 1.9569 mg
    n_a, m_mol = 6.02214076e23, 89.91
    n_y = 1e10 * 64.05 * 3600 / math.log(2)
    n_sr = 1e10 * 28.79 * 365.25 * 86400 / math.log(2)
    return {
        "A_Y": (5.0, "GBq"),
        "m_Y": (n_y * m_mol / n_a * 1e6, "ug"),
        "m_Sr": (n_sr * m_mol / n_a * 1e3, "mg"),
    }


EXAMPLES.update(
    {
        "modern.yttrium_generator_ingrowth": ({"A": "10 GBq", "t": "64.05 h"}, _yttrium),
    }
)


def _fine_structure() -> dict[str, tuple[float, str]]:
    # He⁺ (Z = 2), n = 2: E_2 = −13.606 eV; 2p3/2 − 2s1/2,2p1/2 = α²·13.606 = 0.72454 meV; f = 175.19 GHz.
    # Here as the difference of E_nj from the full formula at j = 3/2 and j = 1/2.
    z, n, er, al = 2, 2, 13.606, 0.0072974

    def level(j: float) -> float:
        return -(z * z * er / n**2) * (1 + (z * al) ** 2 / n**2 * (n / (j + 0.5) - 0.75))

    de = level(1.5) - level(0.5)
    return {
        "E_n": (-z * z * er / n**2, "eV"),
        "dE": (de * 1e3, "meV"),
        "f": (de * Q_E / 6.62607015e-34 / 1e9, "GHz"),
    }


EXAMPLES.update(
    {
        "quantum.hydrogenic_fine_structure": ({"Z": "2", "n": "2"}, _fine_structure),
    }
)

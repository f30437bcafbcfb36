"""Worked examples of the level-5 waves, optics, modern, quantum and relativity templates of the
hard tier (issue 19), each computed by a numerical route that does not retype the template's
closed form: boundary conditions solved as linear systems, rays traced as vectors, the equation of
motion integrated, conservation laws bisected."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tests.ode import bisect as _bisect

C = 299_792_458.0  # m/s
M_E = 9.1093837139e-31  # kg (CODATA 2022, as Pint has it)
Q_E = 1.602176634e-19  # C
H = 6.62607015e-34  # J s
HBAR = H / (2 * math.pi)


# --- optics.ball_lens_marginal_ray ----------------------------------------------------------------

def _refract(d: np.ndarray, normal: np.ndarray, n1: float, n2: float) -> np.ndarray:
    """Vector Snell's law; ``normal`` points against ``d``."""
    cos_i = -float(d @ normal)
    ratio = n1 / n2
    cos_t = math.sqrt(1 - ratio**2 * (1 - cos_i**2))
    return ratio * d + (ratio * cos_i - cos_t) * normal


def _sphere_hit(p: np.ndarray, d: np.ndarray, radius: float, far: bool) -> np.ndarray:
    """Point where the ray p + s d meets the sphere |x| = radius (the quadratic in s, solved by numpy)."""
    roots = np.sort(np.roots([1.0, 2 * float(p @ d), float(p @ p) - radius**2]).real)
    return p + (roots[1] if far else roots[0]) * d


def _ball() -> dict[str, tuple[float, str]]:
    # R 2 mm, n 1.80, h 1.50 mm: i = 48.59°, r = 24.62°, 2r > i so the chord reaches the back surface
    # above the axis and the emerging ray crosses it, 2.0206 mm behind the centre, at δ = 47.93°;
    # the chord is 2R cos r = 3.6362 mm long
    radius, n, h = 2.0, 1.80, 1.50
    p0, d0 = np.array([-10.0, h]), np.array([1.0, 0.0])  # (z, y)
    p1 = _sphere_hit(p0, d0, radius, far=False)
    d1 = _refract(d0, p1 / radius, 1.0, n)
    p2 = _sphere_hit(p1, d1, radius, far=True)
    d2 = _refract(d1, -p2 / radius, n, 1.0)
    # first axis crossing: on the chord if y changes sign between p1 and p2, else on the exit ray
    seg_p, seg_d = (p1, d1) if p2[1] < 0 else (p2, d2)
    z_x = seg_p[0] - seg_p[1] * seg_d[0] / seg_d[1]
    psi = math.degrees(math.atan2(-seg_d[1], seg_d[0]))
    return {"z_x": (z_x, "mm"), "psi": (psi, "deg"), "L_in": (float(np.hypot(*(p2 - p1))), "mm")}


# --- relativity.electron_crosses_field_strip ------------------------------------------------------

def _strip() -> dict[str, tuple[float, str]]:
    # 500 kV, 20 mT, 10 cm: pc = √(K² + 2K mc²) = 0.8723 MeV, r = 14.549 cm > w: crosses after
    # turning 43.42°, in 0.4262 ns, 3.981 cm sideways; the equation of motion dp/dt = −e v × B is
    # integrated (RK4) to the exit plane
    k_j, b, w = 500e3 * Q_E, 0.020, 0.10
    e_tot = k_j + M_E * C**2
    p_mag = math.sqrt(e_tot**2 - (M_E * C**2) ** 2) / C

    def deriv(state: np.ndarray) -> np.ndarray:
        _, _, px, py = state
        vx, vy = px * C**2 / e_tot, py * C**2 / e_tot  # energy is constant in a magnetic field
        # B along +z, charge −e: F = −e (v × B) = −e (vy B, −vx B)
        return np.array([vx, vy, -Q_E * vy * b, Q_E * vx * b])

    def step(state: np.ndarray, dt: float) -> np.ndarray:
        k1 = deriv(state)
        k2 = deriv(state + dt / 2 * k1)
        k3 = deriv(state + dt / 2 * k2)
        k4 = deriv(state + dt * k3)
        return state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

    state, t, dt = np.array([0.0, 0.0, p_mag, 0.0]), 0.0, 1e-12
    new = step(state, dt)
    while 0 <= new[0] < w:
        state, t = new, t + dt
        new = step(state, dt)
    # bisect the last step for the crossing of x = w (or of x = 0 on the way back)
    edge, last = (w if new[0] >= w else 0.0), state
    tau = _bisect(lambda s: float(step(last, s)[0] - edge), 0.0, dt)
    state, t = step(last, tau), t + tau
    radius = p_mag / (Q_E * b)
    return {"r": (radius * 100, "cm"), "t_f": (t * 1e9, "ns"), "y_exit": (abs(state[1]) * 100, "cm")}


# --- relativity.proton_helium_elastic_recoil ------------------------------------------------------

def _proton_helium() -> dict[str, tuple[float, str]]:
    # 800 MeV protons, detected at 60°: bisect the scattered momentum on energy conservation, the
    # nucleus taking the rest of the momentum: K1' = 565.56 MeV, K_α = 234.44 MeV, φ = 49.29°
    m_p, m_a, k, th = 938.272, 3727.38, 800.0, math.radians(60)
    e1 = k + m_p
    p1 = math.sqrt(e1**2 - m_p**2)

    def energy_left(pf: float) -> float:
        pa = math.hypot(p1 - pf * math.cos(th), pf * math.sin(th))
        return e1 + m_a - math.hypot(pf, m_p) - math.hypot(pa, m_a)

    pf = _bisect(energy_left, 0.0, p1)
    k1 = math.hypot(pf, m_p) - m_p
    phi = math.atan2(pf * math.sin(th), p1 - pf * math.cos(th))
    return {"K1f": (k1, "MeV"), "K_a": (k - k1, "MeV"), "phi": (math.degrees(phi), "deg")}


# --- modern.compton_gamma_from_recoil -------------------------------------------------------------

def _compton() -> dict[str, tuple[float, str]]:
    # electron 400 keV, photon at 90°: bisect E0 − E1(E0) = K: E0 = 694.37 keV, λ1 = 4.2119 pm;
    # momentum vectors give the electron's direction, 22.97°, and speed, 2.482e8 m/s
    mc2 = M_E * C**2 / Q_E / 1e3  # keV
    k, th = 400.0, math.radians(90)

    def scattered(e0: float) -> float:
        return e0 / (1 + e0 / mc2 * (1 - math.cos(th)))

    e0 = _bisect(lambda x: x - scattered(x) - k, k, 100 * k)
    e1 = e0 - k
    p_e = np.array([e0, 0.0]) - e1 * np.array([math.cos(th), math.sin(th)])  # keV/c
    phi = abs(math.atan2(p_e[1], p_e[0]))
    e_el = k + mc2
    lam1 = H * C / (e1 * 1e3 * Q_E) * 1e12  # pm
    return {"E0": (e0, "keV"), "lam1": (lam1, "pm"), "phi": (math.degrees(phi), "deg"),
            "v_e": (float(np.hypot(*p_e)) / e_el * C, "m/s")}


# --- waves.train_horn_retarded_doppler ------------------------------------------------------------

def _train() -> dict[str, tuple[float, str]]:
    # 15 °C, 300 km/h, 100 m, 0.4 s after passing, 500 Hz, 100 W: bisect the emission time on
    # c (t − t_e) = distance: the horn was 8.750 m past the nearest point; the heard frequency is
    # f0 / (d t_received / d t_emitted), by a central difference: 489.55 Hz; 88.97 dB
    c = 331.3 * math.sqrt(288.15 / 273.15)
    v, b, t, f0, p = 300 / 3.6, 100.0, 0.4, 500.0, 100.0

    def received(te: float) -> float:
        return te + math.hypot(b, v * te) / c

    te = _bisect(lambda s: received(s) - t, -10.0, t)
    dte = 1e-6
    rate = (received(te + dte) - received(te - dte)) / (2 * dte)
    r = math.hypot(b, v * te)
    return {"x_e": (v * te, "m"), "f": (f0 / rate, "Hz"),
            "L": (10 * math.log10(p / (4 * math.pi * r**2) / 1e-12), "")}


# --- quantum.velocity_selected_electron_barrier ---------------------------------------------------

def _barrier() -> dict[str, tuple[float, str]]:
    # 20 V across 1.5 cm with 3 mT: v = 4.444e5 m/s, K = 0.5615 eV below a 1 eV barrier 0.3 nm wide;
    # ψ and ψ′ matched at both edges as a 4x4 linear system (complex wave numbers): T = 0.4051
    e_f, b_s, v0, a, i0 = 20 / 0.015, 3e-3, 1.0 * Q_E, 0.3e-9, 20.0
    v = e_f / b_s
    k_j = 0.5 * M_E * v**2
    k1 = M_E * v / HBAR
    q = np.sqrt(complex(2 * M_E * (k_j - v0))) / HBAR  # imaginary below the barrier
    # ψ = e^{ik1x} + r e^{−ik1x} (x<0); A e^{iqx} + B e^{−iqx} (0<x<a); t e^{ik1x} (x>a)
    ea, eb, et = np.exp(1j * q * a), np.exp(-1j * q * a), np.exp(1j * k1 * a)
    m = np.array([[1, -1, -1, 0],
                  [-k1, -q, q, 0],
                  [0, ea, eb, -et],
                  [0, q * ea, -q * eb, -k1 * et]], dtype=complex)
    r, _, _, t = np.linalg.solve(m, np.array([-1, -k1, 0, 0], dtype=complex))
    trans = abs(t) ** 2
    assert abs(trans + abs(r) ** 2 - 1) < 1e-9
    return {"K": (k_j / Q_E, "eV"), "T": (trans, ""), "I_t": (trans * i0, "nA")}


# --- waves.seismic_refraction_first_arrival ------------------------------------------------------

def _golden_min(f: Callable[[float], float], lo: float, hi: float) -> float:
    """Least value of a unimodal f on [lo, hi] (golden-section search)."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(200):
        c, d = b - g * (b - a), a + g * (b - a)
        if f(c) < f(d):
            b = d
        else:
            a = c
    return f(0.5 * (a + b))


def _seismic() -> dict[str, tuple[float, str]]:
    # direct wave 12 m in 15 ms (v1 = 800 m/s); refracted arrivals at 2 km/s with a 20 ms intercept;
    # geophone at 60 m. Travel times by Fermat's principle (least time over the paths through the
    # layer and along the interface), the depth bisected on the intercept:
    # h = 8.729 m, x_c = 26.67 m, first arrival 50.00 ms (the head wave), reflection 78.11 ms
    v1, v2, t_i, x5 = 12 / 15e-3, 2000.0, 20e-3, 60.0

    def head(x: float, h: float) -> float:  # least time down to the rock, along it, and up
        return _golden_min(lambda a: math.hypot(h, a) / v1 + (x - 2 * a) / v2 + math.hypot(h, a) / v1,
                           0.0, x / 2)

    def intercept(h: float) -> float:  # the head-wave line through two far geophones, at x = 0
        x_a, x_b = 2000.0, 3000.0
        t_a, t_b = head(x_a, h), head(x_b, h)
        return t_a - x_a * (t_b - t_a) / (x_b - x_a)

    h = _bisect(lambda d: intercept(d) - t_i, 0.01, 200.0)
    x_c = _bisect(lambda x: x / v1 - head(x, h), 1e-3, 1000.0)
    t_first = min(x5 / v1, head(x5, h))
    t_refl = _golden_min(lambda s: (math.hypot(h, s) + math.hypot(h, x5 - s)) / v1, 0.0, x5)
    return {"h": (h, "m"), "x_cross": (x_c, "m"), "t_first": (t_first * 1e3, "ms"),
            "t_refl": (t_refl * 1e3, "ms")}


# --- relativity.pion_slowing_in_absorber --------------------------------------------------------

def _pion() -> dict[str, tuple[float, str]]:
    # 250 MeV pion, 60 cm block losing 2.0 MeV/cm: it leaves with 130 MeV. Lab and proper times
    # integrated along the path by Simpson's rule (dt = E dx/(pc²), dτ = m dx/p):
    # t = 2.2196 ns, τ = 0.9531 ns, 1 − exp(−τ/τ0) = 0.03595
    m, tau0, k0, length, s = 139.57, 26.03, 250.0, 60.0, 2.0  # MeV, ns, MeV, cm, MeV/cm
    c_cm_ns = C * 1e-7
    n = 20000
    xs = np.linspace(0.0, length, n + 1)
    energy = k0 - s * xs + m
    pc = np.sqrt(energy**2 - m**2)
    weights = np.ones(n + 1)
    weights[1:-1:2], weights[2:-1:2] = 4, 2
    dx = length / n

    def simpson(f: np.ndarray) -> float:
        return float(weights @ f) * dx / 3

    t = simpson(energy / pc) / c_cm_ns
    tau = simpson(m / pc) / c_cm_ns
    return {"t_lab": (t, "ns"), "tau": (tau, "ns"), "Q": (1 - math.exp(-tau / tau0), "")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "optics.ball_lens_marginal_ray": ({"R": "2 mm", "n": "1.80", "h": "1.5 mm"}, _ball),
    "relativity.electron_crosses_field_strip": ({"V": "500 kV", "B": "20 mT", "w": "10 cm"}, _strip),
    "relativity.proton_helium_elastic_recoil": ({"K": "800 MeV", "theta": "60 deg"}, _proton_helium),
    "modern.compton_gamma_from_recoil": ({"K": "400 keV", "theta": "90 deg"}, _compton),
    "waves.train_horn_retarded_doppler": (
        {"T_air": "15 degC", "v": "300 km/h", "b": "100 m", "t": "0.4 s", "f0": "500 Hz", "P": "100 W"},
        _train),
    "quantum.velocity_selected_electron_barrier": (
        {"V_p": "20 V", "d_p": "1.5 cm", "B_s": "3 mT", "V0": "1 eV", "a": "0.3 nm", "I0": "20 nA"},
        _barrier),
    "waves.seismic_refraction_first_arrival": (
        {"x1": "12 m", "t1": "15 ms", "v2": "2 km/s", "t_i": "20 ms", "x5": "60 m"}, _seismic),
    "relativity.pion_slowing_in_absorber": ({"K0": "250 MeV", "L": "60 cm", "S": "2.0 MeV/cm"}, _pion),
}

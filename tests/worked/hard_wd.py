"""Worked examples of the hard modern, quantum and relativity templates of branch ``wd`` (issue 19),
each computed by a numerical route that does not retype the template's closed form: four-vectors
boosted by a matrix and the extreme angle found by a scan, rate equations integrated step by step,
eigenvalue conditions bisected, integrals summed."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tests.ode import bisect as _bisect

C = 299_792_458.0  # m/s


def _golden_max(f: Callable[[float], float], lo: float, hi: float) -> float:
    """Argument of the maximum of a unimodal f on [lo, hi] (golden-section search)."""
    r = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(200):
        x1, x2 = b - r * (b - a), a + r * (b - a)
        if f(x1) < f(x2):
            a = x1
        else:
            b = x2
    return 0.5 * (a + b)


# --- relativity.kaon_decay_pion_cone -------------------------------------------------------------

def _kaon_cone() -> dict[str, tuple[float, str]]:
    # p_K = 1250 MeV/c, d = 7.49 cm: the pion's rest-frame momentum from energy conservation (bisected),
    # each emission direction boosted by the Lorentz matrix, the largest lab angle found by a scan and a
    # golden-section search over θ*; survival from the proper time to reach d
    m_k, m_pi, tau0 = 497.61, 139.57, 89.54e-12
    p_k, d = 1250.0, 0.0749
    p_star = _bisect(lambda p: 2 * math.hypot(p, m_pi) - m_k, 0.0, m_k)
    e_k = math.hypot(p_k, m_k)
    gamma, beta = e_k / m_k, p_k / e_k
    boost = np.array([[gamma, gamma * beta], [gamma * beta, gamma]])  # acts on (E, p_parallel)

    def lab(theta_star: float) -> tuple[float, float]:
        e_par = boost @ np.array([math.hypot(p_star, m_pi), p_star * math.cos(theta_star)])
        return float(e_par[1]), p_star * math.sin(theta_star)

    def angle(theta_star: float) -> float:
        par, perp = lab(theta_star)
        return math.atan2(perp, par)

    grid = np.linspace(0.0, math.pi, 2001)
    k = int(np.argmax([angle(t) for t in grid]))
    best = _golden_max(angle, grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)])
    par, perp = lab(best)
    lab_time = d / (beta * C)
    return {"P_dec": (1 - math.exp(-lab_time / gamma / tau0), ""),
            "theta_max": (math.degrees(angle(best)), "deg"),
            "p_ext": (math.hypot(par, perp), "MeV/c")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "relativity.kaon_decay_pion_cone": ({"p_K": "1250 MeV/c", "d": "7.49 cm"}, _kaon_cone),
}


# --- modern.manganese_foil_activation_counting ---------------------------------------------------

def _rk4(f: Callable[[float, float], float], y: float, t0: float, t1: float, n: int) -> float:
    """y(t1) for dy/dt = f(t, y), y(t0) = y, by n classical Runge-Kutta steps."""
    h = (t1 - t0) / n
    t = t0
    for _ in range(n):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h * k1 / 2)
        k3 = f(t + h / 2, y + h * k2 / 2)
        k4 = f(t + h, y + h * k3)
        y += h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        t += h
    return y


def _manganese() -> dict[str, tuple[float, str]]:
    # 197 mg Mn, φ = 4.54e7 cm⁻² s⁻¹ for 85.5 min, counter limit 106 kBq, 47.7 min at ε = 0.0234:
    # dN56/dt = Nσφ − λN56 integrated (RK4); the cooling time bisected on A(t) = 106 kBq (A_end is
    # above it); the counts ε∫A dt summed by RK4 on dC/dt = εA
    lam = math.log(2) / (2.579 * 3600)
    rate = 197e-3 / 54.938 * 6.02214076e23 * 13.3e-28 * 4.54e11
    n56 = _rk4(lambda t, n: rate - lam * n, 0.0, 0.0, 85.5 * 60, 4000)
    a_end = lam * n56
    t_wait = _bisect(lambda t: a_end * math.exp(-lam * t) - 106e3, 0.0, 1e6) if a_end > 106e3 else 0.0
    a_c = a_end * math.exp(-lam * t_wait)
    counts = _rk4(lambda t, _: 0.0234 * a_c * math.exp(-lam * t), 0.0, 0.0, 47.7 * 60, 4000)
    return {"A_end": (a_end / 1e3, "kBq"), "N_c": (counts, "")}


EXAMPLES["modern.manganese_foil_activation_counting"] = (
    {"m": "197 mg", "phi": "4.54e7 1/(cm^2*s)", "t_irr": "85.5 min", "A_max": "106 kBq", "T_c": "47.7 min",
     "eps": "0.0234"}, _manganese)


# --- modern.photoelectron_shell_spectrometer -----------------------------------------------------

M_E = 9.1093837015e-31  # kg
Q_E = 1.602176634e-19  # C


def _photoelectron() -> dict[str, tuple[float, str]]:
    # gold (Z = 79), 200 keV photons, 10 mT: the photon can ionise the K shell (E_K = 82.80 keV), so
    # K = 117.2 keV; the relativistic equation of motion dp/dt = −e v × B is integrated (RK4) from the
    # slit until the electron comes back to the slit plane, giving where it lands and when
    e_k, e_l = 13.61 * 78**2, 13.61 * (79 - 7.4) ** 2 / 4  # eV
    photon = 200e3
    kinetic = photon - (e_k if photon > e_k else e_l)  # eV
    energy = kinetic * Q_E + M_E * C**2  # J, constant in a magnetic field
    p0 = math.sqrt(energy**2 - (M_E * C**2) ** 2) / C
    b = 0.010

    def deriv(s: np.ndarray) -> np.ndarray:
        v = s[2:] * C**2 / energy
        return np.array([v[0], v[1], -Q_E * v[1] * b, Q_E * v[0] * b])  # F = −e v × B, B along +z

    s, t = np.array([0.0, 0.0, 0.0, p0]), 0.0  # leaves along +y; charge −e curves it towards +x
    h = 2 * math.pi * energy / (Q_E * C**2 * b) / 20000
    while True:
        k1 = deriv(s)
        k2 = deriv(s + h * k1 / 2)
        k3 = deriv(s + h * k2 / 2)
        k4 = deriv(s + h * k3)
        nxt = s + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        if t > 0 and nxt[1] < 0:
            frac = s[1] / (s[1] - nxt[1])  # linear interpolation to y = 0 (the step is tiny)
            x = s[0] + frac * (nxt[0] - s[0])
            return {"K_e": (kinetic / 1e3, "keV"), "D": (abs(x) * 100, "cm"),
                    "t_f": ((t + frac * h) * 1e9, "ns")}
        s, t = nxt, t + h


EXAMPLES["modern.photoelectron_shell_spectrometer"] = (
    {"Z": "79", "E_g": "200 keV", "B": "10 mT"}, _photoelectron)


# --- modern.semf_beta_endpoint_recoil ------------------------------------------------------------

def _semf_beta() -> dict[str, tuple[float, str]]:
    # A = 101, Z = 42: atomic masses of the three isobars from the SEMF (MeV/c²); the lighter
    # neighbour is the one the nucleus decays to (β⁺ also pays 2 m_e); the end-point momentum is
    # bisected on √(p² + m_e²) − m_e = Q, and the daughter (mass A u) takes that momentum
    a, z = 101, 42

    def mass(zz: int) -> float:
        b = (15.75 * a - 17.8 * a ** (2 / 3) - 0.711 * zz * (zz - 1) / a ** (1 / 3)
             - 23.7 * (a - 2 * zz) ** 2 / a)
        return float(zz * 938.783 + (a - zz) * 939.565 - b)

    q_minus = mass(z) - mass(z + 1)
    q_plus = mass(z) - mass(z - 1) - 2 * 0.511
    q = q_minus if q_minus > 0 else q_plus
    p = _bisect(lambda pp: math.hypot(pp, 0.511) - 0.511 - q, 0.0, 100.0)
    return {"K_max": (q, "MeV"), "K_R": (p**2 / (2 * a * 931.5) * 1e6, "eV")}


EXAMPLES["modern.semf_beta_endpoint_recoil"] = ({"A": "101", "Z": "42"}, _semf_beta)


# --- modern.helium_ion_line_retarding_gap --------------------------------------------------------

def _helium_gap() -> dict[str, tuple[float, str]]:
    # He⁺ 4 → 2 (10.204 eV) on a 2.30 eV cathode: K = 7.904 eV < eV = 9 eV, so the electron turns
    # back; its motion x(t) in the 10 mm gap is stepped (RK4, exact for constant force) until it is
    # back at the cathode (or at the anode), the crossing time found by bisection on the last step
    e_ph = 13.606 * 4 * (1 / 2**2 - 1 / 4**2)
    kinetic = e_ph - 2.30
    v0 = math.sqrt(2 * kinetic * Q_E / M_E)
    acc, gap = -Q_E * 9.0 / (M_E * 0.010), 0.010

    def position(t: float) -> float:
        x, v, h = 0.0, v0, t / 200
        for _ in range(200):
            k1x, k1v = v, acc
            k2x, k2v = v + h * k1v / 2, acc
            k3x, k3v = v + h * k2v / 2, acc
            k4x = v + h * k3v
            x += h * (k1x + 2 * k2x + 2 * k3x + k4x) / 6
            v += h * (k1v + 2 * k2v + 2 * k3v + acc) / 6
        return x

    t, step = 0.0, 1e-11
    while True:
        x = position(t + step)
        if x >= gap or x <= 0:
            target = gap if x >= gap else 0.0

            def miss(tt: float, target: float = target) -> float:
                return position(tt) - target

            t_hit = _bisect(miss, t, t + step)
            return {"K_max": (kinetic, "eV"), "t_f": (t_hit * 1e9, "ns")}
        t += step


EXAMPLES["modern.helium_ion_line_retarding_gap"] = (
    {"n_u": "4", "n_l": "2", "phi": "2.30 eV", "V": "9 V", "d": "10 mm"}, _helium_gap)


# --- modern.technetium_generator_organ_dose ------------------------------------------------------

def _rk4_vec(f: Callable[[np.ndarray], np.ndarray], y: np.ndarray, t: float, n: int) -> np.ndarray:
    """y after time t of dy/dt = f(y) (autonomous), by n classical Runge-Kutta steps."""
    h = t / n
    for _ in range(n):
        k1 = f(y)
        k2 = f(y + h * k1 / 2)
        k3 = f(y + h * k2 / 2)
        k4 = f(y + h * k3)
        y = y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
    return y


def _technetium() -> dict[str, tuple[float, str]]:
    # 20 GBq of Mo-99, deadline 30 h, ε 0.85, q 0.05, injected 2 h later, f 0.35, T_b 16 h, 27 keV per
    # decay, 1.1 kg: the Mo → Tc chain is integrated (RK4, in hours), the Tc activity maximised by a
    # golden-section search over the elution time (the peak, ~22.8 h, comes before the deadline), and
    # the organ's decays summed by integrating dA/dt = −(λ + λ_bio) A alongside dN/dt = A
    lam_mo, lam_tc = math.log(2) / 65.94, math.log(2) / 6.007  # 1/h
    n_mo0 = 20e9 * 3600 / lam_mo  # atoms, from A = λN with λ in 1/s

    def chain(y: np.ndarray) -> np.ndarray:
        return np.array([-lam_mo * y[0], 0.875 * lam_mo * y[0] - lam_tc * y[1]])

    def tc_activity(t: float) -> float:  # Bq
        return float(lam_tc / 3600 * _rk4_vec(chain, np.array([n_mo0, 0.0]), t, 400)[1])

    t_peak = _golden_max(tc_activity, 1.0, 60.0)
    t_e = min(t_peak, 30.0)
    a_inj = 0.05 * 0.85 * tc_activity(t_e) * math.exp(-lam_tc * 2.0)
    lam_eff = (lam_tc + math.log(2) / 16.0) / 3600  # 1/s

    def organ(y: np.ndarray) -> np.ndarray:  # y = (activity in the organ, decays so far)
        return np.array([-lam_eff * y[0], y[0]])

    decays = float(_rk4_vec(organ, np.array([0.35 * a_inj, 0.0]), 40 / lam_eff, 4000)[1])
    dose = decays * 27e3 * Q_E / 1.1
    return {"A_inj": (a_inj / 1e6, "MBq"), "N_dec": (decays, ""), "D": (dose * 1e3, "mGy")}


EXAMPLES["modern.technetium_generator_organ_dose"] = (
    {"A_Mo": "20 GBq", "t_d": "30 h", "eps": "0.85", "q": "0.05", "t2": "2 h", "f": "0.35", "T_b": "16 h",
     "E_dep": "27 keV", "m": "1.1 kg"}, _technetium)


# --- modern.alpha_grazing_angle_lab --------------------------------------------------------------

def _alpha_grazing() -> dict[str, tuple[float, str]]:
    # 9 MeV alphas on ¹⁶O (Z = 8): E_cm = 7.2 MeV is above V_C = 4.675 MeV, so a grazing orbit exists.
    # The impact parameter whose hyperbola's closest approach d/2 + √((d/2)² + b²) equals the touching
    # distance is bisected, its deflection 2 atan(d/(2b)) taken, and the alpha's CM velocity (rotated)
    # added to the CM velocity as vectors to get the lab angle and energy
    z, a, k = 8, 16, 9.0
    touch = 1.2 * (4 ** (1 / 3) + a ** (1 / 3))  # fm
    e_cm = k * a / (a + 4)
    d = 2 * z * 1.440 / e_cm
    b = _bisect(lambda bb: d / 2 + math.hypot(d / 2, bb) - touch, 0.0, 100.0)
    theta_cm = 2 * math.atan(d / (2 * b))
    v = 1.0  # beam speed (non-relativistic; only ratios matter)
    v_cm_frame = 4 * v / (a + 4)
    u = v * a / (a + 4)  # the alpha's speed in the CM frame, unchanged by the elastic collision
    lab = np.array([u * math.cos(theta_cm) + v_cm_frame, u * math.sin(theta_cm)])
    v_c = 2 * z * 1.440 / touch
    return {"V_C": (v_c, "MeV"), "theta_lab": (math.degrees(math.atan2(lab[1], lab[0])), "deg"),
            "K_out": (k * float(lab @ lab) / v**2, "MeV")}


EXAMPLES["modern.alpha_grazing_angle_lab"] = ({"K": "9 MeV", "Z": "8", "A": "16"}, _alpha_grazing)


# --- quantum.zeeman_slower_rubidium_beam ---------------------------------------------------------

H = 6.62607015e-34  # J s
K_B = 1.380649e-23  # J/K
MU_B = 9.2740100783e-24  # J/T
U = 1.66053906660e-27  # kg


def _zeeman_slower() -> dict[str, tuple[float, str]]:
    # 150 °C oven, 40 cm slower at 60 % of the largest force: the motion under the radiation force is
    # stepped (RK4) until the atom leaves the slower or comes to rest (event bisected on the last step);
    # the photons are counted as the momentum the force removed divided by one photon's h/λ
    m, lam, tau, length = 86.909 * U, 780.24e-9, 26.24e-9, 0.40
    v0 = math.sqrt(2 * K_B * (150 + 273.15) / m)
    rate = 0.6 / (2 * tau)  # photons per second
    force = rate * H / lam

    def state(t: float) -> tuple[float, float]:  # (x, v) after time t from the entrance
        x, v, hh = 0.0, v0, t / 100
        for _ in range(100):
            k1x, k1v = v, -force / m
            k2x = v + hh * k1v / 2
            k3x = v + hh * k1v / 2
            k4x = v + hh * k1v
            x += hh * (k1x + 2 * k2x + 2 * k3x + k4x) / 6
            v += hh * k1v
        return x, v

    t, step = 0.0, 1e-5
    while True:
        x, v = state(t + step)
        if x >= length or v <= 0:
            idx, target = (0, length) if x >= length else (1, 0.0)

            def miss(tt: float, idx: int = idx, target: float = target) -> float:
                return state(tt)[idx] - target if idx == 0 else target - state(tt)[idx]

            t_end = _bisect(miss, t, t + step)
            break
        t += step
    photons = m * (v0 - state(t_end)[1]) / (H / lam)
    return {"B_in": (H * v0 / (lam * MU_B) * 1e3, "mT"), "t_dec": (t_end * 1e3, "ms"), "N_ph": (photons, "")}


EXAMPLES["quantum.zeeman_slower_rubidium_beam"] = (
    {"T_oven": "150 degC", "L": "40 cm", "eta": "0.6"}, _zeeman_slower)


# --- relativity.light_pulse_overtakes_accelerated_electron ---------------------------------------

def _light_overtakes() -> dict[str, tuple[float, str]]:
    # 1.5 MV/m over 50 cm, pulse 1.5 ns after the start: dp/dt = eE (and dx/dt = pc²/E, dτ/dt = mc²/E) is
    # stepped by RK4 to the grid (event bisected on the step), then the coasting electron and the light
    # front c(t − t0) are compared; the meeting time is bisected on their separation
    field, gap, t0 = 1.5e6, 0.50, 1.5e-9
    rest = M_E * C**2

    def deriv(y: np.ndarray) -> np.ndarray:  # y = (x, p, τ)
        energy = math.hypot(y[1] * C, rest)
        return np.array([y[1] * C**2 / energy, Q_E * field, rest / energy])

    def in_gap(t: float) -> np.ndarray:
        return _rk4_vec(deriv, np.array([0.0, 0.0, 0.0]), t, 400)

    t_grid = _bisect(lambda t: float(in_gap(t)[0]) - gap, 1e-12, 1e-7)
    _, p_g, tau_g = in_gap(t_grid)
    energy_g = math.hypot(p_g * C, rest)
    v_g = p_g * C**2 / energy_g

    def electron(t: float) -> tuple[float, float, float]:  # position, speed, proper time
        if t <= t_grid:
            x, p, tau = in_gap(t)
            return float(x), float(p * C**2 / math.hypot(p * C, rest)), float(tau)
        return gap + v_g * (t - t_grid), v_g, float(tau_g) + (t - t_grid) * rest / energy_g

    meet = _bisect(lambda t: electron(t)[0] - C * (t - t0), t0 * (1 + 1e-9), 1e-6)
    _, speed, tau = electron(meet)
    return {"t_L": (t_grid * 1e9, "ns"), "t_c": (meet * 1e9, "ns"), "v_c": (speed, "m/s"),
            "tau_c": (tau * 1e9, "ns")}


EXAMPLES["relativity.light_pulse_overtakes_accelerated_electron"] = (
    {"E_f": "1.5 MV/m", "L": "50 cm", "t0": "1.5 ns"}, _light_overtakes)

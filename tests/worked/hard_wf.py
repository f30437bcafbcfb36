"""Worked examples of the hard quantum and statistical-mechanics templates of branch wf (issue 19),
each computed by a route of its own, not the template's closed form retyped: the spin Hamiltonian
diagonalised as a matrix and the entropy summed as −Σ p ln p; the canister's mass balance solved by
bisection; the dimer's 4 × 4 Hamiltonian built from spin matrices and its heat capacity taken as
a numerical dU/dT; the photoelectron's motion in the gap integrated step by step; the
water-gas equilibrium by bisection on the mass-action law. Constants are typed in by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tests.ode import bisect as _bisect
from tests.ode import rk4

H_PLANCK = 6.62607015e-34  # J s
K_B = 1.380649e-23  # J/K
MU_B = 9.2740100783e-24  # J/T
EV = 1.602176634e-19  # J


def _nv_centre() -> dict[str, tuple[float, str]]:
    # 150 mT along the axis, 100 mK: past the crossing at 102.4 mT, so m = −1 is the lowest level
    d, g, b, t = 2.870e9, 2.003, 0.150, 0.100
    sz = np.diag([1.0, 0.0, -1.0])
    ham = H_PLANCK * d * sz @ sz + g * MU_B * b * sz  # diagonal here, but diagonalised as a matrix
    energies, vectors = np.linalg.eigh(ham)
    weights = np.exp(-(energies - energies.min()) / (K_B * t))
    p = weights / weights.sum()
    sz_mean = float(sum(p[i] * vectors[:, i] @ sz @ vectors[:, i] for i in range(3)))
    entropy = -K_B * float(sum(x * math.log(x) for x in p if x > 0))
    return {"P_g": (float(p[0]), ""), "Sz": (sz_mean, ""), "S": (entropy, "J/K")}


def _copper_dimer() -> dict[str, tuple[float, str]]:
    # J = 0.40 meV, 5 T, 3 K: g μ_B B = 0.608 meV > J, so the m = −1 triplet state is the lowest level
    j, g, b, t = 0.40e-3 * EV, 2.10, 5.0, 3.0
    sx = np.array([[0, 1], [1, 0]], dtype=complex) / 2
    sy = np.array([[0, -1j], [1j, 0]]) / 2
    sz = np.array([[1, 0], [0, -1]], dtype=complex) / 2
    one = np.eye(2)
    s1 = [np.kron(op, one) for op in (sx, sy, sz)]
    s2 = [np.kron(one, op) for op in (sx, sy, sz)]
    sz_tot = s1[2] + s2[2]
    ham = j * sum(a @ c for a, c in zip(s1, s2, strict=True)) + g * MU_B * b * sz_tot
    energies, vectors = np.linalg.eigh(ham)

    def mean_energy(temp: float) -> float:
        w = np.exp(-(energies - energies.min()) / (K_B * temp))
        return float((energies * w).sum() / w.sum())

    w = np.exp(-(energies - energies.min()) / (K_B * t))
    p = w / w.sum()
    moment = -g * sum(p[i] * (vectors[:, i].conj() @ sz_tot @ vectors[:, i]).real for i in range(4))
    dt = 1e-4 * t  # heat capacity as dU/dT, by a central difference
    heat_cap = 6.02214076e23 * (mean_energy(t + dt) - mean_energy(t - dt)) / (2 * dt)
    return {"P_g": (float(p[0]), ""), "M": (float(moment), ""), "C": (heat_cap, "J/(mol*K)")}


def _helium_ii_gap() -> dict[str, tuple[float, str]]:
    # He II 2 → 1 (40.82 eV) on argon (15.76 eV): K = 25.06 eV < 30 eV, so the electron turns back;
    # its motion in the 5 mm gap is integrated until it leaves through either grid
    m, e = 9.1093837e-31, 1.602176634e-19
    photon = 4 * 13.606 * (1 - 1 / 2**2)
    k0 = photon - 15.76
    v_r, d = 30.0, 5e-3
    accel = -e * v_r / (m * d)
    y: list[float] = [0.0, math.sqrt(2 * k0 * EV / m)]

    def deriv(_t: float, s: list[float]) -> list[float]:
        return [s[1], accel]

    t, h = 0.0, 1e-12
    while True:
        nxt = rk4(deriv, t, y, h)
        if nxt[0] < 0 or nxt[0] > d:  # left the gap within this step: bisect the step
            lo, hi = 0.0, h
            for _ in range(60):
                mid = (lo + hi) / 2
                x = rk4(deriv, t, y, mid)[0]
                lo, hi = (mid, hi) if 0 <= x <= d else (lo, mid)
            return {"K0": (k0, "eV"), "t": ((t + lo) * 1e9, "ns")}
        t, y = t + h, nxt


def _methane_canister() -> dict[str, tuple[float, str]]:
    # 4 L free volume, 2 kg of carbon at 10 mmol/g, K = 0.1/bar at 20 °C, q = 18 kJ/mol,
    # charged to 30 bar, warmed to 60 °C, valve at 40 bar: sealed it would reach 46.8 bar, so it vents
    v, n_s, k1, q, p1, t1, t2, p_set, m = 4e-3, 20.0, 0.1e-5, 18e3, 30e5, 293.15, 333.15, 40e5, 16.04
    r = 8.314462618

    def held(p: float, t: float, k: float) -> float:  # moles in the canister at pressure p
        return p * v / (r * t) + n_s * k * p / (1 + k * p)

    n0 = held(p1, t1, k1)
    k2 = k1 * math.exp(q / r * (1 / t2 - 1 / t1))
    p_sealed = _bisect(lambda p: held(p, t2, k2) - n0, 1e3, 1e8)  # mass balance, by bisection
    p = min(p_sealed, p_set)
    theta = k2 * p / (1 + k2 * p)
    return {"m_ads1": (m * n_s * k1 * p1 / (1 + k1 * p1), "g"), "theta2": (theta, ""),
            "m_left": (m * held(p, t2, k2), "g")}


def _water_gas_shift() -> dict[str, tuple[float, str]]:
    # 100 L, 5 g CO, 4 g H2O at 1100 K: K = 0.572; the water left after quenching to 25 °C would
    # exert 3.39 kPa, more than 3.17 kPa, so some condenses
    r, v, t2, p_sat = 8.314462618, 0.100, 298.15, 3170.0
    n_co, n_w = 5.0 / 28.01, 4.0 / 18.02
    k = math.exp(41200 / (r * 1100.0) - 42.1 / r)
    xi = _bisect(lambda x: x * x - k * (n_co - x) * (n_w - x), 0.0, min(n_co, n_w))  # mass action
    n_vap = min(n_w - xi, p_sat * v / (r * t2))  # no more vapour than the saturation pressure allows
    n_gas = n_co + xi + n_vap  # CO left + CO2 + H2 + vapour
    return {"xi": (xi * 1e3, "mmol"), "p_fin": (n_gas * r * t2 / v / 1e3, "kPa"),
            "y_H2": (xi / n_gas, "")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "quantum.nv_centre_level_crossing_thermal": ({"B": "150 mT", "T": "100 mK"}, _nv_centre),
    "quantum.helium_ii_photoelectron_retarding_gap": (
        {"n": "2", "IE": "15.76 eV", "V_r": "30 V", "d": "5 mm"}, _helium_ii_gap),
    "statmech.copper_dimer_field_crossing": ({"Jex": "0.40 meV", "B": "5 T", "T": "3 K"}, _copper_dimer),
    "statmech.water_gas_shift_quench_condensation": (
        {"V": "100 L", "m_co": "5 g", "m_w": "4 g", "T1": "1100 K"}, _water_gas_shift),
    "statmech.methane_canister_langmuir_relief": (
        {"V": "4 L", "mc": "2 kg", "qm": "10 mmol/g", "K1": "0.1 1/bar", "q": "18 kJ/mol",
         "p1": "30 bar", "T2": "60 degC", "p_set": "40 bar"}, _methane_canister),
}

"""Worked examples of the hard quantum and statistical-mechanics templates of branch wf (issue 19),
each computed by a route of its own, not the template's closed form retyped: the spin Hamiltonian
diagonalised as a matrix and the entropy summed as −Σ p ln p. Constants are typed in by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

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


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "quantum.nv_centre_level_crossing_thermal": ({"B": "150 mT", "T": "100 mK"}, _nv_centre),
}

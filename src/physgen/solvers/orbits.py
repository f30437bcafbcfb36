"""Orbital mechanics that needs numerical root finding.

>>> import numpy as np
>>> out = kepler_position(a=np.array(1.0e7), e=np.array(0.5), P=np.array(3600.0),
...                       t=np.array(900.0))
>>> round(float(out["E"]), 6)  # M = π/2 gives E − 0.5 sin E = π/2
2.02098
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Newton steps for Kepler's equation; from E0 = M + e·sin M (e ≤ 0.8) 30 is far past convergence.
NEWTON_STEPS = 30


def solve_kepler(M: Any, e: Any) -> Any:
    """Eccentric anomaly E with M = E − e sin E (vectorised Newton iteration)."""
    E = M + e * np.sin(M)
    for _ in range(NEWTON_STEPS):
        E = E - (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
    return E


def kepler_position(a: Any, e: Any, P: Any, t: Any) -> dict[str, Any]:
    """Eccentric anomaly (rad) and distance from the focus (m), ``t`` after perigee."""
    M = 2 * np.pi * t / P
    E = solve_kepler(M, e)
    return {"E": E, "r": a * (1 - e * np.cos(E))}

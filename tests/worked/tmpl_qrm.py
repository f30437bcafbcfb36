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

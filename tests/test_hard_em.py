"""The level-5 E&M templates of issue 19 solve both regimes of their decision through
``Template.solve`` (Pint quantities), whose Piecewise answers NumPy's ``select`` cannot hold.
The worked examples (tests/worked/hard_em.py) integrate one regime each; here the other regime is
checked against a hand formula."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import physgen

TEMPLATES = Path(__file__).parent.parent / "templates"
Q_E, M_E, C = 1.602176634e-19, 9.1093837015e-31, 299_792_458.0


def _template(template_id: str) -> physgen.Template:
    group, name = template_id.split(".")
    return physgen.load_catalog(TEMPLATES / group / f"{name}.yaml")[template_id]


def test_strip_turn_back_regime() -> None:
    # 300 kV, 10 mT: r = 21.0 cm < d = 30 cm, so the electron turns back on a semicircle
    got = _template("magnetism.electron_field_strip_exit").solve(V="300 kV", B="10 mT", d="30 cm")
    gamma = 1 + 300e3 * Q_E / (M_E * C**2)
    v = C * math.sqrt(1 - 1 / gamma**2)
    r = gamma * M_E * v / (Q_E * 0.010)
    assert got["y"].to("cm").magnitude == pytest.approx(200 * r, rel=1e-6)
    assert got["theta"].to("deg").magnitude == pytest.approx(180.0, rel=1e-9)
    assert got["t"].to("ns").magnitude == pytest.approx(math.pi * r / v * 1e9, rel=1e-6)


def test_inductor_dump_overdamped_regime() -> None:
    # α = 2000/s > ω0 = 1000/s: the current falls to zero when tanh κt = κ/α
    got = _template("magnetism.inductor_dump_into_capacitor").solve(
        E="10 V", R1="10 ohm", L="100 mH", t1="10 ms", R2="400 ohm", C="10 uF")
    i0 = 1.0 * (1 - math.exp(-1.0))
    alpha, omega0 = 2000.0, 1000.0
    kappa = math.sqrt(alpha**2 - omega0**2)
    t0 = math.atanh(kappa / alpha) / kappa
    assert got["t0"].to("ms").magnitude == pytest.approx(t0 * 1e3, rel=1e-9)
    assert got["V_C"].to("V").magnitude == pytest.approx(i0 * 100 * math.exp(-alpha * t0), rel=1e-9)


def test_plates_screen_regime() -> None:
    # 2 kV gun, 50 V on plates 2 cm apart and 3 cm long: it leaves the plates and reaches the screen
    got = _template("electricity.electron_plates_strike_point").solve(
        V_a="2 kV", V_p="50 V", l="3 cm", d="2 cm", D="20 cm")
    v0 = math.sqrt(2 * Q_E * 2000 / M_E)
    assert got["t_total"].to("ns").magnitude == pytest.approx(0.23 / v0 * 1e9, rel=1e-9)
    assert got["angle"].to("deg").magnitude == pytest.approx(
        math.degrees(math.atan(50 * 0.03 / (2 * 0.02 * 2000))), rel=1e-9)

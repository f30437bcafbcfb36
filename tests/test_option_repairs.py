"""The last four findings of issue 17, fixed in code: the generic square-root slip is offered only
for a key that is positive, and never prints SymPy's Abs; symbolic options read back at the
constants' own values; a solver template's answerability is measured, not read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.distractors import candidates

from .conftest import good, write_template

REPAIRED = ["mechanics.kepler_orbit_position", "mechanics.two_carts_three_springs_modes",
            "statmech.einstein_solid_heat_capacity", "waves.inverse_square_intensity"]


def loads(tmp_path: Path, data: dict[str, Any]) -> physgen.Template:
    write_template(tmp_path, data)
    return physgen.load_catalog(tmp_path)[str(data["id"])]


def ratio(expr: str, sign: str = "positive") -> dict[str, Any]:
    """A dimensionless answer of two positive temperatures."""
    data = good()
    data.update({
        "id": "thermo.demo_ratio", "domain": "thermodynamics",
        "inputs": {"theta": {"unit": "K", "range": [100, 400], "label": "characteristic temperature"},
                   "T": {"unit": "K", "range": [200, 300], "label": "temperature"}},
        "answers": {"x": {"expr": expr, "unit": "", "ask": "the ratio", "sign": sign}},
        "text": ["A solid has characteristic temperature {{ theta }} and is held at {{ T }}. {{ asks }}",
                 "{{ asks }} The sample sits at {{ T }}; its characteristic temperature is {{ theta }}.",
                 "Take a crystal at {{ T }} whose characteristic temperature is {{ theta }}. {{ asks }}"],
        "steps": ["x = {{ x }}"],
    })
    return data


def test_the_square_root_slip_needs_a_positive_key(tmp_path: Path) -> None:
    positive = loads(tmp_path / "a", ratio("(theta/T)**2*exp(theta/T)/(exp(theta/T) - 1)**2"))
    negative = loads(tmp_path / "b", ratio("-(theta/T)**2", sign="negative"))
    assert "square_root" in dict(candidates(positive, "x"))
    assert "square_root" not in dict(candidates(negative, "x"))


def test_the_square_root_slip_prints_no_absolute_value(tmp_path: Path) -> None:
    t = loads(tmp_path, ratio("(theta/T)**2*exp(theta/T)/(exp(theta/T) - 1)**2"))
    root = dict(candidates(t, "x"))["square_root"]
    assert "Abs" not in str(root), root
    assert t.findings == ()


@pytest.mark.parametrize("template_id", REPAIRED)
def test_the_pending_repairs_are_done(catalog: physgen.Catalog, template_id: str) -> None:
    assert catalog[template_id].findings == ()

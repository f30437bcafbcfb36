"""The code format's reference ``solve``: written from every template's answer expressions, and
equal to SymPy's own evaluation of them, conditions included."""

from __future__ import annotations

import math

import pytest
import sympy as sp

import physgen
from physgen.formats import get_format
from physgen.formats.code import python_expression


def test_every_code_template_has_a_reference(catalog: physgen.Catalog) -> None:
    """A template whose answer SymPy writes with ``ITE`` (a Piecewise condition that is itself a
    choice, as ``waves.ultrasonic_flowmeter_profile``'s friction factor) once had none."""
    f = get_format("code")
    templates = [t for t in catalog.templates() if f.applies(t)]
    assert "waves.ultrasonic_flowmeter_profile" in {t.id for t in templates}
    failed = []
    for v in physgen.generate(templates, n=1, seed=0, formats=["code"], paraphrases=[0]):
        try:
            f.reference(v)
        except physgen.errors.PhysgenError as exc:
            failed.append((v.template_id, str(exc)[:120]))
    assert not failed, failed


@pytest.mark.parametrize("expr", [
    "Piecewise((64/x, ITE(y < 3, x < 2300, x < 3000)), (0.316*x**(-1/4), True))",
    "Piecewise((x, ITE(x > 1, y < 3, y > 4)), (y, (x > 2) & (y < 1)), (y**2, (x > 2) | (y > 4)), (1, True))",
])
def test_written_python_equals_sympy(expr: str) -> None:
    x, y = sp.symbols("x y")
    e = sp.sympify(expr)
    assert "ITE" in str(e)
    code = python_expression(str(e), ("x", "y"))
    for xv in (0.5, 1.5, 2.5, 2500.0, 2800.0, 4000.0):
        for yv in (0.5, 2.0, 3.5, 5.0):
            want = float(e.subs({x: xv, y: yv}))
            got = eval(code, {"math": math, "x": xv, "y": yv})  # our own written code, not a reply
            assert math.isclose(got, want, rel_tol=1e-12), (xv, yv, got, want)

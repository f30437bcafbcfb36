"""Hypothesis over every template's whole sampling range.

Three routes must agree: ``Template.solve`` (Pint does all unit handling, inputs
given as strings, sometimes in an alternative unit), the vectorised SI path
used for generation, and the SymPy expression evaluated at 30 digits (mpmath).
Each template gets ``EXAMPLES`` points by default (CI runs this size, derandomised)
and ``EXAMPLES_SLOW`` with ``-m slow``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import physgen
from physgen.schema import InputSpec
from physgen.units import Quantity

CATALOG = physgen.load_catalog()
IDS = sorted(CATALOG)


@functools.cache
def answer_scale(template_id: str) -> dict[str, float]:
    """Typical size of each answer (SI): a floor for absolute tolerances where terms cancel."""
    t = CATALOG[template_id]
    si = t.sample(200, seed=99).si
    return {n: float(np.max(np.abs(v))) for n, v in t.evaluate_si(si).items()}


def value_strategy(spec: InputSpec) -> st.SearchStrategy[float]:
    lo, hi = spec.bounds()
    if spec.integer:
        return st.integers(int(lo), int(hi)).map(float)
    if spec.log:
        return st.floats(math.log(lo), math.log(hi)).map(lambda x: min(max(math.exp(x), lo), hi))
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def draw_point(data: st.DataObject, t: physgen.Template) -> dict[str, float]:
    return {n: data.draw(value_strategy(s), label=n) for n, s in t.spec.inputs.items()}


def meets_constraints(t: physgen.Template, point: dict[str, float]) -> bool:
    si = {n: np.array([t.input_si[n].to_si(v)]) for n, v in point.items()}
    return bool(t.constraint_mask(si)[0])


def as_string(data: st.DataObject, t: physgen.Template, name: str, value: float) -> str:
    spec = t.spec.inputs[name]
    unit = data.draw(st.sampled_from([spec.unit, *spec.alt_units]), label=f"{name} unit")
    if unit == spec.unit:
        return f"{value!r} {unit}".strip()
    converted = Quantity(value, spec.unit or "dimensionless").to(unit).magnitude
    return f"{converted!r} {unit}"


#: Points per template: every input's range is drawn across (Hypothesis also tries its ends);
#: the slow sweep draws many more.
EXAMPLES = 30
EXAMPLES_SLOW = 300


@pytest.mark.parametrize("template_id", IDS)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_solve_vectorised_and_sympy_agree(template_id: str, data: st.DataObject) -> None:
    _three_routes_agree(template_id, data)


@pytest.mark.slow
@pytest.mark.parametrize("template_id", IDS)
@settings(max_examples=EXAMPLES_SLOW)
@given(data=st.data())
def test_solve_vectorised_and_sympy_agree_at_full_size(template_id: str, data: st.DataObject) -> None:
    _three_routes_agree(template_id, data)


def _three_routes_agree(template_id: str, data: st.DataObject) -> None:
    t = CATALOG[template_id]
    point = draw_point(data, t)
    assume(meets_constraints(t, point))
    si = {n: t.input_si[n].to_si(v) for n, v in point.items()}
    fast = t.evaluate_si(si)
    solved = t.solve(**{n: as_string(data, t, n, v) for n, v in point.items()})
    for name, spec in t.spec.answers.items():
        q: Any = solved[name]
        value = q.to(spec.unit or "dimensionless").magnitude
        assert math.isfinite(value), (name, point)
        assert q.dimensionality == Quantity(1, spec.unit or "dimensionless").dimensionality
        floor = 1e-12 * answer_scale(template_id)[name]  # cancellation, e.g. sin(-2π) ≈ 2e-16
        fast_value = t.answer_units[name].from_si(float(fast[name]))
        unit_floor = abs(t.answer_units[name].from_si(floor) - t.answer_units[name].from_si(0.0))
        assert fast_value == pytest.approx(value, rel=1e-9, abs=unit_floor), (name, point)
        if spec.sign == "positive":
            assert value > 0, (name, point)
        elif spec.sign == "negative":
            assert value < 0, (name, point)
        if name in t.expressions:
            args = [*(si[n] for n in t.spec.inputs), *(c.si_value for c in t.constants.values())]
            with mpmath.workdps(30):  # the expression at 30 digits, its shared parts computed once
                exact = complex(_exact(template_id, name)(*map(mpmath.mpf, args))).real  # a regime not
                # taken may be complex inside Max/Min (mpmath's sqrt of a negative)
            assert float(fast[name]) == pytest.approx(exact, rel=1e-9, abs=floor), (name, point)


@functools.cache
def _exact(template_id: str, name: str) -> Any:
    """The answer's SymPy expression as an mpmath function of the inputs and constants in SI (a
    deep template's expanded expression is long: ``evalf`` with ``subs`` took minutes per example)."""
    t = CATALOG[template_id]
    symbols = [sp.Symbol(n, real=True) for n in (*t.spec.inputs, *t.constants)]
    return sp.lambdify(symbols, t.expressions[name], modules="mpmath", cse=True)


@pytest.mark.parametrize("template_id", IDS)
def test_generated_instances_meet_every_check(template_id: str) -> None:
    t = CATALOG[template_id]
    batch = t.sample(500, seed=11)
    assert t.constraint_mask(batch.si).all()
    for name, spec in t.spec.inputs.items():
        lo, hi = spec.bounds()
        shown = batch.shown[name]
        # rounding to significant figures may step just outside the drawn interval
        assert (shown >= lo - abs(lo) * 0.05 - 1e-300).all() and (shown <= hi + abs(hi) * 0.05).all()
        if spec.integer:
            assert (shown == np.round(shown)).all()
        else:
            assert all(float(f"{v:.{spec.sig_figs - 1}e}") == v for v in shown.tolist())
    for values in batch.answers.values():
        assert np.isfinite(values).all()

"""Answer ranges that depend on the instance: ``answers.*.range``.

A physical range is often not a fixed interval: a temperature lies between its two reservoirs
(``[T_c, T_h]``), the entropy of a g-level system between 0 and ``k_B*log(g)``, an efficiency
below Carnot's. A template declares it on the answer, each bound a number in the answer's unit,
an expression in inputs and constants with the answer's dimension, or ``null`` (open)::

    answers:
      T_i: {expr: "...", unit: degC, ask: "the interface temperature", range: [T_out, T_in]}

When the template compiles, every bound is parsed and checked for its dimension
(:func:`compile_ranges`), and the key is screened against its range on the load-time draws that
are kept (:func:`check_keys`): a key outside is a load error naming the file, the field and the
fix. Per instance, every multiple-choice option lies in the range (:func:`option_interval`, the
declared sign and named limits included), so an option outside is never offered; where too few
distractors remain, the format leaves that quantity of that instance out.

>>> import physgen
>>> t = physgen.load_catalog()["thermo.composite_wall_conduction"]
>>> from physgen.instance import iter_instances
>>> inst = next(iter(iter_instances(t.sample(1))))
>>> lo, hi = option_interval(t, "T_mid", instance_si(t, inst.inputs))
>>> lo < inst.answers["T_mid"].value < hi
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .expressions import ExpressionError, parse_expression, symbols_for
from .functions import NumpyFunction, numpy_function
from .units import Quantity, parse_unit
from .validity import answer_interval

if TYPE_CHECKING:
    from .template import Template
    from .variant import ShownQuantity

#: A key may touch its range's bound by this share of its size (rounding of an exact equality).
SLACK = 1e-9

Add = Callable[[str, str, str], None]


def compile_ranges(t: Template, pint_args: list[Any], add: Add) -> dict[str, NumpyFunction]:
    """Answer name -> a function of (*inputs, *constants) in SI giving its range's (low, high) in
    SI, for every answer that declares one; each bound checked (names, dimension) with ``add``."""
    import sympy as sp

    spec = t.spec
    names = [*spec.inputs, *spec.constants]
    symbols = list(symbols_for(names).values())
    out: dict[str, NumpyFunction] = {}
    for answer, ans in spec.answers.items():
        if ans.range is None:
            continue
        conv = t.answer_units[answer]
        want = parse_unit(ans.unit).dimensionality
        bounds: list[Any] = []
        for k, bound in enumerate(ans.range):
            field = f"answers.{answer}.range[{k}]"
            if bound is None:
                bounds.append(-sp.oo if k == 0 else sp.oo)
                continue
            if not isinstance(bound, str):
                bounds.append(sp.Float(float(conv.to_si(float(bound)))))
                continue
            try:
                expr = parse_expression(bound, names)
            except ExpressionError as exc:
                add(field, f"{exc} (a bound may use inputs and constants only)", exc.fix)
                continue
            try:
                with np.errstate(all="ignore"):
                    value = sp.lambdify(symbols, expr, modules="numpy")(*pint_args)
            except Exception as exc:
                add(field, f"combines unlike quantities: {exc}", "write a bound of the answer's dimension")
                continue
            got = value.dimensionality if isinstance(value, Quantity) else Quantity(1).dimensionality
            if got != want:
                add(field, f"{bound!r} has dimension {got or 'dimensionless'}, but the answer is in "
                    f"{ans.unit or 'no unit'} ({want or 'dimensionless'})",
                    f"write the bound with the dimension of {ans.unit or 'a pure number'}, or as a number "
                    "in the answer's unit")
                continue
            bounds.append(expr)
        if len(bounds) == 2:
            out[answer] = numpy_function(symbols, [bounds[0], bounds[1]])
    return out


def _si_bounds(t: Template, answer: str, args: list[Any]) -> tuple[Any, Any]:
    low, high = t.answer_ranges[answer](*args)
    return low, high


def check_keys(t: Template, si: Mapping[str, Any], answers: Mapping[str, Any], valid: Any, add: Add) -> None:
    """Every key lies in its declared range on the ``valid`` draws (inputs ``si`` and ``answers``
    in SI); a draw outside is a problem naming the answer's ``range``."""
    if not t.answer_ranges or not valid.any():
        return
    args = [si[n][valid] for n in t.spec.inputs] + [c.si_value for c in t.constants.values()]
    for answer in t.answer_ranges:
        key = np.asarray(answers[answer][valid], dtype=float)
        with np.errstate(all="ignore"):
            low, high = (np.broadcast_to(np.asarray(b, dtype=float), key.shape)
                         for b in _si_bounds(t, answer, args))
        slack = SLACK * np.abs(key)
        outside = ~((key >= low - slack) & (key <= high + slack))
        if outside.any():
            row = int(np.flatnonzero(outside)[0])
            example = {n: float(si[n][valid][row]) for n in t.spec.inputs}
            lo, hi = t.spec.answers[answer].range or (None, None)
            add(f"answers.{answer}.range",
                f"the key lies outside [{lo}, {hi}] for {int(outside.sum())} of {int(valid.sum())} valid "
                "draws, "
                f"e.g. inputs {example} (in SI) give {float(key[row]):.4g} against "
                f"[{float(low[row]):.4g}, {float(high[row]):.4g}] (in SI)",
                "fix the range (its bounds, or their order: low first), or the expression; or add a "
                "constraint that keeps the key inside")


def instance_si(t: Template, inputs: Mapping[str, ShownQuantity]) -> dict[str, float]:
    """An instance's shown inputs in SI, by the template's input names."""
    return {n: float(t.input_si[n].to_si(q.value)) for n, q in inputs.items() if n in t.input_si}


def option_interval(t: Template, answer: str, si: Mapping[str, float]) -> tuple[float, float]:
    """Where an option of ``answer`` must lie at the instance whose inputs are ``si`` (in SI): the
    declared sign and named limits (:func:`physgen.validity.answer_interval`) and the declared
    range evaluated there, in the answer's unit."""
    lo, hi = answer_interval(t, answer)
    if answer not in t.answer_ranges:
        return lo, hi
    args = [si[n] for n in t.spec.inputs] + [c.si_value for c in t.constants.values()]
    conv = t.answer_units[answer]
    with np.errstate(all="ignore"):
        a, b = (float(np.asarray(x, dtype=float)) for x in _si_bounds(t, answer, args))
    a = float(conv.from_si(a)) if np.isfinite(a) else a
    b = float(conv.from_si(b)) if np.isfinite(b) else b
    return max(lo, a), min(hi, b)

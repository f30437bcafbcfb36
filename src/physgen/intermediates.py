"""Intermediates: the quantities a worked solution finds on the way, compiled like answers.

A template declares them as ``intermediates: {name: {expr, unit, step}}``; each is an
expression in the inputs, constants, answers and earlier intermediates, and its
``step`` is the index of the ``steps`` entry that states it as ``{{ name }}``. They
are compiled into one vectorised function of ``(*inputs, *constants, *answers)`` in
SI, so a solver's answers may be used too, and checked at load time (unit, names,
dimension, step, order, finite values). :mod:`physgen.reading.steps` grades them.

>>> import physgen
>>> t = physgen.load_catalog()["electricity.rlc_series_circuit"]
>>> list(t.intermediate_units)
['X_L', 'X_C']
>>> batch = t.sample(2, seed=0)
>>> bool((batch.intermediates["X_L"] > 0).all())
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .expressions import ExpressionError, expand_in_order, parse_expression, regime_value, symbols_for
from .functions import NumpyFunction, numpy_function
from .schema import TemplateSpec
from .units import Quantity, SIConversion, parse_unit, to_si

if TYPE_CHECKING:
    from .compile import _Problems
    from .template import Template

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)")


def compile_intermediates(spec: TemplateSpec, order: tuple[str, ...], raw: Mapping[str, Any],
                          problems: _Problems) -> tuple[
        NumpyFunction | None, dict[str, SIConversion], list[Any]]:
    """The intermediates' evaluator over ``(*inputs, *constants, *answers)`` in SI, each one's
    unit conversion, and their SymPy expressions (in declared order); problems are added to
    ``problems``. ``order`` is the solution order (:mod:`physgen.graph`): an intermediate may use
    any other intermediate found before it there, and any answer. ``raw``: the derived expressions
    as :func:`physgen.graph.solution_graph` parsed them."""
    if not spec.intermediates:
        return None, {}, []
    if spec.question_type == "algebraic":
        problems.add("intermediates", "an algebraic question shows no numbers, so it has no "
                     "intermediate values to grade", "remove `intermediates`, or make the question numerical")
        return None, {}, []
    names = [*spec.inputs, *spec.constants, *spec.answers]
    units: dict[str, SIConversion] = {}
    last_step = 0
    for name, item in spec.intermediates.items():
        field = f"intermediates.{name}"
        try:
            units[name] = to_si(item.unit)
        except ValueError as exc:
            problems.add(f"{field}.unit", str(exc), "use a Pint unit such as 'm/s', 'ohm', 'kJ'")
        _check_step(spec, name, item.step, last_step, problems)
        if item.step < len(spec.steps):
            last_step = max(last_step, item.step)
    for name in (n for n in spec.intermediates if n not in raw):
        try:
            others = [n for n in spec.intermediates if n != name]
            parse_expression(spec.intermediates[name].expr, [*names, *others])
        except ExpressionError as exc:
            problems.add(f"intermediates.{name}.expr", str(exc), exc.fix)
    exprs = expand_in_order({n: raw[n] for n in spec.intermediates if n in raw}, order)
    if len(exprs) < len(spec.intermediates):
        return None, units, []
    args = list(symbols_for(names).values())
    ordered = [exprs[n] for n in spec.intermediates]  # the declared (step) order
    try:
        return numpy_function(args, ordered, cse=True), units, ordered
    except Exception as exc:  # SymPy cannot print e.g. a division by zero (zoo) as NumPy code
        problems.add("intermediates", f"cannot compile the expressions: {type(exc).__name__}: {exc}",
                     "make sure no expression divides by zero or is otherwise undefined")
        return None, units, []


def _check_step(spec: TemplateSpec, name: str, step: int, last_step: int, problems: _Problems) -> None:
    field = f"intermediates.{name}.step"
    if step >= len(spec.steps):
        problems.add(field, f"step {step} does not exist: the template has {len(spec.steps)} steps "
                     f"(0–{len(spec.steps) - 1})", "give the index of the step that states it, from 0")
        return
    if name not in _PLACEHOLDER.findall(spec.steps[step]):
        problems.add(field, f"steps[{step}] does not show {{{{ {name} }}}}, so the worked solution "
                     "never states the value graded", f"write '= {{{{ {name} }}}}' where steps[{step}] "
                     "finds it, or point `step` at the step that does")
    if step < last_step:
        problems.add(field, f"step {step} comes before the step of an intermediate listed above it",
                     "list intermediates in the order of their steps")


def check_intermediates(template: Template, exprs: list[Any], problems: _Problems,
                        pint_args: list[Any]) -> None:
    """Each intermediate has its declared unit's dimension (its expression run once on Pint
    quantities ``pint_args``: inputs and constants), and is finite over a sample of draws."""
    spec = template.spec
    if not exprs:
        return

    with np.errstate(all="ignore"):  # a regime not taken may be NaN at the midpoint
        answers = template.pint_answers(pint_args)
    symbols = list(symbols_for([*spec.inputs, *spec.constants, *spec.answers]).values())
    answer_symbols = set(symbols[len(pint_args):])
    with np.errstate(all="ignore"):
        for (name, item), expr in zip(spec.intermediates.items(), exprs, strict=True):
            if answers is None and expr.free_symbols & answer_symbols:
                continue  # it uses an answer whose own dimension problem is reported already
            try:
                value = regime_value(symbols, expr, [*pint_args, *(answers or [1.0] * len(spec.answers))])
            except Exception as exc:
                problems.add(f"intermediates.{name}.expr", f"dimensions do not work out: {exc}",
                             "check the expression term by term; only like quantities can be added")
                continue
            got = value.dimensionality if isinstance(value, Quantity) else Quantity(1).dimensionality
            want = parse_unit(item.unit).dimensionality
            if got != want:
                problems.add(f"intermediates.{name}.expr",
                             f"the expression has dimension {got or 'dimensionless'} but unit "
                             f"{item.unit!r} is {want or 'dimensionless'}",
                             "fix the expression or declare the unit it really has")


def check_finite(template: Template, shown: dict[str, Any], si: dict[str, Any], answers_si: dict[str, Any],
                 kept: Any, meets: Any, problems: _Problems) -> None:
    """Every intermediate is finite for every draw of the load-time sample that the template
    accepts (``kept``; the draws' shown, SI and answer values come from ``compile._check_sampling``),
    and one that uses no answer for every draw that meets the constraints (``meets``), so that an
    answer found from it is blamed on it, not on the answer."""
    if template.intermediate_values is None or not meets.any():
        return
    rows = np.flatnonzero(meets)
    values = template.evaluate_intermediates({n: v[rows] for n, v in si.items()},
                                             {n: v[rows] for n, v in answers_si.items()})
    free = _answer_free(template)
    for name, column in values.items():
        bad = ~np.isfinite(column) & (kept[rows] if name not in free else True)
        if bad.any():
            row = int(rows[np.flatnonzero(bad)[0]])
            example = {n: float(v[row]) for n, v in shown.items()}
            problems.add(f"intermediates.{name}", f"is not finite for {int(bad.sum())} of {rows.size} "
                         f"draws meeting the constraints, e.g. {example}",
                         "fix the expression, or add a constraint")


def _answer_free(template: Template) -> set[str]:
    """The intermediates whose solution-graph ancestors hold no answer."""
    g = template.graph
    if g is None:
        return set()
    answers = set(template.spec.answers)
    out: set[str] = set()
    for name in g.order:  # ancestors come first
        if name in template.spec.intermediates and not (g.uses[name] & answers) \
                and all(u in out for u in g.uses[name]):
            out.add(name)
    return out

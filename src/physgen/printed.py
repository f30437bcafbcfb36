"""Conditioning through the worked solution: each value recomputed from the values the steps print.

A solver who follows the worked solution uses the numbers it prints, rounded to their
significant figures: an answer written in terms of earlier answers (``dS_total =
dS_block + dS_lake``), an answer that contains an intermediate (``dS_lake = Q/T_L``
once ``Q`` is printed), an intermediate computed from an answer. Each such value is
compiled here a second time, as an expression in the inputs, the constants, the
answers and the intermediates, so that :func:`physgen.validity.screen` can evaluate
it on the rounded answers and intermediates and redraw an instance where the result
misses the key by more than the grading tolerance (check ``printed_steps``).

An intermediate is put into an answer where the answer's expression contains the
intermediate's expression literally (SymPy ``subs``: a factor, or a part of a sum);
an intermediate that uses this answer or a later one is not.

>>> from physgen.schema import TemplateSpec
>>> import physgen
>>> t = physgen.load_catalog()["thermo.hot_block_in_lake_entropy"]
>>> list(t.printed_targets)
['dS_lake', 'dS_total']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .reading.compare import tolerance
from .schema import TemplateSpec

if TYPE_CHECKING:
    from .functions import NumpyFunction
    from .template import Template

FloatArray = npt.NDArray[np.float64]


def compile_printed(spec: TemplateSpec, order: tuple[str, ...], parsed: Mapping[str, Any]) -> tuple[
        NumpyFunction | None, tuple[str, ...]]:
    """The printed-values evaluator over ``(*inputs, *constants, *answers, *intermediates)`` in SI,
    and the names (answers, then intermediates) it recomputes, in that order; ``(None, ())`` when
    no value uses another printed value (or the template has a solver, or is algebraic, or an
    expression did not parse: that is reported where it is compiled). ``order`` is the solution
    order and ``parsed`` the derived expressions, as :func:`physgen.graph.solution_graph` gives them."""
    from .expressions import expand_in_order, symbols_for  # SymPy: at compile time only
    from .functions import numpy_function

    if spec.solver is not None or spec.question_type != "numerical":
        return None, ()
    base = [*spec.inputs, *spec.constants]
    answers, inter = list(spec.answers), list(spec.intermediates)
    if sorted(order) != sorted([*answers, *inter]):
        raise ValueError(f"{spec.id}: the solution order {list(order)} does not list every answer and "
                         "intermediate once (a cycle is reported by physgen.graph before this is called)")
    if any(n not in parsed for n in (*answers, *inter)):
        return None, ()
    symbols = symbols_for([*base, *answers, *inter])
    # each intermediate in inputs, constants and answers (earlier intermediates substituted)
    expanded = expand_in_order({n: parsed[n] for n in inter}, order)
    targets: dict[str, Any] = {}
    for name in answers:
        raw = parsed[name]
        later = {symbols[a] for a in answers if order.index(a) >= order.index(name)}
        for iname in reversed(inter):
            whole = expanded[iname]
            if not (whole.free_symbols & later) and whole.free_symbols and not whole.is_Symbol:
                raw = raw.subs(whole, symbols[iname])
        if raw.free_symbols & {symbols[n] for n in (*answers, *inter)}:
            targets[name] = raw
    for name in inter:
        others = {symbols[n] for n in (*answers, *inter) if n != name}
        if parsed[name].free_symbols & others:
            targets[name] = parsed[name]
    if not targets:
        return None, ()
    return numpy_function(list(symbols.values()), list(targets.values()), cse=True), tuple(targets)


def rounded(values: FloatArray, sig_figs: int) -> FloatArray:
    """``values`` rounded to ``sig_figs`` significant figures, as printed (vectorised; zeros and
    non-finite values unchanged).

    >>> rounded(np.array([-1043.7, 0.0012345, 0.0]), 3).tolist()
    [-1040.0, 0.00123, 0.0]
    """
    with np.errstate(all="ignore"):
        scale = 10.0 ** (sig_figs - 1 - np.floor(np.log10(np.abs(values))))
        out = np.round(values * scale) / scale
    return np.where(np.isfinite(out), out, values)


def printed_ok(t: Template, si: list[Any], answers_si: dict[str, FloatArray],
               rtol: float) -> npt.NDArray[np.bool_]:
    """Where every value of :attr:`Template.printed_targets`, recomputed from the answers and
    intermediates as printed (rounded to their figures, in their units), lies within the grading
    :func:`~physgen.reading.compare.tolerance` (``rtol``) of its exact value. ``si``: the inputs
    and constants (:meth:`Template.arguments`)."""
    shape = next(iter(answers_si.values())).shape
    ok = np.ones(shape, dtype=bool)
    if t.printed_values is None:
        return ok
    exact: dict[str, FloatArray] = dict(answers_si)
    shown: list[Any] = []
    for name, spec in t.spec.answers.items():
        conv = t.answer_units[name]
        shown.append(conv.to_si(rounded(conv.from_si(answers_si[name]), spec.sig_figs)))
    if t.intermediate_values is not None:
        values = t.intermediate_values(*si, *(answers_si[n] for n in t.spec.answers))
        for (name, conv), v in zip(t.intermediate_units.items(), values, strict=True):
            exact[name] = np.broadcast_to(np.asarray(v, dtype=np.float64), shape)
            item = t.spec.intermediates[name]
            shown.append(conv.to_si(rounded(conv.from_si(exact[name]), item.sig_figs)))
    recomputed = t.printed_values(*si, *shown)
    for name, value in zip(t.printed_targets, recomputed, strict=True):
        conv = t.answer_units[name] if name in t.answer_units else t.intermediate_units[name]
        ok &= np.abs(np.asarray(value) - exact[name]) <= tolerance(exact[name], conv.offset, rtol)
    return ok

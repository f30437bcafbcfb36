"""Decisions verified on draws: a regime taken both ways, a root chosen over a real rival.

A rubric's decision counts towards the difficulty level (:mod:`physgen.graph`) only if it
is real, and loading checks that it is, on the load-time draws:

* ``branch``: the condition is an inequality that holds in at least :data:`MIN_SHARE` of
  the valid draws and fails in as many, and some ``Piecewise``, ``Min`` or ``Max`` in a
  derived expression switches on the draws too, each way in at least :data:`MIN_SHARE`
  of them (or a solver finds the answers), so both regimes are solved, not one printed;
* ``root``: the rejected root ``other`` is finite and differs from the kept one by more
  than :data:`ROOT_GAP` in at least :data:`ROOT_SHARE` of the valid draws, so choosing
  matters, and it has the kept root's sign in at least :data:`RIVAL_SHARE` of them: a
  negative time, depth or energy is ruled out at a glance, so it is no decision. Carried
  through the rest of the solution in place of the kept root, it must leave every answer
  it changes finite, of its declared ``sign`` and within its named physical limits in as
  many draws (a later time that turns negative rules it out just as well). It must also
  be the kept root with one square root negated (the other root of the same quadratic),
  checked on the draws, so an unrelated expression is no rival;
* ``solve``: the answer is found by the template's solver and has no closed-form ``expr``
  (checked in :mod:`physgen.graph`).

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.kepler_orbit_position"]
>>> [d.kind for d in t.spec.rubric.decisions]
['solve']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .template import Template

#: Least share of the valid draws on each side of a branch.
MIN_SHARE = 0.15
#: Least relative difference between the kept root and the rejected one.
ROOT_GAP = 0.02
#: Least share of the valid draws in which the rejected root is finite and that far away.
ROOT_SHARE = 0.99
#: Least share of the valid draws in which the rejected root has the kept root's sign.
RIVAL_SHARE = 0.5

_SWITCH = re.compile(r"\b(Piecewise|Min|Max)\s*\(")

#: (field, message, fix) -> None: how problems are reported (``compile._Problems.add``).
Report = Callable[[str, str, str], None]


def check_decisions(template: Template, parsed: Mapping[str, Any], si: dict[str, Any],
                    answers_si: dict[str, Any], valid: npt.NDArray[np.bool_], report: Report) -> None:
    """Verify each ``branch`` and ``root`` decision of ``template`` on the draws where ``valid``
    (SI inputs ``si`` and answers ``answers_si``; ``parsed``: the derived expressions as
    :func:`physgen.graph.solution_graph` parsed them); report each that is not real."""
    import sympy as sp

    from .expressions import ExpressionError, parse_expression, symbols_for
    from .functions import numpy_function

    spec = template.spec
    if spec.rubric is None or not spec.rubric.decisions or not valid.any():
        return
    names = [*spec.inputs, *spec.constants, *spec.answers, *spec.intermediates]
    args = [np.asarray(a, dtype=np.float64) for a in template.arguments(si)]
    args += [np.asarray(answers_si[n], dtype=np.float64) for n in spec.answers]
    if template.intermediate_values is not None:
        with np.errstate(all="ignore"):
            args += [np.asarray(v, dtype=np.float64) for v in template.intermediate_values(*args)]
    shape = valid.shape
    args = [np.broadcast_to(a, shape) for a in args]
    switches = spec.solver is not None or _switches(parsed, names, args, valid)
    for k, d in enumerate(spec.rubric.decisions):
        text = d.branch if d.branch is not None else d.other
        if text is None:
            continue  # a solve: checked with the graph
        field = f"rubric.decisions[{k}]." + ("branch" if d.branch is not None else "other")
        try:
            expr = parse_expression(text, names)
            with np.errstate(all="ignore"):
                value = np.broadcast_to(np.asarray(
                    numpy_function(list(symbols_for(names).values()), [expr])(*args)[0]), shape)
        except (ExpressionError, TypeError, ValueError) as exc:
            report(field, str(exc), getattr(exc, "fix", "write a SymPy expression in the template's names"))
            continue
        if d.branch is not None:
            if not isinstance(expr, sp.core.relational.Relational):
                report(field, f"{text!r} is not an inequality",
                       "write the regime's condition, e.g. 'v0**2 < 2*mu*g*L'")
                continue
            _branch(value[valid], switches, field, report)
        else:
            assert d.root is not None
            key = args[names.index(d.root)][valid]
            if _root(key, value[valid].astype(np.float64), field, report) and _admissible(
                    template, parsed, d.root, value, names, args, valid, field, report):
                _conjugate(template, parsed, d.root, value, args, valid, field, report)


def _switches(parsed: Mapping[str, Any], names: list[str], args: list[Any],
              valid: npt.NDArray[np.bool_]) -> bool:
    """Whether some ``Piecewise``, ``Min`` or ``Max`` of a derived expression takes each of two ways
    in at least :data:`MIN_SHARE` of the valid draws (its first condition, or which argument wins)."""
    import sympy as sp

    from .expressions import symbols_for
    from .functions import numpy_function

    symbols = list(symbols_for(names).values())
    for expr in parsed.values():
        parts: list[Any] = []
        for f in expr.atoms(sp.Piecewise):
            parts.append(f.args[0].cond)
        for f in (*expr.atoms(sp.Min), *expr.atoms(sp.Max)):
            parts.append(f.args[0] - f.args[1] < 0)
        for part in parts:
            with np.errstate(all="ignore"):
                try:
                    got = np.broadcast_to(np.asarray(numpy_function(symbols, [part])(*args)[0]), valid.shape)
                except (TypeError, ValueError):
                    continue
            share = float(np.mean(got[valid].astype(bool)))
            if MIN_SHARE <= share <= 1 - MIN_SHARE:
                return True
    return False


def _branch(holds: npt.NDArray[Any], switches: bool, field: str, report: Report) -> None:
    share = float(np.mean(holds.astype(bool)))
    if not MIN_SHARE <= share <= 1 - MIN_SHARE:
        report(field, f"holds in {share:.0%} of valid draws, so the instances do not take both ways "
               f"(each side needs ≥ {MIN_SHARE:.0%})",
               "widen or move the input ranges so both regimes occur, or remove the decision")
    if not switches:
        report(field, "no Piecewise, Min or Max of an answer or intermediate switches both ways in "
               f"≥ {MIN_SHARE:.0%} of valid draws, so only one regime is solved",
               "write the answer as Piecewise((regime_1, condition), (regime_2, True)) on its condition")


def _conjugate(template: Template, parsed: Mapping[str, Any], root: str, other: npt.NDArray[Any],
               args: list[Any], valid: npt.NDArray[np.bool_], field: str, report: Report) -> None:
    """Report ``other`` unless it is the kept root ``root`` with one square root negated, on the
    valid draws (the kept root expanded in the inputs and constants, in solution order)."""
    import sympy as sp

    from .expressions import expand_in_order, symbols_for
    from .functions import numpy_function

    spec = template.spec
    base = [*spec.inputs, *spec.constants]
    symbols = list(symbols_for(base).values())
    key = expand_in_order(parsed, template.graph.order if template.graph else ()).get(root)
    if key is None or not key.free_symbols <= set(symbols):
        return  # a solver's answer (or one found from it): its expression is not known here
    roots = [p for p in key.atoms(sp.Pow) if p.exp == sp.Rational(1, 2)]
    want = other[valid].astype(np.float64)
    for p in roots:
        with np.errstate(all="ignore"):
            try:
                rival = np.broadcast_to(np.asarray(numpy_function(symbols, [key.xreplace({p: -p})])(
                    *args[:len(base)])[0], dtype=np.float64), valid.shape)[valid]
            except (TypeError, ValueError):
                continue
            if float(np.mean(np.abs(rival - want) <= 1e-6 * np.abs(want))) >= ROOT_SHARE:
                return
    report(field, "is not the kept root with one square root negated, so it is not the other root of "
           "the kept root's equation", "give the rejected root of the same quadratic (± the other way)")


def _admissible(template: Template, parsed: Mapping[str, Any], root: str, other: npt.NDArray[Any],
                names: list[str], args: list[Any], valid: npt.NDArray[np.bool_], field: str,
                report: Report) -> bool:
    """Report ``other`` unless, carried through the solution in place of the kept root ``root``,
    it leaves every answer it changes finite, of its declared ``sign`` and within the named physical
    limits of the template's ``checks`` and ``implied`` quantities (``limit: below_c``; not the
    author's own inequalities and ranges, which the student is not shown) in at least
    :data:`RIVAL_SHARE` of the valid draws: a rival that makes a time negative or a speed exceed c
    is ruled out at a glance."""
    from .expressions import symbols_for
    from .functions import numpy_function

    spec, graph = template.spec, template.graph
    if graph is None or spec.solver is not None:
        return True  # a solver's answers are not known as expressions here
    symbols = list(symbols_for(names).values())
    values = list(args)
    values[names.index(root)] = np.broadcast_to(other, valid.shape)
    changed = {root}
    ok: npt.NDArray[np.bool_] = np.isfinite(values[names.index(root)])
    for name in graph.order[graph.order.index(root) + 1:]:
        if not graph.uses[name] & changed:
            continue
        if name not in parsed:
            return True  # its error is reported where it is compiled
        try:
            with np.errstate(all="ignore"):
                got = numpy_function(symbols, [parsed[name]])(*values)[0]
        except (TypeError, ValueError):
            return True  # an expression SymPy cannot print as NumPy code: reported where compiled
        values[names.index(name)] = np.broadcast_to(np.asarray(got, dtype=np.float64), valid.shape)
        changed.add(name)
    n_base = len(spec.inputs) + len(spec.constants)
    for name, answer in spec.answers.items():
        if name in changed:
            v = values[names.index(name)]
            with np.errstate(all="ignore"):
                ok = ok & np.isfinite(v) & (v > 0 if answer.sign == "positive" else
                                            v < 0 if answer.sign == "negative" else True)
    if template.check_values is not None and changed & set(spec.answers):
        answers = values[n_base:n_base + len(spec.answers)]
        with np.errstate(all="ignore"):
            for (_, lo, hi), v, physical in zip(template.check_bounds, template.check_values(
                    *values[:n_base], *answers), _named_limits(spec), strict=True):
                if physical:
                    v = np.broadcast_to(np.asarray(v, dtype=np.float64), valid.shape)
                    ok = ok & (v >= (-np.inf if lo is None else lo)) & (v <= (np.inf if hi is None else hi))
    share = float(np.mean(ok[valid]))
    if share < RIVAL_SHARE:
        report(field, f"carried through the solution in place of {root}, the rejected root leaves the "
               "answers finite, of their declared sign and within their named physical limits in only "
               f"{share:.0%} of valid draws (< {RIVAL_SHARE:.0%}), so a student rules it out at a glance",
               "remove the decision (a root that gives a negative time or length, or breaks a physical "
               "limit, is no choice), or give the rival that is physical as often as not")
        return False
    return True


def _named_limits(spec: Any) -> list[bool]:
    """Per entry of :attr:`Template.check_bounds` (in the order ``compile._checks`` makes them),
    whether it is a named physical limit (``limit:``) rather than the author's own inequality or
    plausibility ``range``, which a student is not shown."""
    out = [check.limit is not None for check in spec.checks]
    for item in spec.implied.values():
        out += [False] * (item.range is not None) + [True] * (item.limit is not None)
    return out


def _root(key: npt.NDArray[np.float64], other: npt.NDArray[np.float64], field: str, report: Report) -> bool:
    with np.errstate(all="ignore"):
        apart = np.isfinite(other) & (np.abs(other - key) > ROOT_GAP * np.abs(key))
    share = float(apart.mean())
    if share < ROOT_SHARE:
        report(field, f"the rejected root is finite and more than {ROOT_GAP:.0%} from the kept one in only "
               f"{share:.0%} of valid draws, so there is no real choice",
               "give the other root of the same equation, or remove the decision")
        return False
    rival = float(np.mean(np.sign(other) == np.sign(key)))
    if rival < RIVAL_SHARE:
        report(field, f"the rejected root has the kept root's sign in only {rival:.0%} of valid draws, so a "
               "student rules it out by its sign alone",
               "remove the decision (a root that is negative where the quantity cannot be is no choice)")
        return False
    return True

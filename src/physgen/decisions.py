"""Decisions verified on draws: a regime taken both ways, a root chosen over a real rival.

A rubric's decision counts towards the difficulty level (:mod:`physgen.graph`) only if it
is real, and loading checks that it is, on the load-time draws:

* ``branch``: the condition holds in at least :data:`MIN_SHARE` of the valid draws and
  fails in as many, and some derived expression holds ``Piecewise``, ``Min`` or ``Max``
  (or a solver finds the answers), so both regimes are solved, not one printed;
* ``root``: the rejected root ``other`` is finite and differs from the kept one by more
  than :data:`ROOT_GAP` in at least :data:`ROOT_SHARE` of the valid draws, so choosing
  matters;
* ``solve``: the answer is found by the template's solver (checked in :mod:`physgen.graph`).

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.kepler_orbit_position"]
>>> [d.kind for d in t.spec.rubric.decisions]
['solve']
"""

from __future__ import annotations

import re
from collections.abc import Callable
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

_SWITCH = re.compile(r"\b(Piecewise|Min|Max)\s*\(")

#: (field, message, fix) -> None: how problems are reported (``compile._Problems.add``).
Report = Callable[[str, str, str], None]


def check_decisions(template: Template, si: dict[str, Any], answers_si: dict[str, Any],
                    valid: npt.NDArray[np.bool_], report: Report) -> None:
    """Verify each ``branch`` and ``root`` decision of ``template`` on the draws where ``valid``
    (SI inputs ``si`` and answers ``answers_si``); report each that is not real."""
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
    texts = [a.expr or "" for a in spec.answers.values()] + [i.expr for i in spec.intermediates.values()]
    switches = spec.solver is not None or any(_SWITCH.search(t) for t in texts)
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
            _branch(value[valid], switches, field, report)
        else:
            assert d.root is not None
            key = args[names.index(d.root)][valid]
            _root(key, value[valid].astype(np.float64), field, report)


def _branch(holds: npt.NDArray[Any], switches: bool, field: str, report: Report) -> None:
    share = float(np.mean(holds.astype(bool)))
    if not MIN_SHARE <= share <= 1 - MIN_SHARE:
        report(field, f"holds in {share:.0%} of valid draws, so the instances do not take both ways "
               f"(each side needs ≥ {MIN_SHARE:.0%})",
               "widen or move the input ranges so both regimes occur, or remove the decision")
    if not switches:
        report(field, "no answer or intermediate holds Piecewise, Min or Max, so only one regime is solved",
               "write the answer as Piecewise((regime_1, condition), (regime_2, True))")


def _root(key: npt.NDArray[np.float64], other: npt.NDArray[np.float64], field: str, report: Report) -> None:
    with np.errstate(all="ignore"):
        apart = np.isfinite(other) & (np.abs(other - key) > ROOT_GAP * np.abs(key))
    share = float(apart.mean())
    if share < ROOT_SHARE:
        report(field, f"the rejected root is finite and more than {ROOT_GAP:.0%} from the kept one in only "
               f"{share:.0%} of valid draws, so there is no real choice",
               "give the other root of the same equation, or remove the decision")

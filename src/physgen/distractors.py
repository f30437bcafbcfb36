"""Wrong options for multiple-choice variants: named mistakes first, then generic slips.

Generic slips are applied to the answer's SymPy expression: sign flip, dropped or
extra factor 2 or π, squared or square-rooted, inverted, sin↔cos; numerical
options also get unit slips (×10³, ×10⁻³). Every distractor differs from the
correct value and from every other option by more than ``SEPARATION`` times the
grading tolerance at the instance, so a tolerant grader can never confuse them.

>>> import physgen
>>> t = physgen.load_catalog()["electricity.dc_motor_losses"]
>>> [name for name, _ in candidates(t, "R")][:3]
['forgot_square', 'used_input_power', 'added_powers']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy as sp

from .expressions import symbols_for
from .template import Template

#: Options must differ pairwise by more than SEPARATION × the grader's relative tolerance.
SEPARATION = 5.0

_SIN, _COS = sp.Function("_sin"), sp.Function("_cos")


def _swap_sin_cos(e: Any) -> Any:
    swapped = e.replace(sp.sin, _COS).replace(sp.cos, _SIN)
    return swapped.replace(_SIN, sp.sin).replace(_COS, sp.cos)


GENERIC: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("sign_flip", lambda e: -e),
    ("dropped_factor_2", lambda e: e / 2),
    ("extra_factor_2", lambda e: 2 * e),
    ("dropped_pi", lambda e: e / sp.pi),
    ("extra_pi", lambda e: e * sp.pi),
    ("squared", lambda e: e**2),
    ("square_root", lambda e: sp.sqrt(e)),
    ("inverted", lambda e: 1 / e),
    ("sin_cos_swap", _swap_sin_cos),
)
#: Numerical options only: the right number in the wrong unit prefix.
UNIT_SLIPS: tuple[tuple[str, float], ...] = (("unit_slip_1e3", 1e3), ("unit_slip_1e-3", 1e-3))
#: Last resort when slips coincide: plain scale factors.
FALLBACK_FACTORS = (3.0, 1 / 3, 4.0, 0.25, 5.0, 0.2, 10.0, 0.1, 7.0, 1 / 7)


@functools.lru_cache(maxsize=2048)
def candidates(template: Template, answer: str) -> tuple[tuple[str, Any], ...]:
    """Named wrong expressions for ``answer``: the template's mistakes, then generic slips."""
    right = template.expressions.get(answer)
    if right is None:
        return ()
    out: list[tuple[str, Any]] = list(template.mistakes.get(answer, []))
    for name, rule in GENERIC:
        wrong = rule(right)
        if wrong != right:
            out.append((name, wrong))
    return tuple(out)


@functools.lru_cache(maxsize=2048)
def _compiled(template: Template, answer: str) -> tuple[tuple[str, Any, Callable[..., Any]], ...]:
    args = list(symbols_for([*template.spec.inputs, *template.constants]).values())
    return tuple((name, expr, sp.lambdify(args, expr, modules="numpy"))
                 for name, expr in candidates(template, answer))


def _far(a: float, b: float, rtol: float) -> bool:
    return abs(a - b) > SEPARATION * rtol * max(abs(a), abs(b))


def choose(template: Template, answer: str, si: Mapping[str, float], correct: float, k: int,
           rtol: float, order: int, numeric: bool, sig_figs: int | None = None
           ) -> list[tuple[str, Any, float]]:
    """``k`` distractors ``(name, expression or None, value in the answer's unit)``.

    Mistakes come first; generic slips follow in an order rotated by ``order``
    (so different instances meet different slips). ``numeric`` allows unit slips
    and plain scale factors, which have no expression. With ``sig_figs``, values
    are compared as shown (rounded), so options stay apart on the page too.
    """
    conv = template.answer_units[answer]
    args = [si[n] for n in template.spec.inputs] + [c.si_value for c in template.constants.values()]
    compiled = _compiled(template, answer)
    named = [c for c in compiled if c[0] in {m for m, _ in template.mistakes.get(answer, [])}]
    generic = [c for c in compiled if c not in named]
    if generic:
        shift = order % len(generic)
        generic = generic[shift:] + generic[:shift]
    chosen: list[tuple[str, Any, float]] = []

    def shown(x: float) -> float:
        return float(f"{x:.{sig_figs - 1}e}") if sig_figs else x

    def offer(name: str, expr: Any, value: float) -> None:
        if not np.isfinite(value):
            return
        value = shown(value)
        if len(chosen) < k and _far(value, shown(correct), rtol) and all(
                _far(value, v, rtol) for _, _, v in chosen):
            chosen.append((name, expr, value))

    with np.errstate(all="ignore"):
        for name, expr, fn in [*named, *generic]:
            try:
                raw = fn(*args)
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                continue
            if np.isreal(raw) and np.isfinite(raw):
                offer(name, expr, float(conv.from_si(float(np.real(raw)))))
    if numeric:
        for name, factor in UNIT_SLIPS:
            offer(name, None, correct * factor)
    right = template.expressions.get(answer)
    for factor in FALLBACK_FACTORS:
        expr = None if numeric or right is None else right * sp.nsimplify(factor)
        offer(f"scaled_{factor:.3g}", expr, correct * factor)
    return chosen

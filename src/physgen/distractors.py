"""Wrong options for multiple-choice variants: named mistakes first, then generic slips.

Generic slips are applied to the answer's SymPy expression: sign flip, dropped or
extra factor 2 or π, squared or square-rooted, inverted, sin↔cos. Every distractor
differs from the correct value and from every other option by more than
``SEPARATION`` times the grading tolerance at the instance, so a tolerant grader
can never confuse them. Every distractor is plausible at a glance: it has the
answer's declared ``sign`` (no negative option for a positive quantity), obeys the
template's limits on the answer and its declared ``range`` at the instance
(:mod:`physgen.ranges`), and lies within a factor ``MAX_RATIO`` of it; a slip that is
not is skipped for the next candidate.

>>> import physgen
>>> t = physgen.load_catalog()["electricity.dc_motor_losses"]
>>> [name for name, _ in candidates(t, "R")][:3]
['forgot_square', 'used_input_power', 'added_powers']
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import sympy as sp

from .expressions import symbols_for
from .functions import NumpyFunction, numpy_function
from .ranges import option_interval
from .template import Template
from .validity import answer_interval

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
#: Options lie within this factor of the answer (in size).
MAX_RATIO = 100.0
#: Last resort when slips coincide: plain scale factors.
FALLBACK_FACTORS = (3.0, 1 / 3, 4.0, 0.25, 5.0, 0.2, 10.0, 0.1, 7.0, 1 / 7)


#: Generic slips that change a quantity's dimension: never offered for an answer that has one
#: ("5800 V" for a 76.1 V key is the key squared, not a voltage).
CHANGES_DIMENSION = frozenset({"squared", "square_root", "inverted"})
#: Options of an absolute temperature differ by more than this share on the kelvin scale: about
#: 15 K near room temperature, far wider than the grader's tolerance there
#: (:func:`physgen.reading.compare.tolerance`), so no two options are a rounding apart.
KELVIN_SEPARATION = 0.05
_CHANGE = ("change", "rise", "drop", "difference", "increase", "decrease", "fall")


def has_dimension(template: Template, answer: str) -> bool:
    """Whether ``answer``'s unit has a dimension (an angle counts: its square is no angle).

    >>> import physgen
    >>> t = physgen.load_catalog()["mechanics.projectile_range"]
    >>> has_dimension(t, "R")
    True
    """
    return template.answer_units[answer].si_unit != "dimensionless"


def absolute_temperature(template: Template, answer: str) -> bool:
    """Whether ``answer`` is an absolute temperature: in °C or °F, or in K and not asked as a change.

    >>> import physgen
    >>> absolute_temperature(physgen.load_catalog()["mechanics.projectile_range"], "R")
    False
    """
    conv = template.answer_units[answer]
    if conv.si_unit != "kelvin":
        return False
    ask = template.spec.answers[answer].ask.lower()
    return bool(conv.offset) or not any(word in ask for word in _CHANGE)


@functools.lru_cache(maxsize=2048)
def candidates(template: Template, answer: str) -> tuple[tuple[str, Any], ...]:
    """Named wrong expressions for ``answer``: the template's mistakes, then generic slips (those in
    ``CHANGES_DIMENSION`` only for a dimensionless answer, the square root only for a positive one)."""
    right = template.expressions.get(answer)
    if right is None:
        return ()
    out: list[tuple[str, Any]] = list(template.mistakes.get(answer, []))
    dimensioned = has_dimension(template, answer)
    positive = template.spec.answers[answer].sign == "positive"
    for name, rule in GENERIC:
        if dimensioned and name in CHANGES_DIMENSION:
            continue
        if name == "square_root" and not positive:
            continue  # the root of a key that may be negative is no real number
        wrong = rule(right)
        if wrong.has(sp.Abs) and not right.has(sp.Abs):
            wrong = _with_positive_inputs(template, right, rule)
        if wrong != right:
            out.append((name, wrong))
    return tuple(out)


def _with_positive_inputs(template: Template, right: Any, rule: Callable[[Any], Any]) -> Any:
    """``rule(right)`` with the inputs and constants that are positive declared so, so that SymPy
    writes √(θ²) as θ rather than Abs(θ), and any absolute value left written as its argument (an
    option with the wrong sign is screened out like any other); the template's own symbols."""
    spec = template.spec
    positive = {n for n, i in spec.inputs.items() if i.bounds()[0] > 0}
    positive |= {n for n, c in template.constants.items() if c.si_value > 0}
    to_positive = {s: sp.Symbol(str(s), positive=True) for s in right.free_symbols if str(s) in positive}
    back = {v: k for k, v in to_positive.items()}
    wrong = rule(right.xreplace(to_positive)).xreplace(back)
    return wrong.replace(sp.Abs, lambda x: x)  # |e^(θ/T) − 1|: a slip's sign is screened anyway


#: An answer's candidates as ``(position in candidates(), name, NumPy function)``: named
#: mistakes, then generic slips (a mistake may share a generic slip's name, not its position).
Candidate = tuple[int, str, NumpyFunction]
Compiled = tuple[tuple[Candidate, ...], tuple[Candidate, ...]]


class Option(NamedTuple):
    """A chosen wrong option: its position in :func:`candidates` then :func:`scaled` (what its
    text is kept by), its name and its value in the answer's unit."""

    key: int
    name: str
    value: float


def compile_candidates(template: Template) -> dict[str, Compiled]:
    """Every answer's :func:`candidates`, compiled to NumPy; made when the template compiles and
    kept in it (``Template.candidate_functions``), so choosing options needs neither SymPy nor
    ``lambdify`` (the slow part of a choice format's first use).

    >>> import physgen
    >>> t = physgen.load_catalog()["mechanics.simple_pendulum_period"]
    >>> named, generic = t.candidate_functions.get()["T"]
    >>> [name for _, name, _ in named], round(float(named[0][2](1.0, 9.8)), 3)
    (['no_two_pi', 'inverted_ratio', 'pi_for_two_pi'], 0.319)
    """
    args = list(symbols_for([*template.spec.inputs, *template.constants]).values())
    out: dict[str, Compiled] = {}
    for answer in template.spec.answers:
        compiled = tuple((k, name, numpy_function(args, expr))
                         for k, (name, expr) in enumerate(candidates(template, answer)))
        mistakes = {m for m, _ in template.mistakes.get(answer, [])}
        named = tuple(c for c in compiled if c[1] in mistakes)
        out[answer] = (named, tuple(c for c in compiled if c not in named))
    return out


#: The fallback options' names and factors.
FALLBACK: tuple[tuple[str, float], ...] = tuple((f"scaled_{factor:.3g}", factor)
                                                for factor in FALLBACK_FACTORS)


def scaled(template: Template, answer: str) -> tuple[tuple[str, Any], ...]:
    """The fallback options of ``answer`` as expressions: the answer times each factor (as an exact
    SymPy number), by name, in :data:`FALLBACK` order; their texts are made when the template
    compiles."""
    right = template.expressions[answer]
    return tuple((name, right * factor) for (name, _), factor in zip(FALLBACK, _rationals(), strict=True))


@functools.cache
def _rationals() -> tuple[Any, ...]:
    """``FALLBACK_FACTORS`` as exact SymPy numbers."""
    return tuple(sp.nsimplify(factor) for factor in FALLBACK_FACTORS)


def _real(raw: Any) -> float | None:
    """A candidate's value as a float, or None if it is complex or not finite."""
    if type(raw) is float or type(raw) is np.float64:  # nearly always: skip the generic checks
        return float(raw) if math.isfinite(raw) else None
    if np.isreal(raw) and np.isfinite(raw):
        return float(np.real(raw))
    return None


def _far(a: float, b: float, rtol: float) -> bool:
    return abs(a - b) > SEPARATION * rtol * max(abs(a), abs(b))


@functools.lru_cache(maxsize=4096)
def _interval(template: Template, answer: str) -> tuple[float, float]:
    return answer_interval(template, answer)


def plausible(value: float, right: float, interval: tuple[float, float]) -> bool:
    """Whether an option ``value`` lies in ``interval`` (the answer's declared sign and the
    template's limits on it: :func:`physgen.validity.answer_interval`) and within a factor
    ``MAX_RATIO`` of the answer ``right``.

    >>> positive = (0.0, float("inf"))
    >>> plausible(-2.0, 2.0, positive), plausible(-2.0, 2.0, (-positive[1], positive[1]))
    (False, True)
    >>> plausible(250.0, 2.0, positive), plausible(0.0, 2.0, positive)
    (False, False)
    """
    lo, hi = interval
    return lo <= value <= hi and abs(right) <= abs(value) * MAX_RATIO and abs(value) <= abs(right) * MAX_RATIO


def choose(template: Template, answer: str, si: Mapping[str, float], correct: float, k: int,
           rtol: float, order: int, numeric: bool, sig_figs: int | None = None
           ) -> list[Option]:
    """``k`` distractors (:class:`Option`); an option's expression, where it has one, is the
    ``key``-th of :func:`candidates` then :func:`scaled` (its text is made when the template
    compiles, so choosing needs no SymPy).

    Mistakes come first; generic slips follow in an order rotated by ``order``
    (so different instances meet different slips); plain scale factors come last
    (with an expression unless ``numeric``). Only :func:`plausible` options are
    offered. Numbers are kept apart as shown (rounded to ``sig_figs``), so options
    stay apart on the page; expressions by their SI values, which is what they
    evaluate to. Candidates are evaluated only until ``k`` are chosen.

    The pendulum template names three mistakes, and they make the three options
    (a sign flip would not be offered anyway: a period is positive):

    >>> import physgen
    >>> t = physgen.load_catalog()["mechanics.simple_pendulum_period"]
    >>> [(o.name, o.value) for o in choose(t, "T", {"L": 1.0}, 2.01, 3, 0.01, 0, True, 3)]
    [('no_two_pi', 0.319), ('inverted_ratio', 19.7), ('pi_for_two_pi', 1.0)]
    """
    conv = template.answer_units[answer]
    args = [si[n] for n in template.spec.inputs] + [c.si_value for c in template.constants.values()]
    named, generic = template.candidate_functions.get()[answer]
    if generic:
        shift = order % len(generic)
        generic = generic[shift:] + generic[:shift]
    chosen: list[Option] = []
    kept: list[float] = []  # what options are kept apart by: as shown, or in SI for expressions

    def shown(x: float) -> float:
        return float(f"{x:.{sig_figs - 1}e}") if sig_figs else x

    right = shown(correct)
    right_si = float(conv.to_si(correct))
    interval = option_interval(template, answer, si) if answer in template.answer_ranges \
        else _interval(template, answer)
    # absolute temperatures are kept apart in kelvin, by KELVIN_SEPARATION
    kelvin, apart = (True, KELVIN_SEPARATION / SEPARATION) if absolute_temperature(template, answer) \
        else (False, rtol)

    def offer(key: int, name: str, value: float, si_value: float) -> None:
        """Keep the option if it is finite, plausible, and far from the answer and from every
        option so far: as shown (numbers), or in SI (expressions, whose value is an SI value;
        absolute temperatures, compared in kelvin)."""
        if not (math.isfinite(value) and math.isfinite(si_value)):
            return
        value = shown(value)
        by, answer_by = (value, right) if numeric and not kelvin else (
            (float(conv.to_si(value)), float(conv.to_si(right))) if numeric else (si_value, right_si))
        if kelvin and not float(conv.to_si(value)) * right_si > 0:  # never across 0 K (negative
            return  # absolute temperatures, of a spin system, stay negative)
        if plausible(value, right, interval) and _far(by, answer_by, max(rtol, apart)) and all(
                _far(by, x, max(rtol, apart)) for x in kept):
            chosen.append(Option(key, name, value))
            kept.append(by)

    with np.errstate(all="ignore"):
        for key, name, fn in (*named, *generic):
            if len(chosen) == k:
                return chosen
            try:
                raw = fn(*args)
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                continue
            real = _real(raw)
            if real is not None:
                offer(key, name, float(conv.from_si(real)), real)
    symbolic = not numeric and bool(named or generic)  # an answer with an expression
    first = len(named) + len(generic)  # the fallbacks' keys follow the candidates'
    for j, (name, factor) in enumerate(FALLBACK):
        if len(chosen) == k:
            break
        if symbolic:  # the expression times the factor: scaled in SI (°C are not scaled so)
            offer(first + j, name, float(conv.from_si(right_si * factor)), right_si * factor)
        else:
            offer(first + j, name, correct * factor, float(conv.to_si(correct * factor)))
    return chosen

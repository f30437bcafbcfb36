"""The checks every instance passes before it is shown: plausible, well-conditioned, non-degenerate.

:meth:`physgen.template.Template.sample` keeps a candidate only if every mask
here is true for it, and redraws it otherwise; ``physgen validate --report``
counts how often each one rejects. ``docs/validity.md`` says what this guarantees.

* **plausible**: every ``checks`` entry of the template holds (an inequality, or a
  named limit of :mod:`physgen.limits` applied to an expression);
* **well-conditioned**: nudging the shown value of any input that is not exact by
  statement by ``NUDGE`` (what rounding an intermediate to 3 significant figures
  does) moves no answer by more than half the grading tolerance. An answer that
  is a pure power of an input (``r⁴``, ``T⁴``: the same elasticity everywhere,
  found at compile time) is exempt for that input: rounding cannot cancel there,
  and a solver never rounds a given before raising it to a power;
* **distinct from the inputs**: no answer lies within ``SEPARATION`` tolerances of
  an input of the same kind (so "nothing changes" is never the key);
* **distinct from the mistakes**: no named mistake lands within ``SEPARATION``
  tolerances of the key (so a wrong shortcut cannot score);
* every width above is the grader's own (:func:`physgen.reading.compare.tolerance`): an absolute
  temperature in °C or °F is measured on its own scale, as the grader measures it;
* **conditioned through the printed steps**: every answer or intermediate computed from values the
  steps print, recomputed from them as printed (:mod:`physgen.printed`), is within the tolerance.

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.projectile_range"]
>>> batch = t.sample(3, seed=0)
>>> answers = {n: t.answer_units[n].to_si(v) for n, v in batch.answers.items()}
>>> masks = screen(t, batch.shown, batch.si, answers)
>>> sorted(masks), all(m.all() for m in masks.values())
(['conditioning', 'distinct_from_inputs', 'distinct_from_mistakes', 'printed_steps'], True)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .printed import printed_ok
from .reading.compare import RTOL, tolerance

if TYPE_CHECKING:
    from .template import Template

#: Relative nudge of one input in the conditioning check (rounding to 3 significant figures).
NUDGE = 0.002
#: An answer moving by more than this share of the tolerance under a nudge is ill-conditioned.
CONDITIONING_SHARE = 0.5
#: Answers differ from same-kind inputs and from named mistakes by more than this many tolerances.
SEPARATION = 5.0
#: Above this share of (constraint-meeting) draws rejected, a template is an error.
MAX_REJECT_RATE = 0.5

FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


def apart(a: FloatArray, b: FloatArray, tolerances: float = SEPARATION) -> Mask:
    """Where ``a`` and ``b`` differ by more than ``tolerances`` × ``RTOL`` of the larger.

    >>> apart(np.array([100.0, 100.0]), np.array([104.0, 106.0])).tolist()
    [False, True]
    """
    with np.errstate(all="ignore"):
        return _apart(a, b, tolerances)


def _apart(a: FloatArray, b: FloatArray, tolerances: float = SEPARATION) -> Mask:
    """:func:`apart` for callers that already silence NumPy's warnings (one context, not one per pair)."""
    return np.abs(a - b) > tolerances * RTOL * np.maximum(np.abs(a), np.abs(b))


def shaped(value: npt.ArrayLike, shape: tuple[int, ...]) -> npt.NDArray[np.float64]:
    """``value`` broadcast to ``shape`` (as a read-only view), or itself if it has that shape already
    (``np.broadcast_to`` costs more than most of the arithmetic it precedes on a few rows).

    >>> shaped(2.0, (3,)).tolist(), shaped(np.ones(2), (2,)).shape
    ([2.0, 2.0, 2.0], (2,))
    """
    a = np.asarray(value)
    return a if a.shape == shape else np.broadcast_to(a, shape)


def screen(t: Template, shown: Mapping[str, FloatArray], si: Mapping[str, FloatArray],
           answers_si: Mapping[str, FloatArray], *, displayed: bool = True) -> dict[str, Mask]:
    """Each check's pass mask over a chunk of candidates: ``check:<name>`` per plausibility
    check, then ``conditioning`` and ``distinct_from_inputs`` (numerical templates: an algebraic
    answer shows no number), and ``distinct_from_mistakes`` (the point an algebraic answer is
    checked at must tell the key from each mistake).
    ``shown`` are the inputs as displayed, ``si`` and ``answers_si`` in SI base units.
    ``displayed=False``: the candidates are never shown or graded as text (a ``code`` answer's
    test inputs), so only the plausibility checks apply."""
    masks: dict[str, Mask] = {}
    with np.errstate(all="ignore"):
        masks.update(_plausible(t, si, answers_si))
        if not displayed:
            return masks
        if t.question_type == "numerical":  # an algebraic answer shows no number to round or match
            masks["conditioning"] = _conditioned(t, si, answers_si)
            masks["distinct_from_inputs"] = _apart_from_inputs(t, shown, answers_si)
            if t.printed_values is not None:
                masks["printed_steps"] = printed_ok(t, t.arguments(si), dict(answers_si), RTOL)
        masks["distinct_from_mistakes"] = _apart_from_mistakes(t, si, answers_si)
    return masks


def _plausible(t: Template, si: Mapping[str, FloatArray],
               answers_si: Mapping[str, FloatArray]) -> dict[str, Mask]:
    if t.check_values is None:
        return {}
    args = t.arguments(si) + [answers_si[n] for n in t.spec.answers]
    values = t.check_values(*args)
    shape = next(iter(answers_si.values())).shape
    out: dict[str, Mask] = {}
    for (label, lo, hi), value in zip(t.check_bounds, values, strict=True):
        v = shaped(value, shape)
        ok = v.astype(bool) if lo is None or hi is None else (v >= lo) & (v <= hi)
        key = f"check:{label}"
        out[key] = out[key] & ok if key in out else ok
    return out


def _conditioned(t: Template, si: Mapping[str, FloatArray], answers_si: Mapping[str, FloatArray]) -> Mask:
    """Every nudge of every input at once: the answers are evaluated once, on the rows of all
    nudged copies stacked (input by input), not once per input."""
    shape = next(iter(answers_si.values())).shape
    nudgeable = [name for name, spec in t.spec.inputs.items() if not (spec.exact or spec.integer)]
    if not nudgeable:
        return np.ones(shape, dtype=bool)
    stacked = {}
    for name, values in si.items():
        if name in nudgeable:  # the shown number nudged (0.2 % of 20 °C is not 0.2 % of 293 K)
            conv = t.input_si[name]
            copies = [conv.to_si(conv.from_si(values) * (1 + NUDGE)) if other == name else values
                      for other in nudgeable]
        else:
            copies = [values] * len(nudgeable)
        stacked[name] = np.concatenate([shaped(c, shape) for c in copies])
    moved = t.evaluate_si(stacked)
    limit = CONDITIONING_SHARE * RTOL
    ok = np.ones(shape, dtype=bool)
    for answer, base in answers_si.items():
        rows = [k for k, name in enumerate(nudgeable) if (answer, name) not in t.power_laws]
        if rows:
            shift = np.abs(moved[answer].reshape(len(nudgeable), *shape)[rows] - base)
            ok &= (shift <= tolerance(base, t.answer_units[answer].offset, limit)).all(axis=0)
    return ok


def _apart_from_inputs(t: Template, shown: Mapping[str, FloatArray],
                       answers_si: Mapping[str, FloatArray]) -> Mask:
    ok = np.ones(next(iter(answers_si.values())).shape, dtype=bool)
    for answer, base in answers_si.items():
        conv = t.answer_units[answer]
        value = conv.from_si(base)
        for name in t.spec.inputs:
            if t.input_si[name].si_unit == conv.si_unit:
                given = t.input_si[name].to_si(shown[name])
                ok &= (np.abs(base - given) > SEPARATION * tolerance(base, conv.offset) if conv.offset
                       else _apart(value, conv.from_si(given)))
    return ok


def _apart_from_mistakes(t: Template, si: Mapping[str, FloatArray],
                         answers_si: Mapping[str, FloatArray]) -> Mask:
    """Every (answer, mistake) pair at once: one row per pair, each in its answer's unit
    (``(x - offset) / factor`` is ``from_si`` exactly, also where the offset is 0)."""
    shape = next(iter(answers_si.values())).shape
    if t.mistake_values is None:
        return np.ones(shape, dtype=bool)
    factor, offset = _mistake_units(t)
    right = np.stack([answers_si[answer] for answer, _ in t.mistake_answers])
    values = t.mistake_values(*t.arguments(si))
    wrong = np.stack([shaped(np.asarray(w, dtype=np.float64), shape) for w in values])
    guess = (wrong - offset) / factor
    ok = _apart((right - offset) / factor, guess)
    for row in np.flatnonzero(offset[:, 0]):  # an absolute temperature in °C or °F: its own scale
        zero = float(offset[row, 0])
        ok[row] = np.abs(wrong[row] - right[row]) > SEPARATION * tolerance(right[row], zero)
    return np.asarray((ok | ~np.isfinite(guess)).all(axis=0))


@functools.lru_cache(maxsize=4096)
def _mistake_units(t: Template) -> tuple[FloatArray, FloatArray]:
    """Per (answer, mistake) pair, its answer's SI factor and offset, as columns."""
    convs = [t.answer_units[answer] for answer, _ in t.mistake_answers]
    return (np.array([[c.factor] for c in convs], dtype=np.float64),
            np.array([[c.offset] for c in convs], dtype=np.float64))


def answer_interval(t: Template, answer: str) -> tuple[float, float]:
    """The interval (in the answer's unit) that the template's named limits put on ``answer``
    itself, and its declared sign: where a multiple-choice option must lie to be plausible.

    >>> import physgen
    >>> answer_interval(physgen.load_catalog()["mechanics.projectile_range"], "R")
    (0.0, inf)
    """
    from .limits import LIMITS

    spec = t.spec.answers[answer]
    lo, hi = {"positive": (0.0, np.inf), "negative": (-np.inf, 0.0)}.get(spec.sign, (-np.inf, np.inf))
    conv = t.answer_units[answer]
    for check in t.spec.checks:
        if check.limit is not None and check.of is not None and check.of.strip() == answer:
            a, b = (float(conv.from_si(x)) for x in LIMITS[check.limit].interval_si())
            lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    return (float(lo), float(hi))

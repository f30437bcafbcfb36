"""Which inputs each answer depends on, decided numerically: does the key move when the input moves?

The ``omitted`` probe removes one given and expects the parts that need it to be
declined. Reading the expressions for the names they contain marks a part as
needing an input even where the input cancels (the efficiency of a Stirling
cycle without a regenerator contains the amount of gas in numerator and
denominator, yet does not depend on it), and then a right answer is graded
wrong. Here each input's shown value is moved by each of ``STEPS`` (relative, up and down;
whole numbers by 1 and by 4) at ``POINTS`` instances that meet the constraints, and an answer
depends on the input if it moves by more than ``MOVED`` (relative) at any of them.
Answers computed by a solver are measured the same way. Moving down matters where a regime
turns on the input: a flow's profile turns laminar as the density falls, which no rise shows
(``waves.ultrasonic_flowmeter_profile``), and without the density a student cannot tell
which profile applies.

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.projectile_range"]
>>> sorted(t.dependencies["R"])
['theta', 'v0']
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .sampling import stream_key

if TYPE_CHECKING:
    from .template import Template

#: Instances (meeting the constraints) at which each input is moved.
POINTS = 16
#: Relative moves of an input's shown value: a small one, and a large one for answers that are
#: whole numbers (a count of fringes, the most populated level), which a small move may not change;
#: each up and down (a regime boundary may lie on either side of every point).
STEPS = (0.03, 0.4, -0.03, -0.4)
#: An answer moving by more than this share of its size depends on the input.
MOVED = 1e-9


def dependencies(t: Template) -> dict[str, frozenset[str]]:
    """Answer name -> the inputs it depends on numerically (every input, for every answer, when no
    draw meets the constraints: nothing can be measured, so nothing is declared answerable)."""
    everything = {a: frozenset(t.spec.inputs) for a in t.spec.answers}
    key = stream_key(0, f"dependence:{t.id}")
    shown = t.draw_candidates(key, np.arange(POINTS * 8, dtype=np.uint64), 0)
    usable = t.examine(shown, displayed=False)[0]
    rows = np.flatnonzero(usable)[:POINTS]
    if rows.size == 0:
        return everything
    base = {n: v[rows] for n, v in shown.items()}
    found: dict[str, set[str]] = {a: set() for a in t.spec.answers}
    with np.errstate(all="ignore"):
        exact = t.evaluate_si({n: t.input_si[n].to_si(v) for n, v in base.items()})
        for name, spec in t.spec.inputs.items():
            v = base[name]
            lo, hi = spec.bounds()
            for size in STEPS:
                step = np.where(v == 0, size * (hi - lo), size * np.abs(v))
                whole = math.copysign(max(1.0, round(abs(size) * 10)), size)  # ±1, ±4
                moved = {**base, name: v + whole if spec.integer else v + step}
                values = t.evaluate_si({n: t.input_si[n].to_si(x) for n, x in moved.items()})
                for answer, value in values.items():
                    change = np.abs(value - exact[answer])
                    if (~np.isfinite(change) | (change > MOVED * np.abs(exact[answer]))).any():
                        found[answer].add(name)
    return {a: frozenset(n for n in t.spec.inputs if n in found[a]) for a in t.spec.answers}

"""Families: templates whose answers are the same relation up to renaming, found numerically.

Two templates are near-duplicates when one answer of each is the same function of
its givens once the givens are matched: a driven oscillator's steady-state
amplitude ``F0/√((k − mω²)² + (bω)²)`` is the same relation whether the drive is
given as ``omega`` in one group or as ``f`` (ω = 2πf) in another. A split that puts
one in train and the other in test leaks the relation, so :mod:`physgen.splits`
keeps a family on one side.

An answer takes part when it depends (numerically, :mod:`physgen.dependence`) on at
least ``MIN_INPUTS`` givens: two-given relations (``v = d/t``, ``ω0 = √(k/m)``) are
shared by many different problems and say nothing about near-duplicates. Two such
answers match when they have the same dimension and their givens can be paired by
dimension so that, at ``POINTS`` instances of the first template (its other givens
at an instance of the second), both give the same value to within ``SAME``
(relative). A frequency paired with an angular frequency is scaled by 2π. Families
are the connected groups of matching templates.

>>> import physgen
>>> c = physgen.load_catalog()
>>> pair = ["mechanics.driven_oscillator_steady_state", "waves.driven_oscillator_amplitude"]
>>> family_map([c[i] for i in pair])[pair[1]] == pair[0]
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .sampling import stream_key
from .units import registry

if TYPE_CHECKING:
    from .template import Template

#: Answers depending on fewer givens than this are too common to mark a near-duplicate.
MIN_INPUTS = 3
#: Instances of each template at which two answers are compared.
POINTS = 4
#: Two answers whose relative difference stays below this at every point are the same relation.
SAME = 1e-7
#: Pairings of givens tried per pair of answers (same-dimension givens are permuted).
MAX_PAIRINGS = 720


@dataclass(frozen=True)
class _Answer:
    template: Template
    name: str
    inputs: tuple[str, ...]  # the givens it depends on, in template order
    dims: tuple[str, ...]  # their dimensions, the same order
    rows: dict[str, npt.NDArray[np.float64]]  # SI values of every given at POINTS usable instances


def _dimension(si_unit: str) -> str:
    return str(registry()(si_unit).dimensionality)


def _angular(t: Template, name: str) -> bool:
    return "radian" in t.input_si[name].si_unit


def _usable_rows(t: Template) -> dict[str, npt.NDArray[np.float64]] | None:
    key = stream_key(0, f"family:{t.id}")
    shown = t.draw_candidates(key, np.arange(POINTS * 16, dtype=np.uint64), 0)
    usable, si, _, _ = t.examine(shown, displayed=False)
    rows = np.flatnonzero(usable)[:POINTS]
    if rows.size < POINTS:
        return None
    return {n: np.asarray(v, dtype=np.float64)[rows] for n, v in si.items()}


def _answers(t: Template) -> list[_Answer]:
    chosen = [a for a, deps in t.dependencies.items() if len(deps) >= MIN_INPUTS]
    if not chosen:
        return []
    rows = _usable_rows(t)
    if rows is None:
        return []
    out = []
    for a in chosen:
        inputs = tuple(n for n in t.spec.inputs if n in t.dependencies[a])
        dims = tuple(_dimension(t.input_si[n].si_unit) for n in inputs)
        out.append(_Answer(t, a, inputs, dims, rows))
    return out


def _signature(a: _Answer) -> tuple[str, tuple[str, ...]]:
    return _dimension(a.template.answer_units[a.name].si_unit), tuple(sorted(a.dims))


def _pairings(a: _Answer, b: _Answer) -> Iterable[dict[str, str]]:
    """Every one-to-one pairing of ``a``'s givens with ``b``'s that keeps dimensions."""
    groups: dict[str, tuple[list[str], list[str]]] = {}
    for n, d in zip(a.inputs, a.dims, strict=True):
        groups.setdefault(d, ([], []))[0].append(n)
    for n, d in zip(b.inputs, b.dims, strict=True):
        groups.setdefault(d, ([], []))[1].append(n)
    choices = [[list(zip(left, p, strict=True)) for p in itertools.permutations(right)]
               for left, right in groups.values()]
    for combo in itertools.islice(itertools.product(*choices), MAX_PAIRINGS):
        yield dict(pair for group in combo for pair in group)


def _same(a: _Answer, b: _Answer) -> bool:
    with np.errstate(all="ignore"):  # a regime not taken may be undefined at these rows
        mine = a.template.evaluate_si(a.rows)[a.name]
    for pairing in _pairings(a, b):
        theirs = dict(b.rows)
        for x, y in pairing.items():
            scale = 1.0
            if _angular(a.template, x) != _angular(b.template, y):  # f and ω = 2πf
                scale = 2 * math.pi if _angular(b.template, y) else 1 / (2 * math.pi)
            theirs[y] = a.rows[x] * scale
        with np.errstate(all="ignore"):
            value = b.template.evaluate_si(theirs)[b.name]
        if np.all(np.isfinite(value)) and np.all(np.abs(value - mine) <= SAME * np.abs(mine)):
            return True
    return False


def families(templates: Sequence[Template]) -> list[list[str]]:
    """Groups of two or more template ids whose answers share a relation, each sorted, sorted by
    their first id (templates in no family are left out)."""
    buckets: dict[tuple[str, tuple[str, ...]], list[_Answer]] = {}
    for t in templates:
        for a in _answers(t):
            buckets.setdefault(_signature(a), []).append(a)
    parent = {t.id: t.id for t in templates}

    def root(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    for members in buckets.values():
        for a, b in itertools.combinations(members, 2):
            ra, rb = root(a.template.id), root(b.template.id)
            if ra != rb and _same(a, b):
                parent[max(ra, rb)] = min(ra, rb)
    grouped: dict[str, list[str]] = {}
    for t in templates:
        grouped.setdefault(root(t.id), []).append(t.id)
    return sorted((sorted(g) for g in grouped.values() if len(g) > 1), key=lambda g: g[0])


def family_map(templates: Sequence[Template]) -> dict[str, str]:
    """Template id -> its family's id (the family's first template id; its own id if in none)."""
    out = {t.id: t.id for t in templates}
    for group in families(templates):
        for member in group:
            out[member] = group[0]
    return out

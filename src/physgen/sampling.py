"""Draw parameter sets: seeded, reproducible, independent per instance, vectorised.

Instance ``k`` of a template under ``seed`` depends only on ``(seed, template
id, k)``: a 64-bit key is hashed from the seed and the template id, and draw
``d`` of instance ``k`` is the SplitMix64 hash of that key, ``k`` and ``d``.
No generator state is carried between instances, so drawing instances 0..9999
or only instance 7_345 gives the same instance 7_345, and seed 1 is not seed 0
shifted by one (the ``seed + index`` overlap of some generators).

Values are rounded to the template's significant figures *before* constraints
and answers are computed, so the printed problem and its answer agree.

>>> u1 = uniforms(stream_key(0, "mechanics.demo"), np.arange(5), 0)
>>> u2 = uniforms(stream_key(0, "mechanics.demo"), np.arange(3, 5), 0)
>>> bool(np.array_equal(u1[3:], u2))
True
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .errors import SamplingError

if TYPE_CHECKING:
    from .template import Template

FloatArray = npt.NDArray[np.float64]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 2.0**-53

#: Redraws allowed per instance before a template's constraints count as too tight.
MAX_ROUNDS = 10_000


def _mix64(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The SplitMix64 finaliser (wrapping uint64 arithmetic; identical on every machine)."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def stream_key(seed: int, template_id: str) -> np.uint64:
    """64-bit key of one template's streams under one seed (BLAKE2b of both)."""
    digest = hashlib.blake2b(f"physgen/1/{seed}/{template_id}".encode(), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "little"))


def uniforms(key: np.uint64, index: npt.ArrayLike, draw: int) -> FloatArray:
    """Draw number ``draw`` in [0, 1) of each instance in ``index``, under ``key``."""
    idx = np.asarray(index, dtype=np.uint64)
    with np.errstate(over="ignore"):
        stream = _mix64(key + idx * _GOLDEN)
        bits = _mix64(stream + np.uint64(draw + 1) * _GOLDEN)
    return (bits >> np.uint64(11)).astype(np.float64) * _TO_UNIT


def round_sig(values: FloatArray, sig_figs: int) -> FloatArray:
    """Round to significant figures through decimal text, so it is exact and portable.

    >>> round_sig(np.array([0.0123456, 98765.0, 2.5e-31]), 3).tolist()
    [0.0123, 98800.0, 2.5e-31]
    """
    fmt = f"{{:.{sig_figs - 1}e}}"
    return np.array([float(fmt.format(v)) for v in values.tolist()], dtype=np.float64)


def distinct_values(bounds: tuple[float, float], sig_figs: int, integer: bool) -> int:
    """How many values with ``sig_figs`` significant figures lie in ``bounds`` (about).

    >>> distinct_values((1.0, 10.0), 2, False), distinct_values((2, 8), 3, True)
    (90, 7)
    """
    lo, hi = bounds
    if integer:
        return int(hi - lo + 1)
    if lo < 0 < hi:
        return distinct_values((0.0, -lo), sig_figs, False) + distinct_values((0.0, hi), sig_figs, False)
    a, b = sorted((abs(lo), abs(hi)))
    a = max(a, b * 1e-12)
    count = 0.0
    for exp in range(math.floor(math.log10(a)), math.floor(math.log10(b)) + 1):
        step = 10.0 ** (exp - sig_figs + 1)
        span = min(b, 10.0 ** (exp + 1)) - max(a, 10.0**exp)
        count += max(span, 0.0) / step
    return max(round(count), 1)


@dataclass(frozen=True)
class InstanceBatch:
    """Parameter sets ``index`` of one template under one seed, with their answers.

    ``shown`` holds each input as displayed (rounded, in its declared unit);
    ``si`` the same values in SI base units; ``answers`` each answer in its
    declared unit, computed from the shown values.
    """

    template: Template
    seed: int
    index: npt.NDArray[np.int64]
    shown: dict[str, FloatArray]
    si: dict[str, FloatArray]
    answers: dict[str, FloatArray]

    def __len__(self) -> int:
        return int(self.index.shape[0])

    def row(self, i: int) -> dict[str, Any]:
        """One instance as a plain dict of shown inputs and answers."""
        out: dict[str, Any] = {n: float(v[i]) for n, v in self.shown.items()}
        out.update({n: float(v[i]) for n, v in self.answers.items()})
        return out


def draw_candidates(template: Template, key: np.uint64, index: npt.NDArray[np.uint64],
                round_no: int) -> dict[str, FloatArray]:
    """One candidate value per instance and input, rounded as it will be displayed."""
    shown: dict[str, FloatArray] = {}
    n_inputs = len(template.spec.inputs)
    for j, (name, spec) in enumerate(template.spec.inputs.items()):
        u = uniforms(key, index, round_no * n_inputs + j)
        lo, hi = spec.bounds()
        if spec.integer:
            shown[name] = np.minimum(np.floor(lo + u * (hi - lo + 1)), hi)
        elif spec.log:
            shown[name] = round_sig(lo * (hi / lo) ** u, spec.sig_figs)
        else:
            shown[name] = round_sig(lo + u * (hi - lo), spec.sig_figs)
    return shown


def acceptance(template: Template, shown: dict[str, FloatArray]) -> tuple[
        npt.NDArray[np.bool_], dict[str, FloatArray], dict[str, FloatArray]]:
    """Which candidates meet every constraint and give finite answers; their SI values and answers."""
    si = {n: template.input_si[n].to_si(v) for n, v in shown.items()}
    with np.errstate(all="ignore"):
        ok = template.constraint_mask(si)
        answers = template.evaluate_si(si)
        for values in answers.values():
            ok &= np.isfinite(values)
    return ok, si, answers


def draw(template: Template, seed: int, start: int, count: int) -> InstanceBatch:
    """Instances ``start … start+count-1`` of ``template`` under ``seed``.

    Each instance redraws (from its own stream) until it meets the template's
    constraints and every answer is finite.
    """
    if count < 0 or start < 0:
        raise ValueError(f"start and count must be ≥ 0, got start={start}, count={count}")
    key = stream_key(seed, template.id)
    index = np.arange(start, start + count, dtype=np.uint64)
    names = list(template.spec.inputs)
    shown = {n: np.empty(count) for n in names}
    si = {n: np.empty(count) for n in names}
    answers_si = {n: np.empty(count) for n in template.answer_names}
    pending = np.arange(count)
    for round_no in range(MAX_ROUNDS):
        if pending.size == 0:
            break
        cand = draw_candidates(template, key, index[pending], round_no)
        ok, cand_si, cand_answers = acceptance(template, cand)
        rows = pending[ok]
        for n in names:
            shown[n][rows] = cand[n][ok]
            si[n][rows] = cand_si[n][ok]
        for n in answers_si:
            answers_si[n][rows] = cand_answers[n][ok]
        pending = pending[~ok]
    if pending.size:
        raise SamplingError(
            f"{template.id}: instance {start + int(pending[0])} found no parameter set meeting "
            f"the constraints {template.spec.constraints} in {MAX_ROUNDS} draws; widen the input "
            "ranges or loosen the constraints (see `physgen validate`)"
        )
    answers = {n: template.answer_units[n].from_si(v) for n, v in answers_si.items()}
    return InstanceBatch(template, seed, index.astype(np.int64), shown, si, answers)

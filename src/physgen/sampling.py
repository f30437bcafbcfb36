"""Counter-based random numbers: seeded, reproducible, independent per instance, vectorised.

Instance ``k`` of a template under ``seed`` depends only on ``(seed, template
id, k)``: a 64-bit key is hashed from the seed and the template id, and draw
``d`` of instance ``k`` is the SplitMix64 hash of that key, ``k`` and ``d``.
No generator state is carried between instances, so drawing instances 0..9999
or only instance 7_345 gives the same instance 7_345, and seed 1 is not seed 0
shifted by one (the ``seed + index`` overlap of some generators). The redraw
loop that turns these numbers into instances is :meth:`physgen.Template.sample`.

>>> u1 = uniforms(stream_key(0, "mechanics.demo"), np.arange(5), 0)
>>> u2 = uniforms(stream_key(0, "mechanics.demo"), np.arange(3, 5), 0)
>>> bool(np.array_equal(u1[3:], u2))
True
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .template import Template

FloatArray = npt.NDArray[np.float64]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 2.0**-53


def _mix64(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The SplitMix64 finaliser (wrapping uint64 arithmetic; identical on every machine).
    The caller silences NumPy's overflow warning (raised for scalars only)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def stream_key(seed: int, template_id: str) -> np.uint64:
    """64-bit key of one template's streams under one seed (BLAKE2b of both)."""
    digest = hashlib.blake2b(f"physgen/1/{seed}/{template_id}".encode(), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "little"))


def uniforms(key: np.uint64, index: npt.ArrayLike, draw: int | npt.NDArray[np.uint64]) -> FloatArray:
    """Draw number ``draw`` in [0, 1) of each instance in ``index``, under ``key``.

    ``draw`` may be an array, one draw number per instance (the same numbers as
    one call per draw number, in a single pass):

    >>> key = stream_key(0, "mechanics.demo")
    >>> both = uniforms(key, np.array([4, 4]), np.array([0, 1], dtype=np.uint64))
    >>> bool(both[0] == uniforms(key, [4], 0)[0] and both[1] == uniforms(key, [4], 1)[0])
    True
    """
    idx = np.asarray(index, dtype=np.uint64)
    step = np.uint64(draw + 1) if isinstance(draw, int) else draw + np.uint64(1)
    with np.errstate(over="ignore"):  # one context for all the wrapping arithmetic
        stream = _mix64(key + idx * _GOLDEN)
        bits = _mix64(stream + step * _GOLDEN)
    return (bits >> np.uint64(11)).astype(np.float64) * _TO_UNIT


def spread(t: Template, purpose: str, points: int) -> dict[str, FloatArray]:
    """Every input of ``t`` at ``points`` points uniform across its range, in SI, from the stream
    of ``purpose`` (the load-time checks that measure a template across its ranges: a solved
    root, a restated given, a power law), so each check sees its own fixed points.

    >>> import physgen
    >>> si = spread(physgen.load_catalog()["mechanics.projectile_range"], "doc", 4)
    >>> sorted(si), si["v0"].shape
    (['theta', 'v0'], (4,))
    """
    key = stream_key(0, purpose)
    index = np.arange(points, dtype=np.uint64)
    si = {}
    for j, (name, inp) in enumerate(t.spec.inputs.items()):
        lo, hi = inp.bounds()
        si[name] = t.input_si[name].to_si(lo + uniforms(key, index, j) * (hi - lo))
    return si

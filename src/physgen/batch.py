"""A chunk of parameter sets of one template, as NumPy columns (what :meth:`Template.sample` returns).

>>> import physgen
>>> batch = physgen.load_catalog()["mechanics.simple_pendulum_period"].sample(3, seed=0)
>>> len(batch), sorted(batch.row(0))
(3, ['L', 'T'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .template import Template

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class InstanceBatch:
    """Parameter sets ``index`` of one template under one seed, with their answers.

    ``shown`` holds each input as displayed (rounded, in its declared unit);
    ``si`` the same values in SI base units; ``answers`` each answer in its
    declared unit, computed from the shown values; ``intermediates`` each intermediate in its
    declared unit (step-level grading; empty when the template declares none).
    """

    template: Template
    seed: int
    index: npt.NDArray[np.int64]
    shown: dict[str, FloatArray]
    si: dict[str, FloatArray]
    answers: dict[str, FloatArray]
    intermediates: dict[str, FloatArray] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.index.shape[0])

    def row(self, i: int) -> dict[str, Any]:
        """One instance as a plain dict of shown inputs and answers."""
        out: dict[str, Any] = {n: float(v[i]) for n, v in self.shown.items()}
        out.update({n: float(v[i]) for n, v in self.answers.items()})
        return out

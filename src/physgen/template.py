"""A compiled, checked template: solve it, evaluate it for many instances, sample it.

Build one with :func:`physgen.compile.compile_template`, or get one from a catalog:

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.projectile_range"]
>>> round(float(t.solve(v0="20 m/s", theta="30 deg")["R"].to("m").magnitude), 2)
35.31
>>> t.sample(2, seed=0).answers["R"].shape
(2,)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import InputError
from .render import Text
from .sampling import InstanceBatch, distinct_values, draw
from .schema import TemplateSpec
from .units import Quantity, SIConversion, format_unit, parse_quantity

FloatArray = npt.NDArray[np.float64]
Evaluator = Callable[..., tuple[Any, ...]]


@dataclass(frozen=True)
class Constant:
    """A fixed quantity of a template: its SI value, and how it is shown."""

    si_value: float
    si_unit: str
    shown_value: float
    unit: str
    sig_figs: int


@dataclass(frozen=True, eq=False)
class Template:
    """One template, compiled: expressions as vectorised functions, texts as Jinja.

    Attributes hold everything generation needs; nothing here re-reads the file.
    """

    spec: TemplateSpec
    source: str
    input_si: dict[str, SIConversion]
    answer_units: dict[str, SIConversion]
    constants: dict[str, Constant]
    expressions: dict[str, Any]  # answer name -> SymPy expression (empty with a solver)
    mistakes: dict[str, list[tuple[str, Any]]]  # answer -> [(mistake name, SymPy expression)]
    texts: tuple[Text, ...]
    steps: tuple[Text, ...]
    _evaluate: Evaluator = field(repr=False)  # (*inputs, *constants) in SI -> answers in SI
    _constraints: Evaluator | None = field(repr=False)

    # -- identity -------------------------------------------------------
    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def version(self) -> int:
        return self.spec.version

    @property
    def domain(self) -> str:
        return self.spec.domain

    @property
    def subdomain(self) -> list[str]:
        return list(self.spec.subdomain)

    @property
    def difficulty(self) -> int:
        return self.spec.difficulty

    @property
    def question_type(self) -> str:
        return self.spec.question_type

    @property
    def input_names(self) -> list[str]:
        return list(self.spec.inputs)

    @property
    def answer_names(self) -> list[str]:
        return list(self.spec.answers)

    def __repr__(self) -> str:
        return (
            f"<Template {self.id} v{self.version}: {', '.join(self.input_names)} -> "
            f"{', '.join(self.answer_names)}>"
        )

    # -- vectorised path (SI floats) ---------------------------------------
    def _arguments(self, si: Mapping[str, Any], constants: Mapping[str, Any] | None) -> list[Any]:
        consts = {n: c.si_value for n, c in self.constants.items()}
        if constants:
            consts.update(constants)
        return [si[n] for n in self.spec.inputs] + [consts[n] for n in self.constants]

    def evaluate_si(
        self, si: Mapping[str, npt.ArrayLike], constants: Mapping[str, float] | None = None
    ) -> dict[str, FloatArray]:
        """Answers in SI base units for inputs in SI base units (arrays broadcast).

        >>> import physgen
        >>> t = physgen.load_catalog()["mechanics.simple_pendulum_period"]
        >>> t.evaluate_si({"L": [1.0, 4.0]})["T"].round(3).tolist()
        [2.006, 4.012]
        """
        args = [np.asarray(a, dtype=np.float64) for a in self._arguments(si, constants)]
        shape = np.broadcast_shapes(*(a.shape for a in args)) if args else ()
        values = self._evaluate(*args)
        return {
            name: np.broadcast_to(np.asarray(v, dtype=np.float64), shape)
            for name, v in zip(self.spec.answers, values, strict=True)
        }

    def constraint_mask(self, si: Mapping[str, npt.ArrayLike]) -> npt.NDArray[np.bool_]:
        """Which rows of SI inputs meet every constraint."""
        args = [np.asarray(a, dtype=np.float64) for a in self._arguments(si, None)]
        shape = np.broadcast_shapes(*(a.shape for a in args)) if args else ()
        ok = np.ones(shape, dtype=bool)
        if self._constraints is not None:
            for result in self._constraints(*args):
                ok &= np.asarray(result, dtype=bool)
        return ok

    def capacity(self) -> int:
        """How many different parameter sets the template can show (before constraints).

        An algebraic template shows symbols, not numbers, so it has one. Otherwise
        the product of the counts of distinct shown values per input: whole numbers
        in an integer range, numbers with the declared significant figures in a
        continuous one. Draw far fewer instances than this to avoid repeats.
        """
        if self.question_type == "algebraic":  # no numbers shown: one problem
            return 1
        total = 1
        for spec in self.spec.inputs.values():
            total *= distinct_values(spec.bounds(), spec.sig_figs, spec.integer)
        return total

    def sample(self, n: int, seed: int = 0, start: int = 0) -> InstanceBatch:
        """Instances ``start … start+n-1`` under ``seed`` (see :mod:`physgen.sampling`)."""
        return draw(self, seed, start, n)

    # -- scalar path (Pint at the edges) ------------------------------------
    def solve(self, **values: Any) -> dict[str, Any]:
        """Answers as Pint quantities in their declared units.

        Inputs are Pint quantities or strings such as ``"20 m/s"``, ``"90 km/h"``,
        ``"30 deg"``, ``"0.25"``; constants default to their template (CODATA)
        values and may be overridden the same way. Pint does every unit
        conversion here, independently of the factors the vectorised path uses.
        """
        unknown = sorted(set(values) - set(self.spec.inputs) - set(self.constants))
        if unknown:
            raise InputError(
                f"{self.id}.solve(): unknown input(s) {unknown}; it takes inputs "
                f"{self.input_names} and constants {list(self.constants)}"
            )
        missing = [n for n in self.spec.inputs if n not in values]
        if missing:
            examples = ", ".join(f"{n}='… {self.spec.inputs[n].unit}'" for n in missing)
            raise InputError(f"{self.id}.solve(): missing input(s) {missing}; pass e.g. {examples}")
        args: list[Any] = []
        for name in self.spec.inputs:
            args.append(self._checked(name, values[name], self.spec.inputs[name].unit))
        for name, const in self.constants.items():
            if name in values:
                args.append(self._checked(name, values[name], const.unit))
            else:
                args.append(Quantity(const.si_value, const.si_unit))
        results = self._evaluate(*args)
        out: dict[str, Any] = {}
        for (name, spec), value in zip(self.spec.answers.items(), results, strict=True):
            q = value if isinstance(value, Quantity) else Quantity(value, "dimensionless")
            out[name] = q.to(spec.unit or "dimensionless")
        return out

    def _checked(self, name: str, value: Any, unit: str) -> Any:
        try:
            q = parse_quantity(value)
        except ValueError as exc:
            raise InputError(f"{self.id}.solve(): {name}: {exc}") from None
        expected = Quantity(1.0, unit or "dimensionless")
        if q.dimensionality != expected.dimensionality:
            raise InputError(
                f"{self.id}.solve(): {name} = {value!r} has dimension {q.dimensionality}, "
                f"but {name} needs {expected.dimensionality} (e.g. '… {unit}')"
            )
        if format_unit(unit) and q.unitless:
            raise InputError(
                f"{self.id}.solve(): {name} = {value!r} has no unit; give one, e.g. '{value} {unit}'"
            )
        return q.to_base_units()

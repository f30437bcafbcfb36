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

import functools
import math
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from .batch import InstanceBatch
from .errors import ArgumentError, InputError, Problem, SamplingError
from .figures import distinct_values, round_sig
from .graph import SolutionGraph
from .render import Text
from .sampling import stream_key, uniforms
from .schema import TemplateSpec
from .units import SIConversion, Style, format_unit, parse_quantity, registry
from .validity import Mask, screen, shaped

if TYPE_CHECKING:
    from .algebraic import Variation

FloatArray = npt.NDArray[np.float64]
Evaluator = Callable[..., tuple[Any, ...]]
Symbolic = tuple[dict[str, Any], dict[str, list[tuple[str, Any]]]]
T = TypeVar("T")

#: Redraws allowed per instance before a template's constraints count as too tight.
MAX_ROUNDS = 10_000
#: Candidates examined per call while few instances are pending (several rounds each).
_ROWS = 8
#: At most this many candidates per redraw call (a call costs about as much as 1,000 rows).
_MAX_ROWS = 4096


def _rounds(pending: int, examined: int, accepted: int) -> int:
    """How many redraw rounds of each of ``pending`` instances to draw in one call, after
    ``accepted`` of ``examined`` candidates were kept: at least ``_ROWS`` rows, and as many rounds
    as leave, at the acceptance seen so far, under half an instance pending (at most ``_MAX_ROWS``
    rows). Each instance still takes its first accepted round, so this changes no output.

    >>> _rounds(300, 0, 0), _rounds(2, 0, 0), _rounds(60, 300, 240), _rounds(290, 300, 10)
    (1, 4, 3, 14)
    """
    least = -(-_ROWS // pending)
    if not examined:
        return least
    reject = 1.0 - (accepted + 1) / (examined + 2)
    enough = math.ceil(math.log(0.5 / pending) / math.log(reject))
    return max(least, min(enough, _MAX_ROWS // pending))


@dataclass(frozen=True)
class Constant:
    """A fixed quantity of a template: its SI value, and how it is shown."""

    si_value: float
    si_unit: str
    shown_value: float
    unit: str
    sig_figs: int


class UnitText(NamedTuple):
    """How one unit is written in one style: alone, around a number, and in a question."""

    text: str  # format_unit: 'm/s²'
    head: str  # join_number_unit(number) == head + number + tail: '', '$'
    tail: str  # ' m/s²', '°', '\\,\\mathrm{m}$'
    hint: str  # unit_hint: 'in m/s²', 'in degrees', ''


@dataclass(frozen=True)
class Display:
    """The texts of one template in one style that need Pint or SymPy to make.

    Made when the template compiles, so that generating variants needs neither.
    """

    units: dict[str, UnitText]  # every unit of an input, constant or answer
    asks: tuple[str, ...]  # the free-form question sentence of each paraphrase
    symbols: dict[str, str] | None  # algebraic: inputs and constants as symbols, answers as expressions


class OptionTexts(NamedTuple):
    """``mc_symbolic``'s texts of one answer in one style (:func:`physgen.formats.choice.option_texts`)."""

    right: str  # the answer's expression, as an option
    sympy: str  # the same in SymPy syntax (``Answer.expr``)
    wrong: tuple[str, ...]  # every wrong option it may be offered, by ``distractors.Option.key``


class Deferred(Generic[T]):
    """A value pickled on its own, so that unpickling its owner does not import what it needs.

    A template's SymPy expressions are one: a template loaded from the cache
    imports SymPy only when something asks for them.
    """

    __slots__ = ("_blob", "_value")

    def __init__(self, value: T | None = None, blob: bytes | None = None) -> None:
        self._value, self._blob = value, blob

    def get(self) -> T:
        if self._value is None:
            assert self._blob is not None
            self._value = pickle.loads(self._blob)
        return self._value

    def __reduce__(self) -> tuple[Any, ...]:
        blob = self._blob if self._blob is not None else pickle.dumps(self._value, protocol=5)
        return (Deferred, (None, blob))


@dataclass(frozen=True, eq=False)
class Template:
    """One template, compiled: expressions as vectorised functions, texts as Jinja.

    Attributes hold everything generation needs; nothing here re-reads the file.
    A template pickles, with its compiled functions (see :mod:`physgen.functions`).
    """

    spec: TemplateSpec
    source: str
    input_si: dict[str, SIConversion]
    answer_units: dict[str, SIConversion]
    constants: dict[str, Constant]
    texts: tuple[Text, ...]
    steps: tuple[Text, ...]
    _symbolic: Deferred[Symbolic] = field(repr=False)  # (expressions, mistakes)
    _evaluate: Evaluator = field(repr=False)  # (*inputs, *constants) in SI -> answers in SI
    _constraints: Evaluator | None = field(repr=False)
    #: Plausibility checks (:mod:`physgen.validity`): values of (*inputs, *constants, *answers) in SI,
    #: and per value (name, low, high) in SI, or (name, None, None) for an inequality's truth.
    check_values: Evaluator | None = field(default=None, repr=False)
    check_bounds: tuple[tuple[str, float | None, float | None], ...] = ()
    #: Named mistakes' values of (*inputs, *constants) in SI, one per (answer, mistake) pair.
    mistake_values: Evaluator | None = field(default=None, repr=False)
    mistake_answers: tuple[tuple[str, str], ...] = ()
    #: (answer, input) pairs where the answer is a pure power of the input (conditioning exempt).
    power_laws: frozenset[tuple[str, str]] = frozenset()
    #: Per paraphrase: input name -> the text with that input's marked span removed (``omitted``).
    omit_texts: tuple[dict[str, Text], ...] = ()
    #: Per style; filled by :func:`~physgen.compile.compile_template` once the template exists.
    display: dict[Style, Display] = field(default_factory=dict, repr=False)
    #: Intermediates (:mod:`physgen.intermediates`): values of (*inputs, *constants, *answers) in SI,
    #: and each one's unit conversion, in step order.
    intermediate_values: Evaluator | None = field(default=None, repr=False)
    intermediate_units: dict[str, SIConversion] = field(default_factory=dict)
    #: Each answer with a closed form as a SymPy expression of the inputs alone (constants as
    #: numbers, SI units): the ``code`` format's ``Answer.expr``, written when the template
    #: compiles so that generating needs no SymPy.
    si_expressions: dict[str, str] = field(default_factory=dict)
    #: Answer name -> the names its expression is written in (its SymPy free symbols): what an
    #: algebraic or ``mc_symbolic`` question lists "in terms of", kept when the template compiles so
    #: that asking needs neither SymPy nor the expressions unpickled.
    answer_symbols: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Multiple choice, made when the template compiles (filled by ``compile_template``): each
    #: answer's wrong candidates compiled to NumPy (:func:`physgen.distractors.compile_candidates`),
    #: and ``mc_symbolic``'s option texts per (answer, style).
    candidate_functions: Deferred[dict[str, Any]] = field(default_factory=lambda: Deferred({}), repr=False)
    option_texts: Deferred[dict[tuple[str, Style], OptionTexts]] = field(
        default_factory=lambda: Deferred({}), repr=False)
    #: Values recomputed from the answers and intermediates as the steps print them
    #: (:mod:`physgen.printed`): a function of (*inputs, *constants, *answers, *intermediates) in SI,
    #: and the answers and intermediates it gives, in that order.
    printed_values: Evaluator | None = field(default=None, repr=False)
    printed_targets: tuple[str, ...] = ()
    #: Answer name -> the inputs it depends on, measured numerically (:mod:`physgen.dependence`);
    #: what the ``omitted`` probe declares unanswerable.
    dependencies: dict[str, frozenset[str]] = field(default_factory=dict)
    #: The solution graph and the measures the difficulty level is read from (:mod:`physgen.graph`).
    graph: SolutionGraph | None = None
    #: What :mod:`physgen.fairness` finds in the template, as ``(check, problem)`` (load time).
    findings: tuple[tuple[str, Problem], ...] = ()
    #: Algebraic templates: the names and unknowns their instances vary (:mod:`physgen.algebraic`).
    variation: Variation | None = None
    #: Answer name -> its declared range's (low, high) in SI as a function of (*inputs, *constants)
    #: in SI (:mod:`physgen.ranges`).
    answer_ranges: dict[str, Evaluator] = field(default_factory=dict, repr=False)

    # -- identity -------------------------------------------------------
    @functools.cached_property
    def id(self) -> str:  # read per variant: kept in the instance's dict after the first read
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

    @property
    def expressions(self) -> dict[str, Any]:
        """Answer name -> SymPy expression (empty with a solver); imports SymPy on first use."""
        return self._symbolic.get()[0]

    @property
    def mistakes(self) -> dict[str, list[tuple[str, Any]]]:
        """Answer name -> [(mistake name, SymPy expression)], from the template's ``mistakes``."""
        return self._symbolic.get()[1]

    def __repr__(self) -> str:
        return (
            f"<Template {self.id} v{self.version}: {', '.join(self.input_names)} -> "
            f"{', '.join(self.answer_names)}>"
        )

    # -- vectorised path (SI floats) ---------------------------------------
    def arguments(self, si: Mapping[str, Any], constants: Mapping[str, Any] | None = None) -> list[Any]:
        """The compiled functions' arguments: inputs (SI) in order, then constants (SI)."""
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
        args = [np.asarray(a, dtype=np.float64) for a in self.arguments(si, constants)]
        shape = np.broadcast_shapes(*(a.shape for a in args)) if args else ()
        values = self._evaluate(*args)
        return {name: shaped(np.asarray(v, dtype=np.float64), shape)
                for name, v in zip(self.spec.answers, values, strict=True)}

    def constraint_mask(self, si: Mapping[str, npt.ArrayLike]) -> npt.NDArray[np.bool_]:
        """Which rows of SI inputs meet every constraint."""
        args = [np.asarray(a, dtype=np.float64) for a in self.arguments(si, None)]
        shape = np.broadcast_shapes(*(a.shape for a in args)) if args else ()
        ok = np.ones(shape, dtype=bool)
        if self._constraints is not None:
            for result in self._constraints(*args):
                ok &= np.asarray(result, dtype=bool)
        return ok

    def capacity(self) -> int:
        """How many different parameter sets the template can show (before constraints).

        An algebraic template shows symbols, not numbers: it has one problem per choice of the
        names its givens may be written with and of its unknown (:mod:`physgen.algebraic`). Otherwise
        the product of the counts of distinct shown values per input: whole numbers
        in an integer range, numbers with the declared significant figures in a
        continuous one. Draw far fewer instances than this to avoid repeats.
        """
        if self.question_type == "algebraic":  # no numbers shown: one problem per names and unknown
            return 1 if self.variation is None else self.variation.capacity
        total = 1
        for spec in self.spec.inputs.values():
            total *= distinct_values(spec.bounds(), spec.sig_figs, spec.integer)
        return total

    def sample(self, n: int, seed: int = 0, start: int = 0, *, displayed: bool = True) -> InstanceBatch:
        """Instances ``start … start+n-1`` under ``seed`` (random numbers: :mod:`physgen.sampling`).

        Each instance redraws (from its own stream) until it meets the template's
        constraints, every answer is finite and every validity check passes. ``displayed=False``
        is for draws no one reads (the inputs a ``code`` answer is run on): only the
        plausibility checks apply, not those about shown, rounded values (``validity.screen``).
        """
        if n < 0 or start < 0:
            raise ArgumentError(f"sample(n, start=...) needs n ≥ 0 and start ≥ 0, got n={n}, start={start}")
        return self._sample(seed, np.arange(start, start + n, dtype=np.uint64), displayed)

    def sample_at(self, indices: Sequence[int] | npt.NDArray[np.integer[Any]], seed: int = 0, *,
                  displayed: bool = True) -> InstanceBatch:
        """Instances numbered ``indices`` (any numbers, any order, repeats allowed) under ``seed``,
        drawn in one vectorised pass: row ``j`` is instance ``indices[j]`` exactly as
        :meth:`sample` makes it.

        >>> import physgen
        >>> t = physgen.load_catalog()["mechanics.projectile_range"]
        >>> t.sample_at([7, 2]).row(0) == t.sample(1, start=7).row(0)
        True
        """
        index = np.asarray(indices)
        if index.ndim != 1 or (index.size and (index.dtype.kind not in "iu" or int(index.min()) < 0)):
            raise ArgumentError(f"sample_at(indices) needs a list of whole numbers ≥ 0, got {indices!r:.80}")
        return self._sample(seed, index.astype(np.uint64), displayed)

    def _sample(self, seed: int, index: npt.NDArray[np.uint64], displayed: bool) -> InstanceBatch:
        """Instances ``index``: each one's first candidate, in round order, that :meth:`accept` keeps.

        A candidate's fate depends on its own numbers only (every check is elementwise), so
        several rounds of a few pending instances are drawn and examined in one call (at least
        ``_ROWS`` rows): the same first accepted round, with fewer NumPy calls per instance.
        """
        n = index.shape[0]
        key = stream_key(seed, self.id)
        names = list(self.spec.inputs)
        shown: dict[str, FloatArray] = {}
        si: dict[str, FloatArray] = {}
        answers_si: dict[str, FloatArray] = {}
        pending = np.arange(n)
        round_no = examined = accepted = 0
        while pending.size and round_no < MAX_ROUNDS:
            rounds = min(MAX_ROUNDS - round_no, _rounds(pending.size, examined, accepted))
            if rounds == 1:
                cand = self.draw_candidates(key, index[pending], round_no)
            else:  # instance-major: rounds round_no … round_no+rounds-1 of each pending instance
                order = np.arange(round_no, round_no + rounds, dtype=np.uint64)
                cand = self.draw_candidates(key, np.repeat(index[pending], rounds),
                                            np.tile(order, pending.size))
            ok, cand_si, cand_answers = self.accept(cand, displayed=displayed)
            examined += ok.size
            accepted += int(np.count_nonzero(ok))
            grid = ok.reshape(pending.size, rounds)
            found = grid.any(axis=1)
            take = (np.flatnonzero(found) * rounds + grid.argmax(axis=1)[found])
            if round_no == 0 and found.all():  # the usual case: one call accepts every instance
                shown = {name: cand[name][take] for name in names}
                si = {name: cand_si[name][take] for name in names}
                answers_si = {name: cand_answers[name][take] for name in self.spec.answers}
                pending = pending[:0]
                break
            if round_no == 0:  # columns to fill over several calls
                shown = {name: np.empty(n) for name in names}
                si = {name: np.empty(n) for name in names}
                answers_si = {name: np.empty(n) for name in self.spec.answers}
            rows = pending[found]
            for name in names:
                shown[name][rows] = cand[name][take]
                si[name][rows] = cand_si[name][take]
            for name in answers_si:
                answers_si[name][rows] = cand_answers[name][take]
            pending = pending[~found]
            round_no += rounds
        if not n:
            shown = {name: np.empty(0) for name in names}
            si = {name: np.empty(0) for name in names}
            answers_si = {name: np.empty(0) for name in self.spec.answers}
        if pending.size:
            raise SamplingError(
                f"{self.id}: instance {int(index[pending[0]])} found no parameter set meeting "
                f"the constraints {self.spec.constraints} in {MAX_ROUNDS} draws; widen the input "
                "ranges or loosen the constraints (see `physgen validate`)"
            )
        answers = {name: self.answer_units[name].from_si(v) for name, v in answers_si.items()}
        return InstanceBatch(self, seed, index.astype(np.int64), shown, si, answers,
                             self.evaluate_intermediates(si, answers_si))

    def evaluate_intermediates(self, si: Mapping[str, FloatArray],
                               answers_si: Mapping[str, FloatArray]) -> dict[str, FloatArray]:
        """Intermediates in their declared units, from SI inputs and SI answers (empty without any).

        >>> import physgen
        >>> t = physgen.load_catalog()["electricity.rlc_series_circuit"]
        >>> si = {"R": 100.0, "L": 0.1, "C": 1e-5, "f": 50.0, "V_rms": 10.0}
        >>> {k: round(float(v), 1) for k, v in t.evaluate_intermediates(si, t.evaluate_si(si)).items()}
        {'X_L': 31.4, 'X_C': 318.3}
        """
        if self.intermediate_values is None:
            return {}
        args = [np.asarray(a, dtype=np.float64) for a in self.arguments(si, None)]
        args += [np.asarray(answers_si[n], dtype=np.float64) for n in self.spec.answers]
        shape = np.broadcast_shapes(*(a.shape for a in args))
        with np.errstate(all="ignore"):
            values = self.intermediate_values(*args)
        return {name: conv.from_si(shaped(np.asarray(v, dtype=np.float64), shape))
                for (name, conv), v in zip(self.intermediate_units.items(), values, strict=True)}

    def draw_candidates(self, key: np.uint64, index: npt.NDArray[np.uint64],
                        round_no: int | npt.NDArray[np.uint64]) -> dict[str, FloatArray]:
        """One candidate value per instance and input, rounded as it will be displayed
        (``round_no``: the redraw round, or one per instance)."""
        shown: dict[str, FloatArray] = {}
        n_inputs = len(self.spec.inputs)
        if not n_inputs:
            return shown
        rounds = np.asarray(round_no, dtype=np.uint64) * np.uint64(n_inputs)
        draws = np.arange(n_inputs, dtype=np.uint64)[:, None] + rounds  # draw of input j: round × inputs + j
        grid = (n_inputs, index.shape[0])
        every = uniforms(key, np.broadcast_to(index, grid).ravel(),
                         np.broadcast_to(draws, grid).ravel()).reshape(grid)
        for (name, spec), u in zip(self.spec.inputs.items(), every, strict=True):
            lo, hi = spec.bounds()
            if spec.integer:
                shown[name] = np.minimum(np.floor(lo + u * (hi - lo + 1)), hi)
            elif spec.log:
                shown[name] = round_sig(lo * (hi / lo) ** u, spec.sig_figs)
            else:
                shown[name] = round_sig(lo + u * (hi - lo), spec.sig_figs)
        return shown

    def examine(self, shown: dict[str, FloatArray], *, displayed: bool = True) -> tuple[
            npt.NDArray[np.bool_], dict[str, FloatArray], dict[str, FloatArray], dict[str, Mask]]:
        """Which candidates meet every constraint and give finite answers; their SI values and
        answers; and each validity check's pass mask (:func:`physgen.validity.screen`)."""
        si = {n: self.input_si[n].to_si(v) for n, v in shown.items()}
        with np.errstate(all="ignore"):
            ok = self.constraint_mask(si)
            answers = self.evaluate_si(si)
            for values in answers.values():
                ok &= np.isfinite(values)
            masks = screen(self, shown, si, answers, displayed=displayed)
        return ok, si, answers, masks

    def accept(self, shown: dict[str, FloatArray], *, displayed: bool = True) -> tuple[
            npt.NDArray[np.bool_], dict[str, FloatArray], dict[str, FloatArray]]:
        """Which candidates :meth:`examine` finds usable and every validity check passes; their SI
        values and answers."""
        ok, si, answers, masks = self.examine(shown, displayed=displayed)
        for passed in masks.values():
            ok &= passed
        return ok, si, answers

    def pint_arguments(self) -> list[Any]:
        """The inputs at the middle of their ranges, then the constants, as Pint quantities in SI:
        the arguments the load-time dimension checks evaluate expressions at."""
        Quantity = registry().Quantity
        args = []
        for name, inp in self.spec.inputs.items():
            lo, hi = inp.bounds()
            conv = self.input_si[name]
            args.append(Quantity(conv.to_si((lo + hi) / 2), conv.si_unit))
        args += [Quantity(const.si_value, const.si_unit) for const in self.constants.values()]
        return args

    def pint_answers(self, args: Sequence[Any]) -> list[Any] | None:
        """The answers for arguments given as Pint quantities, each a quantity (pure numbers
        made dimensionless), for the load-time dimension checks; None if the code fails on them."""
        Quantity = registry().Quantity
        with np.errstate(all="ignore"):
            try:
                values = self._evaluate(*args)
            except Exception:
                return None
        return [v if isinstance(v, Quantity) else Quantity(v, "dimensionless") for v in values]

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
        Quantity = registry().Quantity
        args: list[Any] = []
        for name in self.spec.inputs:
            args.append(self._checked(name, values[name], self.spec.inputs[name].unit))
        for name, const in self.constants.items():
            if name in values:
                args.append(self._checked(name, values[name], const.unit))
            else:
                args.append(Quantity(const.si_value, const.si_unit))
        try:
            results = self._evaluate(*args)
        except TypeError as exc:  # NumPy's select (a Piecewise answer) has no Pint implementation:
            from pint.errors import DimensionalityError  # (a TypeError too: a real bug, never retried)

            if isinstance(exc, DimensionalityError) or "select(" not in getattr(self._evaluate, "source", ""):
                raise
            si = [a.to_base_units().magnitude for a in args]  # Pint converts, the answers get SI units
            results = tuple(Quantity(v, self.answer_units[n].si_unit)
                            for n, v in zip(self.spec.answers, self._evaluate(*si), strict=True))
        out: dict[str, Any] = {}
        for (name, spec), value in zip(self.spec.answers.items(), results, strict=True):
            q = value if isinstance(value, Quantity) else Quantity(value, "dimensionless")
            out[name] = q.to(spec.unit or "dimensionless")
        return out

    def _checked(self, name: str, value: Any, unit: str) -> Any:
        Quantity = registry().Quantity
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
        if format_unit(unit) and str(q.units) == "dimensionless":  # "10 percent" has a unit
            raise InputError(
                f"{self.id}.solve(): {name} = {value!r} has no unit; give one, e.g. '{value} {unit}'"
            )
        return q.to_base_units()

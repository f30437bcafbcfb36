"""Pydantic models of a template file and of a Variant record.

The JSON Schemas in ``schemas/`` are generated from these models
(``physgen schema``), so editors can check template files as you type.
This module checks *structure*; expressions, units and dimensions are checked
by :mod:`physgen.compile`, which needs SymPy and Pint.

>>> spec = TemplateSpec.model_validate({
...     "id": "mechanics.demo", "version": 1, "domain": "mechanics",
...     "subdomain": ["kinematics"], "difficulty": 1, "question_type": "numerical",
...     "source": "own work, CC0",
...     "inputs": {"d": {"unit": "m", "range": [1, 10]}, "t": {"unit": "s", "nominal": 2}},
...     "answers": {"v": {"expr": "d/t", "unit": "m/s", "ask": "the average speed"}},
...     "text": ["A runner covers {{ d }} in {{ t }}. {{ asks }}",
...              "In {{ t }} a cart rolls {{ d }}. {{ asks }}",
...              "{{ asks }} The object moved {{ d }} over {{ t }}."],
...     "steps": ["v = d/t = {{ v }}"],
... })
>>> spec.inputs["t"].bounds()
(1.4, 2.6)
"""

from __future__ import annotations

import functools
import keyword
import math
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator

Domain = Literal[
    "mechanics",
    "electricity_and_magnetism",
    "thermodynamics",
    "waves_and_oscillations",
    "optics",
    "modern_physics",
    "quantum",
    "statistical_mechanics",
    "relativity",
]
DOMAINS: tuple[str, ...] = Domain.__args__  # type: ignore[attr-defined]
QuestionType = Literal["numerical", "algebraic"]

# Names a template may not use for its own quantities: SymPy functions and
# constants the expressions rely on, and the placeholders physgen provides.
RESERVED_NAMES = frozenset(
    {
        "pi", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
        "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sqrt", "cbrt", "exp", "log",
        "ln", "log10", "Abs", "abs", "Min", "Max", "floor", "ceiling", "sign", "Piecewise",
        "asks", "oo", "nan", "zoo",
    }
)

_DEFAULT_PERTURB = 0.3

# Caps on what a template file may hold: far above what the catalog uses (its largest in
# brackets), so that an untrusted file cannot make loading slow or large (docs/security.md).
#: Paraphrases in `text` [3].
MAX_TEXTS = 20
#: Characters in one text or step [592].
MAX_TEXT_LENGTH = 2_000
#: Entries in `steps` [8].
MAX_STEPS = 30
#: Quantities in `inputs`, `constants` or `intermediates` each [8].
MAX_QUANTITIES = 20
#: Entries in `answers` [4].
MAX_ANSWERS = 10
#: Entries in `mistakes`, `constraints` or `checks` each [10].
MAX_RULES = 30
#: Items in a short list: tags, alternative units, assumptions, phrases, rubric entries [5].
MAX_ITEMS = 10
#: Characters in a phrase, label, source or unit [172].
MAX_PHRASE = 500

Phrase = Annotated[str, Field(max_length=MAX_PHRASE)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Restatement(_Strict):
    """Algebraic templates: a given stated through another quantity. An instance that restates it
    gives ``name`` instead (a sentence, ``text``, says what it is) and asks the answers in terms of
    it: the key is the answer's expression with the given replaced by ``means``."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$", max_length=40)] = Field(
        description="the quantity given instead, as a name (T_orb, d, lam)")
    symbol: Phrase | None = Field(
        None, description="how texts write it (default: the name, typeset: lam -> λ, T_orb -> T_orb)")
    unit: Phrase = Field(description="its Pint unit, e.g. 's'")
    value: Annotated[str, Field(min_length=1, max_length=1000)] = Field(
        description="its value in terms of the inputs and constants, e.g. '2*pi*sqrt(r**3/(G*M))'")
    means: Annotated[str, Field(min_length=1, max_length=1000)] = Field(
        description="the restated input in terms of it, the other inputs and the constants, e.g. "
        "'4*pi**2*r**3/(G*T_orb**2)'; checked against `value` at load")
    text: Annotated[str, Field(min_length=3, max_length=MAX_PHRASE)] = Field(
        description="the sentence that states it, written like the template's texts: "
        "'One orbit takes the spacecraft {{ T_orb }}.'")


class InputSpec(_Strict):
    """One quantity the problem gives: how it is drawn and shown.

    Give either ``nominal`` (with relative ``perturb``, default 0.3: uniform on
    ``nominal·(1 ± perturb)``) or an explicit ``range: [low, high]``, in ``unit``.
    """

    unit: Phrase = Field(description="Pint unit it is drawn and shown in, e.g. 'm/s', 'deg'; '' for none")
    nominal: float | None = Field(None, description="centre; drawn uniformly in nominal·(1 ± perturb)")
    perturb: float | None = Field(None, gt=0, lt=1, description="relative half-width (default 0.3)")
    range: tuple[float, float] | None = Field(None, description="[low, high], inclusive, in `unit`")
    log: bool = Field(False, description="draw log-uniformly (for ranges spanning decades)")
    integer: bool = Field(False, description="draw whole numbers from `range` (e.g. a harmonic number)")
    sig_figs: int = Field(3, ge=1, le=10, description="sig. figures shown; answers use the shown value")
    label: Phrase | None = Field(None, description="what the quantity is, in words")
    symbol: Phrase | None = Field(
        None, description="how algebraic texts write it (default: the name, typeset: theta -> θ, v0 -> v₀)"
    )
    alt_units: list[Phrase] = Field(
        default_factory=list, max_length=MAX_ITEMS,
        description="other units it may be shown in (same dimension)",
    )
    symbols: list[Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$", max_length=40)]] = Field(
        default_factory=list, max_length=MAX_ITEMS,
        description="algebraic templates: other names it may be written as (typeset like a name: nu -> ν, "
        "m_p -> m_p); each instance writes it with one of its own and these, chosen from its own stream",
    )
    restated: list[Restatement] = Field(
        default_factory=list, max_length=MAX_ITEMS,
        description="algebraic templates: ways to state this given through another quantity (its value "
        "replaced by that quantity's; the answers asked in terms of it); each is one more problem per "
        "choice of names",
    )
    exact: bool = Field(
        False, description="exact by statement (a count, a given difference), so the conditioning "
        "check does not nudge it; integer inputs are exact anyway"
    )
    supplied: bool = Field(
        False, description="a value a student may supply from memory (speed of sound, specific heat "
        "of water, g), so the `omitted` probe never removes it"
    )

    @model_validator(mode="after")
    def _one_way_to_draw(self) -> InputSpec:
        if (self.nominal is None) == (self.range is None):
            raise ValueError(
                "give exactly one of `nominal` (with optional `perturb`) or `range: [low, high]`"
            )
        if self.perturb is not None and self.nominal is None:
            raise ValueError("`perturb` needs `nominal`; with `range` leave `perturb` out")
        if self.nominal is not None and (self.nominal == 0 or not math.isfinite(self.nominal)):
            raise ValueError("`nominal` must be a finite, non-zero number (perturbation is relative)")
        if self.range is not None:
            lo, hi = self.range
            if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
                raise ValueError(f"`range` must be [low, high] with low < high, got {list(self.range)}")
        lo, hi = self.bounds()
        if self.log and lo <= 0:
            raise ValueError("`log: true` needs a positive range")
        if self.integer:
            if self.range is None or not all(float(b).is_integer() for b in self.range):
                raise ValueError("`integer: true` needs `range: [low, high]` with whole-number ends")
            if self.log:
                raise ValueError("`integer` and `log` cannot be combined")
        return self

    def bounds(self) -> tuple[float, float]:
        """The interval values are drawn from, in ``unit``."""
        if self.range is not None:
            return (float(self.range[0]), float(self.range[1]))
        assert self.nominal is not None
        p = _DEFAULT_PERTURB if self.perturb is None else self.perturb
        a, b = self.nominal * (1 - p), self.nominal * (1 + p)
        return (min(a, b), max(a, b))


class ConstantSpec(_Strict):
    """A fixed quantity: a CODATA name Pint knows (``speed_of_light``) or a value (``9.81 m/s^2``)."""

    value: Phrase = Field(description="Pint expression: 'planck_constant', '9.81 m/s^2', '1000 kg/m^3'")
    unit: Phrase | None = Field(None, description="unit to show it in (default: as written, or SI)")
    sig_figs: int = Field(4, ge=1, le=12, description="significant figures when shown in text")
    symbol: Phrase | None = Field(None,
                                  description="how algebraic texts write it (default: the name, typeset)")
    common: bool = Field(
        False, description="a value every student knows (c, 0 °C for melting ice), so paraphrases "
        "need not state it; any other constant an answer needs is shown in every paraphrase"
    )

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, data: Any) -> Any:
        if isinstance(data, str | int | float):
            return {"value": str(data)}
        return data


#: A bound of an answer's `range`: a number in the answer's unit, an expression, or None (open).
Bound = float | Annotated[str, Field(min_length=1, max_length=1000)] | None


class AnswerSpec(_Strict):
    """One asked quantity: how to compute it, its unit, and the phrase that asks for it."""

    expr: str | None = Field(
        None,
        description="SymPy expression in the inputs, constants and other derived quantities (answers, "
        "intermediates; no cycles); omit only when the template names a `solver`",
    )
    uses: list[Name] = Field(
        default_factory=list, max_length=MAX_QUANTITIES,
        description="with a `solver`: the derived quantities the solver finds this answer from (edges of "
        "the solution graph, which an expression gives by naming them)")
    unit: Phrase = Field(description="Pint unit of the answer, e.g. 'W', 'ohm', 'deg'; '' for none")
    ask: str = Field(min_length=3, max_length=MAX_PHRASE,
                     description="noun phrase that asks for it: 'the range of the projectile'")
    sig_figs: int = Field(3, ge=1, le=10, description="significant figures of the shown answer")
    sign: Literal["positive", "negative", "any"] = Field(
        "positive", description="sign every instance's answer must have (checked at load time)"
    )
    symbol: Phrase | None = Field(
        None, description="algebraic templates: how a text writes it when it is given (the problem solved "
        "for an input instead); default: the name, typeset (dv with symbol Δv)")
    solve_for: list[Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$", max_length=40)]] = Field(
        default_factory=list, max_length=MAX_ITEMS,
        description="algebraic templates: inputs this answer's relation may be solved for instead (SymPy, "
        "at load; the root that gives the input back is kept): such an instance gives this answer and asks "
        "the input")
    definition: Phrase | None = Field(
        None, description="for a quantity with rival definitions (Q factor, cyclotron f or ω, ħ or ħ/2, a "
        "phase's sign): the phrase that defines it, which every paraphrase must contain")
    range: tuple[Bound, Bound] | None = Field(
        None, description="[low, high]: the physical range the answer lies in at each instance, each bound a "
        "number in `unit`, an expression in inputs and constants with the answer's dimension (a temperature "
        "between its reservoirs: [T_c, T_h]; an entropy: [0, 'k_B*log(g)']), or null (open). The key must "
        "lie in it on every draw (checked at load); no multiple-choice option outside it is offered")

    @field_validator("range")
    @classmethod
    def _range(cls, value: tuple[Bound, Bound] | None) -> tuple[Bound, Bound] | None:
        if value is None:
            return value
        lo, hi = value
        if lo is None and hi is None:
            raise ValueError("`range` needs at least one bound: [low, null] or [null, high]")
        if isinstance(lo, float | int) and isinstance(hi, float | int) and not lo < hi:
            raise ValueError(f"`range` {list(value)} must be [low, high] with low < high")
        return value


Name = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$", max_length=40)]
Text = Annotated[str, Field(max_length=MAX_TEXT_LENGTH)]


class IntermediateSpec(_Strict):
    """A quantity the worked solution finds on the way (step-level grading, ``docs/grading.md``):
    its expression, unit, and the index of the step that states it as ``{{ name }}``."""

    expr: str = Field(description="SymPy expression in the inputs, constants and other derived "
                      "quantities (answers, intermediates; no cycles), e.g. '2*pi*f*L'")
    unit: Phrase = Field(description="Pint unit it is shown and graded in, e.g. 'ohm'; '' for none")
    step: int = Field(ge=0, description="index of the `steps` entry that states it as {{ name }} (0 = first)")
    sig_figs: int = Field(3, ge=1, le=10, description="significant figures of the shown value")


class CheckSpec(_Strict):
    """A plausibility bound every instance meets: an inequality (``expr``), or a named physical
    limit (``limit``, from :mod:`physgen.limits`) applied to an expression (``of``).

    Both may use inputs, constants and answers. Instances that fail are redrawn.
    """

    name: str | None = Field(
        None, pattern=r"^[a-z][a-z0-9_]*$",
        description="what it guards, e.g. laminar (default: the limit's name); required with `expr`")
    expr: str | None = Field(None, description="SymPy inequality, e.g. '2*rho*Q/(pi*r*eta) < 2000'")
    limit: str | None = Field(None, description="a named limit, e.g. liquid_water, below_c, wire_stress")
    of: str | None = Field(None, description="with `limit`: the expression it bounds, e.g. 'T' or 'F/A'")

    @model_validator(mode="after")
    def _one_kind(self) -> CheckSpec:
        if (self.expr is None) == (self.limit is None):
            raise ValueError("give exactly one of `expr` (an inequality) or `limit` with `of`")
        if self.limit is not None and self.of is None:
            raise ValueError(f"`limit: {self.limit}` needs `of`: the expression it bounds, e.g. `of: T`")
        if self.expr is not None and (self.of is not None or self.name is None):
            raise ValueError("a check with `expr` needs a `name` and no `of`")
        return self

    @property
    def label(self) -> str:
        """The check's name: its own, or its limit's."""
        return self.name or str(self.limit)


class ImpliedSpec(_Strict):
    """A quantity the scene implies but does not ask for (the distance a rod travels along its rails,
    the voltage across a part, the power a source must give, the depth of a field region), bounded
    like a plausibility check: by a named limit of :mod:`physgen.limits`, by a ``range`` in its
    ``unit``, or both. Instances where it falls outside are redrawn."""

    expr: str = Field(description="SymPy expression in the inputs, constants and answers, e.g. 'v*t/2'")
    unit: Phrase = Field(description="Pint unit of the quantity (and of `range`), e.g. 'm'; '' for none")
    what: Phrase = Field(min_length=3, description="what it is in the scene, e.g. 'rail length the rod runs'")
    limit: str | None = Field(None, description="a named limit it obeys, e.g. household_power")
    range: tuple[float, float] | None = Field(
        None, description="[low, high] in `unit` that the scene allows, e.g. [0, 5] for a bench-top rail")

    @model_validator(mode="after")
    def _bounded(self) -> ImpliedSpec:
        if self.limit is None and self.range is None:
            raise ValueError("an implied quantity needs a bound: `limit` (a named limit), "
                             "`range: [low, high]` "
                             "in its unit, or both")
        if self.range is not None and not self.range[0] < self.range[1]:
            raise ValueError(f"`range` {list(self.range)} must be [low, high] with low < high")
        return self


class MistakeSpec(BaseModel):
    """A named wrong turn a student takes: ``name`` plus a wrong expression per answer it affects."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40,
                      description="what goes wrong, e.g. forgot_square")

    @model_validator(mode="after")
    def _few_answers(self) -> MistakeSpec:
        if len(self.model_extra or {}) > MAX_ANSWERS:
            raise ValueError(f"a mistake changes at most {MAX_ANSWERS} answers (a template has at most "
                             f"{MAX_ANSWERS}); give one wrong expression per answer it affects")
        return self

    def expressions(self) -> dict[str, str]:
        """Answer name -> wrong expression."""
        return {k: str(v) for k, v in (self.model_extra or {}).items()}


class DecisionSpec(_Strict):
    """A decision the student must make, of one of three kinds, each verified at load time
    (``physgen.decisions``): a ``branch`` the instances take both ways (a regime), a ``root``
    chosen among a polynomial's roots, or a quantity found by a numerical ``solve``."""

    what: Phrase = Field(min_length=3, description="the decision in words, e.g. 'whether the block "
                         "stops before the spring'")
    branch: str | None = Field(
        None, description="SymPy inequality over inputs, constants and derived quantities that selects "
        "the regime; true in 15–85 % of draws, and a derived expression holds Piecewise, Min or Max")
    root: Name | None = Field(None, description="a derived quantity that is one root of a polynomial")
    other: str | None = Field(None, description="with `root`: the rejected root, an expression")
    solve: Name | None = Field(None, description="an answer the template's `solver` finds numerically")

    @model_validator(mode="after")
    def _one_kind(self) -> DecisionSpec:
        kinds = [k for k in ("branch", "root", "solve") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("give exactly one of `branch` (a regime condition), `root` (with `other`, the "
                             "rejected root) or `solve` (an answer found by the solver); a decision "
                             "that is none of these is not counted: remove it")
        if (self.root is None) != (self.other is None):
            raise ValueError("`root` and `other` go together: the kept root's name and the rejected "
                             "root's expression")
        return self

    @property
    def kind(self) -> str:
        """``'branch'``, ``'root'`` or ``'solve'``."""
        return "branch" if self.branch is not None else "root" if self.root is not None else "solve"


class RubricSpec(_Strict):
    """What makes a problem hard (``docs/templates.md``): the laws it combines, each with the
    derived quantities it yields, and the decisions a student must make. With the solution
    graph (``physgen.graph``) these give the computed difficulty level."""

    laws: dict[Phrase, Annotated[list[Name], Field(min_length=1, max_length=MAX_QUANTITIES)]] = Field(
        min_length=1, max_length=MAX_ITEMS,
        description="law -> the derived quantities (answers, intermediates) it yields, e.g. "
        "{'conservation of energy': [v_bottom], 'momentum in the collision': [v_after]}")
    decisions: list[DecisionSpec] = Field(
        default_factory=list, max_length=MAX_ITEMS,
        description="verified decisions: {what, branch} | {what, root, other} | {what, solve}")


class TemplateSpec(_Strict):
    """A template file: one physics problem with symbolic placeholders."""

    id: str = Field(
        pattern=r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$",
        description="'<group>.<name>'; the file lives at templates/<group>/<name>.yaml",
    )
    version: int = Field(ge=1, description="bump when the problem's numbers or answers change")
    domain: Domain
    subdomain: list[Phrase] = Field(min_length=1, max_length=MAX_ITEMS,
                                    description="topic tags, e.g. [kinematics, projectile]")
    difficulty: int = Field(ge=1, le=5, description="1 easy … 5 hard: the level the solution graph, "
                            "laws and decisions give (physgen.graph.computed_level)")
    rubric: RubricSpec | None = Field(
        None, description="laws (each with the quantities it yields) and decisions behind `difficulty`")
    question_type: QuestionType
    source: str = Field(min_length=3, max_length=MAX_PHRASE,
                        description="origin and licence, e.g. 'own work, CC0'")
    inputs: dict[Name, InputSpec] = Field(min_length=1, max_length=MAX_QUANTITIES)
    constants: dict[Name, ConstantSpec] = Field(default_factory=dict, max_length=MAX_QUANTITIES)
    constraints: list[str] = Field(
        default_factory=list, max_length=MAX_RULES,
        description="SymPy inequalities every instance satisfies, e.g. 'm1 > m2'"
    )
    answers: dict[Name, AnswerSpec] = Field(min_length=1, max_length=MAX_ANSWERS,
                                            description="asked quantities, in asked order")
    checks: list[CheckSpec] = Field(
        default_factory=list, max_length=MAX_RULES,
        description="plausibility bounds on inputs and derived quantities that every instance meets, "
        "e.g. {limit: liquid_water, of: T} or {name: laminar, expr: '2*rho*Q/(pi*r*eta) < 2000'}",
    )
    assumptions: dict[Name, Annotated[list[Phrase], Field(max_length=MAX_ITEMS)]] = Field(
        default_factory=dict, max_length=MAX_ITEMS,
        description="what the answer assumes, each with the phrases that state it; every paraphrase "
        "contains one phrase of each, e.g. {frictionless: [frictionless, smooth, no friction]}",
    )
    solver: str | None = Field(
        None,
        pattern=r"^physgen\.solvers\.[a-z][a-z0-9_]*:[a-z][A-Za-z0-9_]*$",
        description="'physgen.solvers.module:function' computing answers when expressions do not "
        "suffice (a template file names only physgen's own solvers: it is data, not code)",
    )
    implied: dict[Name, ImpliedSpec] = Field(
        default_factory=dict, max_length=MAX_QUANTITIES,
        description="quantities the scene implies but does not ask for, each bounded like a check, e.g. "
        "{x_rail: {expr: 'v*t', unit: m, what: 'rail the rod runs along', range: [0, 5]}}",
    )
    mistakes: list[MistakeSpec] = Field(
        default_factory=list, max_length=MAX_RULES,
        description="named wrong expressions, e.g. {name: forgot_square, R: '(I*V - F*d/t)/I'}; "
        "used first as multiple-choice distractors",
    )
    text: list[Text] = Field(min_length=3, max_length=MAX_TEXTS,
                             description="≥ 3 paraphrased question texts (Jinja2)")
    steps: list[Text] = Field(min_length=1, max_length=MAX_STEPS,
                              description="solution steps (Jinja2), rendered with the instance")
    intermediates: dict[Name, IntermediateSpec] = Field(
        default_factory=dict, max_length=MAX_QUANTITIES,
        description="quantities the steps find on the way, in step order, each stated in its step as "
        "{{ name }}; physgen.grade(..., steps=True) looks for them in a reply's reasoning, e.g. "
        "{X_L: {expr: '2*pi*f*L', unit: ohm, step: 0}}",
    )

    @field_validator("intermediates")
    @classmethod
    def _intermediate_names_are_free(cls, value: dict[str, Any]) -> dict[str, Any]:
        return cls._names_are_free(value)

    @model_validator(mode="after")
    def _intermediate_names_unique(self) -> TemplateSpec:
        for name in self.intermediates:
            for section in ("inputs", "constants", "answers"):
                if name in getattr(self, section):
                    raise ValueError(f"name {name!r} is used in both `{section}` and `intermediates`")
        return self

    @field_validator("inputs", "constants", "answers")
    @classmethod
    def _names_are_free(cls, value: dict[str, Any]) -> dict[str, Any]:
        for name in value:
            if name in RESERVED_NAMES or keyword.iskeyword(name):
                raise ValueError(f"{name!r} is reserved (a function, constant or keyword); rename it")
        return value

    @model_validator(mode="after")
    def _names_unique_and_answers_computable(self) -> TemplateSpec:
        seen: dict[str, str] = {}
        for section in ("inputs", "constants", "answers"):
            for name in getattr(self, section):
                if name in seen:
                    raise ValueError(f"name {name!r} is used in both `{seen[name]}` and `{section}`")
                seen[name] = section
        if self.solver is None:
            missing = [n for n, a in self.answers.items() if a.expr is None]
            if missing:
                raise ValueError(
                    f"answers {missing} have no `expr`; give each an expression or name a `solver`"
                )
        return self

    def expected_path(self, root: Path) -> Path:
        """Where this template's file belongs below a catalog root."""
        group, name = self.id.split(".", 1)
        return root / group / f"{name}.yaml"


#: Where the record schema is narrower than the runtime type: the template schema's choices.
_NARROWED: dict[tuple[str, str], Any] = {
    ("Metadata", "domain"): Domain, ("Metadata", "question_type"): QuestionType,
}


def _record_type(tp: Any) -> Any:
    """The pydantic type of a field type: tuples become lists, record types become models."""
    from .variant import RECORD_TYPES, optional_of

    inner = optional_of(tp)
    if inner is not None:
        return Optional[_record_type(inner)]  # noqa: UP045 - built at run time from a type object
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple:
        return list[_record_type(args[0])]  # type: ignore[misc]
    if origin is dict:
        return dict[str, _record_type(args[1])]  # type: ignore[misc]
    if tp in RECORD_TYPES:
        return _record_model(tp)
    return tp


@functools.cache
def _record_model(cls: type) -> type[BaseModel]:
    """The strict pydantic model of a record type of :mod:`physgen.variant`, from its field list."""
    from .variant import members

    fields: dict[str, Any] = {}
    for m in members(cls):
        tp = _NARROWED.get((cls.__name__, m.name)) or _record_type(m.type)
        doc = m.doc or None
        if m.factory is not None:
            fields[m.name] = (tp, Field(default_factory=m.factory, description=doc))
        elif m.default is not ...:
            fields[m.name] = (tp, Field(m.default, description=doc))
        else:
            fields[m.name] = (tp, Field(description=doc))
    model: type[BaseModel] = create_model(f"{cls.__name__}Record", __base__=_Strict, __doc__=cls.__doc__,
                                          __module__=__name__, **fields)
    return model


def variant_record() -> type[BaseModel]:
    """The strict pydantic model of a Variant record (``Variant.to_dict()``), derived from the
    field list of :class:`physgen.Variant` on first use (so loading templates does not build it).
    ``physgen.schema.VariantRecord`` is the same model.

    >>> import physgen.schema
    >>> physgen.schema.VariantRecord is variant_record(), list(variant_record().model_fields)[:2]
    (True, ['variant_id', 'template_id'])
    """
    from .variant import Variant

    return _record_model(Variant)


def __getattr__(name: str) -> Any:
    if name == "VariantRecord":
        return variant_record()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schemas physgen publishes, by file name."""
    template = TemplateSpec.model_json_schema()
    template["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    template["title"] = "physgen template"
    variant = variant_record().model_json_schema()
    variant["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    variant["title"] = "physgen variant"
    return {"template.schema.json": template, "variant.schema.json": variant}

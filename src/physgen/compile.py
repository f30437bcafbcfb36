"""Compile a validated template spec into a :class:`~physgen.template.Template`, checking it.

Checks run once, at load time, and every problem is reported (file, field, fix):

* every unit is one Pint knows; alternative units have the input's dimension;
* every expression parses and uses only defined names;
* every answer has the dimension of its declared unit, and every constraint
  compares like with like: the compiled code is run once on Pint quantities;
* every text holds only placeholders (:func:`~physgen.render.compile_text`), each is
  defined, every text shows every input and asks (``{{ asks }}``), no text reveals an
  answer, paraphrases differ, and every text, step and omit cut renders;
* constraints are satisfiable and answers finite over a sample of draws;
* every named mistake changes its answer (compared at sample points, not by
  ``sympy.simplify``, which is slow and may fail to decide).

Answer expressions become one vectorised NumPy function per template
(``sympy.lambdify`` with common-subexpression elimination), kept so that the
template pickles (:mod:`physgen.functions`). Texts that need Pint or SymPy to
write (units, symbols, question sentences) are made here for every style, so
generation needs neither.

>>> from physgen.catalog import read_spec
>>> from pathlib import Path
>>> import physgen
>>> path = physgen.catalog.BUILTIN_ROOT / "mechanics" / "projectile_range.yaml"
>>> compile_template(read_spec(path), str(path)).answer_names
['R', 't_flight', 'h_max']
"""

from __future__ import annotations

import difflib
import re
from typing import Any

import jinja2
import numpy as np
import sympy as sp

from .algebraic import compile_variation
from .decisions import check_decisions
from .dependence import dependencies
from .errors import Problem, TemplateError, did_you_mean
from .expressions import ExpressionError, expand_in_order, parse_expression, regime_value, symbols_for
from .fairness import findings_by_check
from .functions import SolverFunction, numpy_function
from .graph import SolutionGraph, solution_graph
from .intermediates import check_finite, check_intermediates, compile_intermediates
from .limits import LIMITS
from .printed import compile_printed
from .ranges import check_keys, compile_ranges
from .render import (
    STYLES,
    Shown,
    Text,
    TextError,
    compile_text,
    format_expression,
    format_symbol,
    join_number_unit,
    unit_hint,
)
from .sampling import spread, stream_key, uniforms
from .schema import TemplateSpec
from .template import Constant, Deferred, Display, Template, UnitText
from .units import Quantity, check_unit_text, format_unit, parse_quantity, parse_unit, to_si
from .validity import MAX_REJECT_RATE

#: Draws used at load time to check constraints and answers.
CHECK_DRAWS = 1_000
#: Smallest share of draws that must meet the constraints (else generation is slow).
MIN_ACCEPTANCE = 0.01
#: Word-level similarity above which two paraphrases count as the same text.
MAX_PARAPHRASE_SIMILARITY = 0.85
#: Points in the input ranges at which a named mistake must differ from the right answer.
MISTAKE_POINTS = 16


class _Problems:
    """Collects problems for one file so the user sees all of them at once."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[Problem] = []

    def add(self, field: str, message: str, fix: str = "") -> None:
        self.items.append(Problem(self.source, field, message, fix))

    def raise_if_any(self) -> None:
        if self.items:
            raise TemplateError(problems=self.items)


def compile_template(spec: TemplateSpec, source: str = "<template>", *, check: bool = True) -> Template:
    """Compile and check ``spec``; raise :class:`TemplateError` listing every problem.

    ``check=False`` skips the sampling checks (used by tests of the checks themselves).
    """
    problems = _Problems(source)
    _check_unit_texts(spec, problems)
    problems.raise_if_any()
    raw: dict[str, Any] = {}  # each derived expression parsed once, the others' names as symbols
    graph, issues = solution_graph(spec, raw)
    for issue in issues:
        problems.add(*issue)
    input_si, answer_units, constants = _units(spec, problems)
    problems.raise_if_any()
    derived = _expand(spec, graph, raw, problems)
    expressions, constraint_exprs = _expressions(spec, derived, problems)
    mistakes = _mistakes(spec, derived, input_si, constants, problems)
    problems.raise_if_any()
    evaluate = _evaluator(spec, expressions, problems)
    constraints = _constraint_evaluator(spec, constraint_exprs)
    checks = _checks(spec, problems)
    intermediates = compile_intermediates(spec, graph.order, raw, problems)
    problems.raise_if_any()
    texts, steps, omit_texts = _texts(spec, problems)
    _check_statements(spec, expressions, problems)
    problems.raise_if_any()
    pairs = tuple((a, m) for a, items in mistakes.items() for m, _ in items)
    printed = compile_printed(spec, graph.order, raw)
    template = Template(
        spec=spec, source=source, input_si=input_si, answer_units=answer_units,
        constants=constants, texts=texts, steps=steps, _symbolic=Deferred((expressions, mistakes)),
        _evaluate=evaluate, _constraints=constraints,
        check_values=checks[0], check_bounds=checks[1],
        mistake_values=_mistake_evaluator(spec, mistakes), mistake_answers=pairs, omit_texts=omit_texts,
        intermediate_values=intermediates[0], intermediate_units=intermediates[1],
        printed_values=printed[0], printed_targets=printed[1], graph=graph,
    )
    pint_args = template.pint_arguments()
    _check_dimensions(template, pint_args, constraint_exprs, problems)
    _check_check_dimensions(template, pint_args, checks[2], problems)
    ranges = compile_ranges(template, pint_args, problems.add)
    object.__setattr__(template, "answer_ranges", ranges)
    check_intermediates(template, intermediates[2], problems, pint_args)
    problems.raise_if_any()
    object.__setattr__(template, "power_laws", _power_laws(template))
    object.__setattr__(template, "si_expressions", _si_expressions(spec, expressions, constants))
    object.__setattr__(template, "answer_symbols", _answer_symbols(template))
    object.__setattr__(template, "dependencies", dependencies(template))
    if check:
        _check_sampling(template, raw, problems)  # verifies the decisions the level counts
        problems.raise_if_any()
    _check_level(spec, graph, problems)
    problems.raise_if_any()
    template.display.update({style: _display(template, style) for style in STYLES})
    object.__setattr__(template, "variation", compile_variation(template, problems.add))
    _check_tautologies(template, problems)
    _check_cuts_unmentioned(template, problems)
    _check_noop_bank(template, problems)
    problems.raise_if_any()
    _choice_tables(template)
    if check:
        object.__setattr__(template, "findings", tuple(findings_by_check(template)))
    return template


def _answer_symbols(template: Template) -> dict[str, frozenset[str]]:
    """Each answer's free symbols, kept so that wording a question "in terms of" them unpickles no
    SymPy expression. The expressions are rebuilt from their leaves when they are expanded
    (:func:`physgen.expressions.rebuilt`), so a symbol that cancels (``g`` in
    ``waves.swell_shoaling_refraction_breaking``'s angle) is gone whether the template was compiled
    here or loaded from the cache."""
    return {n: frozenset(str(x) for x in e.free_symbols) for n, e in template.expressions.items()}


def _choice_tables(template: Template) -> None:
    """The multiple-choice candidates compiled to NumPy and ``mc_symbolic``'s option texts, made
    once here and cached with the template, so no process pays ``lambdify`` or SymPy printing."""
    from .distractors import compile_candidates
    from .formats.choice import option_texts

    object.__setattr__(template, "candidate_functions", Deferred(compile_candidates(template)))
    object.__setattr__(template, "option_texts", Deferred(option_texts(template)))


# -- units -------------------------------------------------------------------
def _check_unit_texts(spec: TemplateSpec, problems: _Problems) -> None:
    """Every text Pint will read is one it reads in bounded time (:func:`check_unit_text`)."""
    texts = [(f"inputs.{n}.unit", i.unit) for n, i in spec.inputs.items()]
    texts += [(f"inputs.{n}.alt_units[{k}]", u) for n, i in spec.inputs.items()
              for k, u in enumerate(i.alt_units)]
    texts += [(f"answers.{n}.unit", a.unit) for n, a in spec.answers.items()]
    texts += [(f"intermediates.{n}.unit", i.unit) for n, i in spec.intermediates.items()]
    texts += [(f"constants.{n}", c.value) for n, c in spec.constants.items()]
    texts += [(f"constants.{n}.unit", c.unit) for n, c in spec.constants.items() if c.unit is not None]
    for field, text in texts:
        try:
            check_unit_text(text)
        except ValueError as exc:
            problems.add(field, str(exc), "write a unit such as 'm/s^2' or 'W/(m^2*K^4)', with small powers")


def _units(spec: TemplateSpec, problems: _Problems) -> tuple[
        dict[str, Any], dict[str, Any], dict[str, Constant]]:
    input_si = {}
    for name, inp in spec.inputs.items():
        try:
            input_si[name] = to_si(inp.unit)
        except ValueError as exc:
            problems.add(f"inputs.{name}.unit", str(exc), "use a Pint unit such as 'm/s', 'kN', 'deg'")
            continue
        for k, alt in enumerate(inp.alt_units):
            try:
                ok = parse_unit(alt).dimensionality == parse_unit(inp.unit).dimensionality
            except ValueError as exc:
                problems.add(f"inputs.{name}.alt_units[{k}]", str(exc), "use a Pint unit")
                continue
            if not ok:
                problems.add(
                    f"inputs.{name}.alt_units[{k}]",
                    f"{alt!r} is not the same dimension as {inp.unit!r}",
                    f"list only units convertible to {inp.unit!r}",
                )
            elif to_si(alt).si_unit != input_si[name].si_unit:
                problems.add(
                    f"inputs.{name}.alt_units[{k}]",
                    f"Pint converts {alt!r} to {to_si(alt).si_unit} but {inp.unit!r} to "
                    f"{input_si[name].si_unit}: angles are dimensionless, so 1 rpm becomes "
                    "0.105 Hz, not 1/60 Hz",
                    "keep rotation rates (Hz, 1/s) and angular speeds (rad/s, rpm) apart",
                )
    answer_units = {}
    for name, ans in spec.answers.items():
        try:
            answer_units[name] = to_si(ans.unit)
        except ValueError as exc:
            problems.add(f"answers.{name}.unit", str(exc), "use a Pint unit such as 'W', 'ohm', 'deg'")
    constants = {}
    for name, const in spec.constants.items():
        field = f"constants.{name}"
        try:
            q = parse_quantity(const.value)
            base = q.to_base_units()
            unit = const.unit if const.unit is not None else _written_unit(const.value, q)
            shown = float(q.to(unit or "dimensionless").magnitude)
        except Exception as exc:  # Pint's parse and conversion errors
            problems.add(
                field, f"cannot use {const.value!r}: {exc}",
                "give a CODATA name Pint knows ('speed_of_light') or a value with unit ('9.81 m/s^2')",
            )
            continue
        constants[name] = Constant(
            si_value=float(base.magnitude), si_unit=str(base.units),
            shown_value=shown, unit=unit, sig_figs=const.sig_figs,
        )
    return input_si, answer_units, constants


def _written_unit(value: str, q: Any) -> str:
    """The unit a constant is shown in: as written (``9.81 m/s^2``), or SI for a bare name."""
    if re.match(r"^\s*[-+]?[\d.]", value):
        return str(q.units)
    return str(q.to_base_units().units)


# -- expressions ----------------------------------------------------------------
def _si_expressions(spec: TemplateSpec, expressions: dict[str, Any],
                    constants: dict[str, Constant]) -> dict[str, str]:
    """Each answer's expression in the inputs alone, constants replaced by their SI values."""
    names = symbols_for([*spec.inputs, *constants])
    values = {names[c]: sp.Float(v.si_value, 17) for c, v in constants.items()}
    return {n: str(expressions[n].xreplace(values)) for n in spec.answers if n in expressions}


def _expand(spec: TemplateSpec, graph: SolutionGraph, raw: dict[str, Any], problems: _Problems) -> dict[
        str, Any]:
    """Every derived quantity that has an expression, in the inputs and constants only (and the
    answers a solver finds), the quantities it names substituted in solution order (``raw``: the
    expressions :func:`~physgen.graph.solution_graph` parsed). A quantity whose expression does
    not parse is reported, and one that names it is skipped (its error would only name it)."""
    failed: set[str] = set()
    for name in graph.order:
        text = spec.answers[name].expr if name in spec.answers else spec.intermediates[name].expr
        if text is None:
            continue
        if graph.uses[name] & failed:
            failed.add(name)
        elif name not in raw:
            failed.add(name)
            section = "answers" if name in spec.answers else "intermediates"
            try:
                parse_expression(text, [*spec.inputs, *spec.constants,
                                        *(n for n in (*spec.answers, *spec.intermediates) if n != name)])
            except ExpressionError as exc:
                problems.add(f"{section}.{name}.expr", str(exc), exc.fix)
    return expand_in_order({n: e for n, e in raw.items() if n not in failed}, graph.order)


def _check_level(spec: TemplateSpec, graph: SolutionGraph, problems: _Problems) -> None:
    """The declared difficulty is the level the solution earns (:func:`physgen.graph.computed_level`)."""
    if spec.difficulty == graph.level:
        return
    measures = (f"{graph.derived} derived quantities, depth {graph.depth}, {graph.laws} law(s), "
                f"{len(graph.decisions)} decision(s)")
    fix = (f"set `difficulty: {graph.level}`" if spec.difficulty > graph.level else
           f"set `difficulty: {graph.level}`, the level it earns")
    if spec.difficulty > graph.level:
        fix += f", or deepen the solution ({graph.shortfall()})"
    problems.add("difficulty",
                 f"is {spec.difficulty} but the solution earns level {graph.level} ({measures})", fix)


def _expressions(spec: TemplateSpec, derived: dict[str, Any], problems: _Problems) -> tuple[
        dict[str, Any], list[Any]]:
    names = [*spec.inputs, *spec.constants]
    expressions = {name: derived[name] for name in spec.answers if name in derived}
    if spec.question_type == "algebraic" and spec.solver is not None:
        problems.add("solver", "an algebraic question needs answer expressions, not a solver",
                     "give each answer an `expr`, or make the question numerical")
    if spec.solver is not None and expressions:
        problems.add(
            "answers", "a template with a `solver` computes all answers there; "
            f"{sorted(expressions)} also have `expr`",
            "remove the `expr` fields, or remove `solver`",
        )
    constraint_exprs = []
    for k, text in enumerate(spec.constraints):
        try:
            rel = parse_expression(text, names)
        except ExpressionError as exc:
            problems.add(f"constraints[{k}]", str(exc), exc.fix)
            continue
        if not isinstance(rel, sp.core.relational.Relational) or isinstance(rel, sp.Eq | sp.Ne):
            problems.add(
                f"constraints[{k}]", f"{text!r} is not an inequality",
                "write a comparison such as 'm1 > m2' or 'I*V > F*d/t'",
            )
            continue
        constraint_exprs.append(rel)
    return expressions, constraint_exprs


def _mistakes(spec: TemplateSpec, derived: dict[str, Any], input_si: dict[str, Any],
              constants: dict[str, Constant], problems: _Problems) -> dict[str, list[tuple[str, Any]]]:
    names = [*spec.inputs, *spec.constants]
    out: dict[str, list[tuple[str, Any]]] = {}
    for k, mistake in enumerate(spec.mistakes):
        wrong = mistake.expressions()
        if not wrong:
            problems.add(f"mistakes[{k}]", f"mistake {mistake.name!r} changes no answer",
                         "add the wrong expression under the answer's name, e.g. R: '(I*V)/I'")
        for answer, text in wrong.items():
            field = f"mistakes[{k}].{answer}"
            if answer not in spec.answers:
                problems.add(field, f"{answer!r} is not an answer", f"use one of {list(spec.answers)}")
                continue
            if answer not in derived:
                if spec.answers[answer].expr is None:  # else its expression failed, and says so
                    problems.add(field, "mistakes need answers given as expressions, not by a solver",
                                 "remove the mistake or give the answer an `expr`")
                continue
            earlier = {n: e for n, e in derived.items() if n != answer}
            try:
                expr = parse_expression(text, names, substitutions=earlier)
            except ExpressionError as exc:
                problems.add(field, str(exc), exc.fix)
                continue
            out.setdefault(answer, []).append((mistake.name, expr))
    if not out or len(input_si) < len(spec.inputs) or len(constants) < len(spec.constants):
        return out  # unit problems are reported already
    right_answers = _same_as_right(spec, derived, out, input_si, constants)
    for k, mistake in enumerate(spec.mistakes):
        for answer in mistake.expressions():
            if (mistake.name, answer) in right_answers:
                problems.add(f"mistakes[{k}].{answer}", f"mistake {mistake.name!r} gives the right answer",
                             "a mistake must change the result")
    return {a: [(m, e) for m, e in items if (m, a) not in right_answers] for a, items in out.items()}


def _same_as_right(spec: TemplateSpec, expressions: dict[str, Any],
                   mistakes: dict[str, list[tuple[str, Any]]], input_si: dict[str, Any],
                   constants: dict[str, Constant]) -> set[tuple[str, str]]:
    """The (mistake, answer) pairs whose expression equals the right one at every sample point.

    Points are drawn across the input ranges (SI), so constraints are ignored: two
    expressions that agree everywhere there are the same function.
    """
    key = stream_key(0, f"mistakes:{spec.id}")
    index = np.arange(MISTAKE_POINTS, dtype=np.uint64)
    args: list[Any] = []
    for j, (name, inp) in enumerate(spec.inputs.items()):
        lo, hi = inp.bounds()
        args.append(input_si[name].to_si(lo + uniforms(key, index, j) * (hi - lo)))
    args.extend(c.si_value for c in constants.values())
    pairs = [(m, a, e) for a, items in mistakes.items() for m, e in items]
    exprs = [expressions[a] for _, a, _ in pairs] + [e for _, _, e in pairs]
    symbols = list(symbols_for([*spec.inputs, *spec.constants]).values())
    with np.errstate(all="ignore"):
        values = [np.broadcast_to(np.asarray(v, dtype=np.float64), index.shape)
                  for v in numpy_function(symbols, exprs)(*args)]
    same: set[tuple[str, str]] = set()
    for k, (name, answer, wrong) in enumerate(pairs):
        right, guess = values[k], values[len(pairs) + k]
        finite = np.isfinite(right) & np.isfinite(guess)
        if finite.any():
            if np.allclose(guess[finite], right[finite], rtol=1e-9, atol=0.0):
                same.add((name, answer))
        elif sp.simplify(wrong - expressions[answer]) == 0:  # no point to compare at
            same.add((name, answer))
    return same


def _power_laws(template: Template) -> frozenset[tuple[str, str]]:
    """The (answer, input) pairs where the answer is a pure power of the input: its elasticity
    d ln a / d ln x is the same at every sample point across the input ranges."""
    spec = template.spec
    si = spread(template, f"power-laws:{spec.id}", MISTAKE_POINTS)
    out = set()
    with np.errstate(all="ignore"):
        base = template.evaluate_si(si)
        for name in spec.inputs:
            up, down = dict(si), dict(si)
            up[name], down[name] = si[name] * 1.001, si[name] / 1.001
            hi_v, lo_v = template.evaluate_si(up), template.evaluate_si(down)
            for answer, a in base.items():
                ratio = hi_v[answer] / lo_v[answer]
                elasticity = np.log(np.abs(ratio)) / (2 * np.log(1.001))
                usable = np.isfinite(elasticity) & (a != 0) & (ratio > 0)
                if usable.sum() >= 4 and np.ptp(elasticity[usable]) < 1e-4 \
                        and abs(float(elasticity[usable][0])) > 1e-9:
                    out.add((answer, name))
    return frozenset(out)


def _evaluator(spec: TemplateSpec, expressions: dict[str, Any], problems: _Problems) -> Any:
    if spec.solver is not None:
        try:
            return SolverFunction(spec.solver, [*spec.inputs, *spec.constants], list(spec.answers))
        except (ImportError, AttributeError) as exc:
            problems.add("solver", f"cannot import {spec.solver!r}: {exc}",
                         "name an importable 'package.module:function'")
            return None
    args = list(symbols_for([*spec.inputs, *spec.constants]).values())
    return numpy_function(args, [expressions[n] for n in spec.answers], cse=True)


def _constraint_evaluator(spec: TemplateSpec, constraint_exprs: list[Any]) -> Any:
    if not constraint_exprs:
        return None
    args = list(symbols_for([*spec.inputs, *spec.constants]).values())
    return numpy_function(args, constraint_exprs)


def _mistake_evaluator(spec: TemplateSpec, mistakes: dict[str, list[tuple[str, Any]]]) -> Any:
    exprs = [e for items in mistakes.values() for _, e in items]
    if not exprs:
        return None
    args = list(symbols_for([*spec.inputs, *spec.constants]).values())
    return numpy_function(args, exprs)


def _checks(spec: TemplateSpec, problems: _Problems) -> tuple[
        Any, tuple[tuple[str, float | None, float | None], ...], list[tuple[str, Any, str | None]]]:
    """The checks' evaluator (over inputs, constants and answers), their bounds in SI, and
    (field, expression, limit unit) per check for the dimension check."""
    names = [*spec.inputs, *spec.constants, *spec.answers]
    exprs: list[Any] = []
    bounds: list[tuple[str, float | None, float | None]] = []
    parsed: list[tuple[str, Any, str | None]] = []
    for k, check in enumerate(spec.checks):
        field = f"checks[{k}]"
        if check.limit is not None:
            limit = LIMITS.get(check.limit)
            if limit is None:
                close = did_you_mean(check.limit, LIMITS)
                problems.add(f"{field}.limit", f"there is no named limit {check.limit!r}",
                             f"use one of {close or sorted(LIMITS)}, or write the bound as `expr`")
                continue
            try:
                expr = parse_expression(str(check.of), names)
            except ExpressionError as exc:
                problems.add(f"{field}.of", str(exc), exc.fix)
                continue
            lo, hi = limit.interval_si()
            exprs.append(expr)
            bounds.append((check.label, lo, hi))
            parsed.append((f"{field}.of", expr, limit.unit))
            continue
        try:
            rel = parse_expression(str(check.expr), names)
        except ExpressionError as exc:
            problems.add(f"{field}.expr", str(exc), exc.fix)
            continue
        if not isinstance(rel, sp.core.relational.Relational) or isinstance(rel, sp.Eq | sp.Ne):
            problems.add(f"{field}.expr", f"{check.expr!r} is not an inequality",
                         "write a comparison such as 'v < 0.1*c' or 'rho < 3000'")
            continue
        exprs.append(rel)
        bounds.append((check.label, None, None))
        parsed.append((f"{field}.expr", rel.lhs - rel.rhs, None))
    for name, item in spec.implied.items():
        _implied(name, item, names, exprs, bounds, parsed, problems)
    if not exprs:
        return None, (), parsed
    args = list(symbols_for(names).values())
    return numpy_function(args, exprs), tuple(bounds), parsed


def _implied(name: str, item: Any, names: list[str], exprs: list[Any],
             bounds: list[tuple[str, float | None, float | None]],
             parsed: list[tuple[str, Any, str | None]], problems: _Problems) -> None:
    """An implied quantity as one or two plausibility checks labelled ``implied_<name>``: its
    ``range`` (in its unit) and its named ``limit``, each in SI (the dimension is checked with
    the checks'; a limit of another kind than the quantity's unit is a problem here)."""
    field = f"implied.{name}"
    try:
        expr = parse_expression(item.expr, names)
    except ExpressionError as exc:
        problems.add(f"{field}.expr", str(exc), exc.fix)
        return
    try:
        conv = to_si(item.unit)
    except ValueError as exc:
        problems.add(f"{field}.unit", str(exc), "use a Pint unit such as 'm', 'V', 'W'")
        return
    label = f"implied_{name}"
    parsed.append((f"{field}.expr", expr, item.unit))
    if item.range is not None:
        lo, hi = (float(conv.to_si(x)) for x in item.range)
        exprs.append(expr)
        bounds.append((label, min(lo, hi), max(lo, hi)))
    if item.limit is not None:
        limit = LIMITS.get(item.limit)
        if limit is None:
            close = did_you_mean(item.limit, LIMITS)
            problems.add(f"{field}.limit", f"there is no named limit {item.limit!r}",
                         f"use one of {close or sorted(LIMITS)}, or give `range: [low, high]` "
                         f"in {item.unit!r}")
            return
        if to_si(limit.unit).si_unit != conv.si_unit:
            problems.add(f"{field}.limit",
                         f"the limit {item.limit!r} bounds a quantity in {limit.unit or '1'}, "
                         f"but {name} is in {item.unit or '1'}",
                         "use a limit of the quantity's kind, or give `range: [low, high]` in its unit")
            return
        exprs.append(expr)
        bounds.append((label, *limit.interval_si()))


# -- dimensions (Pint, once) ----------------------------------------------------
def _check_dimensions(template: Template, args: list[Any], constraint_exprs: list[Any],
                      problems: _Problems) -> None:
    """Each answer has its unit's dimension and each constraint compares like with like, at
    ``args`` (:meth:`Template.pint_arguments`)."""
    spec = template.spec
    arg_symbols = list(symbols_for([*spec.inputs, *spec.constants]).values())
    try:
        with np.errstate(all="ignore"):  # values may be NaN at the midpoint; only units matter here
            results: tuple[Any, ...] | None = template._evaluate(*args)
    except Exception:
        results = None  # locate the failing answer below, one expression at a time
    for k, (name, ans) in enumerate(spec.answers.items()):
        field = f"answers.{name}.{'expr' if spec.solver is None else 'unit'}"
        try:
            if results is not None:
                value = results[k]
            elif spec.solver is None:
                with np.errstate(all="ignore"):  # a regime not taken may be NaN at the midpoint
                    value = regime_value(arg_symbols, template.expressions[name], args)
            else:
                raise ValueError("the solver failed when called with Pint quantities")
        except Exception as exc:
            problems.add(field, f"dimensions do not work out: {exc}",
                         "check the expression term by term; angles must be dimensionless inside "
                         "sin/cos, and only like quantities can be added")
            continue
        got = value.dimensionality if isinstance(value, Quantity) else Quantity(1).dimensionality
        want = parse_unit(ans.unit).dimensionality
        if got != want:
            problems.add(
                field,
                f"the expression has dimension {got or 'dimensionless'} but unit {ans.unit!r} "
                f"is {want or 'dimensionless'}",
                "fix the expression or declare the unit it really has",
            )
    for k, rel in enumerate(constraint_exprs):
        try:
            sp.lambdify(arg_symbols, rel.lhs - rel.rhs, modules="numpy")(*args)
        except Exception as exc:
            problems.add(f"constraints[{k}]", f"compares unlike quantities: {exc}",
                         "both sides of a constraint need the same dimension")


def _check_check_dimensions(template: Template, args: list[Any], parsed: list[tuple[str, Any, str | None]],
                            problems: _Problems) -> None:
    """Each named limit bounds a quantity of its own dimension; each inequality compares like
    with like (answers enter as Pint quantities in their units), at ``args``."""
    if not parsed:
        return
    spec = template.spec
    answers = template.pint_answers(args)
    if answers is None:
        return  # the answers' own dimension problems are reported already
    symbols = list(symbols_for([*spec.inputs, *spec.constants, *spec.answers]).values())
    for field, expr, unit in parsed:
        try:
            with np.errstate(all="ignore"):
                value = sp.lambdify(symbols, expr, modules="numpy")(*args, *answers)
        except Exception as exc:
            problems.add(field, f"compares or combines unlike quantities: {exc}",
                         "both sides of a check need the same dimension")
            continue
        if unit is None:
            continue
        got = value.dimensionality if isinstance(value, Quantity) else Quantity(1).dimensionality
        want = parse_unit(unit).dimensionality
        if got != want:
            problems.add(field, f"has dimension {got or 'dimensionless'}, but the limit is in {unit or '1'}",
                         f"bound an expression with the dimension of {unit or 'a pure number'}")


# -- texts -----------------------------------------------------------------------
def _texts(spec: TemplateSpec, problems: _Problems) -> tuple[
        tuple[Text, ...], tuple[Text, ...], tuple[dict[str, Text], ...]]:
    shown = set(spec.inputs) | set(spec.constants)
    texts: list[Text] = []
    omit_texts: list[dict[str, Text]] = []
    for k, marked in enumerate(spec.text):
        field = f"text[{k}]"
        src, spans = _spans(marked, field, problems)
        text = _compile(src, field, problems)
        if text is None:
            continue
        texts.append(text)
        omit_texts.append(_omit_texts(spec, marked, spans, field, problems))
        leaked = sorted(text.names & set(spec.answers))
        if leaked:
            problems.add(field, f"the question text shows the answer(s) {leaked}",
                         "answers may appear in `steps`, never in `text`")
        undefined = sorted(text.names - shown - {"asks"} - set(spec.answers))
        if undefined:
            problems.add(field, f"undefined placeholder(s) {undefined}",
                         f"use only {sorted(shown | {'asks'})}")
        unshown = [n for n in spec.inputs if n not in text.names]
        if unshown:
            problems.add(field, f"the text never shows input(s) {unshown}, so it cannot be solved",
                         "add a {{ name }} placeholder for each input")
        if "asks" not in text.names:
            problems.add(field, "the text does not ask anything", "end it with {{ asks }}")
        elif not _ASKS_OK.search(src) or _ASKS_MISPLACED.search(src):
            problems.add(field, "{{ asks }} must stand alone as a sentence: it is a whole question "
                         "starting with a capital and carrying units, so no filters and no text "
                         "before it in the same sentence",
                         "write '... end of sentence. {{ asks }}' or start the text with {{ asks }}")
    _check_paraphrases(spec.text, problems)
    steps: list[Text] = []
    for k, src in enumerate(spec.steps):
        step = _compile(src, f"steps[{k}]", problems)
        if step is None:
            continue
        steps.append(step)
        undefined = sorted(step.names - shown - set(spec.answers) - set(spec.intermediates))
        if undefined:
            problems.add(f"steps[{k}]", f"undefined placeholder(s) {undefined}",
                         f"use only {sorted(shown | set(spec.answers) | set(spec.intermediates))}")
    _check_spans_everywhere(spec, omit_texts, problems)
    _check_renders(spec, texts, steps, omit_texts, problems)
    return tuple(texts), tuple(steps), tuple(omit_texts)


def _check_renders(spec: TemplateSpec, texts: list[Text], steps: list[Text],
                   omit_texts: list[dict[str, Text]], problems: _Problems) -> None:
    """Render every text, step and omit cut once, with a stand-in for every quantity."""
    names = [*spec.inputs, *spec.constants, *spec.answers, *spec.intermediates]
    context: dict[str, Any] = {n: Shown("1.00 m", "1.00", "m") for n in names}
    context["asks"] = "Find the answer."
    fields = [*((f"text[{k}]", t) for k, t in enumerate(texts)),
              *((f"steps[{k}]", t) for k, t in enumerate(steps)),
              *((f"text[{k}]", t) for k, cuts in enumerate(omit_texts) for t in cuts.values())]
    for field, text in fields:
        if not text.names <= context.keys():
            continue  # undefined placeholders are reported already
        try:
            text.render(context)
        except Exception as exc:  # Jinja's UndefinedError, SecurityError, TypeError ...
            problems.add(field, f"cannot be rendered: {type(exc).__name__}: {exc}",
                         "use only the placeholders the template defines")


_SPAN = re.compile(r"\[\[(.*?)\]\]", re.S)
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)")


def _spans(marked: str, field: str, problems: _Problems) -> tuple[str, list[re.Match[str]]]:
    """The text with its omit markers ``[[ … ]]`` removed, and the marked spans."""
    spans = list(_SPAN.finditer(marked))
    rest = _SPAN.sub("", marked)
    if "[[" in rest or "]]" in rest or any("[[" in m.group(1) for m in spans):
        problems.add(field, "has an unbalanced or nested omit marker '[[' or ']]'",
                     "mark each input's mention as [[ … {{ x }} … ]], one pair per span, not nested")
    return _SPAN.sub(lambda m: m.group(1), marked), spans


def _omit_texts(spec: TemplateSpec, marked: str, spans: list[re.Match[str]], field: str,
                problems: _Problems) -> dict[str, Text]:
    """Input name -> the text without that input's marked spans (what ``omitted`` shows)."""
    by_input: dict[str, list[re.Match[str]]] = {}
    for m in spans:
        inside = [n for n in _PLACEHOLDER.findall(m.group(1)) if n in spec.inputs]
        if len(set(inside)) != 1:
            problems.add(field, f"the omit span [[{m.group(1)}]] holds {len(set(inside))} inputs",
                         "mark exactly one input's mention per span, so omitting it removes nothing else")
            continue
        by_input.setdefault(inside[0], []).append(m)
    out: dict[str, Text] = {}
    for name, found in by_input.items():
        kept = marked
        for m in reversed(found):
            kept = kept[:m.start()] + kept[m.end():]
        kept = _tidy(_SPAN.sub(lambda m: m.group(1), kept))
        if name in {n for n in _PLACEHOLDER.findall(kept)}:
            problems.add(field, f"{{{{ {name} }}}} also appears outside its omit span",
                         f"put every mention of {name} inside [[ … ]]")
            continue
        text = _compile(kept, field, problems)
        if text is not None:
            out[name] = text
    return out


def _tidy(text: str) -> str:
    """Spaces and punctuation left where a span was cut out."""
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\s+([,.;:?!])", r"\1", text)
    text = re.sub(r"([,;:])(?=[,.;:?!])", "", text)
    return re.sub(r"^\s+|(?<=[.?!] )\s+", "", text)


def _check_spans_everywhere(spec: TemplateSpec, omit_texts: list[dict[str, Text]],
                            problems: _Problems) -> None:
    """Spans are all or nothing: once a template marks any, every input a student cannot supply
    is marked in every paraphrase (else ``omitted`` cannot probe it)."""
    if not any(omit_texts):
        return
    needed = [n for n, i in spec.inputs.items() if not i.supplied]
    for k, found in enumerate(omit_texts):
        missing = [n for n in needed if n not in found]
        if missing:
            problems.add(f"text[{k}]", f"marks no omit span for input(s) {missing}",
                         "wrap each mention as [[ … {{ x }} … ]], or set `supplied: true` on an input "
                         "a student may supply from memory")


def _check_statements(spec: TemplateSpec, expressions: dict[str, Any], problems: _Problems) -> None:
    """Every paraphrase states every assumption, and every constant a student needs."""
    for k, src in enumerate(spec.text):
        lowered = src.lower()
        for name, phrases in spec.assumptions.items():
            if not any(p.lower() in lowered for p in phrases):
                problems.add(f"text[{k}]", f"does not state the assumption {name!r} (none of {phrases})",
                             f"say it in this paraphrase, or add its wording to `assumptions.{name}`")
    used = {str(s) for e in expressions.values() for s in e.free_symbols}
    if spec.solver is not None:
        used = set(spec.constants)
    needed = [n for n, c in spec.constants.items() if n in used and not c.common]
    units = [c.unit or c.value for n, c in spec.constants.items() if n in used]
    units += [i.unit for n, i in spec.inputs.items() if spec.solver is not None or n in used]
    if any(_in_electronvolts(a.unit) for a in spec.answers.values()) and any(
            u and not _in_electronvolts(u) and _has_mass(u) for u in units):
        charges = [n for n, c in spec.constants.items() if "elementary_charge" in c.value]
        if not charges:
            problems.add("constants", "an answer is asked in electronvolts, but e is not given",
                         "add `e: elementary_charge` to `constants` and show {{ e }} in every paraphrase")
        needed += [n for n in charges if n not in needed and not spec.constants[n].common]
    for k, src in enumerate(spec.text):
        names = set(_PLACEHOLDER.findall(src))
        missing = [n for n in needed if n not in names]
        if missing:
            problems.add(f"text[{k}]", f"does not give the constant(s) {missing} the answer needs",
                         "show each as {{ name }}, or mark it `common: true` if every student knows it")


def _has_mass(unit: str) -> bool:
    """Whether a quantity in ``unit`` carries mass (joules, kilograms, J·s): converting what it
    gives to electronvolts then needs e. Speeds, lengths and pure numbers do not."""
    try:
        return "[mass]" in parse_unit(unit).dimensionality
    except ValueError:
        return True


def _in_electronvolts(unit: str) -> bool:
    return re.search(r"(?<![A-Za-z])[kMGm]?eV\b|electron_?volt", unit) is not None


_ASKS_OK = re.compile(r"(^|[.?!:]\s+)\{\{\s*asks\s*\}\}")
_ASKS_MISPLACED = re.compile(r"[^.?!:\s]\s*\{\{\s*asks|\{\{\s*asks\s*[|.\[]")


def _compile(src: str, field: str, problems: _Problems) -> Text | None:
    try:
        return compile_text(src)
    except jinja2.TemplateSyntaxError as exc:
        problems.add(field, f"Jinja2 syntax error on line {exc.lineno}: {exc.message}",
                     "placeholders look like {{ name }}")
    except TextError as exc:
        problems.add(field, str(exc), exc.fix)
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"\{\{.*?\}\}|\w+", text.lower())


def _check_paraphrases(texts: list[str], problems: _Problems) -> None:
    words = [_words(t) for t in texts]
    for i in range(len(texts)):
        for j in range(i):
            ratio = difflib.SequenceMatcher(None, words[j], words[i], autojunk=False).ratio()
            if ratio > MAX_PARAPHRASE_SIMILARITY:
                problems.add(
                    f"text[{i}]",
                    f"is {ratio:.0%} the same as text[{j}] word for word; paraphrases must differ",
                    "rewrite it with a different sentence structure, not just swapped words",
                )


def _sign_ok(values: Any, sign: str) -> Any:
    if sign == "positive":
        return values > 0
    if sign == "negative":
        return values < 0
    return np.ones_like(values, dtype=bool)


# -- sampling checks -----------------------------------------------------------------
def _check_sampling(template: Template, raw: dict[str, Any], problems: _Problems) -> None:
    """Constraints satisfiable, answers finite and of their sign, the validity checks' reject
    rate bounded, intermediates finite and decisions real (``raw``: the parsed derived
    expressions), on ``CHECK_DRAWS`` fresh draws."""
    key = stream_key(0, f"validate:{template.id}")
    index = np.arange(CHECK_DRAWS, dtype=np.uint64)
    shown = template.draw_candidates(key, index, 0)
    usable, si, answers, masks = template.examine(shown)
    with np.errstate(all="ignore"):
        meets = template.constraint_mask(si)
    rate = float(meets.mean())
    if rate < MIN_ACCEPTANCE:
        problems.add(
            "constraints",
            f"only {int(meets.sum())} of {CHECK_DRAWS} draws meet the constraints "
            f"({template.spec.constraints})",
            f"widen or move the input ranges so that at least {MIN_ACCEPTANCE:.0%} of draws qualify",
        )
        return
    _check_reject_rate(usable, masks, problems)
    valid = np.logical_and.reduce([usable, *masks.values()])
    check_finite(template, shown, si, answers, valid, meets, problems)
    check_decisions(template, raw, si, answers, valid & meets, problems.add)
    check_keys(template, si, answers, valid & meets, problems.add)
    for name, values in answers.items():
        bad = meets & ~np.isfinite(values)
        wrong_sign = meets & np.isfinite(values) & ~_sign_ok(values, template.spec.answers[name].sign)
        if wrong_sign.any():
            row = int(np.flatnonzero(wrong_sign)[0])
            example = {n: float(v[row]) for n, v in shown.items()}
            problems.add(
                f"answers.{name}.sign",
                f"should be {template.spec.answers[name].sign} but is not for "
                f"{int(wrong_sign.sum())} of {int(meets.sum())} valid draws, e.g. {example}",
                "fix the expression, add a constraint, or declare `sign: any`",
            )
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            example = {n: float(v[row]) for n, v in shown.items()}
            problems.add(
                f"answers.{name}",
                f"is not finite for {int(bad.sum())} of {int(meets.sum())} valid draws, e.g. {example}",
                "add a constraint that excludes these inputs, or narrow the input ranges",
            )


def _check_reject_rate(usable: Any, all_masks: dict[str, Any], problems: _Problems) -> None:
    """The validity checks may not reject most of the draws that meet the constraints (with
    finite answers): ``usable`` and the checks' masks from :meth:`Template.examine`."""
    if not usable.any():
        return
    masks = {k: m[usable] for k, m in all_masks.items()}
    passed = np.logical_and.reduce(list(masks.values())) if masks else np.ones(int(usable.sum()), bool)
    rate = 1.0 - float(passed.mean())
    if rate > MAX_REJECT_RATE:
        worst = max(masks, key=lambda k: int((~masks[k]).sum()))
        share = float((~masks[worst]).mean())
        implied = worst.removeprefix("check:implied_")
        problems.add(
            f"implied.{implied}" if implied != worst else _REJECT_FIELDS.get(worst, "checks"),
            f"the validity checks reject {rate:.0%} of the draws that meet the constraints; "
            f"'{worst}' alone rejects {share:.0%}",
            _REJECT_FIXES.get(worst, "narrow the input ranges (or add a constraint) so that the check "
                              f"'{worst.removeprefix('check:')}' holds for most draws"),
        )


_REJECT_FIELDS = {"conditioning": "inputs", "distinct_from_inputs": "inputs",
                  "distinct_from_mistakes": "mistakes", "printed_steps": "steps"}
_REJECT_FIXES = {
    "conditioning": "keep the inputs away from where the answer cancels or its phase runs over many "
                    "cycles (a constraint), or mark inputs that are exact by statement `exact: true`",
    "distinct_from_inputs": "add a constraint keeping the answer away from the inputs of its kind",
    "distinct_from_mistakes": "add a constraint where the named mistake and the key differ, or drop a "
                              "mistake that is right for most inputs",
    "printed_steps": "print the values the steps use with more figures (`sig_figs` of the answer or "
                     "intermediate), or add a constraint away from where they cancel (a small total of "
                     "large printed parts)",
}


def _check_noop_bank(template: Template, problems: _Problems) -> None:
    """The ``noop`` probe needs sentences whose quantity competes with none of the template's."""
    from .formats.noop_bank import BANK, MIN_USABLE, usable

    if len(usable(template)) < MIN_USABLE:
        problems.add("domain", f"only {len(usable(template))} of the {len(BANK.get(template.domain, ()))} "
                     f"noop sentences of domain {template.domain!r} state a quantity of a kind this "
                     "template does not use", f"add sentences to physgen.formats.noop_bank.BANK"
                     f"[{template.domain!r}] (at least {MIN_USABLE} must be usable)")


def _check_tautologies(template: Template, problems: _Problems) -> None:
    """An algebraic text shows each given as its symbol, so "ħ = {{ hbar }}" prints "ħ = ħ":
    a given "defined" as itself. Every paraphrase is rendered as the prompt shows it and searched."""
    display = template.display.get("unicode")
    if display is None or display.symbols is None:
        return
    shown = {n: display.symbols[n] for n in [*template.spec.inputs, *template.spec.constants]}
    context: dict[str, Any] = {**shown, "asks": ""}
    for k, text in enumerate(template.texts):
        if not text.names <= context.keys():
            continue
        rendered = text.render(context)
        for name, symbol in shown.items():
            word = re.escape(symbol)
            if re.search(rf"(?<!\w){word}\s*=\s*{word}(?!\w)", rendered):
                label = template.spec.inputs[name].label if name in template.spec.inputs else None
                problems.add(f"text[{k}]", f"prints the tautology '{symbol} = {symbol}': an algebraic "
                             f"template shows {{{{ {name} }}}} as its symbol, not a value",
                             f"name the quantity and its symbol once, e.g. "
                             f"'the {label or 'quantity'} {{{{ {name} }}}}', "
                             f"not '{symbol} = {{{{ {name} }}}}'")


def _check_cuts_unmentioned(template: Template, problems: _Problems) -> None:
    """An algebraic text names its givens by symbol, so a cut that removes a given's span must
    leave no other mention of that symbol (a literal formula "½ m ω² x²" still gives m): each cut
    is rendered as the ``omitted`` prompt shows it (with the question, which no longer lists the
    symbol) and searched."""
    from .algebraic import WORDS, mentions
    from .formats.prompting import asks
    from .labels import PART_LABEL

    display = template.display.get("unicode")
    if display is None or display.symbols is None or not template.omit_texts:
        return
    shown = {n: display.symbols[n] for n in [*template.spec.inputs, *template.spec.constants]}
    for k, cuts in enumerate(template.omit_texts):
        for name, cut in cuts.items():
            if not cut.names <= {*shown, "asks"}:
                continue
            rendered = cut.render({**shown, "asks": asks(template, k, "unicode", without=name)})
            rendered = PART_LABEL.sub("", rendered)  # "(b) the pressure" labels a part
            if shown[name] not in WORDS and mentions(rendered, shown[name]):  # "A" is also a word
                at = re.search(rf"(?<!\w){re.escape(shown[name])}(?!\w)", rendered)
                where = rendered[max(0, at.start() - 30): at.end() + 30] if at else rendered[:60]
                problems.add(f"text[{k}]", f"cutting the span of {name!r} still writes its symbol "
                             f"{shown[name]!r} ({where!r}), so the given is not removed",
                             f"put that mention inside a [[ … {{{{ {name} }}}} … ]] span too, or reword "
                             "the text without the literal symbol (a formula in words)")


# -- display texts (Pint and SymPy, once per style) -------------------------------------
def _unit_text(unit: str, style: Any) -> UnitText:
    head, tail = join_number_unit("\x00", unit, style).split("\x00")
    return UnitText(format_unit(unit, style), head, tail, unit_hint(unit, style))


def _display(template: Template, style: Any) -> Display:
    from .formats.prompting import asks  # the question sentence, as every format words it

    spec = template.spec
    units = [*(i.unit for i in spec.inputs.values()), *(a.unit for a in spec.answers.values()),
             *(c.unit for c in template.constants.values()), *(i.unit for i in spec.intermediates.values())]
    symbols = None
    if template.question_type == "algebraic":
        names: dict[str, str | None] = {n: i.symbol for n, i in spec.inputs.items()}
        names.update({n: c.symbol for n, c in spec.constants.items()})
        symbols = {n: format_symbol(n, style, sym) for n, sym in names.items()}
        symbols.update({n: format_expression(e, names, style) for n, e in template.expressions.items()})
    return Display({u: _unit_text(u, style) for u in units},
                   tuple(asks(template, p, style) for p in range(len(template.texts))), symbols)

"""The solution graph: what each derived quantity is found from, and the level it earns.

A template's *derived quantities* are its answers and intermediates. An expression may
name any other derived quantity (``v_after: {expr: "m1*v_bottom/(m1 + m2)"}``), so the
chain of the solution is written out and checked: no cycles, every intermediate used by
another derived quantity, every step stating at least one quantity first found there,
and every law of the rubric yielding a quantity of its own. Only names written in an
expression are edges: an inlined formula earns no depth.

The difficulty level is computed, not declared (:func:`computed_level`), from the number
of derived quantities, the depth of the longest chain (a quantity found from inputs
only has depth 1), the laws and the verified decisions (:mod:`physgen.decisions`). A
quantity that only rescales one other (``x = 2*r``, ``E_n = -E_ion``, ``ω = 2*pi*f``) or
selects among such (``t_hit = Min(t_wall, t_floor)``, a ``Piecewise`` of found quantities)
is no step: it is not counted and adds no depth (a selection is as deep as its deepest
arm or condition), and a law that yields only such quantities is no law. Edges are read
from the parsed expression, so a name that cancels earns nothing:

=====  =======  =====  ====  =========
level  derived  depth  laws  decisions
=====  =======  =====  ====  =========
5      ≥ 8      ≥ 5    ≥ 3   ≥ 1
4      ≥ 5      ≥ 3    ≥ 2   ≥ 1
3      ≥ 3      ≥ 2    ≥ 2   —
2      ≥ 2      —      —     —
1      1        —      —     —
=====  =======  =====  ====  =========

>>> from physgen.catalog import read_spec
>>> import physgen
>>> g = solution_graph(physgen.load_catalog()["optics.two_lens_system"].spec)[0]
>>> g.derived, g.depth, g.level == physgen.load_catalog()["optics.two_lens_system"].difficulty
(6, 5, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .schema import TemplateSpec

#: Each level's least (derived quantities, depth, laws, decisions), highest level first.
LEVELS: tuple[tuple[int, int, int, int, int], ...] = (
    (5, 8, 5, 3, 1), (4, 5, 3, 2, 1), (3, 3, 2, 2, 0), (2, 2, 1, 0, 0))

_NAME = re.compile(r"[A-Za-z_]\w*")
_PLACEHOLDER = r"\{{\{{\s*{}\b"

#: (field, message, fix): a problem in the template file, as :class:`physgen.errors.Problem` takes it.
Issue = tuple[str, str, str]


def computed_level(derived: int, depth: int, laws: int, decisions: int) -> int:
    """The difficulty level a solution of this size earns (table in the module docstring).

    >>> computed_level(8, 5, 3, 1), computed_level(8, 4, 3, 1), computed_level(5, 3, 2, 1)
    (5, 4, 4)
    >>> computed_level(5, 3, 2, 0), computed_level(3, 2, 2, 0), computed_level(2, 1, 1, 0)
    (3, 3, 2)
    """
    for level, *least in LEVELS:
        if all(have >= need for have, need in zip((derived, depth, laws, decisions), least, strict=True)):
            return level
    return 1


@dataclass(frozen=True)
class SolutionGraph:
    """A template's solution graph and the measures its difficulty level is read from."""

    uses: Mapping[str, frozenset[str]]  # derived quantity -> the derived quantities it is found from
    order: tuple[str, ...]  # derived quantities, each after those it uses (declaration order otherwise)
    depths: Mapping[str, int]  # derived quantity -> length of the longest chain ending in it
    laws: int
    decisions: tuple[str, ...]  # the kind of each declared decision: branch, root or solve
    trivial: frozenset[str] = frozenset()  # quantities that only rescale another: no step

    @property
    def derived(self) -> int:
        """How many derived quantities (answers and intermediates) the solution finds, not counting
        those that only rescale one quantity (``x = 2*r``: no step)."""
        return len(self.order) - len(self.trivial)

    def found_from(self, name: str) -> frozenset[str]:
        """The derived quantities ``name`` is found from, directly or through others.

        >>> g = SolutionGraph({"a": frozenset(), "b": frozenset({"a"}), "c": frozenset({"b"})},
        ...                   ("a", "b", "c"), {}, 0, ())
        >>> sorted(g.found_from("c")), sorted(g.found_from("a"))
        (['a', 'b'], [])
        """
        seen: set[str] = set()
        todo = [name]
        while todo:
            for used in self.uses.get(todo.pop(), frozenset()) - seen:
                seen.add(used)
                todo.append(used)
        return frozenset(seen - {name})

    @property
    def depth(self) -> int:
        """The longest chain of derived quantities, each found from the one before."""
        return max(self.depths.values(), default=0)

    @property
    def level(self) -> int:
        """The difficulty level these measures earn (:func:`computed_level`)."""
        return computed_level(self.derived, self.depth, self.laws, len(self.decisions))

    def shortfall(self) -> str:
        """What the next level up needs that this solution lacks, in words ('' at level 5).

        >>> SolutionGraph({}, ("a", "b"), {"a": 1, "b": 2}, 1, ()).shortfall()
        'level 3 needs ≥ 3 derived quantities (has 2), ≥ 2 law(s) (has 1)'
        """
        for level, *least in reversed(LEVELS):
            if level <= self.level:
                continue
            have = (self.derived, self.depth, self.laws, len(self.decisions))
            words = ("derived quantities", "depth", "law(s)", "decision(s)")
            short = [f"≥ {n} {w} (has {h})" for h, n, w in zip(have, least, words, strict=True) if h < n]
            return f"level {level} needs " + ", ".join(short)
        return ""


def solution_graph(spec: TemplateSpec, parsed: dict[str, Any] | None = None) -> tuple[
        SolutionGraph, list[Issue]]:
    """The solution graph of ``spec`` and its problems: cycles, unused intermediates, steps that
    derive nothing or state a quantity before one it is found from, laws that name no derived
    quantity or none of their own, decisions that name what is not derived. With a cycle, the
    order lists the quantities it could place. ``parsed``, if given, receives each derived
    expression that parses, with the other derived names as plain symbols (compile reuses them:
    :func:`physgen.expressions.expand_in_order`)."""
    issues: list[Issue] = []
    derived = [*spec.answers, *spec.intermediates]
    known = set(derived)
    field = {n: f"answers.{n}" if n in spec.answers else f"intermediates.{n}" for n in derived}
    uses: dict[str, frozenset[str]] = {}
    trivial: set[str] = set()
    for name, answer in spec.answers.items():
        if answer.uses and answer.expr is not None:
            issues.append((f"answers.{name}.uses", "`uses` is for an answer the solver finds; an expression "
                           "names what it uses", "remove `uses`"))
        uses[name] = frozenset(set(answer.uses) & known - {name})
        for bad in sorted(set(answer.uses) - known):
            issues.append((f"answers.{name}.uses", f"{bad!r} is not a derived quantity",
                           f"name answers or intermediates: {sorted(known - {name})}"))
    texts = {n: a.expr for n, a in spec.answers.items() if a.expr is not None}
    texts.update({n: i.expr for n, i in spec.intermediates.items()})
    for name, text in texts.items():
        named, rescaled, expr = _edges(spec, name, text, known)
        uses[name] = named
        if parsed is not None and expr is not None:
            parsed[name] = expr
        if rescaled:
            trivial.add(name)
    order, cycle = _order(derived, uses)
    if cycle:
        issues.append((f"{field[cycle[0]]}.expr", "the solution goes round in a circle: "
                       + " ← ".join([*cycle, cycle[0]]),
                       "find one of these quantities from inputs and earlier results only"))
    depths: dict[str, int] = {}
    for name in order:  # a rescaled quantity (2*r, -E_ion, 2*pi*f) is no step: it adds no depth
        depths[name] = (name not in trivial) + max((depths[u] for u in uses[name]), default=0)
    used = set().union(*uses.values()) if uses else set()
    for name in spec.intermediates:
        if name not in used:
            issues.append((f"intermediates.{name}", "is found but no other answer or intermediate uses it, "
                           "so it is not on the way to any answer",
                           f"name {name} in the expression that uses it, or remove it (and its step)"))
    issues += _step_issues(spec, uses)
    issues += _law_issues(spec, known)
    # a law counts if it yields a step: one whose quantities only rescale or select is no law
    laws = sum(1 for names in (spec.rubric.laws.values() if spec.rubric else ())
               if set(names) & known - trivial)
    decisions = tuple(d.kind for d in spec.rubric.decisions) if spec.rubric else ()
    for k, d in enumerate(spec.rubric.decisions if spec.rubric else ()):
        if d.root is not None and d.root not in known:
            issues.append((f"rubric.decisions[{k}].root", f"{d.root!r} is not a derived quantity",
                           f"name the answer or intermediate that is the kept root: {derived}"))
        if d.solve is not None and d.solve in spec.answers and spec.answers[d.solve].expr is not None:
            issues.append((f"rubric.decisions[{k}].solve", f"{d.solve!r} has an `expr`, a closed form, so "
                           "nothing is solved numerically", f"remove the decision, or let the `solver` find "
                           f"{d.solve} (no `expr`)"))
        elif d.solve is not None and (d.solve not in spec.answers or spec.solver is None):
            issues.append((f"rubric.decisions[{k}].solve",
                           f"{d.solve!r} is not an answer found by the template's `solver`",
                           "a numerical solve is an answer a `solver` computes; name one, or remove "
                           "the decision"))
    return SolutionGraph(uses, order, depths, laws, decisions, frozenset(trivial)), issues


def _edges(spec: TemplateSpec, name: str, text: str, known: set[str]) -> tuple[frozenset[str], bool, Any]:
    """The derived quantities ``text`` (the expression of ``name``) really depends on, whether it
    is no step (:func:`_no_step`), and the parsed expression. Read from the parsed expression, so
    a name that cancels (``+ 0*m1``) is no edge; from the names written if the text does not parse
    (its error is reported where it is compiled; the expression is then None)."""
    from .expressions import ExpressionError, parse_expression

    names = [n for n in (*spec.inputs, *spec.constants, *known) if n != name]
    try:
        expr = parse_expression(text, names)
    except ExpressionError:
        return frozenset(set(_NAME.findall(text)) & known - {name}), False, None
    free = {str(x) for x in expr.free_symbols}
    return frozenset(free & known), _no_step(expr), expr


def _no_step(expr: Any) -> bool:
    """Whether ``expr`` finds nothing new: it rescales one name (``2*r``, ``-E_ion``, ``2*pi*f``)
    or is a number, or it selects (``Min``, ``Max``, ``Piecewise``) among arms that are each
    such a rescaling or another selection (``Min(t_wall, t_ground)``, ``Max(v, -v)``)."""
    import sympy as sp

    if expr.is_number:
        return True
    if isinstance(expr, sp.Min | sp.Max):
        return all(_no_step(arm) for arm in expr.args)
    if isinstance(expr, sp.Piecewise):
        return all(_no_step(pair.expr) for pair in expr.args)
    return bool(expr.as_coeff_Mul()[1].is_Symbol)


def _order(derived: list[str], uses: Mapping[str, frozenset[str]]) -> tuple[tuple[str, ...], list[str]]:
    """Derived quantities each after those it uses (declaration order where free), and a cycle
    (a list of names, each using the next) if there is one."""
    placed: list[str] = []
    done: set[str] = set()
    while len(placed) < len(derived):
        ready = next((n for n in derived if n not in done and uses[n] <= done), None)
        if ready is None:
            return tuple(placed), _cycle([n for n in derived if n not in done], uses)
        placed.append(ready)
        done.add(ready)
    return tuple(placed), []


def _cycle(left: list[str], uses: Mapping[str, frozenset[str]]) -> list[str]:
    """One cycle among ``left`` (each of which uses another of ``left``)."""
    path = [left[0]]
    while True:
        step = min(uses[path[-1]] & set(left))
        if step in path:
            return path[path.index(step):]
        path.append(step)


def _stated(spec: TemplateSpec) -> dict[str, int]:
    """The step that states each derived quantity: an intermediate's ``step`` where that step shows
    it, and the first step that shows an answer as ``{{ name }}`` (a quantity no step shows is left
    out: the intermediates' own check reports a ``step`` that does not exist or does not show it)."""
    stated = {}
    for name in (*spec.intermediates, *spec.answers):
        pattern = re.compile(_PLACEHOLDER.format(re.escape(name)))
        item = spec.intermediates.get(name)
        if item is not None:
            if 0 <= item.step < len(spec.steps) and pattern.search(spec.steps[item.step]):
                stated[name] = item.step
            continue
        first = next((k for k, text in enumerate(spec.steps) if pattern.search(text)), None)
        if first is not None:
            stated[name] = first
    return stated


def _step_issues(spec: TemplateSpec, uses: Mapping[str, frozenset[str]]) -> list[Issue]:
    """Each step must state a derived quantity first found there (an intermediate whose ``step``
    it is, or an answer shown there as ``{{ name }}`` for the first time), and no step may state a
    quantity before a quantity it is found from: the steps follow the graph."""
    stated = _stated(spec)
    deriving = set(stated.values())
    issues: list[Issue] = [
        (f"steps[{k}]", "derives nothing: it states no answer or intermediate found there, so it "
         "pads the solution", "fold it into the step that uses it, or declare the quantity it finds "
         "as an intermediate with `step: " + str(k) + "`")
        for k in range(len(spec.steps)) if k not in deriving]
    for name, k in stated.items():
        for used in sorted(uses.get(name, frozenset())):
            if stated.get(used, -1) > k:
                field = f"intermediates.{name}.step" if name in spec.intermediates else f"steps[{k}]"
                issues.append((field, f"{name} is stated in steps[{k}] but uses {used}, which "
                               f"steps[{stated[used]}] states later",
                               f"state {name} in steps[{stated[used]}] or after it, or {used} earlier"))
    return issues


def _law_issues(spec: TemplateSpec, known: set[str]) -> list[Issue]:
    """The rubric's laws' problems: each names derived quantities, at least one of its own."""
    issues: list[Issue] = []
    if spec.rubric is None:
        return issues
    laws = spec.rubric.laws
    for law, names in laws.items():
        field = f"rubric.laws[{law!r}]"
        unknown = [n for n in names if n not in known]
        if unknown:
            issues.append((field, f"names {unknown}, which are not derived quantities",
                           f"list the answers or intermediates the law yields: {sorted(known)}"))
        others = set().union(*(set(v) for k, v in laws.items() if k != law))
        if not set(names) - others - set(unknown):
            issues.append((field, "yields nothing another law does not already yield, so it adds no law",
                           "merge it into the law that yields the same quantities, or remove it"))
    return issues

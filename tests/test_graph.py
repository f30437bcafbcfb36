"""The solution graph (issue 19): difficulty is computed from the solution's structure, and each
rule of the graph fails on a minimal bad template with a message naming the file, field and fix."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.graph import LEVELS, computed_level, solution_graph
from physgen.schema import TemplateSpec

from .conftest import good, write_template
from .test_bad_templates import load_error

#: A chain eight quantities long with three laws and a regime both ways (m above or below m0).
DEEP: dict[str, Any] = {
    **good(),
    "id": "mechanics.demo_chain",
    "difficulty": 5,
    "inputs": {"d": {"unit": "m", "range": [1, 10]}, "t": {"unit": "s", "range": [1.6, 2.4]},
               "m": {"unit": "kg", "range": [1, 3]}},
    "constants": {"m0": {"value": "2 kg"}},
    "rubric": {"laws": {"kinematics": ["v", "a"], "momentum and energy": ["p", "K"],
                        "power and force": ["P", "F", "E"]},
               "decisions": [{"what": "whether the cart is heavier than m0", "branch": "m > m0"}]},
    "answers": {"x": {"expr": "Piecewise((a*t**2/2, m > m0), (a*t**2/4, True))", "unit": "m",
                      "ask": "the distance"},
                "E": {"expr": "F*x", "unit": "J", "ask": "the work done"}},
    "intermediates": {"v": {"expr": "d/t", "unit": "m/s", "step": 0},
                      "p": {"expr": "m*v", "unit": "kg*m/s", "step": 1},
                      "K": {"expr": "p**2/(2*m)", "unit": "J", "step": 2},
                      "P": {"expr": "K/t", "unit": "W", "step": 3},
                      "F": {"expr": "P/v", "unit": "N", "step": 4},
                      "a": {"expr": "F/m", "unit": "m/s^2", "step": 5}},
    "text": ["A cart of mass {{ m }} covers {{ d }} in {{ t }}; compare it with {{ m0 }}. {{ asks }}",
             "{{ asks }} A trolley ({{ m }}, reference mass {{ m0 }}) rolls {{ d }} during {{ t }}.",
             "Over {{ t }} a {{ m }} block slides {{ d }} on a track rated for {{ m0 }}. {{ asks }}"],
    "steps": ["v = d/t = {{ v }}", "p = m v = {{ p }}", "K = p²/2m = {{ K }}", "P = K/t = {{ P }}",
              "F = P/v = {{ F }}", "a = F/m = {{ a }}", "x = {{ x }}", "E = F x = {{ E }}"],
}


def deep() -> dict[str, Any]:
    return copy.deepcopy(DEEP)


def test_levels_table_is_monotone_and_levels_are_reachable() -> None:
    assert [row[0] for row in LEVELS] == [5, 4, 3, 2]
    for (_, *high), (_, *low) in itertools.pairwise(LEVELS):
        assert all(h >= lo for h, lo in zip(high, low, strict=True))
    assert [computed_level(*row[1:]) for row in LEVELS] == [5, 4, 3, 2]
    assert computed_level(7, 9, 9, 9) == 4 and computed_level(9, 4, 9, 9) == 4  # one short: a level down


def test_a_deep_template_earns_level_5(tmp_path: Path) -> None:
    write_template(tmp_path, deep())
    t = physgen.load_catalog(tmp_path)["mechanics.demo_chain"]
    assert t.graph is not None
    assert (t.graph.derived, t.graph.depth, t.graph.laws, t.graph.decisions) == (8, 8, 3, ("branch",))
    assert t.graph.level == t.difficulty == 5


def test_an_inlined_chain_earns_no_depth() -> None:
    data = deep()
    data["answers"]["x"]["expr"] = "Piecewise((F/m*t**2/2, m > m0), (F/m*t**2/4, True))"  # a = F/m inlined
    graph, issues = solution_graph(TemplateSpec.model_validate(data))
    assert (graph.depths["E"], graph.depth) == (7, 7) and "intermediates.a" in {i[0] for i in issues}


def test_a_label_above_the_computed_level_is_refused(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["decisions"] = []
    msg = load_error(tmp_path, data)
    assert "difficulty: is 5 but the solution earns level 3" in msg
    assert "fix: set `difficulty: 3`, or deepen the solution (level 4 needs ≥ 1 decision(s) (has 0))" in msg


def test_a_cycle_is_refused(tmp_path: Path) -> None:
    data = deep()
    data["intermediates"]["v"]["expr"] = "a*t"
    msg = load_error(tmp_path, data)
    assert "the solution goes round in a circle" in msg and "fix: find one of these quantities" in msg


def test_an_unused_intermediate_is_refused(tmp_path: Path) -> None:
    data = deep()
    data["intermediates"]["w"] = {"expr": "2*v", "unit": "m/s", "step": 0}
    msg = load_error(tmp_path, data)
    assert "intermediates.w: is found but no other answer or intermediate uses it" in msg
    assert "fix: name w in the expression that uses it, or remove it" in msg


def test_a_step_that_derives_nothing_is_refused(tmp_path: Path) -> None:
    data = deep()
    data["steps"].insert(1, "Momentum is mass times velocity.")
    for item in data["intermediates"].values():
        item["step"] += item["step"] >= 1
    msg = load_error(tmp_path, data)
    assert "steps[1]: derives nothing" in msg and "fix: fold it into the step that uses it" in msg


def test_a_law_must_yield_a_quantity_of_its_own(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["laws"]["Newton's second law"] = ["a"]
    msg = load_error(tmp_path, data)
    assert "rubric.laws[\"Newton's second law\"]: yields nothing another law does not already yield" in msg
    data = deep()
    data["rubric"]["laws"]["kinematics"] = ["v", "speed"]
    assert "names ['speed'], which are not derived quantities" in load_error(tmp_path, data)


def test_a_branch_must_be_taken_both_ways(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["decisions"][0]["branch"] = "m > 0.95*m0"  # 52 %: fine, and …
    write_template(tmp_path, data)
    assert physgen.load_catalog(tmp_path)["mechanics.demo_chain"].difficulty == 5
    data["rubric"]["decisions"][0]["branch"] = "m > 0.1*m0"  # … always true: no decision
    msg = load_error(tmp_path, data)
    assert "rubric.decisions[0].branch: holds in 100% of valid draws" in msg
    assert "fix: widen or move the input ranges so both regimes occur" in msg


def test_a_branch_needs_both_regimes_solved(tmp_path: Path) -> None:
    data = deep()
    data["answers"]["x"]["expr"] = "a*t**2/2"
    msg = load_error(tmp_path, data)
    assert "no Piecewise, Min or Max of an answer or intermediate switches both ways" in msg
    data["answers"]["x"]["expr"] = "Max(a*t**2/2, 0*d)"  # a switch that never switches is none
    assert "switches both ways in ≥ 15% of valid draws" in load_error(tmp_path, data)
    data = deep()
    data["rubric"]["decisions"][0]["branch"] = "m - m0"
    assert "'m - m0' is not an inequality" in load_error(tmp_path, data)


def test_a_root_needs_a_real_rival(tmp_path: Path) -> None:
    data = deep()  # v = d/t, and its rival: the other root of v² − (d/t + 0.3 m/s) v + 0.3 m/s·d/t = 0
    data["intermediates"]["v"]["expr"] = "(d/t + 0.3*u + sqrt((d/t - 0.3*u)**2))/2"
    data["constants"]["u"] = {"value": "1 m/s", "common": True}
    data["rubric"]["decisions"] = [{"what": "which root is the speed", "root": "v",
                                    "other": "(d/t + 0.3*u - sqrt((d/t - 0.3*u)**2))/2"}]
    write_template(tmp_path, data)
    assert physgen.load_catalog(tmp_path)["mechanics.demo_chain"].graph.decisions == ("root",)  # type: ignore[union-attr]
    for other, says in [("1.001*d/t", "the rejected root is finite and more than 2% from the kept one"),
                        ("-d/t", "the rejected root has the kept root's sign in only 0% of valid draws"),
                        ("0.5*d/t", "is not the kept root with one square root negated")]:
        data["rubric"]["decisions"][0]["other"] = other
        assert f"rubric.decisions[0].other: {says}" in load_error(tmp_path, data)


def test_a_root_whose_rival_breaks_an_answer_downstream_is_no_choice(tmp_path: Path) -> None:
    data = deep()  # the rival (0.3 m/s) has the kept root's sign, but makes F, a and the distance x negative
    data["intermediates"]["v"]["expr"] = "(d/t + 0.3*u + sqrt((d/t - 0.3*u)**2))/2"
    data["intermediates"]["F"]["expr"] = "P/(v - 0.35*u)"
    data["constants"]["u"] = {"value": "1 m/s", "common": True}
    data["rubric"]["decisions"] = [{"what": "which root is the speed", "root": "v",
                                    "other": "(d/t + 0.3*u - sqrt((d/t - 0.3*u)**2))/2"}]
    msg = load_error(tmp_path, data)
    assert ("rubric.decisions[0].other: carried through the solution in place of v, the rejected root leaves "
            "the answers finite, of their declared sign and within their named physical limits in only 0% of "
            "valid draws") in msg
    assert "fix: remove the decision (a root that gives a negative time or length" in msg


def test_a_solve_names_an_answer_of_the_solver(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["decisions"] = [{"what": "solved numerically", "solve": "x"}]
    msg = load_error(tmp_path, data)  # x has a closed form: nothing is solved
    assert "rubric.decisions[0].solve: 'x' has an `expr`, a closed form, so nothing is solved" in msg
    assert "fix: remove the decision, or let the `solver` find x (no `expr`)" in msg
    data["rubric"]["decisions"] = [{"what": "solved numerically", "solve": "v"}]
    msg = load_error(tmp_path, data)
    assert "rubric.decisions[0].solve: 'v' is not an answer found by the template's `solver`" in msg


def test_a_decision_is_one_of_three_kinds(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["decisions"] = [{"what": "which frame to use"}]
    msg = load_error(tmp_path, data)
    assert "give exactly one of `branch`" in msg


def test_every_catalog_label_is_the_computed_level(catalog: physgen.Catalog) -> None:
    wrong = {i: (t.difficulty, t.graph.level if t.graph else None) for i, t in catalog.items()
             if t.graph is None or t.graph.level != t.difficulty}
    assert not wrong
    for t in catalog.values():
        assert t.graph is not None and t.graph.level == solution_graph(t.spec)[0].level


def test_piecewise_regimes_are_checked_for_dimension_one_at_a_time() -> None:
    from physgen.expressions import parse_expression, regime_value, symbols_for
    from physgen.units import registry

    q, names = registry().Quantity, ["a", "b"]
    args, symbols = [q(1, "m"), q(2, "m")], list(symbols_for(names).values())
    constant = parse_expression("Piecewise((pi, a > b), (a/b, True))", names)
    assert regime_value(symbols, constant, args) == pytest.approx(3.14159, rel=1e-5)  # dimensionless
    with pytest.raises(ValueError, match="Piecewise regimes have different dimensions"):
        regime_value(symbols, parse_expression("Piecewise((a, a > b), (a/b, True))", names), args)


def test_a_rescaling_or_a_cancelled_name_earns_nothing() -> None:
    data = deep()
    data["intermediates"]["v2"] = {"expr": "2*v", "unit": "m/s", "step": 0}  # a relabel is no step …
    data["intermediates"]["p"]["expr"] = "m*v2/2 + 0*K0"
    data["intermediates"]["K0"] = {"expr": "1*v", "unit": "m/s", "step": 0}
    graph, _ = solution_graph(TemplateSpec.model_validate(data))
    assert graph.trivial == {"v2", "K0"} and graph.derived == 8 and graph.depths["p"] == 2
    assert graph.uses["p"] == {"v2"}  # … and 0*K0 cancels: no edge


def test_a_selection_is_no_step() -> None:
    data = deep()  # x picks one of two quantities already found: no quantity and no depth of its own
    data["intermediates"]["x1"] = {"expr": "a*t**2/2", "unit": "m", "step": 6}
    data["intermediates"]["x2"] = {"expr": "a*t**2/4", "unit": "m", "step": 6}
    data["answers"]["x"]["expr"] = "Piecewise((x1, m > m0), (x2, True))"
    graph, issues = solution_graph(TemplateSpec.model_validate(data))
    assert not issues and "x" in graph.trivial
    assert graph.derived == 9 and graph.depths["x"] == graph.depths["x1"] == 7
    for selection in ["Min(x1, x2)", "Max(2*x1, -x2)", "Max(x1, 0)", "Min(Max(x1, x2), 3*x2)"]:
        data["answers"]["x"]["expr"] = selection
        assert "x" in solution_graph(TemplateSpec.model_validate(data))[0].trivial, selection
    data["answers"]["x"]["expr"] = "Min(x1, x2 + d)"  # an arm that computes something is a step
    assert "x" not in solution_graph(TemplateSpec.model_validate(data))[0].trivial


def test_a_step_may_not_state_a_quantity_before_one_it_is_found_from(tmp_path: Path) -> None:
    data = deep()
    data["steps"][0], data["steps"][1] = data["steps"][1], data["steps"][0]
    data["intermediates"]["v"]["step"], data["intermediates"]["p"]["step"] = 1, 0
    msg = load_error(tmp_path, data)
    assert "intermediates.p.step: p is stated in steps[0] but uses v, which steps[1] states later" in msg
    assert "fix: state p in steps[1] or after it, or v earlier" in msg


def test_a_piecewise_is_checked_for_dimension_arm_by_arm(tmp_path: Path) -> None:
    data = deep()  # taking the k-th arm of both at once gives a length twice; the real regimes are m² and 1
    data["answers"]["x"]["expr"] = ("Piecewise((a*t**2/2, m > m0), (1, True))"
                                    "*Piecewise((1, m < m0), (d, True))")
    msg = load_error(tmp_path, data)
    assert ("answers.x.expr: dimensions do not work out: its Piecewise regimes have different dimensions "
            "(arm 1 is dimensionless, arm 2 is [length] in 'Piecewise((1, m < m0), (d, True))')") in msg
    assert "fix: check the expression term by term" in msg


def test_a_law_that_yields_only_rescalings_or_selections_is_no_law(tmp_path: Path) -> None:
    data = deep()  # the review's probe: a "relabelling" law over quantities that only restate others
    v2 = {"expr": "2*v", "unit": "m/s", "step": 0}
    data["intermediates"] = {"v": data["intermediates"].pop("v"), "v2": v2, **data["intermediates"]}
    data["intermediates"]["p"]["expr"] = "m*v2/2"
    data["steps"][0] = "v = d/t = {{ v }}, twice that: {{ v2 }}"
    data["rubric"]["laws"] = {"kinematics": ["v", "a"], "momentum and energy": ["p", "K", "P", "F", "E"],
                              "relabelling": ["v2"]}
    graph, issues = solution_graph(TemplateSpec.model_validate(data))
    assert not issues and (graph.laws, graph.level) == (2, 4)
    data["difficulty"] = 5
    msg = load_error(tmp_path, data)
    assert "difficulty: is 5 but the solution earns level 4 (8 derived quantities, depth 8, 2 law(s)" in msg
    assert "fix: set `difficulty: 4`, or deepen the solution (level 5 needs ≥ 3 law(s) (has 2))" in msg

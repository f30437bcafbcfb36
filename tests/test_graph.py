"""The solution graph (issue 19): difficulty is computed from the solution's structure, and each
rule of the graph fails on a minimal bad template with a message naming the file, field and fix."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

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
    assert "fix: set `difficulty: 3`, or deepen the solution (level 4 needs ≥ 1 decisions (has 0))" in msg


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
    assert "no answer or intermediate holds Piecewise, Min or Max" in msg


def test_a_root_needs_a_real_rival(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["decisions"] = [{"what": "the sign of v", "root": "v", "other": "-d/t"}]
    write_template(tmp_path, data)
    assert physgen.load_catalog(tmp_path)["mechanics.demo_chain"].graph.decisions == ("root",)  # type: ignore[union-attr]
    data["rubric"]["decisions"] = [{"what": "no choice", "root": "v", "other": "1.001*d/t"}]
    msg = load_error(tmp_path, data)
    assert "rubric.decisions[0].other: the rejected root is finite and more than 2% from the kept one" in msg


def test_a_solve_names_an_answer_of_the_solver(tmp_path: Path) -> None:
    data = deep()
    data["rubric"]["decisions"] = [{"what": "solved numerically", "solve": "x"}]
    msg = load_error(tmp_path, data)
    assert "rubric.decisions[0].solve: 'x' is not an answer found by the template's `solver`" in msg


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

"""Algebraic templates state a given another way (issue 17, item 6: "how the givens are stated"):
``inputs.*.restated`` replaces a given by a quantity it follows from, checked at load; such an
instance cuts the given's mention, states the new quantity in a sentence, and asks (and keys) the
answers in terms of it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.formats import get_format

from .test_algebraic_variation import loads, orbit
from .test_bad_templates import load_error

PERIOD = {"name": "T_orb", "unit": "h", "value": "2*pi*sqrt(r**3/(G*M))",
          "means": "4*pi**2*r**3/(G*T_orb**2)", "text": "One revolution takes {{ T_orb }}."}


def restating(**changes: Any) -> dict[str, Any]:
    """The small orbit template with the planet's mass marked in every text and stated through the
    orbit's period (``changes`` override the restatement's fields)."""
    data = orbit()
    data["text"] = ["A moon circles a planet[[ of mass {{ M }}]][[ at radius {{ r }}]], with the "
                    "gravitational constant {{ G }}. {{ asks }}",
                    "{{ asks }} A satellite is on a circular orbit[[ of radius {{ r }}]] around a world"
                    "[[ of mass {{ M }}]] (gravitational constant {{ G }}).",
                    "Take the gravitational constant {{ G }}. A probe moves in a circle"
                    "[[ of radius {{ r }}]] about a body[[ of mass {{ M }}]]. {{ asks }}"]
    data["inputs"]["M"]["restated"] = [{**PERIOD, **changes}]
    return data


def _restated(t: physgen.Template, **kw: Any) -> list[physgen.Variant]:
    return [v for v in physgen.generate([t], n=t.capacity(), seed=0, **kw) if "T_orb" in v.inputs]


def test_a_restated_problem_asks_in_terms_of_the_new_given(tmp_path: Path) -> None:
    t = loads(tmp_path, restating())
    assert t.capacity() == 3 * 2 * 2 + 2  # names × (own + solved for M), and r's 2 names restated
    vs = _restated(t, paraphrases=[0, 1, 2])
    assert len(vs) == 2 * 3 and {v.format for v in vs} == {"free_form"}
    for v in vs:
        assert "mass" not in v.prompt and "One revolution takes T_orb." in v.prompt, v.prompt
        assert "(in terms of T_orb and " in v.prompt
        assert v.steps[0].startswith("From the statement, M = ")
        assert v.answers["v"].expr in ("2*pi*r/T_orb", "2*pi*R/T_orb")
    first = vs[0]  # the sentence comes before a closing question, after an opening one
    assert first.prompt.index("One revolution") < first.prompt.index("Find")
    r = "R" if "R" in first.inputs else "r"
    assert physgen.grade(first, f"Final answer: v = 2*pi*{r}/T_orb").correct
    assert not physgen.grade(first, f"Final answer: v = sqrt(G*M/{r})").correct  # M is no given here
    assert not physgen.grade(first, f"Final answer: v = pi*{r}/T_orb").correct
    for v in vs:
        assert physgen.grade(v, get_format(v.format).reference(v)).correct


def test_the_problems_are_all_different(tmp_path: Path) -> None:
    t = loads(tmp_path, restating())
    for p in range(3):
        prompts = [v.prompt for v in physgen.generate([t], n=t.capacity(), seed=0, paraphrases=[p],
                                                      formats=["free_form"])]
        assert len(set(prompts)) == len(prompts) == t.capacity()


def test_the_shown_value_of_the_new_given_is_the_period(tmp_path: Path) -> None:
    t = loads(tmp_path, restating())
    (v, *_) = _restated(t, paraphrases=[0])
    own = next(w for w in physgen.generate([t], n=1, seed=0, paraphrases=[0]) if w.format == "free_form")
    assert v.answers["v"].value > 0 and v.inputs["T_orb"].unit == "h"
    g, r_si = 6.674e-11, next(q for n, q in v.inputs.items() if n in "rR").value * 1e3
    m = 4 * 3.14159265 ** 2 * r_si ** 3 / (g * (v.inputs["T_orb"].value * 3600) ** 2)
    assert (g * m / r_si) ** 0.5 / 1e3 == pytest.approx(v.answers["v"].value, rel=1e-4)
    assert "T_orb" not in own.inputs  # instance 0 asks the template's own problem


@pytest.mark.parametrize(("changes", "field", "says"), [
    ({"means": "4*pi**2*r**3/(G*T_orb)"}, "inputs.M.restated[0].means", "does not give M back"),
    ({"value": "2*pi*sqrt(r**3/G)"}, "inputs.M.restated[0].value", "has dimension"),
    ({"name": "r"}, "inputs.M.restated[0].name", "already a name"),
    ({"text": "The period is known."}, "inputs.M.restated[0].text", "it must state T_orb"),
    ({"text": "It takes {{ M }}, or {{ T_orb }}."}, "inputs.M.restated[0].text", "may use only"),
    ({"unit": "blorps"}, "inputs.M.restated[0].unit", "is not a unit"),
    ({"means": "__import__('os')"}, "inputs.M.restated[0].means", ""),
])
def test_a_bad_restatement_is_an_error_naming_the_field(tmp_path: Path, changes: dict[str, Any],
                                                        field: str, says: str) -> None:
    message = load_error(tmp_path, restating(**changes))
    assert field in message and says in message and "fix:" in message, message
    loads(tmp_path, restating())  # the fixed template loads


def test_an_unmarked_given_cannot_be_restated(tmp_path: Path) -> None:
    data = restating()  # a given a student may supply needs no omit span, but one restated does
    data["inputs"]["M"]["supplied"] = True
    data["text"][1] = data["text"][1].replace("[[ of mass {{ M }}]]", " of mass {{ M }}")
    message = load_error(tmp_path, data)
    assert "inputs.M.restated[0]" in message and "text[1] does not mark the mention of M" in message


def test_only_an_algebraic_template_restates(tmp_path: Path) -> None:
    data = copy.deepcopy(restating())
    data["question_type"] = "numerical"
    data["answers"]["v"].pop("solve_for")
    for spec in data["inputs"].values():
        spec.pop("symbols", None)
    message = load_error(tmp_path, data)
    assert "inputs.M.restated[0]" in message and "only algebraic templates" in message


def test_catalog_templates_that_restate(catalog: physgen.Catalog) -> None:
    restating_ids = [t.id for t in catalog.filter(question_type="algebraic").templates()
                     if t.variation is not None and t.variation.restated]
    assert len(restating_ids) >= 5, restating_ids
    for tid in restating_ids:
        t = catalog[tid]
        vs = [v for v in physgen.generate([t], n=t.capacity(), seed=2, formats=["free_form"])
              if v.steps and v.steps[0].startswith("From the statement")]
        assert vs, tid
        for v in vs:
            assert physgen.grade(v, get_format(v.format).reference(v)).correct, v.variant_id

"""Algebraic templates vary (issue 17, item 6): the names their givens are written with and which
quantity they ask (the relation solved for a given), declared in the template and checked at load;
replies are graded in the instance's own names."""

from __future__ import annotations

import dataclasses
import statistics
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.algebraic import mentions, problem
from physgen.formats import get_format

from .conftest import good, write_template
from .test_bad_templates import load_error

DRAWS = 200
MIN_PROBLEMS = 20


def orbit(**changes: Any) -> dict[str, Any]:
    """A small algebraic template: the speed of a circular orbit, its givens renamable."""
    data = good()
    data.update({
        "id": "mechanics.demo_orbit", "domain": "mechanics", "question_type": "algebraic",
        "inputs": {"M": {"unit": "kg", "range": [1.0e23, 1.0e25], "log": True, "label": "mass of the planet",
                         "symbols": ["m", "M_p"]},
                   "r": {"unit": "km", "range": [5000, 40000], "label": "orbit radius", "symbols": ["R"]}},
        "constants": {"G": {"value": "gravitational_constant", "unit": "m^3/(kg*s^2)"}},
        "answers": {"v": {"expr": "sqrt(G*M/r)", "unit": "km/s", "ask": "the orbital speed",
                          "solve_for": ["M"]}},
        "text": ["A moon circles a planet of mass {{ M }} at radius {{ r }}, with the gravitational "
                 "constant {{ G }}. {{ asks }}",
                 "{{ asks }} A satellite is on a circular orbit of radius {{ r }} around a world of mass "
                 "{{ M }} (gravitational constant {{ G }}).",
                 "Take the gravitational constant {{ G }}. A probe moves in a circle of radius {{ r }} about "
                 "a body of mass {{ M }}. {{ asks }}"],
        "steps": ["Gravity gives the centripetal acceleration: G M/r² = v²/r, so v = √(G M/r) = {{ v }}."],
        "assumptions": {},
    })
    data.update(changes)
    return data


def loads(tmp_path: Path, data: dict[str, Any]) -> physgen.Template:
    write_template(tmp_path, data)
    return physgen.load_catalog(tmp_path)[str(data["id"])]


# -- the catalog ---------------------------------------------------------------------------------
def test_every_algebraic_template_yields_at_least_20_distinct_problems(catalog: physgen.Catalog) -> None:
    counts = {}
    for t in catalog.filter(question_type="algebraic").templates():
        prompts = {v.prompt for v in physgen.generate([t], n=DRAWS, seed=0, paraphrases=[0])}
        counts[t.id] = len(prompts)
        assert counts[t.id] == min(DRAWS, t.capacity()), t.id  # every instance is another problem
    few = {k: n for k, n in counts.items() if n < MIN_PROBLEMS}
    assert not few, f"algebraic templates with fewer than {MIN_PROBLEMS} distinct problems: {few}"
    assert len(counts) == 37 and statistics.median(counts.values()) >= MIN_PROBLEMS


def test_every_algebraic_variant_grades_its_own_reference(catalog: physgen.Catalog) -> None:
    for t in catalog.filter(question_type="algebraic").templates():
        for v in physgen.generate([t], n=8, seed=1, formats=["free_form", "mc_symbolic"], paraphrases=[0]):
            assert physgen.grade(v, get_format(v.format).reference(v)).correct, v.variant_id


# -- renaming ------------------------------------------------------------------------------------
def _renamed(t: physgen.Template) -> list[physgen.Variant]:
    return [v for v in physgen.generate([t], n=t.capacity(), seed=0, formats=["free_form"], paraphrases=[0])
            if "v" in v.answers and "m" in v.inputs and "R" in v.inputs]


def test_a_reply_in_the_renamed_symbols_is_right_and_one_in_the_old_names_is_not(tmp_path: Path) -> None:
    t = loads(tmp_path, orbit())
    (v,) = _renamed(t)
    assert "mass m" in v.prompt and "radius R" in v.prompt and "in terms of m, R and G" in v.prompt
    assert v.answers["v"].expr == "sqrt(G*m/R)" and v.answers["v"].text == "√(G·m/R)"
    assert v.steps[0].startswith("Gravity gives the centripetal acceleration: G m/R² = v²/R")  # literal text
    assert physgen.grade(v, "Final answer: v = √(G m/R)").correct
    assert physgen.grade(v, "Final answer: sqrt(G*m/R)").correct
    old = physgen.grade(v, "Final answer: v = √(G M/r)")
    assert not old.correct and old.parts[0].reason in ("unparseable", "wrong_value")


def test_multiple_choice_options_are_respelled_and_graded(tmp_path: Path) -> None:
    t = loads(tmp_path, orbit())
    ids = {v.instance_id for v in _renamed(t)}
    made = [v for v in physgen.generate([t], n=t.capacity(), seed=0, formats=["mc_symbolic"], paraphrases=[0])
            if v.instance_id in ids]
    (v,) = made
    assert v.options[v.answer_key] == "√(G·m/R)"
    assert all("M" not in o and "r" not in o for o in v.options.values()), v.options
    assert physgen.grade(v, f"Final answer: {v.answer_key}").correct
    assert physgen.grade(v, "Final answer: √(G m/R)").correct  # the option's expression


def test_texts_keep_words_that_contain_a_symbol() -> None:
    assert mentions("½ m ω² x²", "m") and mentions("(2m)", "m") and mentions("r₀ = r", "r")
    assert not mentions("the mass", "m") and not mentions("the pendulum's", "s")
    assert not mentions("Δx Δp", "x") and not mentions("v_esc", "v") and not mentions("r₀", "r")


# -- solved relations ----------------------------------------------------------------------------
def test_a_solved_relation_gives_the_answer_and_asks_the_input(tmp_path: Path) -> None:
    t = loads(tmp_path, orbit())
    assert t.capacity() == 3 * 2 * 2
    made = list(physgen.generate([t], n=t.capacity(), seed=0, formats=["free_form", "mc_symbolic"],
                                 paraphrases=[0]))
    solved = [v for v in made if "v" in v.inputs]
    assert len(solved) == 6 and all(v.format == "free_form" for v in solved)  # no options for them
    v = next(v for v in solved if "M_p" in v.answers and "R" in v.inputs)
    assert "The orbital speed is v. " in v.prompt
    assert "Find the mass of the planet Mₚ (in terms of v, R and G)" in v.prompt
    assert v.answers["M_p"].expr == "R*v**2/G"
    assert v.prompt.endswith('Finish with a line "Final answer: <expression>". Write expressions in the '
                             "symbols of the question.")
    assert v.steps[-1] == "Solved for Mₚ: Mₚ = R·v^2/G."
    assert physgen.grade(v, "Final answer: M_p = v² R / G").correct
    assert not physgen.grade(v, "Final answer: v² r / G").correct
    assert physgen.grade(v, get_format("free_form").reference(v)).correct


def test_problems_are_a_seeded_permutation(tmp_path: Path) -> None:
    t = loads(tmp_path, orbit())
    seen = [problem(t, 0, k) for k in range(t.capacity())]
    assert len(set(seen)) == t.capacity()  # instance numbers below the capacity: all different
    assert seen == [problem(t, 0, k) for k in range(t.capacity())]
    assert seen != [problem(t, 1, k) for k in range(t.capacity())]
    a = [v.to_json() for v in physgen.generate([t], n=5, seed=3, formats=["free_form", "mc_symbolic"])]
    b = [v.to_json() for v in physgen.generate([t], n=5, seed=3, formats=["free_form", "mc_symbolic"])]
    assert a == b


# -- what loading refuses ------------------------------------------------------------------------
@pytest.mark.parametrize(("changes", "field", "says"), [
    ({"question_type": "numerical"}, "inputs.M.symbols", "only algebraic templates"),
    ({"inputs": {"M": {"unit": "kg", "range": [1e23, 1e25], "label": "mass", "symbols": ["r"]},
                 "r": {"unit": "km", "range": [5000, 40000], "label": "radius"}}},
     "inputs.M.symbols", "already the name of"),
    ({"steps": ["G M/r² = v²/r, and the period is T = 2π r/v, so v = √(G M/r) = {{ v }}."],
      "inputs": {"M": {"unit": "kg", "range": [1e23, 1e25], "label": "mass"},
                 "r": {"unit": "km", "range": [5000, 40000], "label": "radius", "symbols": ["T"]}}},
     "inputs.r.symbols", "steps[0] already writes 'T'"),
    ({"inputs": {"M": {"unit": "kg", "range": [1e23, 1e25], "label": "mass", "symbols": ["pi"]},
                 "r": {"unit": "km", "range": [5000, 40000], "label": "radius"}}},
     "inputs.M.symbols", "reads as a function or constant"),
    ({"answers": {"v": {"expr": "sqrt(G*M/r)", "unit": "km/s", "ask": "the orbital speed",
                        "solve_for": ["G"]}}}, "answers.v.solve_for", "is not an input"),
    ({"inputs": {"M": {"unit": "kg", "range": [1e23, 1e25], "symbols": ["m"]},
                 "r": {"unit": "km", "range": [5000, 40000], "label": "radius"}}},
     "inputs.M.label", "give it a `label`"),
    ({"answers": {"v": {"expr": "sqrt(G*M/r)", "unit": "km/s", "ask": "the orbital speed",
                        "symbol": "ν", "solve_for": ["M"]}}}, "answers.v.symbol", "reads as"),
])
def test_a_bad_declaration_is_an_error_naming_field_and_fix(tmp_path: Path, changes: dict[str, Any],
                                                            field: str, says: str) -> None:
    message = load_error(tmp_path, orbit(**changes))
    assert field in message and says in message and "fix:" in message, message


def test_two_physical_roots_are_refused(tmp_path: Path) -> None:
    data = orbit(answers={"y": {"expr": "sin(theta)", "unit": "", "ask": "the sine",
                                "solve_for": ["theta"]}},
                 inputs={"theta": {"unit": "deg", "range": [10, 170], "label": "angle", "symbols": ["phi"]}},
                 constants={}, steps=["y = sin θ = {{ y }}."],
                 text=["An angle {{ theta }} is given. {{ asks }}",
                       "{{ asks }} Take the angle {{ theta }} here.",
                       "Consider the direction at {{ theta }} to the floor. {{ asks }}"])
    message = load_error(tmp_path, data)
    assert "answers.y.solve_for" in message and "give the input back" in message, message


def test_an_english_word_cannot_be_solved_for(tmp_path: Path) -> None:
    data = orbit(inputs={"a": {"unit": "kg", "range": [1e23, 1e25], "label": "mass"},
                         "r": {"unit": "km", "range": [5000, 40000], "label": "radius"}},
                 answers={"v": {"expr": "sqrt(G*a/r)", "unit": "km/s", "ask": "the orbital speed",
                                "solve_for": ["a"]}})
    for k, text in enumerate(data["text"]):
        data["text"][k] = text.replace("{{ M }}", "{{ a }}")
    message = load_error(tmp_path, data)
    assert "answers.v.solve_for" in message and "also a word" in message, message


def test_an_english_word_cannot_be_renamed(tmp_path: Path) -> None:
    data = orbit(inputs={"a": {"unit": "kg", "range": [1e23, 1e25], "label": "mass", "symbols": ["m"]},
                         "r": {"unit": "km", "range": [5000, 40000], "label": "radius"}},
                 answers={"v": {"expr": "sqrt(G*a/r)", "unit": "km/s", "ask": "the orbital speed"}})
    for k, text in enumerate(data["text"]):
        data["text"][k] = text.replace("{{ M }}", "{{ a }}")
    message = load_error(tmp_path, data)
    assert "inputs.a.symbols" in message and "also a word" in message, message


def test_report_counts(catalog: physgen.Catalog) -> None:
    """Distinct problems per algebraic template (printed with ``-s``; the report quotes them)."""
    counts = sorted(t.capacity() for t in catalog.filter(question_type="algebraic").templates())
    print(f"\nalgebraic templates: {len(counts)}, problems min {counts[0]}, "
          f"median {statistics.median(counts)}, max {counts[-1]}")
    assert counts[0] >= MIN_PROBLEMS


def test_a_sentence_a_format_adds_keeps_its_units(tmp_path: Path) -> None:
    """``noop`` adds "The observer stands 3.2 m away.": renaming the mass m must not touch it."""
    data = orbit(
        id="mechanics.demo_spring",
        inputs={"m": {"unit": "kg", "range": [0.1, 10], "label": "mass", "symbols": ["M"]},
                "k": {"unit": "N/m", "range": [10, 1000], "label": "spring constant", "symbols": ["K"]}},
        constants={},
        answers={"omega": {"expr": "sqrt(k/m)", "unit": "rad/s", "ask": "the angular frequency"}},
        text=["A block of mass {{ m }} hangs on a spring of constant {{ k }}. {{ asks }}",
              "{{ asks }} A spring (constant {{ k }}) carries a load of mass {{ m }}.",
              "Take a load of mass {{ m }} on a light spring with constant {{ k }}. {{ asks }}"],
        steps=["ω = √(k/m) = {{ omega }}."])
    t = loads(tmp_path, data)
    made = list(physgen.generate([t], n=t.capacity(), seed=0, formats=["noop"]))
    renamed = [v for v in made if "M" in v.inputs]
    assert renamed and all("mass M" in v.prompt for v in renamed)
    units = [v for v in renamed if " m away" in v.prompt or " m²." in v.prompt]
    assert units, "no sentence with the unit m was drawn: choose another seed"
    assert not any(" M away" in v.prompt or " M²." in v.prompt for v in made)



# -- omitted: a given removed from an algebraic problem ------------------------------------------
MARKED = ["A moon circles a planet[[ of mass {{ M }}]][[ at radius {{ r }}]], with the gravitational "
          "constant {{ G }}. {{ asks }}",
          "{{ asks }} A satellite is on a circular orbit[[ of radius {{ r }}]] around a world[[ of mass "
          "{{ M }}]] (gravitational constant {{ G }}).",
          "Take the gravitational constant {{ G }}. A probe moves in a circle[[ of radius {{ r }}]] about "
          "a body[[ of mass {{ M }}]]. {{ asks }}"]


def _omitted(t: physgen.Template) -> list[physgen.Variant]:
    return list(physgen.generate([t], n=t.capacity(), seed=0, formats=["omitted"], paraphrases=[0]))


def test_omitted_removes_a_given_from_an_algebraic_problem(tmp_path: Path) -> None:
    t = loads(tmp_path, orbit(text=MARKED))
    made = _omitted(t)
    own = [v for v in made if "v" in v.answers]
    assert own and all(v.unanswerable == ("v",) for v in own)
    for v in own:
        assert len(v.inputs) == 1  # one of the two givens is left
        shown = next(iter(v.inputs.values())).text
        terms = v.prompt.split("(in terms of ")[1].split(")")[0]
        assert terms == f"{shown} and G", v.prompt  # the removed symbol is not listed
        assert "If the givens are not enough to find a quantity, say so" in v.prompt
        assert physgen.grade(v, get_format("omitted").reference(v)).correct
        old = v.answers["v"].text  # the key of the problem with every given
        assert not physgen.grade(v, f"Final answer: {old}").correct, (v.prompt, old)  # the old key
        assert not physgen.grade(v, f"The mass is not given, but v = {old}.\n\nFinal answer: {old}").correct
        assert physgen.grade(v, "Final answer: v cannot be determined: the givens are not enough").correct


def test_omitted_in_renamed_symbols_and_for_a_solved_relation(tmp_path: Path) -> None:
    t = loads(tmp_path, orbit(text=MARKED))
    made = _omitted(t)
    renamed = [v for v in made if "v" in v.answers and "R" in v.inputs]
    assert renamed and all("mass" not in v.prompt and "radius R" in v.prompt for v in renamed)
    solved = [v for v in made if "v" in v.inputs]
    assert solved  # the mass asked: only the radius can be removed
    for v in solved:
        (asked,) = v.answers
        assert asked in ("M", "m", "M_p") and v.unanswerable == (asked,)
        assert not any(n in v.inputs for n in ("r", "R")), v.inputs
        assert "radius" not in v.prompt and "(in terms of v and G)" in v.prompt, v.prompt
        assert physgen.grade(v, get_format("omitted").reference(v)).correct
        assert not physgen.grade(v, f"Final answer: {asked} = {v.answers[asked].expr}").correct


def test_a_cut_that_still_writes_the_symbol_is_an_error_naming_the_paraphrase_and_the_fix(
        tmp_path: Path) -> None:
    text = [*MARKED]
    text[1] = text[1].replace("(gravitational constant {{ G }})", "(gravitational constant {{ G }}; G M is "
                              "the planet's gravitational parameter)")
    message = load_error(tmp_path, orbit(text=text))
    assert "demo_orbit.yaml: text[1]: cutting the span of 'M' still writes its symbol 'M'" in message
    assert "fix: put that mention inside a [[ … {{ M }} … ]] span too, or reword" in message
    fixed = text[1].replace("[[ of mass {{ M }}]] (gravitational constant {{ G }}; G M is the planet's "
                            "gravitational parameter)", "[[ of mass {{ M }} (G M is its gravitational "
                            "parameter)]] (gravitational constant {{ G }})")
    assert loads(tmp_path, orbit(text=[text[0], fixed, text[2]])).omit_texts[1]["M"]


def test_every_algebraic_template_has_omitted_variants_that_grade(catalog: physgen.Catalog) -> None:
    for t in catalog.filter(question_type="algebraic").templates():
        made = list(physgen.generate([t], n=6, seed=2, formats=["omitted"], paraphrases="random"))
        assert made, t.id
        for v in made:
            assert v.unanswerable, v.variant_id
            assert physgen.grade(v, get_format("omitted").reference(v)).correct, v.variant_id
            wrong = get_format("free_form").reference(dataclasses.replace(v, unanswerable=()))
            assert not physgen.grade(v, wrong).correct, v.variant_id  # every part answered


def test_a_part_label_is_not_respelled_as_a_renamed_symbol(catalog: physgen.Catalog) -> None:
    """van der Waals' b is renamed (β, b₀, c) in some instances; the label "(b)" of the second
    part stays "(b)"."""
    t = catalog["thermo.van_der_waals_pressure_symbolic"]
    renamed = [v for v in physgen.generate([t], n=24, seed=0, paraphrases=[0])
               if "b" not in v.inputs and "p_ideal" in v.answers]
    assert renamed
    for v in renamed:
        assert "(b) the pressure an ideal gas would have" in v.prompt, v.prompt

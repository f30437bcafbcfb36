"""Every kind of bad template file is rejected with a message naming file, field and fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.errors import CatalogError, TemplateError

from .conftest import good, write_template


def load_error(tmp_path: Path, data: dict[str, Any] | str, name: str | None = None) -> str:
    path = write_template(tmp_path, data, name)
    with pytest.raises(CatalogError) as info:
        physgen.load_catalog(tmp_path)
    message = str(info.value)
    assert str(path) in message, message  # names the file
    assert "the catalog was not loaded" in message
    return message


def test_the_fixture_itself_is_valid(tmp_path: Path) -> None:
    write_template(tmp_path, good())
    cat = physgen.load_catalog(tmp_path)
    assert list(cat) == ["mechanics.demo_speed"]


def test_missing_required_field(tmp_path: Path) -> None:
    data = good()
    del data["answers"]
    msg = load_error(tmp_path, data)
    assert "answers: required field is missing" in msg and "fix: add `answers:`" in msg


def test_misspelt_field_gets_a_suggestion(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d"]["unti"] = data["inputs"]["d"].pop("unit")
    msg = load_error(tmp_path, data)
    assert "inputs.d.unti: unknown field" in msg
    assert "did you mean `unit`?" in msg


def test_unknown_unit(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d"]["unit"] = "meterz"
    msg = load_error(tmp_path, data)
    assert "inputs.d.unit" in msg and "'meterz' is not a unit" in msg and "fix:" in msg


def test_answer_with_wrong_dimension(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "d*t"
    msg = load_error(tmp_path, data)
    assert "answers.v.expr" in msg
    assert "[length] * [time]" in msg and "'m/s'" in msg


def test_adding_unlike_quantities(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "(d + t)/t"
    msg = load_error(tmp_path, data)
    assert "answers.v.expr: dimensions do not work out" in msg


def test_angle_must_be_dimensionless_inside_sin(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "d*sin(t)/t"
    msg = load_error(tmp_path, data)
    assert "answers.v.expr" in msg and "sin/cos" in msg


def test_unknown_name_in_expression(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "dist/t"
    msg = load_error(tmp_path, data)
    assert "unknown name(s) ['dist']" in msg and "define them under `inputs`" in msg


def test_expression_syntax_error(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "d/(t"
    msg = load_error(tmp_path, data)
    assert "answers.v.expr: cannot parse 'd/(t'" in msg


def test_unknown_function(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "frobnicate(d)/t"
    msg = load_error(tmp_path, data)
    assert "unknown function(s) ['frobnicate']" in msg


def test_names_shadowing_sympy_are_plain_symbols(tmp_path: Path) -> None:
    data = good()
    data["inputs"] = {"E": {"unit": "J", "range": [1, 2]}, "N": {"unit": "", "range": [2, 5]}}
    data["answers"] = {"e_per": {"expr": "E/N", "unit": "J", "ask": "the energy per particle"}}
    data["text"] = [t.replace("{{ d }}", "{{ E }}").replace("{{ t }}", "{{ N }}") for t in data["text"]]
    data["steps"] = ["{{ e_per }}"]
    write_template(tmp_path, data)
    t = physgen.load_catalog(tmp_path)["mechanics.demo_speed"]
    assert t.solve(E="6 J", N="3")["e_per"].magnitude == pytest.approx(2.0)


def test_reserved_name(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["sin"] = data["inputs"].pop("t")
    msg = load_error(tmp_path, data)
    assert "'sin' is reserved" in msg


def test_nominal_and_range_together(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d"]["nominal"] = 5
    msg = load_error(tmp_path, data)
    assert "inputs.d" in msg and "exactly one of `nominal`" in msg


def test_empty_range(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d"]["range"] = [10, 1]
    msg = load_error(tmp_path, data)
    assert "low < high" in msg


def test_alt_unit_of_other_dimension(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d"]["alt_units"] = ["km", "kg"]
    msg = load_error(tmp_path, data)
    assert "inputs.d.alt_units[1]: 'kg' is not the same dimension as 'm'" in msg


def test_alt_units_that_differ_by_two_pi(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["t"] = {"unit": "rpm", "nominal": 2.0, "alt_units": ["Hz"]}
    data["answers"]["v"]["expr"] = "d*t"
    msg = load_error(tmp_path, data)
    assert "inputs.t.alt_units[0]: Pint converts 'Hz' to 1 / second but 'rpm' to radian / second" in msg


def test_undefined_placeholder(tmp_path: Path) -> None:
    data = good()
    data["text"][0] = "A runner covers {{ d }} in {{ t }} at {{ temperature }}. {{ asks }}"
    msg = load_error(tmp_path, data)
    assert "text[0]: undefined placeholder(s) ['temperature']" in msg


def test_text_must_not_reveal_the_answer(tmp_path: Path) -> None:
    data = good()
    data["text"][1] = "{{ asks }} A cart of speed {{ v }} rolls {{ d }} during {{ t }} of testing."
    msg = load_error(tmp_path, data)
    assert "text[1]: the question text shows the answer(s) ['v']" in msg


def test_every_text_shows_every_input(tmp_path: Path) -> None:
    data = good()
    data["text"][2] = "Timing gates record an object that travels {{ d }} in a straight line. {{ asks }}"
    msg = load_error(tmp_path, data)
    assert "text[2]: the text never shows input(s) ['t']" in msg


def test_text_must_ask(tmp_path: Path) -> None:
    data = good()
    data["text"][0] = "A runner covers {{ d }} in {{ t }}. How fast?"
    msg = load_error(tmp_path, data)
    assert "text[0]: the text does not ask anything" in msg


@pytest.mark.parametrize("text", [
    "A runner covers {{ d }} in {{ t }}, so {{ asks }}",
    "A runner covers {{ d }} in {{ t }}. {{ asks | lower }}",
])
def test_asks_stands_alone(tmp_path: Path, text: str) -> None:
    data = good()
    data["text"][0] = text
    msg = load_error(tmp_path, data)
    assert "{{ asks }} must stand alone as a sentence" in msg


def test_jinja_syntax_error(tmp_path: Path) -> None:
    data = good()
    data["steps"] = ["v = {{ v "]
    msg = load_error(tmp_path, data)
    assert "steps[0]: Jinja2 syntax error" in msg


def test_too_few_paraphrases(tmp_path: Path) -> None:
    data = good()
    data["text"] = data["text"][:2]
    msg = load_error(tmp_path, data)
    assert "text: List should have at least 3 items" in msg


def test_near_identical_paraphrases(tmp_path: Path) -> None:
    data = good()
    data["text"][2] = "A jogger covers {{ d }} in {{ t }}. {{ asks }}"
    msg = load_error(tmp_path, data)
    assert "text[2]: is" in msg and "the same as text[0] word for word" in msg


def test_unsatisfiable_constraints(tmp_path: Path) -> None:
    data = good()
    data["constraints"] = ["d > 100 * t / t * d"]
    msg = load_error(tmp_path, data)
    assert "constraints: only 0 of 1000 draws meet the constraints" in msg


def test_constraint_comparing_unlike_quantities(tmp_path: Path) -> None:
    data = good()
    data["constraints"] = ["d > t"]
    msg = load_error(tmp_path, data)
    assert "constraints[0]: compares unlike quantities" in msg


def test_constraint_must_be_an_inequality(tmp_path: Path) -> None:
    data = good()
    data["constraints"] = ["d + d"]
    msg = load_error(tmp_path, data)
    assert "constraints[0]: 'd + d' is not an inequality" in msg


def test_non_finite_answers(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d"]["range"] = [-5, 10]
    data["constants"] = {"d0": {"value": "1 m", "common": True}}  # (not the point here)
    data["answers"]["v"]["expr"] = "sqrt(d**3/d0)/t"
    data["answers"]["v"]["sign"] = "any"
    msg = load_error(tmp_path, data)
    assert "answers.v: is not finite for" in msg and "add a constraint" in msg


def test_wrong_sign(tmp_path: Path) -> None:
    data = good()
    data["answers"]["v"]["expr"] = "-d/t"
    msg = load_error(tmp_path, data)
    assert "answers.v.sign: should be positive" in msg and "`sign: any`" in msg


def test_solver_that_cannot_be_imported(tmp_path: Path) -> None:
    data = good()
    del data["answers"]["v"]["expr"]
    data["solver"] = "physgen.solvers.nowhere:f"
    msg = load_error(tmp_path, data)
    assert "solver: cannot import 'physgen.solvers.nowhere:f'" in msg


def test_answer_without_expression_or_solver(tmp_path: Path) -> None:
    data = good()
    del data["answers"]["v"]["expr"]
    msg = load_error(tmp_path, data)
    assert "have no `expr`" in msg


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    text = (Path(__file__).parent / "data" / "duplicate_key.yaml").read_text()
    msg = load_error(tmp_path, text)
    assert "duplicate key 'unit'" in msg and "line" in msg


def test_invalid_yaml(tmp_path: Path) -> None:
    msg = load_error(tmp_path, "id: [unclosed\n")
    assert "invalid YAML" in msg


def test_id_must_match_file_location(tmp_path: Path) -> None:
    msg = load_error(tmp_path, good(), name="mechanics/elsewhere.yaml")
    assert "id 'mechanics.demo_speed' does not match the file's place" in msg


def test_a_group_folder_given_as_the_catalog_root_says_so(tmp_path: Path) -> None:
    path = write_template(tmp_path, good())
    with pytest.raises(CatalogError) as info:
        physgen.load_catalog(path.parent)
    message = str(info.value)
    assert f"{path.parent} is the folder of group 'mechanics', not a catalog root" in message
    assert f"pass the catalog root, {tmp_path}" in message


def test_bad_id_format(tmp_path: Path) -> None:
    data = good()
    data["id"] = "Demo"
    msg = load_error(tmp_path, data, name="mechanics/demo.yaml")
    assert "'Demo' is not '<group>.<name>'" in msg


def test_all_problems_of_all_files_reported_and_nothing_loaded(tmp_path: Path) -> None:
    write_template(tmp_path, good())
    bad1 = good()
    bad1["id"] = "mechanics.bad_one"
    bad1["inputs"]["d"]["unit"] = "parsecz"
    bad1["answers"]["v"]["unit"] = "flurbs"
    write_template(tmp_path, bad1)
    bad2 = good()
    bad2["id"] = "optics.bad_two"
    del bad2["steps"]
    write_template(tmp_path, bad2)
    with pytest.raises(CatalogError) as info:
        physgen.load_catalog(tmp_path)
    err = info.value
    assert len(err.problems) == 3
    assert {p.field for p in err.problems} == {"inputs.d.unit", "answers.v.unit", "steps"}
    assert str(err).startswith("3 problem(s) in 2 template file(s)")


def test_load_template_single_file_error_is_template_error(tmp_path: Path) -> None:
    data = good()
    data["difficulty"] = 9
    path = write_template(tmp_path, data)
    with pytest.raises(TemplateError, match="difficulty: Input should be less than or equal to 5"):
        physgen.catalog.load_template(path)


def test_a_unit_in_an_expression_is_explained(tmp_path: Path) -> None:
    data = good()
    data["constraints"] = ["d/t > 2 m/s"]
    msg = load_error(tmp_path, data)
    assert "constraints[0]: cannot parse 'd/t > 2 m/s'" in msg
    assert "expressions take no units: names stand for values in SI base units" in msg

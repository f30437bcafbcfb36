"""Step-level grading: hand-marked reasoning traces, the search itself, and the plumbing.

``tests/data/step_traces.jsonl`` holds replies written by hand for instance 0 (seed 0) of
templates with intermediates, each with the verdict a human gives every step and the
first step that is not right. They were written and marked before the grader ran on
them; a mark changed afterwards says why in its ``note``. A trace *agrees* when the
grader names the same first error and judges every step right or not right as marked;
the reasons (wrong value, missing, after the answer, out of order) are compared too and
reported, but a reason is a diagnosis, not a verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.reading.steps import grade_steps, matches, read_values

TRACES = Path(__file__).parent / "data" / "step_traces.jsonl"


def _traces() -> list[dict[str, Any]]:
    return [json.loads(line) for line in TRACES.read_text(encoding="utf-8").splitlines() if line.strip()]


def _variant(template: str, seed: int, index: int) -> physgen.Variant:
    return next(physgen.generate([template], n=1, seed=seed, start=index))


def test_traces_are_many_and_consistent(catalog: physgen.Catalog) -> None:
    rows = _traces()
    assert len(rows) >= 60 and len({r["template"] for r in rows}) >= 20
    for r in rows:
        names = list(catalog[r["template"]].spec.intermediates)
        assert set(r["steps"]) == set(names), r
        assert r["first_error"] == next((n for n in names if r["steps"][n] != "correct"), None), r


def test_traces_agree_with_the_hand_marks() -> None:
    rows = _traces()
    agree = reasons = 0
    for k, r in enumerate(rows):
        g = grade_steps(_variant(r["template"], r["seed"], r["index"]), r["reply"])
        got = {s.name: s.reason for s in g.steps}
        ok = g.first_error == r["first_error"] and all(
            (got[n] == "correct") == (want == "correct") for n, want in r["steps"].items())
        agree += ok
        reasons += ok and got == r["steps"]
        if not ok or got != r["steps"]:
            print(f"{'DISAGREE' if not ok else 'reason  '} #{k} {r['template']} [{r['kind']}]: "
                  f"first error {g.first_error} (hand: {r['first_error']}); steps {got} (hand: {r['steps']})")
    print(f"step traces: {agree}/{len(rows)} agree ({agree / len(rows):.1%}); "
          f"reasons too: {reasons}/{len(rows)}")
    assert agree >= 0.95 * len(rows)


# -- the search itself ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rlc() -> physgen.Variant:
    return _variant("electricity.rlc_series_circuit", 0, 0)  # X_L 2.11 Ω, X_C 276.3 Ω (step 0)


@pytest.fixture(scope="module")
def lens() -> physgen.Variant:
    return _variant("optics.two_lens_system", 0, 0)  # s1' 12.52 cm (0), s2 42.48 cm (1), m1, m2 (4)


FINAL = "\nFinal answer:\n(a) 429 Ω\n(b) 40.6 mA\n(c) -39.7°"


@pytest.mark.parametrize(("text", "value", "unit", "expected"), [
    ("X = 14.6 Ω", 14.59, "ohm", True),
    ("X = 0.0146 kΩ", 14.59, "ohm", True),
    ("X = 15 Ω", 14.59, "ohm", True),       # rounded to 2 figures
    ("X = 10 Ω", 14.59, "ohm", False),      # 1 figure is too few to count as a rounding
    ("X = 14.6 s", 14.59, "ohm", False),    # another dimension
    ("E = 5.24 kJ", 5240.0, "J", True),
    ("E = 5240", 5.24, "kJ", True),         # a bare number may be in SI
    ("v = 163 km/h", 45.39, "m/s", True),
    ("m = 0.216", -0.2159, "", False),      # the sign counts
])
def test_matches(text: str, value: float, unit: str, expected: bool) -> None:
    found = next(f for f in read_values(text) if not f.literal)
    assert matches(found, value, unit, 0.01) is expected


def test_read_values_keeps_calculations_and_skips_chain_links() -> None:
    found = read_values("R = 14.39 × 3.15 = 45.3 m. Then t = 2·15.4/9.81 = 3.14 s")
    assert [(f.text, f.literal) for f in found] == [
        ("14.39", True), ("3.15", True), ("45.3 m", False), ("2", True), ("15.4", True), ("9.81", True),
        ("3.14 s", False)]
    assert [f.label for f in found if not f.literal] == ["R", "t"]


def test_order_after_answer_and_out_of_order(rlc: physgen.Variant, lens: physgen.Variant) -> None:
    late = grade_steps(rlc, "We find Z." + FINAL + "\nAside: X_L = 2.11 Ω, X_C = 276 Ω.")
    assert [s.reason for s in late.steps] == ["after_answer", "after_answer"] and late.first_error == "X_L"
    same_step = grade_steps(rlc, "X_C = 276 Ω, X_L = 2.11 Ω." + FINAL)  # one step: any order
    assert same_step.score == 1.0
    swapped = grade_steps(lens, "s2 = 42.5 cm, and before that s1' = 12.5 cm. m1 = -0.216, m2 = -0.306."
                                "\nFinal answer: (a) 13.0 cm (b) 0.0661")
    assert [s.reason for s in swapped.steps] == ["out_of_order", "correct", "correct", "correct"]
    assert swapped.first_error == "s1_image"


def test_a_coincidence_early_does_not_block_earlier_steps(lens: physgen.Variant) -> None:
    reply = ("Magnifications will be about -0.306 here. s1' = 12.5 cm, s2 = 42.5 cm, m1 = -0.216, "
             "m2 = -0.306.\nFinal answer: (a) 13.0 cm (b) 0.0661")
    assert grade_steps(lens, reply).score == 1.0


def test_wrong_values_and_corrections(rlc: physgen.Variant) -> None:
    wrong = grade_steps(rlc, "X_L = 0.211 Ω, X_C = 276 Ω." + FINAL)
    first = wrong.steps[0]
    assert (first.reason, first.parsed, wrong.first_error) == ("wrong_value", "0.211 Ω", "X_L")
    fixed = grade_steps(rlc, "X_L = 0.211 Ω. Wait, X_L = 2.11 Ω; X_C = 276 Ω." + FINAL)
    assert fixed.score == 1.0
    unlabelled = grade_steps(rlc, "The inductor gives 21.1 Ω and the capacitor 276 Ω." + FINAL)
    assert unlabelled.steps[0].reason == "wrong_value"  # a value of its kind that is no known quantity
    missing = grade_steps(rlc, "Z follows directly." + FINAL)
    assert [s.reason for s in missing.steps] == ["missing", "missing"]


def test_evidence_is_a_span_of_the_reply(rlc: physgen.Variant) -> None:
    reply = "Intro line.\nReactances: X_L = 2.11 Ω and X_C = 276 Ω." + FINAL
    s = grade_steps(rlc, reply).steps[1]
    assert s.evidence == reply[s.start:s.end].strip() and "X_C" in s.evidence


def test_grade_with_steps_is_json_and_safe(rlc: physgen.Variant) -> None:
    g = physgen.grade(rlc, "X_L = 2.11 Ω, X_C = 276 Ω." + FINAL, steps=True)
    assert g.correct and g.steps is not None and g.steps.score == 1.0
    d = json.loads(json.dumps(g.to_dict()))
    assert d["steps"]["first_error"] is None and d["steps"]["steps"][0]["name"] == "X_L"
    assert "steps" not in physgen.grade(rlc, "no idea").to_dict()
    for hostile in ["", "(" * 5000, "1e999 Ω " * 3000, "X_L = " + "9" * 400 + " Ω"]:
        assert physgen.grade(rlc, hostile, steps=True).steps is not None
    plain = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1))
    none = physgen.grade(plain, "T = 2 s", steps=True).steps
    assert none is not None and none.steps == () and none.first_error is None


def test_intermediates_are_carried_and_round_trip(rlc: physgen.Variant) -> None:
    assert list(rlc.intermediates) == ["X_L", "X_C"] and rlc.intermediates["X_L"].step == 0
    assert rlc.intermediates["X_L"].text in rlc.steps[0]
    again = physgen.Variant.from_dict(json.loads(rlc.to_json()))
    assert again == rlc
    mc = next(physgen.generate(["electricity.rlc_series_circuit"], n=1, formats=["mc_numerical"]))
    assert mc.intermediates == rlc.intermediates


def test_templates_with_intermediates(catalog: physgen.Catalog) -> None:
    with_steps = [t for t in catalog.templates() if t.spec.intermediates]
    assert len(with_steps) >= 20
    for t in with_steps:
        batch = t.sample(50, seed=1)
        for name, values in batch.intermediates.items():
            assert values.shape == (50,) and (values == values).all(), (t.id, name)


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"X_L": {"expr": "2*pi*L", "unit": "ohm", "step": 0}}, "intermediates.X_L.expr", "dimension"),
    ({"X_L": {"expr": "2*pi*f*L", "unit": "ohm", "step": 9}}, "intermediates.X_L.step", "does not exist"),
    ({"X_L": {"expr": "2*pi*f*L", "unit": "ohm", "step": 2}}, "intermediates.X_L.step", "does not show"),
    ({"X_L": {"expr": "2*pi*f*Q", "unit": "ohm", "step": 0}}, "intermediates.X_L.expr", "unknown"),
    ({"X_L": {"expr": "2*pi*f*L", "unit": "ohmz", "step": 0}}, "intermediates.X_L.unit", "Pint"),
    ({"X_L": {"expr": "2*pi*f*L*sqrt(1 - 1000000*R*C*f)", "unit": "ohm", "step": 0}},  # √ of a negative
     "intermediates.X_L", "is not finite for"),
])
def test_bad_intermediates_name_file_field_and_fix(change: dict[str, Any], field: str, words: str) -> None:
    import yaml

    from physgen.compile import compile_template
    from physgen.errors import TemplateError
    from physgen.schema import TemplateSpec

    path = physgen.catalog.BUILTIN_ROOT / "electricity" / "rlc_series_circuit.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["intermediates"] = {**data["intermediates"], **change}
    with pytest.raises(TemplateError) as info:
        compile_template(TemplateSpec.model_validate(data), "bad.yaml")
    text = str(info.value)
    assert f"bad.yaml: {field}:" in text and words in text and "fix:" in text


@pytest.mark.parametrize("style", ["unicode", "latex", "ascii"])
def test_the_worked_steps_themselves_grade_every_step_right(catalog: physgen.Catalog, style: str) -> None:
    from physgen.formats.quantities import reference_quantities

    templates = [t for t in catalog.templates() if t.spec.intermediates]
    for v in physgen.generate(templates, n=3, seed=3, paraphrases="random", style=style):  # type: ignore[arg-type]
        g = grade_steps(v, "\n".join(v.steps) + "\n" + reference_quantities(v))
        assert g.score == 1.0, (v.variant_id, [(s.name, s.reason) for s in g.steps if not s.correct])


def test_a_number_inside_a_calculation_counts_only_as_a_rounding() -> None:
    # max_power_limited_load's trace: V_th = 5.666 V reused in "5.666/31.5" is within 1 % of the
    # battery's power (5.700 W) but is not it; the same number does state V_th (5.6657 V)
    literal = read_values("I_2 = 5.666/31.5 = 0.1799 A")[0]
    assert literal.literal and not matches(literal, 5.700, "W", 0.01)
    assert matches(literal, 5.6657, "V", 0.01)
    assert matches(read_values("P_b = 5.666 W")[0], 5.700, "W", 0.01)  # a stated value keeps its tolerance

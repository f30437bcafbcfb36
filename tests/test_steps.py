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


# -- brackets: a clause is not split inside them; an aside in them states its own quantity -------
# (written with their expected verdicts before the reader was changed for them)
@pytest.mark.parametrize(("text", "stated"), [
    # min(…)'s comma ends no clause: its arguments are numbers of the calculation, the value is T's
    ("T = min(4.1 s, 3.2 s) = 3.2 s", [("3.2 s", "T")]),
    ("T = min(t_1, t_2) = 3.2 s", [("3.2 s", "T")]),
    # an aside's own quantity: the value before it is stated (the aside's '=' is no chain link) …
    ("d = 1.62 cm against the motion (m = 1.20 kg, k = 182 N/m)",
     [("1.62 cm", "d"), ("1.20 kg", "m"), ("182 N/m", "k")]),
    # … and the value after it is the one before the aside's
    ("s = v t (with t = 2.0 s) = 4.0 m", [("2.0 s", "t"), ("4.0 m", "s")]),
    # a name inside the brackets of a left side is part of an expression, not the value's name
    ("GM/(R v_rot) = 9.288 m/s", [("9.288 m/s", "")]),
])
def test_brackets_in_clauses(text: str, stated: list[tuple[str, str]]) -> None:
    assert [(f.text, f.label) for f in read_values(text) if not f.literal] == stated


@pytest.mark.parametrize("reasoning", [
    "X_L = 2π·240·0.0014 = 2.11 Ω; the larger reactance is max(X_C, X_L) = 276 Ω.",
    "X_L = 2π f L = 2.11 Ω, far below X_C (X_C = 276 Ω).",
    "X_C = 1/(2π f C) (with f = 240 Hz and X_L = 2.11 Ω) = 276 Ω.",
])
def test_brackets_keep_each_value_with_its_name(rlc: physgen.Variant, reasoning: str) -> None:
    g = grade_steps(rlc, reasoning + FINAL)
    assert [s.reason for s in g.steps] == ["correct", "correct"], g.steps


def test_the_worked_steps_read_right_as_first_written() -> None:
    # steps as written before they were reworded for the reader ("t_1 = min(t_s, T) = …",
    # an aside of inputs after d): every step is right
    flywheel = _variant("magnetism.generator_braked_flywheel", 0, 0)
    reply = (
        "k = K²/R = 1.734 mN·m·s (K = 1.62 mV/rpm, R = 0.138 Ω).\n"
        "t_s = (J/k) ln(1 + k ω0/τ_f) = 6.431 s.\n"
        "Compare with T = 24.5 s: the braking stage lasts t_1 = min(t_s, T) = 6.431 s, and the angular speed "
        "when the circuit opens is ω_1 = max((ω0 + τ_f/k) e^(−k T/J) − τ_f/k, 0) = 0.000 rad/s.\n"
        "θ_1 = (J/k)(ω0 − ω_1) − τ_f t_1/k = 503.7 rad.\nθ_2 = J ω_1²/(2τ_f) = 0.000 rad."
        "\nFinal answer: (a) 80.2 (b) 6.43 s (c) 115 J")
    assert grade_steps(flywheel, reply).score == 1.0
    spring = _variant("waves.spring_block_friction_stops", 0, 0)
    reply = (
        "Each swing is simple harmonic about a centre shifted d = μk m g/k = 1.62 cm against the motion "
        "(m = 1.20 kg, k = 182 N/m, μk = 0.25). Static friction holds it wherever |x| ≤ μs m g/k = 3.63 cm "
        "(μs = 0.56).\nx1 = 2d − A0 = -5.853 cm.\nx2 = −2d − x1 = 2.615 cm.\nThe path slid is 23.4 cm."
        "\nFinal answer: (a) 92.0 cm/s (b) 0.510 s (c) 690 mJ")
    assert grade_steps(spring, reply).score == 1.0


def test_a_factor_before_a_bracket_inside_a_formula_is_no_stated_value() -> None:
    # "4 (M + m)" inside √(…): the 4 is a number of the calculation, not ω's value; a value
    # followed by an aside at the top level is still stated ("28.4 nC (q = …)")
    found = read_values("ω = √(ρ g π D²/(4 (M + m))) = 2.57 rad/s")
    assert [(f.text, f.label) for f in found if not f.literal] == [("2.57 rad/s", "omega")]
    assert [(f.text, f.label) for f in read_values("Q = 28.4 nC (q = CV)") if not f.literal] == [
        ("28.4 nC", "Q")]


def test_the_letters_of_a_numbered_name_with_a_given_s_value_state_the_given() -> None:
    # "t" is t0's leading letter, but "At t = 1.48 s" states the given moment (τ), not t0 (while
    # "R = 3.69 cm", the given depth under R_s's letter, is R_s stated wrong: trace 234)
    ball = _variant("fluids.ball_thrown_down_past_terminal_speed", 0, 0)  # v_t 30.24 m/s, t0 2.339 s
    reply = ("v_t = 30.24 m/s and t0 = 2.339 s. At t = 1.48 s the speed is 35.78 m/s."
             "\nFinal answer: (a) 35.78 m/s (b) 59.65 m (c) 67.42 J")
    assert grade_steps(ball, reply).score == 1.0
    wrong = grade_steps(ball, reply.replace("t0 = 2.339 s.", "t0 = 2.339 s. So t = 3.1 s."))
    assert wrong.steps[1].reason == "wrong_value"  # a value under its letters that is no given


def test_an_energy_stated_for_pc_is_the_momentum() -> None:
    # "pc = 6.833 MeV" states p = 6.833 MeV/c (and "mc² = …" a mass); an energy under another
    # name is no momentum
    pc = next(f for f in read_values("pc = √(K² + 2K m_e c²) = 6.833 MeV") if not f.literal)
    assert matches(pc, 6.833, "MeV/c", 0.01) and not matches(pc, 6.833 * 1.01, "MeV/c", 0.001)
    assert not matches(read_values("m c² = 938.3 MeV")[0], 938.3, "MeV/c^2", 0.01)  # "c²" alone names nothing
    assert matches(read_values("mc² = 938.3 MeV")[0], 938.3, "MeV/c^2", 0.01)
    assert not matches(read_values("K = 6.833 MeV")[0], 6.833, "MeV/c", 0.01)


def test_a_power_stated_in_dbm_is_read_as_the_power() -> None:
    # -5.18 dBm is 0.303 mW (the unit registry's linear dBm conversion would give -0.34 mW)
    dbm = next(f for f in read_values("launched 10 log(4.75 × 0.0639) = -5.18 dBm") if not f.literal)
    assert matches(dbm, 0.3034, "mW", 0.01) and matches(dbm, 3.034e-4, "W", 0.01)
    assert not matches(dbm, 0.341, "mW", 0.01)
    assert matches(read_values("P = 16.2 dBW")[0], 41.7, "W", 0.01)
    assert [f.value for f in read_values("P = 1e99 dBm, 12 dB")] == [1e99, 12.0]  # no overflow; a ratio stays


def test_an_unnamed_value_counts_for_the_quantity_it_is_closest_to() -> None:
    # θ_d 0.252 and θ_pix 0.251 arcsec lie within 1 % of each other: an unnamed 0.252 arcsec is
    # θ_d's, and does not also give θ_pix; equal quantities share a value (see the last case)
    cass = _variant("optics.cassegrain_camera_sampling", 0, 0)  # s_i 1693 mm, m2 3.386 (steps 0, 1)
    head = "s′ = 1693 mm and m = 3.386. "
    final = "\nFinal answer: (a) 6.400 m (b) 1419 mm (c) 145 mm (d) 0.252 arcsec"
    wrong = grade_steps(cass, head + "Rayleigh gives 0.252 arcsec; two pixels give 0.392 arcsec." + final)
    assert [s.reason for s in wrong.steps] == ["correct", "correct", "correct", "wrong_value"]
    right = grade_steps(cass, head + "Rayleigh gives 0.252 arcsec; two pixels give 0.251 arcsec." + final)
    assert right.score == 1.0
    flywheel = _variant("magnetism.generator_braked_flywheel", 0, 0)  # t_s = t_1 = 6.431 s
    reply = ("k = 1.734 mN·m·s. It would stop after 6.431 s, before T, so the braking lasts 6.431 s and "
             "ω_1 = 0. θ_1 = 503.7 rad, θ_2 = 0.000 rad.\nFinal answer: (a) 80.2 (b) 6.43 s (c) 115 J")
    assert [s.reason for s in grade_steps(flywheel, reply).steps][:3] == ["correct"] * 3


def test_a_unit_after_a_number_is_no_name() -> None:
    # "… 3.9 µm/6.400 m = 0.251 arcsec": the m is 6.400's unit, not the name of 0.251 arcsec
    found = read_values("two pixels 2 × 3.9 µm/6.400 m = 0.251 arcsec")
    assert [(f.text, f.label) for f in found if not f.literal] == [("0.251 arcsec", "")]


def test_a_name_that_starts_a_line_names_its_value() -> None:
    # lines are read joined in batches: the join is no word before the name
    found = read_values("x = 1 m.\nv = 3 m/s\nm = 1087/500 = 2.174")
    assert [(f.text, f.label) for f in found if not f.literal] == [
        ("1 m", "x"), ("3 m/s", "v"), ("2.174", "m")]


@pytest.mark.parametrize(("text", "stated"), [
    # a bare number in a formula's brackets is a number of the formula (the 3 of 3σk²)
    ("c_g = (g + 3σk²/ρ)/(2ω) for the capillary root: 43.99 cm/s.", [("43.99 cm/s", "")]),
    # … while one with a unit in a remark is stated
    ("(had both conducted, it would give 7.081 V)", [("7.081 V", "")]),
    # "gives" ends an equation as "so" does
    ("v = √(T/μ) gives the tension T = μ v² = 1.75 N", [("1.75 N", "T")]),
])
def test_numbers_of_a_formula_and_equations_in_a_row(text: str, stated: list[tuple[str, str]]) -> None:
    assert [(f.text, f.label) for f in read_values(text) if not f.literal] == stated


def test_a_comparison_ends_an_equation() -> None:
    # "i = 36.81° > 2r = 35.41°": 36.81° is i's value, no link of a chain that ends at 35.41°
    found = read_values("Since i = 36.81° > 2r = 35.41°, the crossing lies inside")
    assert [(f.text, f.label) for f in found if not f.literal] == [("36.81°", "i"), ("35.41°", "")]
    assert [f.literal for f in read_values("v -> 3 m/s = 3 m/s")][:1] == [True]  # an arrow links


@pytest.mark.parametrize(("text", "stated"), [
    # "at" ends a clause: the value before it is stated (no link of a chain ending at kT's value),
    # and the value after it is kT's, not Z's (trace 264)
    ("Z = 77.29 at kT = 0.2224 meV.", [("77.29", "Z"), ("0.2224 meV", "kT")]),
    ("v = 3 m/s at t = 2 s", [("3 m/s", "v"), ("2 s", "t")]),
    # an arrow before a new statement means "so": 112.67 kJ is U_f's and 203.7 K is T_f's (trace 188)
    ("U_f = 205.20 − 92.54 = 112.67 kJ → T_f = θ/ln(1 + 3nRθ/U_f) = 203.7 K.",
     [("112.67 kJ", "Uf"), ("203.7 K", "Tf")]),
    ("U_f = 112.67 kJ ⇒ T_f = 203.7 K", [("112.67 kJ", "Uf"), ("203.7 K", "Tf")]),
    # … while an arrow before a value or an expression is still a link of a chain
    ("x = 2·5 → 10 m", [("10 m", "x")]),
    ("E = 3 J → 3 J + 2 J = 5 J", [("5 J", "E")]),
])
def test_at_and_an_arrow_before_a_statement_end_a_clause(text: str, stated: list[tuple[str, str]]) -> None:
    assert [(f.text, f.label) for f in read_values(text) if not f.literal] == stated


def test_a_clause_cut_at_at_or_an_arrow_keeps_a_wrong_value_wrong() -> None:
    # the values now read as stated are compared as any other: a wrong one does not match
    z = read_values("Z = 70.29 at kT = 0.2224 meV.")[0]
    assert (z.label, z.literal) == ("Z", False) and not matches(z, 77.37, "", 0.01)
    u = read_values("U_f = 150.3 kJ → T_f = 203.7 K")[0]
    assert u.label == "Uf" and not matches(u, 112.68, "kJ", 0.01) and matches(u, 150.3, "kJ", 0.01)


# -- the symbols the worked steps write, and names of equal quantities (traces 97, 250, 253) -----
CASS_FINAL = "\nFinal answer: (a) 6.400 m (b) 1419 mm (c) 145 mm (d) 0.252 arcsec"
CASS_REST = " m = 1693/500 = 3.386. Rayleigh 0.252 arcsec; two pixels 0.251 arcsec." + CASS_FINAL


def test_leading_letters_the_steps_write_otherwise_name_nothing() -> None:
    # the steps write s_i as s′ ("s′ = f1 − a + e = 1693 mm"): a bare s is the mirror equation's
    # object distance, not s_i stated wrong (trace 250) …
    cass = _variant("optics.cassegrain_camera_sampling", 0, 0)  # s_i 1693 mm (step 0)
    right = grade_steps(cass, "s′ = 1390 + 303 = 1693 mm; mirror equation with s = −500 mm." + CASS_REST)
    assert right.score == 1.0, right.steps
    # … while a wrong value under the steps' symbol or the name is still s_i stated wrong
    for wrong in ["s′ = 1600 mm; mirror equation with s = −500 mm.", "s′ = 1693 mm, so s_i = 1600 mm."]:
        g = grade_steps(cass, wrong + CASS_REST)
        assert (g.first_error, g.steps[0].reason) == ("s_i", "wrong_value"), (wrong, g.steps)


def test_the_symbol_the_steps_write_names_the_quantity() -> None:
    # the steps write s_o as s and s_i as s′: taking the other root swaps them, and s′ = 0.1261 m
    # is s_i stated wrong even though 2.124 m (s_i's value) stands under s (trace 253)
    proj = _variant("optics.projector_lens_conjugate_positions", 0, 0)  # s_o 126.1 mm, s_i 2.124 m, m 16.8
    swapped = grade_steps(proj, "I take s = 2.124 m, so s′ = 0.1261 m. m = s′/s = 0.0594."
                                "\nFinal answer: (a) 0.00146 m (b) 1.23e9 lx")
    assert [s.reason != "correct" for s in swapped.steps] == [True, True, True]
    assert swapped.steps[1].reason == "wrong_value"
    right = grade_steps(proj, "s = 126.1 mm, so s′ = 2.124 m and m = s′/s = 16.8."
                              "\nFinal answer: (a) 0.414 m (b) 15300 lx")
    assert right.score == 1.0, right.steps


def test_a_name_of_an_equal_quantity_gives_its_value() -> None:
    # V = max(V_a, V_b) = V_a here: "Adapter alone: V = … = 9.513 V" states V_a's value under V's
    # name, which cannot tell them apart (trace 97) …
    diode = _variant("electricity.diode_or_backup_battery", 0, 0)  # V_a = V = 9.513 V, V_b 7.081 V
    head = "r_1 = 12.2/4.56 = 2.675 Ω. Adapter alone: V = 12.2 × 9.47/12.145 = 9.513 V > 6.95 V"
    tail = (". Load voltage 9.513 V, load current 1.0045 A. P = 9.56 W."
            "\nFinal answer:\n(a) 1.00 A\n(b) 9.56 W\n(c) 78.0 %")
    right = grade_steps(diode, head + " (had both conducted, V_b = 7.081 V)" + tail)
    assert right.score == 1.0, right.steps
    # … but a value named for a quantity of another value is not this one's: 9.513 V under V_b
    # gives neither V_a nor V_b
    wrong = grade_steps(diode, "r_1 = 2.675 Ω. V_b = 9.513 V. Load voltage 9.513 V, load current 1.0045 A. "
                               "P = 9.56 W.\nFinal answer:\n(a) 1.00 A\n(b) 9.56 W\n(c) 78.0 %")
    assert [s.reason for s in wrong.steps][:3] == ["correct", "out_of_order", "wrong_value"], wrong.steps


# -- order follows the solution graph (trace 171) -----------------------------------------------
TANK_FINAL = "\nFinal answer:\n(a) 78.8 °C\n(b) 214 g\n(c) 25.1 J/K"


def test_order_follows_what_each_quantity_is_found_from() -> None:
    # T_c (from m1, T_open) and Q_v (from Q1) use neither each other: Q_v may come first
    tank = _variant("thermo.tank_relief_valve_heating", 0, 0)  # m1, T_open, Q1, T_c, Q_v (steps 0-4)
    assert tank.intermediates["Q_v"].uses == ("m1", "T_open", "Q1")
    assert tank.intermediates["T_c"].uses == ("m1", "T_open")
    right = grade_steps(tank, "m1 = 214.4 g, T_open = 414.9 K, Q1 = 17.83 kJ. The valve stays shut "
                              "(Q_v = 0 kJ), so T_c = 351.9 K." + TANK_FINAL)
    assert right.score == 1.0, right.steps
    # a quantity stated before one it is found from is still out of order (Q1 uses T_open) …
    early = grade_steps(tank, "m1 = 214.4 g, Q1 = 17.83 kJ, and the valve opens at T_open = 414.9 K. "
                              "Q_v = 0 kJ, T_c = 351.9 K." + TANK_FINAL)
    assert [s.reason for s in early.steps] == ["correct", "out_of_order", "correct", "correct", "correct"]
    # … and a wrong value stated first is still wrong
    wrong = grade_steps(tank, "m1 = 214.4 g, T_open = 414.9 K, Q1 = 17.83 kJ. Q_v = 3.2 kJ, "
                              "so T_c = 351.9 K." + TANK_FINAL)
    assert wrong.first_error == "Q_v" and wrong.steps[4].reason == "wrong_value"


def test_a_variant_that_records_no_graph_is_read_by_steps() -> None:
    # a variant written before intermediates recorded what they are found from: every earlier
    # step comes first, so T_c after Q_v is out of order
    tank = _variant("thermo.tank_relief_valve_heating", 0, 0)
    data = json.loads(tank.to_json())
    for item in data["intermediates"].values():
        del item["uses"]
    old = physgen.Variant.from_dict(data)
    assert old.intermediates["T_c"].uses is None
    g = grade_steps(old, "m1 = 214.4 g, T_open = 414.9 K, Q1 = 17.83 kJ. Q_v = 0 kJ, so T_c = 351.9 K."
                         + TANK_FINAL)
    assert g.first_error == "T_c" and g.steps[3].reason == "out_of_order"

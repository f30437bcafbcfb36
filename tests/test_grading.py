"""The grader: extraction, number and unit parsing, MC letters, algebra, and robustness."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physgen
from physgen.grading import Grade, grade, grade_answer
from physgen.reading.span import final_span

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "theoremqa"
DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("response", [
    "5.84e5 N/C", "5.8e5 N/C", "5.84 × 10^5 N/C", r"5.84\times10^{5} N/C", "5.84·10⁵ N/C",
    r"$5.84 \times 10^{5}\,\mathrm{N\,C^{-1}}$", "584 kN/C", "Final Answer: 584,000 N/C",
    "**Final Answer:** $E = 5.84 \\times 10^5$ N/C", r"\boxed{5.84 \times 10^{5}\ \text{N/C}}",
    "The answer is 5.84e5.", "5.84e5", "E ≈ 5.84 × 10⁵ V/m", "584 kV/m",
])
def test_many_ways_to_write_the_same_field(response: str) -> None:
    g = grade_answer(response, "5.84e5 N/C")
    assert g.correct, (response, g)


@pytest.mark.parametrize(("response", "expected"), [
    (r"a = 9.8 \text{m/s}^2", "9.81 m/s^2"), ("9.81 m/s²", "9.81 m/s^2"), ("12 Ω", "12 ohm"),
    ("4.7 kΩ", "4700 ohm"), ("3 μC", "3e-6 C"), ("3 µC", "3 uC"), ("20 meters", "20 m"),
    ("20 metres", "20 m"), ("45 degrees", "45 deg"), ("0.7854 rad", "45 deg"), ("25 °C", "298.15 K"),
    ("77 °F", "25 degC"), ("37.3%", "0.373"), ("37.3 %", "37.3 percent"),
    (r"T = 2\pi\sqrt{0.5/200} s", "0.314 s"), ("0.1π s", "0.314 s"), ("2π√(0.5/200) s", "0.314 s"),
    (r"\frac{1}{2} m", "0.5 m"), ("1,250 N", "1.25 kN"), ("-3.4 eV", "-3.4 eV"), ("0.5 ohms", "0.5 ohm"),
])
def test_units_and_notations(response: str, expected: str) -> None:
    assert grade_answer(response, expected).correct, (response, expected)


def test_bare_number_is_read_in_the_asked_unit() -> None:
    assert grade_answer("The answer is 35.3", "35.3 m").correct
    assert not grade_answer("The answer is 0.0353", "35.3 m").correct


def test_wrong_dimension_is_wrong_even_with_the_right_number() -> None:
    g = grade_answer("35.3 s", "35.3 m")
    assert not g.correct and g.parts[0].reason == "wrong_unit_dimension"


def test_english_words_are_not_units() -> None:
    assert grade_answer("It is 35.3 in the end", "35.3 m").correct  # not 35.3 inches


def test_tolerance() -> None:
    assert grade_answer("100.9 m", "100 m").correct
    assert not grade_answer("101.1 m", "100 m").correct
    assert grade_answer("103 m", "100 m", rtol=0.04).correct


def test_multi_part_by_letter_name_and_order() -> None:
    expected = {"R": "35.3 m", "t_flight": "2.04 s", "h_max": "5.10 m"}
    assert grade_answer("(a) 35.3 m\n(b) 2.04 s\n(c) 5.10 m", expected).correct
    assert grade_answer("a) 35.3 m b) 2.04 s c) 5.10 m", expected).correct
    assert grade_answer("R = 35.3 m, t_flight = 2.04 s, h_max = 510 cm", expected).correct
    assert grade_answer("Final Answer: 35.3 m, 2.04 s, 5.10 m", expected).correct
    g = grade_answer("(a) 35.3 m (c) 9 m", expected)
    assert [p.reason for p in g.parts] == ["correct", "missing", "wrong_value"]
    assert g.score == pytest.approx(1 / 3) and not g.correct


def test_labels_before_the_marker_are_not_recovered() -> None:
    """The final answer is the answer: what it does not give is missing (docs/grading.md §2)."""
    keys = {"R": "35.3 m", "t": "2.04 s"}
    text = "(a) R = 35.3 m.\n(b) The time is 2.04 s.\nFinal Answer: see above"
    assert [p.reason for p in grade_answer(text, keys).parts] == ["missing", "missing"]
    text = "(a) R = 35.3 m.\n(b) The time is 2.04 s.\nFinal Answer: (b) 2.04 s"
    assert [p.reason for p in grade_answer(text, keys).parts] == ["missing", "correct"]
    assert grade_answer("(a) 35.3 m\n(b) 2.04 s", {"R": "35.3 m", "t": "2.04 s"}).correct  # no marker


@pytest.mark.parametrize("response", ["C", "(C)", "**C**", "Answer: C", "C) 4.2 m", "The answer is C.",
                                      "I pick option (C) because ...", "Final answer: 4.2 m"])
def test_mc_letters(response: str) -> None:
    options = {"A": "1.0 m", "B": "2.0 m", "C": "4.2 m", "D": "8.4 m"}
    g = grade_answer(response, "C", options=options)
    assert g.correct, (response, g)


def test_mc_two_letters_is_ambiguous() -> None:
    g = grade_answer("Either (B) or (C)", "C", options=["1 m", "2 m", "4.2 m"])
    assert not g.correct and g.parts[0].reason == "ambiguous"


def test_mc_wrong_letter() -> None:
    g = grade_answer("Answer: A", "C", options=["1 m", "2 m", "4.2 m"])
    assert not g.correct and g.parts[0].reason == "wrong_value" and g.parts[0].parsed == "A"


def test_algebraic_answers_are_checked_for_equivalence(catalog: physgen.Catalog) -> None:
    v = next(v for v in physgen.generate(["mechanics.spring_mass_period_symbolic"], n=100)
             if set(v.inputs) == {"m", "k"} and "omega" in v.answers)  # the template's own names
    good = ["(a) ω = √(k/m) (b) T = 2π√(m/k)",
            r"(a) $\omega=\sqrt{\frac{k}{m}}$, (b) $T = 2\pi \sqrt{\frac{m}{k}}$",
            "(a) sqrt(k)/sqrt(m) (b) 2*pi/sqrt(k/m)", "(a) (k/m)^(1/2) (b) 6.2832 (m/k)^0.5"]
    for response in good:
        assert grade(v, response).correct, response
    g = grade(v, "(a) sqrt(k/m) (b) 2*pi*sqrt(k/m)")
    assert [p.reason for p in g.parts] == ["correct", "wrong_value"]
    g = grade(v, "(a) sqrt(k/x) (b) ???")
    assert [p.reason for p in g.parts] == ["unparseable", "unparseable"]


def test_grade_a_generated_variant(catalog: physgen.Catalog) -> None:
    for v in physgen.generate(catalog, n=1, seed=5, paraphrases=[0]):
        if v.metadata.question_type != "numerical":
            continue
        labels = "abcdefgh"
        right = "\n".join(f"({labels[i]}) {a.text}" for i, a in enumerate(v.answers.values()))
        g = grade(v, f"Working...\nFinal Answer:\n{right}")
        assert g.correct, (v.variant_id, right, g)  # shown answers are within 1 % by construction
        first = next(iter(v.answers.values()))
        wrong = grade(v, f"Final Answer: (a) {first.value * 1.5:.4g} {first.unit}")
        assert not wrong.correct


def test_answer_source_is_reported() -> None:
    assert final_span("blah\nThe answer is 3 m.\nThis answer is wrong.")[1] == "marker"
    assert final_span(r"so \boxed{3} m")[1] == "boxed"
    assert final_span("it is 3 m") == (None, "none")
    assert grade_answer("it is 3 m", "3 m").source == "last_quantity"
    assert grade_answer("", "3 m").source == "none"
    assert final_span("The answer is 22.\nThe answer is ") == ("22.", "marker")


HOSTILE = [
    "", " ", "\x00\x01\x02", "9**9**9**9 m", "1e999999 m", "(" * 5000 + "1" + ")" * 5000,
    "{" * 10000, "\\boxed{" * 3000, "__import__('os').system('echo hi')", "lambda: 1", "[1,2,4]",
    "Final Answer: " + "9" * 100000, "nan m", "inf m", "-0", "1/0 m", "sqrt(-1) m", "10^10^10^10",
    "Answer: " * 20000, "(a)" * 10000, "é" * 500000, "2" + "^2" * 5000, "\\frac{" * 4000,
    # unit text that used to reach Pint's parser and never return
    "5 m^9^9^9", "5 m 10^30000000", "4 m^2^2^2^2^2^2", "3 s^" + "9" * 4000, "2 m**99999999",
    "1 kg^(10^10)", "5 " + "m*" * 5000 + "m", "Final answer: 1e308*1e308 m",
]


@pytest.mark.parametrize("response", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_responses_are_graded_not_raised(response: str) -> None:
    for expected in ("3 m", {"a": "3 m", "b": "2 s"}):
        g = grade_answer(response, expected)
        assert isinstance(g, Grade) and not g.correct


def test_non_string_responses() -> None:
    assert not grade_answer(None, "3 m").correct  # type: ignore[arg-type]
    assert grade_answer(3, "3 m").correct  # type: ignore[arg-type]


@settings(max_examples=300)
@given(st.text(max_size=2000))
def test_fuzz_any_text_is_graded(text: str) -> None:
    g = grade_answer(text, {"a": "3.5 m/s", "b": "2 kg"})
    assert 0.0 <= g.score <= 1.0 and len(g.parts) == 2
    assert grade_answer(text, "B", options=["1", "2", "3"]).score in (0.0, 1.0)


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from(list("0123456789.eE+-×^{}()\\ timesfracsqrtpi/*mNsCkΩ°%")),
               max_size=300))
def test_fuzz_maths_like_text(text: str) -> None:
    grade_answer(text, "3 m")
    v = next(v for v in physgen.generate(["mechanics.spring_mass_period_symbolic"], n=100)
             if set(v.inputs) == {"m", "k"} and "omega" in v.answers)  # the template's own names
    grade(v, text)


_PIECES = st.sampled_from([
    "5", "3.2", "1e999", "10^", "^", "**", "×10^{", "}", "{", "(", ")", "\\frac{", "\\sqrt{", "\\boxed{",
    "m", "kg", "s^-2", "m^9^9^9", "Ω", "µ", "°C", " ", "\n", "=", "±", "−", "Final answer:", "(a)", "(b)",
    "A", "B", "not", "or", "between", "wait,", "$", "\\text{", "π", "√", "⁻¹", "Question:", "1 250", "|",
])


@settings(max_examples=300)
@given(st.lists(_PIECES, max_size=400).map("".join), st.integers(0, 3))
def test_fuzz_answer_like_pieces(text: str, repeat: int) -> None:
    """Pieces of real answers in any order and amount: graded, never raised."""
    text = text * (1 + 50 * repeat)
    for expected in ("3 m", {"a": "3.5 m/s", "b": "2 kg"}):
        g = grade_answer(text, expected)
        assert 0.0 <= g.score <= 1.0 and all(p.reason for p in g.parts)
    assert grade_answer(text, "B", options=["1 m", "2 m", "3 m"]).score in (0.0, 1.0)


def test_bad_expected_values_are_the_callers_error() -> None:
    with pytest.raises(ValueError, match="is not one quantity"):
        grade_answer("3 m", "three metres")
    with pytest.raises(ValueError, match="one option letter"):
        grade_answer("C", "4.2 m", options=["1 m"])
    with pytest.raises(ValueError, match="not one of the options"):
        grade_answer("C", "F", options=["1 m", "2 m"])


# -- real responses nobody here wrote --------------------------------------------------
def _theoremqa() -> list[dict]:  # type: ignore[type-arg]
    path = SHARED / "physics_responses.jsonl"
    if not path.exists():
        pytest.skip("../shared/data/theoremqa is not beside this checkout")
    return [json.loads(line) for line in path.read_text().splitlines()]


def _expected(gold: object) -> str | dict[str, str]:
    if isinstance(gold, list):
        return {str(i + 1): repr(float(x)) for i, x in enumerate(gold)}
    return repr(float(gold))  # type: ignore[arg-type]


def _theoremqa_correct(row: dict, g: Grade) -> bool:  # type: ignore[type-arg]
    """TheoremQA's rule: 4 % relative tolerance on bare numbers, integers by rounding."""
    if row["answer_type"] == "integer":
        value = g.parts[0].value
        return value is not None and round(value) == round(float(row["answer"]))
    return g.correct


def test_theoremqa_extraction_agrees_with_the_hand_checked_sample() -> None:
    rows = _theoremqa()
    checked = json.loads((DATA / "theoremqa_hand_checked.json").read_text())["responses"]
    assert len(checked) == 24
    for entry in checked:
        row = rows[entry["index"]]
        assert row["id"] == entry["id"] and row["model"] == entry["model"]
        g = grade_answer(row["response"], _expected(row["answer"]), rtol=0.04, ignore_units=True)
        if entry["stated_answer"] is None:
            assert g.source == "last_quantity", entry  # no committed answer: flagged as a guess
        else:
            assert g.parts[0].value == pytest.approx(entry["stated_answer"], rel=1e-9), entry


def test_theoremqa_corpus_read_rate_and_accuracy() -> None:
    rows = _theoremqa()
    assert len(rows) == 262
    read: dict[str, int] = {}
    right: dict[str, int] = {}
    for row in rows:
        g = grade_answer(row["response"], _expected(row["answer"]), rtol=0.04, ignore_units=True)
        m = row["model"]
        read[m] = read.get(m, 0) + all(p.value is not None for p in g.parts)
        right[m] = right.get(m, 0) + _theoremqa_correct(row, g)
    # measured 2026-11-23 with the reading pipeline; one verdict changed from the first grader,
    # read by hand: #192 repeats "The answer is 4.6 x 10^-34" in a loop and the old reader took
    # the loop's cut-off last copy "4."; the loop is now cut, and 4.6e-34 is within 4 % of 4.7e-34.
    assert sum(read.values()) >= 245, read
    assert right == {"Mistral-7B-v0.1 5-shot": 5, "InternLM2-Math-20B 5-shot": 17}, right


# -- issue 18: verdicts that survive real replies ------------------------------------------------
@pytest.mark.parametrize(("reply", "reason"), [
    ("Final answer: 198 kPa\n\nNOTE: a gauge reads only the water: the answer is 97.0 kPa.", "ambiguous"),
    ("Final answer: 198 kPa\n\nThat is about 1.95 atm.", "correct"),
    ("Final answer: 198 kPa. For comparison, the air alone gives 101 kPa.", "correct"),
    ("Final answer: 198 kPa\n201 kPa\n190 kPa", "ambiguous"),
    ("P = 198 kPa.\n\nFinal answer: I cannot determine this.", "unparseable"),
    ("Final answer: ±198 kPa", "ambiguous"),
    ("Final answer: 198 kPa or 198 kg or 198 s", "ambiguous"),
    ("Final answer: 198 kPa\u200b\u2063150 kPa", "ambiguous"),
    ("\\boxed{150 kPa} \\boxed{198 kPa} \\boxed{240 kPa}", "ambiguous"),
])
def test_the_final_answer_is_the_answer(reply: str, reason: str) -> None:
    assert grade_answer(reply, "198 kPa").parts[0].reason == reason


def test_a_letter_stands_as_a_choice_only() -> None:
    options = {"A": "1.0 m", "B": "2.0 m", "C": "4.2 m", "D": "8.4 m"}
    assert not grade_answer("Final answer: 7*B", "B", options=options).correct
    assert not grade_answer("y = B*sin(kx - ωt)", "B", options=options).correct
    assert grade_answer("Final answer: **(B)**", "B", options=options).correct
    assert grade_answer("so the field is 2.0 m -> B", "B", options=options).correct
    assert grade_answer("Final answer: (C) 2.0 m", "B", options=options).parts[0].reason == "ambiguous"
    assert grade_answer("Final answer: 2.0 m or -2.0 m", "B", options=options).parts[0].reason == "ambiguous"


def test_unit_words_and_absolute_temperatures() -> None:
    for reply in ("47.9 degrees Celsius", "47.9 deg C", "321.05 K", "118.2 °F"):
        assert grade_answer(f"Final answer: {reply}", "47.9 degC").correct, reply
    assert grade_answer("Final answer: ΔU = 5.0 J, W = 3 J", {"dU": "5.0 J", "W": "3 J"}).correct


def test_a_ninth_part_is_read() -> None:
    keys = {f"x{k}": f"{k + 1} m" for k in range(10)}
    reply = "Final answer:\n" + "\n".join(f"({'abcdefghij'[k]}) {k + 1} m" for k in range(10))
    assert grade_answer(reply, keys).correct


def test_a_power_in_dbm_converts_to_watts_and_back() -> None:
    """dBm is logarithmic: −5.18 dBm is 0.303 mW. Pint's affine map (two points) read it as
    −0.34 mW, so a right reply was graded wrong (cases written before the fix)."""
    assert grade_answer("Final answer: -5.18 dBm", "0.303 mW").correct
    assert grade_answer("Final answer: 0.303 mW", "-5.18 dBm").correct
    assert grade_answer("Final answer: 3 dBW", "2 W").correct
    assert not grade_answer("Final answer: -4.9 dBm", "0.303 mW").correct  # 0.324 mW, 7 % off
    assert not grade_answer("Final answer: 5 dB", "0.303 mW").correct  # a ratio, no power

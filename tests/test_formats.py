"""Every format, and every distractor property, over many instances of every template."""

from __future__ import annotations

import re
from collections import Counter

import pytest

import physgen
from physgen.algebraic import problem
from physgen.distractors import SEPARATION
from physgen.formats import FORMATS, get_format
from physgen.formats.probes import depends_on
from physgen.generation import count_variants
from physgen.grading import grade
from physgen.labels import OPTION_LETTERS as LETTERS
from physgen.reading.compare import RTOL as GRADING_RTOL
from physgen.reading.numbers import evaluate, normalise, to_python
from physgen.reading.quantity import read_value

CATALOG = physgen.load_catalog()
IDS = sorted(CATALOG)


def _far(a: float, b: float) -> bool:
    return abs(a - b) > SEPARATION * GRADING_RTOL * max(abs(a), abs(b))


#: Templates whose key is exactly zero in one regime (a temperature held at 0 °C while water freezes).
ZERO_KEYS = frozenset({"thermo.bottle_freezing_newton"})


@pytest.mark.parametrize("template_id", IDS)
def test_mc_numerical_distractors(template_id: str) -> None:
    t = CATALOG[template_id]
    variants = list(physgen.generate([t], n=25, seed=3, formats=["mc_numerical"], paraphrases="random"))
    if t.question_type != "numerical":
        assert variants == []
        return
    # a key of exactly 0 °C (water freezing) has no options within a factor 100: that part is skipped
    share = 0.75 if template_id in ZERO_KEYS else 0.95
    # an answer with a declared `range` keeps only the options inside it, and where too few remain
    # (temperatures 5 % apart in kelvin between two near reservoirs) that part is left out
    free = [a for a in t.spec.answers if a not in t.answer_ranges]
    per_part = count_variants([t], 25, ["mc_numerical"], "random") / len(t.spec.answers)
    assert sum(next(iter(v.answers)) in free for v in variants) >= share * per_part * len(free)
    for v in variants:
        assert len(v.options) == 4 and v.answer_key in v.options
        (answer,) = v.answers.values()
        assert v.options[v.answer_key] == answer.text
        assert len(set(v.options.values())) == 4, v.options
        values = []
        for text in v.options.values():
            found = read_value(text, answer.unit)
            assert found.value is not None, text
            values.append(found.value)
        # every option is far from every other, so the tolerant grader can never confuse them
        for i in range(4):
            for j in range(i):
                assert _far(values[i], values[j]), (v.variant_id, v.options)
        assert grade(v, f"The answer is {v.answer_key}.").correct
        wrong = next(k for k in v.options if k != v.answer_key)
        assert not grade(v, f"The answer is {wrong}.").correct


@pytest.mark.parametrize("template_id", IDS)
def test_mc_symbolic_distractors(template_id: str) -> None:
    t = CATALOG[template_id]
    variants = list(physgen.generate([t], n=4, seed=3, formats=["mc_symbolic"], paraphrases=[0],
                                     style="ascii"))
    if not get_format("mc_symbolic").applies(t):  # a solver's answers, or keys the grader cannot read
        assert variants == []
        return
    # algebraic templates too: their named mistakes are the options (every answer of a template may
    # have a declared range too narrow for four options apart: calorimetry's mixing temperature)
    assert variants or set(t.spec.answers) <= set(t.answer_ranges)
    for v in variants:
        (name, answer), = v.answers.items()
        shown = problem(t, 3, v.metadata.index)  # an algebraic instance writes its own names
        back = {} if shown is None else dict(zip(shown.names, t.spec.inputs, strict=True))
        words = re.compile(r"[A-Za-z_]\w*")
        template_names = words.sub(lambda m, back=back: back.get(m.group(0), m.group(0)), answer.expr)
        assert template_names == str(t.expressions[name])
        assert v.options[v.answer_key] == answer.text
        point = {n: t.input_si[back.get(n, n)].to_si(q.value) for n, q in v.inputs.items()}
        point.update({n: c.si_value for n, c in t.constants.items()})
        conv = t.answer_units[name]  # compared in the answer's unit, as the options were chosen (°C, not K)
        values = [float(conv.from_si(evaluate(to_python(normalise(text)), point)))
                  for text in v.options.values()]
        right = values[LETTERS.index(v.answer_key)]
        si = {back.get(n, n): x for n, x in point.items()}
        assert right == pytest.approx(float(conv.from_si(t.evaluate_si(si)[name])), rel=1e-9)
        for i in range(len(values)):  # options differ at the instance, beyond the grading tolerance
            for j in range(i):
                assert _far(values[i], values[j]), (v.variant_id, v.options)


def test_letters_are_uniform() -> None:
    variants = list(physgen.generate(CATALOG.filter(question_type="numerical"), n=12, seed=5,
                                     formats=["mc_numerical"], paraphrases="random"))
    counts = Counter(v.answer_key for v in variants)
    expected = len(variants) / 4
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in LETTERS[:4])
    assert chi2 < 16.3, counts  # 3 degrees of freedom, p ≈ 0.001; fixed seed, not flaky


def test_more_options() -> None:
    v = next(physgen.generate(["electricity.dc_motor_losses"], n=1, formats=["mc_numerical"], n_options=8))
    assert list(v.options) == list(LETTERS[:8])
    with pytest.raises(ValueError, match="n_options must be a whole number from 2 to 8"):
        physgen.generate(["electricity.dc_motor_losses"], formats=["mc_numerical"], n_options=9)


def test_named_mistakes_come_first() -> None:
    for v in physgen.generate(["electricity.dc_motor_losses"], n=20, seed=1, formats=["mc_numerical"]):
        if "R" not in v.answers:
            continue
        current, volts, F, d, t = (v.inputs[n].value for n in ("I", "V", "F", "d", "t"))
        forgot_square = (current * volts - F * d / t) / current
        unit = v.answers["R"].unit
        shown = {read_value(x, unit).value or 0.0 for x in v.options.values()}
        assert any(abs(x - forgot_square) <= 0.01 * forgot_square for x in shown)


def test_mc_symbolic_shows_symbols() -> None:
    v = next(physgen.generate(["mechanics.projectile_range"], n=1, formats=["mc_symbolic"]))
    question = v.prompt.split("\n\n")[0]
    assert "v₀" in question and "θ" in question and "9.81 m/s²" in question  # constants stay numeric
    assert "in terms of v₀, θ" in question or "in terms of v₀ and θ" in question


@pytest.mark.parametrize("template_id", IDS)
def test_units_probe_keeps_the_answer(template_id: str) -> None:
    t = CATALOG[template_id]
    pairs = zip(physgen.generate([t], n=5, seed=2, paraphrases=[1]),
                physgen.generate([t], n=5, seed=2, paraphrases=[1], formats=["units"]), strict=False)
    for free, probe in pairs:
        assert probe.answers == free.answers
        assert probe.prompt != free.prompt
        changed = [n for n in free.inputs if probe.inputs[n].unit != free.inputs[n].unit]
        assert changed
        for n in changed:
            same = physgen.ureg.Quantity(probe.inputs[n].value, probe.inputs[n].unit).to(
                free.inputs[n].unit or "dimensionless").magnitude
            assert same == pytest.approx(free.inputs[n].value, rel=1e-3)


def test_noop_adds_a_number_and_keeps_the_answer() -> None:
    for free, probe in zip(physgen.generate(CATALOG, n=1, seed=4, paraphrases=[2]),
                           physgen.generate(CATALOG, n=1, seed=4, paraphrases=[2], formats=["noop"]),
                           strict=True):
        assert probe.answers == free.answers
        extra = probe.prompt.replace(free.prompt.split("Find")[0].split("What")[0].split("Determine")[0], "")
        assert len(probe.prompt) > len(free.prompt) and any(ch.isdigit() for ch in extra)


def test_omitted_probe() -> None:
    for v in physgen.generate(CATALOG, n=1, seed=6, formats=["omitted"], paraphrases="random"):
        dropped = v.variant_id.rsplit(":", 1)[1]  # the template's name (an algebraic prompt may rename)
        t = CATALOG[v.template_id]
        assert dropped not in v.inputs and v.answer_key is None
        assert v.unanswerable and set(v.unanswerable) <= set(v.answers)
        if t.question_type == "algebraic" and set(v.answers) != set(t.spec.answers):
            continue  # a solved relation: tests/test_algebraic_variation.py
        assert len(v.inputs) == len(t.spec.inputs) - 1
        for name in v.answers:  # a part is unanswerable exactly when it needs the removed input
            assert (name in v.unanswerable) == (dropped in depends_on(t, name)), (v.variant_id, name)
        decline = "The problem does not give the " + dropped + ", so it cannot be determined."
        assert grade(v, decline).correct == (set(v.unanswerable) == set(v.answers))
        assert grade(v, get_format("omitted").reference(v)).correct
        assert not grade(v, "Final Answer: 42 m").correct


def test_every_format_round_trips() -> None:
    for fmt in FORMATS:
        for v in physgen.generate(CATALOG.filter(domain="optics"), n=1, formats=[fmt]):
            assert physgen.Variant.from_dict(v.to_dict()) == v


def test_count_variants_is_exact_for_non_mc_formats() -> None:
    for fmt in ("free_form", "units", "noop", "omitted"):
        got = sum(1 for _ in physgen.generate(CATALOG, n=2, formats=[fmt], paraphrases=[0]))
        assert got == count_variants(CATALOG, 2, [fmt], [0]), fmt


def test_symbolic_option_text_evaluates_like_its_expression() -> None:
    v = next(physgen.generate(["mechanics.projectile_range"], n=1, formats=["mc_symbolic"], style="ascii"))
    (answer,) = v.answers.values()
    point = {"v0": 20.0, "theta": 0.5, "g": 9.81}
    assert evaluate(to_python(normalise(v.options[v.answer_key])), point) == pytest.approx(
        evaluate(answer.expr or "", point))

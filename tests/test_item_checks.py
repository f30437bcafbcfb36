"""The checks of issue 17 (every item fair): each fails on a minimal bad template, naming the file,
the field and the fix, and passes on the fixed one."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

import physgen
from physgen.printed import rounded

from .conftest import good
from .test_bad_templates import load_error
from .test_validity import loads, masks_of

# -- implied quantities ---------------------------------------------------------------------------------

def rail(v_high: float) -> dict[str, Any]:
    """A cart accelerated for a time t: the rail it needs (v t / 2) is implied, not asked."""
    data = good()
    data["inputs"] = {"v": {"unit": "m/s", "range": [1, v_high]}, "t": {"unit": "s", "range": [0.5, 2]}}
    data["answers"] = {"a": {"expr": "v/t", "unit": "m/s^2", "ask": "the cart's acceleration"}}
    data["implied"] = {"x": {"expr": "v*t/2", "unit": "m", "range": [0, 2],
                             "what": "length of bench rail the cart runs"}}
    data["text"] = ["A cart starts from rest on a bench rail and reaches {{ v }} after {{ t }}. {{ asks }}",
                    "{{ asks }} Pushed from rest along a lab rail, a trolley needs {{ t }} to reach {{ v }}.",
                    "On an air track, a glider accelerates uniformly from rest; it moves at {{ v }} once "
                    "{{ t }} have passed. {{ asks }}"]
    data["steps"] = ["a = v/t = {{ a }}"]
    return data


def test_an_implied_quantity_out_of_range_in_most_draws_is_an_error_naming_it(tmp_path: Path) -> None:
    msg = load_error(tmp_path, rail(40))  # up to 40 m of "bench rail"
    assert "demo_speed.yaml: implied.x: the validity checks reject" in msg
    assert "'check:implied_x' alone rejects" in msg and "fix: narrow the input ranges" in msg


def test_the_fixed_rail_loads_and_every_instance_fits_the_bench(tmp_path: Path) -> None:
    t = loads(tmp_path, rail(2.5))
    masks = masks_of(t)
    assert "check:implied_x" in masks and masks["check:implied_x"].all()
    batch = t.sample(1000, seed=1)
    assert (batch.shown["v"] * batch.shown["t"] / 2 <= 2).all()
    # the unscreened draws do leave the bench, so the check is doing the work
    assert (t.draw_candidates(np.uint64(1), np.arange(1000, dtype=np.uint64), 0)["v"] * 2 / 2 > 2).any()


def test_an_implied_limit_of_another_kind_is_an_error(tmp_path: Path) -> None:
    data = rail(2.5)
    data["implied"]["x"]["limit"] = "household_power"
    msg = load_error(tmp_path, data)
    assert "implied.x.limit: the limit 'household_power' bounds a quantity in W, but x is in m" in msg
    assert "fix: use a limit of the quantity's kind" in msg


def test_an_implied_quantity_needs_a_bound(tmp_path: Path) -> None:
    data = rail(2.5)
    del data["implied"]["x"]["range"]
    msg = load_error(tmp_path, data)
    assert "implied.x" in msg and "needs a bound" in msg


def test_implied_quantities_are_shown_in_the_report(tmp_path: Path) -> None:
    from physgen.audit import audit

    row = audit(loads(tmp_path, rail(2.5)), draws=500)
    assert row.implied and row.implied[0].startswith("x ") and row.implied[0].endswith(" m")


# -- conditioning through the printed steps ------------------------------------------------------------

def entropy(figures: int) -> dict[str, Any]:
    """Two large entropy changes of opposite sign printed with ``figures`` figures, and their small sum."""
    data = good()
    data["id"] = "thermo.demo_entropy"
    data["domain"] = "thermodynamics"
    data["difficulty"] = 2  # three derived quantities, two deep, no laws declared
    data["inputs"] = {"C": {"unit": "J/K", "range": [2000, 9000]},
                      "T1": {"unit": "K", "range": [373, 420], "exact": True},
                      "T2": {"unit": "K", "range": [290, 300], "exact": True}}
    data["answers"] = {
        "dS1": {"expr": "C*log(T2/T1)", "unit": "J/K", "ask": "the entropy change of the block",
                "sign": "negative", "sig_figs": figures},
        "dS2": {"expr": "C*(T1 - T2)/T2", "unit": "J/K", "ask": "the entropy change of the lake",
                "sig_figs": figures},
        "dS": {"expr": "dS1 + dS2", "unit": "J/K", "ask": "the total entropy change"}}
    data["text"] = ["A block of heat capacity {{ C }} at {{ T1 }} is dropped into a lake at {{ T2 }}. "
                    "{{ asks }}",
                    "{{ asks }} A lake at {{ T2 }} swallows a hot body ({{ C }}) that was at {{ T1 }}.",
                    "Quenching: a part with heat capacity {{ C }}, initially {{ T1 }}, cools in a large "
                    "reservoir at {{ T2 }}. {{ asks }}"]
    data["steps"] = ["ΔS1 = C ln(T2/T1) = {{ dS1 }}", "ΔS2 = C (T1 − T2)/T2 = {{ dS2 }}", "ΔS = {{ dS }}"]
    return data


def test_a_total_its_printed_parts_miss_is_an_error_when_structural(tmp_path: Path) -> None:
    msg = load_error(tmp_path, entropy(2))  # -1.2e3 + 1.4e3: two figures cannot give the sum
    assert "demo_entropy.yaml: steps: the validity checks reject" in msg
    assert "'printed_steps' alone rejects" in msg
    assert "fix: print the values the steps use with more figures" in msg


def test_the_printed_values_need_the_whole_solution_order() -> None:
    """An order that misses a quantity is a bug of the caller, raised, not a printed-values check
    silently turned off."""
    import pytest

    from physgen.graph import solution_graph
    from physgen.printed import compile_printed
    from physgen.schema import TemplateSpec

    spec = TemplateSpec.model_validate(entropy(4))
    raw: dict[str, Any] = {}
    solution_graph(spec, raw)
    assert compile_printed(spec, ("dS1", "dS2", "dS"), raw)[1] == ("dS",)
    with pytest.raises(ValueError, match="does not list every answer and intermediate once"):
        compile_printed(spec, ("dS1", "dS"), raw)


def test_the_fixed_total_follows_from_its_printed_parts(tmp_path: Path) -> None:
    t = loads(tmp_path, entropy(4))
    assert t.printed_targets == ("dS",)
    masks = masks_of(t)
    assert masks["printed_steps"].all()
    batch = t.sample(1000, seed=1)
    parts = rounded(batch.answers["dS1"], 4) + rounded(batch.answers["dS2"], 4)
    assert (np.abs(parts - batch.answers["dS"]) <= 0.01 * np.abs(batch.answers["dS"])).all()


def test_an_intermediate_inside_an_answer_is_used_as_printed() -> None:
    from physgen.catalog import BUILTIN_ROOT, load_template

    t = load_template(BUILTIN_ROOT / "thermo" / "hot_block_in_lake_entropy.yaml")
    assert t.printed_targets == ("dS_lake", "dS_total")  # dS_lake = Q/T_L with Q printed in kJ
    batch = t.sample(300, seed=0)
    figures = {name: t.spec.answers[name].sig_figs for name in ("dS_block", "dS_lake")}
    assert figures == {"dS_block": 4, "dS_lake": 4}  # the repair: the two printed terms carry 4 figures
    q = rounded(batch.intermediates["Q"], 4) * 1e3  # printed in kJ, to 4 figures
    lake = q / batch.si["T_L"]
    assert (np.abs(lake - batch.answers["dS_lake"]) <= 0.01 * batch.answers["dS_lake"]).all()
    total = rounded(batch.answers["dS_block"], 4) + rounded(batch.answers["dS_lake"], 4)
    assert (np.abs(total - batch.answers["dS_total"]) <= 0.01 * batch.answers["dS_total"]).all()


# -- the naive answer is a named mistake, screened ------------------------------------------------------

def threshold(low: float) -> dict[str, Any]:
    """Kinetic energy to make a pair of mass m on a target of mass M: the naive answer is 2 m c²."""
    data = good()
    data["id"] = "modern.demo_threshold"
    data["domain"] = "modern_physics"
    data["inputs"] = {"m": {"unit": "MeV", "range": [0.5, 1]}, "M": {"unit": "MeV", "range": [low, 1e6]}}
    data["answers"] = {"K": {"expr": "2*m*(m + M)/M", "unit": "MeV", "ask": "the threshold kinetic energy"}}
    data["mistakes"] = [{"name": "naive", "K": "2*m"}]
    data["text"] = ["A pair of particles of rest energy {{ m }} each is made on a target of rest energy "
                    "{{ M }}. {{ asks }}",
                    "{{ asks }} A beam strikes a target of rest energy {{ M }} and makes a pair "
                    "({{ m }} each).",
                    "Pair production off a nucleus whose rest energy is {{ M }}; each new particle has "
                    "{{ m }}. {{ asks }}"]
    data["steps"] = ["K = 2m(m + M)/M = {{ K }}"]
    return data


def test_a_key_the_naive_answer_also_hits_is_an_error(tmp_path: Path) -> None:
    msg = load_error(tmp_path, threshold(1000))  # heavy targets: K ≈ 2 m c² to 0.1 %
    assert "demo_threshold.yaml: mistakes: the validity checks reject" in msg
    assert "'distinct_from_mistakes' alone rejects" in msg


def test_the_fixed_threshold_is_screened_apart_from_the_naive_answer(tmp_path: Path) -> None:
    data = threshold(1)
    data["inputs"]["M"]["range"] = [1, 20]
    t = loads(tmp_path, data)
    batch = t.sample(1000, seed=1)
    naive = 2 * batch.shown["m"]
    assert (np.abs(batch.answers["K"] - naive) > 0.05 * batch.answers["K"]).all()


# -- wording and options (physgen.fairness: listed at load and by `physgen validate`) --------------------

def found(t: physgen.Template, check: str) -> list[str]:
    return [str(p) for name, p in t.findings if name == check]


def marked(cut_inside: bool) -> dict[str, Any]:
    """Omit spans that take their own words with them, or leave "in" and "of" behind."""
    data = good()
    if cut_inside:
        data["text"] = ["A runner covers[[ a distance of {{ d }}]][[ in {{ t }}]]. {{ asks }}",
                        "{{ asks }} During a test[[ lasting {{ t }}]], a cart rolls"
                        "[[ a distance of {{ d }}]].",
                        "Timing gates record that an object travels[[ {{ d }}]] along a straight line"
                        "[[ in {{ t }}]]. {{ asks }}"]
    else:
        data["text"] = ["A runner covers a distance of[[ {{ d }}]] in[[ {{ t }}]]. {{ asks }}",
                        "{{ asks }} During a test lasting[[ {{ t }}]], a cart rolls a distance "
                        "of[[ {{ d }}]].",
                        "Timing gates record that an object travels[[ {{ d }}]] along a straight line in"
                        "[[ {{ t }}]]. {{ asks }}"]
    return data


def test_a_cut_that_leaves_a_dangling_word_names_the_paraphrase_and_the_fix(tmp_path: Path) -> None:
    t = loads(tmp_path, marked(cut_inside=False))
    problems = found(t, "omit_grammar")
    assert problems, t.findings
    assert any("demo_speed.yaml: text[0]: cutting the span of 't' leaves 'in.'" in p for p in problems)
    assert "fix: move the words that only make sense with " in problems[0]
    assert "inside its [[ … ]] span" in problems[0]
    assert any("text[0]: cutting the span of 'd' leaves 'of in'" in p for p in problems), problems
    assert any("text[1]: cutting the span of 'd' leaves 'of.'" in p for p in problems), problems


def test_cuts_that_take_their_words_with_them_pass(tmp_path: Path) -> None:
    t = loads(tmp_path, marked(cut_inside=True))
    assert found(t, "omit_grammar") == []


def test_the_grammar_heuristic_finds_the_audit_examples() -> None:
    from physgen.fairness import grammar_slips

    for broken in ("The photon carries; find its energy.", "The left arm has on top and R2 = 394 Ω below.",
                   "The gas is initially, at 253 K, sealed.", "An ideal diatomic gas (1.85 mol) starts.",
                   "A capacitor (plate area 491 cm², is charged."):
        assert grammar_slips(broken), broken
    for fine in ("The photon carries 2.1 eV.", "A block rests on a table, at rest.",
                 "R1 = 12 Ω is on top and R2 = 394 Ω below."):
        assert grammar_slips(fine) == [], fine


def asking(ask: str, unit: str = "m/s", expr: str = "d/t") -> dict[str, Any]:
    data = good()
    data["answers"]["v"].update({"ask": ask, "unit": unit, "expr": expr})
    if "c" in expr:
        data["constants"] = {"c": {"value": "speed_of_light", "common": True}}
    return data


def test_an_ask_whose_unit_phrase_contradicts_the_key_is_found(tmp_path: Path) -> None:
    t = loads(tmp_path, asking("the average speed (as a fraction of c)"))
    [problem] = found(t, "ask_unit")
    assert "demo_speed.yaml: answers.v.ask: 'the average speed (as a fraction of c)' asks for a fraction" \
        in problem and "fix: key the dimensionless ratio" in problem
    t = loads(tmp_path, asking("the average speed (in km/h)"))
    assert "names the unit 'km/h', but the key is in m/s" in found(t, "ask_unit")[0]


def test_an_ask_that_agrees_with_its_key_passes(tmp_path: Path) -> None:
    t = loads(tmp_path, asking("the average speed as a fraction of c", unit="", expr="d/(t*c)"))
    assert found(t, "ask_unit") == []
    t = loads(tmp_path, asking("the average speed (in m/s)"))
    assert found(t, "ask_unit") == []


def test_a_hostile_unit_in_an_ask_is_not_given_to_pint(tmp_path: Path) -> None:
    t = loads(tmp_path, asking("the average speed (in 9**9**9 m)"))  # Pint would compute 9**9**9
    assert found(t, "ask_unit") == []


def resonance(definition: str | None, text_extra: str = "") -> dict[str, Any]:
    data = good()
    data["id"] = "electricity.demo_q"
    data["domain"] = "electricity_and_magnetism"
    data["inputs"] = {"R": {"unit": "ohm", "range": [5, 20]}, "L": {"unit": "mH", "range": [10, 50]},
                      "C": {"unit": "uF", "range": [1, 5]}}
    data["answers"] = {"Q": {"expr": "sqrt(L/C)/R", "unit": "", "ask": "the quality factor Q of the circuit"}}
    if definition:
        data["answers"]["Q"]["definition"] = definition
    data["text"] = [f"A series RLC circuit has R = {{{{ R }}}}, L = {{{{ L }}}} and C = {{{{ C }}}}."
                    f"{text_extra} {{{{ asks }}}}",
                    f"{{{{ asks }}}} The circuit: {{{{ R }}}} in series with {{{{ L }}}} and {{{{ C }}}}."
                    f"{text_extra}",
                    f"In a tuner, a coil of {{{{ L }}}} and a capacitor of {{{{ C }}}} sit in series with "
                    f"{{{{ R }}}}.{text_extra} {{{{ asks }}}}"]
    data["steps"] = ["Q = √(L/C)/R = {{ Q }}"]
    return data


def test_a_quantity_with_rival_definitions_must_be_defined(tmp_path: Path) -> None:
    t = loads(tmp_path, resonance(None))
    [problem] = found(t, "definition")
    assert "demo_q.yaml: text[0]: Q (quality factor) is not defined" in problem
    assert "fix: state the definition in every paraphrase" in problem and "answers.Q.definition" in problem


def test_a_definition_phrase_in_every_paraphrase_passes(tmp_path: Path) -> None:
    extra = " Take Q = ω₀L/R."
    assert found(loads(tmp_path, resonance(None, extra)), "definition") == []
    assert found(loads(tmp_path, resonance("ω₀L/R", extra)), "definition") == []
    assert found(loads(tmp_path, resonance("resonant Q", "")), "definition")  # declared but not shown


def test_a_probability_without_its_named_limit_is_found_and_the_limit_fixes_it(tmp_path: Path) -> None:
    data = asking("the probability that the runner is late", unit="", expr="t/(t + 1*t)")
    [problem] = found(loads(tmp_path, data), "declared_range")
    assert "demo_speed.yaml: checks: v" in problem and "fix: add `{limit: probability, of: v}`" in problem
    data["checks"] = [{"limit": "probability", "of": "v"}]
    assert found(loads(tmp_path, data), "declared_range") == []


def test_answerability_is_numeric_an_input_that_cancels_is_not_needed(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["x"] = {"unit": "m", "range": [1, 5]}
    data["difficulty"] = 2  # two derived quantities
    data["answers"]["ratio"] = {"expr": "(d*x + d*d)/(d*(x + d)) + d/x", "unit": "",
                                "ask": "the ratio of the two distances plus one"}  # d cancels in part
    data["text"] = ["A runner covers[[ {{ d }}]][[ in {{ t }}]] after a warm-up of[[ {{ x }}]]. {{ asks }}",
                    "{{ asks }} During a test[[ lasting {{ t }}]], a cart rolls[[ {{ d }}]], then"
                    "[[ {{ x }}]] more.",
                    "Timing gates record that an object travels[[ {{ d }}]] in a straight line"
                    "[[ in {{ t }}]], and[[ {{ x }}]] before that. {{ asks }}"]
    t = loads(tmp_path, data)
    assert t.dependencies["v"] == frozenset({"d", "t"})
    assert t.dependencies["ratio"] == frozenset({"d", "x"})
    data["answers"]["ratio"]["expr"] = "(d*x + d*d)/(d*(x + d)) + x/x"  # now d cancels: depends on nothing
    t = loads(tmp_path, data)
    from physgen.formats.probes import depends_on

    assert t.dependencies["ratio"] == frozenset() == depends_on(t, "ratio")
    assert any("answers.ratio.expr: its expression uses 'd'" in p for p in found(t, "answerability"))


def test_a_regime_seen_only_when_the_input_falls_is_a_dependence(catalog: physgen.Catalog) -> None:
    """Moving each input up only missed these: at every measured point the flow is turbulent and the
    cylinder climbs the curb, and only a lower density (a laminar profile) or a lower g (no climb)
    changes the key. Without that given a student cannot tell the regime, so the part needs it."""
    assert "rho" in catalog["waves.ultrasonic_flowmeter_profile"].dependencies["Q"]
    assert "g" in catalog["mechanics.rolling_cylinder_meets_curb"].dependencies["E_lost"]


# -- options ------------------------------------------------------------------------------------------

def test_no_slip_that_changes_dimension_is_offered_for_a_quantity_with_one() -> None:
    from physgen.distractors import CHANGES_DIMENSION, candidates

    cat = physgen.load_catalog()
    t = cat["electricity.dc_motor_losses"]
    assert not CHANGES_DIMENSION & {name for name, _ in candidates(t, "R")}
    t = cat["thermo.stirling_regenerator"]
    assert t.answer_units["eta_plain"].si_unit == "dimensionless"
    assert CHANGES_DIMENSION & {name for name, _ in candidates(t, "eta_plain")}


def test_options_of_an_absolute_temperature_are_five_percent_apart_in_kelvin() -> None:
    from physgen.distractors import absolute_temperature
    from physgen.formats import FormatContext, get_format
    from physgen.instance import iter_instances

    cat = physgen.load_catalog()
    t = cat["thermo.mixing_water_entropy"]
    assert absolute_temperature(t, "T_f")
    fmt = get_format("mc_numerical")
    for inst in iter_instances(t.sample(20, seed=0)):
        for v in fmt.build(inst, 0, FormatContext()):
            if "T_f" not in v.answers:
                continue
            kelvin = sorted(float(text.split()[0].replace("−", "-")) + 273.15 for text in v.options.values())
            assert all(b - a > 0.05 * b for a, b in itertools.pairwise(kelvin)), v.options


def test_no_option_of_an_absolute_temperature_is_at_or_below_absolute_zero() -> None:
    """The kelvin spacing pushes options outward; none may cross 0 K (a wall between 21 °C and
    −6 °C was offered −565 °C; a spin system's negative temperatures stay negative)."""
    from physgen.distractors import absolute_temperature
    from physgen.formats import FormatContext, get_format
    from physgen.instance import iter_instances

    cat = physgen.load_catalog()
    fmt = get_format("mc_numerical")
    seen = 0
    for tid in sorted(cat):
        t = cat[tid]
        answers = [a for a in t.spec.answers if absolute_temperature(t, a)]
        if not answers or not fmt.applies(t):
            continue
        for inst in iter_instances(t.sample(10, seed=1)):
            for v in fmt.build(inst, 0, FormatContext()):
                (name,) = v.answers
                if name not in answers:
                    continue
                conv = t.answer_units[name]
                for text in v.options.values():
                    seen += 1
                    key = float(conv.to_si(float(v.options[v.answer_key].split()[0].replace("−", "-"))))
                    value = float(conv.to_si(float(text.split()[0].replace("−", "-"))))
                    assert value * key > 0, (tid, v.options)  # same side of 0 K as the key
    assert seen > 100


# -- algebraic templates: no given "defined" as itself ----------------------------------------------------

def symbolic_speed(phrase: str) -> dict[str, Any]:
    """An algebraic template whose givens show as symbols: 'v = {{ v }}' would print 'v = v'."""
    data = good()
    data["question_type"] = "algebraic"
    data["inputs"] = {"v": {"unit": "m/s", "range": [1, 10], "sig_figs": 3},
                      "t": {"unit": "s", "range": [1, 10], "sig_figs": 3}}
    data["answers"] = {"d": {"expr": "v*t", "unit": "m", "ask": "the distance covered"}}
    data["text"] = [f"A cart moves at constant speed{phrase} for a time {{{{ t }}}}. {{{{ asks }}}}",
                    f"{{{{ asks }}}} A trolley keeps a steady speed{phrase} during a time {{{{ t }}}}.",
                    f"For a time {{{{ t }}}}, a glider slides at constant speed{phrase}. {{{{ asks }}}}"]
    data["steps"] = ["d = v t = {{ d }}"]
    return data


def test_a_given_defined_as_itself_is_an_error_naming_the_paraphrase_and_the_fix(tmp_path: Path) -> None:
    msg = load_error(tmp_path, symbolic_speed(" v = {{ v }}"))
    assert "demo_speed.yaml: text[0]: prints the tautology 'v = v'" in msg
    assert "text[1]" in msg and "text[2]" in msg
    assert "fix: name the quantity and its symbol once" in msg


def test_a_given_named_once_passes(tmp_path: Path) -> None:
    t = loads(tmp_path, symbolic_speed(" {{ v }}"))
    v = next(physgen.generate([t], n=1, seed=0, paraphrases=[0]))
    assert "constant speed v for a time t" in v.prompt


# -- margins around a regime boundary (issue 19's audit) -------------------------------------------------

def test_the_rendezvous_draws_keep_clear_of_the_synodic_jump() -> None:
    """At phi0 = phi_req the wait jumps by a whole synodic period: every draw keeps the lead still to
    lose at least 0.25 rad above zero and 0.1 rad below a full turn, so rounding cannot flip it."""
    path = physgen.catalog.BUILTIN_ROOT / "mechanics" / "rendezvous_phasing_hohmann.yaml"
    t = physgen.load_catalog(path)["mechanics.rendezvous_phasing_hohmann"]
    batch = t.sample(4000, seed=3)
    si = batch.si
    n1 = np.sqrt(3.986e14 / (6.371e6 + si["h1"]) ** 3)
    n2 = np.sqrt(3.986e14 / (6.371e6 + si["h2"]) ** 3)
    lead = t.answer_units["t_wait"].to_si(batch.answers["t_wait"]) * (n1 - n2)
    assert lead.min() > 0.25 and lead.max() < 2 * np.pi - 0.1
    assert 0.15 < (lead > si["phi0"]).mean() < 0.85  # both regimes: a wait into the next cycle, or not

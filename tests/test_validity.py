"""Each item-validity check (issue 9): a minimal bad template is rejected with a message naming
the file, the field and the fix, and the fixed template loads and only draws instances that pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import physgen
from physgen import validity
from physgen.formats.noop_bank import BANK, usable
from physgen.formats.probes import omissible

from .conftest import good, write_template
from .test_bad_templates import load_error


def loads(tmp_path: Path, data: dict[str, Any]) -> physgen.Template:
    write_template(tmp_path, data)
    return physgen.load_catalog(tmp_path)[str(data["id"])]


def masks_of(t: physgen.Template, n: int = 2000) -> dict[str, np.ndarray]:
    batch = t.sample(n, seed=1)
    answers = {k: t.answer_units[k].to_si(v) for k, v in batch.answers.items()}
    return validity.screen(t, batch.shown, batch.si, answers)


# -- plausibility ---------------------------------------------------------------------------------------

def buoyancy(fluid_range: list[float]) -> dict[str, Any]:
    data = good()
    data.update({
        "id": "mechanics.demo_stone", "domain": "mechanics",
        "inputs": {"V": {"unit": "cm^3", "range": [50, 500]},
                   "rho_s": {"unit": "kg/m^3", "range": [2300, 2900], "label": "density of the stone"},
                   "rho_f": {"unit": "kg/m^3", "range": fluid_range}},
        "constants": {"g": "9.81 m/s^2"},
        "answers": {"T": {"expr": "(rho_s - rho_f)*V*g", "unit": "N", "ask": "the tension in the string"}},
        "checks": [{"limit": "liquid_density", "of": "rho_f"},
                   {"name": "stone_sinks", "expr": "rho_f < rho_s"}],
        "text": ["A stone of volume {{ V }} and density {{ rho_s }} hangs from a string, fully immersed in a "
                 "liquid of density {{ rho_f }}; take g = {{ g }}. {{ asks }}",
                 "{{ asks }} A rock ({{ V }}, {{ rho_s }}) is held under a liquid of density {{ rho_f }} by "
                 "a thread, with g = {{ g }}.",
                 "Hanging on a cord, a {{ V }} pebble of density {{ rho_s }} sits below the surface of a "
                 "{{ rho_f }} liquid (g = {{ g }}). {{ asks }}"],
        "steps": ["T = (ρ_s − ρ_f) V g = {{ T }}"],
    })
    return data


def test_a_check_that_rejects_most_draws_is_an_error_naming_the_check(tmp_path: Path) -> None:
    msg = load_error(tmp_path, buoyancy([600, 9600]))  # a stone in a liquid denser than stone
    assert "demo_stone.yaml: checks: the validity checks reject" in msg
    assert "'check:stone_sinks' alone rejects" in msg and "fix: narrow the input ranges" in msg


def test_the_fixed_scene_loads_and_every_instance_is_plausible(tmp_path: Path) -> None:
    t = loads(tmp_path, buoyancy([700, 2000]))
    masks = masks_of(t)
    assert set(masks) >= {"check:liquid_density", "check:stone_sinks"}
    assert all(m.all() for m in masks.values())
    rho_f, rho_s = t.sample(2000, seed=1).shown["rho_f"], t.sample(2000, seed=1).shown["rho_s"]
    assert (rho_f < rho_s).all() and (rho_f >= 600).all()


def test_unknown_limit_gets_a_suggestion(tmp_path: Path) -> None:
    data = buoyancy([700, 2000])
    data["checks"][0]["limit"] = "liquid_densty"
    msg = load_error(tmp_path, data)
    assert "checks[0].limit: there is no named limit 'liquid_densty'" in msg and "liquid_density" in msg


def test_a_limit_of_the_wrong_dimension_is_an_error(tmp_path: Path) -> None:
    data = buoyancy([700, 2000])
    data["checks"][0]["of"] = "rho_f*g"
    msg = load_error(tmp_path, data)
    assert "checks[0].of: has dimension" in msg and "kg/m^3" in msg and "fix: bound an expression" in msg


def test_a_check_that_is_not_an_inequality_is_an_error(tmp_path: Path) -> None:
    data = buoyancy([700, 2000])
    data["checks"][1]["expr"] = "rho_s - rho_f"
    msg = load_error(tmp_path, data)
    assert "checks[1].expr" in msg and "is not an inequality" in msg


def test_checks_may_bound_answers(tmp_path: Path) -> None:
    data = buoyancy([700, 2000])
    data["constants"]["T_max"] = "9 N"  # thresholds with units are constants, as in `constraints`
    data["checks"].append({"name": "string_holds", "expr": "T < T_max"})
    t = loads(tmp_path, data)
    assert (t.sample(3000, seed=2).answers["T"] < 9).all()


# -- conditioning -----------------------------------------------------------------------------------------

def beats(exact: bool) -> dict[str, Any]:
    data = good()
    data.update({
        "id": "waves.demo_beats", "domain": "waves_and_oscillations",
        "inputs": {"f1": {"unit": "Hz", "range": [440, 450], "sig_figs": 4, "exact": exact},
                   "f2": {"unit": "Hz", "range": [430, 438], "sig_figs": 4, "exact": exact}},
        "answers": {"fb": {"expr": "f1 - f2", "unit": "Hz", "ask": "the beat frequency"}},
        "text": ["Two tuning forks sound {{ f1 }} and {{ f2 }} together. {{ asks }}",
                 "{{ asks }} A piano string at {{ f1 }} is played against a fork at {{ f2 }}.",
                 "Two flutes, one playing {{ f1 }} and one {{ f2 }}, are heard at the same time. {{ asks }}"],
        "steps": ["f_b = f1 − f2 = {{ fb }}"],
    })
    return data


def test_an_ill_conditioned_difference_is_an_error_that_names_exact(tmp_path: Path) -> None:
    msg = load_error(tmp_path, beats(exact=False))
    assert "demo_beats.yaml: inputs: the validity checks reject" in msg and "'conditioning'" in msg
    assert "`exact: true`" in msg


def test_inputs_exact_by_statement_are_not_nudged(tmp_path: Path) -> None:
    t = loads(tmp_path, beats(exact=True))
    assert masks_of(t)["conditioning"].all()


def test_a_pure_power_is_not_ill_conditioned(tmp_path: Path) -> None:
    data = good()  # v ∝ d³: a 0.2 % nudge of d moves v by 0.6 %, but rounding cannot cancel here
    data["inputs"]["L"] = {"unit": "m", "range": [1, 2]}
    data["answers"]["v"] = {"expr": "d**3/(t*L**2)", "unit": "m/s", "ask": "the speed"}
    data["text"] = [s.replace("{{ t }}", "{{ t }} (scale {{ L }})") for s in data["text"]]
    t = loads(tmp_path, data)
    assert {("v", "d"), ("v", "t"), ("v", "L")} <= t.power_laws and masks_of(t)["conditioning"].all()


def test_cancellation_is_screened_out_instance_by_instance(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["d0"] = {"unit": "m", "range": [0.5, 9.5]}
    data["answers"]["v"]["expr"] = "(d - d0)/t"
    data["answers"]["v"]["sign"] = "any"
    for text in data["text"]:
        assert "{{ d }}" in text
    data["text"] = [s.replace("{{ d }}", "{{ d }} (from a mark {{ d0 }} along)") for s in data["text"]]
    t = loads(tmp_path, data)
    batch = t.sample(3000, seed=3)
    gap = np.abs(batch.shown["d"] - batch.shown["d0"])
    # nudging d by 0.2 % moves v by 0.2 % · d/|d − d0|, which must stay within half the tolerance
    assert (0.002 * batch.shown["d"] / gap <= 0.005 + 1e-9).all()


# -- degeneracy -------------------------------------------------------------------------------------------

def test_an_answer_equal_to_an_input_is_redrawn(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["u"] = {"unit": "m/s", "range": [1, 10]}
    data["answers"]["v"]["expr"] = "u + d/t/100"  # barely changes the given speed
    data["text"] = [s.replace("{{ d }}", "{{ d }} after starting at {{ u }}") for s in data["text"]]
    msg = load_error(tmp_path, data)
    assert "'distinct_from_inputs'" in msg and "fix: add a constraint keeping the answer away" in msg
    data["answers"]["v"]["expr"] = "u + d/t"
    t = loads(tmp_path, data)
    batch = t.sample(2000, seed=4)
    assert (np.abs(batch.answers["v"] - batch.shown["u"]) > 0.05 * batch.answers["v"]).all()


def test_a_mistake_that_lands_on_the_key_is_screened(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["theta"] = {"unit": "deg", "range": [5, 60]}
    data["answers"]["v"]["expr"] = "d/t*cos(theta)"
    data["mistakes"] = [{"name": "dropped_cosine", "v": "d/t"}]
    data["text"] = [s.replace("{{ d }}", "{{ d }} at {{ theta }} to the line") for s in data["text"]]
    t = loads(tmp_path, data)
    batch = t.sample(2000, seed=5)
    assert (np.cos(np.radians(batch.shown["theta"])) < 1 / 1.05 + 1e-12).all()  # cos θ ≈ 1 never kept


# -- paraphrases: assumptions and constants ---------------------------------------------------------------

def test_a_paraphrase_that_drops_an_assumption_is_an_error(tmp_path: Path) -> None:
    data = good()
    data["assumptions"] = {"constant_speed": ["steady", "constant speed", "uniform"]}
    data["text"][0] = "A runner covers {{ d }} at a steady pace in {{ t }}. {{ asks }}"
    data["text"][2] = ("Timing gates record that an object at constant speed needs {{ t }} to go {{ d }}. "
                       "{{ asks }}")
    msg = load_error(tmp_path, data)
    assert "text[1]: does not state the assumption 'constant_speed'" in msg
    assert "fix: say it in this paraphrase, or add its wording to `assumptions.constant_speed`" in msg
    data["text"][1] = "{{ asks }} During a test lasting {{ t }}, a cart rolls uniformly over {{ d }}."
    loads(tmp_path, data)


def test_an_answer_in_electronvolts_needs_e_shown(tmp_path: Path) -> None:
    data = good()
    data.update({"id": "modern.demo_photon", "domain": "modern_physics",
                 "inputs": {"lam": {"unit": "nm", "range": [200, 800]}},
                 "constants": {"h": {"value": "planck_constant", "unit": "J*s"},
                               "c": {"value": "speed_of_light", "unit": "m/s"}},
                 "answers": {"E": {"expr": "h*c/lam", "unit": "eV", "ask": "the photon energy"}},
                 "text": ["Light of {{ lam }} (h = {{ h }}, c = {{ c }}). {{ asks }}",
                          "{{ asks }} A photon has wavelength {{ lam }}; h = {{ h }}, c = {{ c }}.",
                          "A lamp emits at {{ lam }}, with h = {{ h }} and c = {{ c }} given. {{ asks }}"],
                 "steps": ["E = hc/λ = {{ E }}"]})
    msg = load_error(tmp_path, data)
    assert "constants: an answer is asked in electronvolts, but e is not given" in msg
    data["constants"]["e"] = {"value": "elementary_charge", "unit": "C"}
    msg = load_error(tmp_path, data)
    assert "text[0]: does not give the constant(s) ['e']" in msg
    data["text"] = [s.replace("c = {{ c }}", "c = {{ c }}, e = {{ e }}") for s in data["text"]]
    loads(tmp_path, data)


def test_a_constant_the_answer_needs_is_shown_unless_common(tmp_path: Path) -> None:
    data = good()
    data["constants"] = {"k": {"value": "2"}}
    data["answers"]["v"]["expr"] = "k*d/t"
    msg = load_error(tmp_path, data)
    assert "text[0]: does not give the constant(s) ['k']" in msg and "`common: true`" in msg
    data["constants"]["k"]["common"] = True
    loads(tmp_path, data)


# -- omit spans ---------------------------------------------------------------------------------------

def spanned() -> dict[str, Any]:
    data = good()
    data["text"] = ["A runner covers[[ {{ d }}]][[ in {{ t }}]]. {{ asks }}",
                    "{{ asks }} [[During a test lasting {{ t }}, ]]a cart rolls along the track"
                    "[[ for {{ d }}]].",
                    "Timing gates record that an object needs[[ {{ t }}]] to travel[[ {{ d }}]] in a line. "
                    "{{ asks }}"]
    return data


def test_omitted_removes_only_the_marked_mention(tmp_path: Path) -> None:
    t = loads(tmp_path, spanned())
    assert omissible(t) == ["d", "t"]
    variants = list(physgen.generate([t], n=3, seed=0, formats=["omitted"]))
    assert len(variants) == 9
    for v in variants:
        gone = v.variant_id.rsplit(":", 1)[1]
        kept = [n for n in ("d", "t") if n != gone]
        assert list(v.inputs) == kept and all(v.inputs[n].text in v.prompt for n in kept)
        assert "[[" not in v.prompt and "  " not in v.prompt.split("\n")[0] and " ." not in v.prompt
        assert v.unanswerable == ("v",)
    assert "[[" not in next(physgen.generate([t], n=1, formats=["free_form"])).prompt


@pytest.mark.parametrize(("text", "error"), [
    ("A runner covers[[ {{ d }} in {{ t }}]]. {{ asks }}", "holds 2 inputs"),
    ("A runner covers[[ {{ d }}]] in {{ t }}. {{ asks }}", "marks no omit span for input(s) ['t']"),
    ("A runner covers[[ {{ d }}]][[ in {{ t }}]], i.e. {{ d }}. {{ asks }}",
     "also appears outside its omit span"),
    ("A runner covers[[ {{ d }}[[ in {{ t }}]]]]. {{ asks }}", "unbalanced or nested omit marker"),
])
def test_bad_omit_spans_are_errors(tmp_path: Path, text: str, error: str) -> None:
    data = spanned()
    data["text"][0] = text
    msg = load_error(tmp_path, data)
    assert "text[0]" in msg and error in msg and "fix:" in msg


def test_supplied_inputs_are_never_omitted(tmp_path: Path) -> None:
    data = spanned()
    data["inputs"]["t"]["supplied"] = True
    data["text"][0] = "A runner covers[[ {{ d }}]] in {{ t }}. {{ asks }}"
    t = loads(tmp_path, data)
    assert omissible(t) == ["d"]
    assert {v.variant_id.rsplit(":", 1)[1] for v in physgen.generate([t], n=5, formats=["omitted"])} == {"d"}


# -- noop bank ------------------------------------------------------------------------------------------

def test_noop_sentences_never_share_a_kind_with_the_data(tmp_path: Path) -> None:
    t = loads(tmp_path, good())  # lengths and times: no sentence in metres, minutes or days
    kinds = {BANK["mechanics"][k][1] for k in usable(t)}
    assert kinds and not kinds & {"m", "min", "day", "s", "year"}
    for v in physgen.generate([t], n=20, seed=0, formats=["noop"]):
        added = v.prompt.split("\n")[0]
        assert not any(word in added for word in (" minutes ", " days ago", " m long", " m from"))


def test_a_template_the_bank_cannot_serve_is_an_error(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BANK, "mechanics", BANK["mechanics"][:3])  # °C, a count, minutes
    data = good()
    data["inputs"]["t"]["unit"] = "min"
    msg = load_error(tmp_path, data)
    assert "domain: only 2 of the 3 noop sentences of domain 'mechanics'" in msg and "noop_bank.BANK" in msg

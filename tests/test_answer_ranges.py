"""Answer ranges that depend on the instance (issue 17, options): ``answers.*.range`` bounds are
numbers or expressions in inputs and constants, checked for their dimension at load, the key
screened against them on the load-time draws, and every multiple-choice option kept inside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.ranges import instance_si, option_interval
from physgen.reading.quantity import read_value

from .conftest import good, write_template
from .test_bad_templates import load_error

N = 40


def mixing(bound: list[Any] | None = None) -> dict[str, Any]:
    """Hot and cold water mixed: the final temperature lies between the two given ones."""
    data = good()
    data.update({
        "id": "thermo.demo_mixing", "domain": "thermodynamics", "subdomain": ["calorimetry"],
        "inputs": {"m1": {"unit": "kg", "range": [0.2, 2]}, "T1": {"unit": "degC", "range": [60, 95]},
                   "m2": {"unit": "kg", "range": [0.2, 2]}, "T2": {"unit": "degC", "range": [5, 30]}},
        "answers": {"T_f": {"expr": "(m1*T1 + m2*T2)/(m1 + m2)", "unit": "degC",
                            "ask": "the final temperature of the mixture"}},
        "mistakes": [{"name": "temperatures_added", "T_f": "T1 + T2"},
                     {"name": "plain_mean", "T_f": "(T1 + T2)/2"},
                     {"name": "masses_swapped", "T_f": "(m2*T1 + m1*T2)/(m1 + m2)"}],
        "text": ["Hot water ({{ m1 }} at {{ T1 }}) is poured into cold water ({{ m2 }} at {{ T2 }}) in an "
                 "insulated jug. {{ asks }}",
                 "{{ asks }} A mass {{ m2 }} of water at {{ T2 }} is mixed with {{ m1 }} of water at "
                 "{{ T1 }}, with no heat lost.",
                 "In a well-lagged flask, {{ m1 }} of water initially at {{ T1 }} and {{ m2 }} of water at "
                 "{{ T2 }} reach a common temperature. {{ asks }}"],
        "steps": ["Heat lost by the hot water equals heat gained by the cold: T_f = {{ T_f }}."],
    })
    if bound is not None:
        data["answers"]["T_f"]["range"] = bound
    return data


def loads(tmp_path: Path, data: dict[str, Any]) -> physgen.Template:
    write_template(tmp_path, data)
    return physgen.load_catalog(tmp_path)[str(data["id"])]


def _options(t: physgen.Template, fmt: str, **kw: Any) -> list[tuple[physgen.Variant, float, float, float]]:
    """Each option's value with the interval it must lie in (numerical options only)."""
    out = []
    for v in physgen.generate([t], n=N, seed=1, formats=[fmt], paraphrases=[0], **kw):
        lo, hi = option_interval(t, "T_f", instance_si(t, v.inputs))
        for text in v.options.values():
            value = read_value(text, "degC").value
            assert value is not None, text
            out.append((v, value, lo, hi))
    return out


def test_options_stay_between_the_two_given_temperatures(tmp_path: Path) -> None:
    free = loads(tmp_path, mixing())
    outside = [value for v, value, *_ in _options(free, "mc_numerical")
               if not v.inputs["T2"].value <= value <= v.inputs["T1"].value]
    assert outside  # without the range, "T1 + T2" and generic slips leave it
    t = loads(tmp_path, mixing(["T2", "T1"]))
    made = _options(t, "mc_numerical")
    assert made
    for v, value, lo, hi in made:
        assert v.inputs["T2"].value <= value <= v.inputs["T1"].value, (v.options, lo, hi)
        assert (lo, hi) == pytest.approx((v.inputs["T2"].value, v.inputs["T1"].value))
    for v in physgen.generate([t], n=N, seed=1, formats=["mc_symbolic"], paraphrases=[0]):
        assert "T₁ + T₂" not in v.options.values(), v.options  # the named mistake outside the range


def test_too_few_options_inside_leaves_the_quantity_out_cleanly(tmp_path: Path) -> None:
    t = loads(tmp_path, mixing(["T2", "T1"]))
    wide = list(physgen.generate([t], n=N, seed=1, formats=["mc_numerical"], paraphrases=[0], n_options=8))
    assert len(wide) < N  # 8 options 5 % apart in kelvin do not fit between the two temperatures
    assert all(len(v.options) == 8 for v in wide)


@pytest.mark.parametrize(("bound", "field", "says", "fix"), [
    (["T2", "m1"], "answers.T_f.range[1]", "has dimension [mass]", "with the dimension of degC"),
    (["T2", "T_hot"], "answers.T_f.range[1]", "T_hot", "inputs and constants only"),
    (["T_f", "T1"], "answers.T_f.range[0]", "T_f", "inputs and constants only"),
    (["T1", None], "answers.T_f.range", "the key lies outside [T1, None]", "fix the range"),
    ([None, "T2"], "answers.T_f.range", "the key lies outside [None, T2]", "low first"),
    ([None, None], "answers.T_f.range", "needs at least one bound", ""),
    ([90, 10], "answers.T_f.range", "low < high", ""),
])
def test_a_bad_range_is_an_error_naming_file_field_and_fix(tmp_path: Path, bound: list[Any], field: str,
                                                          says: str, fix: str) -> None:
    message = load_error(tmp_path, mixing(bound))
    assert field in message and says in message and fix in message, message


def test_the_fixed_ranges_load(tmp_path: Path) -> None:
    for bound in (["T2", "T1"], [0, "T1"], ["T2", None], [5, 95]):
        t = loads(tmp_path, mixing(bound))
        assert "T_f" in t.answer_ranges


def test_catalog_options_lie_in_the_declared_ranges(catalog: physgen.Catalog) -> None:
    declared = [t for t in catalog.templates() if t.answer_ranges]
    assert len(declared) >= 25
    seen = 0
    for t in declared:
        if t.question_type != "numerical":
            continue
        for v in physgen.generate([t], n=3, seed=4, formats=["mc_numerical"], paraphrases=[0]):
            (name, answer), = v.answers.items()
            if name not in t.answer_ranges:
                continue
            lo, hi = option_interval(t, name, instance_si(t, v.inputs))
            for text in v.options.values():
                value = read_value(text, answer.unit).value
                assert value is not None and lo - 1e-9 * abs(lo) <= value <= hi + 1e-9 * abs(hi), \
                    (v.variant_id, text, lo, hi)
                seen += 1
    assert seen > 100

"""The whole built-in catalog keeps every guarantee of docs/validity.md (issue 9's sweep).

Screening is measured over 10,000 draws per template; instances, multiple-choice
options and probes over fewer (more with ``-m slow``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import physgen
from physgen import validity
from physgen.audit import audit
from physgen.cli import main
from physgen.distractors import MAX_RATIO as MAX_OPTION_FACTOR
from physgen.formats.noop_bank import BANK, usable
from physgen.formats.probes import omissible
from physgen.ranges import instance_si, option_interval
from physgen.reading.quantity import read_value
from physgen.units import to_si

CATALOG = physgen.load_catalog()
IDS = sorted(CATALOG)
NUMERICAL = [i for i in IDS if CATALOG[i].question_type == "numerical"]
#: Templates still to repair (issue 17): (template, check) pairs that `physgen.fairness` finds, each
#: with its reason; exactly the current findings, so a repair must remove its entry.
PENDING = Path(__file__).parent / "data" / "pending_repairs.json"


def test_the_pending_repairs_are_exactly_the_current_findings() -> None:
    listed = json.loads(PENDING.read_text(encoding="utf-8"))
    assert all(set(row) == {"template", "check", "reason"} and row["reason"] for row in listed)
    pending = {(row["template"], row["check"]) for row in listed}
    assert len(pending) == len(listed), "a (template, check) pair is listed twice"
    found = {(i, check) for i in IDS for check, _ in CATALOG[i].findings}
    assert not found - pending, f"new findings (see `physgen validate`): {sorted(found - pending)}"
    assert not pending - found, f"repaired: remove from {PENDING.name}: {sorted(pending - found)}"


@pytest.mark.parametrize("template_id", IDS)
def test_audit_at_10000_draws_finds_nothing(template_id: str) -> None:
    row = audit(CATALOG[template_id], draws=10_000)
    assert row.errors == [], row


@pytest.mark.parametrize("size", [pytest.param(300, id="300"),
                                  pytest.param(10_000, id="10000", marks=pytest.mark.slow)])
@pytest.mark.parametrize("template_id", IDS)
def test_every_drawn_instance_passes_every_check(template_id: str, size: int) -> None:
    t = CATALOG[template_id]
    batch = t.sample(size, seed=5)
    answers = {n: t.answer_units[n].to_si(v) for n, v in batch.answers.items()}
    for name, mask in validity.screen(t, batch.shown, batch.si, answers).items():
        assert mask.all(), (name, int((~mask).sum()))


@pytest.mark.parametrize("size", [pytest.param(5, id="5"),
                                  pytest.param(200, id="200", marks=pytest.mark.slow)])
@pytest.mark.parametrize("template_id", NUMERICAL)
def test_every_multiple_choice_option_is_plausible(template_id: str, size: int) -> None:
    t = CATALOG[template_id]
    for v in physgen.generate([t], n=size, seed=8, formats=["mc_numerical"], paraphrases=[0]):
        name = next(iter(v.answers))
        key = v.answers[name].value
        lo, hi = option_interval(t, name, instance_si(t, v.inputs))  # declared ranges at the instance
        for letter, text in v.options.items():
            if letter == v.answer_key:
                continue
            reading = read_value(text, v.answers[name].unit)
            assert reading.status == "ok", (text, reading)
            value = reading.value
            assert value is not None and lo <= value <= hi, (v.variant_id, text, (lo, hi))
            ratio = abs(value / key)
            assert 0.99 / MAX_OPTION_FACTOR <= ratio <= 1.01 * MAX_OPTION_FACTOR, (text, key)  # as shown


@pytest.mark.parametrize("template_id", NUMERICAL)
def test_omitted_keeps_every_other_given(template_id: str) -> None:
    t = CATALOG[template_id]
    assert omissible(t), f"{template_id} marks no omit spans"
    variants = list(physgen.generate([t], n=4, seed=2, formats=["omitted"]))
    assert len(variants) == 4 * len(t.texts)
    for v in variants:
        gone = v.variant_id.rsplit(":", 1)[1]
        assert gone in omissible(t) and not t.spec.inputs[gone].supplied
        free = next(physgen.generate([t], n=1, seed=2, start=v.metadata.index, formats=["free_form"],
                                     paraphrases=[v.paraphrase]))
        others = [q.text for n, q in free.inputs.items() if n != gone]
        short = len(free.inputs[gone].text) < 3  # "3" also stands in "n = 3 → 1" or a constant's digits
        if not short and not any(free.inputs[gone].text in text for text in others):
            assert free.inputs[gone].text not in v.prompt, v.prompt
        for name, q in free.inputs.items():
            if name != gone:
                assert q.text in v.prompt, (name, v.prompt)
        assert "[[" not in v.prompt and "]]" not in v.prompt


@pytest.mark.parametrize("template_id", IDS)
def test_noop_sentences_state_no_quantity_of_the_templates_kinds(template_id: str) -> None:
    t = CATALOG[template_id]
    kinds = {to_si(i.unit).si_unit for i in t.spec.inputs.values()}
    kinds |= {to_si(a.unit).si_unit for a in t.spec.answers.values()}
    chosen = usable(t)
    assert len(chosen) >= 3
    assert all(to_si(BANK[t.domain][k][1]).si_unit not in kinds for k in chosen)


def test_the_report_lists_every_template(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--report", "--draws", "200", "--pending", str(PENDING)]) == 0
    out = capsys.readouterr().out
    assert all(i in out for i in IDS) and "0 template(s) with notes" in out

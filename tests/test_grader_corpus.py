"""The hand-verdict corpus: replies judged by hand, before any grader ran, against
docs/grading.md. The grader must agree on at least 98 % of them, and every
disagreement is listed, with its reason, in ``disagreements.json`` beside them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import physgen

CORPUS = Path(__file__).parent / "data" / "grader_corpus"
#: Records whose hand verdict the grader does not reproduce, each with the reason.
DISAGREEMENTS: dict[str, str] = json.loads((CORPUS / "disagreements.json").read_text(encoding="utf-8"))


def _records() -> list[dict[str, Any]]:
    out = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


RECORDS = _records()


def _verdicts(record: dict[str, Any]) -> dict[str, bool]:
    g = physgen.grade(physgen.Variant.from_dict(record["variant"]), record["reply"], timeout=5.0)
    return {p.name: p.correct for p in g.parts}


def test_the_corpus_is_large_and_covers_every_format_and_style() -> None:
    assert len(RECORDS) >= 300
    assert len({r["id"] for r in RECORDS}) == len(RECORDS)
    formats = {r["variant"]["format"] for r in RECORDS}
    assert formats >= {"free_form", "mc_numerical", "mc_symbolic", "units", "noop", "omitted", "code"}
    assert {r["style"] for r in RECORDS} == {"unicode", "latex", "ascii"}
    for r in RECORDS:
        assert list(r["verdict"]) == list(r["variant"]["answers"]), r["id"]
        assert r["correct"] == all(r["verdict"].values()), r["id"]


def test_agreement_with_hand_verdicts() -> None:
    disagree = {}
    for r in RECORDS:
        got = _verdicts(r)
        if got != r["verdict"]:
            disagree[r["id"]] = (got, r["verdict"])
    agreement = 1 - len(disagree) / len(RECORDS)
    unexplained = sorted(set(disagree) - set(DISAGREEMENTS))
    stale = sorted(set(DISAGREEMENTS) - set(disagree))
    assert not unexplained, {k: disagree[k] for k in unexplained}
    assert not stale, f"listed as disagreements but now agree: {stale}"
    assert all(len(why) > 20 for why in DISAGREEMENTS.values()), "each disagreement needs its reason"
    assert agreement >= 0.98, f"agreement {agreement:.3f}"

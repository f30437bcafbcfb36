"""Replies to every algebraic template, written the ways models write mathematics, with verdicts.

197 replies to the 37 algebraic templates (instance 0 under seed 11, paraphrase 0, in the
unicode and the LaTeX style), 109 right and 88 wrong, were written with their verdicts by a
helper who solved each problem from its prompt alone, before the grader was run on them
(27 November, second session; ``tests/data/algebraic_reply_cases.jsonl``, ``why`` says what each
tests). The first run agreed on 176: all 21 misses were right replies the grader could not read
(LaTeX subscripts run into the next letter, ``\\varepsilon``, ``\\ell``, ``\\( \\)`` and ``\\[ \\]``,
``\\left[ \\right]``, ``½``, ``ln2``, an exact form followed by ``≈`` and a decimal). No verdict was
changed after the run.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import physgen
from physgen.grading import grade

DATA = Path(__file__).parent / "data" / "algebraic_reply_cases.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


def test_the_cases_cover_every_algebraic_template_in_both_styles(catalog: physgen.Catalog) -> None:
    keys = {c["key"] for c in CASES}
    algebraic = {t.id for t in catalog.filter(question_type="algebraic").templates()}
    assert {k.split("|")[0] for k in keys} == algebraic
    assert {k.split("|")[1] for k in keys} == {"unicode", "latex"}
    assert sum(c["right"] for c in CASES) > 100 and sum(not c["right"] for c in CASES) > 80


def test_every_verdict_is_the_hand_verdict(catalog: physgen.Catalog) -> None:
    @cache
    def variant(key: str) -> physgen.Variant:
        tid, style = key.split("|")
        return next(physgen.generate([catalog[tid]], n=1, seed=11, paraphrases=[0], style=style))  # type: ignore[arg-type]

    missed = [(c["key"], c["right"], c["reply"][-160:]) for c in CASES
              if grade(variant(c["key"]), c["reply"]).correct is not c["right"]]
    print(f"algebraic reply cases: {len(CASES) - len(missed)}/{len(CASES)} agree")
    assert not missed

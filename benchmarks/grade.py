"""Responses graded per second: free-form single answers from the catalog, and TheoremQA.

Builds realistic responses to generated variants (a line of working, then
"Final Answer: <value> <unit>", half of them in another unit or notation, some
wrong), grades them with ``physgen.grade``, and prints the rate; then the same
for the 262 real TheoremQA responses (long, messy generations) if present.

Run: ``python benchmarks/grade.py`` (one core; prints rates, asserts nothing).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import physgen
from physgen.grading import grade, grade_answer

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "theoremqa"


def single_answer_responses(n: int) -> list[tuple[physgen.Variant, str]]:
    rng = random.Random(0)
    catalog = physgen.load_catalog().filter(question_type="numerical")
    single = [t for t in catalog.templates() if len(t.answer_names) == 1]
    variants = list(physgen.generate(single, n=max(n // (3 * len(single)), 1), seed=1))
    out = []
    for k in range(n):
        v = variants[k % len(variants)]
        a = next(iter(v.answers.values()))
        value = a.value * (1.0 if rng.random() < 0.7 else rng.choice([0.5, 2.0, -1.0]))
        style = rng.randrange(4)
        if style == 0:
            text = f"{value:.3g} {a.unit}"
        elif style == 1:
            text = f"{value:.3e}".replace("e", " × 10^") + f" {a.unit}"
        elif style == 2:
            text = f"**{value:.4g}**"
        else:
            text = f"$\\boxed{{{value:.3g}}}$ {a.unit}"
        working = "Using the formula from the question we substitute the values."
        out.append((v, f"{working}\nFinal Answer: {text}"))
    return out


def main() -> None:
    cases = single_answer_responses(20_000)
    for v, r in cases[:200]:  # warm the unit caches, as a long grading run would
        grade(v, r)
    start = time.perf_counter()
    right = sum(grade(v, r).correct for v, r in cases)
    dt = time.perf_counter() - start
    rate = len(cases) / dt
    print(f"free-form single answers: {len(cases)} graded in {dt:.2f} s = {rate:,.0f}/s "
          f"({right} correct); target >= 5,000/s: {'met' if rate >= 5000 else 'NOT met'}")
    path = SHARED / "physics_responses.jsonl"
    if path.exists():
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        start = time.perf_counter()
        for row in rows:
            gold = row["answer"]
            expected = ({str(i): repr(float(x)) for i, x in enumerate(gold)} if isinstance(gold, list)
                        else repr(float(gold)))
            grade_answer(row["response"], expected, rtol=0.04, ignore_units=True)
        dt = time.perf_counter() - start
        print(f"TheoremQA responses (mean {sum(len(r['response']) for r in rows) / len(rows):,.0f} chars): "
              f"{len(rows) / dt:,.0f}/s")


if __name__ == "__main__":
    main()

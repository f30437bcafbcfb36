"""Grading speed and agreement, measured in one run.

1. Free-form single answers: realistic replies to generated variants (a line of
   working, then "Final Answer: <value> <unit>" in several notations, some
   wrong), graded with ``physgen.grade``: grades per second.
2. The hand-verdict corpus (``tests/data/grader_corpus``): agreement with the
   hand verdicts and grades per second, for physgen and for Math-Verify (the usual
   peer, ``pip install math-verify``) on the replies it can judge (all but the
   omitted-data probes and code answers); the ratio of the two rates.
3. The 262 real TheoremQA responses (long, messy generations), if present.
4. Step-level grading (``grade(..., steps=True)``): worked-solution replies to variants
   of the templates with intermediates, some with a slipped step, a skipped step or
   wrong answers; replies per second, and the ratio to grading the same replies
   without steps. Target: at least 1,000 replies/s.

Run: ``python benchmarks/grade.py`` (one core; prints figures, asserts nothing).
"""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import physgen
from physgen.grading import grade, grade_answer

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "theoremqa"
CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "grader_corpus"


def corpus() -> list[dict]:  # type: ignore[type-arg]
    rows = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows


def corpus_agreement() -> None:
    rows = corpus()
    variants = [physgen.Variant.from_dict(r["variant"]) for r in rows]
    start = time.process_time()
    agree = sum({p.name: p.correct for p in grade(v, r["reply"]).parts} == r["verdict"]
                for v, r in zip(variants, rows, strict=True))
    ours = time.process_time() - start
    print(f"hand-verdict corpus: physgen agrees on {agree}/{len(rows)} = {agree / len(rows):.1%} "
          f"({len(rows) / ours:,.0f} grades/s, code answers included)")
    try:
        from math_verify import parse, verify
    except ImportError:
        print("Math-Verify is not installed (pip install math-verify): no comparison")
        return
    judged = [(v, r) for v, r in zip(variants, rows, strict=True) if v.format not in ("omitted", "code")]
    mine = sum({p.name: p.correct for p in grade(v, r["reply"]).parts} == r["verdict"] for v, r in judged)
    start = time.process_time()
    theirs = 0
    for v, r in judged:
        gold = v.answer_key if v.options else ", ".join(a.text.strip("$") for a in v.answers.values())
        try:
            said = bool(verify(parse(f"${gold}$"), parse(r["reply"])))
        except Exception:  # a peer's failure is a wrong verdict, as it would be for us
            said = False
        theirs += said == r["correct"]
    peer = time.process_time() - start
    print(f"  on the {len(judged)} replies both can judge: physgen {mine / len(judged):.1%}, "
          f"Math-Verify {theirs / len(judged):.1%} ({len(judged) / peer:,.0f} grades/s)")


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


def step_responses(n: int) -> list[tuple[physgen.Variant, str]]:
    from physgen.formats.quantities import reference_quantities

    rng = random.Random(1)
    templates = [t for t in physgen.load_catalog().templates() if t.spec.intermediates]
    variants = list(physgen.generate(templates, n=max(n // (3 * len(templates)), 1), seed=2))
    out = []
    for k in range(n):
        v = variants[k % len(variants)]
        steps = list(v.steps)
        names = list(v.intermediates)
        roll = rng.random()
        if roll < 0.3:  # a slip: one intermediate off by 20 %
            item = v.intermediates[names[rng.randrange(len(names))]]
            steps = [s.replace(item.text, f"{item.value * 1.2:.3g} {item.unit}") for s in steps]
        elif roll < 0.45:  # a skipped step
            steps.pop(rng.randrange(len(steps)))
        answer = reference_quantities(v) if rng.random() < 0.7 else "Final answer: 42"
        out.append((v, "Let me work through it.\n" + "\n".join(steps) + "\n" + answer))
    return out


def step_grading(repeats: int = 3) -> None:
    cases = step_responses(5_000)
    for v, r in cases[:200]:  # warm the caches
        grade(v, r, steps=True)
    bare = dt = math.inf  # the best of a few runs, as timeit does: the others measure the machine's load
    for _ in range(repeats):
        start = time.process_time()
        plain = sum(grade(v, r).correct for v, r in cases)
        bare = min(bare, time.process_time() - start)
        start = time.process_time()
        scores = [grade(v, r, steps=True).steps for v, r in cases]
        dt = min(dt, time.process_time() - start)
    rate = len(cases) / dt
    right = sum(s is not None and s.first_error is None for s in scores)
    mean = sum(len(r) for _, r in cases) / len(cases)
    print(f"step grading (answers and steps, best of {repeats} runs): {len(cases)} replies "
          f"(mean {mean:,.0f} chars) in {dt:.2f} s CPU = {rate:,.0f}/s "
          f"({right} with every step right, {plain} answers right); "
          f"{dt / bare:.1f}x the time of grading answers only ({len(cases) / bare:,.0f}/s); "
          f"target >= 1,000/s: {'met' if rate >= 1000 else 'NOT met'}")


def _lengthened(v: physgen.Variant, reply: str, target: int, rng: random.Random) -> str:
    """``reply`` with reasoning before it (restated givens, checked steps, prose) up to about
    ``target`` characters: the shape of a long worked solution."""
    givens = [f"{name} = {q.text}" for name, q in v.inputs.items()]
    filler = [f"The problem gives {g}." for g in givens] + [f"Checking this step again: {s}" for s in v.steps]
    filler += ["First, identify what is asked and which relations connect the quantities.",
               "The units must agree before any number is substituted, so convert to SI first.",
               "A rough estimate helps to catch slips of a factor of 10 in the arithmetic."]
    head = []
    while sum(len(x) + 1 for x in head) + len(reply) < target:
        head.append(rng.choice(filler))
    return "\n".join(head) + "\n" + reply


def step_lengths(sizes: tuple[int, ...] = (500, 1000, 2000, 4000), count: int = 1500) -> None:
    """Step grading rate by reply length (cost should grow linearly with length)."""
    rng = random.Random(3)
    base = step_responses(count)
    line = []
    for size in sizes:
        cases = [(v, _lengthened(v, r, size, rng)) for v, r in base]
        mean = sum(len(r) for _, r in cases) / len(cases)
        dt = math.inf
        for _ in range(3):
            start = time.process_time()
            for v, r in cases:
                grade(v, r, steps=True)
            dt = min(dt, time.process_time() - start)
        per_char = dt / len(cases) / mean * 1e9
        line.append(f"{mean:,.0f} chars {len(cases) / dt:,.0f}/s ({per_char:,.0f} ns/char)")
    print("step grading by reply length (best of 3): " + "; ".join(line)
          + " (targets: 1,000/s at 500 chars, 400/s at 2,000)")


def main() -> None:
    cases = single_answer_responses(20_000)
    for v, r in cases[:200]:  # warm the unit caches, as a long grading run would
        grade(v, r)
    start = time.process_time()  # CPU time on one core: the machine is shared
    right = sum(grade(v, r).correct for v, r in cases)
    dt = time.process_time() - start
    rate = len(cases) / dt
    print(f"free-form single answers: {len(cases)} graded in {dt:.2f} s = {rate:,.0f}/s "
          f"({right} correct); target >= 5,000/s: {'met' if rate >= 5000 else 'NOT met'}")
    corpus_agreement()
    step_grading()
    step_lengths()
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

"""Headline metrics with 1,000-resample bootstrap CIs over 1,000,000 graded rows, against a
plain-Python loop baseline, in one run.

The baseline computes the same numbers the obvious way: a dict of per-group
lists, and a Python loop that resamples groups for each of the 1,000 bootstrap
draws. Run: ``python benchmarks/metrics.py`` (one core; prints times and ratios).
"""

from __future__ import annotations

import random
import time

from physgen import metrics

ROWS = 1_000_000
RESAMPLES = 1_000


def make_rows(n: int) -> list[dict[str, object]]:
    rng = random.Random(0)
    formats = ["free_form", "mc_numerical", "units", "noop"]
    return [{"template_id": f"t{i % 140}", "instance_id": f"i{i % 20000}", "variant_id": f"v{i % 250000}",
             "format": formats[i % 4], "paraphrase": i % 3, "attempt": i // 250000,
             "correct": rng.random() < 0.3 + (i % 140) / 300, "score": rng.random()} for i in range(n)]


def baseline(rows: list[dict[str, object]], resamples: int) -> dict[str, tuple[float, float, float]]:
    groups: dict[object, list[float]] = {}
    for r in rows:
        groups.setdefault(r["template_id"], []).append(float(bool(r["correct"])))
    names = list(groups)
    rng = random.Random(0)

    def stats(sample: list[object]) -> tuple[float, float]:
        hits = sum(sum(groups[g]) for g in sample)
        n = sum(len(groups[g]) for g in sample)
        accs = [sum(groups[g]) / len(groups[g]) for g in sample]
        return hits / n, sum(a == 1.0 for a in accs) / len(accs)

    acc, cons = stats(names)
    boots = [stats([rng.choice(names) for _ in names]) for _ in range(resamples)]
    a = sorted(b[0] for b in boots)
    return {"accuracy": (acc, a[int(0.025 * resamples)], a[int(0.975 * resamples) - 1]),
            "consistency": (cons, 0.0, 0.0)}


def main() -> None:
    rows = make_rows(ROWS)
    start = time.perf_counter()
    table = metrics.Table(rows)
    s = metrics.summary(table, n_resamples=RESAMPLES)
    metrics.breakdown(table, "format")
    metrics.conditional_accuracy(table)
    metrics.attempts(table, 2)
    fast = time.perf_counter() - start
    start = time.perf_counter()
    slow_result = baseline(rows, RESAMPLES)
    slow = time.perf_counter() - start
    print(f"{ROWS:,} rows, {RESAMPLES} bootstrap resamples over {int(s['groups'].value)} templates")
    print(f"physgen: all headline metrics with CIs, breakdowns, conditional matrix, pass@k: {fast:.2f} s"
          f" (target < 10 s: {'met' if fast < 10 else 'NOT met'})")
    print(f"plain-Python loop (accuracy and consistency with CIs only): {slow:.2f} s; "
          f"ratio {slow / fast:.1f}x")
    print(f"accuracy {s['accuracy']} vs baseline {slow_result['accuracy'][0]:.3f}")


if __name__ == "__main__":
    main()

"""Headline metrics with 1,000-resample bootstrap CIs over 1,000,000 graded rows, against a
plain-Python loop baseline, in one run; then the memory of metrics on a 10,000,000-row DataFrame.

The baseline computes the same numbers the obvious way: a dict of per-group
lists, and a Python loop that resamples groups for each of the 1,000 bootstrap
draws. The memory part builds a DataFrame with the usual columns (and a text
column metrics never read) and reports the peak memory ``tracemalloc`` sees
while ``summary`` runs, as a multiple of the size of the three columns it needs
(``template_id``, ``correct``, ``score``). Run: ``python benchmarks/metrics.py``
(one core; prints times and ratios; ``--frame-rows 0`` skips the memory part).
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

import numpy as np

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


def make_frame(n: int) -> object:
    import pandas as pd

    rng = np.random.default_rng(0)
    template = rng.integers(0, 140, n)
    formats = np.array(["free_form", "mc_numerical", "units", "noop"], dtype=object)
    return pd.DataFrame({
        "template_id": np.array([f"t{i}" for i in range(140)], dtype=object)[template],
        "instance_id": np.array([f"i{i}" for i in range(20000)], dtype=object)[rng.integers(0, 20000, n)],
        "variant_id": np.array([f"v{i}" for i in range(1000)], dtype=object)[rng.integers(0, 1000, n)],
        "format": formats[rng.integers(0, 4, n)],
        "paraphrase": rng.integers(0, 3, n), "attempt": rng.integers(0, 4, n),
        "correct": rng.random(n) < 0.3 + template / 300, "score": rng.random(n),
        "prompt": np.array(["A long prompt that metrics never read. " * 4], dtype=object)[np.zeros(n, int)],
    })


def frame_memory(n: int) -> None:
    frame = make_frame(n)
    needed = int(frame[["template_id", "correct", "score"]].memory_usage(index=False).sum())  # type: ignore[index]
    total = int(frame.memory_usage(index=False).sum())  # type: ignore[attr-defined]
    tracemalloc.start()
    start = time.perf_counter()
    s = metrics.summary(frame, n_resamples=RESAMPLES)
    took = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    ratio = peak / needed
    print(f"DataFrame of {n:,} rows ({total / 2**20:,.0f} MiB of columns): summary with CIs in {took:.2f} s, "
          f"peak {peak / 2**20:,.0f} MiB = {ratio:.2f}x the {needed / 2**20:,.0f} MiB of the 3 columns "
          "it needs "
          f"(goal <= 2x: {'met' if ratio <= 2 else 'NOT met'}); accuracy {s['accuracy']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frame-rows", type=int, default=10_000_000, help="DataFrame rows (0: skip)")
    args = parser.parse_args()
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
    del rows, table
    if args.frame_rows:
        frame_memory(args.frame_rows)


if __name__ == "__main__":
    main()

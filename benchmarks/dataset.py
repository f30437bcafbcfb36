"""The training path against the bulk path, measured in one run (process CPU time).

1. Rates over the whole catalog, side by side, per mix of formats: ``ds[i]`` (one item at a
   time, as a data-loader worker fetches), ``ds.__getitems__`` (PyTorch's batched fetch, 64
   items) and bulk ``generate`` (``--bulk-n`` instances per template, one paraphrase per
   instance, ``to_dict`` per variant), with
   the ratios of the first two to bulk. Goals: ``ds[i]`` at least 0.5x bulk, batched 0.9x.
2. ``ds[i]`` latency percentiles (goal: p99 at most 10x the median).
3. First use per format: in a fresh process with the catalog loaded from the cache, the CPU
   time to make one variant of every template the format applies to, as a ratio to free
   form's (goal: at most 3x).

Run: ``python benchmarks/dataset.py [--items 3000] [--bulk-n 40] [--no-first-use]`` (prints figures,
asserts nothing). The catalog is loaded (and compiled into the cache if needed) first.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Sequence

import physgen
from physgen.formats import FORMATS

MIXES: dict[str, tuple[str, ...]] = {
    "free_form": ("free_form",),
    "six formats": ("free_form", "mc_numerical", "mc_symbolic", "units", "noop", "omitted"),
}
BATCH = 64


def _bulk(catalog: physgen.Catalog, formats: Sequence[str], n: int) -> float:
    """Variants per CPU second of bulk generation, one paraphrase per instance, to_dict each."""
    start = time.process_time()
    count = 0
    with warnings.catch_warnings():  # a few templates show fewer than n parameter sets: repeats are fine here
        warnings.simplefilter("ignore", physgen.CapacityWarning)
        for v in physgen.generate(catalog, n=n, seed=1, formats=list(formats), paraphrases="random"):
            v.to_dict()
            count += 1
    return count / (time.process_time() - start)


def _items(ds: physgen.dataset.ProceduralDataset, lo: int, count: int) -> tuple[float, list[float]]:
    """Items per CPU second of ``ds[i]``, and each item's CPU time."""
    times = []
    for i in range(lo, lo + count):
        start = time.process_time()
        ds[i]
        times.append(time.process_time() - start)
    return count / sum(times), times


def _batched(ds: physgen.dataset.ProceduralDataset, lo: int, count: int) -> float:
    start = time.process_time()
    for b in range(lo, lo + count, BATCH):
        ds.__getitems__(list(range(b, min(b + BATCH, lo + count))))
    return count / (time.process_time() - start)


def rates(items: int, bulk_n: int) -> None:
    catalog = physgen.load_catalog()
    for label, formats in MIXES.items():
        ds = physgen.dataset(catalog, size=10**9, seed=0, formats=list(formats))
        for i in range(0, len(catalog) * 3, 7):  # every template and format used once: no first use timed
            ds[i]
        _bulk(catalog, formats, 1)
        bulk = _bulk(catalog, formats, bulk_n)
        single, times = _items(ds, 10**6, items)
        batched = _batched(ds, 2 * 10**6, items)
        q = statistics.quantiles(times, n=100)
        print(f"{label}: ds[i] {single:,.0f} items/s ({single / bulk:.2f}x bulk), __getitems__ "
              f"{batched:,.0f}/s ({batched / bulk:.2f}x bulk), bulk {bulk:,.0f} variants/s")
        print(f"  ds[i] latency: median {q[49] * 1e3:.2f} ms, p90 {q[89] * 1e3:.2f} ms, "
              f"p99 {q[98] * 1e3:.2f} ms ({q[98] / q[49]:.1f}x the median), worst {max(times) * 1e3:.1f} ms")


_FIRST_USE = """
import sys, time, physgen
catalog = physgen.load_catalog()
fmt = sys.argv[1]
start = time.process_time()
made = sum(1 for _ in physgen.generate(catalog, n=1, seed=0, formats=[fmt], paraphrases=[0]))
first = time.process_time() - start
start = time.process_time()
sum(1 for _ in physgen.generate(catalog, n=1, seed=1, formats=[fmt], paraphrases=[0]))
print(first, time.process_time() - start, made)
"""


def first_use() -> None:
    costs = {}
    for fmt in sorted(FORMATS):
        out = subprocess.run([sys.executable, "-c", _FIRST_USE, fmt], capture_output=True, text=True,
                             check=True).stdout.split()
        costs[fmt] = (float(out[0]), float(out[1]), int(out[2]))
    base = costs["free_form"][0]
    print("first use per format, fresh process, catalog from the cache (one variant of every template):")
    for fmt, (first, again, made) in costs.items():
        print(f"  {fmt:13s} {first:6.2f} CPU s ({first / base:.2f}x free form; the same again with other "
              f"numbers: {again:.2f} s; {made} variants)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("--bulk-n", type=int, default=40, help="instances per template, bulk")
    parser.add_argument("--first-use", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    rates(args.items, args.bulk_n)
    if args.first_use:
        first_use()


if __name__ == "__main__":
    main()

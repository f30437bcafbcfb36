"""The training path against the bulk path, measured in one run (process CPU time).

1. Rates over the whole catalog, side by side, per mix of formats: ``ds[i]`` (one item at a
   time, as a data-loader worker fetches), ``ds.__getitems__`` (PyTorch's batched fetch, 64
   items) and bulk ``generate`` (``--bulk-n`` instances per template, one paraphrase per
   instance; runs under further seeds until it has made as many variants as the dataset reads,
   so that both count the garbage collector's full collections at their long-run share), with
   the ratios of the first two to bulk. Bulk is measured twice: with
   ``to_dict`` per variant (what the goals were first stated against), and like for like, with
   the same entry per variant that ``ds[i]`` returns (``to_dict``, the reference answer and
   the ``ground_truth`` JSON), kept 64 at a time as ``__getitems__`` returns them and as a
   data loader collates ``ds[i]``. Goals: ``ds[i]`` at least 0.5x bulk, batched 0.9x. The four
   are measured in turn, in ``--rounds`` rounds of an equal share each, so that a change in the
   (shared) machine's load during the run falls on all four; the batched ratio of each round is
   printed too, to show the spread.
2. ``ds[i]`` latency percentiles over the same reads (goal: p99 at most 10x the median). The
   reads are ``--items`` items in order from a cold start (the read-ahead's window filled and
   every template drawn inside the timed reads), enough that the reads which draw a
   template's instances come at their long-run share (about 1 in 256, :mod:`physgen.dataset`).
   By default that is two of the read-ahead's windows (256 items per template each): a
   template's instances are drawn for the items up to the window's end, so every template
   draws again about one window in; a run that stopped part-way through the second window
   would charge the dataset for instances drawn for reads it never makes, which a data-loader
   worker, reading on, does make.
3. First use per format: in a fresh process with the catalog loaded from the cache, the CPU
   time to make one variant of every template the format applies to, as a ratio to free
   form's (goal: at most 3x).

Run: ``python benchmarks/dataset.py [--items N] [--bulk-n 40] [--rounds 5] [--no-first-use]
[--path FOLDER]`` (prints figures, asserts nothing; ``--path``: a folder of templates instead of
the built-in catalog, for a quick run). The catalog is loaded (and compiled into the cache if
needed) first.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Sequence

import physgen
from physgen.dataset import _PER_TEMPLATE, ProceduralDataset, _entry
from physgen.formats import FORMATS

MIXES: dict[str, tuple[str, ...]] = {
    "free_form": ("free_form",),
    "six formats": ("free_form", "mc_numerical", "mc_symbolic", "units", "noop", "omitted"),
}
BATCH = 64


def _bulk(catalog: physgen.Catalog, formats: Sequence[str], n: int, least: int, entry: bool = False,
          first_seed: int = 1) -> tuple[int, float]:
    """Variants made and CPU seconds of bulk generation, one paraphrase per instance, to_dict each
    (with ``entry``: the dataset's entry each, as ``ds[i]`` returns it, kept a batch of 64 at a
    time as a data loader keeps them); runs of ``n`` instances per template under seeds
    ``first_seed``, ``first_seed + 1``, … until at least ``least`` variants are made. A run of
    the whole catalog at n = 40 makes about 16,500 variants, and the cyclic garbage collector
    makes a full collection (0.13 s: the compiled catalog's 220,000 objects) about every 20,000
    kept ones: one run would count none or one, so its rate swung by 10 %; over as many variants
    as the dataset reads, both count their long-run share."""
    start = time.process_time()
    count = 0
    batch: list[dict[str, object]] = []
    with warnings.catch_warnings():  # a few templates show fewer than n parameter sets: repeats are fine here
        warnings.simplefilter("ignore", physgen.CapacityWarning)
        for seed in itertools.count(first_seed):
            for v in physgen.generate(catalog, n=n, seed=seed, formats=list(formats), paraphrases="random"):
                if entry:
                    batch.append(_entry(v, count))
                    if len(batch) == BATCH:
                        batch = []
                else:
                    v.to_dict()
                count += 1
            if count >= least:
                return count, time.process_time() - start
    raise AssertionError("unreachable")


def _items(ds: ProceduralDataset, lo: int, count: int) -> list[float]:
    """Each item's CPU time of ``ds[i]`` (the items kept a batch of 64 at a time, as PyTorch's
    fetcher does ``[ds[i] for i in batch]``)."""
    times = []
    batch = []
    for i in range(lo, lo + count):
        start = time.process_time()
        batch.append(ds[i])
        times.append(time.process_time() - start)
        if len(batch) == BATCH:
            batch = []
    return times


def _batched(ds: ProceduralDataset, lo: int, count: int) -> float:
    """CPU seconds of ``__getitems__`` over ``count`` items from ``lo``, 64 at a time."""
    start = time.process_time()
    for b in range(lo, lo + count, BATCH):
        ds.__getitems__(list(range(b, min(b + BATCH, lo + count))))
    return time.process_time() - start


def rates(catalog: physgen.Catalog, items: int, bulk_n: int, rounds: int) -> None:
    print(f"{len(catalog)} templates; ds[i] and __getitems__: {items:,} items each, read in order "
          f"from a cold start; bulk: n = {bulk_n} per template, runs under seeds 1, 2, … until as "
          f"many variants are made; the four measured in turn, in {rounds} rounds of a "
          f"{1 / rounds:.0%} share each (so that a change in the machine's load falls on all four)")
    share = -(-items // rounds)
    for label, formats in MIXES.items():
        # one dataset for each way of reading, so that each reads on in order from round to round
        # (one read-ahead between them would start its window again at every switch)
        ds, batched_ds = (physgen.dataset(catalog, size=10**9, seed=0, formats=list(formats)) for _ in "12")
        for i in range(0, len(catalog) * 3, 7):  # every template and format used once: no first use timed
            ds[i]
        _bulk(catalog, formats, 1, 1)
        made = {"bulk": 0, "like": 0}
        cpu = {"bulk": 0.0, "like": 0.0, "single": 0.0, "batched": 0.0}
        times: list[float] = []
        ratios: list[float] = []  # __getitems__ against bulk like for like, per round
        seed = 1
        for r in range(rounds):
            rate = {}  # this round's
            for key, entry in (("bulk", False), ("like", True)):
                count, seconds = _bulk(catalog, formats, bulk_n, share, entry=entry, first_seed=seed)
                made[key] += count
                cpu[key] += seconds
                rate[key] = count / seconds
            seed += 1000  # each round's bulk runs under seeds of its own
            round_times = _items(ds, 10**6 + r * share, share)
            times += round_times
            cpu["single"] += sum(round_times)
            seconds = _batched(batched_ds, 10**7 + r * share, share)
            cpu["batched"] += seconds
            ratios.append(share / seconds / rate["like"])
        bulk, like = made["bulk"] / cpu["bulk"], made["like"] / cpu["like"]
        single, batched = len(times) / cpu["single"], share * rounds / cpu["batched"]
        q = statistics.quantiles(times, n=100)
        print(f"{label}: ds[i] {single:,.0f} items/s, __getitems__ {batched:,.0f} items/s; bulk "
              f"{bulk:,.0f} variants/s with to_dict each, {like:,.0f}/s with the dataset's entry each "
              f"(like for like: to_dict, reference answer, ground_truth JSON, kept 64 at a time)")
        shared = "" if len(formats) == 1 else (" (not like work: bulk shares each instance among the "
                                               "formats, ds[i] draws one per item)")
        print(f"  ds[i] {single / bulk:.2f}x bulk with to_dict, {single / like:.2f}x like for like "
              f"(goal 0.5x); __getitems__ {batched / bulk:.2f}x / {batched / like:.2f}x (goal 0.9x){shared}")
        print(f"  __getitems__ like for like, round by round: "
              f"{', '.join(f'{x:.2f}x' for x in ratios)} (median {statistics.median(ratios):.2f}x)")
        print(f"  ds[i] latency: median {q[49] * 1e3:.3f} ms, p90 {q[89] * 1e3:.3f} ms, "
              f"p99 {q[98] * 1e3:.3f} ms = {q[98] / q[49]:.1f}x the median (goal 10x), "
              f"worst {max(times) * 1e3:.1f} ms")


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
    parser.add_argument("--items", type=int, help="items read each way (default: two read-ahead windows, "
                        "2 × 256 × the templates)")
    parser.add_argument("--bulk-n", type=int, default=40, help="instances per template, bulk")
    parser.add_argument("--rounds", type=int, default=5, help="rounds the four rates are measured in")
    parser.add_argument("--first-use", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--path", help="a folder of templates instead of the built-in catalog")
    args = parser.parse_args()
    catalog = physgen.load_catalog(args.path) if args.path else physgen.load_catalog()
    rates(catalog, args.items or 2 * _PER_TEMPLATE * len(catalog), args.bulk_n, args.rounds)
    if args.first_use:
        first_use()


if __name__ == "__main__":
    main()

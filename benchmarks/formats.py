"""Generation rate of every format over the whole catalog, as a ratio to free form, in one run.

For each format, ``physgen.generate(catalog, formats=[fmt])`` (every paraphrase)
is run with the same ``--n`` instances per template for every format, so each
format pays the same per-template costs (sizing runs by time gave slow formats
fewer instances, hence more per-template overhead per variant). The rate is
variants per CPU second (``time.process_time``); the best of ``--repeat`` runs
counts, and the runs of all formats are interleaved so that each sees the same
machine load. The goal of the speed issue is every format at ≥ 30 % of the
free-form rate.

Per-template caches are filled first by a warm-up run of every format (another
seed), as in any real run; its CPU time is printed too, since it is what a
first, small run pays (``mc_symbolic`` formats each option with SymPy once).
Run: ``python benchmarks/formats.py`` (prints rates and ratios, asserts nothing).
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import physgen
from physgen.formats import FORMATS

GOAL = 0.30
FREE_FORM = "free_form"


def run(catalog: physgen.Catalog, fmt: str, n: int, seed: int) -> tuple[int, float]:
    """Variants made and CPU seconds taken by one run of ``fmt`` over the catalog."""
    start = time.process_time()
    count = sum(1 for _ in physgen.generate(catalog, n=n, seed=seed, formats=[fmt]))
    return count, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="instances per template of a run")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs each")
    parser.add_argument("--warm", type=int, default=20, help="instances per template of the warm-up run")
    parser.add_argument("--formats", nargs="*", default=sorted(FORMATS), help="formats to measure")
    args = parser.parse_args()
    names = [FREE_FORM, *(f for f in args.formats if f != FREE_FORM)]
    catalog = physgen.load_catalog()
    warnings.simplefilter("ignore", physgen.CapacityWarning)  # a template with fewer than n sets repeats
    for fmt in names:  # fill the per-template caches
        count, seconds = run(catalog, fmt, args.warm, 99)
        print(f"warm-up {fmt:<13} {count:>7} variants in {seconds:7.2f} CPU s (first use of each template)",
              flush=True)
    best: dict[str, tuple[float, int]] = {}
    for seed in range(args.repeat):
        for fmt in names:
            count, seconds = run(catalog, fmt, args.n, seed)
            rate = count / seconds
            if rate > best.get(fmt, (0.0, 0))[0]:
                best[fmt] = (rate, count)
    base = best[FREE_FORM][0]
    print(f"\ncatalog: {len(catalog)} templates; n = {args.n} per template; best of {args.repeat} runs")
    print(f"{'format':<13} {'variants':>9} {'variants/CPU s':>15} {'/ free_form':>12}  "
          f"goal ≥ {GOAL:.0%}")
    for fmt in names:
        rate, count = best[fmt]
        ratio = rate / base
        verdict = "" if fmt == FREE_FORM else ("met" if ratio >= GOAL else "NOT met")
        print(f"{fmt:<13} {count:>9} {rate:>15,.0f} {ratio:>12.2f}  {verdict}")


if __name__ == "__main__":
    main()

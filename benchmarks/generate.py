"""Free-form variants per second for the whole catalog, against the naive way, in one run.

The naive way does the same work per variant as a straightforward loop would:
one Pint computation per variant (``Template.solve`` on Pint quantities) and a
Jinja render of the text and steps, with no vectorisation and no caching.
Both produce the same ``Variant`` records from the same sampled inputs.

Run: ``python benchmarks/generate.py`` (one core; prints ratios, asserts nothing).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import physgen
from physgen.formats.prompting import asks
from physgen.render import Shown, format_number, format_quantity
from physgen.units import Quantity, format_unit
from physgen.variant import Answer, Metadata, ShownQuantity, Variant


def fast(catalog: physgen.Catalog, n: int, seed: int) -> tuple[int, float]:
    start = time.perf_counter()
    count = sum(1 for _ in physgen.generate(catalog, n=n, seed=seed))
    return count, time.perf_counter() - start


def shown(value: float, unit: str, sig_figs: int, integer: bool = False) -> Shown:
    return Shown(format_quantity(value, unit, sig_figs, integer=integer),
                 format_number(value, sig_figs, integer=integer), format_unit(unit))


def naive(catalog: physgen.Catalog, n: int, seed: int) -> tuple[int, float]:
    batches = {t.id: t.sample(n, seed) for t in catalog.values()}  # same draws, not timed
    count = 0
    start = time.perf_counter()
    for t in catalog.values():
        batch = batches[t.id]
        spec = t.spec
        for i in range(n):
            for p, text in enumerate(t.texts):
                quantities = {k: Quantity(float(batch.shown[k][i]), s.unit or "dimensionless")
                              for k, s in spec.inputs.items()}
                solved = t.solve(**quantities)  # one Pint computation per variant
                ctx: dict[str, Shown] = {}
                inputs = {}
                for k, s in spec.inputs.items():
                    v = float(batch.shown[k][i])
                    ctx[k] = shown(v, s.unit, s.sig_figs, s.integer)
                    inputs[k] = ShownQuantity(v, s.unit, ctx[k])
                for k, c in t.constants.items():
                    ctx[k] = shown(c.shown_value, c.unit, c.sig_figs)
                answers = {}
                for k, a in spec.answers.items():
                    v = float(solved[k].to(a.unit or "dimensionless").magnitude)
                    ctx[k] = shown(v, a.unit, a.sig_figs)
                    answers[k] = Answer(v, a.unit, ctx[k], a.sig_figs)
                steps = tuple(s.render_jinja(ctx) for s in t.steps)
                prompt = text.render_jinja({**ctx, "asks": asks(t, p, "unicode")})
                Variant(f"{t.id}:{i}:p{p}:free_form", t.id, str(i), p, "free_form", prompt, inputs,
                        answers, steps, Metadata(spec.domain, tuple(spec.subdomain), spec.difficulty,
                                                 spec.question_type, spec.version, seed, i))
                count += 1
    return count, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="instances per template, fast path")
    parser.add_argument("--naive-n", type=int, default=20, help="instances per template, naive path")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs each")
    args = parser.parse_args()
    t0 = time.perf_counter()
    catalog = physgen.load_catalog()
    load = time.perf_counter() - t0
    fast_runs = [fast(catalog, args.n, seed) for seed in range(args.repeat)]
    naive_runs = [naive(catalog, args.naive_n, seed) for seed in range(args.repeat)]
    fast_rate = max(c / s for c, s in fast_runs)
    naive_rate = max(c / s for c, s in naive_runs)
    print(f"catalog: {len(catalog)} templates, loaded and checked in {load:.2f} s")
    print(f"fast  (vectorised):  {fast_runs[0][0]:>8} variants, best {fast_rate:>10,.0f} variants/s")
    print(f"naive (Pint/variant): {naive_runs[0][0]:>7} variants, best {naive_rate:>10,.0f} variants/s")
    ratio = fast_rate / naive_rate
    print(f"ratio fast/naive: {ratio:.1f}x   (target >= 30x: {'met' if ratio >= 30 else 'NOT met'})")
    print(f"throughput target >= 30,000 variants/s: {'met' if fast_rate >= 30_000 else 'NOT met'}")


if __name__ == "__main__":
    main()

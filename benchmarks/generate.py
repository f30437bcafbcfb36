"""Free-form generation against its bare limit, and the speed-up of worker processes, in one run.

* **physgen**: ``physgen.generate`` over the whole catalog (every paraphrase).
* **bare limit**: the same texts made the leanest way: the same NumPy draws and
  answers (``Template.sample``), the same number formatting, and each prompt,
  answer text and solution step joined from precomputed pieces as plain
  strings. No ``Variant``, ids, or per-variant objects at all.
* **unscreened floor**: the bare limit from each instance's first draw, kept whatever
  the validity checks say (no screening, no redraws): NumPy plus f-strings.
* **naive**: one Pint computation and a Jinja render per variant (what a
  straightforward loop does), for scale.
* **workers**: ``generate_jsonl`` (generate and encode JSONL, what
  ``physgen generate -j N -o file`` does) with 1 and N worker processes, by
  wall time and by CPU time of all processes, output checked byte-identical.

Times are CPU seconds of this process (``time.process_time``) except for the
workers, which are wall seconds. Run: ``python benchmarks/generate.py``
(prints ratios, asserts nothing).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import physgen
from physgen.batch import InstanceBatch
from physgen.formats.prompting import instruction_for
from physgen.generation import generate_jsonl
from physgen.instance import ANSWER_DIGITS
from physgen.numtext import format_numbers
from physgen.render import Shown
from physgen.sampling import stream_key
from physgen.template import Template


def fast(catalog: physgen.Catalog, n: int, seed: int) -> tuple[int, float]:
    start = time.process_time()
    count = sum(1 for _ in physgen.generate(catalog, n=n, seed=seed))
    return count, time.process_time() - start


def _join(text: object, context: dict[str, str]) -> str:
    pieces = text._pieces  # type: ignore[attr-defined]
    if pieces is None:  # the one text that needs Jinja
        return text.render(context)  # type: ignore[attr-defined, no-any-return]
    return "".join([context[p] if is_name else p for is_name, p in pieces])


def _column(t: Template, values: list[float], unit: str, sig: int, integer: bool = False) -> list[str]:
    u = t.display["unicode"].units[unit]
    numbers = format_numbers(values, sig, integer=integer)
    if all(x._pieces is not None for x in (*t.texts, *t.steps)):
        return [u.head + s + u.tail for s in numbers]
    return [Shown(u.head + s + u.tail, s, u.text) for s in numbers]  # Jinja reads {{ x.value }}


def _unscreened(t: Template, n: int, seed: int) -> InstanceBatch:
    """Instances ``0 … n-1`` from their first draws, kept whatever the checks say (no redraws)."""
    import numpy as np

    index = np.arange(n, dtype=np.uint64)
    shown = t.draw_candidates(stream_key(seed, t.id), index, 0)
    si = {name: t.input_si[name].to_si(v) for name, v in shown.items()}
    with np.errstate(all="ignore"):
        answers_si = t.evaluate_si(si)
    answers = {name: t.answer_units[name].from_si(v) for name, v in answers_si.items()}
    return InstanceBatch(t, seed, index.astype(np.int64), shown, si, answers,
                         t.evaluate_intermediates(si, answers_si))


def bare(catalog: physgen.Catalog, n: int, seed: int, screened: bool = True) -> tuple[int, float]:
    """The same prompts, answer texts and steps, as plain strings from NumPy columns; with
    ``screened=False`` from unscreened first draws (the floor: NumPy plus f-strings)."""
    count = 0
    start = time.process_time()
    digits = f".{ANSWER_DIGITS - 1}e"
    for t in catalog.templates():
        spec, display = t.spec, t.display["unicode"]
        ask = instruction_for(t)
        size = n if t.question_type == "numerical" else min(n, t.capacity())  # as generate's instances
        batch = t.sample(size, seed) if screened else _unscreened(t, size, seed)
        columns: dict[str, list[str]] = {}
        if display.symbols is None:
            for name, i in spec.inputs.items():
                columns[name] = _column(t, batch.shown[name].tolist(), i.unit, i.sig_figs, i.integer)
            for name, a in spec.answers.items():
                values = [float(format(x, digits)) for x in batch.answers[name].tolist()]
                columns[name] = _column(t, values, a.unit, a.sig_figs)
            for name, c in t.constants.items():
                columns[name] = _column(t, [c.shown_value], c.unit, c.sig_figs) * len(batch)
            for name, i in spec.intermediates.items():  # values the steps state
                values = [float(format(x, digits)) for x in batch.intermediates[name].tolist()]
                columns[name] = _column(t, values, i.unit, i.sig_figs)
        else:
            columns = {name: [text] * len(batch) for name, text in display.symbols.items()}
        names = list(columns)
        for row in zip(*columns.values(), strict=True):
            context = dict(zip(names, row, strict=True))
            answers = [context[a] for a in spec.answers]
            steps = [_join(s, context) for s in t.steps]
            for p, text in enumerate(t.texts):
                context["asks"] = display.asks[p]
                prompt = f"{_join(text, context)}\n\n{ask}"
                count += bool(prompt and answers and steps)
    return count, time.process_time() - start


def naive(catalog: physgen.Catalog, n: int, seed: int) -> tuple[int, float]:
    from physgen.formats.prompting import asks
    from physgen.render import format_number, format_quantity
    from physgen.units import Quantity, format_unit
    from physgen.variant import Answer, Metadata, ShownQuantity, Variant

    def shown(value: float, unit: str, sig_figs: int, integer: bool = False) -> Shown:
        return Shown(format_quantity(value, unit, sig_figs, integer=integer),
                     format_number(value, sig_figs, integer=integer), format_unit(unit))

    batches = {t.id: t.sample(n, seed) for t in catalog.values()}  # same draws, not timed
    count = 0
    start = time.process_time()
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
                for k, it in spec.intermediates.items():  # values the steps state
                    ctx[k] = shown(float(batch.intermediates[k][i]), it.unit, it.sig_figs)
                steps = tuple(s.render_jinja(ctx) for s in t.steps)
                question = text.render_jinja({**ctx, "asks": asks(t, p, "unicode")})
                prompt = f"{question}\n\n{instruction_for(t)}"
                Variant(f"{t.id}:{i}:p{p}:free_form", t.id, str(i), p, "free_form", prompt, inputs,
                        answers, steps, Metadata(spec.domain, tuple(spec.subdomain), spec.difficulty,
                                                 spec.question_type, spec.version, seed, i))
                count += 1
    return count, time.process_time() - start


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (worker processes, once joined)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def parallel(catalog: physgen.Catalog, n: int, workers: int) -> tuple[dict[int, tuple[float, float]], bool]:
    """Wall and CPU seconds (this process and its workers) of generate_jsonl with 1 and ``workers``
    processes, and whether the bytes agree."""
    out, data = {}, {}
    for w in (1, workers):
        wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        data[w] = b"".join(generate_jsonl(catalog, n=n, seed=11, workers=w))
        out[w] = (time.perf_counter() - wall, time.process_time() - cpu + _children_cpu() - children)
    return out, data[1] == data[workers]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="instances per template, physgen and bare")
    parser.add_argument("--naive-n", type=int, default=10, help="instances per template, naive path")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs each")
    parser.add_argument("-j", "--workers", type=int, default=2, help="worker processes to compare with 1")
    parser.add_argument("--parallel-n", type=int, default=1000, help="instances per template, workers")
    args = parser.parse_args()
    t0 = time.process_time()
    catalog = physgen.load_catalog()
    load = time.process_time() - t0
    fast(catalog, 20, 99)  # warm the per-template caches, as any real run has
    fast_runs, bare_runs, floor_runs = [], [], []
    for seed in range(args.repeat):  # interleaved, so all see the same machine load
        fast_runs.append(fast(catalog, args.n, seed))
        bare_runs.append(bare(catalog, args.n, seed))
        floor_runs.append(bare(catalog, args.n, seed, screened=False))
    naive_runs = [naive(catalog, args.naive_n, seed) for seed in range(args.repeat)]
    fast_rate = max(c / s for c, s in fast_runs)
    bare_rate = max(c / s for c, s in bare_runs)
    floor_rate = max(c / s for c, s in floor_runs)
    naive_rate = max(c / s for c, s in naive_runs)
    assert fast_runs[0][0] == bare_runs[0][0], "physgen and the bare limit made different numbers of texts"
    print(f"catalog: {len(catalog)} templates, loaded in {load:.2f} CPU s")
    print(f"physgen:     {fast_runs[0][0]:>8} variants, best {fast_rate:>10,.0f} variants per CPU s")
    print(f"bare limit:  {bare_runs[0][0]:>8} texts,    best {bare_rate:>10,.0f} per CPU s")
    print(f"unscreened:  {floor_runs[0][0]:>8} texts,    best {floor_rate:>10,.0f} per CPU s")
    print(f"naive:       {naive_runs[0][0]:>8} variants, best {naive_rate:>10,.0f} variants per CPU s")
    ratio = fast_rate / bare_rate
    print(f"physgen / bare limit: {ratio:.0%}   (goal >= 50%: {'met' if ratio >= 0.5 else 'NOT met'})")
    floor = fast_rate / floor_rate
    met = "met" if floor >= 0.4 else "NOT met"
    print(f"physgen / unscreened floor: {floor:.2f}x   (goal >= 0.4x: {met})")
    print(f"physgen / naive: {fast_rate / naive_rate:.0f}x")
    runs, same = parallel(catalog, args.parallel_n, args.workers)
    (wall1, cpu1), (wall_n, cpu_n) = runs[1], runs[args.workers]
    print(f"generate + encode JSONL, {args.parallel_n} per template, on {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f}): 1 worker {wall1:.2f} s wall / {cpu1:.2f} s CPU; "
          f"{args.workers} workers {wall_n:.2f} s wall / {cpu_n:.2f} s CPU (all processes)")
    print(f"  wall speed-up {wall1 / wall_n:.2f}x; CPU cost {cpu_n / cpu1:.2f}x that of one worker "
          f"(the workers' start-up, pickling the templates to them, and sending the bytes back); "
          f"the wall speed-up can reach at most (idle cores) / (CPU cost); output identical: {same}")


if __name__ == "__main__":
    main()

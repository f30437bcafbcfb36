"""The Ray Data recipe (README, "Scaling out") against one process, same bytes, in one run.

Generates ``-n`` instances of each template of ``--path`` (a folder of templates; the
test's three by default) in free form and four-option multiple choice, then grades a
reply per variant, once in this process (``generate_jsonl``; ``scale.grade_lines``, which
is what ``physgen grade`` does) and once on a local Ray instance (``--cpus``) by pieces
and by batches of lines. Prints whether the bytes are identical, and wall and CPU time
as ratios to the single process. Ray's CPU time is summed over this process and every
process Ray started (its workers and services), read with psutil; Ray's start-up is
reported apart. Run: ``python benchmarks/scale.py [-n 45] [--size 10] [--cpus 2]``
(needs ``pip install "physgen[ray]"``; asserts nothing).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

import physgen
from physgen import jsonl, scale
from physgen.formats import get_format
from physgen.generation import generate_jsonl

ROOT = Path(__file__).parents[1]
FILES = ("optics/thin_lens.yaml", "optics/apparent_depth_two_layers_symbolic.yaml",
         "mechanics/projectile_range.yaml")
OPTIONS: dict[str, Any] = {"seed": 7, "formats": ["free_form", "mc_numerical"], "paraphrases": "random"}


def cpu_seconds() -> float:
    """CPU time of this process and of every process below it (Ray's workers and services)."""
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def timed(work: Callable[[], bytes]) -> tuple[bytes, float, float]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    out = work()
    return out, time.perf_counter() - wall, cpu_seconds() - cpu


def responses(generated: bytes) -> list[bytes]:
    lines = []
    for i, text in enumerate(generated.splitlines()):
        v = physgen.Variant.from_dict(json.loads(text))
        reply = get_format(v.format).reference(v) if i % 3 else "No idea."
        lines.append(jsonl.line({**v.to_dict(), "response": reply}))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=45, help="instances per template")
    parser.add_argument("--size", type=int, default=10, help="instances per piece")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray instance")
    parser.add_argument("--path", help="template folder (default: the test's three templates)")
    args = parser.parse_args()
    if args.path is None:
        folder = Path(tempfile.mkdtemp())
        for name in FILES:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / "templates" / name, folder / name)
    else:
        folder = Path(args.path)
    catalog = physgen.load_catalog(folder)
    gen1, gen1_wall, gen1_cpu = timed(lambda: b"".join(generate_jsonl(catalog, n=args.n, **OPTIONS)))
    lines = responses(gen1)
    path = folder / "responses.jsonl"
    path.write_bytes(b"".join(lines))
    grade1, grade1_wall, grade1_cpu = timed(lambda: b"".join(scale.grade_lines(lines)))

    import ray

    start = time.perf_counter()
    ray.init(address="local", num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    startup = time.perf_counter() - start
    work = scale.pieces(catalog, n=args.n, size=args.size)

    def ray_generate() -> bytes:
        parts = ray.data.from_items(work).map(scale.generate_piece, fn_kwargs={"catalog": catalog, **OPTIONS})
        return b"".join(row["jsonl"] for row in parts.iter_rows())

    def ray_grade() -> bytes:
        graded = ray.data.read_text(str(path)).map_batches(
            lambda batch: {"jsonl": scale.grade_lines(batch["text"])})
        return b"".join(b"".join(b["jsonl"]) for b in graded.iter_batches(batch_format="numpy"))

    gen2, gen2_wall, gen2_cpu = timed(ray_generate)
    grade2, grade2_wall, grade2_cpu = timed(ray_grade)
    ray.shutdown()
    print(f"{len(catalog)} templates, n={args.n}, {len(work)} pieces, {len(gen1.splitlines())} "
          f"variants, {len(lines)} replies; Ray: {args.cpus} CPUs, start-up {startup:.1f} s wall")
    runs = {"generate": (gen1 == gen2, gen1_wall, gen1_cpu, gen2_wall, gen2_cpu),
            "grade": (grade1 == grade2, grade1_wall, grade1_cpu, grade2_wall, grade2_cpu)}
    for job, (same, w1, c1, w2, c2) in runs.items():
        print(f"{job}: bytes identical: {same}; one process {w1:.2f} s wall, {c1:.2f} s CPU; Ray "
              f"{w2:.2f} s wall ({w2 / w1:.1f}x), {c2:.2f} s CPU ({c2 / c1:.1f}x)")


if __name__ == "__main__":
    main()

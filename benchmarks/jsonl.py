"""JSONL writing speed: physgen's writer against ``json.dumps`` of ``to_dict()``, same bytes, in one run.

The baseline is what the writer did before: ``json.dumps(v.to_dict(),
ensure_ascii=False, separators=(",", ":"))`` per variant (with the
``to_dict`` of that version, through ``NamedTuple._asdict``, with the fields added
since: ``unanswerable`` and ``intermediates``), so both write the same bytes. Variants are
made first and not timed; times are CPU seconds (best of ``--repeat``). Run:
``python benchmarks/jsonl.py`` (prints rates and the ratio, asserts nothing).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import physgen
from physgen import jsonl
from physgen.variant import Variant


def old_to_dict(v: Variant) -> dict[str, Any]:
    return {
        "variant_id": v.variant_id, "template_id": v.template_id, "instance_id": v.instance_id,
        "paraphrase": v.paraphrase, "format": v.format, "prompt": v.prompt,
        "inputs": {k: q._asdict() for k, q in v.inputs.items()},
        "answers": {k: a._asdict() for k, a in v.answers.items()},
        "steps": list(v.steps), "metadata": v.metadata.to_dict(), "options": dict(v.options),
        "answer_key": v.answer_key,
        "code_tests": [{"inputs": dict(c.inputs), "expected": dict(c.expected)} for c in v.code_tests],
        "unanswerable": list(v.unanswerable),
        "intermediates": {k: i._asdict() for k, i in v.intermediates.items()},
    }


def baseline(variants: list[Variant]) -> list[bytes]:
    return [(json.dumps(old_to_dict(v), ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            for v in variants]


def fast(variants: list[Variant]) -> list[bytes]:
    return [jsonl.variant_line(v) for v in variants]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="instances per template")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    variants = list(physgen.generate(physgen.load_catalog(), n=args.n, seed=0,
                                     formats=["free_form", "omitted"]))
    times: dict[str, float] = {"baseline": float("inf"), "physgen": float("inf")}
    outputs = {}
    for _ in range(args.repeat):
        for name, write in (("baseline", baseline), ("physgen", fast)):
            start = time.process_time()
            outputs[name] = write(variants)
            times[name] = min(times[name], time.process_time() - start)
    same = outputs["baseline"] == outputs["physgen"]
    per = {k: t / len(variants) * 1e6 for k, t in times.items()}
    encoder = "orjson" if jsonl.FAST else "standard library"
    print(f"{len(variants)} free-form and omitted variants; encoder: {encoder}")
    print(f"json.dumps(to_dict()): {per['baseline']:.2f} µs/variant; physgen.jsonl: "
          f"{per['physgen']:.2f} µs/variant; speed-up {times['baseline'] / times['physgen']:.2f}x "
          f"(goal >= 2x); bytes identical: {same}")


if __name__ == "__main__":
    main()

"""SHA-256 digests of what physgen makes and decides, for a fixed seed: run before and after a
change that must not alter output, and compare the lines.

1. ``generation``: JSONL of the whole catalog, every format, ``n`` instances per template
   (every paraphrase), seed 0, in the unicode style; ``generation-latex`` and
   ``generation-ascii`` the same in the other styles.
2. ``dataset``: ``ds[i]`` (as sorted JSON) for ``i`` in a range, every format mixed, seed 0.
3. ``corpus``: ``repr`` of ``grade(v, reply)`` on every reply of the hand-verdict corpus.
4. ``traces``: ``repr`` of ``grade(v, reply, steps=True)`` on the step-trace suite.

Run: ``python benchmarks/digests.py [--n 2] [--items 2000]`` (prints one line per digest).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import physgen
from physgen.formats import FORMATS
from physgen.generation import generate_jsonl
from physgen.grading import grade

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def _digest(parts: list[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.hexdigest()


def _item(ds: physgen.dataset.ProceduralDataset, i: int) -> bytes:
    """Item ``i`` as sorted JSON, or the error it raises (compared like any output)."""
    try:
        return json.dumps(ds[i], sort_keys=True).encode()
    except Exception as e:
        return f"{type(e).__name__}: {e}".encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2)
    parser.add_argument("--items", type=int, default=2000)
    args = parser.parse_args()
    catalog = physgen.load_catalog()
    formats = sorted(FORMATS)
    jsonl = list(generate_jsonl(catalog, n=args.n, seed=0, formats=formats))
    print(f"generation  {_digest(jsonl)}  ({len(jsonl)} chunks, formats {formats})")
    for style in ("latex", "ascii"):
        jsonl = list(generate_jsonl(catalog, n=args.n, seed=0, formats=formats, style=style))
        print(f"generation-{style}  {_digest(jsonl)}  ({len(jsonl)} chunks)")
    ds = physgen.dataset(size=args.items, seed=0, formats=formats)
    items = [_item(ds, i) for i in range(args.items)]
    print(f"dataset     {_digest(items)}  ({len(items)} items)")
    rows = []
    for path in sorted((DATA / "grader_corpus").glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    verdicts = [repr(grade(physgen.Variant.from_dict(r["variant"]), r["reply"])).encode() for r in rows]
    print(f"corpus      {_digest(verdicts)}  ({len(verdicts)} replies)")
    lines = (DATA / "step_traces.jsonl").read_text(encoding="utf-8").splitlines()
    traces = [json.loads(line) for line in lines if line.strip()]
    graded = []
    for r in traces:
        v = next(physgen.generate([r["template"]], n=1, seed=r["seed"], start=r["index"]))
        graded.append(repr(grade(v, r["reply"], steps=True)).encode())
    print(f"traces      {_digest(graded)}  ({len(graded)} replies)")


if __name__ == "__main__":
    main()

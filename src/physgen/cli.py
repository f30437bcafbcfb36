"""The ``physgen`` command: list, show, validate, generate, schema.

Each command imports what it needs when it runs, so ``physgen list`` and
``physgen show`` start without SymPy or Pint (from the compiled-template cache).

>>> main(["validate"])  # doctest: +ELLIPSIS
OK: ... templates valid in ...
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from . import __version__
from .catalog import Catalog, load_catalog
from .errors import PhysgenError
from .render import STYLES


class Progress:
    """A one-line progress bar on stderr, redrawn at most five times a second."""

    def __init__(self, total: int, stream: IO[str], enabled: bool) -> None:
        self.total, self.stream, self.enabled = max(total, 1), stream, enabled
        self.start = self.last = time.monotonic()

    def update(self, done: int, final: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not final and now - self.last < 0.2):
            return
        self.last = now
        frac = min(done / self.total, 1.0)
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        rate = done / max(now - self.start, 1e-9)
        end = "\n" if final else ""
        self.stream.write(f"\r[{bar}] {frac:4.0%} {done}/{self.total} variants, {rate:,.0f}/s{end}")
        self.stream.flush()


def _catalog(args: argparse.Namespace, lazy: bool = False) -> Catalog:
    cat = load_catalog(args.path, lazy=lazy)
    if getattr(args, "domain", None) or getattr(args, "difficulty", None) or getattr(args, "tag", None):
        cat = cat.filter(domain=args.domain, difficulty=args.difficulty, tags=args.tag)
    return cat


def cmd_list(args: argparse.Namespace, out: IO[str]) -> int:
    cat = _catalog(args, lazy=True)
    by_domain: dict[str, list[Any]] = {}
    for spec in cat.specs():  # specs only: listing loads no template
        by_domain.setdefault(spec.domain, []).append(spec)
    width = max((len(i) for i in cat), default=10)
    for domain in sorted(by_domain):
        specs = by_domain[domain]
        out.write(f"\n{domain} ({len(specs)})\n")
        out.write(f"  {'id':<{width}}  diff  {'type':<9}  inputs -> answers\n")
        for t in specs:
            out.write(f"  {t.id:<{width}}  {t.difficulty:>4}  {t.question_type:<9}  "
                      f"{', '.join(t.inputs)} -> {', '.join(t.answers)}\n")
    out.write(f"\n{len(cat)} templates in {len(by_domain)} domains\n")
    return 0


def cmd_show(args: argparse.Namespace, out: IO[str]) -> int:
    from .generation import generate

    t = load_catalog(args.path, lazy=True)[args.id]
    out.write(f"{t.id} (version {t.version}) — {t.domain}: {', '.join(t.subdomain)}; "
              f"difficulty {t.difficulty}, {t.question_type}\nsource: {t.spec.source}\n")
    variants = list(generate([t], n=1, seed=args.seed, style=args.style))
    for v in variants:
        out.write(f"\n[paraphrase {v.paraphrase}] {v.prompt}\n")
    first = variants[0]
    out.write("\nanswers:\n")
    for name, a in first.answers.items():
        where = "at a hidden sample point" if a.expr is not None else "exact"
        out.write(f"  {name} = {a.text}   ({where}: {a.value:.6g} {a.unit})\n")
    out.write("steps:\n")
    for k, step in enumerate(first.steps, 1):
        out.write(f"  {k}. {step}\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: IO[str]) -> int:
    start = time.perf_counter()
    paths = args.paths or [None]
    total = 0
    for path in paths:
        cat = load_catalog(path)  # raises CatalogError listing every problem
        total += len(cat)
    out.write(f"OK: {total} templates valid in {time.perf_counter() - start:.1f} s\n")
    return 0


def cmd_generate(args: argparse.Namespace, out: IO[str]) -> int:
    from .generation import count_variants, generate, generate_jsonl

    cat = _catalog(args)
    source: Any = [cat[i] for i in args.template] if args.template else cat
    paraphrases: Any = args.paraphrases
    if paraphrases not in ("all", "random"):
        paraphrases = [int(p) for p in paraphrases.split(",")]
    formats = args.format or ["free_form"]
    options = {"n": args.n, "seed": args.seed, "formats": formats, "paraphrases": paraphrases,
               "style": args.style, "n_options": args.n_options, "workers": args.jobs}
    total = count_variants(source, args.n, formats, paraphrases)
    show = args.progress if args.progress is not None else (sys.stderr.isatty() and total >= 10_000)
    progress = Progress(total, sys.stderr, show)
    if args.output in (None, "-"):
        done = 0
        for block in generate_jsonl(source, **options):
            out.write(block.decode())
            done += block.count(b"\n")
            progress.update(done)
        return 0
    if args.output.endswith(".parquet"):
        from .export import write_parquet

        write_parquet(generate(source, **options), args.output)
    else:
        from .export import write_blocks

        write_blocks(generate_jsonl(source, **options), args.output, progress.update)
    progress.update(total, final=True)
    sys.stderr.write(f"wrote {total} variants from {len(list(source))} templates to {args.output}\n")
    return 0


def cmd_grade(args: argparse.Namespace, out: IO[str]) -> int:
    """Grade rows of variant fields plus ``response`` (and optional ``attempt``, ``model``)."""
    from .export import read_jsonl, write_jsonl
    from .grading import grade
    from .metrics import record
    from .variant import Variant

    def graded() -> Any:
        for number, row in enumerate(read_jsonl(args.responses), 1):
            if "response" not in row:
                raise ValueError(f"{args.responses}:{number}: no 'response' field")
            fields = {k: v for k, v in row.items() if k in Variant.__dataclass_fields__}
            try:
                variant = Variant.from_dict(fields)
            except Exception as exc:
                raise ValueError(f"{args.responses}:{number}: not a physgen variant ({exc})") from None
            g = grade(variant, row["response"], rtol=args.rtol)
            rec = record(variant, g, attempt=int(row.get("attempt", 0)), model=row.get("model"))
            rec["grade"] = g.to_dict()
            yield rec

    count = write_jsonl(graded(), args.output)
    out.write(f"graded {count} responses into {args.output}\n")
    return 0


def _render(rows: list[dict[str, Any]], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(rows, indent=2) + "\n"
    columns = list(rows[0]) if rows else []
    if fmt == "csv":
        lines = [",".join(columns)] + [",".join(str(r[c]) for c in columns) for r in rows]
        return "\n".join(lines) + "\n"
    cells = [[str(r[c]) for c in columns] for r in rows]
    if fmt == "markdown":
        head = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
        return head + "".join("| " + " | ".join(c) + " |\n" for c in cells)
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    line = "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)) + "\n"
    return line + "".join("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) + "\n"
                          for row in cells)


def cmd_metrics(args: argparse.Namespace, out: IO[str]) -> int:
    from .export import read_jsonl
    from .metrics import breakdown, conditional_accuracy, summary

    rows = list(read_jsonl(args.graded))
    s = summary(rows, by=args.by, n_resamples=args.resamples, seed=args.seed)
    table = [{"metric": k, "value": round(v.value, 4), "low": round(v.low, 4), "high": round(v.high, 4)}
             for k, v in s.items()]
    out.write(_render(table, args.format))
    if args.format == "table":
        out.write("\nby format\n")
        per = breakdown(rows, "format")
        out.write(_render([{"format": k, "accuracy": round(v["accuracy"], 4), "n": int(v["n"])}
                           for k, v in per.items()], "table"))
        cond = conditional_accuracy(rows)
        if len(per) > 1 and cond:
            out.write("\nP(correct on B | failed A)\n")
            out.write(_render([{"A": a, "B": b, "value": round(v, 4)} for (a, b), v in cond.items()],
                              "table"))
    return 0


def cmd_split(args: argparse.Namespace, out: IO[str]) -> int:
    from .export import read_jsonl, write_jsonl
    from .splits import split

    rows = list(read_jsonl(args.input))
    train, test = split(rows, test_size=args.test_size, by=args.by, seed=args.seed)
    stem = args.output or str(Path(args.input).with_suffix(""))
    write_jsonl(train, f"{stem}.train.jsonl")
    write_jsonl(test, f"{stem}.test.jsonl")
    out.write(f"{len(train)} train rows -> {stem}.train.jsonl, {len(test)} test rows -> {stem}.test.jsonl\n")
    return 0


def cmd_gallery(args: argparse.Namespace, out: IO[str]) -> int:
    from .gallery import gallery

    page = gallery(load_catalog(args.path), seed=args.seed)
    if args.output in (None, "-"):
        out.write(page)
        return 0
    Path(args.output).write_text(page, encoding="utf-8")
    out.write(f"wrote {args.output}\n")
    return 0


def cmd_schema(args: argparse.Namespace, out: IO[str]) -> int:
    from .schema import json_schemas

    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in json_schemas().items():
        (folder / name).write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        out.write(f"wrote {folder / name}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="physgen", description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=f"physgen {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    def with_catalog(sp: argparse.ArgumentParser, filters: bool = True) -> None:
        sp.add_argument("--path", help="template folder or file (default: built-in catalog)")
        if filters:
            sp.add_argument("--domain", action="append", help="only this domain (repeatable)")
            sp.add_argument("--difficulty", type=int, action="append", help="only this level (repeatable)")
            sp.add_argument("--tag", action="append", help="only templates with this subdomain tag")

    s = sub.add_parser("list", help="table of the catalog by domain")
    with_catalog(s)
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("show", help="a rendered example of one template")
    s.add_argument("id")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--style", choices=STYLES, default="unicode")
    with_catalog(s, filters=False)
    s.set_defaults(func=cmd_show)

    s = sub.add_parser("validate", help="load and check template files (built-in catalog by default)")
    s.add_argument("paths", nargs="*", help="template folders or files")
    s.set_defaults(func=cmd_validate)

    s = sub.add_parser("generate", help="write variants as JSONL")
    s.add_argument("-n", type=int, default=10, help="instances per template (default 10)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--format", action="append",
                   help="question format (repeatable; default free_form): free_form, mc_numerical, "
                   "mc_symbolic, units, noop, omitted, code, or one registered by a plugin")
    s.add_argument("--paraphrases", default="all", help="'all', 'random' or indices like 0,2")
    s.add_argument("--n-options", type=int, default=4, help="choices in multiple-choice formats (2-8)")
    s.add_argument("--style", choices=STYLES, default="unicode")
    s.add_argument("--template", action="append", help="only this template id (repeatable)")
    s.add_argument("-j", "--jobs", type=int, default=1,
                   help="worker processes (default 1); the output is the same for any number")
    s.add_argument("-o", "--output", help="JSONL or .parquet file (written atomically); '-' or none: stdout")
    s.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: on for long runs in a terminal)")
    with_catalog(s)
    s.set_defaults(func=cmd_generate)

    s = sub.add_parser("grade", help="grade a JSONL of variants with a 'response' field")
    s.add_argument("responses")
    s.add_argument("-o", "--output", default="graded.jsonl")
    s.add_argument("--rtol", type=float, default=0.01, help="relative tolerance (default 0.01)")
    s.set_defaults(func=cmd_grade)

    s = sub.add_parser("metrics", help="headline metrics with bootstrap CIs from graded JSONL")
    s.add_argument("graded")
    s.add_argument("--by", default="template", help="problem group: template (default) or instance")
    s.add_argument("--format", choices=["table", "csv", "json", "markdown"], default="table")
    s.add_argument("--resamples", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.set_defaults(func=cmd_metrics)

    s = sub.add_parser("split", help="leakage-free train/test split of a JSONL file")
    s.add_argument("input")
    s.add_argument("--test-size", type=float, default=0.1)
    s.add_argument("--by", choices=["template", "instance"], default="template")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("-o", "--output", help="output stem (default: the input's name)")
    s.set_defaults(func=cmd_split)

    s = sub.add_parser("gallery", help="Markdown page with one rendered example per template")
    s.add_argument("-o", "--output", help="file to write (default: stdout)")
    s.add_argument("--seed", type=int, default=0)
    with_catalog(s, filters=False)
    s.set_defaults(func=cmd_gallery)

    s = sub.add_parser("schema", help="write the JSON Schemas of templates and variants")
    s.add_argument("-o", "--output", default="schemas", help="folder (default: schemas)")
    s.set_defaults(func=cmd_schema)
    return p


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the command line; returns the exit status (errors go to stderr, status 1)."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args, out or sys.stdout)
    except BrokenPipeError:  # e.g. `physgen generate | head`: the reader left, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (PhysgenError, KeyError, ValueError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        sys.stderr.write(f"physgen {args.command}: error: {message}\n")
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())

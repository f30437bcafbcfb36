"""The ``physgen`` command: list, show, validate, generate, grade, metrics, report, split, lm-eval.

Each command imports what it needs when it runs, so ``physgen list`` and
``physgen show`` start without SymPy or Pint (from the compiled-template cache).
A bad argument gets one line on stderr naming the value and the valid choices
(status 2 for the command line, 1 for what it names); no output file is left
behind when a command fails.

The built-in catalog's templates still to repair (issue 17) are listed, not failed, with ``--pending``:

>>> from physgen.catalog import BUILTIN_ROOT
>>> pending = BUILTIN_ROOT.parent / "tests" / "data" / "pending_repairs.json"
>>> main(["validate", "--pending", str(pending)])  # doctest: +ELLIPSIS
OK: ... templates valid (... pending repair in ...) in ...
0
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import itertools
import json
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from . import __version__
from .catalog import Catalog, load_catalog
from .errors import ArgumentError, FairnessWarning, PhysgenError, TemplateError, suggest, unknown
from .progress import Progress
from .reading.compare import RTOL
from .render import STYLES

if TYPE_CHECKING:
    from .generation import Paraphrases

#: Runs of at least this many items get a progress bar on a terminal (and their size printed).
LONG_RUN = 10_000


# -- progress -------------------------------------------------------------------------------------
def _progress(args: argparse.Namespace, total: int | None, unit: str = "variants") -> Progress:
    """The progress bar a command shows: ``--progress`` / ``--no-progress``, else on for a long
    run (or one of unknown length) when stderr is a terminal."""
    wanted = args.progress
    if wanted is None:
        wanted = sys.stderr.isatty() and (total is None or total >= LONG_RUN)
    return Progress(total, wanted, unit)


# -- arguments ------------------------------------------------------------------------------------
class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and examples as written; an option's default after its help, unless the
    help already says it or there is none."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default is None or action.default is False \
                or action.default == argparse.SUPPRESS:
            return text
        return text + " (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors that suggest the closest valid value."""

    #: The subcommands' parsers, by name (on the top-level parser).
    commands: dict[str, Parser]

    def error(self, message: str) -> NoReturn:
        choice = re.search(r"invalid choice: '?([^' ]*)'? \(choose from (.*)\)", message)
        if choice:
            valid = [c.strip(" '") for c in choice.group(2).split(",")]
            message += suggest(choice.group(1), valid)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is less than {low}")
        return value

    return parse


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1 (e.g. 0.1)")
    return value


def _paraphrases(text: str) -> Paraphrases:
    if text in ("all", "random"):
        return text  # type: ignore[return-value]
    try:
        indices = [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not 'all', 'random' or indices like 0,2") from None
    if any(i < 0 for i in indices):
        raise argparse.ArgumentTypeError(f"{text!r}: paraphrase indices start at 0")
    return indices


def _output(path: str | None, suffixes: Sequence[str], option: str = "-o") -> str | None:
    """``path`` when its extension is one of ``suffixes`` (``None`` and ``-`` mean stdout) and it
    can be written (its folder exists; pyarrow is installed for Parquet), checked before any work."""
    if path in (None, "-"):
        return None
    from .export import check_output, require_pyarrow

    suffix = Path(path).suffix.lower()
    if suffix not in suffixes:
        raise unknown("output format", suffix or "(none)", suffixes, hint=f" ({option} {path})")
    if Path(path).is_dir():
        raise ArgumentError(f"{option} {path} is a folder; give a file name ending in {suffixes[0]}")
    check_output(path)
    if suffix == ".parquet":
        require_pyarrow()
    return path


def _numbered(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, row)`` for the rows of a JSONL or Parquet input file, each parsed with
    bounds (:func:`physgen.rows.read`)."""
    from .export import require_pyarrow
    from .rows import read

    suffix = Path(path).suffix.lower()
    if suffix not in (".jsonl", ".parquet"):
        raise unknown("input format", suffix or "(none)", (".jsonl", ".parquet"), hint=f" ({path})")
    if not Path(path).is_file():
        raise ArgumentError(f"{path}: no such file")
    if suffix == ".parquet":
        require_pyarrow()
    yield from read(path)


def _reads(path: str, check: Callable[[dict[str, Any], str], None]) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL or Parquet input file, each parsed with bounds and passed to
    ``check(row, "file:line")``, which raises :class:`RowError` for a malformed one."""
    for number, row in _numbered(path):
        check(row, f"{path}:{number}")
        yield row


# -- commands -------------------------------------------------------------------------------------
def _catalog(args: argparse.Namespace, lazy: bool = False) -> Catalog:
    """The catalog the options select: ``--domain``, ``--difficulty``, ``--tag``, then ``--template``."""
    cat = load_catalog(args.path, lazy=lazy, progress=getattr(args, "progress", None))  # --no-progress
    filters = " ".join(f"--{k} {v}" for k in ("domain", "difficulty", "tag")
                       for v in getattr(args, k, None) or ())
    ids = getattr(args, "template", None)
    if filters or ids:
        cat = cat.filter(domain=args.domain, difficulty=args.difficulty, tags=args.tag, ids=ids)
    if filters and not len(cat):
        raise ArgumentError(f"no template matches {filters}")
    return cat


def cmd_list(args: argparse.Namespace, out: IO[str]) -> int:
    """Print the catalog by domain: id, difficulty, type, inputs and answers."""
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
    """Print one instance of a template in every paraphrase, with its answers and steps."""
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
    """Load and check template files; every problem in every file is listed. With ``--report``,
    a table per template of the numbers behind each validity check (docs/validity.md)."""
    start = time.perf_counter()
    if not args.time_limit > 0:
        raise ArgumentError(f"--time-limit {args.time_limit:g} is not a positive number of seconds")
    templates: list[Any] = []
    for path in args.paths or [None]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FairnessWarning)  # listed below, one line each
            # a CatalogError lists every problem
            cat = load_catalog(path, time_limit=args.time_limit, progress=args.progress)
        templates.extend(cat[i] for i in cat)
    if args.report:
        _validity_report(templates, args.draws, out)
    pending = _pending(args.pending)
    found = [(t.id, check, p) for t in templates for check, p in t.findings]
    todo = [(tid, check, p) for tid, check, p in found if (tid, check) not in pending]
    for _, check, problem in todo:
        out.write(f"{problem} [{check}]\n")
    held = f" ({len(found) - len(todo)} pending repair in {args.pending})" if args.pending else ""
    if todo:
        out.write(f"{len(todo)} problem(s) of wording or options in {len({t for t, _, _ in todo})} "
                  f"template(s){held}; docs/validity.md explains each check\n")
        return 1
    out.write(f"OK: {len(templates)} templates valid{held} in {time.perf_counter() - start:.1f} s\n")
    return 0


def _pending(path: str | None) -> set[tuple[str, str]]:
    """``(template id, check)`` pairs listed in a pending-repairs JSON file (a list of objects with
    ``template``, ``check`` and ``reason``), which ``validate`` reports without failing."""
    if path is None:
        return set()
    try:
        rows = json.loads(Path(path).read_text(encoding="utf-8"))
        return {(str(r["template"]), str(r["check"])) for r in rows}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ArgumentError(f"--pending {path}: not a JSON list of {{template, check, reason}} objects "
                            f"({type(exc).__name__}); fix or drop the file") from None


def _validity_report(templates: list[Any], draws: int, out: IO[str]) -> None:
    from .audit import audit

    if draws < 100:
        raise ArgumentError(f"--draws {draws} is too few to measure reject rates; use at least 100")
    head = ("template", "constr.", "rejected", "worst check", "exact", "mistakes", "bad opts", "omit",
            "noop", "level", "graph", "notes")
    rows = []
    noted = 0
    for t in templates:
        r = audit(t, draws)
        worst = max(r.rejected, key=lambda k: r.rejected[k], default="")
        noted += bool(r.errors)
        rows.append((r.template_id, f"{r.accepted_by_constraints:.0%}", f"{r.rejected_total:.1%}",
                     f"{worst.removeprefix('check:')} {r.rejected.get(worst, 0):.1%}" if worst else "",
                     ",".join(r.exact_inputs) or "-", str(r.mistakes),
                     f"{r.implausible_options}/{r.options_checked}", r.omissible, str(r.noop_sentences),
                     str(r.difficulty), r.measures,
                     "; ".join([*r.errors, *(f"implied {x}" for x in r.implied)]) or "-"))
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]
    for row in (head, *rows):
        out.write("  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)).rstrip() + "\n")
    out.write(f"{draws:,} draws per template; 'rejected' is the share of draws meeting the constraints "
              f"that the validity checks redraw; 'graph' is derived quantities/depth/laws/decisions, "
              f"which give the level (physgen.graph); {noted} template(s) with notes\n")


def _generation(args: argparse.Namespace) -> tuple[Any, dict[str, Any], int]:
    """The templates, :func:`physgen.generate` options and variant count the options ask for;
    every argument is checked here, before anything is drawn or written."""
    from .generation import count_variants, resolve_templates

    cat = _catalog(args)
    source = resolve_templates([cat[i] for i in args.template] if args.template else cat)
    formats = args.format or ["free_form"]
    options = {"n": args.n, "seed": args.seed, "formats": formats, "paraphrases": args.paraphrases,
               "style": args.style, "n_options": args.n_options, "workers": args.jobs, "unique": args.unique}
    total = count_variants(source, args.n, formats, args.paraphrases)
    if total == 0:
        raise ArgumentError(f"no variants: format(s) {', '.join(formats)} apply to none of the "
                            f"{len(source)} selected template(s)" if args.n else "no variants: -n is 0")
    texts = {len(t.texts) for t in source}
    each = ("all paraphrases (" + "–".join(str(k) for k in sorted({min(texts), max(texts)})) + ")"
            if args.paraphrases == "all" else "1 paraphrase" if args.paraphrases == "random"
            else f"{len(args.paraphrases)} paraphrase(s)")
    sys.stderr.write(f"physgen {args.command}: {'at most ' if args.unique else ''}{total:,} variants: "
                     f"{len(source)} template(s) × {args.n:,} instance(s) × {each} × "
                     f"{len(formats)} format(s)\n")
    return source, options, total


def cmd_generate(args: argparse.Namespace, out: IO[str]) -> int:
    """Write variants to a JSONL or Parquet file (atomically) or to stdout."""
    from .generation import generate, generate_jsonl

    output = _output(args.output, (".jsonl", ".parquet"))
    source, options, total = _generation(args)
    progress = _progress(args, total)
    if output is None:
        done = 0
        for block in generate_jsonl(source, **options):
            out.write(block.decode())
            done += block.count(b"\n")
            progress(done)
        progress.close()
        return 0
    if output.lower().endswith(".parquet"):
        from .export import write_parquet

        count = write_parquet(generate(source, **options), output, progress=progress)
    else:
        from .export import write_blocks

        count = write_blocks(generate_jsonl(source, **options), output, progress)
    progress.close()
    sys.stderr.write(f"wrote {count:,} variants from {len(source)} templates to {output}\n")
    return 0


def cmd_lm_eval(args: argparse.Namespace, out: IO[str]) -> int:
    """Write an lm-evaluation-harness task folder: a group with one subtask per format."""
    from .export import write_lm_eval_task
    from .generation import generate

    source, options, total = _generation(args)
    progress = _progress(args, total)
    done = 0

    def counted() -> Iterator[Any]:
        nonlocal done
        for v in generate(source, **options):
            done += 1
            progress(done)
            yield v

    path = write_lm_eval_task(counted(), args.output, name=args.name)
    progress.close()
    out.write(f"wrote {done:,} variants to {path.parent}; run it with\n"
              f"  lm_eval --model hf --model_args pretrained=<model> --include_path {path.parent} "
              f"--tasks {args.name}\n")
    return 0


def cmd_grade(args: argparse.Namespace, out: IO[str]) -> int:
    """Grade rows of variant fields plus ``response`` (and optional ``attempt``, ``model``).

    Each output row is the graded record (``physgen.metrics.record``) with the grade,
    the prompt and the response: what ``physgen metrics`` and ``physgen report`` read."""
    from .export import write_jsonl
    from .jsonl import line
    from .rows import response_variant
    from .scale import grade_row

    output = _output(args.output, (".jsonl",))

    def check(row: dict[str, Any], where: str) -> None:
        response_variant(row, where)

    # A malformed row stops the run with nothing written: a file is written atomically (and
    # dropped on error); stdout cannot be taken back, so every row is checked before the first.
    if output is None:
        for _ in _reads(args.responses, check):
            pass
    rows = _numbered(args.responses)
    first = next(rows, None)
    if first is None:
        raise ArgumentError(f"{args.responses} holds no rows to grade")
    progress = _progress(args, None, "responses")

    def graded() -> Iterator[dict[str, Any]]:
        for number, row in itertools.chain([first], rows):
            rec = grade_row(row, rtol=args.rtol, where=f"{args.responses}:{number}")
            progress(number)
            yield rec

    if output is None:
        for rec in graded():
            out.write(line(rec).decode())
        progress.close()
        return 0
    count = write_jsonl(graded(), output)
    progress.close()
    out.write(f"graded {count:,} responses into {output}\n")
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
    """Print the headline metrics of graded records, with bootstrap confidence intervals: one
    table per model when the rows have a ``model`` column (models are never pooled)."""
    from .metrics import MODEL, breakdown, by_model, conditional_accuracy, summary
    from .rows import check_graded

    rows = list(_reads(args.graded, check_graded))
    if not rows:
        raise ArgumentError(f"{args.graded} holds no graded records")
    named = any(MODEL in r for r in rows)
    groups = {"(unnamed model)" if m is None else m: rs for m, rs in by_model(rows).items()}
    if args.model is not None:
        if not named:
            raise ArgumentError(f"{args.graded} has no 'model' column, so --model has nothing to select; "
                                "leave it out")
        if args.model not in groups:
            raise unknown("model", args.model, groups)
        groups = {args.model: groups[args.model]}
    tables = {}
    for m, rs in groups.items():
        s = summary(rs, by=args.by, n_resamples=args.resamples, seed=args.seed)
        tables[m] = [{**({"model": m} if named else {}), "metric": k, "value": round(v.value, 4),
                      "low": round(v.low, 4), "high": round(v.high, 4)} for k, v in s.items()]
    if args.format != "table":
        out.write(_render([row for t in tables.values() for row in t], args.format))
        return 0
    for number, (m, rs) in enumerate(groups.items()):
        if named:
            out.write(("\n" if number else "") + f"model {m} ({len(rs):,} records)\n")
        out.write(_render([{k: v for k, v in row.items() if k != "model"} for row in tables[m]], "table"))
        out.write("\nby format\n")
        per = breakdown(rs, "format")
        out.write(_render([{"format": k, "accuracy": round(v["accuracy"], 4), "n": int(v["n"])}
                           for k, v in per.items()], "table"))
        cond = conditional_accuracy(rs)
        if len(per) > 1 and cond:
            out.write("\nP(correct on B | failed A)\n")
            out.write(_render([{"A": a, "B": b, "value": round(v, 4)} for (a, b), v in cond.items()],
                              "table"))
    return 0


def cmd_report(args: argparse.Namespace, out: IO[str]) -> int:
    """Write a self-contained HTML report of graded records (one or several models)."""
    from .export import atomic_open
    from .report import report
    from .rows import check_graded

    output = _output(args.output, (".html",))
    rows = list(_reads(args.graded, check_graded))
    if not rows:
        raise ArgumentError(f"{args.graded} holds no graded records")
    page = report(rows, title=args.title or f"physgen report: {Path(args.graded).name}", by=args.by,
                  n_resamples=args.resamples, seed=args.seed, worst=args.worst)
    if output is None:
        out.write(page)
        return 0
    with atomic_open(output) as fh:
        fh.write(page)
    out.write(f"wrote {output} ({len(rows):,} graded records)\n")
    return 0


def cmd_split(args: argparse.Namespace, out: IO[str]) -> int:
    """Split a JSONL file into train and test with no template (or instance) on both sides."""
    from .export import write_jsonl
    from .rows import check_split
    from .splits import split

    group = "template_id" if args.by == "template" else "instance_id"
    rows = list(_reads(args.input, lambda row, where: check_split(row, where, group)))
    if not rows:
        raise ArgumentError(f"{args.input} holds no rows to split")
    train, test = split(rows, test_size=args.test_size, by=args.by, seed=args.seed)
    if not train or not test:
        key = "template_id" if args.by == "template" else "instance_id"
        groups = len({str(r.get(key)) for r in rows})
        fix = ("split --by instance, or give rows from more templates" if args.by == "template"
               else "give rows from more instances")
        raise ArgumentError(f"the {'test' if not test else 'train'} file would be empty: the {len(rows):,} "
                            f"rows hold {groups} {args.by}(s), and a domain with a single {args.by} stays on "
                            f"one side (--test-size {args.test_size}); {fix}")
    stem = args.output or str(Path(args.input).with_suffix(""))
    write_jsonl(train, f"{stem}.train.jsonl")
    write_jsonl(test, f"{stem}.test.jsonl")
    out.write(f"{len(train)} train rows -> {stem}.train.jsonl, {len(test)} test rows -> {stem}.test.jsonl\n")
    return 0


def cmd_gallery(args: argparse.Namespace, out: IO[str]) -> int:
    """Write a Markdown page with one rendered example per template."""
    from .export import atomic_open
    from .gallery import gallery

    output = _output(args.output, (".md",))
    page = gallery(load_catalog(args.path), seed=args.seed)
    if output is None:
        out.write(page)
        return 0
    with atomic_open(output) as fh:
        fh.write(page)
    out.write(f"wrote {output}\n")
    return 0


def cmd_schema(args: argparse.Namespace, out: IO[str]) -> int:
    """Write the JSON Schemas of template files and of variants."""
    from .export import atomic_open, check_output
    from .schema import json_schemas

    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise ArgumentError(f"-o {folder} is a file; give a folder")
    if not folder.exists():
        check_output(folder)  # the folder it goes in exists and is writable
        folder.mkdir()
    for name, schema in json_schemas().items():
        with atomic_open(folder / name) as fh:
            fh.write(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
        out.write(f"wrote {folder / name}\n")
    return 0


# -- the parser -----------------------------------------------------------------------------------
def _command(sub: Any, name: str, func: Callable[[argparse.Namespace, IO[str]], int],
             example: str) -> Parser:
    """A subcommand whose description is its function's docstring and whose epilog is an example."""
    doc = inspect.cleandoc(func.__doc__ or "").replace("``", "'")
    parser: Parser = sub.add_parser(name, help=doc.splitlines()[0].rstrip("."), description=doc,
                                    epilog=f"example:\n  {example}", formatter_class=_Formatter)
    parser.set_defaults(func=func)
    return parser


def _catalog_options(sp: argparse.ArgumentParser, filters: bool = True) -> None:
    sp.add_argument("--path", metavar="PATH",
                    help="template folder or file (default: the built-in catalog)")
    if filters:
        sp.add_argument("--domain", action="append", metavar="DOMAIN",
                        help="only this domain, e.g. optics (repeatable)")
        sp.add_argument("--difficulty", type=int, action="append", choices=range(1, 6), metavar="{1..5}",
                        help="only this difficulty (repeatable)")
        sp.add_argument("--tag", action="append", metavar="TAG",
                        help="only templates with this subdomain tag (repeatable: all must be present)")


def _progress_option(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help=f"progress bar on stderr (default: on for runs of {LONG_RUN:,}+ on a terminal; "
                    "tqdm's when installed); --no-progress also hides the catalog's compile progress")


def _generation_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("-n", type=_whole(0), default=10, metavar="N",
                    help="instances (parameter sets) per template; each gives one variant per paraphrase "
                    "and per format, so the default --paraphrases all makes about 3 variants per instance")
    sp.add_argument("--seed", type=int, default=0, help="random seed; the same seed gives the same output")
    sp.add_argument("--format", action="append", metavar="FORMAT",
                    help="question format (repeatable; default: free_form): free_form, mc_numerical, "
                    "mc_symbolic, units, noop, omitted, code, or one registered by a plugin")
    sp.add_argument("--paraphrases", type=_paraphrases, default="all", metavar="WHICH",
                    help="'all' (every paraphrase: usually 3 per instance), 'random' (one) "
                    "or indices like 0,2")
    sp.add_argument("--n-options", type=int, default=4, choices=range(2, 9), metavar="{2..8}",
                    help="choices in multiple-choice formats")
    sp.add_argument("--style", choices=STYLES, default="unicode", help="how numbers and units are written")
    sp.add_argument("--template", action="append", metavar="ID", help="only this template id (repeatable)")
    sp.add_argument("--unique", action="store_true",
                    help="drop repeated parameter sets (small templates repeat otherwise)")
    sp.add_argument("-j", "--jobs", type=_whole(1), default=1, metavar="N",
                    help="worker processes; the output is the same for any number")
    _progress_option(sp)
    _catalog_options(sp)


def build_parser() -> Parser:
    """The ``physgen`` argument parser."""
    p = Parser(prog="physgen", description="physgen: unlimited, verifiable physics problems for testing and "
               "training language models. Generate them, grade replies, and measure robustness.",
               formatter_class=_Formatter,
               epilog="run 'physgen <command> --help' for a command's options")
    p.add_argument("--version", action="version", version=f"physgen {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="<command>", parser_class=Parser)
    p.commands = sub.choices

    s = _command(sub, "list", cmd_list, "physgen list --domain optics")
    _catalog_options(s)

    s = _command(sub, "show", cmd_show, "physgen show optics.thin_lens --style latex")
    s.add_argument("id", help="template id, e.g. optics.thin_lens (see physgen list)")
    s.add_argument("--seed", type=int, default=0, help="random seed of the instance shown")
    s.add_argument("--style", choices=STYLES, default="unicode", help="how numbers and units are written")
    _catalog_options(s, filters=False)

    s = _command(sub, "validate", cmd_validate, "physgen validate my_templates/")
    s.add_argument("paths", nargs="*", metavar="PATH",
                   help="template folders or files (default: the built-in catalog)")
    s.add_argument("--report", action="store_true",
                   help="print the numbers behind every validity check, per template")
    s.add_argument("--draws", type=int, default=10_000, metavar="N",
                   help="draws per template for --report (default 10000)")
    s.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                   help="stop checking a template file after this long, and report it (default 60)")
    _progress_option(s)
    s.add_argument("--pending", metavar="FILE",
                   help="JSON list of {template, check, reason} problems awaiting repair: listed, not failed")

    s = _command(sub, "generate", cmd_generate,
                 "physgen generate -n 100 --seed 0 --domain optics -o optics.jsonl")
    s.add_argument("-o", "--output", metavar="FILE",
                   help="a .jsonl or .parquet file, written atomically (default: JSONL on stdout)")
    _generation_options(s)

    s = _command(sub, "lm-eval", cmd_lm_eval,
                 "physgen lm-eval -n 20 --format free_form --format mc_numerical -o physgen_tasks")
    s.add_argument("-o", "--output", metavar="FOLDER", required=True, help="the task folder to write")
    s.add_argument("--name", default="physgen", help="the group's name; subtasks are <name>_<format>")
    _generation_options(s)

    s = _command(sub, "grade", cmd_grade, "physgen grade responses.jsonl -o graded.jsonl")
    s.add_argument("responses", metavar="RESPONSES", help="a .jsonl or .parquet file of variants with a "
                   "'response' field (optionally 'attempt' and 'model')")
    s.add_argument("-o", "--output", metavar="FILE", default="graded.jsonl",
                   help="the .jsonl file to write ('-': stdout)")
    s.add_argument("--rtol", type=float, default=RTOL, help="relative tolerance")
    _progress_option(s)

    s = _command(sub, "metrics", cmd_metrics, "physgen metrics graded.jsonl --format markdown")
    s.add_argument("graded", metavar="GRADED", help="a .jsonl or .parquet file written by physgen grade")
    s.add_argument("--by", choices=["template", "instance"], default="template", help="problem group")
    s.add_argument("--format", choices=["table", "csv", "json", "markdown"], default="table",
                   help="output format")
    s.add_argument("--resamples", type=_whole(0), default=1000, help="bootstrap resamples (0: no CIs)")
    s.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    s.add_argument("--model", metavar="NAME", help="only this model's rows (default: each model in turn; "
                   "models are never pooled)")

    s = _command(sub, "report", cmd_report, "physgen report graded.jsonl -o report.html")
    s.add_argument("graded", metavar="GRADED", help="a .jsonl or .parquet file written by physgen grade "
                   "(several models: a 'model' column)")
    s.add_argument("-o", "--output", metavar="FILE", help="the .html file to write (default: stdout)")
    s.add_argument("--title", help="page title (default: from the file name)")
    s.add_argument("--by", choices=["template", "instance"], default="template",
                   help="problem group of the CIs")
    s.add_argument("--resamples", type=_whole(0), default=1000, help="bootstrap resamples (0: no CIs)")
    s.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    s.add_argument("--worst", type=_whole(0), default=5, help="worst templates shown with an example")

    s = _command(sub, "split", cmd_split, "physgen split variants.jsonl --test-size 0.1 --by template")
    s.add_argument("input", metavar="INPUT", help="a .jsonl or .parquet file of variants or graded records")
    s.add_argument("--test-size", type=_fraction, default=0.1, help="share of groups in the test split")
    s.add_argument("--by", choices=["template", "instance"], default="template",
                   help="what may not be on both sides")
    s.add_argument("--seed", type=int, default=0, help="which groups go to the test side")
    s.add_argument("-o", "--output", metavar="STEM",
                   help="write STEM.train.jsonl and STEM.test.jsonl (default: the input's name)")

    s = _command(sub, "gallery", cmd_gallery, "physgen gallery -o docs/catalog.md")
    s.add_argument("-o", "--output", metavar="FILE", help="the .md file to write (default: stdout)")
    s.add_argument("--seed", type=int, default=0, help="random seed of the examples")
    _catalog_options(s, filters=False)

    s = _command(sub, "schema", cmd_schema, "physgen schema -o schemas")
    s.add_argument("-o", "--output", metavar="FOLDER", default="schemas", help="folder to write them to")
    return p


def _one_line(exc: BaseException) -> str:
    """The message of an error on one line (a template file's problems keep one line each)."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    if isinstance(exc, TemplateError):
        return text
    return "; ".join(part.strip() for part in text.splitlines() if part.strip())


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the command line; returns the exit status (2: bad arguments, 1: a failed command)."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            command = parser.commands[args.command]
            known = [o for a in command._actions for o in a.option_strings]
            hint = suggest(extra[0], known, 1) if extra[0].startswith("-") else ""
            command.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    except SystemExit as exc:  # --help, --version, or a bad argument (already reported)
        return exc.code if isinstance(exc.code, int) else 0

    def show_warning(message: Warning | str, category: type[Warning], *rest: Any, **kw: Any) -> None:
        sys.stderr.write(f"physgen {args.command}: warning: {message}\n")

    try:
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            status: int = args.func(args, out or sys.stdout)
    except BrokenPipeError:  # e.g. `physgen generate | head`: the reader left, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError):
            os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (PhysgenError, KeyError, ValueError, OSError) as exc:
        sys.stderr.write(f"physgen {args.command}: error: {_one_line(exc)}\n")
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())

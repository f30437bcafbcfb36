"""A self-contained HTML report of graded records, to read or send to a colleague
(``physgen report graded.jsonl -o report.html``; needs the ``plot`` extra).

One file, no external resources: the headline metrics with bootstrap confidence
intervals; a paired comparison of each pair of models; parse failures per model;
accuracy by format, difficulty, domain and probe; the conditional-accuracy heatmap,
the group-accuracy histogram and the ranked templates (inline SVG, one per model, side
by side); every template, worst first, under its domain; and the worst templates, each
with an example prompt and the distinct replies to it. Models (a ``model`` column) are
never pooled.

Records are hostile input: every value read from one is escaped (``html.escape``,
quotes too) wherever it appears, anchors are built from a safe slug and a hash, and
the page's Content-Security-Policy (:data:`CSP`) allows no script at all.

>>> rows = [{"template_id": t, "instance_id": t + i, "variant_id": t + i + f, "format": f,
...          "domain": "optics", "difficulty": 2, "correct": c, "score": float(c)}
...         for t, i, f, c in [("a", "1", "free_form", True), ("a", "1", "units", False),
...                            ("b", "1", "free_form", False), ("b", "1", "units", False)]]
>>> page = report(rows, n_resamples=0)
>>> page.startswith("<!DOCTYPE html>"), page.count("<img "), "Worst templates" in page
(True, 6, True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import InputError
from .metrics import breakdown, by_model, compare, group_accuracies, hashable, order_key, ordered, summary
from .plots import accuracy_by, accuracy_intervals, conditional_heatmap, group_histogram, ranked_accuracy

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .metrics import Estimate

#: The headline metrics, in order, with what each means.
HEADLINE = {
    "accuracy": "share of replies with every part right",
    "partial_accuracy": "share of parts right",
    "consistency": "share of {by}s answered right every time",
    "complete_failure": "share of {by}s never answered right",
    "confusion": "share of {by}s right 40–60 % of the time",
}
#: The format that probes are compared with.
BASE_FORMAT = "free_form"
#: Longest reply shown in full in an example (longer ones are cut in the middle).
MAX_REPLY = 2000
#: The part verdicts counted as parse failures (``grader_error`` only when a record has one).
FAILURES = ("unparseable", "missing", "ambiguous", "grader_error")
#: The columns the report groups by: a list or dict found there (a hostile row) is read as its repr.
KEYS = frozenset({"model", "template_id", "instance_id", "variant_id", "format", "domain", "difficulty",
                  "attempt"})
#: How records without a ``model`` are labelled.
UNNAMED = "(unnamed model)"
#: The page's Content-Security-Policy: no script, no plugin, no request; only its own styles
#: and the figures' ``data:`` images.
CSP = ("default-src 'none'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; "
       "img-src data:; style-src 'unsafe-inline'")

_CSS = """
:root { --ink: #1d2330; --muted: #5b6474; --line: #dfe3ea; --bad: #b3261e; --good: #1b7f3b;
        --band: #eef2f8; --bar: #4c78a8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 28px 32px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 8px; }
p.lead, p.note, .muted { color: var(--muted); }
p.note { font-size: 13px; margin: 6px 0 0; }
table { border-collapse: collapse; margin: 8px 0 4px; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 12px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-size: 13px; color: var(--muted); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) { background: #fafbfd; }
.ci { color: var(--muted); font-size: 12px; }
.meter { position: relative; height: 6px; width: 120px; background: var(--band); border-radius: 3px;
         margin-top: 3px; margin-left: auto; }
.meter .fill { position: absolute; top: 0; bottom: 0; left: 0; background: var(--bar); border-radius: 3px; }
.meter .range { position: absolute; top: -2px; bottom: -2px; border-left: 1px solid var(--ink);
                border-right: 1px solid var(--ink); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0 4px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 150px; }
.card .big { font-size: 24px; font-weight: 650; }
.grid { display: flex; flex-wrap: wrap; gap: 8px 40px; align-items: flex-start; }
figure { margin: 8px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
figcaption { font-size: 13px; color: var(--muted); margin-top: 4px; max-width: 560px; }
.example { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; margin: 10px 0 18px; }
.example pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fb; border-radius: 6px;
               padding: 8px 10px; margin: 4px 0 10px; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo,
               Consolas, monospace; }
.verdict { font-size: 13px; }
.wrong { color: var(--bad); font-weight: 600; }
.right { color: var(--good); font-weight: 600; }
nav.toc { margin: 10px 0 0; font-size: 14px; }
a { color: #2a5db0; }
.models { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 8px 24px;
          align-items: start; }
.who { font-weight: 600; margin-bottom: 4px; }
td code { font-size: 13px; }
footer { margin-top: 40px; font-size: 12px; color: var(--muted); }
@media print { main { max-width: none; padding: 0; } h2 { break-after: avoid; }
               .example { break-inside: avoid; } }
"""


def report(records: Iterable[Mapping[str, Any]], *, title: str = "physgen report", by: str = "template",
           n_resamples: int = 1000, seed: int = 0, worst: int = 5) -> str:
    """The report page (HTML) for graded records, e.g. the rows ``physgen grade`` writes.

    ``by`` is the group the bootstrap resamples (template, or instance); ``worst``
    is how many of the lowest-scoring templates are shown with an example. Examples
    need the ``prompt`` and ``response`` columns that ``physgen grade`` writes. Records
    of several models (a ``model`` column) are never pooled: each model has its own
    column, figure or row, and each pair of models is compared on their shared variants.
    Every value read from a record is escaped, and the page's Content-Security-Policy
    forbids scripts.
    """
    rows = [{k: hashable(v) if k in KEYS else v for k, v in r.items()} for r in _mappings(records)]
    if not rows:
        raise InputError("no graded records to report on; pass rows written by `physgen grade`")
    per_model = {_label(m): rs for m, rs in by_model(rows).items()}
    options = {"by": by, "n_resamples": n_resamples, "seed": seed}
    import matplotlib.pyplot as plt

    with plt.rc_context({"text.parse_math": False}):  # a label is text, never mathtext to parse
        sections = [
            _header(title, rows, list(per_model), by),
            _contents(per_model, worst),
            _headline(per_model, options),
            _comparison(per_model, options),
            _failures(per_model),
            _breakdowns(rows, per_model, options),
            _figures(rows, per_model, options),
            _templates(per_model, options, worst),
            _worst(per_model, worst),
            _footer(options),
        ]
    body = "\n".join(s for s in sections if s)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n{body}\n"
            f"</main>\n</body>\n</html>\n")


def _mappings(records: Iterable[Any]) -> Iterator[Mapping[str, Any]]:
    for number, r in enumerate(records, 1):
        if not isinstance(r, Mapping):
            raise InputError(f"record {number} is a {type(r).__name__}, not a mapping of fields; "
                                "pass the rows physgen grade writes")
        yield r


def _label(model: str | None) -> str:
    return UNNAMED if model is None else model


def _e(text: Any) -> str:
    """Any value as HTML text: ``&``, ``<``, ``>`` and both quotes escaped (safe in attributes too)."""
    return html.escape(str(text), quote=True)


def _anchor(kind: str, value: Any) -> str:
    """A fragment id for a domain or template: its letters, digits, ``_.-`` and a short hash
    (so different values never share an id, and no id holds anything else)."""
    text = str(value)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", text)[:60].strip("-")
    return f"{kind}-{slug}-{hashlib.sha1(text.encode('utf-8', 'replace')).hexdigest()[:6]}"


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f} %"


def _estimate(e: Estimate, n: float | None = None, meter: bool = True) -> str:
    """A table cell: the value, its CI and a small bar with the CI as a bracket."""
    notes = [] if math.isnan(e.low) else [f"[{100 * e.low:.1f}, {100 * e.high:.1f}]"]
    notes += [] if n is None else [f"n = {int(n):,}"]
    ci = f'<div class="ci">{" · ".join(notes)}</div>' if notes else ""
    bar = ""
    if meter and not math.isnan(e.value):
        bracket = "" if math.isnan(e.low) else (
            f'<div class="range" style="left:{100 * e.low:.1f}%;width:{100 * (e.high - e.low):.1f}%"></div>')
        bar = f'<div class="meter"><div class="fill" style="width:{100 * e.value:.1f}%"></div>{bracket}</div>'
    return f'<td class="num">{_pct(e.value)}{ci}{bar}</td>'


def _table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """An HTML table; head cells are plain text, each row's cells are already HTML (``<td>…</td>``)."""
    top = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


def _header(title: str, rows: list[dict[str, Any]], models: list[str], by: str) -> str:
    templates = {str(r.get("template_id")) for r in rows}
    formats = ordered({str(r["format"]) for r in rows if r.get("format") is not None})
    who = f"{len(models)} models side by side" if len(models) > 1 else _e(models[0])
    return (f"<h1>{_e(title)}</h1>\n<p class=\"lead\">{len(rows):,} graded replies · {len(templates):,} "
            f"templates · formats: {_e(', '.join(formats))} · {who}</p>")


def _contents(per_model: dict[str, list[dict[str, Any]]], worst: int) -> str:
    links = [("headline", "Headline metrics"), ("comparison", "Model comparison"),
             ("failures", "Parse failures"), ("breakdowns", "Breakdowns"), ("figures", "Figures"),
             ("templates", "Templates"), ("worst", "Worst templates")]
    if len(per_model) < 2:
        links = [x for x in links if x[0] != "comparison"]
    if worst <= 0:
        links = [x for x in links if x[0] != "worst"]
    return '<nav class="toc">' + " · ".join(f'<a href="#{a}">{t}</a>' for a, t in links) + "</nav>"


def _headline(per_model: dict[str, list[dict[str, Any]]], options: dict[str, Any]) -> str:
    by = options["by"]
    results = {m: summary(rs, **options) for m, rs in per_model.items()}
    cards = []
    for m, s in results.items():
        acc = s["accuracy"]
        ci = "" if math.isnan(acc.low) else (
            f'<div class="ci">95 % CI {_pct(acc.low)} – {_pct(acc.high)}</div>')
        cards.append(f'<div class="card"><div class="muted">{_e(m)}</div>'
                     f'<div class="big">{_pct(acc.value)}</div>'
                     f'<div class="ci">accuracy over {len(per_model[m]):,} replies</div>{ci}</div>')
    rows = [[f"<td><b>{_e(name.replace('_', ' '))}</b><div class=\"ci\">{_e(doc.format(by=by))}</div></td>",
             *(_estimate(s[name]) for s in results.values())] for name, doc in HEADLINE.items()]
    rows.append([f"<td><b>{_e(by)}s</b></td>",
                 *(f'<td class="num">{int(s["groups"].value):,}</td>' for s in results.values())])
    note = (f"Intervals: 95 % percentile bootstrap over {_e(by)}s ({options['n_resamples']:,} resamples)."
            if options["n_resamples"] else "No confidence intervals (0 resamples).")
    return ('<h2 id="headline">Headline metrics</h2>\n<div class="cards">' + "".join(cards) + "</div>\n"
            + _table(["metric", *per_model], rows) + f'\n<p class="note">{note}</p>')


def _comparison(per_model: dict[str, list[dict[str, Any]]], options: dict[str, Any]) -> str:
    """Each pair of models on the replies they share (same variant and attempt): A − B with its CI."""
    if len(per_model) < 2:
        return ""
    table_rows = []
    for a, b in itertools.combinations(per_model, 2):
        try:
            c = compare(per_model[a], per_model[b], **options)
        except (KeyError, ValueError) as exc:  # no variant in common, or no variant_id column
            why = "no shared variants" if "share no variant" in str(exc) else "cannot pair these records"
            table_rows.append([f"<td>{_e(a)}</td>", f"<td>{_e(b)}</td>",
                               f'<td class="num">0</td><td class="muted" colspan="2">{why}</td>'])
            continue
        d = c["difference"]
        ci = "" if math.isnan(d.low) else (
            f'<div class="ci">[{100 * d.low:+.1f}, {100 * d.high:+.1f}] pp</div>')
        clear = not math.isnan(d.low) and (d.low > 0 or d.high < 0)
        mark = ("right" if d.value > 0 else "wrong") if clear else ""
        ahead = c.get("p_a_not_better")
        table_rows.append([f"<td>{_e(a)}</td>", f"<td>{_e(b)}</td>",
                           f'<td class="num">{int(c["paired_records"].value):,}</td>',
                           f'<td class="num"><span class="{mark}">{100 * d.value:+.1f} pp</span>{ci}</td>',
                           f'<td class="num">{"–" if ahead is None else f"{ahead.value:.3f}"}</td>'])
    return ('<h2 id="comparison">Model comparison</h2>\n<p class="note">Each pair of models on the replies '
            "they share (same variant and attempt): the accuracy difference A − B in percentage points, "
            f"with its 95 % bootstrap interval over {_e(options['by'])}s; coloured when the interval "
            "excludes 0. The last column is the share of resamples in which A is not ahead.</p>\n"
            + _table(["A", "B", "shared replies", "A − B", "P(A not ahead)"], table_rows))


def _reasons(row: Mapping[str, Any]) -> list[str]:
    """The reason of each part of a graded row (from ``parts``, else from ``grade.parts``)."""
    parts = row.get("parts")
    if isinstance(parts, Mapping):
        return [str(v) for v in parts.values()]
    grade = row.get("grade")
    listed = grade.get("parts") if isinstance(grade, Mapping) else None
    if isinstance(listed, list):
        return [str(p.get("reason")) for p in listed if isinstance(p, Mapping)]
    return []


def _failures(per_model: dict[str, list[dict[str, Any]]]) -> str:
    """Per model: how many parts could not be read, and why."""
    reasons = {m: [_reasons(r) for r in rs] for m, rs in per_model.items()}
    kinds = [k for k in FAILURES if k != "grader_error"
             or any(k in parts for rs in reasons.values() for parts in rs)]
    if not any(parts for rs in reasons.values() for parts in rs):
        return ('<h2 id="failures">Parse failures</h2>\n<p class="note">These records carry no part '
                "verdicts (<code>parts</code>, written by <code>physgen grade</code>).</p>")
    table_rows = []
    for m, rs in reasons.items():
        total = sum(len(p) for p in rs)
        cells = [f"<td>{_e(m)}</td>", f'<td class="num">{len(rs):,}</td>', f'<td class="num">{total:,}</td>']
        for kind in kinds:
            count = sum(p.count(kind) for p in rs)
            share = f'<div class="ci">{100 * count / total:.1f} % of parts</div>' if total else ""
            cells.append(f'<td class="num">{count:,}{share}</td>')
        hit = sum(any(k in p for k in kinds) for p in rs)
        cells.append(f'<td class="num">{hit:,}<div class="ci">{100 * hit / max(len(rs), 1):.1f} %</div></td>')
        table_rows.append(cells)
    return ('<h2 id="failures">Parse failures</h2>\n<p class="note">Parts of the replies the grader could '
            "not read as an answer, by reason (docs/grading.md): <b>unparseable</b> (no value found), "
            "<b>missing</b> (no answer for the part), <b>ambiguous</b> (several values)"
            + (", <b>grader_error</b> (the grader failed, not the model)" if "grader_error" in kinds else "")
            + ". They count as wrong.</p>\n"
            + _table(["model", "replies", "parts", *kinds, "replies with any"], table_rows))


def _breakdowns(rows: list[dict[str, Any]], per_model: dict[str, list[dict[str, Any]]],
                options: dict[str, Any]) -> str:
    out = ['<h2 id="breakdowns">Breakdowns</h2>', '<div class="grid">']
    linked = set(_template_domains(per_model).values())  # the domains the template table has
    for column in ("format", "difficulty", "domain"):
        if not all(column in r for r in rows):
            continue
        est = {m: accuracy_intervals(rs, column, group=options["by"], n_resamples=options["n_resamples"],
                                     seed=options["seed"]) for m, rs in per_model.items()}
        counts = {m: breakdown(rs, column) for m, rs in per_model.items()}
        values = ordered({v for e in est.values() for v in e})

        def name(v: Any, column: str = column) -> str:
            if column == "domain" and str(v) in linked:
                return f'<td><a href="#{_anchor("domain", v)}">{_e(v)}</a></td>'
            return f"<td>{_e(v)}</td>"

        table_rows = [[name(v), *(
            _estimate(est[m][v], counts[m][v]["n"]) if v in est[m] else '<td class="num">–</td>'
            for m in per_model)] for v in values]
        out.append(f"<div><h3>By {_e(column)}</h3>\n" + _table([column, *per_model], table_rows) + "</div>")
    return "\n".join(out) + "\n</div>\n" + _probes(per_model, options)


def _probes(per_model: dict[str, list[dict[str, Any]]], options: dict[str, Any]) -> str:
    """Each probe format against free form on the same instances: what the perturbation costs."""
    table_rows = []
    for m, rs in per_model.items():
        if not all("instance_id" in r for r in rs):
            continue
        base = {r["instance_id"] for r in rs if r.get("format") == BASE_FORMAT}
        probes = ordered({r.get("format") for r in rs} - {BASE_FORMAT, None})
        for probe in probes:
            shared = base & {r["instance_id"] for r in rs if r.get("format") == probe}
            if not shared:
                continue
            on_probe = [r for r in rs if r.get("format") == probe and r["instance_id"] in shared]
            on_base = [r for r in rs if r.get("format") == BASE_FORMAT and r["instance_id"] in shared]
            p = summary(on_probe, **options)["accuracy"]
            b = summary(on_base, **options)["accuracy"]
            change = p.value - b.value
            mark = "wrong" if change < 0 else "right" if change > 0 else ""
            table_rows.append([f"<td>{_e(probe)}</td>", f"<td>{_e(m)}</td>", _estimate(p, len(on_probe)),
                               _estimate(b, len(on_base)),
                               f'<td class="num"><span class="{mark}">{100 * change:+.1f} pp</span></td>'])
    if not table_rows:
        return ""
    return (f"<h3>By probe</h3>\n<p class=\"note\">Each probe format against {BASE_FORMAT} on the same "
            "instances: the change is what the perturbation costs (or gains).</p>\n"
            + _table(["probe", "model", "on the probe", f"{BASE_FORMAT}, same instances", "change"],
                     table_rows))


def _svg(fig: Figure) -> str:
    """A figure as an inline SVG image (a data URI, so the page needs no other file)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "physgen"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode()
    width = int(fig.get_figwidth() * 96)
    return f'<img alt="" width="{width}" src="data:image/svg+xml;base64,{data}">'


def _figure(fig: Figure, caption: str, heading: str = "") -> str:
    """A figure; ``caption`` is HTML, ``heading`` (a model's name) is text."""
    top = f'<div class="who">{_e(heading)}</div>' if heading else ""
    under = f"<figcaption>{caption}</figcaption>" if caption else ""
    return f"<figure>{top}{_svg(fig)}{under}</figure>"


def _figures(rows: list[dict[str, Any]], per_model: dict[str, list[dict[str, Any]]],
             options: dict[str, Any]) -> str:
    by, multi = options["by"], len(per_model) > 1
    boot = {"by": by, "n_resamples": options["n_resamples"], "seed": options["seed"]}
    hue = "model" if multi else None
    data = [dict(r, model=m) for m, rs in per_model.items() for r in rs]
    out = ['<h2 id="figures">Figures</h2>', '<div class="grid">']
    if all("format" in r for r in rows):
        out.append(_figure(accuracy_by(data, x="format", hue=hue, **boot),
                           "Accuracy by format, with 95 % bootstrap intervals."))
    if all("difficulty" in r for r in rows):
        second = "model" if multi else ("format" if all("format" in r for r in rows) else None)
        out.append(_figure(accuracy_by(data, x="difficulty", hue=second, **boot),
                           "Accuracy by difficulty (1 easy … 5 hard)."))
    if all("domain" in r for r in rows):
        out.append(_figure(accuracy_by(data, x="domain", hue=hue, **boot), "Accuracy by domain."))
    out.append("</div>")
    if all("format" in r and "instance_id" in r for r in rows) and any(
            len({r.get("format") for r in rs}) > 1 for rs in per_model.values()):
        out.append(_side_by_side(
            "Conditional accuracy", {m: conditional_heatmap(rs) for m, rs in per_model.items()},
            "P(correct on B | failed A) over the instances that fail every A record, with n, their "
            "number, in each cell. The hatched diagonal gives how many instances fail A (its value would "
            "be 0 by construction); grey cells have no such instance."))
    out.append(_side_by_side(
        f"Accuracy per {_e(by)}", {m: group_histogram(rs, by=by, n_resamples=options["n_resamples"],
                                                     seed=options["seed"]) for m, rs in per_model.items()},
        f"The orange bins hold exactly the {_e(by)}s counted as confused."))
    if all("template_id" in r and "instance_id" in r for r in rows):
        ranked = {m: ranked_accuracy(rs, n_resamples=options["n_resamples"], seed=options["seed"])
                  for m, rs in per_model.items()}
        out.append(_side_by_side(
            "Templates, best to worst", ranked,
            'Accuracy of each template, ranked and coloured by domain; <a href="#templates">the template '
            "table</a> names them."))
    return "\n".join(out)


def _side_by_side(heading: str, figures: dict[str, Figure], caption: str) -> str:
    """One figure per model in a row (wrapping on narrow pages), under one heading and caption
    (both HTML)."""
    multi = len(figures) > 1
    cells = "".join(_figure(fig, "", m if multi else "") for m, fig in figures.items())
    return f'<h3>{heading}</h3><div class="models">{cells}</div><p class="note">{caption}</p>'


def _template_order(per_model: dict[str, list[dict[str, Any]]]
                    ) -> tuple[dict[str, dict[Any, float]], list[Any]]:
    """Each model's accuracy per template, and the templates from the worst (mean over models) up."""
    accuracy = {m: group_accuracies(rs, "template") for m, rs in per_model.items()}
    templates = {t for a in accuracy.values() for t in a}
    mean = {t: sum(a[t] for a in accuracy.values() if t in a) / sum(t in a for a in accuracy.values())
            for t in templates}
    return accuracy, sorted(templates, key=lambda t: (mean[t], order_key(t)))


def _templates(per_model: dict[str, list[dict[str, Any]]], options: dict[str, Any], worst: int) -> str:
    """Every template, worst first, under its domain (each domain an anchor the breakdown links to)."""
    if not all("template_id" in r for rs in per_model.values() for r in rs):
        return ""
    _, order = _template_order(per_model)
    shown = set(order[:max(worst, 0)])
    has_instances = all("instance_id" in r for rs in per_model.values() for r in rs)
    est = {m: accuracy_intervals(rs, "template_id", group="instance" if has_instances else "template",
                                 n_resamples=options["n_resamples"] if has_instances else 0,
                                 seed=options["seed"]) for m, rs in per_model.items()}
    counts = {m: breakdown(rs, "template_id") for m, rs in per_model.items()}
    about: dict[Any, dict[str, Any]] = {}
    for rs in per_model.values():
        for r in rs:
            about.setdefault(r["template_id"], r)
    domain = _template_domains(per_model)
    domains = ordered(set(domain.values()))
    out = ['<h2 id="templates">Templates</h2>',
           f'<p class="note">All {len(order):,} templates, worst first'
           f"{' (mean over models)' if len(per_model) > 1 else ''}, under their domain; intervals are 95 % "
           "bootstrap intervals over each template's instances. Domains: "
           + " · ".join(f'<a href="#{_anchor("domain", d)}">{_e(d or "(none)")}</a> '
                        f'<span class="ci">({sum(domain[t] == d for t in order)})</span>'
                        for d in domains) + "</p>"]
    for d in domains:
        mine = [t for t in order if domain[t] == d]
        table_rows = []
        for t in mine:
            link = f' · <a href="#{_anchor("example", t)}">example</a>' if t in shown else ""
            level = about[t].get("difficulty")
            table_rows.append([f'<td id="{_anchor("template", t)}"><code>{_e(t)}</code>{link}</td>',
                               f'<td class="num">{_e("" if level is None else level)}</td>',
                               *(_estimate(est[m][t], counts[m][t]["n"]) if t in est[m]
                                 else '<td class="num">–</td>' for m in per_model)])
        out.append(f'<h3 id="{_anchor("domain", d)}">{_e(d or "(no domain)")}</h3>\n'
                   + _table(["template", "difficulty", *per_model], table_rows))
    return "\n".join(out)


def _template_domains(per_model: dict[str, list[dict[str, Any]]]) -> dict[Any, str]:
    """Each template's domain (as text; that of its first record), for the template table."""
    out: dict[Any, str] = {}
    if all("template_id" in r for rs in per_model.values() for r in rs):
        for rs in per_model.values():
            for r in rs:
                out.setdefault(r["template_id"], str(r.get("domain", "")))
    return out


def _worst(per_model: dict[str, list[dict[str, Any]]], count: int) -> str:
    if count <= 0 or not all("template_id" in r for rs in per_model.values() for r in rs):
        return ""
    accuracy, order = _template_order(per_model)
    chosen = order[:count]
    models = list(per_model)
    out = ['<h2 id="worst">Worst templates</h2>',
           f'<p class="note">The {len(chosen)} templates with the lowest accuracy'
           f"{' (mean over models)' if len(models) > 1 else ''}, each with a prompt that was answered "
           "wrongly and the distinct replies to it.</p>"]
    for t in chosen:
        scores = " · ".join(f"{_e(m)}: {_pct(accuracy[m][t])}" for m in models if t in accuracy[m])
        mine = [dict(r, model=m) for m, rs in per_model.items() for r in rs if r.get("template_id") == t]
        first = mine[0]
        about = ", ".join(f"{k} {_e(first[k])}" for k in ("domain", "difficulty") if k in first)
        out.append(f'<div class="example" id="{_anchor("example", t)}"><h3>{_e(t)}</h3>'
                   f'<div class="muted">{about} · accuracy {scores}</div>')
        out.append(_example(mine, models))
        out.append("</div>")
    return "\n".join(out)


def _example(rows: list[dict[str, Any]], models: list[str]) -> str:
    """The prompt most replies got wrong (with the most different replies among ties), and each
    distinct reply to it once, with who gave it and its verdict."""
    with_text = [r for r in rows if "prompt" in r and "response" in r and "variant_id" in r]
    if not with_text:
        return ('<p class="note">No example: these records have no <code>prompt</code> and '
                "<code>response</code> (write them with <code>physgen grade</code>).</p>")
    replies: dict[str, list[dict[str, Any]]] = {}
    for r in with_text:
        replies.setdefault(str(r["variant_id"]), []).append(r)

    def badness(v: str) -> tuple[int, int, tuple[Any, ...]]:
        rs = replies[v]
        return (sum(not r.get("correct") for r in rs), len({str(r["response"]) for r in rs}), order_key(v))

    variant = max(replies, key=badness)
    distinct: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(replies[variant],
                    key=lambda r: (models.index(r["model"]), order_key(r.get("attempt", 0)))):
        distinct.setdefault(str(r["response"]), []).append(r)
    parts = [f'<div class="muted">{_e(variant)}</div><b>Prompt</b>'
             f'<pre>{_e(replies[variant][0]["prompt"])}</pre>']
    for reply, who in distinct.items():
        r = who[0]
        verdict = ('<span class="right">correct</span>' if r.get("correct") is True
                   else '<span class="wrong">wrong</span>')
        tries: dict[str, list[str]] = {}
        for x in who:
            tries.setdefault(x["model"], []).append(str(x.get("attempt", 0)))
        names = ", ".join(_e(m) + (f" (attempts {_e(', '.join(a))})" if len(a) > 1 else
                                   f" (attempt {_e(a[0])})" if a[0] != "0" else "") for m, a in tries.items())
        by_whom = f"from {names}" if len(models) > 1 or len(who) > 1 else ""
        if len(reply) > MAX_REPLY:
            reply = reply[:MAX_REPLY // 2] + "\n[…]\n" + reply[-MAX_REPLY // 2:]
        parts.append(f'<b>Reply</b> <span class="verdict">{by_whom} · {verdict} · {_detail(r)}</span>'
                     f"<pre>{_e(reply)}</pre>")
    return "".join(parts)


def _detail(row: Mapping[str, Any]) -> str:
    """What the grader read in each part of a reply, from the row's ``grade`` (escaped)."""
    grade = row.get("grade")
    listed = grade.get("parts") if isinstance(grade, Mapping) else None
    if not isinstance(listed, list):
        return ""
    return "; ".join(f"{_e(p.get('name', ''))}: expected {_e(p.get('expected', ''))}, "
                     f"read {_e(p.get('parsed') or '–')} ({_e(p.get('reason', ''))})"
                     for p in listed if isinstance(p, Mapping))


def _footer(options: dict[str, Any]) -> str:
    return (f"<footer>Made by physgen {_e(__version__)} (<code>physgen report</code>). Confidence intervals: "
            f"percentile bootstrap over {_e(options['by'])}s, {options['n_resamples']:,} resamples, seed "
            f"{options['seed']}. Definitions: docs/metrics.md.</footer>")

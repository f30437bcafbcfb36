"""A self-contained HTML report of graded records, to read or send to a colleague
(``physgen report graded.jsonl -o report.html``; needs the ``plot`` extra).

One file, no external resources: the headline metrics with bootstrap confidence
intervals; accuracy by format, difficulty, domain and probe; the
conditional-accuracy heatmap and the group-accuracy histogram (inline SVG); the
worst templates, each with an example prompt and the replies to it. Records with a
``model`` column are shown side by side, one column (or panel) per model.

>>> rows = [{"template_id": t, "instance_id": t + i, "variant_id": t + i + f, "format": f,
...          "domain": "optics", "difficulty": 2, "correct": c, "score": float(c)}
...         for t, i, f, c in [("a", "1", "free_form", True), ("a", "1", "units", False),
...                            ("b", "1", "free_form", False), ("b", "1", "units", False)]]
>>> page = report(rows, n_resamples=0)
>>> page.startswith("<!DOCTYPE html>"), page.count("<img "), "Worst templates" in page
(True, 5, True)
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import InputError
from .metrics import breakdown, group_accuracies, summary
from .plots import accuracy_by, accuracy_intervals, conditional_heatmap, group_histogram, ordered

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
footer { margin-top: 40px; font-size: 12px; color: var(--muted); }
@media print { main { max-width: none; padding: 0; } h2 { break-after: avoid; }
               .example { break-inside: avoid; } }
"""


def report(records: Iterable[Mapping[str, Any]], *, title: str = "physgen report", by: str = "template",
           n_resamples: int = 1000, seed: int = 0, worst: int = 5) -> str:
    """The report page (HTML) for graded records, e.g. the rows ``physgen grade`` writes.

    ``by`` is the group the bootstrap resamples (template, or instance); ``worst``
    is how many of the lowest-scoring templates are shown with an example. Examples
    need the ``prompt`` and ``response`` columns that ``physgen grade`` writes.
    """
    rows = [dict(r) for r in records]
    if not rows:
        raise InputError("no graded records to report on; pass rows written by `physgen grade`")
    models = ordered({_model(r) for r in rows})
    per_model = {m: [r for r in rows if _model(r) == m] for m in models}
    options = {"by": by, "n_resamples": n_resamples, "seed": seed}
    sections = [
        _header(title, rows, models, by),
        _headline(per_model, options),
        _breakdowns(rows, per_model, options),
        _figures(rows, per_model, options),
        _worst(rows, models, by, worst),
        _footer(options),
    ]
    body = "\n".join(s for s in sections if s)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n{body}\n"
            f"</main>\n</body>\n</html>\n")


def _model(row: Mapping[str, Any]) -> str:
    return str(row.get("model") or "(unnamed model)")


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


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
    """An HTML table; each row's cells are already HTML (``<td>…</td>``)."""
    top = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


def _header(title: str, rows: list[dict[str, Any]], models: list[str], by: str) -> str:
    templates = {r.get("template_id") for r in rows}
    formats = ordered({r.get("format") for r in rows if r.get("format") is not None})
    who = f"{len(models)} models side by side" if len(models) > 1 else _e(models[0])
    return (f"<h1>{_e(title)}</h1>\n<p class=\"lead\">{len(rows):,} graded replies · {len(templates):,} "
            f"templates · formats: {_e(', '.join(map(str, formats)))} · {who}</p>")


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
    note = ("Intervals: 95 % percentile bootstrap over " f"{by}s ({options['n_resamples']:,} resamples)."
            if options["n_resamples"] else "No confidence intervals (0 resamples).")
    return ("<h2>Headline metrics</h2>\n<div class=\"cards\">" + "".join(cards) + "</div>\n"
            + _table(["metric", *per_model], rows) + f'\n<p class="note">{note}</p>')


def _breakdowns(rows: list[dict[str, Any]], per_model: dict[str, list[dict[str, Any]]],
                options: dict[str, Any]) -> str:
    out = ["<h2>Breakdowns</h2>", '<div class="grid">']
    for column in ("format", "difficulty", "domain"):
        if not all(column in r for r in rows):
            continue
        est = {m: accuracy_intervals(rs, column, group=options["by"], n_resamples=options["n_resamples"],
                                     seed=options["seed"]) for m, rs in per_model.items()}
        counts = {m: breakdown(rs, column) for m, rs in per_model.items()}
        values = ordered({v for e in est.values() for v in e})
        table_rows = [[f"<td>{_e(v)}</td>", *(
            _estimate(est[m][v], counts[m][v]["n"]) if v in est[m] else '<td class="num">–</td>'
            for m in per_model)] for v in values]
        out.append(f"<div><h3>By {_e(column)}</h3>\n" + _table([column, *per_model], table_rows) + "</div>")
    return "\n".join(out) + "\n</div>\n" + _probes(per_model, options)


def _probes(per_model: dict[str, list[dict[str, Any]]], options: dict[str, Any]) -> str:
    """Each probe format against free form on the same instances: what the perturbation costs."""
    table_rows = []
    for m, rs in per_model.items():
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


def _figure(fig: Figure, caption: str) -> str:
    return f"<figure>{_svg(fig)}<figcaption>{caption}</figcaption></figure>"


def _figures(rows: list[dict[str, Any]], per_model: dict[str, list[dict[str, Any]]],
             options: dict[str, Any]) -> str:
    by, multi = options["by"], len(per_model) > 1
    boot = {"by": by, "n_resamples": options["n_resamples"], "seed": options["seed"]}
    hue = "model" if multi else None
    data = [dict(r, model=_model(r)) for r in rows] if multi else rows
    out = ["<h2>Figures</h2>", '<div class="grid">']
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
    for m, rs in per_model.items():
        out.append(f"<h3>{_e(m)}</h3>" if multi else "")
        out.append('<div class="grid">')
        if len({r.get("format") for r in rs}) > 1:
            out.append(_figure(conditional_heatmap(rs), "P(correct on B | failed A): over instances that "
                               "fail every A record, the accuracy of their B records. The diagonal is 0 "
                               "by definition and masked; grey cells have no such instance."))
        histogram = group_histogram(rs, by=by, n_resamples=options["n_resamples"], seed=options["seed"])
        out.append(_figure(histogram, f"Accuracy per {by}. The orange bins hold exactly the {by}s "
                           "counted as confused."))
        out.append("</div>")
    return "\n".join(x for x in out if x)


def _worst(rows: list[dict[str, Any]], models: list[str], by: str, count: int) -> str:
    if count <= 0:
        return ""
    accuracy = {m: group_accuracies([r for r in rows if _model(r) == m], "template") for m in models}
    templates = {t for a in accuracy.values() for t in a}
    mean = {t: sum(a[t] for a in accuracy.values() if t in a) / sum(t in a for a in accuracy.values())
            for t in templates}
    chosen = sorted(templates, key=lambda t: (mean[t], str(t)))[:count]
    out = ["<h2>Worst templates</h2>",
           f'<p class="note">The {len(chosen)} templates with the lowest accuracy'
           f"{' (mean over models)' if len(models) > 1 else ''}, each with a prompt that was answered "
           "wrongly and the replies to it.</p>"]
    for t in chosen:
        scores = " · ".join(f"{_e(m)}: {_pct(accuracy[m][t])}" for m in models if t in accuracy[m])
        mine = [r for r in rows if r.get("template_id") == t]
        first = mine[0]
        about = ", ".join(f"{k} {_e(first[k])}" for k in ("domain", "difficulty") if k in first)
        out.append(f'<div class="example"><h3>{_e(t)}</h3>'
                   f'<div class="muted">{about} · accuracy {scores}</div>')
        out.append(_example(mine, models))
        out.append("</div>")
    return "\n".join(out)


def _example(rows: list[dict[str, Any]], models: list[str]) -> str:
    """The prompt most models got wrong, with each model's reply to it and its verdict."""
    with_text = [r for r in rows if "prompt" in r and "response" in r]
    if not with_text:
        return ('<p class="note">No example: these records have no <code>prompt</code> and '
                "<code>response</code> (write them with <code>physgen grade</code>).</p>")
    wrong: dict[str, int] = {}
    for r in with_text:
        wrong[r["variant_id"]] = wrong.get(r["variant_id"], 0) + (not r.get("correct"))
    variant = max(wrong, key=lambda v: (wrong[v], v))
    replies = [r for r in with_text if r["variant_id"] == variant]
    parts = [f'<div class="muted">{_e(variant)}</div><b>Prompt</b><pre>{_e(replies[0]["prompt"])}</pre>']
    for r in sorted(replies, key=lambda r: (models.index(_model(r)), r.get("attempt", 0))):
        verdict = ('<span class="right">correct</span>' if r.get("correct")
                   else '<span class="wrong">wrong</span>')
        grade = r.get("grade") or {}
        detail = "; ".join(f"{_e(p['name'])}: expected {_e(p['expected'])}, "
                           f"read {_e(p.get('parsed') or '–')} ({_e(p['reason'])})"
                           for p in grade.get("parts", []))
        who = " · ".join(([_e(_model(r))] if len(models) > 1 else [])
                         + ([f"attempt {r['attempt']}"] if r.get("attempt") else []))
        reply = str(r["response"])
        if len(reply) > MAX_REPLY:
            reply = reply[:MAX_REPLY // 2] + "\n[…]\n" + reply[-MAX_REPLY // 2:]
        parts.append(f"<b>Reply</b> {who} <span class=\"verdict\">{verdict} · {detail}</span>"
                     f"<pre>{_e(reply)}</pre>")
    return "".join(parts)


def _footer(options: dict[str, Any]) -> str:
    return (f"<footer>Made by physgen {__version__} (<code>physgen report</code>). Confidence intervals: "
            f"percentile bootstrap over {options['by']}s, {options['n_resamples']:,} resamples, seed "
            f"{options['seed']}. Definitions: docs/metrics.md.</footer>")

"""Plots of graded records (needs the ``plot`` extra, matplotlib): each returns a Figure.

Every plot stays readable at any number of categories: the figure grows with
them, long labels wrap, many categories turn the bars sideways, and legends sit
outside the axes. Bars carry the bootstrap confidence intervals of
:func:`physgen.metrics.summary`, and a caption names them only when one is drawn;
the conditional-accuracy heatmap gives n in every cell and hatches its diagonal (0
by construction); the histogram's bins meet the confusion band's edges; the ranked
template plot keeps one size however many templates there are. Models are never
pooled: records of several models need ``model`` as the ``x`` or ``hue`` of
:func:`accuracy_by`, and every other plot takes one model's records.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> rows = [{"template_id": "a", "instance_id": "a1", "variant_id": "v", "format": "free_form",
...          "difficulty": 1, "correct": True}]
>>> accuracy_by(rows).axes[0].get_ylabel()
'accuracy'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .metrics import (
    DEFAULT_BAND,
    MODEL,
    Estimate,
    _as_table,
    _conditional,
    _group_key,
    _interval,
    _one_model,
    _resample_weights,
    group_accuracies,
    hashable,
    order_key,
    ordered,
    summary,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: More categories than this (or a label longer than :data:`LONG_LABEL`) turn bars sideways.
MANY = 8
LONG_LABEL = 14


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install 'physgen[plot]'") from exc
    return plt


def accuracy_intervals(records: Any, by: str | Sequence[str], *, group: str = "template",
                       n_resamples: int = 1000, seed: int = 0, ci: float = 0.95) -> dict[Any, Estimate]:
    """Accuracy with its bootstrap confidence interval for each value of one or more columns.

    Each cell's estimate is :func:`physgen.metrics.summary`'s accuracy over that
    cell's records (groups of ``group``, templates by default, resampled within
    the cell), so it equals ``summary(records_of_the_cell)["accuracy"]``. A
    list-valued column (``subdomain``) counts a record once per tag. Keys are
    values, or tuples of values for several columns, in order. Records of several models
    need ``model`` among the columns (they are never pooled).

    >>> rows = [{"template_id": t, "format": "free_form", "correct": c}
    ...         for t, c in [("a", 1), ("a", 1), ("b", 0), ("c", 1)]]
    >>> est = accuracy_intervals(rows, "format", n_resamples=200)["free_form"]
    >>> est.value, est.low <= est.value <= est.high
    (0.75, True)
    """
    t = _as_table(records)
    keys = [by] if isinstance(by, str) else list(by)
    if MODEL not in keys:
        _one_model(t, "accuracy_intervals")
    group_codes, _ = t.codes(_group_key(group))
    rows, cells, names = _cells(t, keys)
    out: dict[Any, Estimate] = {}
    for c, name in enumerate(names):
        idx = rows[cells == c]
        uniq, first, inverse = np.unique(group_codes[idx], return_index=True, return_inverse=True)
        local = np.argsort(np.argsort(first))[inverse]  # groups numbered in first-seen order
        hits = np.bincount(local, weights=t.correct[idx], minlength=len(uniq))
        counts = np.bincount(local, minlength=len(uniq)).astype(np.float64)
        value = float(hits.sum() / counts.sum())
        if n_resamples > 0:
            w = _resample_weights(len(uniq), n_resamples, seed)
            out[name] = Estimate(value, *_interval((w @ hits) / (w @ counts), ci))
        else:
            out[name] = Estimate(value)
    return out


def _cells(t: Any, keys: list[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[Any]]:
    """(record index, cell number) pairs for the cells of ``keys``, and the cells' names."""
    columns = [list(t.column(k)) for k in keys]
    index: dict[Any, int] = {}
    rows: list[int] = []
    cells: list[int] = []
    for i in range(t.n):
        expanded: list[tuple[Any, ...]] = [()]
        for col in columns:
            v = col[i]
            options = v if isinstance(v, list | tuple) else [v]
            expanded = [(*e, hashable(o)) for e in expanded for o in options]
        for key in expanded:
            rows.append(i)
            cells.append(index.setdefault(key[0] if len(keys) == 1 else key, len(index)))
    return np.array(rows, dtype=np.int64), np.array(cells, dtype=np.int64), list(index)


def _wrap(label: Any, width: int = LONG_LABEL) -> str:
    """A label broken into lines of at most ``width`` characters, after underscores and dots.

    >>> print(_wrap("electricity_and_magnetism"))
    electricity_
    and_magnetism
    """
    text = str(label)
    if len(text) > 4 * width:  # a label is a name, not a text: cut what could not be read anyway
        text = text[:4 * width - 1] + "…"
    if len(text) <= width:
        return text
    pieces = re.findall(r"[^_.]*[_.]|[^_.]+$", text)
    lines = [""]
    for piece in pieces:
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(textwrap.fill(line, width) for line in lines)


def accuracy_by(records: Any, x: str = "difficulty", hue: str | None = "format", *,
                by: str = "template", n_resamples: int = 1000, seed: int = 0, ci: float = 0.95) -> Figure:
    """Grouped bars: accuracy for each value of ``x`` (difficulty), one bar per value of ``hue``
    (format; ``None`` for one bar per ``x``), with ``ci`` bootstrap intervals over ``by`` groups.

    With more than :data:`MANY` categories or long labels the bars run sideways,
    one row per category, so labels never overlap; the legend sits outside the axes.
    """
    plt = _pyplot()
    keys = [x] if hue is None else [x, hue]
    est = accuracy_intervals(records, keys, group=by, n_resamples=n_resamples, seed=seed, ci=ci)
    cells = {(k, None) if hue is None else k: e for k, e in est.items()}
    xs = ordered({k[0] for k in cells})
    hues = ordered({k[1] for k in cells}) if hue is not None else [None]
    sideways = len(xs) > MANY or any(len(str(v)) > LONG_LABEL for v in xs)
    labels = [_wrap(v, 2 * LONG_LABEL if sideways else LONG_LABEL) for v in xs]
    lines = max(label.count("\n") + 1 for label in labels)
    per = 0.8 / len(hues)
    if sideways:
        size = (7.0, 1.0 + len(xs) * max(0.3 * len(hues), 0.22 * lines + 0.1))
    else:
        widest = max(len(line) for label in labels for line in label.split("\n"))
        size = (max(4.0, 1.5 + len(xs) * max(0.35 * len(hues), 0.09 * widest + 0.2)), 3.4)
    fig: Figure
    fig, ax = plt.subplots(figsize=size, layout="constrained")
    colours = plt.get_cmap("tab10" if len(hues) <= 10 else "tab20")
    for j, h in enumerate(hues):
        found = [cells.get((v, h)) for v in xs]
        heights = np.array([np.nan if e is None else e.value for e in found])
        low = np.array([np.nan if e is None else e.value - e.low for e in found])
        high = np.array([np.nan if e is None else e.high - e.value for e in found])
        where = np.arange(len(xs)) + (j - (len(hues) - 1) / 2) * per
        errors = np.vstack([low, high]) if not np.all(np.isnan(low)) else None
        style = {"label": _wrap(h, 2 * LONG_LABEL), "color": colours(j % colours.N), "capsize": 2,
                 "error_kw": {"elinewidth": 0.8, "ecolor": "0.25"}}
        if sideways:
            ax.barh(where, heights, per, xerr=errors, **style)
        else:
            ax.bar(where, heights, per, yerr=errors, **style)
    value_axis, category_axis = (ax.xaxis, ax.yaxis) if sideways else (ax.yaxis, ax.xaxis)
    category_axis.set_ticks(np.arange(len(xs)), labels)
    category_axis.set_label_text(x)
    value_axis.set_label_text("accuracy")
    if sideways:  # first category on top
        ax.set(xlim=(0, 1), ylim=(len(xs) - 0.5, -0.5))
    else:
        ax.set(ylim=(0, 1), xlim=(-0.5, len(xs) - 0.5))
    if hue is not None:
        fig.legend(title=hue, loc="outside right upper", fontsize="small", frameon=False)
    if any(e.high - e.low > 0 for e in est.values()):  # a caption only where an interval is drawn
        ax.set_title(f"bars: {ci:.0%} bootstrap CI over {by}s", fontsize="small", loc="left")
    return fig


def histogram_bins(band: tuple[float, float] = DEFAULT_BAND, bins: int = 10) -> npt.NDArray[np.float64]:
    """Edges of ``bins`` equal bins over [0, 1], with the band's ends added as edges.

    >>> histogram_bins((0.4, 0.6), 4).tolist()
    [0.0, 0.25, 0.4, 0.5, 0.6, 0.75, 1.0]
    """
    edges = np.union1d(np.linspace(0.0, 1.0, bins + 1), np.asarray(band, dtype=np.float64))
    return np.asarray(edges[np.concatenate([[True], np.diff(edges) > 1e-12])], dtype=np.float64)


def histogram_counts(accuracies: Sequence[float], edges: npt.NDArray[np.float64],
                     band: tuple[float, float] = DEFAULT_BAND) -> npt.NDArray[np.int64]:
    """Counts per bin, each bin closed on its side toward the band: below the band bins are
    ``[a, b)``, inside it ``[a, b)`` except the last, ``[a, hi]``, above it ``(a, b]``. So
    the bins inside the band hold exactly the groups :func:`physgen.metrics.summary`
    counts as confused (``lo ≤ accuracy ≤ hi``).

    >>> histogram_counts([0.0, 0.4, 0.5, 0.6, 0.61, 1.0], histogram_bins((0.4, 0.6), 10)).tolist()
    [1, 0, 0, 0, 1, 2, 1, 0, 0, 1]
    """
    hi = band[1]
    acc = np.asarray(accuracies, dtype=np.float64)
    right = np.searchsorted(edges, acc, side="right") - 1  # [a, b)
    left = np.searchsorted(edges, acc, side="left") - 1  # (a, b]
    index = np.where(acc > hi, left, np.where(acc == hi, right - 1, right))
    index = np.clip(index, 0, len(edges) - 2)
    return np.bincount(index, minlength=len(edges) - 1).astype(np.int64)


def group_histogram(records: Any, by: str = "template", band: tuple[float, float] = DEFAULT_BAND,
                    bins: int = 10, *, n_resamples: int = 1000, seed: int = 0) -> Figure:
    """Histogram of group accuracies; the bins inside the confusion band (shaded) hold exactly
    the groups counted as confused, and the legend gives that share with its bootstrap CI."""
    plt = _pyplot()
    accs = list(group_accuracies(records, by).values())
    edges = histogram_bins(band, bins)
    counts = histogram_counts(accs, edges, band)
    inside = (edges[:-1] >= band[0] - 1e-12) & (edges[1:] <= band[1] + 1e-12)
    confusion = summary(records, by=by, band=band, n_resamples=n_resamples, seed=seed)["confusion"]
    fig: Figure
    fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
    ax.axvspan(band[0], band[1], color="orange", alpha=0.18, lw=0)
    ax.bar(edges[:-1], counts, np.diff(edges), align="edge", edgecolor="white", linewidth=0.8,
           color=np.where(inside, "darkorange", "steelblue"))
    ax.set_xlim(0, 1)
    ax.set_xticks(edges, [f"{e:g}" for e in edges], fontsize="small")
    ax.set_xlabel(f"accuracy per {by}")
    ax.set_ylabel(f"{by}s")
    ax.yaxis.get_major_locator().set_params(integer=True)
    from matplotlib.patches import Patch

    share = "" if np.isnan(confusion.low) else (
        f"; 95 % CI {100 * confusion.low:.0f}–{100 * confusion.high:.0f} %")
    key = Patch(color="darkorange", label=f"confusion band [{band[0]:g}, {band[1]:g}]: "
                f"{int(counts[inside].sum())} of {len(accs)} {by}s ({100 * confusion.value:.0f} %{share})")
    fig.legend(handles=[key], loc="outside upper center", fontsize="small", frameon=False)
    return fig


def conditional_heatmap(records: Any, column: str = "format") -> Figure:
    """Heatmap of P(correct on B | failed A) across formats (or another column), for one model.

    Every cell gives its n: off the diagonal, the instances that fail A and have B
    records (the value's denominator); on the diagonal, hatched because the value would be
    0 by construction, the instances that fail A. Pairs with no such instance are grey
    (n = 0); the colour bar spans 0–1.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> rows = [{"instance_id": i, "format": f, "correct": c}
    ...         for i, f, c in [("x", "a", False), ("x", "b", True), ("y", "a", True), ("y", "b", True)]]
    >>> sorted(" ".join(t.get_text().split()) for t in conditional_heatmap(rows).axes[0].texts)
    ['1.00 n = 1', 'n = 0', 'n = 0', 'n = 1']
    """
    plt = _pyplot()
    t = _as_table(records)
    cond = _conditional(t, column)
    names = ordered(set(t.column(column)) if t.n else set())
    n = max(len(names), 1)
    grid = np.full((n, n), np.nan)
    counts = np.zeros((n, n), dtype=np.int64)
    for (a, b), (v, k) in cond.items():
        counts[names.index(a), names.index(b)] = k
        if a != b:
            grid[names.index(a), names.index(b)] = v
    side = 1.6 + 0.75 * n
    fig: Figure
    fig, ax = plt.subplots(figsize=(side + 1.6, side), layout="constrained")
    cmap = plt.get_cmap("viridis").with_extremes(bad="0.92")
    image = ax.imshow(np.ma.masked_invalid(grid), vmin=0, vmax=1, cmap=cmap)
    labels = [_wrap(v) for v in names]
    ax.set_xticks(range(len(names)), labels, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(len(names)), labels)
    ax.set_xlabel("B (accuracy on)")
    ax.set_ylabel("A (failed)")
    from matplotlib.patches import Rectangle

    for i in range(len(names)):
        ax.add_patch(Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.6", lw=0))
        for j in range(len(names)):
            value = grid[i, j]
            text = f"n = {counts[i, j]:,}" if np.isnan(value) else f"{value:.2f}\nn = {counts[i, j]:,}"
            colour = "0.3" if np.isnan(value) else "black" if value > 0.6 else "white"
            ax.text(j, i, text, ha="center", va="center", color=colour, fontsize="small",
                    fontweight="normal" if np.isnan(value) else "bold", linespacing=1.1)
    if len(names) < 2:
        ax.text(0, 0, f"needs two values of {column}", ha="center", va="center")
    fig.colorbar(image, ax=ax, fraction=0.05, label="P(correct on B | failed A)")
    return fig


def ranked_accuracy(records: Any, x: str = "template_id", colour: str | None = "domain", *,
                    group: str = "instance", n_resamples: int = 1000, seed: int = 0,
                    ci: float = 0.95, label_limit: int = 40) -> Figure:
    """Accuracy of every value of ``x`` (template), one bar each, ranked from the best to the
    worst and coloured by ``colour`` (domain), for one model. The figure has a fixed size
    whatever the number of bars; bars are named on the axis when there are at most
    ``label_limit`` of them (otherwise a table, like the report's, names them), without the
    ``domain.`` prefix of a template id when the colour already gives it. Error bars (a
    band, beyond ``label_limit`` bars) are bootstrap intervals over ``group`` (instances)
    inside each bar, and the title mentions them only when one is drawn.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> rows = [{"template_id": t, "instance_id": t + i, "domain": "optics", "correct": c}
    ...         for t, i, c in [("a", "1", False), ("b", "1", True), ("b", "2", True)]]
    >>> ax = ranked_accuracy(rows, n_resamples=0).axes[0]
    >>> [t.get_text() for t in ax.get_xticklabels()], ax.get_title(loc="left")
    (['b', 'a'], '')
    """
    plt = _pyplot()
    t = _as_table(records)
    _one_model(t, "ranked_accuracy")
    est = accuracy_intervals(t, x, group=group, n_resamples=n_resamples, seed=seed, ci=ci)
    names = sorted(est, key=lambda k: (-est[k].value, order_key(k)))
    kinds: dict[Any, Any] = {}
    if colour is not None and t.has(colour):
        for k, c in zip(t.column(x), t.column(colour), strict=True):
            kinds.setdefault(k, c)
    legend = ordered(set(kinds.values())) if kinds else []
    palette = plt.get_cmap("tab10" if len(legend) <= 10 else "tab20")
    fig: Figure
    fig, ax = plt.subplots(figsize=(6.0, 3.6), layout="constrained")
    where = np.arange(len(names))
    values = np.array([est[k].value for k in names])
    colours = [palette(legend.index(kinds[k]) % palette.N) if k in kinds else "tab:blue" for k in names]
    ax.bar(where, values, 0.85 if len(names) <= label_limit else 1.0, color=colours, linewidth=0)
    low = np.array([est[k].value - est[k].low for k in names])
    high = np.array([est[k].high - est[k].value for k in names])
    drawn = bool(np.any(np.nan_to_num(low + high) > 0))
    if drawn and len(names) <= label_limit:
        ax.errorbar(where, values, yerr=np.vstack([low, high]), fmt="none", ecolor="0.25", elinewidth=0.6,
                    capsize=0)
        ax.set_title(f"error bars: {ci:.0%} bootstrap CI over {group}s", fontsize="small", loc="left")
    elif drawn:  # too many bars for error bars: the intervals as a band
        ax.fill_between(where, values - low, values + high, step="mid", color="0.3", alpha=0.25, lw=0,
                        zorder=0)  # behind the bars
        ax.set_title(f"grey band: {ci:.0%} bootstrap CI over {group}s", fontsize="small", loc="left")
    if len(names) <= label_limit:
        short = [str(k).split(".", 1)[-1] if colour is not None else str(k) for k in names]
        ax.set_xticks(where, [_wrap(k, 2 * LONG_LABEL).replace("\n", "") for k in short], rotation=60,
                      ha="right", rotation_mode="anchor", fontsize="small")
    else:
        ax.set_xticks([])
    ax.set(ylim=(0, 1), xlim=(-0.6, len(names) - 0.4), ylabel="accuracy",
           xlabel=f"{len(names):,} {x.removesuffix('_id')}s, best to worst")
    if legend:
        from matplotlib.patches import Patch

        handles = [Patch(color=palette(i % palette.N), label=_wrap(v)) for i, v in enumerate(legend)]
        fig.legend(handles=handles, title=colour, loc="outside right upper", fontsize="small",
                   frameon=False)
    return fig


def step_grading(records: Any, by: str = "domain") -> Figure:
    """Step-level grading at a glance, over records graded with steps
    (:func:`physgen.metrics.step_accuracy` and friends): left, where reasoning breaks down
    (the share of replies whose first wrong or missing intermediate is at step 1, 2, … of
    the worked solution, per value of ``by``); right, step accuracy beside answer accuracy
    per difficulty, titled with the correlation of the two.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> rows = [{"domain": "optics", "difficulty": 2, "correct": c, "steps_score": s,
    ...          "first_error_step": k} for c, s, k in [(True, 1.0, 0), (False, 0.5, 2)]]
    >>> [ax.get_xlabel() for ax in step_grading(rows).axes]
    ['share of replies', 'difficulty']
    """
    from .metrics import first_error_steps, step_accuracy, step_answer_correlation

    plt = _pyplot()
    t = _as_table(records)
    dist = first_error_steps(t, by)
    cats = ordered(set(dist))
    steps = sorted({k for d in dist.values() for k in d})
    levels = ordered({d for d, s in zip(t.column("difficulty"), t.column("steps_score"), strict=True)
                      if s is not None and s == s})
    fig: Figure
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.0, 1.6 + 0.45 * max(len(cats), 4)),
                                      layout="constrained", width_ratios=[1.5, 1])
    colours = plt.get_cmap("viridis")
    base = np.zeros(len(cats))
    for j, step in enumerate(steps):
        share = np.array([dist[c].get(step, 0.0) for c in cats])
        colour = "0.8" if step == 0 else colours((j - 1) / max(len(steps) - 1, 1))
        left.barh(range(len(cats)), share, left=base, color=colour, edgecolor="white",
                  label="every step right" if step == 0 else f"step {step}")
        base += share
    left.set_yticks(range(len(cats)), [_wrap(c, 2 * LONG_LABEL) for c in cats])
    left.set(xlim=(0, 1), ylim=(len(cats) - 0.5, -0.5), xlabel="share of replies")
    left.set_title(f"first wrong or missing intermediate, by {by}", fontsize="small", loc="left")
    left.legend(title="first error at", fontsize="small", frameon=False, loc="upper left",
                bbox_to_anchor=(1.0, 1.0))
    cells = [step_accuracy([r for r in _step_records(t) if r["difficulty"] == d]) for d in levels]
    where = np.arange(len(levels))
    right.bar(where - 0.2, [c["step_accuracy"] for c in cells], 0.4, label="step accuracy", color="tab:blue")
    right.bar(where + 0.2, [c["answer_accuracy"] for c in cells], 0.4, label="answer accuracy",
              color="tab:orange")
    right.set_xticks(where, [str(d) for d in levels])
    right.set(ylim=(0, 1), xlabel="difficulty", ylabel="accuracy")
    corr = step_answer_correlation(t)
    phi = float(corr["phi"])
    shown = f"{phi:.2f}" if phi == phi else "undefined (one outcome only)"  # NaN when one side is constant
    right.set_title(f"φ(all steps right, answer right) = {shown}; n = "
                    f"{int(step_accuracy(t)['n'])}", fontsize="small", loc="left")
    right.legend(fontsize="small", frameon=False, loc="upper right")
    return fig


def _step_records(t: Any) -> list[dict[str, Any]]:
    """The records graded with steps, as dicts of the columns the step plot needs."""
    cols = {k: list(t.column(k)) for k in ("difficulty", "steps_score")}
    return [{"difficulty": cols["difficulty"][i], "steps_score": cols["steps_score"][i],
             "correct": bool(t.correct[i])} for i in range(t.n)
            if cols["steps_score"][i] is not None and cols["steps_score"][i] == cols["steps_score"][i]]

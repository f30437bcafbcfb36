"""Plots of graded records (needs the ``plot`` extra, matplotlib): each returns a Figure.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> rows = [{"template_id": "a", "instance_id": "a1", "variant_id": "v", "format": "free_form",
...          "difficulty": 1, "correct": True}]
>>> accuracy_by(rows).axes[0].get_ylabel()
'accuracy'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .metrics import DEFAULT_BAND, breakdown, conditional_accuracy, group_accuracies


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install 'physgen[plot]'") from exc
    return plt


def accuracy_by(records: Any, x: str = "difficulty", hue: str = "format") -> Any:
    """Grouped bars: accuracy for each value of ``x`` (difficulty), one bar per ``hue`` (format)."""
    plt = _pyplot()
    table = breakdown(records, [x, hue])
    xs = sorted({k[0] for k in table}, key=str)
    hues = sorted({k[1] for k in table}, key=str)
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(xs)), 3.2))
    width = 0.8 / max(len(hues), 1)
    for j, h in enumerate(hues):
        heights = [table.get((v, h), {}).get("accuracy", np.nan) for v in xs]
        ax.bar(np.arange(len(xs)) + j * width - 0.4 + width / 2, heights, width, label=str(h))
    ax.set_xticks(np.arange(len(xs)), [str(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel("accuracy")
    ax.set_ylim(0, 1)
    ax.legend(title=hue, fontsize="small")
    fig.tight_layout()
    return fig


def group_histogram(records: Any, by: str = "template", band: tuple[float, float] = DEFAULT_BAND,
                    bins: int = 10) -> Any:
    """Histogram of group accuracies with the confusion band shaded."""
    plt = _pyplot()
    accs = list(group_accuracies(records, by).values())
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.axvspan(band[0], band[1], color="orange", alpha=0.2, label="confusion band")
    ax.hist(accs, bins=bins, range=(0, 1), edgecolor="black")
    ax.set_xlabel(f"accuracy per {by}")
    ax.set_ylabel(f"{by}s")
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def conditional_heatmap(records: Any, column: str = "format") -> Any:
    """Heatmap of P(correct on B | failed A) across formats; blank where undefined."""
    plt = _pyplot()
    cond = conditional_accuracy(records, column)
    names = sorted({k for pair in cond for k in pair}, key=str)
    grid = np.full((len(names), len(names)), np.nan)
    for (a, b), v in cond.items():
        grid[names.index(a), names.index(b)] = v
    fig, ax = plt.subplots(figsize=(1.2 * len(names) + 2, 1.0 * len(names) + 1.5))
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("B (accuracy on)")
    ax.set_ylabel("A (failed)")
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", color="white")
    fig.colorbar(image, ax=ax, fraction=0.046)
    fig.tight_layout()
    return fig

"""Plots show the right numbers; Hugging Face datasets round-trip with train/test."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import physgen
from physgen.export import from_row, to_hf_dataset
from physgen.splits import split

DOC = (Path(__file__).resolve().parents[1] / "docs" / "metrics.md").read_text(encoding="utf-8")
EXAMPLE = json.loads(re.search(r"```json\n(.*?)```", DOC, re.S).group(1))  # type: ignore[union-attr]


@pytest.fixture(autouse=True)
def _agg() -> None:
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")


def test_accuracy_by_bars_match_breakdown(tmp_path: Path) -> None:
    from physgen.plots import accuracy_by

    rows = [dict(r, difficulty=1 if r["template_id"] in ("T1", "T2") else 2) for r in EXAMPLE]
    fig = accuracy_by(rows, x="difficulty", hue="format")
    heights = sorted(round(p.get_height(), 4) for p in fig.axes[0].patches)
    expected = []
    for d in (1, 2):
        for f in ("free_form", "mc_numerical"):
            sel = [r for r in rows if r["difficulty"] == d and r["format"] == f]
            expected.append(round(sum(r["correct"] for r in sel) / len(sel), 4))
    assert heights == sorted(expected)
    fig.savefig(tmp_path / "a.png")
    assert (tmp_path / "a.png").stat().st_size > 1000


def _many(categories: int, label: str) -> list[dict[str, object]]:
    return [{"template_id": f"t{k % 7}", "instance_id": f"i{k}", "variant_id": f"v{k}",
             "correct": (k * 7919) % 3 == 0, "cat": f"{label}_{k % categories}",
             "format": ("free_form", "mc_numerical", "units")[k % 3]}
            for k in range(categories * 12)]


def _overlaps(boxes: list) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    pairs = [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes))]
    return [(i, j) for i, j in pairs if boxes[i].overlaps(boxes[j])]


@pytest.mark.parametrize(("categories", "label"), [(3, "x"), (8, "mc_numeric"),
                                                   (6, "electricity_and_magnetism"),
                                                   (40, "a_rather_long_category_name")])
def test_labels_never_overlap_and_the_legend_covers_no_bar(categories: int, label: str) -> None:
    from physgen.plots import accuracy_by

    fig = accuracy_by(_many(categories, label), x="cat", hue="format", n_resamples=50)
    fig.canvas.draw()
    ax = fig.axes[0]
    sideways = categories > 8 or len(label) > 14
    ticks = ax.get_yticklabels() if sideways else ax.get_xticklabels()
    assert len(ticks) == categories
    boxes = [t.get_window_extent() for t in ticks]
    assert not _overlaps(boxes)
    page = fig.bbox
    assert all(b.x0 >= 0 and b.y0 >= 0 and b.x1 <= page.x1 and b.y1 <= page.y1 for b in boxes)
    legend = fig.legends[0].get_window_extent()
    assert not legend.overlaps(ax.get_window_extent())


def test_error_bars_are_the_bootstrap_intervals_of_each_cell() -> None:
    from physgen.metrics import summary
    from physgen.plots import accuracy_by, accuracy_intervals

    rows = _many(4, "c")
    est = accuracy_intervals(rows, ["cat", "format"], n_resamples=300, seed=2)
    for (cat, fmt), e in est.items():
        cell = summary([r for r in rows if r["cat"] == cat and r["format"] == fmt], n_resamples=300, seed=2)
        assert e == cell["accuracy"]
    fig = accuracy_by(rows, x="cat", hue="format", n_resamples=300, seed=2)
    whiskers = [seg for coll in fig.axes[0].collections for seg in coll.get_segments()]
    spans = sorted((round(float(s[0][1]), 9), round(float(s[1][1]), 9)) for s in whiskers)
    assert spans == sorted((round(e.low, 9), round(e.high, 9)) for e in est.values())
    tags = accuracy_intervals([{"template_id": "t", "subdomain": ["a", "b"], "correct": True},
                               {"template_id": "u", "subdomain": ["b"], "correct": False}], "subdomain",
                              n_resamples=0)
    assert {k: e.value for k, e in tags.items()} == {"a": 1.0, "b": 0.5}


def test_histogram_bins_meet_the_confusion_band() -> None:
    from physgen.metrics import summary
    from physgen.plots import group_histogram

    fig = group_histogram(EXAMPLE, bins=4)  # template accuracies 0.8, 0, 0.5, 1
    bars = fig.axes[0].containers[0].patches
    edges = [round(p.get_x(), 6) for p in bars]
    counts = [p.get_height() for p in bars]
    assert edges == [0.0, 0.25, 0.4, 0.5, 0.6, 0.75] and counts == [1, 0, 0, 1, 0, 2]
    in_band = sum(c for p, c in zip(bars, counts, strict=True) if 0.4 <= p.get_x() < 0.6)
    assert in_band == summary(EXAMPLE, n_resamples=0)["confusion"].value * 4
    assert "confusion band [0.4, 0.6]: 1 of 4 templates" in fig.legends[0].get_texts()[0].get_text()
    edge = [{"template_id": t, "correct": c} for t, cs in [("a", [1, 1, 0, 0, 0]), ("b", [1, 1, 1, 0, 0])]
            for c in cs]  # accuracies exactly 0.4 and 0.6: both confused, both in band bins
    bars = group_histogram(edge).axes[0].containers[0].patches
    assert sum(p.get_height() for p in bars if 0.4 <= p.get_x() < 0.6) == 2


def test_conditional_heatmap_masks_the_diagonal() -> None:
    from physgen.plots import conditional_heatmap

    fig = conditional_heatmap(EXAMPLE)
    ax = fig.axes[0]
    texts = [" ".join(t.get_text().split()) for t in ax.texts]
    # row A = free_form: 2 instances (b, c) fail it, P(mc | fail free) = 1/2 over those 2;
    # row A = mc_numerical: 3 instances (c, d, e) fail it, P(free | fail mc) = 2/3 over those 3
    assert texts == ["n = 2", "0.50 n = 2", "0.67 n = 3", "n = 3"]
    grid = ax.images[0].get_array()
    assert grid.mask[0, 0] and grid.mask[1, 1] and not grid.mask[0, 1]
    assert sum(p.get_hatch() == "///" for p in ax.patches) == 2


def test_hf_dataset_dict_round_trips(catalog: physgen.Catalog, tmp_path: Path) -> None:
    pytest.importorskip("datasets")
    os.environ.setdefault("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    optics = catalog.filter(domain="optics")
    variants = list(physgen.generate(optics, n=2, formats=["free_form", "mc_numerical"]))
    train, test = split(variants, test_size=0.3, seed=1)
    dd = to_hf_dataset(train, test)
    assert set(dd) == {"train", "test"} and len(dd["train"]) == len(train) and len(dd["test"]) == len(test)
    back = [physgen.Variant.from_dict(from_row(r)) for r in dd["test"]]
    assert back == test
    single = to_hf_dataset(variants[:3])
    assert len(single) == 3


def _templates(count: int) -> list[dict[str, object]]:
    """``count`` templates in three domains, template i right on i % 7 of its 6 instances."""
    return [{"template_id": f"{d}.t{i}", "instance_id": f"t{i}/{k}", "domain": d, "correct": k < i % 7}
            for i in range(count) for d in [("optics", "mechanics", "thermo")[i % 3]] for k in range(6)]


def test_ranked_templates_sorted_and_of_fixed_size(tmp_path: Path) -> None:
    from physgen.plots import ranked_accuracy

    fig = ranked_accuracy(_templates(305), n_resamples=100)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert len(heights) == 305 and heights == sorted(heights, reverse=True)  # best to worst, not alphabetical
    assert ax.get_xticklabels() == [] and ax.get_xlabel() == "305 templates, best to worst"
    assert "bootstrap CI over instances" in ax.get_title(loc="left")  # error bars drawn: the caption says so
    fig.savefig(tmp_path / "ranked.png", dpi=96)
    from PIL import Image

    width, height = Image.open(tmp_path / "ranked.png").size
    assert height < 400 and width < 700  # the size of 12 templates, not 3.7k px
    small = ranked_accuracy(_templates(12), n_resamples=0).axes[0]
    assert small.get_title(loc="left") == ""  # no interval drawn, no caption about one
    labels = [t.get_text() for t in small.get_xticklabels()]
    assert len(labels) == 12 and labels[0] == "t6" and "." not in "".join(labels)  # domain prefix dropped


def test_accuracy_by_no_ci_caption_without_intervals() -> None:
    from physgen.plots import accuracy_by

    rows = _templates(5)
    ax = accuracy_by(rows, x="template_id", hue=None, n_resamples=200).axes[0]  # one template per bar
    assert ax.get_title(loc="left") == ""  # every interval is a point: none is drawn, none is announced
    ax = accuracy_by(rows, x="domain", hue=None, n_resamples=200).axes[0]
    assert "bootstrap CI over templates" in ax.get_title(loc="left")

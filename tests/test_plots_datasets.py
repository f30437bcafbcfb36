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


def test_histogram_marks_the_confusion_band() -> None:
    from physgen.plots import group_histogram

    fig = group_histogram(EXAMPLE, bins=4)
    ax = fig.axes[0]
    counts = [p.get_height() for p in ax.patches if p.get_label() != "confusion band"][-4:]
    assert counts == [1, 0, 1, 2]
    assert "confusion band" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_conditional_heatmap_values() -> None:
    from physgen.plots import conditional_heatmap

    fig = conditional_heatmap(EXAMPLE)
    texts = sorted(t.get_text() for t in fig.axes[0].texts)
    assert texts == ["0.00", "0.00", "0.50", "0.67"]


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

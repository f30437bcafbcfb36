"""Models are never pooled: one model always right and one always wrong are each shown with their
own accuracy (pooled, they would read accuracy 0.5 and confusion 1.0), in Python, on the command
line and in the report; every metric that cannot report per model refuses several models."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from physgen import metrics, plots
from physgen.cli import main
from physgen.errors import ArgumentError, PhysgenError
from physgen.export import write_jsonl
from physgen.report import report

ROWS = [{"model": m, "template_id": t, "instance_id": t + i, "variant_id": t + i + f, "format": f,
         "attempt": 0, "correct": m == "right", "score": float(m == "right"), "domain": "optics",
         "difficulty": 2}
        for m in ("wrong", "right") for t in ("a", "b", "c") for i in ("1", "2")
        for f in ("free_form", "units")]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


@pytest.fixture(autouse=True)
def _agg() -> None:
    pytest.importorskip("matplotlib").use("Agg")


def test_summary_by_model() -> None:
    per = metrics.summary(ROWS, by="model", n_resamples=100)
    assert list(per) == ["right", "wrong"]
    assert per["right"]["accuracy"].value == 1.0 and per["right"]["consistency"].value == 1.0
    assert per["wrong"]["accuracy"].value == 0.0 and per["wrong"]["complete_failure"].value == 1.0
    assert per["right"]["confusion"].value == per["wrong"]["confusion"].value == 0.0
    assert per["right"]["groups"].value == 3
    pd = pytest.importorskip("pandas")
    frame = metrics.summary(pd.DataFrame(ROWS), by="model", n_resamples=100)
    assert frame == per


@pytest.mark.parametrize("call", [
    lambda rows: metrics.summary(rows),
    lambda rows: metrics.summary(rows, by="instance"),
    lambda rows: metrics.breakdown(rows, "format"),
    lambda rows: metrics.breakdown(rows, ["format", "difficulty"]),
    lambda rows: metrics.group_accuracies(rows),
    lambda rows: metrics.conditional_accuracy(rows),
    lambda rows: metrics.attempts(rows, 1),
    lambda rows: metrics.histogram(rows),
    lambda rows: metrics.compare(rows, [r for r in rows if r["model"] == "right"]),
    lambda rows: metrics.compare([r for r in rows if r["model"] == "right"], rows),
    lambda rows: plots.accuracy_by(rows, x="difficulty", hue="format"),
    lambda rows: plots.accuracy_intervals(rows, "format"),
    lambda rows: plots.group_histogram(rows),
    lambda rows: plots.conditional_heatmap(rows),
    lambda rows: plots.ranked_accuracy(rows),
], ids=["summary", "summary_instance", "breakdown", "breakdown_pairs", "group_accuracies", "conditional",
        "attempts", "histogram", "compare_a", "compare_b", "accuracy_by", "accuracy_intervals",
        "group_histogram", "conditional_heatmap", "ranked_accuracy"])
def test_nothing_pools_models_silently(call: Any) -> None:
    with pytest.raises(ArgumentError, match=r"2 models \('right', 'wrong'\).*never pool") as info:
        call(ROWS)
    assert isinstance(info.value, PhysgenError) and isinstance(info.value, ValueError)
    call([r for r in ROWS if r["model"] == "right"])  # one model: fine


def test_model_as_a_key_is_not_pooling() -> None:
    b = metrics.breakdown(ROWS, ["model", "format"])
    assert b[("right", "units")]["accuracy"] == 1.0 and b[("wrong", "units")]["accuracy"] == 0.0
    assert list(b) == [("right", "free_form"), ("right", "units"), ("wrong", "free_form"), ("wrong", "units")]
    bars = plots.accuracy_by(ROWS, x="format", hue="model", n_resamples=0).axes[0].patches
    assert sorted(p.get_height() for p in bars) == [0.0, 0.0, 1.0, 1.0]
    split = metrics.by_model([*ROWS, dict(ROWS[0], model=None)])
    assert list(split) == ["right", "wrong", None] and len(split["right"]) == 12 and len(split[None]) == 1


def test_breakdowns_come_back_sorted() -> None:
    rows = [{"template_id": f"t{i}", "difficulty": d, "format": f, "correct": True}
            for i, (d, f) in enumerate([(10, "units"), (2, "free_form"), (1, "mc_2"), (2, "mc_10")])]
    assert list(metrics.breakdown(rows, "difficulty")) == [1, 2, 10]
    assert list(metrics.breakdown(rows, "format")) == ["free_form", "mc_2", "mc_10", "units"]
    assert list(metrics.group_accuracies(rows)) == ["t0", "t1", "t2", "t3"]


def test_metrics_command_reports_each_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(ROWS, tmp_path / "g.jsonl")
    status, text = run(["metrics", str(tmp_path / "g.jsonl"), "--resamples", "50"])
    assert status == 0
    right, wrong = text.split("model wrong (12 records)")
    assert right.startswith("model right (12 records)")
    assert "accuracy          1.0" in right and "confusion         0.0" in right
    assert "accuracy          0.0" in wrong and "confusion         0.0" in wrong
    assert "0.5" not in text  # the pooled numbers appear nowhere
    status, text = run(["metrics", str(tmp_path / "g.jsonl"), "--resamples", "0", "--format", "json"])
    table = json.loads(text)
    assert {(r["model"], r["value"]) for r in table if r["metric"] == "accuracy"} == {("right", 1.0),
                                                                                       ("wrong", 0.0)}
    status, text = run(["metrics", str(tmp_path / "g.jsonl"), "--model", "wrong", "--resamples", "0"])
    assert status == 0 and "model wrong" in text and "model right" not in text
    assert run(["metrics", str(tmp_path / "g.jsonl"), "--model", "rigth"])[0] == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        "physgen metrics: error: unknown model 'rigth'; valid: right, wrong (did you mean 'right'?)"]
    write_jsonl([{k: v for k, v in r.items() if k != "model"} for r in ROWS[:12]], tmp_path / "one.jsonl")
    status, text = run(["metrics", str(tmp_path / "one.jsonl"), "--resamples", "0"])
    assert status == 0 and "model" not in text and "accuracy          0.0" in text
    assert run(["metrics", str(tmp_path / "one.jsonl"), "--model", "x"])[0] == 1
    assert "no 'model' column" in capsys.readouterr().err


def test_report_shows_each_model() -> None:
    page = report(ROWS, n_resamples=50)
    cards = page.split('<div class="cards">')[1].split("</div>\n")[0]
    assert "100.0 %" in cards and "0.0 %" in cards and "50.0 %" not in cards
    assert ">right</th>" in page and ">wrong</th>" in page
    comparison = page.split('id="comparison"')[1].split("<h2")[0]  # right − wrong on 12 shared replies
    assert '<span class="right">+100.0 pp</span>' in comparison and '<td class="num">12</td>' in comparison

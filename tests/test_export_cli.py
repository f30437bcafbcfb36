"""Exports round-trip and are atomic; the grade / metrics / split commands work end to end."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import physgen
from physgen.cli import main
from physgen.export import atomic_open, read_jsonl, read_parquet, write_jsonl, write_parquet


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


def test_jsonl_round_trip(tmp_path: Path) -> None:
    variants = list(physgen.generate(["optics.thin_lens", "mechanics.projectile_range"], n=3,
                                     formats=["free_form", "mc_numerical", "code"]))
    path = tmp_path / "v.jsonl"
    assert write_jsonl(variants, path) == len(variants)
    assert [physgen.Variant.from_dict(d) for d in read_jsonl(path)] == variants


def test_parquet_round_trip(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    variants = list(physgen.generate(physgen.load_catalog().filter(domain="optics"), n=2,
                                     formats=["free_form", "mc_symbolic"]))
    path = tmp_path / "v.parquet"
    assert write_parquet(variants, path, batch_size=7) == len(variants)
    assert [physgen.Variant.from_dict(d) for d in read_parquet(path)] == variants


def test_writes_are_atomic(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")

    def broken() -> object:
        yield {"a": 1}
        raise RuntimeError("generation failed half-way")

    with pytest.raises(RuntimeError):
        write_jsonl(broken(), target)  # type: ignore[arg-type]
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    with atomic_open(tmp_path / "new.txt") as fh:
        fh.write("x")
    assert (tmp_path / "new.txt").read_text() == "x"


def test_bad_jsonl_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"a": 1}\n{oops\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:2: not valid JSON"):
        list(read_jsonl(path))


def _responses(tmp_path: Path) -> Path:
    variants = list(physgen.generate(physgen.load_catalog().filter(domain="optics"), n=3,
                                     formats=["free_form", "mc_numerical"], paraphrases=[0, 1]))
    rows = []
    for k, v in enumerate(variants):
        row = v.to_dict()
        if v.options:
            row["response"] = f"Answer: {v.answer_key if k % 3 else 'A'}"
        else:
            right = " ".join(f"({'abcdefgh'[i]}) {a.text}" for i, a in enumerate(v.answers.values()))
            row["response"] = f"Final Answer: {right}" if k % 2 else "I am not sure."
        rows.append(row)
    path = tmp_path / "responses.jsonl"
    write_jsonl(rows, path)
    return path


def test_cli_grade_metrics_split(tmp_path: Path) -> None:
    responses = _responses(tmp_path)
    graded = tmp_path / "graded.jsonl"
    status, text = run(["grade", str(responses), "-o", str(graded)])
    assert status == 0 and "graded" in text
    rows = list(read_jsonl(graded))
    assert all({"correct", "score", "template_id", "format", "grade"} <= set(r) for r in rows)
    expected = sum(r["correct"] for r in rows) / len(rows)
    status, text = run(["metrics", str(graded), "--format", "json", "--resamples", "100"])
    table = {r["metric"]: r for r in json.loads(text)}
    assert status == 0 and table["accuracy"]["value"] == pytest.approx(expected, abs=1e-4)
    assert table["accuracy"]["low"] <= table["accuracy"]["value"] <= table["accuracy"]["high"]
    status, text = run(["metrics", str(graded)])
    assert "by format" in text and "mc_numerical" in text and "P(correct on B | failed A)" in text
    for fmt in ("csv", "markdown"):
        assert run(["metrics", str(graded), "--format", fmt, "--resamples", "0"])[0] == 0
    status, text = run(["split", str(responses), "--test-size", "0.3", "-o", str(tmp_path / "s")])
    train = list(read_jsonl(tmp_path / "s.train.jsonl"))
    test = list(read_jsonl(tmp_path / "s.test.jsonl"))
    assert status == 0 and train and test
    assert not {r["template_id"] for r in train} & {r["template_id"] for r in test}


def test_cli_grade_reports_bad_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"variant_id": "x"}\n')
    assert run(["grade", str(path), "-o", str(tmp_path / "g.jsonl")])[0] == 1
    assert "r.jsonl:1: no 'response' field" in capsys.readouterr().err


def test_cli_generate_parquet(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "v.parquet"
    assert run(["generate", "-n", "2", "--domain", "optics", "-o", str(out)])[0] == 0
    assert len(list(read_parquet(out))) > 0

"""Typed Parquet and Hugging Face exports (structs, lists, question/answer/messages, a dataset
card), relocatable lm-eval task folders, and the permissions of written files."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.export import (
    EXTRA_COLUMNS,
    arrow_schema,
    from_row,
    push_to_hub,
    read_parquet,
    to_hf_dataset,
    to_row,
    write_jsonl,
    write_lm_eval_task,
    write_parquet,
)
from physgen.formats import FORMATS, get_format
from physgen.splits import split
from physgen.variant import Variant, members

pa = pytest.importorskip("pyarrow")

ALL_FORMATS = sorted(FORMATS)


@pytest.fixture(scope="module")
def variants() -> list[Variant]:
    ids = ["optics.thin_lens", "mechanics.projectile_range", "mechanics.spring_mass_period_symbolic",
           "thermo.carnot_efficiency", "electricity.rlc_series_circuit"]
    return list(physgen.generate(ids, n=2, seed=3, formats=ALL_FORMATS))


def test_columns_are_the_variant_fields_then_the_extras() -> None:
    names = arrow_schema().names
    assert names == [m.name for m in members(Variant)] + list(EXTRA_COLUMNS)
    types = {f.name: f.type for f in arrow_schema()}
    assert types["metadata"].field("difficulty").type == pa.int64()
    assert types["inputs"].value_type.names == ["name", "value", "unit", "text"]
    assert types["answers"].value_type.names == ["name", "value", "unit", "text", "sig_figs", "expr"]
    assert types["options"].value_type.names == ["name", "value"]
    assert types["steps"] == pa.list_(pa.string())
    assert all(f.metadata[b"description"] for f in arrow_schema())


def test_parquet_is_typed_filterable_and_round_trips(variants: list[Variant], tmp_path: Path) -> None:
    import pyarrow.dataset as ds

    path = tmp_path / "v.parquet"
    assert write_parquet(variants, path, batch_size=7) == len(variants)
    table = ds.dataset(path).to_table(filter=ds.field("metadata", "difficulty") >= 3)  # no parsing
    hard = [v for v in variants if v.metadata.difficulty >= 3]
    assert table.num_rows == len(hard) > 0
    assert [Variant.from_dict(d) for d in read_parquet(path, batch_size=5)] == variants
    import pyarrow.parquet as pq  # Parquet names list items "element": the same types otherwise

    assert pq.read_table(path).cast(arrow_schema()).schema.equals(arrow_schema())


def test_question_answer_and_messages_grade_correct(variants: list[Variant]) -> None:
    seen = set()
    for v in variants:
        row = to_row(v)
        assert row["question"] == v.prompt == row["messages"][0]["content"]
        assert [m["role"] for m in row["messages"]] == ["user", "assistant"]
        reply = row["messages"][1]["content"]
        assert row["answer"] == get_format(v.format).reference(v) and reply.endswith(row["answer"])
        if v.format != "code":  # code answers run in the sandbox: one is enough (below)
            assert physgen.grade(v, reply).correct, (v.variant_id, reply)
        if v.unanswerable or not all(q.text in v.prompt for q in v.inputs.values()):
            assert reply == row["answer"]  # no steps that would leak what the prompt does not show
        else:
            assert reply.startswith(v.steps[0])
        seen.add(v.format)
    assert seen == set(ALL_FORMATS)
    code = next(v for v in variants if v.format == "code")
    assert physgen.grade(code, to_row(code)["messages"][1]["content"]).correct


def test_write_parquet_streams(tmp_path: Path) -> None:
    drawn = []

    def lazily() -> Iterator[Variant]:
        for v in physgen.generate(["optics.thin_lens"], n=30):
            drawn.append(v)
            yield v

    reported: list[tuple[int, int]] = []
    count = write_parquet(lazily(), tmp_path / "s.parquet", batch_size=20,
                          progress=lambda done: reported.append((done, len(drawn))))
    assert count == 90 and reported[-1] == (90, 90)
    assert reported[0] == (20, 20)  # the first batch was written before the rest was drawn
    assert len(reported) >= 5


def test_hf_dataset_dict_with_card(variants: list[Variant], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    train, test = split(variants, test_size=0.4, seed=0)
    dd = to_hf_dataset(train, test, parameters={"n": 2, "style": "unicode"})
    assert set(dd) == {"train", "test"} and (len(dd["train"]), len(dd["test"])) == (len(train), len(test))
    assert [Variant.from_dict(from_row(r)) for r in dd["test"]] == test
    hard = dd["train"].filter(lambda m: m["difficulty"] >= 3, input_columns="metadata")
    assert len(hard) == sum(v.metadata.difficulty >= 3 for v in train)
    assert dd["train"][0]["messages"][1]["role"] == "assistant"
    card = dd["train"].info.description
    assert card == dd["test"].info.description and card.startswith("---\nlicense: cc0-1.0\n")
    assert dd["train"].info.license == "cc0-1.0"
    for column in arrow_schema().names:
        assert f"| `{column}` |" in card
    for expected in ("| physgen version | 0.1.0 |", "| seeds | 3 |",
                     "| n | 2 |", "| style | unicode |", "No template is in more than one split.",
                     "| train | ", "physgen own work, CC0-1.0", "size_categories:\n- n<1K"):
        assert expected in card, expected
    assert "mc_symbolic (" in card and "code (" in card  # formats with their counts
    single = to_hf_dataset(iter(variants[:3]))
    assert len(single) == 3 and single.info.description.count("| train | 3 |") == 1
    empty = to_hf_dataset([])
    assert len(empty) == 0 and empty.features == dd["train"].features


def test_card_licence_follows_the_template_sources(variants: list[Variant], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    from .conftest import good, write_template

    write_template(tmp_path / "cat", dict(good(), source="after a textbook (CC BY 4.0)"))
    custom = physgen.load_catalog(tmp_path / "cat")
    mixed = list(physgen.generate(custom, n=1)) + variants[:2]
    ds = to_hf_dataset(mixed, catalog=custom)
    assert ds.info.license == "other" and "(not in the catalog)" in ds.info.description
    ds = to_hf_dataset(mixed[:3], catalog=custom)
    assert ds.info.license == "cc-by-4.0" and "after a textbook (CC BY 4.0)" in ds.info.description
    assert to_hf_dataset(mixed[:3], catalog=custom, license="mit").info.license == "mit"


def test_push_to_hub_uploads_the_card_first(variants: list[Variant], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasets")
    import datasets
    import huggingface_hub

    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(huggingface_hub.HfApi, "create_repo",
                        lambda self, repo_id, **kw: calls.append(("create_repo", (repo_id, kw["repo_type"]))))
    monkeypatch.setattr(huggingface_hub.DatasetCard, "push_to_hub",
                        lambda self, repo_id, **kw: calls.append(("card", (repo_id, self.content))))
    monkeypatch.setattr(datasets.DatasetDict, "push_to_hub",
                        lambda self, repo_id, **kw: calls.append(("data", (repo_id, kw))))
    dd = to_hf_dataset(variants[:4], variants[4:8])
    push_to_hub(dd, "someone/physgen", private=True)
    assert [c[0] for c in calls] == ["create_repo", "card", "data"]
    assert calls[1][1] == ("someone/physgen", dd["train"].info.description)
    assert calls[2][1] == ("someone/physgen", {"private": True})


def test_lm_eval_folder_is_relocatable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lm_eval = pytest.importorskip("lm_eval")
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    variants = list(physgen.generate(["optics.thin_lens", "thermo.carnot_efficiency"], n=2, seed=1,
                                     paraphrases=[0], formats=["free_form", "mc_numerical", "noop"]))
    replies = {v.prompt: get_format(v.format).reference(v) for v in variants}

    class Reference(LM):  # answers every prompt with physgen's reference reply
        def generate_until(self, requests: list) -> list[str]:  # type: ignore[type-arg]
            return [replies[req.args[0]] for req in requests]

        def loglikelihood(self, requests: list) -> list:  # type: ignore[type-arg]
            raise NotImplementedError

        def loglikelihood_rolling(self, requests: list) -> list:  # type: ignore[type-arg]
            raise NotImplementedError

    group = write_lm_eval_task(variants, tmp_path / "made")
    assert group.name == "physgen.yaml"
    assert sorted(p.name for p in (tmp_path / "made").iterdir()) == sorted([
        "physgen.yaml", "utils.py", *(f"physgen_{f}.{ext}" for f in ("free_form", "mc_numerical", "noop")
                                      for ext in ("yaml", "jsonl"))])
    for p in (tmp_path / "made").iterdir():
        assert str(tmp_path) not in p.read_text(encoding="utf-8")  # nothing absolute inside
    moved = tmp_path / "elsewhere" / "tasks"
    shutil.move(tmp_path / "made", moved)
    monkeypatch.chdir(tmp_path)  # neither the folder where it was written nor where it is now
    results = lm_eval.simple_evaluate(model=Reference(), tasks=["physgen"],
                                      task_manager=TaskManager(include_path=str(moved)))["results"]
    assert set(results) == {"physgen", "physgen_free_form", "physgen_mc_numerical", "physgen_noop"}
    assert all(r["physgen_correct,none"] == 1.0 for r in results.values())


def test_lm_eval_needs_variants(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one variant"):
        write_lm_eval_task([], tmp_path / "none")


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_files_get_normal_permissions(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        write_jsonl([{"a": 1}], tmp_path / "a.jsonl")
        write_parquet(physgen.generate(["optics.thin_lens"], n=1), tmp_path / "a.parquet")
    finally:
        os.umask(old)
    assert (tmp_path / "a.jsonl").stat().st_mode & 0o777 == mode
    assert (tmp_path / "a.parquet").stat().st_mode & 0o777 == mode
    assert json.loads((tmp_path / "a.jsonl").read_text()) == {"a": 1}

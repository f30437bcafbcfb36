"""physgen.dataset: random access, determinism, mixing, curriculum, shards and scoring."""

from __future__ import annotations

import collections
import json
import pickle
from typing import Any

import pytest

import physgen
from physgen.batch import InstanceBatch
from physgen.dataset import Curriculum, ProceduralDataset
from physgen.errors import ArgumentError
from physgen.formats import FORMATS, register_format
from physgen.template import Template


def _meta(entry: dict) -> dict:  # type: ignore[type-arg]
    return entry["metadata"]["variant"]["metadata"]  # type: ignore[no-any-return]


def test_length_random_access_and_determinism() -> None:
    ds = physgen.dataset(size=50, seed=3, formats=["free_form", "mc_numerical"])
    assert isinstance(ds, ProceduralDataset) and len(ds) == ds.size == 50 and ds.seed == 3
    again = physgen.dataset(size=50, seed=3, formats=["free_form", "mc_numerical"])
    assert [again[i] for i in (49, 7, 0)] == [ds[i] for i in (49, 7, 0)]  # any order, a new object
    assert ds[-1] == ds[49] and ds[17] == ds[17]
    with pytest.raises(IndexError):
        ds[50]
    entries = list(ds)
    assert entries == [ds[i] for i in range(50)]  # iteration agrees with indexing
    assert [e["metadata"]["source_index"] for e in entries] == list(range(50))
    assert len({e["metadata"]["variant"]["variant_id"] for e in entries}) == 50
    other = physgen.dataset(size=50, seed=4, formats=["free_form", "mc_numerical"])
    assert sum(a == b for a, b in zip(other, entries, strict=True)) == 0
    assert physgen.dataset(size=60, seed=3, formats=["free_form", "mc_numerical"])[7] == ds[7]  # size-free


def test_an_item_is_made_alone_from_seed_template_and_index(monkeypatch: pytest.MonkeyPatch) -> None:
    ds = physgen.dataset(size=10**12, seed=9, formats=["free_form", "mc_numerical", "noop"])
    drawn: list[list[int]] = []
    sample_at = Template.sample_at

    def counted(self: Template, indices: list[int], seed: int = 0, **kwargs: bool) -> InstanceBatch:
        drawn.append(list(indices))
        return sample_at(self, indices, seed, **kwargs)

    monkeypatch.setattr(Template, "sample_at", counted)
    last = ds[10**12 - 1]  # nothing before it is made: one instance, drawn at its own index
    assert drawn and all(k in ([0], [10**12 - 1]) for k in drawn), drawn
    monkeypatch.undo()
    for i in (0, 1, 10**12 - 1):
        entry = last if i == 10**12 - 1 else ds[i]
        v = entry["metadata"]["variant"]
        k = v["metadata"]["index"]
        assert k == (i if v["metadata"]["question_type"] == "numerical" else 0)
        # the same problem as physgen.generate makes for (seed, template, k)
        made = physgen.generate([v["template_id"]], n=1, seed=9, start=k, formats=[v["format"]],
                                paraphrases=[v["paraphrase"]])
        assert v in [w.to_dict() for w in made]


def test_entries_have_question_answer_and_metadata_for_verl() -> None:
    ds = physgen.dataset(size=6, seed=0, formats=["mc_numerical"])
    for e in ds:
        v = physgen.Variant.from_dict(e["metadata"]["variant"])
        assert e["question"] == v.prompt and e["question"].rstrip().endswith('"Final answer: <letter>".')
        assert e["answer"] == f"Final answer: {v.answer_key}"
        assert json.loads(e["metadata"]["ground_truth"]) == e["metadata"]["variant"]
        assert e["metadata"]["source_dataset"] == "physgen"


def test_every_reference_answer_scores_one_and_nonsense_zero() -> None:
    ds = physgen.dataset(size=10**6, seed=5, formats=sorted(FORMATS))  # every format, code in the sandbox
    entries = [ds[i] for i in range(0, 10**6, 10**6 // 40)]
    assert {e["metadata"]["variant"]["format"] for e in entries} == set(FORMATS)
    assert [ds.score_answer(e["answer"], e) for e in entries] == [1.0] * len(entries)
    assert [ds.score_answer("The answer is purple.", e) for e in entries] == [0.0] * len(entries)
    assert ds.score_answer(None, entries[0]) == 0.0


def test_score_answer_gives_partial_credit_on_request() -> None:
    ds = physgen.dataset(["optics.thin_lens"], size=1)
    entry = ds[0]
    first_part = "\n".join(entry["answer"].splitlines()[:2])  # "Final answer:" and (a), not (b)
    assert ds.score_answer(first_part, entry) == 0.0
    assert ds.score_answer(first_part, entry, partial_credit=True) == 0.5
    assert ds.score_answer(entry["answer"], entry, partial_credit=True) == 1.0


def test_an_item_draws_again_when_its_format_makes_nothing() -> None:
    @register_format("never")
    def never(inst: Any, paraphrase: int, ctx: Any) -> list[physgen.Variant]:
        return []

    try:
        ds = physgen.dataset(size=20, seed=0, formats=["never", "free_form"])
        assert {e["metadata"]["variant"]["format"] for e in ds} == {"free_form"}
        with pytest.raises(physgen.SamplingError, match=r"never of optics\.thin_lens"):
            physgen.dataset(["optics.thin_lens"], size=1, formats=["never"])[0]
    finally:
        del FORMATS["never"]


def test_shards_are_disjoint_and_cover_the_dataset() -> None:
    ds = physgen.dataset(size=23, seed=1)
    shards = [ds.shard(rank, 4) for rank in range(4)]
    assert [len(s) for s in shards] == [6, 6, 6, 5]
    seen = [e["metadata"]["source_index"] for s in shards for e in s]
    assert sorted(seen) == list(range(23))
    assert all(s[j] == ds[rank + 4 * j] for rank, s in enumerate(shards) for j in (0, len(s) - 1))
    assert ds.shard(1, 4).shard(0, 2)[1] == ds[9]  # a shard of a shard keeps global indices
    assert ds[5:9][0] == ds[5] and len(ds[5:9]) == 4
    for rank, world in ((4, 4), (-1, 2), (0, 0)):
        with pytest.raises(ArgumentError, match="rank"):
            ds.shard(rank, world)


def test_the_dataset_pickles_for_data_loader_workers() -> None:
    ds = physgen.dataset(size=20, seed=2, formats=["free_form", "mc_numerical"]).shard(1, 2)
    copy = pickle.loads(pickle.dumps(ds))
    assert list(copy) == list(ds)


def test_weights_mix_by_domain_template_or_difficulty() -> None:
    by_domain = physgen.dataset(size=400, seed=0, weights={"optics": 3, "mechanics": 1})
    domains = collections.Counter(_meta(e)["domain"] for e in by_domain)
    assert set(domains) == {"optics", "mechanics"} and 0.65 < domains["optics"] / 400 < 0.85
    one = physgen.dataset(size=10, weights={"optics.thin_lens": 1.0, "optics.malus_law": 0})
    assert {e["metadata"]["variant"]["template_id"] for e in one} == {"optics.thin_lens"}
    ends = physgen.dataset(size=200, weights={1: 1, 5: 1})
    levels = collections.Counter(_meta(e)["difficulty"] for e in ends)
    assert set(levels) == {1, 5} and 0.35 < levels[1] / 200 < 0.65


def test_filters_and_their_errors_name_the_valid_values() -> None:
    ds = physgen.dataset(size=40, domain=["optics", "thermodynamics"], difficulty=[1, 2])
    assert {_meta(e)["domain"] for e in ds} <= {"optics", "thermodynamics"}
    assert {_meta(e)["difficulty"] for e in ds} <= {1, 2}
    with pytest.raises(ArgumentError,
                       match=r"unknown domain 'optic'; valid: .*mechanics.*\(did you mean 'optics'\?\)"):
        physgen.dataset(size=1, domain="optic")
    with pytest.raises(ArgumentError, match=r"unknown difficulty 7; valid: 1, 2, 3, 4, 5"):
        physgen.dataset(size=1, difficulty=[1, 7])
    with pytest.raises(physgen.PhysgenError, match="did you mean 'mc_numerical'"):
        physgen.dataset(size=1, formats=["mc_numeric"])
    with pytest.raises(ArgumentError,
                       match=r"unknown weights key 'nonsense'; the keys name domains \(.*optics.*\) "
                                            r"or template ids \(\d+; see `physgen list`\)"):
        physgen.dataset(size=1, weights={"optics": 1, "nonsense": 2})
    with pytest.raises(ArgumentError,
                       match=r"unknown weights key 9; the keys name difficulty levels \(1, 2, 3, 4, 5\)"):
        physgen.dataset(size=1, weights={9: 1})
    with pytest.raises(ArgumentError, match="finite numbers"):
        physgen.dataset(size=1, weights={"optics": -1})
    with pytest.raises(ArgumentError, match="weight above 0"):
        physgen.dataset(size=1, weights={"optics": 0})
    with pytest.raises(ArgumentError, match="size"):
        physgen.dataset(size=-1)
    with pytest.raises(ArgumentError, match="none of the formats"):
        physgen.dataset(["mechanics.atwood_machine_symbolic"], size=1, formats=["units", "code"])


def test_a_curriculum_widens_the_difficulty_range() -> None:
    ds = physgen.dataset(size=300, seed=0, difficulty=Curriculum(every=100, start=2, stop=4))
    levels = [_meta(e)["difficulty"] for e in ds]
    assert set(levels[:100]) == {1, 2} and set(levels[100:200]) == {1, 2, 3}
    assert set(levels[200:]) == {1, 2, 3, 4}
    window = physgen.dataset(size=300, seed=0, difficulty=Curriculum(every=100, start=2, stop=4, window=1))
    assert [_meta(e)["difficulty"] for e in window[::100]] == [2, 3, 4]
    assert {_meta(e)["difficulty"] for e in window.shard(2, 3)[-20:]} == {4}  # shards follow the global index
    with pytest.raises(ArgumentError, match=r"difficulty \[1\]"):  # statistical mechanics starts at level 2
        physgen.dataset(size=1, domain="statistical_mechanics", difficulty=Curriculum(every=10, window=1))
    with pytest.raises(ArgumentError, match="start ≤ stop"):
        Curriculum(every=10, start=4, stop=2)


def test_physgen_dataset_is_callable_however_it_was_imported() -> None:
    import physgen.dataset as module
    from physgen.dataset import dataset

    assert module is physgen.dataset and callable(physgen.dataset)
    assert physgen.dataset(size=3, seed=1)[2] == dataset(size=3, seed=1)[2]


def test_hugging_face_layouts_for_trl_and_verl() -> None:
    pytest.importorskip("datasets")
    ds = physgen.dataset(size=4, seed=0, formats=["free_form", "mc_numerical"])
    trl = ds.to_hf_dataset()
    assert trl.column_names == ["prompt", "answer", "variant"]
    assert trl[1]["prompt"] == ds[1]["question"]
    assert json.loads(trl[1]["variant"]) == ds[1]["metadata"]["variant"]
    chat = ds.to_hf_dataset(conversational=True)
    assert chat[0]["prompt"] == [{"role": "user", "content": ds[0]["question"]}]
    verl = ds.to_hf_dataset("verl")
    assert verl.column_names == ["data_source", "prompt", "ability", "reward_model", "extra_info"]
    row = verl[3]
    assert row["data_source"] == "physgen" and row["reward_model"]["style"] == "rule"
    assert row["reward_model"]["ground_truth"] == ds[3]["metadata"]["ground_truth"]
    assert row["extra_info"]["index"] == 3
    with pytest.raises(ArgumentError, match="layout"):
        ds.to_hf_dataset("openrlhf")  # type: ignore[arg-type]

"""One field list: Variant's dict form, its record schema and the graded record all follow it,
and the dict form is byte for byte what the hand-written encoder gave."""

from __future__ import annotations

import dataclasses
import inspect
import json
from typing import Any

import pytest

import physgen
from physgen import schema
from physgen.formats import FORMATS
from physgen.jsonl import variant_line
from physgen.render import STYLES
from physgen.schema import VariantRecord
from physgen.variant import MAX_ENTRIES, MAX_NAME, MAX_STEP, Metadata, Variant, check_size, members


def legacy_to_dict(v: Variant) -> dict[str, Any]:
    """``Variant.to_dict`` as it was written out by hand before the field list was declared once."""
    return {
        "variant_id": v.variant_id, "template_id": v.template_id, "instance_id": v.instance_id,
        "paraphrase": v.paraphrase, "format": v.format, "prompt": v.prompt,
        "inputs": {k: {"value": q[0], "unit": q[1], "text": q[2]} for k, q in v.inputs.items()},
        "answers": {k: {"value": a[0], "unit": a[1], "text": a[2], "sig_figs": a[3], "expr": a[4]}
                    for k, a in v.answers.items()},
        "steps": list(v.steps),
        "metadata": {
            "domain": v.metadata.domain, "subdomain": list(v.metadata.subdomain),
            "difficulty": v.metadata.difficulty, "question_type": v.metadata.question_type,
            "template_version": v.metadata.template_version, "seed": v.metadata.seed,
            "index": v.metadata.index,
        },
        "options": dict(v.options), "answer_key": v.answer_key,
        "code_tests": [{"inputs": dict(c.inputs), "expected": dict(c.expected)} for c in v.code_tests],
        "unanswerable": list(v.unanswerable),
        # added with step-level grading (issue 10): the only new key, at the end; each intermediate's
        # "uses" (what it is found from, for the order of steps) added at its end with the solution graph
        "intermediates": {k: {"value": i[0], "unit": i[1], "text": i[2], "sig_figs": i[3], "step": i[4],
                              "uses": None if i[5] is None else list(i[5])}
                          for k, i in v.intermediates.items()},
    }


def legacy_line(v: Variant) -> bytes:
    return (json.dumps(legacy_to_dict(v), ensure_ascii=False, separators=(",", ":")) + "\n").encode()


@pytest.mark.parametrize("style", STYLES)
def test_dict_form_and_bytes_are_unchanged(catalog: physgen.Catalog, style: str) -> None:
    algebraic = catalog.filter(question_type="algebraic").templates()
    source = catalog.templates()[::5] + algebraic[:2]  # every domain, numerical and algebraic
    count = 0
    for v in physgen.generate(source, n=1, seed=5, formats=sorted(FORMATS), style=style):  # type: ignore[arg-type]
        assert v.to_dict() == legacy_to_dict(v)
        assert list(v.to_dict()) == list(legacy_to_dict(v))  # key order too
        assert variant_line(v) == legacy_line(v)
        assert Variant.from_dict(json.loads(v.to_json())) == v
        count += 1
    assert count > 100


def test_record_schema_follows_the_field_list() -> None:
    fields = [f.name for f in dataclasses.fields(Variant)]
    assert list(VariantRecord.model_fields) == fields
    required = {m.name for m in members(Variant) if m.default is ... and m.factory is None}
    assert set(VariantRecord.model_json_schema()["required"]) == required
    meta = VariantRecord.model_json_schema()["$defs"]["MetadataRecord"]
    assert list(meta["properties"]) == [f.name for f in dataclasses.fields(Metadata)]
    assert "optics" in meta["properties"]["domain"]["enum"]  # narrowed to the template schema's domains
    assert all(VariantRecord.model_fields[m.name].description == m.doc for m in members(Variant))


def test_graded_record_follows_the_field_list() -> None:
    v = next(physgen.generate(["optics.thin_lens"], n=1))
    rec = physgen.metrics.record(v, physgen.grade(v, "no idea"), attempt=2, model="m")
    graded = [m.name for m in members(Variant) if m.graded] + [m.name for m in members(Metadata) if m.graded]
    assert list(rec)[:len(graded)] == graded
    assert rec["subdomain"] == list(v.metadata.subdomain) and rec["attempt"] == 2 and rec["model"] == "m"
    assert rec["correct"] is False and rec["parts"] == {"d_i": "missing", "m": "missing"}


def test_from_dict_names_a_wrong_field() -> None:
    v = next(physgen.generate(["optics.thin_lens"], n=1)).to_dict()
    v["metadata"]["domain"] = "electricity"
    with pytest.raises(ValueError, match=r"metadata\.domain"):
        Variant.from_dict(v)


@pytest.mark.parametrize("every", [pytest.param(1, marks=pytest.mark.slow), 7])
def test_catalog_variants_are_far_below_the_record_caps(catalog: physgen.Catalog, every: int) -> None:
    """``Variant.from_dict`` refuses records larger than :data:`physgen.variant.MAX_ENTRIES` (and
    names over ``MAX_NAME``, steps over ``MAX_STEP``): no template can come near them (the
    template file's own caps are lower), and the catalog's variants, every format, stay a fifth
    of the way below."""
    assert MAX_ENTRIES["inputs"] >= schema.MAX_QUANTITIES * 2 and MAX_ENTRIES["answers"] >= schema.MAX_ANSWERS
    assert MAX_ENTRIES["intermediates"] >= schema.MAX_QUANTITIES and MAX_ENTRIES["steps"] >= schema.MAX_STEPS
    assert MAX_NAME >= 40 and MAX_STEP >= 4 * schema.MAX_TEXT_LENGTH
    largest = dict.fromkeys([*MAX_ENTRIES, "name", "step"], 0)
    for v in physgen.generate(catalog.templates()[::every], n=1, seed=0, formats=sorted(FORMATS)):
        record = v.to_dict()
        check_size(record)
        for field in MAX_ENTRIES:
            largest[field] = max(largest[field], len(record[field]))
        largest["name"] = max(largest["name"], *map(len, [*v.inputs, *v.answers, *v.intermediates]))
        largest["step"] = max(largest["step"], *map(len, v.steps))
    caps = {**MAX_ENTRIES, "name": MAX_NAME, "step": MAX_STEP}
    assert all(0 < largest[f] <= caps[f] / 5 for f in caps), largest


def test_records_made_through_their_slots_are_still_frozen_dataclasses() -> None:
    """``variant.fast_init`` replaces the dataclass ``__init__`` of Variant, Metadata and
    Instance: the same parameters and defaults, a fresh default per record, and still frozen."""
    from physgen.instance import Instance

    meta = Metadata("optics", ("lenses",), 1, "numerical", 2, 0, index=7)
    v = Variant("t:i:p0:free_form", "t", "i", 0, "free_form", "Find f.", {}, {}, ("f = 2 m",), meta)
    w = Variant("t:i:p0:free_form", "t", "i", 0, "free_form", "Find f.", {}, {}, ("f = 2 m",), meta)
    assert v == w and v.options == {} and v.options is not w.options and v.answer_key is None
    assert (v.code_tests, v.unanswerable, v.intermediates) == ((), (), {})
    assert dataclasses.replace(v, prompt="Find d.").prompt == "Find d." and meta.index == 7
    for record, name in ((v, "prompt"), (meta, "index")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, name, 1)
    for cls in (Variant, Metadata, Instance):
        params = list(inspect.signature(cls).parameters)
        assert params == [f.name for f in dataclasses.fields(cls)]
    with pytest.raises(TypeError):
        Metadata("optics")  # type: ignore[call-arg]

"""The public API: catalog, generate, Variant, CLI, schemas."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import physgen
from physgen.cli import main
from physgen.errors import CapacityWarning
from physgen.generation import count_variants
from physgen.schema import VariantRecord, json_schemas

ROOT = Path(__file__).resolve().parents[1]


def test_catalog_lookup_filter_and_errors(catalog: physgen.Catalog) -> None:
    assert len(catalog) >= 12
    assert len({t.domain for t in catalog.values()}) == 9
    optics = catalog.filter(domain="optics")
    assert {"optics.thin_lens", "optics.snell_refraction"} <= set(optics)
    assert all(t.domain == "optics" for t in optics.values())
    assert len(optics) == sum(t.domain == "optics" for t in catalog.values())
    assert all(t.difficulty in (1, 2) for t in catalog.filter(difficulty=[1, 2]).values())
    orbits = catalog.filter(tags="orbits")
    assert {"mechanics.circular_orbit", "mechanics.kepler_orbit_position"} <= set(orbits)
    assert all("orbits" in t.subdomain for t in orbits.values())
    both = catalog.filter(tags=["orbits", "keplers_laws"])
    assert set(both) < set(orbits) and all("keplers_laws" in t.subdomain for t in both.values())
    with pytest.raises(KeyError, match=r"did you mean 'mechanics\.projectile_range'"):
        catalog["mechanics.projectile_rnge"]
    assert physgen.load_catalog() is catalog  # the built-in catalog loads once
    assert len(catalog.digest()) == 12


def test_generate_counts_ids_and_streaming(catalog: physgen.Catalog) -> None:
    vs = list(physgen.generate(catalog, n=2, seed=1))
    # every paraphrase of 2 instances (an algebraic template's instances 0 and 1 are two problems)
    assert len(vs) == sum(2 * len(t.texts) for t in catalog.templates())
    assert len(vs) == count_variants(catalog, 2)
    assert len({v.variant_id for v in vs}) == len(vs)
    v = vs[0]
    assert v.variant_id == f"{v.template_id}:{v.instance_id}:p{v.paraphrase}:free_form"
    assert v.metadata.seed == 1 and v.metadata.index == 0
    with pytest.warns(CapacityWarning, match=r"n=1000000000 is more than \d+ template\(s\) can show"):
        gen = physgen.generate(catalog, n=10**9, seed=0)  # streaming: nothing drawn up front
    assert next(gen).metadata.index == 0


def test_generate_from_a_custom_catalog(tmp_path: Path) -> None:
    from .conftest import good, write_template

    write_template(tmp_path, good())
    custom = physgen.load_catalog(tmp_path)
    assert {v.template_id for v in physgen.generate(custom, n=2)} == {"mechanics.demo_speed"}
    assert len(list(physgen.generate(custom.templates(), n=2))) == 6


def test_generate_paraphrase_choices(catalog: physgen.Catalog) -> None:
    t = catalog["optics.thin_lens"]
    assert [v.paraphrase for v in physgen.generate([t], n=1, paraphrases=[2, 0])] == [2, 0]
    randoms = {v.paraphrase for v in physgen.generate([t], n=60, paraphrases="random")}
    assert randoms == {0, 1, 2}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"formats": ["essay"]}, "unknown format 'essay'; available: code, free_form, mc_numerical"),
    ({"paraphrases": [5]}, r"has paraphrases 0..2; \[5\] do not exist"),
    ({"paraphrases": None}, "paraphrases must be 'all', 'random' or a list of indices, got None"),
    ({"paraphrases": 1}, "paraphrases must be 'all', 'random' or a list of indices, got 1"),
    ({"style": "html"}, "unknown style 'html'; valid: "),
    ({"n": -1}, "need n ≥ 0"),
])
def test_generate_rejects_bad_arguments_before_yielding(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        physgen.generate(["optics.thin_lens"], **kwargs)


def test_bare_string_source_is_refused() -> None:
    with pytest.raises(TypeError, match=r"pass a list of template ids"):
        physgen.generate("optics.thin_lens")  # type: ignore[arg-type]


def test_variant_round_trips_and_matches_schema(catalog: physgen.Catalog) -> None:
    for v in physgen.generate(catalog, n=1, seed=4):
        d = json.loads(v.to_json())
        VariantRecord.model_validate(d)
        assert physgen.Variant.from_dict(d) == v
        assert d == v.to_dict()


def test_algebraic_templates_show_symbols_and_expressions(catalog: physgen.Catalog) -> None:
    t = catalog["mechanics.spring_mass_period_symbolic"]
    assert t.capacity() >= 20  # names and unknowns vary (tests/test_algebraic_variation.py)
    vs = list(physgen.generate([t], n=400, seed=2))
    assert len(vs) == t.capacity() * len(t.texts)  # every problem, in each paraphrase
    v = next(v for v in vs if set(v.inputs) == {"m", "k"} and "omega" in v.answers)  # the template's own
    assert "mass m" in v.prompt and "stiffness k" in v.prompt and "in terms of m and k" in v.prompt
    assert v.answers["omega"].expr == "sqrt(k/m)" and v.answers["omega"].text == "√(k/m)"
    m, k = v.inputs["m"].value, v.inputs["k"].value
    assert v.answers["T"].value == pytest.approx(2 * 3.141592653589793 * (m / k) ** 0.5)
    latex = next(v for v in physgen.generate([t], n=400, seed=2, style="latex")
                 if set(v.inputs) == {"m", "k"} and "omega" in v.answers)
    assert "$m$" in latex.prompt and latex.answers["T"].text == "$\\frac{2 \\pi}{\\sqrt{\\frac{k}{m}}}$"


def test_variant_answers_as_quantities(catalog: physgen.Catalog) -> None:
    v = next(physgen.generate(["thermo.calorimetry_mixing"], n=1))
    assert str(v.answers["T_f"].quantity.units) == "degree_Celsius"
    assert str(v.inputs["m1"].quantity.units) == "kilogram"


def test_schemas_on_disk_are_current() -> None:
    for name, schema in json_schemas().items():
        on_disk = json.loads((ROOT / "schemas" / name).read_text())
        assert on_disk == schema, f"schemas/{name} is stale: run `physgen schema`"


def test_docs_catalog_is_current(catalog: physgen.Catalog) -> None:
    from physgen.gallery import gallery

    on_disk = (ROOT / "docs" / "catalog.md").read_text(encoding="utf-8")
    assert on_disk == gallery(catalog), "docs/catalog.md is stale: run `physgen gallery -o docs/catalog.md`"
    assert on_disk.count("\n### `") == len(catalog)


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


def test_cli_list_show_validate(catalog: physgen.Catalog) -> None:
    status, text = run(["list"])
    n_optics = len(catalog.filter(domain="optics"))
    assert status == 0 and f"optics ({n_optics})" in text and f"{len(catalog)} templates in 9 domains" in text
    status, text = run(["show", "optics.thin_lens", "--seed", "3"])
    assert status == 0 and "[paraphrase 2]" in text and "d_i = " in text and "steps:" in text
    pending = str(ROOT / "tests" / "data" / "pending_repairs.json")
    status, text = run(["validate", str(ROOT / "templates"), "--pending", pending])
    assert status == 0 and f"OK: {len(catalog)} templates valid" in text


def test_cli_generate_writes_atomically(tmp_path: Path, catalog: physgen.Catalog) -> None:
    out = tmp_path / "out.jsonl"  # its folder must exist: a missing one is an error, not created
    status, _ = run(["generate", "-n", "3", "--domain", "optics", "--paraphrases", "0,1", "-o", str(out)])
    assert status == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    optics = catalog.filter(domain="optics")
    assert len(rows) == count_variants(optics, 3, paraphrases=[0, 1])
    assert all(r["metadata"]["domain"] == "optics" for r in rows)
    assert [p.name for p in out.parent.iterdir()] == ["out.jsonl"]  # no temp file left


def test_cli_errors_go_to_stderr_with_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["show", "optics.nothing"])[0] == 1
    assert "no template 'optics.nothing'" in capsys.readouterr().err
    bad = tmp_path / "mechanics" / "x.yaml"
    bad.parent.mkdir()
    bad.write_text("id: mechanics.x\n")
    assert run(["validate", str(tmp_path)])[0] == 1
    assert "version: required field is missing" in capsys.readouterr().err


def test_cli_schema(tmp_path: Path) -> None:
    status, text = run(["schema", "-o", str(tmp_path)])
    assert status == 0 and "template.schema.json" in text and (tmp_path / "template.schema.json").exists()

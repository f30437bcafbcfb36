"""The fast paths give the same bytes as the plain ones: cache, workers, JSONL writer, lazy imports."""

from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import physgen
from physgen import cache, jsonl
from physgen.export import write_jsonl
from physgen.generation import generate_jsonl
from physgen.variant import Answer, CodeTest, Metadata, ShownQuantity, Variant

from .conftest import good, write_template

ENV = {k: v for k, v in os.environ.items() if not k.startswith("PHYSGEN_")}


def _run(args: list[str], **env: str) -> bytes:
    result = subprocess.run([sys.executable, *args], check=True, capture_output=True, env={**ENV, **env})
    return result.stdout


def test_cached_and_uncached_output_are_byte_identical(tmp_path: Path) -> None:
    script = ("import physgen, sys\n"
              "c = physgen.load_catalog()\n"
              "for v in physgen.generate(c, n=2, seed=5, formats=['free_form', 'mc_numerical', 'units']):\n"
              "    sys.stdout.write(v.to_json() + '\\n')\n")
    folder = str(tmp_path / "cache")
    uncached = _run(["-c", script], PHYSGEN_NO_CACHE="1")
    first = _run(["-c", script], PHYSGEN_CACHE_DIR=folder)  # compiles and writes the cache
    assert list((tmp_path / "cache" / "catalogs").glob("*.pickle"))
    second = _run(["-c", script], PHYSGEN_CACHE_DIR=folder)  # reads it
    assert uncached == first == second
    listed = [_run(["-m", "physgen.cli", "list"], PHYSGEN_CACHE_DIR=folder),
              _run(["-m", "physgen.cli", "list"], PHYSGEN_NO_CACHE="1")]
    assert listed[0] == listed[1]


def test_list_and_show_from_the_cache_import_neither_sympy_nor_pint(tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    pending = str(Path(__file__).parent / "data" / "pending_repairs.json")
    _run(["-m", "physgen.cli", "validate", "--pending", pending], PHYSGEN_CACHE_DIR=folder)
    script = ("import io, sys\nfrom physgen.cli import main\n"
              "main(['list'], io.StringIO()); main(['show', 'mechanics.projectile_range'], io.StringIO())\n"
              "print(sorted(m for m in ('sympy', 'pint', 'physgen.compile') if m in sys.modules))")
    assert _run(["-c", script], PHYSGEN_CACHE_DIR=folder).strip() == b"[]"


def test_import_physgen_is_lazy() -> None:
    script = ("import sys, physgen\n"
              "print(sorted(m for m in ('sympy', 'pint', 'jinja2', 'numpy') if m in sys.modules))\n"
              "import physgen.generation as g\n"
              "print(g.__name__, physgen.generate is g.generate, callable(physgen.generate))\n"
              "print(all(hasattr(physgen, name) for name in physgen.__all__))")
    lines = _run(["-c", script]).decode().splitlines()
    assert lines == ["[]", "physgen.generation True True", "True"]


def test_a_corrupt_or_foreign_cache_file_is_ignored_and_rebuilt(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PHYSGEN_NO_CACHE", raising=False)
    root = tmp_path / "t"
    write_template(root, good())
    reference = [v.to_json() for v in physgen.generate(physgen.load_catalog(root), n=3)]
    store = cache.Store(root)
    assert store.path is not None and store.path.exists()
    for junk in (b"not a pickle", pickle.dumps((cache.LAYOUT, "/somewhere/else", {})), b""):
        store.path.write_bytes(junk)
        with pytest.warns(physgen.errors.CacheWarning, match="rebuilding"):
            assert [v.to_json() for v in physgen.generate(physgen.load_catalog(root), n=3)] == reference
        assert cache.Store(root)._stored  # rewritten, signed, and read back


def test_an_edited_template_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "t"
    data = good()
    write_template(root, data)
    assert physgen.load_catalog(root)["mechanics.demo_speed"].spec.answers["v"].ask == "the average speed"
    data["answers"]["v"]["ask"] = "the mean speed"
    write_template(root, data)
    assert physgen.load_catalog(root)["mechanics.demo_speed"].spec.answers["v"].ask == "the mean speed"


def test_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PHYSGEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("PHYSGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "physgen"
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(tmp_path / "x"))
    assert cache.cache_dir() == tmp_path / "x"
    monkeypatch.setenv("PHYSGEN_NO_CACHE", "1")
    assert cache.cache_dir() is None


def test_templates_pickle_and_give_the_same_variants(catalog: physgen.Catalog) -> None:
    for tid in ("mechanics.projectile_range", "mechanics.kepler_orbit_position",
                "electricity.capacitor_energy_symbolic"):
        t = catalog[tid]
        copy = pickle.loads(pickle.dumps(t))
        formats = ["free_form", "mc_numerical"]
        assert [v.to_json() for v in physgen.generate([copy], n=3, formats=formats)] == \
            [v.to_json() for v in physgen.generate([t], n=3, formats=formats)]
        assert {k: str(e) for k, e in copy.expressions.items()} == \
            {k: str(e) for k, e in t.expressions.items()}


@pytest.mark.parametrize("formats", [["free_form"], ["free_form", "mc_numerical", "code"],
                                     ["units", "mc_symbolic", "noop", "omitted"]])
def test_workers_give_the_same_variants_in_the_same_order(catalog: physgen.Catalog,
                                                          formats: list[str]) -> None:
    small = catalog.filter(domain="optics")
    serial = list(physgen.generate(small, n=7, seed=3, formats=formats, chunk_size=3))
    parallel = list(physgen.generate(small, n=7, seed=3, formats=formats, chunk_size=3, workers=2))
    assert parallel == serial
    assert b"".join(generate_jsonl(small, n=7, seed=3, formats=formats, chunk_size=3, workers=2)) == \
        "".join(v.to_json() + "\n" for v in serial).encode()


def test_workers_must_be_a_positive_whole_number(catalog: physgen.Catalog) -> None:
    with pytest.raises(ValueError, match="workers must be a whole number ≥ 1"):
        physgen.generate(catalog, workers=0)


def test_cli_jobs_give_the_same_file(tmp_path: Path) -> None:
    for j in ("1", "2"):
        _run(["-m", "physgen.cli", "generate", "-n", "4", "--domain", "optics", "-j", j,
              "-o", str(tmp_path / f"{j}.jsonl")])
    assert (tmp_path / "1.jsonl").read_bytes() == (tmp_path / "2.jsonl").read_bytes()


EDGE_FLOATS = [1e16, 1e-7, -0.0, 0.0, 1e-4, 9.999999999999999e-05, 1e-05, 2.5e-31, 1e22, 123456789.123,
               1.7976931348623157e308, 5e-324, -1e-300, math.inf, -math.inf, math.nan, 0.1 + 0.2]
EDGE_TEXT = ["é", "Ω μ ° ²", "😀", "\n\t\"\\", "\x00\x1f\x7f", "\u2028\u2029", "plain"]


def _edge_variant(k: int) -> Variant:
    x = EDGE_FLOATS[k % len(EDGE_FLOATS)]
    text = EDGE_TEXT[k % len(EDGE_TEXT)]
    return Variant(
        f"a.b:{k}:p0:free_form", "a.b", f"{k:012x}", k % 3, "free_form", f"prompt {text} {x}",
        {"x": ShownQuantity(x, "m", text), "y": ShownQuantity(float(k), "", "1")},
        {"z": Answer(x * 3, "J", text, 3, None if k % 2 else "x*y")}, (text, "step"),
        Metadata("mechanics", ("kinematics",), 1, "numerical", 1, [0, 2**64, -(2**63) - 1, 10**30][k % 4], k),
        {"A": text} if k % 5 == 0 else {}, "A" if k % 5 == 0 else None,
        (CodeTest({"x": x}, {"z": 1e-9}),) if k % 7 == 0 else (),
    )


def test_jsonl_writer_is_byte_identical_to_the_standard_library(tmp_path: Path,
                                                                catalog: physgen.Catalog) -> None:
    def reference(obj: object) -> bytes:
        return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()

    variants = [*_edge_variant_list(), *physgen.generate(catalog, n=3, seed=9, formats=[
        "free_form", "mc_numerical", "mc_symbolic", "units", "noop", "omitted", "code"])]
    assert len(variants) > 5000
    for v in variants:
        assert jsonl.variant_line(v) == reference(v.to_dict())
        assert v.to_json().encode() + b"\n" == reference(v.to_dict())
    records = [{"a": x, "b": [x, t, None, True, 2**70], "c": {"k": t}}
               for x in EDGE_FLOATS for t in EDGE_TEXT]
    records += [{"n": np.float64(1.5)}, {"t": (1, 2.5e-8)}, {1: "int key"}]
    for r in records:
        assert jsonl.line(r) == reference(r)
    write_jsonl(variants, tmp_path / "v.jsonl")
    assert (tmp_path / "v.jsonl").read_bytes() == b"".join(reference(v.to_dict()) for v in variants)


def _edge_variant_list() -> list[Variant]:
    return [_edge_variant(k) for k in range(400)]


def test_the_fast_writer_is_in_use() -> None:
    pytest.importorskip("orjson")
    assert jsonl.FAST


def test_column_formatting_equals_format_number(catalog: physgen.Catalog) -> None:
    from physgen.numtext import format_numbers
    from physgen.render import format_number

    values = [0.0, -0.0, 1e-7, 0.000999, 0.001, 0.5, 9.995, 2205.0, 99999.5, 1e5, -584000.0, 1.7e308,
              math.inf, math.nan, *np.random.default_rng(0).lognormal(0, 12, 2000).tolist()]
    for sig in range(1, 9):
        for style in ("unicode", "latex", "ascii"):
            for notation in ("auto", "plain", "scientific"):
                expected = [format_number(x, sig, style, notation) for x in values]  # type: ignore[arg-type]
                assert format_numbers(values, sig, style, notation) == expected  # type: ignore[arg-type]
    assert format_numbers([3.0, 12.0], 2, integer=True) == ["3", "12"]


def test_metrics_on_a_dataframe_equal_metrics_on_rows() -> None:
    pd = pytest.importorskip("pandas")
    from physgen import metrics

    rng = np.random.default_rng(1)
    rows = [{"template_id": f"t{i % 7}", "instance_id": f"i{i % 31}", "variant_id": f"v{i % 50}",
             "format": ["free_form", "units"][i % 2], "attempt": i // 50, "correct": bool(rng.random() < 0.5),
             "score": float(rng.random()), "subdomain": ["a", "b"][: 1 + i % 2], "extra": "x" * 10}
            for i in range(200)]
    frame = pd.DataFrame(rows, index=np.arange(1000, 1200))  # an index that is not 0..n-1
    assert metrics.summary(frame, n_resamples=50) == metrics.summary(rows, n_resamples=50)
    for by in ("format", "subdomain", ["format", "template_id"]):
        assert metrics.breakdown(frame, by) == metrics.breakdown(rows, by)
    assert metrics.conditional_accuracy(frame) == metrics.conditional_accuracy(rows)
    assert metrics.attempts(frame, 2) == metrics.attempts(rows, 2)
    assert metrics.compare(frame, rows, n_resamples=20) == metrics.compare(rows, rows, n_resamples=20)

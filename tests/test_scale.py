"""physgen.scale: generation by index ranges and grading by rows give the single-process bytes,
in a loop and on a local Ray instance (the README's "Scaling out" recipe, at small size)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen import jsonl, scale
from physgen.cli import main
from physgen.errors import ArgumentError, RowError
from physgen.generation import generate_jsonl

FILES = ("optics/thin_lens.yaml", "optics/apparent_depth_two_layers_symbolic.yaml",
         "mechanics/projectile_range.yaml")
OPTIONS: dict[str, Any] = {"seed": 7, "formats": ["free_form", "mc_numerical"], "paraphrases": "random"}
N = 45


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user catalog: two numerical templates and an algebraic one (whose instances vary too)."""
    root = tmp_path_factory.mktemp("catalog")
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(__file__).parents[1] / "templates" / name, root / name)
    return root


@pytest.fixture(scope="module")
def catalog(folder: Path) -> physgen.Catalog:
    return physgen.load_catalog(folder)


@pytest.fixture(scope="module")
def single(catalog: physgen.Catalog) -> bytes:
    """The single-process JSONL of the job."""
    return b"".join(generate_jsonl(catalog, n=N, **OPTIONS))


def _responses(generated: bytes, path: Path) -> Path:
    """A responses file: each variant answered right (model "a") or wrong (model "b")."""
    from physgen.formats import get_format

    lines = []
    for i, text in enumerate(generated.splitlines()):
        v = physgen.Variant.from_dict(json.loads(text))
        reply = get_format(v.format).reference(v) if i % 3 else "No idea."
        lines.append(jsonl.line({**v.to_dict(), "response": reply, "model": "ab"[i % 2]}))
    path.write_bytes(b"".join(lines))
    return path


def _cli_graded(responses: Path, tmp_path: Path) -> bytes:
    assert main(["grade", str(responses), "-o", str(tmp_path / "graded.jsonl"), "--no-progress"]) == 0
    return (tmp_path / "graded.jsonl").read_bytes()


def test_pieces_in_any_order_join_to_the_single_process_bytes(folder: Path, catalog: physgen.Catalog,
                                                              single: bytes, tmp_path: Path) -> None:
    work = scale.pieces(catalog, n=N, size=10)
    assert [p["piece"] for p in work] == list(range(len(work)))
    sizes = {t: sum(p["n"] for p in work if p["template"] == t) for t in catalog}
    assert sizes == {"mechanics.projectile_range": N, "optics.apparent_depth_two_layers_symbolic": N,
                     "optics.thin_lens": N}
    shuffled = random.Random(0).sample(work, len(work))
    made = sorted((scale.generate_piece(p, catalog=catalog, **OPTIONS) for p in shuffled),
                  key=lambda m: m["piece"])
    assert b"".join(m["jsonl"] for m in made) == single
    out = tmp_path / "cli.jsonl"  # the README's "= physgen generate ..."
    assert main(["generate", "--path", str(folder), "-n", str(N), "--seed", "7", "--format", "free_form",
                 "--format", "mc_numerical", "--paraphrases", "random", "-o", str(out), "--no-progress"]) == 0
    assert out.read_bytes() == single
    # a later range of the same job is the tail of a longer run; a folder path works as the catalog
    tail = b"".join(scale.generate_piece(p, catalog=folder, **OPTIONS)["jsonl"]
                    for p in scale.pieces(catalog["optics.thin_lens"], n=5, start=N - 5, size=2))
    assert single.endswith(tail)
    assert {json.loads(x)["metadata"]["index"] for x in tail.splitlines()} == set(range(N - 5, N))
    with pytest.raises(ArgumentError, match="size ≥ 1"):
        scale.pieces(catalog, n=3, size=0)


def test_grade_lines_write_what_physgen_grade_writes(single: bytes, tmp_path: Path) -> None:
    responses = _responses(single, tmp_path / "responses.jsonl")
    lines = responses.read_bytes().splitlines(keepends=True)
    graded = scale.grade_lines(lines[:7]) + scale.grade_lines([b"\n", *lines[7:]])  # any batching
    assert b"".join(graded) == _cli_graded(responses, tmp_path)
    assert [json.loads(row)["correct"] for row in graded] == [bool(i % 3) for i in range(len(graded))]
    with pytest.raises(RowError, match="line 1: not valid JSON"):
        scale.grade_lines(["{oops"])
    with pytest.raises(RowError, match="line 2: the row is a JSON array, not a JSON object"):
        scale.grade_lines(["\n", "[1, 2]"])
    with pytest.raises(RowError, match="no 'response' field"):
        scale.grade_row({"prompt": "x"})


# -- on Ray Data ----------------------------------------------------------------------------------
@pytest.fixture
def ray_data() -> Iterator[Any]:
    """A local Ray instance (2 CPUs, no dashboard), blocks kept in order as the README sets it."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    options = ray.data.DataContext.get_current().execution_options
    kept, options.preserve_order = options.preserve_order, True
    yield ray.data
    options.preserve_order = kept
    ray.shutdown()


@pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")  # Ray's own, on first use
def test_ray_data_recipe_gives_the_single_process_bytes(ray_data: Any, catalog: physgen.Catalog,
                                                        single: bytes, tmp_path: Path) -> None:
    """The README's recipe, one test so that Ray starts once however the tests are spread."""
    # generation: one Ray task per piece of the job
    work = scale.pieces(catalog, n=N, size=10)
    parts = ray_data.from_items(work, override_num_blocks=len(work)).map(
        scale.generate_piece, fn_kwargs={"catalog": catalog, **OPTIONS})
    assert b"".join(row["jsonl"] for row in parts.iter_rows()) == single, "generation"

    # grading: the responses file's lines in batches
    responses = _responses(single, tmp_path / "responses.jsonl")
    graded = ray_data.read_text(str(responses), override_num_blocks=4).map_batches(
        lambda batch: {"jsonl": scale.grade_lines(batch["text"])}, batch_size=16)
    out = b"".join(b"".join(batch["jsonl"]) for batch in graded.iter_batches(batch_format="numpy"))
    assert out == _cli_graded(responses, tmp_path), "grading"

    # a procedural training set: items by index ranges of ray.data.range
    ds = physgen.dataset(catalog, size=60, seed=3, formats=["free_form", "mc_numerical"])
    items = ray_data.range(len(ds), override_num_blocks=4).map_batches(
        lambda batch: {"jsonl": [jsonl.line(ds[int(i)]) for i in batch["id"]]}, batch_size=8)
    assert b"".join(row["jsonl"] for row in items.iter_rows()) == b"".join(map(jsonl.line, ds)), "dataset"

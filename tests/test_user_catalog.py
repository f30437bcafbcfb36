"""A catalog of the user's own templates works in every format, export and integration, and no
format reloads the built-in catalog (issue 21, point 6)."""

from __future__ import annotations

import dataclasses
import importlib
import sys
from pathlib import Path

import pytest

import physgen
from physgen import catalog as catalog_module
from physgen import export
from physgen.formats import FORMATS, get_format

ROOT = Path(__file__).resolve().parents[1]
#: Built-in templates copied under new ids: a numerical one every format applies to, and an algebraic one.
COPIES = {"mechanics/projectile_range.yaml": "mechanics.my_throw",
          "mechanics/spring_mass_period_symbolic.yaml": "mechanics.my_spring"}


@pytest.fixture(scope="module")
def mine(tmp_path_factory: pytest.TempPathFactory) -> physgen.Catalog:
    root = tmp_path_factory.mktemp("mine")
    for rel, new in COPIES.items():
        text = (ROOT / "templates" / rel).read_text()
        old = "id: " + rel.removesuffix(".yaml").replace("/", ".")
        assert old in text
        path = root / "mechanics" / f"{new.split('.')[1]}.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text.replace(old, f"id: {new}", 1))
    return physgen.load_catalog(root)


@pytest.fixture
def no_builtin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading the built-in catalog fails the test."""
    def refuse(path: object = None, **kwargs: object) -> physgen.Catalog:
        if path is None:
            raise AssertionError("the built-in catalog was loaded")
        return real(path, **kwargs)  # type: ignore[arg-type]

    real = catalog_module.load_catalog
    for name in ("dataset", "export", "formats", "generation", "grading"):  # imported before patching
        importlib.import_module(f"physgen.{name}")
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] == "physgen" and getattr(module, "load_catalog", None) is real:
            monkeypatch.setattr(module, "load_catalog", refuse)


def _variants(mine: physgen.Catalog) -> list[physgen.Variant]:
    out = []
    for name, fmt in sorted(FORMATS.items()):
        made = list(physgen.generate(mine, n=1, seed=1, formats=[name], paraphrases=[0]))
        assert made or not any(fmt.applies(t) for t in mine.templates()), name
        out.extend(made)
    return out


def test_every_format_and_export_work_without_the_builtin_catalog(mine: physgen.Catalog,
                                                                  no_builtin: None) -> None:
    variants = _variants(mine)
    assert {v.format for v in variants} == set(FORMATS)
    for v in variants:
        reference = get_format(v.format).reference(v)
        assert physgen.grade(v, reference).correct, (v.variant_id, reference)
        row = export.to_row(v)
        assert row["answer"] == reference and row["variant_id"] == v.variant_id


def test_the_code_format_carries_its_reference(mine: physgen.Catalog, no_builtin: None) -> None:
    v = next(physgen.generate(mine, n=1, formats=["code"]))
    assert {n: a.expr for n, a in v.answers.items()}["R"] == "0.2038735983690112*v0**2*sin(theta)*cos(theta)"
    assert get_format("code").reference(v).startswith("```python\nimport math\n\ndef solve(v0, theta):")
    assert physgen.Variant.from_dict(v.to_dict()) == v
    old = dataclasses.replace(v, answers={n: a._replace(expr=None) for n, a in v.answers.items()})
    with pytest.raises(physgen.InputError, match=r"carries no answer expressions.*generate it again"):
        get_format("code").reference(old)
    for expr in ("__import__('os')", "v0.__class__", "(" * 100_000, "x" * 20_000, "lambda: 0", "'text'"):
        bad = {n: a._replace(expr=expr) for n, a in v.answers.items()}
        with pytest.raises(physgen.InputError, match="cannot be read"):
            get_format("code").reference(dataclasses.replace(v, answers=bad))
    huge = {n: a._replace(expr="9**9**9**9*v0") for n, a in v.answers.items()}  # written, never evaluated
    assert "9 ** 9 ** 9 ** 9 * v0" in get_format("code").reference(dataclasses.replace(v, answers=huge))


def test_dataset_items_in_every_format(mine: physgen.Catalog, no_builtin: None) -> None:
    for name in FORMATS:
        ds = physgen.dataset(mine, size=4, seed=0, formats=[name])
        for item in ds:
            assert ds.score_answer(item["answer"], item) == 1.0, (name, item["answer"])


def test_the_inspect_task_runs_a_user_catalog(mine: physgen.Catalog, tmp_path: Path,
                                              no_builtin: None) -> None:
    pytest.importorskip("inspect_ai")
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from physgen import harness

    options = {"n": 1, "seed": 1, "formats": list(FORMATS), "paraphrases": "random"}
    replies = {v.prompt: get_format(v.format).reference(v) for v in physgen.generate(mine, **options)}

    def reply(messages: list, tools: object, tool_choice: object, config: object) -> ModelOutput:  # type: ignore[type-arg]
        out = ModelOutput.from_content(model="mockllm/model", content=replies[messages[-1].text])
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        return out

    task = harness.physgen_task(source=mine, **options)  # type: ignore[arg-type]
    model = get_model("mockllm/model", custom_outputs=reply)
    log = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success" and log.samples
    formats = {s.metadata["variant"]["format"] for s in log.samples}
    assert formats == set(FORMATS)
    assert all(s.scores[harness.SCORER].value["correct"] == 1.0 for s in log.samples)  # type: ignore[index]


def test_no_format_imports_the_catalog() -> None:
    """A format is a plugin: it reads the variant (and the instance it builds from), never a catalog."""
    import ast

    formats = Path(physgen.__file__).parent / "formats"
    for path in formats.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):  # from ..catalog import load_catalog, and the like
                assert not (node.module or "").endswith("catalog"), path
                assert "load_catalog" not in {a.name for a in node.names}, path

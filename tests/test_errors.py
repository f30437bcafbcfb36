"""One error per kind of mistake, whichever function meets it (issue 21, point 5)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen import errors, metrics, splits
from physgen.dataset import select_templates
from physgen.errors import ArgumentError, InputError, MissingColumnError, PhysgenError
from physgen.formats import FORMATS, get_format, register_format

SRC = Path(physgen.__file__).parent
T = "mechanics.projectile_range"


def test_every_error_class_is_also_a_builtin() -> None:
    for _, cls in inspect.getmembers(errors, inspect.isclass):
        if issubclass(cls, PhysgenError) and cls is not PhysgenError:
            assert any(b.__module__ == "builtins" and b is not Exception for b in cls.__mro__), cls


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"n_options": 9}, ArgumentError, "n_options must be a whole number from 2 to 8, got 9"),
    ({"n_options": 1}, ArgumentError, "n_options must be a whole number from 2 to 8, got 1"),
    ({"style": "latx"}, ArgumentError, r"unknown style 'latx'; valid: .* \(did you mean 'latex'\?\)"),
    ({"notation": "sci"}, ArgumentError, r"unknown notation 'sci'"),
    ({"formats": ["mc_numeric"]}, errors.FormatError, r"did you mean 'mc_numerical'"),
])
def test_generate_and_dataset_raise_the_same_error_for_the_same_mistake(
        kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    calls: list[Callable[[], object]] = [lambda: physgen.generate([T], n=1, **kwargs),
                                         lambda: physgen.dataset([T], size=1, **kwargs)]
    raised = []
    for call in calls:
        with pytest.raises(error, match=message) as info:
            call()
        raised.append((type(info.value), str(info.value)))
    assert raised[0] == raised[1]


def test_an_unknown_domain_is_the_same_error_in_the_catalog_the_dataset_and_the_harness() -> None:
    catalog = physgen.load_catalog(lazy=True)
    for call in (lambda: catalog.filter(domain="optic"), lambda: physgen.dataset(size=1, domain="optic"),
                 lambda: select_templates(domain="optic")):
        with pytest.raises(ArgumentError,
                           match=r"unknown domain 'optic'; valid: .*\(did you mean 'optics'\?\)"):
            call()


def test_long_lists_of_valid_values_are_cut_with_a_suggestion() -> None:
    with pytest.raises(ArgumentError) as info:
        physgen.dataset(size=1, weights={"optic": 1})
    text = str(info.value)
    assert len(text) < 600, len(text)  # it was 10,233 characters, listing all 305 ids
    ids = len(physgen.load_catalog())
    assert "(did you mean 'optics' or" in text and f"template ids ({ids}; see `physgen list`)" in text
    with pytest.raises(ArgumentError) as info:
        physgen.load_catalog(lazy=True).filter(tags="lense")
    assert "in all) (did you mean 'lenses'" in str(info.value) and len(str(info.value)) < 600
    with pytest.raises(errors.UnknownTemplateError, match=r"did you mean 'optics\.thin_lens' or"):
        physgen.load_catalog(lazy=True)["optics.thin_lense"]


def test_one_suggestion_helper() -> None:
    """Only errors.py finds close matches; every other module calls its helpers."""
    users = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        names = {getattr(n, "attr", getattr(n, "id", None)) for n in ast.walk(tree)}
        if "get_close_matches" in names:
            users.append(path.name)
    assert users == ["errors.py"]


def _records() -> list[dict[str, Any]]:
    v = next(physgen.generate([T], n=1))
    return [metrics.record(v, physgen.grade(v, "no idea"))]


@pytest.mark.parametrize(("call", "error"), [
    (lambda: metrics.summary([]), InputError),
    (lambda: metrics.summary([{"variant_id": "x"}]), MissingColumnError),
    (lambda: metrics.pass_at_k(2, 3, 1), ArgumentError),
    (lambda: metrics.attempts(_records(), k=5), ArgumentError),
    (lambda: metrics.step_accuracy(_records()), MissingColumnError),
    (lambda: splits.split([], test_size=2), ArgumentError),
    (lambda: splits.split([], by="domain"), ArgumentError),
    (lambda: splits.range_split(physgen.load_catalog(lazy=True)[T], "v0", mode="sideways"), ArgumentError),
    (lambda: physgen.report.report([]), InputError),
    (lambda: physgen.export.write_lm_eval_task([], "unused"), InputError),
    (lambda: physgen.grade("not a variant", "x"), physgen.SourceTypeError),  # type: ignore[arg-type]
])
def test_results_functions_raise_documented_errors(call: Callable[[], object],
                                                   error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, PhysgenError)


def test_a_crashing_grader_is_a_grader_error_not_an_unparseable_reply() -> None:
    def broken(variant: physgen.Variant, reply: str, settings: object) -> physgen.Grade:
        raise ZeroDivisionError("oops")

    free = get_format("free_form")

    @register_format("broken_grader", grader=broken)
    def build(inst: Any, paraphrase: int, ctx: Any) -> tuple[physgen.Variant, ...]:
        made = free.build(inst, paraphrase, ctx)
        return tuple(dataclasses.replace(v, format="broken_grader") for v in made)

    try:
        v = next(physgen.generate([T], n=1, formats=["broken_grader"]))
        g = physgen.grade(v, get_format("free_form").reference(v))
    finally:
        del FORMATS["broken_grader"]
    assert not g.correct
    assert {p.reason for p in g.parts} == {"grader_error"}
    assert "broken_grader grader raised ZeroDivisionError: oops" in g.parts[0].detail

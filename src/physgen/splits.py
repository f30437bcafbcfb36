"""Leakage-free train/test splits: by template or instance, and by parameter range.

``split`` keeps every group (template, or instance) wholly on one side, chosen by
hashing the group id with the seed, so the split does not depend on input order,
and is stratified by domain so both sides cover every domain with two or more
groups. Split by template, a group is a family (:mod:`physgen.families`): templates
whose answers are the same relation up to renaming are never on opposite sides.
``range_split`` makes interpolation / extrapolation test sets in the
style of DeepMind's mathematics_dataset by holding out part of an input's range.

>>> import physgen
>>> train, test = split(physgen.load_catalog(), test_size=0.2, seed=0)
>>> set(train) & set(test)
set()
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from .catalog import Catalog, load_catalog
from .compile import compile_template
from .errors import ArgumentError, unknown
from .families import family_map
from .schema import ConstantSpec
from .template import Template
from .variant import Variant

T = TypeVar("T")
By = Literal["template", "instance"]


def _field(item: Any, name: str) -> Any:
    if isinstance(item, Variant):
        if name == "domain":
            return item.metadata.domain
        return getattr(item, name)
    if isinstance(item, Template):
        return {"template_id": item.id, "instance_id": item.id, "domain": item.domain}[name]
    if name == "domain" and "domain" not in item:
        return item.get("metadata", {}).get("domain")
    return item[name]


def _rank(group: str, seed: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}/{group}".encode(), digest_size=8).digest(), "little")


def held_out_groups(groups_by_domain: dict[Any, set[str]], test_size: float, seed: int) -> set[str]:
    """The groups that go to the test side: per domain, the ``test_size`` share with the lowest hash."""
    chosen: set[str] = set()
    for members in groups_by_domain.values():
        ordered = sorted(members, key=lambda g: (_rank(g, seed), g))
        k = round(test_size * len(ordered))
        if len(ordered) >= 2:
            k = min(max(k, 1), len(ordered) - 1)  # both sides see the domain
        chosen.update(ordered[:k])
    return chosen


def split(items: Catalog | Iterable[Any], test_size: float = 0.1, by: By = "template",
          seed: int = 0, families: Mapping[str, str] | None = None) -> tuple[Any, Any]:
    """Split a catalog, variants, or graded records into ``(train, test)``.

    No template (``by="template"``) or instance (``by="instance"``) is on both
    sides. By template, no family is either: ``families`` maps a template id to its
    family's id (default: :func:`physgen.families.family_map` of the catalog split, or
    of the built-in catalog for variants and records; ids it does not know are their
    own family). A :class:`Catalog` gives two catalogs (then generate from each);
    anything else gives two lists in the input order.
    """
    if not 0 < test_size < 1:
        raise ArgumentError(f"test_size must be between 0 and 1 (e.g. 0.1), got {test_size}")
    if by not in ("template", "instance"):
        raise unknown("by", by, ("template", "instance"))
    if isinstance(items, Catalog):
        if by != "template":
            raise ArgumentError("a catalog holds templates; split it by='template' (or split variants)")
        templates = items.templates()
        family = dict(families) if families is not None else family_map(templates)
        test = _held_out([(t.id, t.domain) for t in templates], family, test_size, seed)
        return (Catalog([t for t in templates if t.id not in test], items.root),
                Catalog([t for t in templates if t.id in test], items.root))
    rows = list(items)
    key = "template_id" if by == "template" else "instance_id"
    if by == "instance":
        family = {}
    else:
        family = dict(families) if families is not None else _builtin_families()
    test = _held_out([(str(_field(r, key)), _field(r, "domain")) for r in rows], family, test_size, seed)
    return ([r for r in rows if str(_field(r, key)) not in test],
            [r for r in rows if str(_field(r, key)) in test])


@functools.cache
def _builtin_families() -> dict[str, str]:
    return family_map(load_catalog().templates())


def _held_out(members: list[tuple[str, Any]], family: Mapping[str, str], test_size: float,
              seed: int) -> set[str]:
    """The ids (of ``(id, domain)`` pairs) on the test side: whole families, stratified by the
    domain of each family's first member."""
    domains: dict[Any, set[str]] = {}
    head_domain: dict[str, Any] = {}
    for name, domain in sorted(members, key=lambda m: (family.get(m[0], m[0]), m[0])):
        head = family.get(name, name)
        domains.setdefault(head_domain.setdefault(head, domain), set()).add(head)
    test = held_out_groups(domains, test_size, seed)
    return {name for name, _ in members if family.get(name, name) in test}


def range_split(template: Template, input: str | None = None, holdout: float = 0.2,
                mode: Literal["interpolate", "extrapolate"] = "extrapolate") -> tuple[Template, Template]:
    """Two copies of ``template`` whose values of one input never overlap.

    ``extrapolate``: the test copy draws the input from the top ``holdout`` of its
    range (log-scaled for log inputs), the train copy from the rest.
    ``interpolate``: the test copy draws from a middle band of width ``holdout``,
    the train copy from outside it. ``input`` defaults to the first continuous input.
    """
    if not 0 < holdout < 1:
        raise ArgumentError(f"holdout must be between 0 and 1 (e.g. 0.2), got {holdout}")
    spec = template.spec
    continuous = [n for n, i in spec.inputs.items() if not i.integer]
    name = input if input is not None else (continuous[0] if continuous else None)
    if name is None or name not in continuous:
        if not continuous:
            raise ArgumentError(f"{template.id} has no continuous input to split on (all are whole numbers)")
        raise unknown("continuous input", name, continuous, f" of {template.id}")
    inp = spec.inputs[name]
    lo, hi = inp.bounds()

    def at(frac: float) -> float:
        if inp.log:
            return float(lo * (hi / lo) ** frac)
        return lo + frac * (hi - lo)

    if mode == "extrapolate":
        cut = at(1 - holdout)
        train = _with_range(template, name, (lo, cut), None)
        test = _with_range(template, name, (cut, hi), None)
    elif mode == "interpolate":
        a, b = at(0.5 - holdout / 2), at(0.5 + holdout / 2)
        train = _with_range(template, name, (lo, hi), (a, b))
        test = _with_range(template, name, (a, b), None)
    else:
        raise unknown("mode", mode, ("interpolate", "extrapolate"))
    return train, test


def _with_range(template: Template, name: str, bounds: tuple[float, float],
                exclude: tuple[float, float] | None) -> Template:
    spec = template.spec
    inp = spec.inputs[name].model_copy(update={"range": bounds, "nominal": None, "perturb": None})
    inputs = {**spec.inputs, name: inp}
    constants = dict(spec.constants)
    constraints = list(spec.constraints)
    if exclude is not None:  # outside [a, b]: (x - a)(x - b) > 0
        lo_name, hi_name = f"{name}_holdout_low", f"{name}_holdout_high"
        constants[lo_name] = ConstantSpec(value=f"{exclude[0]!r} {inp.unit}".strip())
        constants[hi_name] = ConstantSpec(value=f"{exclude[1]!r} {inp.unit}".strip())
        constraints.append(f"({name} - {lo_name})*({name} - {hi_name}) > 0")
    new = spec.model_copy(update={"inputs": inputs, "constants": constants, "constraints": constraints})
    return compile_template(new, f"{template.source} [{name} in {_describe(bounds, exclude)}]")


def _describe(bounds: tuple[float, float], exclude: tuple[float, float] | None) -> str:
    text = f"[{bounds[0]:.4g}, {bounds[1]:.4g}]"
    return text + (f" minus ({exclude[0]:.4g}, {exclude[1]:.4g})" if exclude else "")


def leakage(train: Sequence[Any], test: Sequence[Any]) -> dict[str, set[str]]:
    """What train and test share: prompts, instances and templates (empty sets if none)."""
    def ids(rows: Sequence[Any], name: str) -> set[str]:
        return {str(_field(r, name)) for r in rows}

    return {
        "prompt": ids(train, "prompt") & ids(test, "prompt"),
        "instance_id": ids(train, "instance_id") & ids(test, "instance_id"),
        "template_id": ids(train, "template_id") & ids(test, "template_id"),
    }


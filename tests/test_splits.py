"""Splits: no leakage, deterministic, stratified; interpolation and extrapolation ranges."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import physgen
from physgen.metrics import record
from physgen.splits import leakage, range_split, split


def test_catalog_split_is_stratified_and_deterministic(catalog: physgen.Catalog) -> None:
    train, test = split(catalog, test_size=0.2, seed=1)
    assert not set(train) & set(test) and len(train) + len(test) == len(catalog)
    assert {t.domain for t in test.values()} == {t.domain for t in catalog.values()}
    assert {t.domain for t in train.values()} == {t.domain for t in catalog.values()}
    per_domain = Counter(t.domain for t in catalog.values())
    test_domain = Counter(t.domain for t in test.values())
    for d, n in per_domain.items():
        assert abs(test_domain[d] - 0.2 * n) <= 1, d
    again = split(catalog, test_size=0.2, seed=1)
    assert list(again[1]) == list(test)
    assert list(split(catalog, test_size=0.2, seed=2)[1]) != list(test)


@pytest.mark.parametrize("by", ["template", "instance"])
def test_variant_split_has_no_leakage(catalog: physgen.Catalog, by: str) -> None:
    variants = list(physgen.generate(catalog, n=4, seed=0, paraphrases="all"))
    train, test = split(variants, test_size=0.25, by=by, seed=7)  # type: ignore[arg-type]
    assert len(train) + len(test) == len(variants) and test and train
    shared = leakage(train, test)
    assert not shared["instance_id"]
    if by == "template":
        assert not shared["template_id"]
        assert not shared["prompt"]
    # order-independent: shuffling the input gives the same sides
    shuffled = list(reversed(variants))
    assert {v.variant_id for v in split(shuffled, 0.25, by, 7)[1]} == {v.variant_id for v in test}  # type: ignore[arg-type]


def test_leakage_is_detected() -> None:
    v = list(physgen.generate(["optics.thin_lens"], n=2, paraphrases=[0]))
    assert leakage(v, v[:1])["instance_id"] == {v[0].instance_id}


def test_records_split_like_variants(catalog: physgen.Catalog) -> None:
    variants = list(physgen.generate(catalog, n=1, paraphrases=[0]))
    rows = [record(v, physgen.grade(v, "no idea")) for v in variants]
    _, b = split(rows, 0.3, seed=5)
    _, vb = split(variants, 0.3, seed=5)
    assert [r["variant_id"] for r in b] == [v.variant_id for v in vb]


def test_bad_arguments(catalog: physgen.Catalog) -> None:
    with pytest.raises(ValueError, match="test_size"):
        split(catalog, test_size=1.5)
    with pytest.raises(ValueError, match="split it by='template'"):
        split(catalog, by="instance")


def test_extrapolation_split(catalog: physgen.Catalog) -> None:
    t = catalog["mechanics.projectile_range"]
    train, test = range_split(t, "v0", holdout=0.25, mode="extrapolate")
    tr = train.sample(500, seed=1).shown["v0"]
    te = test.sample(500, seed=1).shown["v0"]
    assert tr.max() <= 31.3 and te.min() >= 31.2  # 5 + 0.75 * 35 = 31.25, shown to 3 figures
    assert te.min() > np.percentile(tr, 90)
    v = next(physgen.generate([test], n=1))
    assert v.template_id == t.id


def test_interpolation_split(catalog: physgen.Catalog) -> None:
    t = catalog["electricity.coulomb_force"]
    lo, hi = t.spec.inputs["r"].bounds()
    train, test = range_split(t, "r", holdout=0.2, mode="interpolate")
    if t.spec.inputs["r"].log:  # the split is taken where the values are drawn: in log space
        a, b = lo * (hi / lo) ** 0.4, lo * (hi / lo) ** 0.6
    else:
        a, b = lo + 0.4 * (hi - lo), lo + 0.6 * (hi - lo)
    te = test.sample(1000, seed=2).shown["r"]
    tr = train.sample(1000, seed=2).shown["r"]
    assert (te >= a * 0.99).all() and (te <= b * 1.01).all()
    assert not ((tr > a * 1.01) & (tr < b * 0.99)).any()
    assert (tr < a).any() and (tr > b).any()


def test_range_split_needs_a_continuous_input(catalog: physgen.Catalog) -> None:
    with pytest.raises(ValueError, match="continuous input"):
        range_split(catalog["modern.hydrogen_transition"])


DRIVEN = ("mechanics.driven_oscillator_steady_state", "waves.driven_oscillator_amplitude")


def test_driven_oscillators_are_one_family(catalog: physgen.Catalog) -> None:
    from physgen.families import families

    groups = families(catalog.templates())
    assert [g for g in groups if DRIVEN[0] in g] == [sorted(DRIVEN)]
    for g in groups:  # a family is near-duplicates, not a whole domain
        assert len(g) <= 6, g


def test_a_different_relation_is_not_a_family(catalog: physgen.Catalog) -> None:
    from physgen.families import families

    assert families([catalog[DRIVEN[0]], catalog["mechanics.projectile_range"]]) == []


@pytest.mark.parametrize("seed", range(30))
def test_no_split_divides_a_family(catalog: physgen.Catalog, seed: int) -> None:
    from physgen.families import family_map

    family = family_map(catalog.templates())
    train, test = split(catalog, test_size=0.2, seed=seed)
    sides = {family[t]: "train" for t in train} | {family[t]: "test" for t in test}
    assert all(sides[family[t]] == "train" for t in train), seed
    assert {family[t] for t in test}.isdisjoint({family[t] for t in train}), seed
    assert (DRIVEN[0] in test) == (DRIVEN[1] in test)


def test_variant_split_keeps_a_family_together(catalog: physgen.Catalog) -> None:
    variants = list(physgen.generate([*DRIVEN, "mechanics.projectile_range", "optics.thin_lens",
                                      "waves.beat_frequency"], n=2, seed=0))
    for seed in range(30):
        _, test = split(variants, test_size=0.5, seed=seed)  # type: ignore[arg-type]
        held = {v.template_id for v in test}
        assert (DRIVEN[0] in held) == (DRIVEN[1] in held), seed

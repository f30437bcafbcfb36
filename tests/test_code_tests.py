"""The sampled calls a ``code`` answer is run on (``Variant.code_tests``) come from the
template's own derived stream: a pure function of (seed, template, index), drawn a block
of instances at a time, never the instances the variants show."""

from __future__ import annotations

import hashlib
import json

import physgen
from physgen import validity
from physgen.formats.code import CODE_TESTS, TEST_BLOCK

CATALOG = physgen.load_catalog()
TEMPLATES = ["mechanics.projectile_range", "optics.thin_lens", "thermo.calorimetry_mixing"]


def _tests(seed: int, start: int, n: int) -> dict[tuple[str, int], object]:
    return {(v.template_id, v.metadata.index): v.code_tests
            for v in physgen.generate(TEMPLATES, n=n, seed=seed, start=start, formats=["code"],
                                      paraphrases=[0])}


def test_an_instance_gets_the_same_tests_however_it_is_drawn() -> None:
    many = _tests(0, 0, 2 * TEST_BLOCK + 3)
    for index in (0, TEST_BLOCK - 1, TEST_BLOCK, 2 * TEST_BLOCK + 2):
        alone = _tests(0, index, 1)
        for key, tests in alone.items():
            assert many[key] == tests, key
    assert _tests(1, 0, 3) != {k: v for k, v in many.items() if k[1] < 3}


def test_tests_are_distinct_and_not_the_shown_instances() -> None:
    for v in physgen.generate(TEMPLATES, n=40, seed=2, formats=["code"], paraphrases=[0]):
        assert len(v.code_tests) == CODE_TESTS
        assert len({json.dumps(c.inputs, sort_keys=True) for c in v.code_tests}) == CODE_TESTS
        t = CATALOG[v.template_id]
        shown = {n: t.input_si[n].to_si(q.value) for n, q in v.inputs.items()}
        assert all(c.inputs != shown for c in v.code_tests)


def test_tests_are_pinned() -> None:
    """Digest of the tests of the first instances: it changes only with the stream (it changed
    when the tests moved from an offset of 10⁶ in the seed's stream to their own stream, when the
    issue-9 audit changed the templates' ranges, and when the tests stopped being screened by the
    checks about shown, rounded values, and when projectile_range's range became v_x·t_flight,
    which moves R and t_flight by at most 2 ulp)."""
    h = hashlib.sha256()
    for v in physgen.generate(TEMPLATES, n=3, seed=0, formats=["code"], paraphrases=[0]):
        h.update(json.dumps([[c.inputs, c.expected] for c in v.code_tests], sort_keys=True).encode())
    assert h.hexdigest()[:16] == "566f529f96995404"  # re-pinned: R = v_x*t_flight (issue 19)


def test_tests_are_plausible_but_not_screened_as_shown_values() -> None:
    """Code tests meet the constraints and plausibility checks; the checks about displayed,
    rounded values (conditioning, distinct from the inputs and mistakes) do not apply to them."""
    t = CATALOG["mechanics.projectile_range"]
    batch = t.sample(2_000, seed=4, displayed=False)
    answers = t.evaluate_si(batch.si)
    masks = validity.screen(t, batch.shown, batch.si, answers)
    assert all(mask.all() for name, mask in masks.items() if name.startswith("check:"))
    assert not masks["distinct_from_mistakes"].all()  # a screen for shown values would drop these
    assert t.constraint_mask(batch.si).all()

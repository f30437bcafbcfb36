"""No named mistake earns credit from the grader, in any template.

The validity layer screens every instance so that each named mistake lands more than 5 grading
tolerances from the key (``validity.SEPARATION``). This test closes the loop through the grader
itself: the mistake's value, written to the answer's figures, is graded against the key and must
be wrong. It caught absolute temperatures graded within 1 % of their value in kelvin (2.9 K around
20 °C), where twelve thermal templates' named mistakes earned credit (``docs/grading.md``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import physgen
from physgen.template import Template

#: Instances per template; the slow sweep draws many more.
INSTANCES = 6
INSTANCES_SLOW = 300


def _numerical(catalog: physgen.Catalog) -> list[str]:
    return [tid for tid in catalog
            if catalog[tid].question_type == "numerical" and catalog[tid].mistake_values is not None]


def credited(t: Template, n: int, seed: int = 0) -> list[str]:
    """The (instance, answer, mistake) triples whose value the grader accepts as the key."""
    batch = t.sample(n, seed=seed)
    with np.errstate(all="ignore"):
        values = t.mistake_values(*t.arguments(batch.si))  # type: ignore[misc]
    out = []
    for (answer, mistake), wrong_si in zip(t.mistake_answers, values, strict=True):
        spec = t.spec.answers[answer]
        conv = t.answer_units[answer]
        unit = t.display["unicode"].units[spec.unit]  # the key as the variant prints it: 23.4 °C
        with np.errstate(all="ignore"):
            wrong = np.broadcast_to(np.asarray(conv.from_si(np.asarray(wrong_si, dtype=np.float64))), (n,))
        for k in range(n):
            key, guess = float(batch.answers[answer][k]), float(wrong[k])
            if not math.isfinite(guess):
                continue
            reply = f"Final answer: {guess:.{spec.sig_figs}g}"  # a bare number is read in the key's unit
            if physgen.grade_answer(reply, f"{unit.head}{key!r}{unit.tail}").correct:
                shown = f"{guess:.{spec.sig_figs}g}"
                out.append(f"{t.id}#{k} {answer} {mistake}: {shown} for {key:.6g} {spec.unit}")
    return out


def test_a_bare_number_is_read_in_the_keys_unit() -> None:
    """The replies below are bare numbers: read in the key's unit, on the key's scale."""
    assert physgen.grade_answer("Final answer: 23.5", "23.4 degC").correct
    assert not physgen.grade_answer("Final answer: 25.1", "23.4 degC").correct


@pytest.mark.parametrize("shard", range(4))
def test_no_named_mistake_is_graded_right(catalog: physgen.Catalog, shard: int) -> None:
    _none_credited(catalog, shard, INSTANCES)


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(4))
def test_no_named_mistake_is_graded_right_at_full_size(catalog: physgen.Catalog, shard: int) -> None:
    _none_credited(catalog, shard, INSTANCES_SLOW)


def _none_credited(catalog: physgen.Catalog, shard: int, n: int) -> None:
    ids = _numerical(catalog)[shard::4]
    assert ids
    hits = [hit for tid in ids for hit in credited(catalog[tid], n)]
    assert not hits, "\n".join(hits[:20])

"""Every multiple-choice option is plausible at a glance (issue 9, item 4): it has the
answer's declared sign and lies within a factor ``MAX_RATIO`` of the key. Checked on
two instances of every template, in both multiple-choice formats."""

from __future__ import annotations

import re

import pytest
import sympy as sp

import physgen
from physgen.algebraic import problem
from physgen.distractors import MAX_RATIO
from physgen.reading.algebra import to_expression
from physgen.template import Template
from physgen.variant import Variant

CATALOG = physgen.load_catalog()
_NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")


def _numerical(text: str) -> float:
    """The number of an option written in the ascii style (``-2.01 s``, ``5.84e5 N/C``)."""
    match = _NUMBER.match(text)
    assert match, text
    return float(match.group(0))


def _symbolic(t: Template, v: Variant, text: str) -> float:
    """An ascii option expression evaluated at the instance, in the answer's unit."""
    shown = problem(t, v.metadata.seed, v.metadata.index)  # an algebraic instance's own names
    back = {} if shown is None else dict(zip(shown.names, t.spec.inputs, strict=True))
    names = [*v.inputs, *t.constants]
    symbols = {n: sp.Symbol(n) for n in names}
    values = {symbols[n]: t.input_si[back.get(n, n)].to_si(q.value) for n, q in v.inputs.items()}
    values.update({symbols[n]: c.si_value for n, c in t.constants.items()})
    value = complex(sp.sympify(to_expression(text, names), locals=symbols).subs(values).evalf())
    assert abs(value.imag) <= 1e-9 * abs(value), (text, value)
    (name,) = v.answers
    return float(t.answer_units[name].from_si(value.real))


@pytest.mark.parametrize("fmt", ["mc_numerical", "mc_symbolic"])
def test_every_option_has_the_declared_sign_and_is_within_a_factor_100_of_the_key(fmt: str) -> None:
    read = _numerical if fmt == "mc_numerical" else None
    checked = 0
    for v in physgen.generate(CATALOG, n=2, seed=3, formats=[fmt], style="ascii", paraphrases=[0]):
        t = CATALOG[v.template_id]
        (name,) = v.answers
        sign = t.spec.answers[name].sign
        values = {k: read(text) if read else _symbolic(t, v, text) for k, text in v.options.items()}
        key = values[v.answer_key]
        for letter, value in values.items():
            where = f"{v.variant_id} ({letter}) {v.options[letter]} vs key {v.options[v.answer_key]}"
            assert sign != "positive" or value > 0, where
            assert sign != "negative" or value < 0, where
            assert abs(key) / MAX_RATIO <= abs(value) * (1 + 1e-9) <= abs(key) * MAX_RATIO * (1 + 2e-9), where
        checked += 1
    assert checked > len(CATALOG)  # most templates give both instances

"""Output of the format builders, pinned before they are made fast: every format and style must
keep its bytes (``code_tests`` aside: they are to come from their own stream).

``EXPECTED`` holds SHA-256 digests (first 16 hex digits) of the JSONL lines of every format and
style, computed with the builders of main as merged in 103c5df (main's catalog and its
``noop``/``omitted`` builders); ``code`` variants are hashed with
``code_tests`` emptied. Regenerate only for an intended change of output:
``python -m tests.test_format_speed``.

Digests changed on purpose since, each marked in ``EXPECTED``:

* ``changed: units fairness``: a converted input keeps its significant figures
  (``4.87 × 10³ g``, not ``4870.0 g``; one figure more only where an inexact
  conversion would move it by more than ``conversion.MAX_SHIFT``), is scientific where
  plain digits would end in zeros that are not significant, and an input whose unit the
  words give (``{{ n }} turns per metre``) is no longer converted.
* ``changed: plausible``: no option of a sign the answer's declared ``sign``
  excludes (no sign flip of a positive quantity) or outside the template's limits on the
  answer, none more than 100× from the key
  (so the ×10³ unit slips are gone); such a slip yields to the next candidate. Symbolic
  options are kept apart by their SI values, and a scaled expression's value is scaled in
  SI (for °C answers it was scaled in °C, which the expression does not do).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import pytest

import physgen
from physgen.jsonl import variant_line
from physgen.render import STYLES
from physgen.units import Style

CATALOG = physgen.load_catalog()

#: (format, style, seed, n, extra arguments of generate)
Case = tuple[str, Style, int, int, tuple[tuple[str, Any], ...]]
CASES: list[Case] = [
    *[(fmt, style, 0, 1 if fmt == "mc_symbolic" else 3, ())  # SymPy writes each new symbolic option
      for fmt in ("free_form", "noop", "omitted", "units", "mc_numerical", "code", "mc_symbolic")
      for style in STYLES],
    ("units", "unicode", 7, 4, (("notation", "scientific"),)),
    ("units", "latex", 8, 4, (("notation", "plain"), ("paraphrases", "random"))),
    ("mc_numerical", "unicode", 7, 4, (("notation", "scientific"), ("n_options", 8))),
    ("mc_numerical", "ascii", 9, 4, (("n_options", 2), ("start", 500))),
    ("mc_symbolic", "ascii", 7, 2, (("n_options", 6),)),
    ("noop", "ascii", 5, 4, (("paraphrases", "random"),)),
    ("omitted", "latex", 5, 4, (("paraphrases", [1]),)),
    ("code", "ascii", 5, 4, (("paraphrases", "random"),)),
]
EXPECTED: dict[str, str] = {
    'free_form-unicode-s0-n3': 'e4ca74e1659aa46b',
    'free_form-latex-s0-n3': '50214281f7c47c7f',
    'free_form-ascii-s0-n3': '58084395fe398426',
    'noop-unicode-s0-n3': '34530cbfa8d08601',
    'noop-latex-s0-n3': 'dce5754d864c62a7',
    'noop-ascii-s0-n3': '05172ec54c169315',
    'omitted-unicode-s0-n3': 'b0ccf4ebfb191c69',
    'omitted-latex-s0-n3': 'a3ddac1a9240ee15',
    'omitted-ascii-s0-n3': '638fecf0aff3daad',
    'units-unicode-s0-n3': 'abd8ca7b43970673',  # changed: units fairness
    'units-latex-s0-n3': '3b786392f159b255',  # changed: units fairness
    'units-ascii-s0-n3': 'b289e8f8e018b760',  # changed: units fairness
    'mc_numerical-unicode-s0-n3': 'ee9d5b84e447942c',  # changed: plausible
    'mc_numerical-latex-s0-n3': '00707d93a9739399',  # changed: plausible
    'mc_numerical-ascii-s0-n3': '7b988ee30d0e80b5',  # changed: plausible
    'code-unicode-s0-n3': 'b04cd208237fb5ef',
    'code-latex-s0-n3': '40a639c043dc92d1',
    'code-ascii-s0-n3': 'b01e7c36cf8a28a0',
    'mc_symbolic-unicode-s0-n1': 'acc9b803fcc73e63',  # changed: plausible
    'mc_symbolic-latex-s0-n1': '0e53f0ce5e83b698',  # changed: plausible
    'mc_symbolic-ascii-s0-n1': 'c2463c696e9b4626',  # changed: plausible
    'units-unicode-s7-n4-notation=scientific': '175acf0503f7fe2e',  # changed: units fairness
    'units-latex-s8-n4-notation=plain-paraphrases=random': '0d30436a77cbf123',  # changed: units fairness
    'mc_numerical-unicode-s7-n4-notation=scientific-n_options=8': 'dac43f02ccb26d60',  # changed: plausible
    'mc_numerical-ascii-s9-n4-n_options=2-start=500': '889fa19fc5067b42',  # changed: plausible
    'mc_symbolic-ascii-s7-n2-n_options=6': 'be71a7a0d534ac4c',  # changed: plausible
    'noop-ascii-s5-n4-paraphrases=random': '478b6708fd83d12e',
    'omitted-latex-s5-n4-paraphrases=[1]': '29444ca8de87eeb5',
    'code-ascii-s5-n4-paraphrases=random': 'a633bbb876f323f6',
}


def case_id(case: Case) -> str:
    fmt, style, seed, n, extra = case
    return "-".join([fmt, style, f"s{seed}", f"n{n}", *(f"{k}={v}" for k, v in extra)])


def digest(case: Case) -> str:
    """The digest of the JSONL lines ``generate`` makes for ``case`` (code tests emptied)."""
    fmt, style, seed, n, extra = case
    h = hashlib.sha256()
    for v in physgen.generate(CATALOG, n=n, seed=seed, formats=[fmt], style=style, **dict(extra)):
        h.update(variant_line(dataclasses.replace(v, code_tests=()) if fmt == "code" else v))
    return h.hexdigest()[:16]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_output_is_byte_identical_to_the_plain_builders(case: Case) -> None:
    assert digest(case) == EXPECTED[case_id(case)]


@pytest.mark.parametrize("fmt", ["mc_numerical", "mc_symbolic"])
@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_options_are_distinct_and_keyed(fmt: str, k: int) -> None:
    from physgen.formats.choice import LETTERS

    variants = list(physgen.generate(CATALOG, n=2, seed=k, formats=[fmt], n_options=k, style="ascii"))
    assert variants
    for v in variants:
        (name, answer), = v.answers.items()
        assert list(v.options) == list(LETTERS[:k])
        assert len(set(v.options.values())) == k, v.options
        assert v.answer_key in v.options and v.options[v.answer_key] == answer.text
        t = CATALOG[v.template_id]
        if fmt == "mc_symbolic":
            assert answer.expr == str(t.expressions[name])
        else:
            free = next(physgen.generate([t], n=1, seed=k, start=v.metadata.index, style="ascii"))
            assert answer == free.answers[name]


if __name__ == "__main__":
    for c in CASES:
        print(f"    {case_id(c)!r}: {digest(c)!r},", flush=True)

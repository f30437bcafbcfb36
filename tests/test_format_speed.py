"""Output of the format builders, pinned before they are made fast: every format and style must
keep its bytes (``code_tests`` aside: they are to come from their own stream).

``EXPECTED`` holds SHA-256 digests (first 16 hex digits) of the JSONL lines of every format and
style, computed with the builders of main as merged in 103c5df (main's catalog and its
``noop``/``omitted`` builders); ``code`` variants are hashed with
``code_tests`` emptied. Regenerate only for an intended change of output:
``python -m tests.test_format_speed``.

Digests changed on purpose since, each marked in ``EXPECTED`` (the latest mark wins):

* ``changed: catalog audit`` (``audit`` where the line is long): issue 9's audit rewrote
  most templates (ranges, omit spans,
  mistakes, texts) and every variant now carries ``intermediates`` (step grading), so the
  pinned catalog-wide output changed as a whole; re-pinned once, at that merge.

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
    'free_form-unicode-s0-n3': '1b895c30da693e91',  # changed: catalog audit
    'free_form-latex-s0-n3': 'ee6353eeafc26456',  # changed: catalog audit
    'free_form-ascii-s0-n3': '63f3fdb99b566df1',  # changed: catalog audit
    'noop-unicode-s0-n3': 'a4faa488093c355d',  # changed: catalog audit
    'noop-latex-s0-n3': '545476107c5a99de',  # changed: catalog audit
    'noop-ascii-s0-n3': '85e599cce35684f1',  # changed: catalog audit
    'omitted-unicode-s0-n3': 'f4b68ebb3a7a18c0',  # changed: catalog audit
    'omitted-latex-s0-n3': '749fdb20bc22cf62',  # changed: catalog audit
    'omitted-ascii-s0-n3': 'b309a0b3d11d983b',  # changed: catalog audit
    'units-unicode-s0-n3': '26da78b10d25721d',  # changed: catalog audit
    'units-latex-s0-n3': '9cbb8aef353b5fa7',  # changed: catalog audit
    'units-ascii-s0-n3': '91fef2038821e803',  # changed: catalog audit
    'mc_numerical-unicode-s0-n3': '59db5a9569babbc0',  # changed: catalog audit
    'mc_numerical-latex-s0-n3': 'c71b7a63f656e8a4',  # changed: catalog audit
    'mc_numerical-ascii-s0-n3': '81fedf7501cf552d',  # changed: catalog audit
    'code-unicode-s0-n3': '53337b0830aca124',  # changed: catalog audit
    'code-latex-s0-n3': '1be7f3284b24b809',  # changed: catalog audit
    'code-ascii-s0-n3': '87d9322a37694861',  # changed: catalog audit
    'mc_symbolic-unicode-s0-n1': 'c0ba8f0599261603',  # changed: catalog audit
    'mc_symbolic-latex-s0-n1': '4bdc7ad0fb22b0b6',  # changed: catalog audit
    'mc_symbolic-ascii-s0-n1': 'a5e12aebb24ffa72',  # changed: catalog audit
    'units-unicode-s7-n4-notation=scientific': 'd60d333bb5ead089',  # changed: catalog audit
    'units-latex-s8-n4-notation=plain-paraphrases=random': 'b75f13cfd8e281e5',  # changed: catalog audit
    'mc_numerical-unicode-s7-n4-notation=scientific-n_options=8': '252c9fb9c460cdd0',  # changed: audit
    'mc_numerical-ascii-s9-n4-n_options=2-start=500': 'feda511342dd6e51',  # changed: catalog audit
    'mc_symbolic-ascii-s7-n2-n_options=6': '279f5a847bc5b824',  # changed: catalog audit
    'noop-ascii-s5-n4-paraphrases=random': '55b715cb2076c415',  # changed: catalog audit
    'omitted-latex-s5-n4-paraphrases=[1]': 'a6708ecbb7677bc0',  # changed: catalog audit
    'code-ascii-s5-n4-paraphrases=random': '6d6e401e292c95ee',  # changed: catalog audit
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

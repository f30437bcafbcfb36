"""Output of the format builders, pinned before they are made fast: every format and style must
keep its bytes (``code_tests`` aside: they are to come from their own stream).

``EXPECTED`` holds SHA-256 digests (first 16 hex digits) of the JSONL lines of every format and
style, computed with the builders of commit e5221b3; ``code`` variants are hashed with
``code_tests`` emptied. Regenerate only for an intended change of output:
``python -m tests.test_format_speed``.
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
    'free_form-unicode-s0-n3': '48db36469bacd41a',
    'free_form-latex-s0-n3': 'a4413361247abcad',
    'free_form-ascii-s0-n3': '7c41233ee11979dd',
    'noop-unicode-s0-n3': '1575821bb4429bac',
    'noop-latex-s0-n3': '56831c70a30808bc',
    'noop-ascii-s0-n3': 'd218bb509d24db6f',
    'omitted-unicode-s0-n3': '31102d15792ca957',
    'omitted-latex-s0-n3': '063e3a5fc7f8b091',
    'omitted-ascii-s0-n3': '70c5a8008404d45f',
    'units-unicode-s0-n3': 'f816014c0ed03838',
    'units-latex-s0-n3': 'd71978ed67a246b1',
    'units-ascii-s0-n3': 'abe8a309afc27c43',
    'mc_numerical-unicode-s0-n3': '31ec8091a24a1ce3',
    'mc_numerical-latex-s0-n3': '5d5b65593fd80f73',
    'mc_numerical-ascii-s0-n3': 'f221ad2902f1dbf2',
    'code-unicode-s0-n3': '59a5d509c02fe833',
    'code-latex-s0-n3': 'e98cced76d59003f',
    'code-ascii-s0-n3': '8bda542f0fe8a06c',
    'mc_symbolic-unicode-s0-n1': 'b932aff06c4b7d41',
    'mc_symbolic-latex-s0-n1': '29892525dc5549ba',
    'mc_symbolic-ascii-s0-n1': '2af2bda13652260d',
    'units-unicode-s7-n4-notation=scientific': 'f48f63679dd64192',
    'units-latex-s8-n4-notation=plain-paraphrases=random': '92fc8884aa178fc4',
    'mc_numerical-unicode-s7-n4-notation=scientific-n_options=8': '4d1a59e519d48540',
    'mc_numerical-ascii-s9-n4-n_options=2-start=500': 'd95a3fa2cecf5a2e',
    'mc_symbolic-ascii-s7-n2-n_options=6': 'd5c9cb1524f9c13b',
    'noop-ascii-s5-n4-paraphrases=random': '0397e9e3bdb92923',
    'omitted-latex-s5-n4-paraphrases=[1]': '09480df181ea3cba',
    'code-ascii-s5-n4-paraphrases=random': 'bb1ed36521c04ad4',
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


if __name__ == "__main__":
    for c in CASES:
        print(f"    {case_id(c)!r}: {digest(c)!r},", flush=True)

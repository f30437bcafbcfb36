"""How the ``units`` probe shows an input in another unit: the value converted, the
figures it is shown to, and which inputs it must leave alone.

* **Figures.** A converted value keeps the input's significant figures, unless
  rounding to them would move the value by more than :data:`MAX_SHIFT` (a quarter of
  the conditioning check's nudge, so the unchanged answer moves by at most an eighth
  of the grading tolerance): then one figure more, and so on. Conversions by a power
  of ten are exact, so ``4.87 kg`` is ``4.87 × 10³ g``, never ``4870.0 g``. Exact
  inputs (``exact``, ``integer``) may move by :data:`EXACT_SHIFT` only.
* **Scientific notation** where plain digits would end in zeros that are not
  significant (``1.69 × 10⁴ g``, not ``16900 g``).
* **Units in words.** An input whose placeholder is followed by a unit word (``{{ n }}
  turns per metre``) or preceded by ``per`` is never converted: the words would then
  contradict the unit (``27.0 cm⁻¹ turns per metre``).

>>> shown_in("4.87", "kg", "g", 3, exact=False)
(4870.0, 3)
>>> shown_in("27.4", "m/s", "km/h", 3, exact=False)[1], shown_in("10.3", "m/s", "km/h", 3, exact=False)[1]
(3, 4)
>>> number_text(16900.0, 3, "unicode", "auto")
'1.69 × 10⁴'
"""

from __future__ import annotations

import functools
import re

from ..render import Notation, format_number
from ..template import Template
from ..unit_table import WORDS
from ..units import Style, to_si
from ..validity import NUDGE

#: Largest relative change of a (not exact) input that showing it in another unit may make.
MAX_SHIFT = NUDGE / 4
#: Largest relative change of an exact input (a count, a given difference).
EXACT_SHIFT = 1e-9
#: Words that give a number its unit in the text itself, besides the unit names of ``WORDS``.
_COUNT_WORDS = ("per", "turn", "turns", "times", "revolution", "revolutions", "cycle", "cycles")
_UNIT_WORDS = frozenset((*_COUNT_WORDS, *(w for word in WORDS if " " not in word
                                           for w in (word, word + "s"))))


@functools.lru_cache(maxsize=1024)
def _factors(unit: str, alt: str) -> tuple[float, float, float, float]:
    """``unit``'s and ``alt``'s SI factors and offsets."""
    a, b = to_si(unit or "dimensionless"), to_si(alt)
    return a.factor, a.offset, b.factor, b.offset


def convert(value: float, unit: str, alt: str) -> float:
    """``value`` in ``unit``, expressed in ``alt`` (same dimension).

    >>> round(convert(25.0, "degC", "K"), 2), convert(2.5, "km", "m")
    (298.15, 2500.0)
    """
    fa, oa, fb, ob = _factors(unit, alt)
    return (value * fa + oa - ob) / fb


def shown_in(value: str | float, unit: str, alt: str, sig_figs: int, exact: bool) -> tuple[float, int]:
    """The value of ``value`` (shown in ``unit`` to ``sig_figs`` figures) in ``alt``, and the
    figures to show it to: the fewest, at least ``sig_figs``, for which the rounded number, read
    back in ``unit``, is within :data:`MAX_SHIFT` (exact inputs: :data:`EXACT_SHIFT`) of ``value``.

    >>> shown_in(25.0, "degC", "K", 3, exact=False)  # 298 K would be 24.9 °C
    (298.15, 5)
    >>> shown_in(0.500, "c", "km/s", 3, exact=True)[1]
    9
    """
    original = float(value)
    converted = convert(original, unit, alt)
    limit = (EXACT_SHIFT if exact else MAX_SHIFT) * abs(original)
    digits = sig_figs
    while digits < 17 and abs(convert(float(f"{converted:.{digits - 1}e}"), alt, unit) - original) > limit:
        digits += 1
    return converted, digits


def number_text(value: float, digits: int, style: Style, notation: Notation) -> str:
    """``value`` to ``digits`` figures; ``auto`` notation turns scientific where plain digits
    would end in zeros that are not significant.

    >>> number_text(2700.0, 2, "ascii", "auto"), number_text(270.0, 3, "ascii", "auto")
    ('2.7e3', '270')
    """
    if notation == "auto" and int(f"{value:.{digits - 1}e}".partition("e")[2]) >= digits:
        notation = "scientific"
    return format_number(value, digits, style, notation)


@functools.lru_cache(maxsize=4096)
def worded(t: Template) -> frozenset[str]:
    """The inputs of ``t`` that some paraphrase gives a unit in words, next to the placeholder.

    >>> import physgen
    >>> sorted(worded(physgen.load_catalog()["magnetism.transformer"]))  # "{{ Np }} turns"
    ['Np', 'Ns']
    """
    out = set()
    for name in t.spec.inputs:
        near = re.compile(r"(?:(\w+) )?\{\{-?\s*" + re.escape(name) + r"\b[^}]*\}\}(?: (\w+))?")
        if any(before.lower() == "per" or after.lower() in _UNIT_WORDS
               for text in t.texts for before, after in near.findall(text.source)):
            out.add(name)
    return frozenset(out)

"""Unit text in a reply → a Pint unit, bounded before anything reaches Pint.

Spellings come from :mod:`physgen.unit_table`, the table the renderer writes
with, so every unit physgen prints reads back. Words (``meters per second``),
LaTeX (``\\mathrm{m\\,s^{-2}}``) and unicode (``m/s²``) are accepted. Text longer
than :data:`MAX_UNIT_TEXT`, exponents beyond :data:`MAX_EXPONENT` and more than
:data:`MAX_FACTORS` factors are refused, so Pint never sees ``m^9^9^9``.

>>> read_unit("meters per second squared"), read_unit(r"\\mathrm{\\mu F}"), read_unit("^\\\\circ C")
('m/s^2', 'uF', 'degC')
>>> read_unit("3 D".split()[1], want="1/m"), read_unit("m^9^9^9")
('dioptre', None)
"""

from __future__ import annotations

import functools
import re

from ..unit_table import AMBIGUOUS, WORDS, latex_to_unicode, unicode_to_pint
from ..units import parse_unit, same_dimension
from .numbers import superscripts_as_powers

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\degree\b")
_P2 = re.compile(r"\^\s*\{([^{}]*)\}")
_P4 = re.compile(r"\s+")
_P5 = re.compile(r"\bsquare ([a-z]+)")
_P6 = re.compile(r"\bcubic ([a-z]+)")
_P7 = re.compile(r"\bper\b")
_P8 = re.compile(r"\s*\bsquared\b")
_P9 = re.compile(r"\s*\bcubed\b")
_P10 = re.compile(r"\s*/\s*")
_P11 = re.compile(r"[\s*/()]+")
_P12 = re.compile(r"[a-z]{3}")
_P13 = re.compile(r"\^\(?([-+]?\d+(?:\.\d+)?)\)?")
_P14 = re.compile(r"\s*\^\s*")

#: Longest unit text read.
MAX_UNIT_TEXT = 60
#: Largest power a unit factor may carry.
MAX_EXPONENT = 12
#: Most factors in one unit.
MAX_FACTORS = 8

_DEGREES = re.compile(r"\bdeg(?:ree)?s?\.?\s*(?:(c|celsius|centigrade)|f|fahrenheit)\b", re.I)
_LATEX_WRAP = re.compile(r"\\(?:mathrm|text|textrm|rm|mbox|operatorname)\s*\{([^{}]*)\}")
# one factor: a symbol and at most one small power
_FACTOR = re.compile(r"[A-Za-z_]+(?:\^([-+]?\d{1,2}(?:\.\d{1,3})?))?")
# every unit word in one pattern, longest first, plurals too ("kilometres", "inches")
_WORD = re.compile("(?<![a-z])(" + "|".join(re.escape(w) for w in sorted(WORDS, key=len, reverse=True))
                   + ")(?:e?s)?(?![a-z])")
# English words Pint would read as units (in = inch, at = technical atmosphere, a = year, ...)
NOT_UNITS = frozenset({
    "in", "at", "a", "an", "and", "or", "is", "it", "the", "of", "to", "for", "if", "as", "so",
    "we", "be", "by", "on", "are", "was", "then", "from", "not", "per", "with", "which", "that",
    "this", "its", "each", "both", "all", "but", "when", "where", "since", "thus", "hence", "i",
    "me", "my", "do", "no", "up", "s.f", "sf", "approximately", "about", "roughly",
})


def _clean(text: str) -> str:
    """Unit text in Pint's spelling: LaTeX → unicode → Pint, through the shared table."""
    t = text.strip().replace("$", "")
    if "deg" in t or "Deg" in t:
        t = _DEGREES.sub(lambda m: "°C" if m.group(1) else "°F", t)  # "degrees Celsius", "deg C"
    for _ in range(2):
        t = _LATEX_WRAP.sub(r"\1", t)
    t = _P1.sub("°", t)
    t = _P2.sub(r"^(\1)", t)
    t = t.replace("\\,", " ").replace("\\;", " ").replace("\\ ", " ").replace("~", " ")
    for latex, uni in latex_to_unicode():
        t = t.replace(latex, uni)
    t = t.replace("\\cdot", "*").replace("{", "(").replace("}", ")").replace("μ", "µ")
    t = t.replace("℃", "°C").replace("℉", "°F").replace("° C", "°C").replace("° F", "°F")
    for uni, pint_text, _ in unicode_to_pint():
        t = t.replace(uni, pint_text)  # flush: "kΩ" is "kohm", "µF" is "uF"
    t = t.replace("%", " percent ").replace("·", "*")
    t = superscripts_as_powers(t)
    return _P4.sub(" ", t).strip().strip(".,;:")


def _words(text: str) -> str:
    """Unit words to symbols: 'kilometers per hour' -> 'km / h', 'square meters' -> 'm^2'."""
    t = f" {text.lower()} "
    t = _P5.sub(r"\1^2", t)
    t = _P6.sub(r"\1^3", t)
    t = _WORD.sub(lambda m: f" {WORDS[m.group(1)]} ", t)
    t = _P7.sub("/", t)
    t = _P8.sub("^2", t)
    t = _P9.sub("^3", t)
    return _P10.sub("/", _P4.sub(" ", t)).strip()


def _bounded(text: str) -> bool:
    """At most MAX_FACTORS symbols, each with at most one small power."""
    pieces = [p for p in _P11.split(text) if p]
    if not pieces or len(pieces) > MAX_FACTORS:
        return False
    for piece in pieces:
        if piece == "1":
            continue
        m = _FACTOR.fullmatch(piece)
        if m is None or (m.group(1) is not None and abs(float(m.group(1))) > MAX_EXPONENT):
            return False
    return True


@functools.lru_cache(maxsize=8192)
def read_unit(text: str, want: str | None = None) -> str | None:
    """Pint-readable unit text for unit text from a reply, or None if it is not a unit.

    ``want`` is the expected answer's unit: an ambiguous symbol (``D``: debye or
    dioptre) is read in its dimension when the usual reading does not fit.
    ``""`` means no unit.
    """
    if len(text) > MAX_UNIT_TEXT:
        return None
    t = _clean(text)
    if not t:
        return ""
    if (t if len(t) == 1 else t.lower()) in NOT_UNITS:  # "A" is the ampere, "a" an article
        return None
    candidates = [t]
    if _P12.search(t):
        candidates.insert(0, _words(t))  # words first: Pint reads some phrases oddly
    for c in candidates:
        c = _P13.sub(r"^\1", c).strip()
        c = _P14.sub("^", c)
        if not c or not _bounded(c):
            continue
        c = c.replace("^", "**")
        head = c.split()[0]
        if (head if len(head) == 1 else head.lower()) in NOT_UNITS and c.lower() not in WORDS.values():
            continue
        try:
            parse_unit(c)
        except ValueError:
            continue
        if want is not None and c in AMBIGUOUS and not _fits(c, want):
            for alt in AMBIGUOUS[c]:
                if _fits(alt, want):
                    return alt
        return c.replace("**", "^")
    return None


def _fits(unit: str, want: str) -> bool:
    try:
        return bool(same_dimension(unit.replace("^", "**") or "dimensionless", want or "dimensionless"))
    except ValueError:
        return False

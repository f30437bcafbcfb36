"""Read the one value a part's text commits to, or say why there is none.

Candidates are the numeric expressions in the text with the unit written after
each. Dropped before choosing: values assigned to *another* symbol
(``using g = 9.8 m/s²``), precision notes (``3 s.f.``), rejected values
(``not 5 m/s``), uncertainties (``± 0.1``), links of an equation chain
(``2·5 = 10``: only 10 counts), and values of another dimension than the
expected answer. A correction (``wait``, ``actually`` …) keeps only what follows
it. Two remaining candidates that differ by more than the tolerance are a hedge.

>>> read_value("v = 2*5 = 10 m/s, not 5 m/s", "m/s").value
10.0
>>> read_value("either 5 m or 6 m", "m").status
'ambiguous'
>>> read_value("50 N at 30°", "N").value, read_value("35.3 m (3 s.f.)", "m").value
(50.0, 35.3)
>>> read_value("12 m. Wait, I forgot the factor 2: 24 m", "m").value
24.0
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .compare import RTOL, agrees, to_expected
from .numbers import normalise, runs
from .units import NOT_UNITS, read_unit

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"\s*")
_P2 = re.compile(r"(\s+)")
_P3 = re.compile(r"[.,;:\]]+$")
_P4 = re.compile(r"±\s*$")
_P5 = re.compile(r"\d")
_P6 = re.compile(r"=|≈")
_P7 = re.compile(r"[\\_{}()$\s*]")

Status = Literal["ok", "missing", "unparseable", "wrong_unit_dimension", "ambiguous"]

_RANGE = re.compile(r"(\d)\s*(?:–|—|\s-\s|-(?=\d))\s*(?=[-+]?\.?\d)")
_RATIO = re.compile(r"(?<![\w.:])(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)(?![\w.:])")
_PRECISION = re.compile(
    r"\(?\s*(?:to |rounded to |with )?(?<![\d.])\d+\s*(?:s\.\s?f\.?|sf\b|sig\.?\s*figs?\b\.?|"
    r"significant\s+(?:figures?|digits?)|d\.\s?p\.?|dp\b|decimal\s+places?)\s*\)?", re.I)
_PRECISION_HINT = re.compile(r"\d\s*[sd]", re.I)  # in every _PRECISION match, and quick to scan for
# a parenthetical that states another quantity or a condition (and offers no alternative)
_INNER = r"(?:[^()]|\([^()]*\))"
_NOTE = re.compile(rf"\((?!{_INNER}*\bor\b)(?={_INNER}*?(?:=|≈|\b(?:using|with|taking|assuming|where|since|"
                   rf"given|from|because|for|if|per)\b)){_INNER}*\)", re.I)
_UNCERTAINTY = re.compile(r"±\s*")
CORRECTION = re.compile(  # (?=…): the letters a correction starts with, so most positions fail at once
    r"(?=[wacisolrn.!])(?:\b(?:wait|actually|correction|i mean|sorry|scratch that|oops|let me correct|"
    r"on second thought|should (?:be|read|have been)|rather(?! than)|instead(?! of)|corrected)\b|"
    r"(?:^|[.!]\s+)no,)", re.I)
# "g = 9.8", "using c = 3e8": a value that names another quantity
_ASSIGNED = re.compile(r"([A-Za-z\\][\w\\()]*)\s*(?:=|≈|~)\s*$")
# an "=" before the clause ends: the value is a link of a chain, not its result
_CHAIN_AHEAD = re.compile(r"^(?:(?!\b(?:and|so|thus|then)\b)[^,;\n])*?(?:=|≈|->|→|⇒)")
_RESTATED = re.compile(r"\(\s*(?:roughly|about|approximately|approx\.?|≈|~|≃|i\.e\.?|that is)[^()]*\)", re.I)


_UNREADABLE_UNIT = re.compile(r"\s*([A-Za-zµΩ°]+\s*(?:\^|\*\*)\s*[-+(]?\d+\S*)")


_REJECTING = re.compile(r"(?:\bnot|rather than|instead of|as opposed to|isn't|never)\s+(?:equal to\s+|be\s+|"
                     r"just\s+)?[-+(]?\s*$", re.I)


@dataclass(frozen=True)
class Candidate:
    """One value found in a part's text, with its unit and where it stands."""

    value: float
    unit: str
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Reading:
    """What a part's text commits to: ``value`` in the expected unit when ``status == "ok"``."""

    status: Status
    value: float | None = None
    parsed: str = ""
    detail: str = ""


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


def unit_after(text: str, want: str) -> tuple[str, int]:
    """The unit written right after a value (longest readable prefix of its first 60
    characters), and its length; ``want``: the expected unit, to read an ambiguous symbol.

    >>> unit_after(" m/s at 30°", "m/s"), unit_after(" kg m^2 s^-1 …", "")
    (('m/s', 4), ('kg m^2 s^-1', 12))
    """
    found = _readable_unit(text[:60], want)
    if found[0]:
        return found
    bad = _UNREADABLE_UNIT.match(text)
    if bad:  # "3 s^99999…": a unit was written, but not one that can be read
        return "?" + bad.group(1)[:20], bad.end()
    return "", 0


@functools.lru_cache(maxsize=8192)
def _readable_unit(head: str, want: str) -> tuple[str, int]:
    m = _P1.match(head)
    lead = m.end() if m else 0
    words = _P2.split(head[lead:])
    for stop, word in enumerate(words):  # a plain English word ends the unit ("50 N at 30°")
        bare = word.strip("*.,;:)")
        bare = bare if len(bare) == 1 else bare.lower()  # "A" is the ampere, "a" an article
        if bare in NOT_UNITS and bare != "per":
            words = words[:stop]
            break
    for k in range(min(len(words), 11), 0, -1):
        piece = _P3.sub("", "".join(words[:k]).rstrip())
        while piece.endswith(")") and piece.count(")") > piece.count("("):
            piece = piece[:-1]
        if not piece or piece[0] in "=≈~(-+*/^" or piece.lower().endswith(" per"):
            continue
        unit = read_unit(piece, want or "")
        if unit:
            return unit, lead + len(piece)
    return "", 0


def candidates(text: str, want: str) -> tuple[list[Candidate], list[Candidate]]:
    """``(kept, assigned)``: the values a text states, and those it assigns to another symbol."""
    t = _RATIO.sub(r"(\1/\2)", text) if ":" in text else text
    t = _PRECISION.sub(_blank, t) if _PRECISION_HINT.search(t) else t
    t = _NOTE.sub(_blank, t)
    t = _RESTATED.sub(_blank, t)
    kept: list[Candidate] = []
    assigned: list[Candidate] = []
    skip_until = -1
    for run in runs(t):
        if run.start < skip_until:
            continue
        unit, unit_len = unit_after(t[run.end:], want)
        end = run.end + unit_len
        value = run.value
        cand = Candidate(value, unit, t[run.start:end].strip(), run.start, end)
        before = t[max(0, run.start - 40): run.start]
        if _CHAIN_AHEAD.match(t[end:end + 200]):
            continue  # a link of an equation chain: only its last member counts
        if _P4.search(before) and not _VALUE_BEFORE.search(before):
            kept += [cand, Candidate(-value, unit, "-" + cand.text, run.start, end)]  # "±4.95 m": both signs
            skip_until = end
            continue
        if _P4.search(before) or _rejects(before):
            continue  # an uncertainty, or a value the text rejects
        m = _ASSIGNED.search(before)
        if m is not None and not _P5.search(m.group(1)):
            assigned.append(cand)
            continue
        kept.append(cand)
        skip_until = end
    return kept, assigned


#: A sentence after the final answer that offers another value (a note, a caveat, an alternative).
ALTERNATIVE = re.compile(r"\b(?:or|alternative(?:ly)?|otherwise|could be|might be|may be|possibl[ey]|"
                         r"perhaps|maybe|either|instead|should|really|on reflection|"
                         r"answers? (?:is|are|would be|will be|could be|might be)|answers?\s*:)\b", re.I)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


def alternative_value(tail: str, want: str, value: float, known: Sequence[tuple[float, str]],
                      rtol: float = RTOL, label: str = "") -> str | None:
    """A value of ``want``'s kind that a sentence of ``tail`` (the text after a final answer)
    offers besides ``value``, if any: a sentence that offers an alternative (``or``, ``maybe``,
    ``the answer would be`` …) with a value neither close to ``value`` nor to a ``known`` one
    (an answer or a given, ``(value, unit)``), which it may restate. A value for comparison
    (``a block would reach 6.6 m/s``) offers nothing. A sentence that names parts by label
    (``so (a) is really 35.1 m``) offers a value only for the part labelled ``label``.

    >>> alternative_value(" NOTE: with drag the answer would be 30 m.", "m", 35.3, [])
    '30 m'
    >>> alternative_value(" That is about 116 ft, or 3530 cm.", "m", 35.3, []) is None
    True
    """
    head = tail[:MAX_TAIL].split("\n\n", 1)[0]
    listed = [ln for ln in head.split("\n")[1:] if _VALUE_LINE.fullmatch(ln)]  # "35.3 m\n36.1 m\n…"
    for sentence in listed + _SENTENCES.split(tail[:MAX_TAIL]):
        if not (sentence in listed or ALTERNATIVE.search(sentence)) or not _P5.search(sentence):
            continue
        named = {m.group(1).lower() for m in _PART_LABEL.finditer(sentence)}
        if named and label.lower() not in named:
            continue
        inner = _OUTER_PARENS.fullmatch(sentence.strip())
        kept, _ = candidates(normalise(inner.group(1) if inner else sentence), want)
        with_unit = [c for c in kept if c.unit]
        for c in with_unit or kept:
            got = to_expected(c.value, c.unit, want)
            if got is None or agrees(got, value, want, rtol) or agrees(value, got, want, rtol):
                continue
            if any(_same(got, want, v, u, rtol) for v, u in known):
                continue
            return c.text
    return None


_VALUE_LINE = re.compile(r"\s*[-+−±]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?"
                         r"\s*[^\s\d]{0,15}\s*[.,;]?\s*")
_PART_LABEL = re.compile(r"\(([a-z])\)")
_OUTER_PARENS = re.compile(r"\((.*)\)[.!]?", re.S)  # "(If … it would instead be 39.0 kN.)"
#: Longest text after a final answer read for alternatives.
MAX_TAIL = 2_000


def _same(got: float, want: str, value: float, unit: str, rtol: float) -> bool:
    other = to_expected(value, unit, want)
    return other is not None and agrees(got, other, want, rtol)


# "9.8 ± 0.1", "9.8 m ± 0.1": an uncertainty
_VALUE_BEFORE = re.compile(r"[\d)]\s*(?:[^\s\d±]{1,12}\s*)?±\s*$")


def _rejects(before: str) -> bool:
    """Whether the text just before a value rejects it (``not``, ``rather than`` …)."""
    return _REJECTING.search(before) is not None


def read_value(text: str, want: str | None, rtol: float = RTOL, aliases: Sequence[str] = (),
               last: bool = False) -> Reading:
    """The one value ``text`` commits to, in the unit ``want``, or why there is none.

    ``last`` takes the last fitting value instead of checking for a hedge (for text
    that never committed to an answer). ``want=None`` takes the last number after the
    last ``=``, whatever unit follows it (TheoremQA's own rule).
    ``aliases`` are names the part itself goes by: ``R = 35 m`` is not another quantity.
    """
    if not text or not text.strip():
        return Reading("missing", detail="no answer found")
    simple = _simple(text, want)
    if simple is not None:
        return simple
    t = _RANGE.sub(r"\1 to ", text)
    t = _UNCERTAINTY.sub("± ", normalise(t))
    unit = "" if want is None else want
    if want is None:
        t, last = _P6.split(t)[-1], True
    t = _correction_tail(t, unit)
    kept, assigned = candidates(t, unit)
    own = [c for c in assigned if _names_self(t, c, aliases)]
    pool = kept + own or assigned  # values assigned to another symbol count only if nothing else does
    if not pool:
        return Reading("unparseable", detail=f"no number in {text.strip()[:60]!r}")
    pool = _share_units(pool, t)
    fitting: list[tuple[Candidate, float]] = []
    other: list[Candidate] = []
    for c in pool:
        value = c.value if want is None else to_expected(c.value, c.unit, want)
        if value is None:
            other.append(c)
        else:
            fitting.append((c, value))
    if want and any(c.unit for c, _ in fitting):
        fitting = [(c, v) for c, v in fitting if c.unit]  # a bare number beside stated units is a count
    spread = [o for o in other if any(o.value == c.value for c, _ in fitting)]
    if spread:  # "3.80 s or 3.80 m or 3.80 kg": one number offered in units of several kinds
        shown = ", ".join(c.text for c in [fitting[0][0], *spread][:4])
        return Reading("ambiguous", parsed=shown, detail=f"one number in units of different kinds: {shown}")
    if not fitting:
        c = other[0]
        return Reading("wrong_unit_dimension", parsed=c.text,
                       detail=f"{c.unit!r} cannot be converted to {unit!r}")
    if last:
        c, v = fitting[-1]
        return Reading("ok", v, c.text)
    distinct: list[tuple[Candidate, float]] = []
    for c, v in fitting:
        if not any(agrees(v, w, unit, rtol) or agrees(w, v, unit, rtol) for _, w in distinct):
            distinct.append((c, v))
    if len(distinct) > 1:
        shown = ", ".join(c.text for c, _ in distinct[:4])
        return Reading("ambiguous", parsed=shown, detail=f"more than one value: {shown}")
    c, v = distinct[0]
    return Reading("ok", v, c.text)


# one number and a unit word, nothing else ("145 kV", "-2.5e3 m/s."), in characters the normaliser
# leaves as they are: most parts of a labelled answer
_SIMPLE = re.compile(r"[ \n]*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?)"
                     r"(?: *([A-Za-zµμΩ°%][A-Za-z0-9µμΩ°%/^_]*))?[ \n]*[.,;]?[ \n]*")


def _simple(text: str, want: str | None) -> Reading | None:
    """What :func:`read_value` reads in a text that is one number and a unit, found without its
    general machinery (corrections, hedges, chains …, none of which such a text can hold);
    None when the text is anything more."""
    if want is None:
        return None
    m = _SIMPLE.fullmatch(text)
    if m is None:
        return None
    number, written = m.group(1), m.group(2) or ""
    unit, length = unit_after(" " + written, want) if written else ("", 0)
    if written and (length != len(written) + 1 or unit.startswith("?")):
        return None  # more than a unit follows, or an unreadable one
    parsed = " ".join(text[m.start(1):m.end(2) if written else m.end(1)].split())  # as normalised
    value = to_expected(float(number), unit, want)
    if value is None:
        return Reading("wrong_unit_dimension", parsed=parsed,
                       detail=f"{unit!r} cannot be converted to {want!r}")
    return Reading("ok", value, parsed)


_JOINED = re.compile(r"\s*(?:and|or|to|-|–|—)\s*", re.I)


def _share_units(pool: list[Candidate], text: str) -> list[Candidate]:
    """``4.9 to 5.1 m``, ``between 4.9 and 5.1 m``, ``5 or 6 m``: the bare first value of a
    pair carries the second's unit (so a hedge is seen as one)."""
    out = list(pool)
    for k in range(len(out) - 1):
        a, b = out[k], out[k + 1]
        if not a.unit and b.unit and _JOINED.fullmatch(text[a.end:b.start]):
            out[k] = Candidate(a.value, b.unit, a.text, a.start, a.end)
    return out


def _names_self(text: str, c: Candidate, aliases: Sequence[str]) -> bool:
    m = _ASSIGNED.search(text[max(0, c.start - 40): c.start])
    return m is not None and any(_plain(m.group(1)) == _plain(a) for a in aliases)


def _plain(name: str) -> str:
    return _P7.sub("", name)


def _correction_tail(text: str, want: str) -> str:
    """The text after the last correction that is followed by a value (else all of it)."""
    for m in reversed(list(CORRECTION.finditer(text))[-4:]):  # the last few corrections
        tail = text[m.end():]
        kept, assigned = candidates(tail, want)
        if any(to_expected(c.value, c.unit, want) is not None for c in kept + assigned):
            return tail
    return text

"""Read which option of a multiple-choice question a reply chose.

A choice is a letter (``B``, ``(b)``, ``[B]``, ``Option B``, ``\\boxed{B}`` …). A
letter right after a number is a unit (``3.0 A``), and a letter mentioned to be
rejected (``not A``, ``A is wrong``) is no choice. With no letter, an option's
text stated as a whole, or for numerical options a value within tolerance of
exactly one option, picks it.

>>> opts = {"A": "5.2 m", "B": "15.2 m", "C": "3.0 m"}
>>> read_choice("The current is 3.0 A, so the answer is (C).", opts)
({'C'}, 'letter')
>>> read_choice("Final answer: 15.2 m", opts)
({'B'}, 'option text')
>>> read_choice("B and C", opts)[0] == {"B", "C"}
True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from ..labels import OPTION_LETTERS
from .compare import RTOL, agrees
from .numbers import normalise
from .quantity import CORRECTION as _CORRECTION
from .quantity import read_value

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_ANY = OPTION_LETTERS + OPTION_LETTERS.lower()
_P1 = re.compile(rf"[\s*_\[(]*([{_ANY}])[\s*_\])]*\.?")
_P2 = re.compile(r"\s+[a-z]")

_EXPLICIT = re.compile(
    rf"\\boxed\s*\{{\s*\(?\s*([{_ANY}])\s*\)?\s*\}}|"
    rf"\b(?i:option|choice|answer|letter)\s*(?:is\s*|:\s*|=\s*)?(?:\*\*)?[\[(]?\s*([{_ANY}])\s*[\])]?"
    r"(?![\w'])|"
    rf"(?<![\w)])[\[(]\s*([{OPTION_LETTERS}])\s*[\])]|"
    rf"(?<![\w'’\-./])([{OPTION_LETTERS}])(?![\w'’\-])"
)
# a letter inside an expression (``7*B``, ``y = A sin(…)``, ``(B)^2``) is a symbol, not a choice
_OPERATOR_BEFORE = re.compile(r"(?:(?<!\*)\*(?!\*)|[/^=+×·÷≈√])\s*$")  # not "**" (bold) or "->"
_OPERATOR_AFTER = re.compile(r"^(?:\(|\s*(?:\*(?!\*)|[/^=+×·÷≈]|\\(?:cdot|times|sin|cos|tan|sqrt|frac)|"
                             r"(?:sin|cos|tan|exp|sqrt|ln|log)\b))")
_REJECT_BEFORE = re.compile(
    r"(?:\bnot|\bexcept|\bthan|rule out|eliminate|exclude|\bnor|\bunlike)\s*(?:option\s*)?[\[(]?\s*$", re.I)
_REJECT_AFTER = re.compile(
    r"^\s*[\])]?\s*(?:is|are|seems|would be|looks|can be)\s+(?:wrong|incorrect|not|false|too|invalid|"
    r"ruled out|eliminated|off|unphysical)|^\s*[\])]?\s*(?:can't|cannot)", re.I)
# "A is …", "A because …": a letter that continues as a choice, not as an article
_CONTINUES = re.compile(r"\s+(?:is|as|was|because|since|"
                                                                          r"seems|which|and|or)\b")
# "m, v, q, B": a letter in a list of symbols (two or more short tokens before or after it) is
# one of the symbols, not a choice; such a list chooses nothing clearly, so it is a hedge
_SYMBOLS_BEFORE = re.compile(r"(?:^|[\s:,(])[^\W\d_]{1,2}\s*,\s*[^\W\d_]{1,2}\s*,\s*$")
_SYMBOLS_AFTER = re.compile(r"^\s*,\s*[^\W\d_]{1,2}\s*,\s*[^\W\d_]{1,2}(?![^\W\d_])")
_NUMBER_BEFORE = re.compile(r"(?:[\d)°º]|\\circ\s*\}?|\bdeg(?:rees?)?)\s*$")  # "3.0 A", "49.1 °C", "^\circ C"


def _letters(text: str, options: Mapping[str, str]) -> list[str]:
    """Letters chosen in ``text``, in order of appearance; a letter rejected anywhere in it
    (``A is wrong``) is not chosen."""
    lone = _P1.fullmatch(text)
    if lone:
        return [lone.group(1).upper()]
    chosen: list[str] = []
    rejected: set[str] = set()
    for m in _EXPLICIT.finditer(text):
        letter = next(g for g in m.groups() if g).upper()
        if letter not in options:
            continue
        before, after = text[max(0, m.start() - 25): m.start()], text[m.end(): m.end() + 40]
        if m.group(4) and _NUMBER_BEFORE.search(before):
            continue  # "3.0 A": a unit
        if m.group(4) and (_SYMBOLS_BEFORE.search(before) or _SYMBOLS_AFTER.match(after)):
            return list(options)  # "m, v, q, B": a list of symbols offers every option
        if (m.group(3) or m.group(4)) and (_OPERATOR_BEFORE.search(before) or _OPERATOR_AFTER.match(after)):
            continue  # "7*B", "y = A*sin(kx)": a symbol in an expression
        if m.group(4) and _P2.match(after) and not _CONTINUES.match(after):
            continue  # "A ball …": an article
        if _REJECT_BEFORE.search(before) or _REJECT_AFTER.match(after):
            rejected.add(letter)
            continue
        chosen.append(letter)
    return [c for c in chosen if c not in rejected]


@functools.lru_cache(maxsize=4096)
def _whole(text: str) -> re.Pattern[str]:
    """``text`` as a whole: not inside a longer number or word (``5.2 m`` in ``15.2 m``), not with
    a sign or operator before it (``-5.2 m``, ``±5.2 m``), nor inside an expression (``2*(x/y)``)."""
    return re.compile(rf"(?<![\w.*/^·×+\-−±√]){re.escape(text)}(?![\w.*/^·×(])")


_ALONE_BEFORE = re.compile(r"(?:^|[=:,;(\[{$≈]|\bor|\band|\bis|\bbe|\*\*)\s*$", re.I)
_ALONE_AFTER = re.compile(r"\s*(?:$|[,;.)\]}$]|\bor\b|\band\b|\*\*)", re.I)
_OPENED = re.compile(r"(?:[\w.*/^·×+\-−±√()]|\*\*)\(\s*$")  # "2*(" or "sqrt(" before an option's text


def option_texts(text: str, options: Mapping[str, str], symbolic: bool = False) -> set[str]:
    """The options whose whole text ``text`` states (and does not reject: ``not 5.2 m``); an
    expression (``symbolic``) only where it stands alone, not beside another (``x/7 2·y``)."""
    out = set()
    for k, v in options.items():
        if not v:
            continue
        for m in _whole(" ".join(v.split())).finditer(text):
            before = text[max(0, m.start() - 25): m.start()]
            if symbolic and not (_ALONE_BEFORE.search(before) and _ALONE_AFTER.match(text, m.end())):
                continue
            if not _REJECT_BEFORE.search(before) and not _OPENED.search(before):
                out.add(k)
                break
    return out


def chosen_later(tail: str, options: Mapping[str, str], symbolic: bool = False) -> set[str]:
    """Options that text after a final answer offers too: letters or option texts on a short line
    of its first paragraph (a list), or in a sentence that offers an alternative (``or``,
    ``could also`` …); for expressions (``symbolic``), a short line of maths that is no option.

    >>> chosen_later(" NOTE: it could also be (C).", {"A": "1 m", "B": "2 m", "C": "3 m"})
    {'C'}
    """
    tail = tail[:2_000]
    head = tail.split("\n\n", 1)[0]
    pieces = [ln for ln in head.split("\n") if len(ln.strip()) <= 40]
    if symbolic and any(_EXPRESSION_LINE.fullmatch(ln.strip()) and not option_texts(ln.strip(), options, True)
                        for ln in pieces):
        return set(options)  # "Final answer:\n-T/T_h + 1\n-T/T_h + 2": a list of expressions
    pieces += [s for s in _SENTENCES.split(tail) if _OFFERS.search(s)]
    found: set[str] = set()
    for piece in pieces:
        found |= set(_letters(piece, options)) | option_texts(" ".join(piece.split()), options)
    return found


_OFFERED = re.compile(r"\s(?:or|and)\s|;|\n|,")


def offered(span: str) -> list[str]:
    """The pieces a span offers, split at ``or``, ``and``, ``;``, line breaks and commas outside
    brackets (``atan2(y, x)`` is one piece), and at a space between two expressions."""
    out, depth, start = [], 0, 0
    for m in re.finditer(r"[([{]|[)\]}]|" + _OFFERED.pattern, span):
        ch = m.group(0)
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(span[start:m.start()])
            start = m.end()
    out.append(span[start:])
    return [p for p in out if p.strip()]
_P3 = re.compile(r"\w")
_EXPRESSION_LINE = re.compile(r"[^\s.!?]*[=/*^·+\-√][^.!?]*")  # a short line of maths, no sentence
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_OFFERS = re.compile(r"\b(?:or|alternatively|could (?:also )?be|might (?:also )?be|may (?:also )?be|either|"
                     r"also possible|"
                     r"another possib\w*|otherwise)\b", re.I)


def option_value(text: str, unit: str, rtol: float = RTOL) -> float | None:
    """The value a numerical option states, in ``unit`` (None if it states none)."""
    return read_value(normalise(text), unit, rtol).value


def read_choice(span: str, options: Mapping[str, str], rtol: float = RTOL,
                unit: str | None = None) -> tuple[set[str], str]:
    """The letters a span chooses and how they were found (``letter``, ``option text``,
    ``value``); an empty set if none. Values that hedge (``between 4 and 5 m``, ``±4.95 m``) choose
    every option (``hedge``)."""
    fix = list(_CORRECTION.finditer(span))
    if fix and _letters(span[fix[-1].end():], options):
        span = span[fix[-1].end():]  # "C — sorry, I mean D"
    lines = [ln for ln in span.splitlines() if ln.strip()] or [span]
    flat = " ".join(span.split())
    texts = option_texts(flat, options, symbolic=unit is None)
    plain = {k: normalise(v) for k, v in options.items()}  # "$2.46\,\mathrm{eV}$" is "2.46 eV"
    texts |= option_texts(normalise(flat), plain, symbolic=unit is None)
    for line in lines:  # the first line that chooses something
        found = _letters(line, options)
        if found:  # "(B) <the text of option C>" chooses two options
            return set(found) | texts, "letter"
    reading = read_value(span, unit, rtol) if unit is not None else None
    if reading is not None and reading.status == "ambiguous":
        return set(options), "hedge"  # "4.95 m or -4.95 m", a spray of values: every option offered
    if reading is not None and reading.status == "wrong_unit_dimension" and unit is not None \
            and all(option_value(v, unit, rtol) is not None for v in options.values()):
        return set(), ""  # "-0.0811 J" for a dimensionless option: another kind of quantity
    if unit is None and len({" ".join(p.split()) for p in offered(span) if _P3.search(p)}) > 1:
        return set(options), "hedge"  # "x or -x", "\boxed{x} \boxed{2x}": several expressions offered
    if texts:
        return texts, "option text"
    if unit is not None and reading is not None:
        if reading.status == "ok" and reading.value is not None:
            hits = set()
            for k, v in options.items():
                option = option_value(v, unit, rtol)
                if option is not None and agrees(reading.value, option, unit, rtol):
                    hits.add(k)
            if len(hits) == 1:
                return hits, "value"
    return set(), ""

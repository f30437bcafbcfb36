"""Split a final-answer span into the text of each asked part.

In order of preference: labels (``(a)``, ``a)``, ``Part (a)``, numbered lists),
names and symbols (``R =``, ``t_flight =``, ``h_{max} =``, ``v₁ =``, and the
leading symbol when no other part shares it), then an unlabelled list, placed by
dimension when every value has a unit that identifies its part, else in order.

>>> parts = [Part("R", "m"), Part("t_flight", "s"), Part("h_max", "m")]
>>> split("(a) 35.3 m\\n(b) 2.04 s\\n(c) 5.10 m", parts)
[' 35.3 m\\n', ' 2.04 s\\n', ' 5.10 m']
>>> split("R ≈ 45.3 m, t ≈ 3.15 s, h ≈ 12.1 m", parts)
[' 45.3 m, ', ' 3.15 s, ', ' 12.1 m']
>>> split("2.04 s", [Part("R", "m"), Part("t", "s")])
[None, '2.04 s']
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..labels import PART_LETTERS
from ..letters import GREEK
from .compare import conversion
from .numbers import normalise, subscripts_as_text
from .quantity import CORRECTION, candidates

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"([A-Za-z]+?)(\d+)")
_P2 = re.compile(r"[A-Za-z]+?(?=_|\d|$)")
_P3 = re.compile(r"\S")
_P4 = re.compile(r"[\n,;]|\band\b")
_P5 = re.compile(r"=|≈|⇒|→")
_P6 = re.compile(r"[;\n]|(?<!\\),(?!\d{3}(?!\d))|\band\b")

_LETTERS = PART_LETTERS
_WORD_CHAR = re.compile(r"\w")
_DIGIT = re.compile(r"\d")
_GREEK_LETTER = {name: letter for letter, name in GREEK.items()}
_DIFFERENCE_NAME = re.compile(r"d[A-Za-z][A-Za-z0-9]?")  # dU, dS, dp: a change, written ΔU


@dataclass(frozen=True)
class Part:
    """What the reader knows of one asked quantity: its name, unit, and whether it is an
    expression (algebraic) rather than a number."""

    name: str
    unit: str
    expression: bool = False


@functools.lru_cache(maxsize=4096)
def _name_pattern(name: str) -> str:
    """A regex for a name as replies write it: ``h_max``, ``h_{max}``, ``h_{\\max}``, ``hₘₐₓ``."""
    base, _, sub = name.partition("_")
    if not sub:
        m = _P1.fullmatch(name)
        if m and m.group(1) not in _GREEK_LETTER:
            base, sub = m.group(1), m.group(2)
        elif len(name) > 1 and name not in _GREEK_LETTER and name[0].isupper() and name[1:].islower():
            base, sub = name[0], name[1:]  # "Vs" is also written V_s
    spellings = [base, _GREEK_LETTER[base]] if base in _GREEK_LETTER else [base]
    alternatives = [re.escape(a) for a in spellings]
    if _DIFFERENCE_NAME.fullmatch(base):  # "dU" is also written ΔU, \Delta U, Delta_U
        alternatives.append(r"(?:Δ|Delta)[ \t_]?" + re.escape(base[1:]))
        spellings += ["Δ", "D"]
    firsts = "".join(sorted({re.escape(a[:1]) for a in spellings}))
    ahead = rf"(?=[\\{firsts}])" if base else ""  # what the name starts with, so most positions fail at once
    head = ahead + r"(?:\\)?(?:" + "|".join(alternatives) + ")"
    if not sub:
        return head
    wrapped = r"\s*_?\s*[({]?\s*(?:\\(?:text|mathrm|rm)\s*[({]\s*)?\\?"  # _{\text{max}}, _(max)
    return head + wrapped + re.escape(sub) + r"\s*[)}]?[)}]?"


def _starts_with_symbol(name: str, symbol: str) -> bool:
    """``t_flight``, ``t2`` and ``t`` start with the symbol ``t``; ``theta`` does not."""
    rest = name[len(symbol):] if name.startswith(symbol) else None
    return rest is not None and (rest == "" or rest[0] == "_" or rest[0].isdigit())


def aliases(part: Part, parts: Sequence[Part]) -> list[str]:
    """Regexes for the names a reply may give ``part``: its name, and its leading symbol
    when no other part starts with the same one (``t`` for ``t_flight``)."""
    found = [_name_pattern(part.name)]
    lead = _P2.match(part.name)
    if lead and lead.group(0) != part.name:
        symbol = lead.group(0)
        others = [p for p in parts if p is not part and _starts_with_symbol(p.name, symbol)]
        if not others:
            found.append(_name_pattern(symbol))
    return found


@functools.lru_cache(maxsize=64)
def _letter_labels(n: int) -> re.Pattern[str]:
    """The labels of the first ``n`` parts, found in one scan (group ``k``: the letter): ``(a)``
    after a space, or ``a)``, ``a.``, ``a:`` at the start of a line (not ``(q*B)``). No two labels
    can overlap, so one scan finds what a scan per letter would."""
    low = _LETTERS[:n]
    both = low + low.upper()
    return re.compile(  # (?=…): what a label starts with, so most positions fail at once
        rf"(?=[\s*_Pp(\-•{low}])(?:"
        rf"(?:^|(?<=[\s$:,;]))(?:\*\*|__)?(?:[Pp]art[ \t]*)?\([ \t]*(?P<k>[{both}])[ \t]*\)(?:\*\*|__)?|"
        rf"^[ \t]*(?:[-*•][ \t]+)?(?:\*\*|__)?(?:[Pp]art[ \t]*)?(?P<k2>[{low}])[ \t]*[).:]"
        rf"(?=\s|\*|$)(?:\*\*|__)?|"
        rf"(?<=\s)(?P<k3>[{low}])\)(?=[ \t]+[-+−]?[\d$\\.]))",  # "… b) 2.04 s" mid-line, before a value
        re.M,
    )


def _letter_of(m: re.Match[str]) -> int:
    return _LETTERS.index((m.group("k") or m.group("k2") or m.group("k3")).lower())


@functools.lru_cache(maxsize=64)
def _number_labels(n: int) -> re.Pattern[str]:
    """Numbered labels ``1.``, ``(2)``, ``3:`` of the first ``n`` parts, in one scan."""
    return re.compile(rf"^[ \t]*(?:[-*][ \t]*)?(?:\*\*)?(?:[Pp]art[ \t]*)?\(?(?P<k>{_numbers(n)})[.):]"
                      rf"(?:\*\*)?(?=\s)", re.M)


def _numbers(n: int) -> str:
    """A regex for the numbers 1 … ``n`` (``(?:1[0-2]|[1-9])`` for 12), longest first."""
    return "(?:" + "|".join(str(k) for k in range(n, 0, -1)) + ")"


@functools.lru_cache(maxsize=4096)
def _name_label(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\\]){pattern}(?:\s*\$)?\s*(?:=|:|≈|~|\\approx|\bis\b)")


def _segments_from(hits: list[tuple[int, int, int]], text: str, n: int, repeats: bool) -> list[str | None]:
    """Each part's text after its label: the last label of a part wins, or (``repeats``, in a
    final answer) every label of a part counts, so that ``(a) 5 m … (a) 6 m`` offers both."""
    hits.sort()
    segments: list[str | None] = [None] * n
    seen: list[int] = [-1] * n  # where each part's last label ended
    for j, (start, end, k) in enumerate(hits):
        stop = hits[j + 1][0] if j + 1 < len(hits) else len(text)
        piece = text[end:stop]
        again = repeats and segments[k] is not None and _P3.search(piece) and _P3.search(segments[k] or "")
        if again and not CORRECTION.search(text, seen[k], start):
            segments[k] = f"{(segments[k] or '').rstrip()} or {piece}"  # the same part answered twice
        elif _P3.search(piece) or segments[k] is None:
            segments[k] = piece  # a later label after a correction replaces the earlier one
        seen[k] = end
    return segments


def _inside_equation(text: str, start: int, bounds: Sequence[int]) -> bool:
    """Whether a name stands on the right of an ``=`` in its clause (``μ = f/N = …``);
    ``bounds``: the end of every clause boundary (:data:`_P4`) in ``text``, in order."""
    k = bisect.bisect_right(bounds, start) - 1
    return _P5.search(text, bounds[k] if k >= 0 else 0, start) is not None


def _labelled(text: str, parts: Sequence[Part], repeats: bool = False) -> list[str | None] | None:
    n = len(parts)
    text = subscripts_as_text(text)  # same length: "I₃" reads as "I3"
    hits = [(m.start(), m.end(), _letter_of(m)) for m in _letter_labels(n).finditer(text)]
    if not hits:
        numbered = [(m.start(), m.end(), int(m.group("k")) - 1) for m in _number_labels(n).finditer(text)]
        if len({k for *_, k in numbered}) >= min(2, n):
            hits = numbered
    if len({k for *_, k in hits}) < n:  # names fill in what labels do not cover
        bounds: list[int] | None = None  # clause boundaries, found once a name is
        for k, part in enumerate(parts):
            for pattern in aliases(part, parts):
                for m in _name_label(pattern).finditer(text):
                    if bounds is None:
                        bounds = [b.end() for b in _P4.finditer(text)]
                    if not _inside_equation(text, m.start(), bounds):
                        hits.append((m.start(), m.end(), k))
    if not hits:
        return None
    return _segments_from(hits, text, n, repeats)


def _chunks(text: str, expressions: bool) -> list[str]:
    pieces = _P6.split(text)  # not LaTeX's "\,"
    wanted = _WORD_CHAR if expressions else _DIGIT
    return [p for p in pieces if wanted.search(p)]


def _dimension_of(chunk: str) -> str | None:
    kept, assigned = candidates(normalise(chunk), "")
    with_unit = [c.unit for c in kept + assigned if c.unit]
    return with_unit[-1] if with_unit else None


def _by_dimension(chunks: list[str], parts: Sequence[Part]) -> list[str | None] | None:
    """Place chunks by the dimension of their unit, when that identifies every one. When more
    chunks than parts have one part's dimension (``1.38 A, 1.38 mA`` for a current and a
    voltage), that part is offered them all (a hedge)."""
    units = [_dimension_of(chunk) for chunk in chunks]
    if all(u is not None for u in units):
        kinds = [[c for c, u in zip(chunks, units, strict=True) if conversion(u or "", p.unit) is not None]
                 for p in parts]
        kin = [sum(conversion(q.unit, p.unit) is not None for q in parts) for p in parts]
        if any(len(f) > n for f, n in zip(kinds, kin, strict=True)):
            return [" or ".join(f) if len(f) > n else (f[0] if len(f) == 1 == n else None)
                    for f, n in zip(kinds, kin, strict=True)]
    segments: list[str | None] = [None] * len(parts)
    for chunk in chunks:
        unit = _dimension_of(chunk)
        if unit is None:
            return None
        fits = [k for k, p in enumerate(parts) if conversion(unit, p.unit) is not None]
        free = [k for k in fits if segments[k] is None]
        if len(fits) != 1 or not free:
            return None
        segments[free[0]] = chunk
    return segments


_ONE_LABEL = re.compile(r"[ \t]*(?:\*\*|__)?(?:[Pp]art[ \t]*)?(?:\([ \t]*[aA1][ \t]*\)|[aA1][).:](?=\s))"
                        r"(?:\*\*|__)?")


def split(span: str, parts: Sequence[Part]) -> list[str | None]:
    """The text of each part in ``span`` (``None`` where a part has none). A one-part answer
    loses a leading label (``(a) √(g/L)/(2π)``: ``(a)`` is no factor).

    >>> split("(a) 2*pi*sqrt(L/g)", [Part("T", "s", True)])
    [' 2*pi*sqrt(L/g)']
    """
    if len(parts) == 1:
        label = _ONE_LABEL.match(span)
        return [span[label.end():] if label else span]
    labelled = _labelled(span, parts, repeats=True)
    if labelled is not None:
        return labelled
    chunks = _chunks(span, all(p.expression for p in parts))
    placed = None if parts[0].expression else _by_dimension(chunks, parts)
    if placed is not None:
        return placed
    if len(chunks) > len(parts):  # more values than parts, none labelled: each part is offered all
        return [" or ".join(chunks)] * len(parts)
    if len(chunks) == len(parts):
        return list(chunks)
    return [None] * len(parts)


#: Labels are looked for in this many last characters of a reply with no final-answer span.
LABEL_WINDOW = 6_000


def labelled_anywhere(text: str, parts: Sequence[Part]) -> list[str | None] | None:
    """Labelled parts in the end of a reply (for replies with no final-answer span)."""
    return _labelled(text[-LABEL_WINDOW:], parts)

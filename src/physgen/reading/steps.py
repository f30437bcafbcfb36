"""Step-level grading: find each intermediate of a variant in the reply's reasoning.

The reasoning is the reply before its final answer (:mod:`.span`). It is read a line or
sentence at a time with the same stages as answers (:mod:`.numbers`, :mod:`.units`,
:mod:`.compare`): every stated value with the unit written after it, the numbers
written inside a calculation (``14.39 × 3.15``, bare), but not the unevaluated links
of an equation chain. An intermediate is *found* at a value within the tolerance, or
equal to it rounded to the figures written (at least two), after unit conversion; a
bare number is read in the intermediate's unit or in SI.

Order counts: the intermediates of one step may come in any order, but a value counts
for its step only if it comes after the values credited to earlier steps and before
those credited to later ones (the alignment credits as many steps as it can and, on a
tie, the later steps). The policy, and where it can be fooled: ``docs/grading.md``.

>>> import physgen
>>> v = next(physgen.generate(["electricity.rlc_series_circuit"], n=1))
>>> [i.text for i in v.intermediates.values()]
['2.11 Ω', '276 Ω']
>>> reply = "X_L = 2π·240·0.0014 = 2.11 Ω and X_C = 0.276 kΩ. Final answer: (a) 429 Ω (b) 40.6 mA (c) -39.7°"
>>> g = grade_steps(v, reply)
>>> g.score, g.first_error, g.steps[1].parsed
(1.0, None, '0.276 kΩ')
>>> grade_steps(v, "X_L = 21.1 Ω. Final answer: 429 Ω, 40.6 mA, -39.7°. (X_C = 276 Ω)").first_error
'X_L'
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from array import array
from collections.abc import Sequence
from typing import NamedTuple

from ..letters import GREEK
from ..units import to_si
from ..variant import Intermediate, Variant
from .compare import RTOL, agrees, allowance, conversion
from .numbers import normalise, runs
from .quantity import unit_after
from .span import MAX_REPLY, answer_span, clean_reply
from .verdict import StepGrade, StepReason, StepVerdict

#: Longest piece of text read at once (the normaliser reads at most 1,200 characters).
MAX_PIECE = 1_000
#: Least number of figures a value must show to be accepted as a rounding.
MIN_ROUNDED_FIGURES = 2

_PIECE = re.compile(r"[^\n]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LITERAL = re.compile(r"(?<![\w.^])(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?")
_CLAUSE_WORDS = "and|so|then|with|where|using|given|gives|since|for|at"
#: An arrow before a new statement (``112.67 kJ → T_f = … = 203.7 K``) means "so": it ends a clause,
#: while an arrow before a value or an expression (``v -> 3 m/s``) is a link of a chain.
_ARROW_SO = r"(?:->|→|⇒)(?=\s*[^\W\d][^\s=≈,;()]{0,20}\s*[=≈])"
_CLAUSE = re.compile(  # (?=…): fail fast
    rf"(?=[;\n.:,astwugf\-→⇒])(?:[;\n]|[.:,](?=\s)|\b(?:{_CLAUSE_WORDS})\b|{_ARROW_SO})")
#: An equation sign ahead in the value's clause and sentence: the value is a link of a chain
#: (``14.4 × 3 = …``), so its own value is not stated yet (:data:`.quantity._CHAIN_AHEAD`, with
#: the clause ending at :data:`_CLAUSE`, a sentence stop or a comparison as well: in
#: ``i = 36.8° > 2r = 35.4°`` the 36.8° is stated).
_AHEAD = re.compile(
    rf"(?:(?!\b(?:thus|{_CLAUSE_WORDS})\b|[.!?:](?:\s|$)|[.:,](?=\s)|{_ARROW_SO})[^,;\n<>≤≥])*?"
    rf"(?:=|≈|(?!{_ARROW_SO})(?:->|→|⇒))")
#: A bracket right after a value: an aside ("28.4 nC (q = …)"), so the value is no link of a chain.
_BRACKET_AFTER = re.compile(r"\s+\(")
_LABEL = re.compile(r"([^\s=≈]+(?:\s*/\s*[^\s=≈]+)?)\s*$")
_PLAIN = re.compile(r"[\\_{}()$\s*]")  # a prime stays: E1′ is not E1
_LEAD = re.compile(r"[A-Za-z]+")
# the text after a value up to its clause's end, when it starts as a unit may (a letter or a sign)
_UNIT_HEAD = re.compile(r"(?=\s{0,3}[^\W\d_]|\s{0,3}[°%µΩ\\Å℃℉])"
                        r"(?:[^=,;\n]{0,60}?(?=\s*(?:[=,;\n]|$))|[^=,;\n]{0,60})")
_MARK = "¶"  # joins lines in a batch; the ";" ends a clause, the mark tells which line a value is on
_JOIN = f" ;{_MARK} "
_MARKS = re.compile(_MARK)
_SHORT_WORDS = frozenset({"is", "so", "as", "at", "of", "to", "by", "in", "on", "if", "we", "a", "an", "i"})
_FUNCTION_BEFORE = re.compile(r"\b(?:sin|cos|tan|ln|log|exp|sqrt|arcsin|arccos|arctan)\s*$")
#: What :func:`_brackets` looks at: a bracket, an equation sign, or the mark that starts a line.
_BRACKET_SCAN = re.compile(rf"[()\[\]=≈{_MARK}]")
#: Where a clause or a chain's link ends (:data:`_CLAUSE` and the stops of :data:`_AHEAD`).
_STOPS = re.compile(rf"{_CLAUSE.pattern}|\bthus\b|[.!?:](?=\s|$)")
#: Brackets nested deeper than this are read as part of the bracket around them (bounds the work).
MAX_DEPTH = 4
#: Powers stated in decibels of a reference power, read as that power (the unit registry converts
#: them linearly, so -5.18 dBm would read -0.34 mW, not 0.303 mW); a dB alone is a ratio.
_DECIBEL_POWER = {"dBm": "mW", "dBW": "W"}
_OUTSIDE = 1 << 62  # "in no aside": the clause of such a value ends nowhere inside the text


class _Brackets(NamedTuple):
    """How brackets cut a normalised batch into clauses (:func:`_brackets`)."""

    masked: str  # the text as clauses are cut: no stop inside a bracketed expression, an aside's brackets ";"
    flat: str  # ``masked`` with every aside blanked: read there, a value outside the asides
    until: array[int] | None  # per position: where the innermost aside around it closes (None: no aside)
    formula: bytearray  # per position: 1 when the innermost group around it is part of an expression


def _brackets(t: str) -> _Brackets | None:
    """The bracketed groups of a normalised batch ``t``, or None when it has none.

    A group that holds an equation sign of its own is an *aside* (``(m = 1.20 kg, k = 182 N/m)``),
    a clause of its own: the values in it are named within it and end at its bracket, and for
    the values around it the aside is not there (it neither names them nor makes them links of
    a chain). Any other group is part of an expression (``min(t_s, T)``, ``(1 − 2/3)``): no
    comma or ``and`` in it ends a clause. A group closes on its own line; one left open is none,
    and one nested deeper than :data:`MAX_DEPTH` is read as part of the group around it.
    """
    if "(" not in t and "[" not in t:
        return None
    stack: list[list[int]] = []  # [open, aside (0 or 1), the open of the group around it or -1]
    deep = 0  # groups opened inside the deepest one kept, not yet closed
    groups: list[tuple[int, int, bool, int]] = []  # (open, close, aside, open of the group around)
    for m in _BRACKET_SCAN.finditer(t):
        ch, at = m.group(0), m.start()
        if ch in "([":
            if len(stack) < MAX_DEPTH:
                stack.append([at, 0, stack[-1][0] if stack else -1])
            else:
                deep += 1
        elif ch in ")]":
            if deep:
                deep -= 1
            elif stack:
                opened, aside, around = stack.pop()
                groups.append((opened, at, bool(aside), around))
        elif ch == _MARK:
            stack.clear()
            deep = 0
        elif stack:
            stack[-1][1] = 1
    if not groups:
        return None
    groups.sort()  # by opening: a group before the groups inside it, so they overwrite it below
    formula = bytearray(len(t) + 1)
    asides = [(opened, shut) for opened, shut, aside, _ in groups if aside]
    until = array("q", [_OUTSIDE]) * (len(t) + 1) if asides else None
    ends: dict[int, int] = {}  # open of a group -> where the innermost aside around it closes
    outer = []  # the asides in no other
    for opened, shut, aside, around in groups:
        formula[opened:shut + 1] = (b"\0" if aside else b"\1") * (shut + 1 - opened)
        if until is not None:
            if aside and ends.get(around, _OUTSIDE) == _OUTSIDE:
                outer.append((opened, shut))
            ends[opened] = end = shut if aside else ends.get(around, _OUTSIDE)
            until[opened:shut + 1] = array("q", [end]) * (shut + 1 - opened)
    # the text as clauses are cut: stops in an expression's brackets masked, an aside's brackets ";"
    is_aside = {opened: aside for opened, _, aside, _ in groups}
    edits = [(m.start(), m.end(), "~" * (m.end() - m.start()))  # each expression in no other scanned
             for opened, shut, aside, around in groups if not aside and is_aside.get(around, True)
             for m in _STOPS.finditer(t, opened + 1, shut) if formula[m.start()]]
    edits += [(at, at + 1, ";") for opened, shut in asides for at in (opened, shut)]
    masked = _edited(t, edits)
    flat = _edited(masked, [(opened, shut + 1, " " * (shut + 1 - opened)) for opened, shut in outer])
    return _Brackets(masked, flat, until, formula)


def _edited(t: str, edits: list[tuple[int, int, str]]) -> str:
    """``t`` with each (start, end) replaced by a text of the same length; the spans do not overlap."""
    if not edits:
        return t
    out: list[str] = []
    at = 0
    for start, end, text in sorted(edits):
        out += (t[at:start], text)
        at = end
    out.append(t[at:])
    return "".join(out)


class Found(NamedTuple):  # a tuple: made for every number read, and a dataclass costs 5x to make
    """A value stated in the reply: where it stands (``key`` orders values), its unit and the
    symbol it is assigned to (``label``, plain), and the piece of the reply it stands in."""

    key: int
    value: float
    unit: str
    text: str
    label: str
    literal: bool  # a number written inside a calculation
    start: int
    end: int
    piece: str


def _pieces(text: str) -> list[tuple[int, str]]:
    """Lines, cut into sentences when longer than :data:`MAX_PIECE`, with their offsets."""
    out: list[tuple[int, str]] = []
    for m in _PIECE.finditer(text):
        line, at = m.group(0), m.start()
        if len(line) <= MAX_PIECE:
            out.append((at, line))
            continue
        cut = 0
        for s in [*_SENTENCE_END.finditer(line), None]:
            stop = len(line) if s is None else s.end()
            if s is not None and stop - cut < MAX_PIECE:
                continue
            while stop - cut > MAX_PIECE:  # a sentence longer than a piece: cut it blindly
                out.append((at + cut, line[cut: cut + MAX_PIECE]))
                cut += MAX_PIECE
            if stop > cut:
                out.append((at + cut, line[cut:stop]))
                cut = stop
    return out


@functools.lru_cache(maxsize=4096)
def plain(symbol: str) -> str:
    """A symbol as it is compared: no TeX or spacing, Greek letters spelt out.

    >>> plain(r"\\omega_{0}"), plain("κa"), plain("X_L"), plain("E1'")
    ('omega0', 'kappaa', 'XL', 'E1′')
    """
    out = _PLAIN.sub("", symbol).replace("'", "′")
    return "".join(GREEK.get(ch, ch) for ch in out)


def _label(text: str, at: int, start: int, clauses: Sequence[tuple[int, int, int]]) -> str:
    """The symbol the value at ``at`` is assigned to in its clause (``X_L = … = 14.6``), plain;
    the clause starts at ``start`` at the earliest (the end of the value stated before).
    ``clauses``: the (start, end, until) of every :data:`_CLAUSE` boundary in ``text``, in order;
    a boundary inside an aside that closes (at ``until``) before the value is not the value's."""
    low = max(start, at - 200)
    k = bisect.bisect_right(clauses, (at, at, 0)) - 1
    while k >= 0 and clauses[k][0] >= low and (clauses[k][1] > at or clauses[k][2] <= at):
        k -= 1
    clause = text[clauses[k][1]:at] if k >= 0 and clauses[k][0] >= low else text[low:at]
    equals, approx = clause.find("="), clause.find("≈")
    cut = equals if approx < 0 or 0 <= equals < approx else approx
    if cut < 0:
        return ""
    rest = clause[:cut].rsplit(None, 3)  # a label spans at most 3 words ("v / c"): search from there
    m = _LABEL.search(clause, len(rest[0]) if len(rest) == 4 else 0, cut)
    if m is None or m.group(1).count(")") > m.group(1).count("("):
        return ""  # "GM/(R v_rot) = 9.29 m/s": the name ends an expression in brackets, and names nothing
    head = clause[:m.start()]
    words = head.rsplit(None, 1)  # the word before the label is the last
    last = words[-1] if words and words[-1] != _MARK else ""  # (the mark starts a line: no word)
    # (a function's name is at most 6 letters: search only where it may stand)
    if _FUNCTION_BEFORE.search(head, max(0, len(head.rstrip()) - 6)) or (
            last and ((len(plain(last)) <= 2 and last.lower() not in _SHORT_WORDS) or "_" in last
                      or last[-1].isdigit())):
        # "cos θ = 0.92", "g t = 45 m/s", "h_FE I_B = 19.8 mA" and "3.9/6.40 m = 0.61" assign no
        # value to θ, t, I_B or m (a name after a number is its unit or a factor)
        return ""
    return plain(m.group(1))


def read_values(text: str, offset: int = 0) -> list[Found]:
    """Every value stated in ``text``, in order (``offset``: where ``text`` starts in the reply).

    >>> [(f.value, f.unit, f.label, f.literal) for f in read_values("v_x = 21.1 × 0.682 = 14.4 m/s")]
    [(21.1, '', '', True), (0.682, '', '', True), (14.4, 'm/s', 'vx', False)]
    """
    out: list[Found] = []
    for batch in _batches(_pieces(text)):
        t = normalise(_JOIN.join(piece for _, piece in batch))
        base = (offset + batch[0][0]) * 4096  # a normalised batch is at most 1,200 characters long
        brackets = _brackets(t)
        until = None if brackets is None else brackets.until
        # where each value stated ends, and where the aside it stands in closes: a new clause
        # starts after the last one stated, not counting those in an aside closed before
        stated: list[tuple[int, int]] = [(0, _OUTSIDE)]
        clauses = [(m.start(), m.end(), until[m.start()] if until else _OUTSIDE)
                   for m in _CLAUSE.finditer(t if brackets is None else brackets.masked)]
        marks = [m.start() for m in _MARKS.finditer(t)]
        for run in runs(t):
            at, piece = batch[bisect.bisect_left(marks, run.start)] if marks else batch[0]
            head = _UNIT_HEAD.match(t, run.end)
            unit, length = unit_after(head.group(0), "") if head else ("", 0)
            end = run.end + length
            inside = until[run.start] if until else _OUTSIDE  # the aside the value stands in closes there
            cut = t if brackets is None else brackets.masked if inside < _OUTSIDE else brackets.flat
            # a bracket right after it starts an aside, unless the value stands in a formula ("4 (M + m)");
            # there a bare number is one of the formula's ("(g + 3σk²/ρ)")
            in_formula = brackets is not None and brackets.formula[run.start]
            aside_after = not in_formula and _BRACKET_AFTER.match(t, end) is not None
            link = (in_formula and not unit) or (
                not aside_after and _AHEAD.match(cut, end, end + 200) is not None)
            where = (offset + at, offset + at + len(piece), piece)
            if link or _LITERAL.fullmatch(run.text) is None:  # a calculation: the numbers written in it
                for m in _LITERAL.finditer(run.text):
                    out.append(Found(base + run.start + m.start(), float(m.group(0)), "", m.group(0), "",
                                     True, *where))
            if link or unit.startswith("?"):
                continue
            while stated[-1][1] <= run.start:
                stated.pop()
            value = run.value
            if unit in _DECIBEL_POWER and abs(value) < 3000:  # (10^300 at most: no overflow)
                value, unit = 10.0 ** (value / 10), _DECIBEL_POWER[unit]
            out.append(Found(base + run.start, value, unit, t[run.start:end].strip(),
                             _label(cut, run.start, stated[-1][0], clauses), False, *where))
            stated.append((end, inside))
    return out


def _batches(pieces: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Consecutive pieces joined into batches of at most :data:`MAX_PIECE` characters, so that
    short lines are normalised together (the normaliser's cost is mostly per call)."""
    out: list[list[tuple[int, str]]] = []
    size = MAX_PIECE
    for at, piece in pieces:
        if size + len(piece) + len(_JOIN) > MAX_PIECE:
            out.append([])
            size = 0
        out[-1].append((at, piece))
        size += len(piece) + len(_JOIN)
    return out


def _conversion(found: Found, unit: str) -> tuple[float, float] | None:
    """(factor, offset) from the unit ``found`` is stated in to ``unit``, or None. A value stated
    for a name times c or c² (``pc = 6.83 MeV``, ``mc² = 938 MeV``) is the name's in that unit
    over c or c² (6.83 MeV/c), when its unit alone does not convert."""
    conv = conversion(found.unit, unit)  # cached
    if conv is None and found.label[-1:] == "c" and len(found.label) > 1:
        return conversion(f"{found.unit}/c", unit)
    if conv is None and found.label.endswith(("c^2", "c2")) and len(found.label) > 3:
        return conversion(f"{found.unit}/c^2", unit)
    return conv


def _figures(number: str) -> int:
    """Significant figures written in a plain number (``0.00487`` has 3, ``1.0e5`` has 2)."""
    digits = re.sub(r"\D", "", number.lower().split("e")[0]).lstrip("0")
    return max(len(digits), 1)


def matches(found: Found, value: float, unit: str, rtol: float) -> bool:
    """Whether ``found`` states ``value`` (in ``unit``): within ``rtol``, or equal to it rounded
    to the figures written (at least :data:`MIN_ROUNDED_FIGURES`), after conversion; a bare
    number is read in ``unit`` or in SI. A number written inside a calculation (``5.666/31.5``)
    counts only as a rounding: within the tolerance, another quantity's value would do.

    >>> f = read_values("t = 486 ms")[0]
    >>> matches(f, 0.4863, "s", 0.01), matches(read_values("r ≈ 14 m/s")[0], 14.39, "m/s", 0.01)
    (True, True)
    """
    if found.unit:
        conv = _conversion(found, unit)
        targets = [] if conv is None else [(found.value * conv[0] + conv[1], conv)]
    else:
        si = to_si(unit)  # cached
        factor, shift = si.factor, si.offset
        to_unit = (1.0 / factor, -shift / factor)  # a bare number in SI, read in ``unit``
        targets = [(found.value, (1.0, 0.0)), (found.value * to_unit[0] + to_unit[1], to_unit)]
    for got, (factor, shift) in targets:
        # a number inside a calculation must round to it
        if not found.literal and agrees(got, value, unit, rtol):
            return True
        if abs(got - value) > 0.1 * abs(value):  # further than any rounding to 2 figures moves it
            continue
        figures = _figures(found.text) if found.literal or _LITERAL.match(found.text) else 0
        if figures >= MIN_ROUNDED_FIGURES and factor:
            written = (value - shift) / factor  # the expected value in the unit written
            if written and float(f"{written:.{figures - 1}e}") == _number(found.text):
                return True
    return False


def _matching(found: list[Found], value: float, unit: str, rtol: float) -> list[Found]:
    """The values of ``found`` that state ``value`` (:func:`matches`), in order."""
    return [f for f in _near(found, value, unit, rtol) if matches(f, value, unit, rtol)]


def _near(found: list[Found], value: float, unit: str, rtol: float) -> list[Found]:
    """The values of ``found`` that :func:`matches` may accept for ``value``: within its
    tolerance (:func:`~physgen.reading.compare.allowance`) or 10 % of it (as a rounding), read in
    its unit or, bare, in SI. A quick first sieve."""
    slack = max(0.1 * abs(value), allowance(value, unit, rtol)) + 1e-12
    si = to_si(unit)  # cached
    low, high = value - slack, value + slack
    low_si, high_si = sorted((low * si.factor + si.offset, high * si.factor + si.offset))
    out = []
    for f in found:
        if f.unit:
            conv = _conversion(f, unit)
            if conv is not None and low <= f.value * conv[0] + conv[1] <= high:
                out.append(f)
        elif low <= f.value <= high or low_si <= f.value <= high_si:
            out.append(f)
    return out


def _number(text: str) -> float:
    m = _LITERAL.match(text)
    return float(m.group(0)) if m else math.nan


def _align(occurrences: Sequence[Sequence[int]], after: Sequence[Sequence[int]]) -> list[int | None]:
    """The position credited to each intermediate (in step order), or None: as many credited as
    possible, each after the positions credited to those it must follow (``after[i]``: the
    indices, all below ``i``, of the intermediates of earlier steps it is found from); on a tie
    the later intermediates are credited. The usual case first: when each is found after those
    it follows, its first value there is the answer, with nothing to weigh."""
    picks = _as_they_come(occurrences, after)
    return picks if None not in picks else _align_exhaustive(occurrences, after)


def _as_they_come(occurrences: Sequence[Sequence[int]], after: Sequence[Sequence[int]]) -> list[int | None]:
    """Each intermediate credited at its first value after those it follows that are credited
    (None: no such value), without weighing."""
    picks: list[int | None] = []
    for occ, before in zip(occurrences, after, strict=True):
        low = max((p for j in before if (p := picks[j]) is not None), default=-1)
        picks.append(next((p for p in occ if p > low), None))
    return picks


#: States :func:`_align_exhaustive` may weigh (2^k at most for k intermediates: every template's are
#: weighed fully); a hostile variant that needs more, or has more than :data:`MAX_ALIGN_DEPTH`
#: intermediates (the weighing recurses once per intermediate), is credited as its values come.
MAX_ALIGN_STATES = 1 << 14
MAX_ALIGN_DEPTH = 200


class _TooMany(Exception):
    """The weighing needs more than :data:`MAX_ALIGN_STATES` states."""


def _align_exhaustive(occurrences: Sequence[Sequence[int]], after: Sequence[Sequence[int]]) -> list[
        int | None]:
    """:func:`_align` by weighing, for each intermediate in turn, crediting it at its first value
    after those it follows or not (memoised on the least position each later one may take)."""
    k = len(occurrences)
    follows = [set(a) for a in after]
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, list[int | None]]] = {}

    def best(i: int, lows: tuple[int, ...]) -> tuple[int, list[int | None]]:
        # lows[m - i]: the least position intermediate m may take (after those it follows, credited)
        if i == k:
            return 0, []
        if (i, lows) in memo:
            return memo[(i, lows)]
        if len(memo) >= MAX_ALIGN_STATES:
            raise _TooMany
        count, rest = best(i + 1, lows[1:])
        choice = (count, [None, *rest])
        first = next((p for p in occurrences[i] if p > lows[0]), None)
        if first is not None:
            raised = tuple(max(low, first) if i in follows[m] else low
                           for m, low in enumerate(lows[1:], start=i + 1))
            count, rest = best(i + 1, raised)
            if count + 1 > choice[0]:
                choice = (count + 1, [first, *rest])
        memo[(i, lows)] = choice
        return choice

    if k <= MAX_ALIGN_DEPTH:
        try:
            return best(0, (-1,) * k)[1]
        except _TooMany:
            pass
    return _as_they_come(occurrences, after)


def _aliases(variant: Variant) -> dict[str, str]:
    """Plain symbol -> the intermediate or answer it names: each name; and, when no other name
    shares it, a name's leading letters (``gamma`` for ``gamma_m``) or the symbol the worked steps
    write an intermediate's value under (:func:`_written`: ``s′`` for ``s_i``, ``R`` for ``R_s``),
    but not leading letters other than that symbol (the steps' ``s′ = … = 1693 mm`` leaves a bare
    ``s`` to the object distance)."""
    items = tuple((n, i.value, i.unit, i.step) for n, i in variant.intermediates.items())
    return _aliases_of((*variant.intermediates, *variant.answers), tuple(variant.inputs),
                       _written(variant.steps, items))


@functools.lru_cache(maxsize=1024)
def _written(steps: tuple[str, ...], items: tuple[tuple[str, float, str, int], ...]) -> tuple[
        tuple[str, str], ...]:
    """(symbol, name) for each intermediate whose step assigns its value to one symbol that every
    step uses for its value alone (a word the steps assign two values to, ``… per year = 0.439 yr⁻¹``
    and ``… per year = 2.28 yr⁻¹``, names neither), read as a reply is read (plain; each step's
    first :data:`MAX_PIECE` characters)."""
    texts = [step[:MAX_PIECE].replace("\n", " ") if isinstance(step, str) else "" for step in steps]
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    read: list[list[Found]] = [[] for _ in texts]
    for f in read_values("\n".join(texts)):  # one reading: short lines are read together
        read[bisect.bisect_right(starts, f.start) - 1].append(f)
    under: dict[str, list[Found]] = {}
    for found in read:
        for f in found:
            if f.label and not f.literal:
                under.setdefault(f.label, []).append(f)
    out = []
    for name, value, unit, step in items:
        if not 0 <= step < len(steps):
            continue
        symbols = {f.label for f in read[step] if f.label and not f.literal and matches(f, value, unit, RTOL)}
        symbol = symbols.pop() if len(symbols) == 1 else ""
        if symbol and all(matches(f, value, unit, RTOL) for f in under[symbol]):
            out.append((symbol, name))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _named(names: tuple[str, ...]) -> dict[str, str]:  # per template
    """Plain name -> the intermediate or answer (``names``: the intermediates', then the answers'):
    the part of :func:`_aliases` no other symbol changes."""
    return {plain(n): n for n in names}


@functools.lru_cache(maxsize=1024)
def _aliases_of(names: tuple[str, ...], inputs: tuple[str, ...],
                written: tuple[tuple[str, str], ...]) -> dict[str, str]:  # per template (and instance)
    out = dict(_named(names))
    taken = {plain(n) for n in inputs}
    guesses: dict[str, set[str]] = {}  # a symbol other than a name -> the names it may stand for
    for n in [*names, *inputs]:
        m = _LEAD.match(n)
        if m:
            guesses.setdefault(m.group(0), set()).add(n)
    for symbol, name in written:
        guesses.setdefault(symbol, set()).add(name)
    symbol_of = dict((name, symbol) for symbol, name in written)
    for symbol, owners in guesses.items():
        if len(owners) > 1 or symbol in out or symbol in taken:
            continue
        owner = next(iter(owners))
        # leading letters that are not the symbol the steps write the quantity under name nothing
        if owner in names and symbol_of.get(owner, symbol) in (symbol, plain(owner)):
            out[symbol] = owner
    return out


def grade_steps(variant: Variant, reply: str, rtol: float = RTOL) -> StepGrade:
    """Find each of ``variant.intermediates`` in the reasoning of ``reply``, in step order."""
    items = variant.intermediates
    if not items:
        return StepGrade.of([])
    text = clean_reply(reply if isinstance(reply, str) else "")
    shift = max(0, len(reply) - MAX_REPLY) if isinstance(reply, str) else 0
    cut = answer_span(text, len(variant.answers))[2]  # shared with the answer grader (cached)
    before = read_values(text[:cut], shift)
    # the names alone serve a reply whose every symbol is a name (the worked steps are read for
    # other symbols only: the result is the same, for less work)
    aliases = _named((*variant.intermediates, *variant.answers))
    if any(f.label not in aliases for f in before if f.label):
        aliases = _aliases(variant)
    after = _Later(text[cut:], shift + cut, items, variant, rtol)
    names = list(items)
    givens = {q.value for q in variant.inputs.values()}  # as printed: a literal equal to one is the given
    # a value named for another quantity is not this one's, unless the two are the same number
    # here (V = max(V_a, V_b) = V_a: the name cannot tell them apart; the values are rounded alike)
    amount = {a: (x.value, x.unit) for a, x in variant.answers.items()}
    amount.update((a, (x.value, x.unit)) for a, x in items.items())
    hits = {n: [f for f in _matching(before, items[n].value, items[n].unit, rtol)
                if ((owner := aliases.get(f.label, n)) == n or amount.get(owner) == amount[n])
                and not (f.literal and _number(f.text) in givens)]
            for n in names}
    _closest(hits, items, aliases)
    steps = sorted({i.step for i in items.values()})
    groups = [[n for n in names if items[n].step == s] for s in steps]
    ordered = [n for group in groups for n in group]
    chosen = dict(zip(ordered, _align([[f.key for f in hits[n]] for n in ordered], _follows(ordered, items)),
                      strict=True))
    known = [(q.value, q.unit) for q in variant.inputs.values()]
    known += [(a.value, a.unit) for a in variant.answers.values()]
    known += [(i.value, i.unit) for i in items.values()]
    of_known = _Known(before, known, rtol)
    # "v_y = 0 at the top" states a condition, not a value found for the step; the letters of a
    # name with a number ("t" of t0) name the variable, and with a given's value they state the
    # given ("At t = 1.48 s": the moment asked about), not the step
    stated: dict[str, Found] = {}  # the last value stated for each name
    inputs = known[:len(variant.inputs)]
    for f in before:
        if not f.literal and f.value != 0 and f.label in aliases:
            name = aliases[f.label]
            if name[len(f.label):][:1].isdigit() and plain(name) != f.label and any(
                    (not f.unit or conversion(f.unit, u) is not None) and matches(f, v, u, rtol)
                    for v, u in inputs):
                continue
            stated[name] = f
    verdicts = []
    for g, group in enumerate(groups):
        low = max((p for h in groups[:g] for n in h if (p := chosen[n]) is not None), default=-1)
        high = min((p for h in groups[g + 1:] for n in h if (p := chosen[n]) is not None), default=1 << 62)
        for n in group:
            verdicts.append(_verdict(n, items[n], before, after, hits[n], chosen[n], stated.get(n),
                                     (low, high), of_known, rtol))
    return StepGrade.of(verdicts)


def _follows(names: list[str], items: dict[str, Intermediate]) -> list[list[int]]:
    """For each of ``names`` (in step order), the indices of those it must come after in a reply:
    the intermediates of earlier steps it is found from (:attr:`Intermediate.uses`, read from the
    solution graph), or every one of an earlier step when the variant does not record them. The
    intermediates of one step, and those found from none of each other, may come in any order."""
    out = []
    for i, n in enumerate(names):
        uses, step = items[n].uses, items[n].step
        found_from = None if uses is None else set(uses)
        out.append([j for j, m in enumerate(names[:i])
                    if items[m].step < step and (found_from is None or m in found_from)])
    return out


def _closest(hits: dict[str, list[Found]], items: dict[str, Intermediate], aliases: dict[str, str]) -> None:
    """Keep an unnamed value that matches several intermediates (within 1 % of each other) only
    in the hits of those it is closest to, in place. Closeness is measured beyond the rounding
    of the figures written: ``0.252`` is θ_d's (0.2520), not θ_pix's (0.2511), while ``0.25``
    is either's, and equal intermediates share their values."""
    owners: dict[int, list[tuple[float, str]]] = {}
    for n, found in hits.items():
        for f in found:
            if f.label not in aliases:
                owners.setdefault(f.key, []).append((_beyond_rounding(f, items[n].value, items[n].unit), n))
    drop = {(key, n) for key, near in owners.items() if len(near) > 1
            for distance, n in near if distance > min(near)[0]}
    if drop:
        for n, found in hits.items():
            hits[n] = [f for f in found if (f.key, n) not in drop]


def _beyond_rounding(found: Found, value: float, unit: str) -> float:
    """How far ``found`` lies from ``value`` (in ``unit``), relative, less half the last figure
    written (at least 0); ``inf`` when it cannot be read in ``unit``."""
    number = _number(found.text)
    half = 0.0
    if number and math.isfinite(number):
        half = 0.5 * 10.0 ** (math.floor(math.log10(abs(number))) - _figures(found.text) + 1)
    if found.unit:
        conv = _conversion(found, unit)
        convs = [] if conv is None else [conv]
    else:
        si = to_si(unit)
        convs = [(1.0, 0.0), (1.0 / si.factor, -si.offset / si.factor)] if si.factor else [(1.0, 0.0)]
    scale = abs(value) or 1.0
    return min((max(0.0, abs(found.value * a + b - value) - half * abs(a)) / scale for a, b in convs),
               default=math.inf)


class _Later:
    """The values stated after the final answer, read only when a step is not found before it."""

    def __init__(self, text: str, offset: int, items: dict[str, Intermediate], variant: Variant,
                 rtol: float) -> None:
        self.text, self.offset, self.items, self.variant, self.rtol = text, offset, items, variant, rtol

    @functools.cached_property
    def values(self) -> list[Found]:
        return read_values(self.text, self.offset)

    @functools.cached_property
    def hits(self) -> dict[str, list[Found]]:
        hits = {n: _matching(self.values, i.value, i.unit, self.rtol) for n, i in self.items.items()}
        _closest(hits, self.items, _aliases(self.variant))
        return hits

    def matching(self, name: str) -> list[Found]:
        """The values after the answer that state ``name`` (:func:`matches`, :func:`_closest`)."""
        return self.hits[name]


class _Known:
    """The values stated before the answer, with a unit, that state a known quantity (a given, an
    answer or an intermediate, each in a unit its own converts to): found once, when a step is
    neither found nor stated under its name, for every such step (checking each value against every
    known quantity for each step grew as the cube of a hostile variant's size)."""

    def __init__(self, before: list[Found], known: list[tuple[float, str]], rtol: float) -> None:
        self.before, self.known, self.rtol = before, known, rtol

    @functools.cached_property
    def values(self) -> frozenset[Found]:
        stated = [f for f in self.before if f.unit and not f.literal]
        return frozenset(f for v, u in self.known for f in _matching(stated, v, u, self.rtol)
                         if conversion(f.unit, u) is not None)


def _verdict(name: str, item: Intermediate, before: list[Found], after: _Later, hits: list[Found],
             chosen: int | None, last: Found | None, window: tuple[int, int],
             known: _Known, rtol: float) -> StepVerdict:
    value, unit, text, step = item.value, item.unit, item.text, item.step
    if last and not matches(last, value, unit, rtol) and (not last.unit or conversion(last.unit, unit)):
        return _made(name, step, "wrong_value", text, last)  # its last statement is wrong
    if chosen is not None:
        return _made(name, step, "correct", text, next(f for f in hits if f.key == chosen))
    if hits:
        return _made(name, step, "out_of_order", text, hits[0])
    late = after.matching(name)
    if late:
        return _made(name, step, "after_answer", text, late[0])
    low, high = window
    for f in before:  # a value of its kind, stated where the step stands, that is no known quantity
        if f.unit and not f.literal and low < f.key < high and conversion(f.unit, unit) is not None \
                and f not in known.values:
            return _made(name, step, "wrong_value", text, f)
    return StepVerdict(name, step, False, "missing", text)


def _made(name: str, step: int, reason: StepReason, expected: str, found: Found) -> StepVerdict:
    return StepVerdict(name, step, reason == "correct", reason, expected, found.text,
                       found.piece.strip()[:200], found.start, found.end)

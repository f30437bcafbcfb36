"""Grade model responses: extract the final answer, read it, compare it with units.

Extraction takes the text after the last "Final Answer" / "Answer:" / "The answer
is" marker (markdown bold too), else the last ``\\boxed{}``, else the whole
response (its last quantity). Multi-part answers are split by ``(a)``/``(b)``
labels or by answer name (``R = …``), else taken in order. A bare number is read
in the unit the question asked for; a number with a unit is converted by Pint,
and a unit of the wrong dimension is wrong. Nothing here raises on a response:
a malformed one is graded wrong, with a reason.

>>> g = grade_answer("... so the field is **Final Answer:** 5.8 × 10^5 N/C", "5.84e5 N/C")
>>> g.correct, g.parts[0].reason
(True, 'correct')
>>> grade_answer("E = 584 kN/C", "5.84e5 N/C").correct
True
>>> grade_answer("E = 584 kN", "5.84e5 N/C").parts[0].reason
'wrong_unit_dimension'
>>> grade_answer("I think (C) 4.2 m", "C", options={"A": "1.0 m", "B": "2.0 m", "C": "4.2 m"}).correct
True
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .parsing import (
    GREEK,
    KNOWN_NAMES,
    conversion,
    evaluate,
    normalise,
    numbers,
    read_quantity,
    to_python,
    unit_of,
)
from .variant import Variant

Source = Literal["marker", "boxed", "last_quantity", "none"]
Reason = Literal["correct", "wrong_value", "wrong_unit_dimension", "missing", "unparseable", "ambiguous"]

#: Only the last this-many characters of a response are searched (answers come last).
MAX_RESPONSE = 20_000
#: Longest final-answer span kept after a marker.
MAX_SPAN = 800
#: Random points at which algebraic answers are compared.
EQUIVALENCE_POINTS = 5

_MARKER = re.compile(r"final\s*answer|the\s+(?:final\s+)?answer\s+is|answer\s*:", re.I)
_BOXED = "\\boxed{"
_LETTERS = "ABCDEFGH"
_PART_LETTERS = "abcdefgh"


@dataclass(frozen=True)
class PartGrade:
    """One asked quantity: was it right, what was read, and why."""

    name: str
    correct: bool
    reason: Reason
    expected: str
    parsed: str | None = None
    value: float | None = None  # what was read, in the expected unit
    detail: str = ""


@dataclass(frozen=True)
class Grade:
    """A graded response: ``correct`` when every part is, ``score`` the fraction that are."""

    correct: bool
    score: float
    parts: tuple[PartGrade, ...]
    extracted: str = ""
    source: Source = "none"  # where the answer came from; last_quantity means no committed answer

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (for graded JSONL files)."""
        return {
            "correct": self.correct, "score": self.score, "extracted": self.extracted,
            "source": self.source,
            "parts": [p.__dict__.copy() for p in self.parts],
        }


@dataclass(frozen=True)
class _Expected:
    name: str
    value: float
    unit: str
    text: str
    expr: str | None = None
    points: Mapping[str, float] = field(default_factory=dict)


# -- extraction ------------------------------------------------------------------
def _boxed(text: str) -> str | None:
    start = text.rfind(_BOXED)
    if start < 0:
        return None
    depth, i = 1, start + len(_BOXED)
    end = min(len(text), i + MAX_SPAN)
    while i < end:
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + len(_BOXED): i]
        i += 1
    return None


def _first_line(span: str) -> str:
    """The first line of a span when it holds a number (``The answer is 2.\nStep 1: …``)."""
    first = span.split("\n", 1)[0]
    return first if re.search(r"\d", first) else span


def final_span(response: str) -> tuple[str, Source]:
    """The part of a response that states the final answer, and how it was found."""
    tail = response[-MAX_RESPONSE:]
    found = [(m.start(), m.end()) for m in _MARKER.finditer(tail)]
    starts = [start for start, _ in found[1:]] + [len(tail)] if found else []
    fallback = None
    for (_, end), stop in reversed(list(zip(found, starts, strict=True))[-50:]):
        # the last marker followed by something to read, up to the next marker
        span = tail[end: min(stop, end + MAX_SPAN)].lstrip(" *:_\t\n").split("\n\n", 1)[0]
        boxed = _boxed(span)
        span = boxed if boxed is not None else span.strip()
        if re.search(r"[\dA-H]", span):
            return span, "marker"
        fallback = span if fallback is None else fallback
    if fallback is not None:
        return fallback, "marker"
    boxed = _boxed(tail)
    if boxed is not None:
        return boxed, "boxed"
    if not tail.strip():
        return "", "none"
    return tail[-MAX_SPAN:], "last_quantity"


# -- multi-part splitting ---------------------------------------------------------
def _label_pattern(index: int, name: str) -> re.Pattern[str]:
    letter = _PART_LETTERS[index]
    return re.compile(
        rf"\(\s*{letter}\s*\)|(?:^|(?<=\s))\**{letter}\**[).:](?=\s)|"
        rf"(?<![\w]){re.escape(name)}\s*(?:=|:|≈|\\approx)"
    )


def _segments(text: str, parts: Sequence[_Expected]) -> list[str | None]:
    """Text labelled for each part (by (a)/(b)/… or by name), or None where unlabelled."""
    hits: list[tuple[int, int, int]] = []  # (start, end, part index)
    for k, part in enumerate(parts):
        for m in _label_pattern(k, part.name).finditer(text):
            hits.append((m.start(), m.end(), k))
    if not hits:
        return [None] * len(parts)
    hits.sort()
    segments: list[str | None] = [None] * len(parts)
    for j, (_, end, k) in enumerate(hits):
        stop = hits[j + 1][0] if j + 1 < len(hits) else len(text)
        segments[k] = text[end:stop]  # the last label of a part wins
    return segments


# -- comparing ----------------------------------------------------------------------
def _close(value: float, expected: float, rtol: float) -> bool:
    return abs(value - expected) <= rtol * abs(expected) + 1e-12 * (expected == 0)


def _grade_quantity(exp: _Expected, segment: str | None, rtol: float, ignore_units: bool) -> PartGrade:
    if segment is None or not segment.strip():
        return PartGrade(exp.name, False, "missing", exp.text, detail="no answer found")
    found = read_quantity(segment)
    if found is None:
        return PartGrade(exp.name, False, "unparseable", exp.text,
                         detail=f"no number in {segment.strip()[:60]!r}")
    value, unit = found
    parsed = f"{value:g} {unit}".strip()
    if unit and not ignore_units:
        conv = conversion(unit, exp.unit)
        if conv is None:
            return PartGrade(exp.name, False, "wrong_unit_dimension", exp.text, parsed,
                             detail=f"{unit!r} cannot be converted to {exp.unit!r}")
        value = value * conv[0] + conv[1]
    ok = _close(value, exp.value, rtol)
    return PartGrade(exp.name, ok, "correct" if ok else "wrong_value", exp.text, parsed, value)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _plain(name: str) -> str:
    return name.replace("_", "").replace("{", "").replace("}", "")


def _grade_expression(exp: _Expected, segment: str | None, rtol: float) -> PartGrade:
    assert exp.expr is not None
    if segment is None or not segment.strip():
        return PartGrade(exp.name, False, "missing", exp.text, detail="no answer found")
    t = normalise(segment)
    for greek, word in GREEK.items():
        t = t.replace(greek, f" {word} ")
    t = t.split("=")[-1].strip().rstrip(".,;: ")
    variables = sorted({n for n in _NAME.findall(exp.expr) if n not in KNOWN_NAMES})
    by_plain = {_plain(v): v for v in variables}
    text = _NAME.sub(lambda m: by_plain.get(_plain(m.group(0)), m.group(0)), to_python(t))
    rng = random.Random(int(hashlib.blake2b(exp.expr.encode(), digest_size=8).hexdigest(), 16))
    for _ in range(EQUIVALENCE_POINTS):
        point = {v: exp.points.get(v, 1.0) * rng.uniform(0.7, 1.3) for v in variables}
        try:
            want = evaluate(exp.expr, point)
        except ValueError:
            continue  # outside the expected expression's domain: try another point
        try:
            got = evaluate(text, point)
        except ValueError as err:
            return PartGrade(exp.name, False, "unparseable", exp.text, t[:80], detail=str(err))
        if not _close(got, want, rtol):
            return PartGrade(exp.name, False, "wrong_value", exp.text, t[:80],
                             detail=f"differs at {point}")
    return PartGrade(exp.name, True, "correct", exp.text, t[:80])


_LETTER = re.compile(
    r"\(\s*([A-H])\s*\)|\*\*\s*([A-H])\s*\*\*|(?:^|(?<=[\s:]))([A-H])(?=[).:,]|\s*$|\s+\S*\d)"
)


def _grade_letter(exp: _Expected, span: str, options: Mapping[str, str]) -> PartGrade:
    letters = {next(g for g in m.groups() if g) for m in _LETTER.finditer(span)}
    letters &= set(options)
    if not letters:
        flat = " ".join(span.split()).lower()
        letters = {k for k, v in options.items() if v and " ".join(v.split()).lower() in flat}
    if not letters:
        return PartGrade(exp.name, False, "missing" if not span.strip() else "unparseable",
                         exp.text, detail="no option letter found")
    if len(letters) > 1:
        return PartGrade(exp.name, False, "ambiguous", exp.text, ",".join(sorted(letters)),
                         detail="more than one option chosen")
    (letter,) = letters
    ok = letter == exp.text
    return PartGrade(exp.name, ok, "correct" if ok else "wrong_value", exp.text, letter)


# -- public API ----------------------------------------------------------------------
def _grade(response: Any, parts: list[_Expected], rtol: float,
           options: Mapping[str, str] | None, ignore_units: bool = False) -> Grade:
    if not isinstance(response, str):
        response = "" if response is None else str(response)
    source: Source = "none"
    try:
        span, source = final_span(response)
        if options is not None:
            results = [_grade_letter(parts[0], span, options)]
        else:
            segments = _segments(span, parts)
            if len(parts) > 1 and all(s is None for s in segments):
                segments = _in_order(span, len(parts))  # "Final Answer: 35.3 m, 2.04 s, 5.10 m"
            if len(parts) > 1 and all(s is None for s in segments):
                segments = _segments(response[-MAX_RESPONSE:], parts)  # labels before the marker
            if len(parts) == 1 and segments[0] is None:
                segments = [_first_line(span)]
            results = [
                _grade_expression(p, s, rtol) if p.expr else _grade_quantity(p, s, rtol, ignore_units)
                for p, s in zip(parts, segments, strict=True)
            ]
    except Exception as exc:  # a response must never crash grading
        span = ""
        results = [PartGrade(p.name, False, "unparseable", p.text, detail=f"{type(exc).__name__}")
                   for p in parts]
    score = sum(r.correct for r in results) / len(results)
    return Grade(all(r.correct for r in results), score, tuple(results), span[:MAX_SPAN], source)


def _in_order(span: str, n: int) -> list[str | None]:
    found = numbers(normalise(span))
    if len(found) < n:
        return [None] * n
    return [f"{v!r} {u}" for v, u, _ in found[:n]]


def _parse_expected(name: str, text: str) -> _Expected:
    found = read_quantity(text)
    if found is None:
        raise ValueError(f"expected answer {name}={text!r} is not a quantity like '5.84e5 N/C'")
    value, unit = found
    if unit_of(unit) is None:
        raise ValueError(f"expected answer {name}={text!r} has a unit Pint does not know")
    return _Expected(name, value, unit, text)


def grade_answer(
    response: str,
    expected: str | Mapping[str, str],
    *,
    options: Mapping[str, str] | Sequence[str] | None = None,
    rtol: float = 0.01,
    ignore_units: bool = False,
) -> Grade:
    """Grade ``response`` against ``expected``: a quantity string, a dict of them
    (multi-part, in asked order), or an option letter when ``options`` are given.

    ``ignore_units`` compares bare numbers only, for benchmarks whose questions
    fix the unit (TheoremQA); by default a unit in the response is converted.
    """
    if options is not None:
        if not isinstance(expected, str) or len(expected.strip()) != 1:
            raise ValueError("with options, expected is one option letter such as 'C'")
        opts = dict(options) if isinstance(options, Mapping) else dict(zip(_LETTERS, options, strict=False))
        letter = expected.strip().upper()
        if letter not in opts:
            raise ValueError(f"expected letter {letter!r} is not one of the options {sorted(opts)}")
        return _grade(response, [_Expected("answer", math.nan, "", letter)], rtol, opts)
    items = {"answer": expected} if isinstance(expected, str) else dict(expected)
    if not items:
        raise ValueError("expected needs at least one answer")
    parts = [_parse_expected(k, v) for k, v in items.items()]
    return _grade(response, parts, rtol, None, ignore_units)


_REFUSAL = re.compile(
    r"not enough|insufficient|missing|under-?specified|under-?determined|not (?:given|provided|"
    r"specified|stated|known)|no information|cannot (?:be )?(?:determined?|calculated?|found|computed?|"
    r"solved?)|can'?t (?:be )?(?:determined?|calculated?|computed?|solved?)|impossible to (?:determine|"
    r"calculate|compute)|need(?:s|ed)? (?:to know|more information|the value)|unknown (?:value|quantity)",
    re.I,
)


def _grade_underspecified(response: Any) -> Grade:
    text = response if isinstance(response, str) else ""
    tail = text[-MAX_RESPONSE:]
    span, source = final_span(tail)
    said = bool(_REFUSAL.search(span) or _REFUSAL.search(tail[-2000:]))
    part = PartGrade("underspecified", said, "correct" if said else "wrong_value", "underspecified",
                     detail="" if said else "did not say that data are missing")
    return Grade(said, float(said), (part,), span[:MAX_SPAN], source)


_CODE_BLOCK = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)


def extract_code(response: str) -> str:
    """The last fenced code block of a response (``python`` preferred), else the whole text."""
    blocks = _CODE_BLOCK.findall(response[-MAX_RESPONSE:])
    return blocks[-1] if blocks else response[-MAX_RESPONSE:]


def _grade_code(variant: Variant, response: Any, rtol: float, timeout: float) -> Grade:
    from .sandbox import run_function

    names = list(variant.answers)
    text = response if isinstance(response, str) else ""
    code = extract_code(text)
    result = run_function(code, "solve", [dict(c.inputs) for c in variant.code_tests], timeout=timeout)
    if result.status != "ok":
        reason: Reason = "unparseable" if result.status == "syntax" else "wrong_value"
        parts = tuple(PartGrade(n, False, reason, variant.answers[n].text,
                                detail=f"{result.status}: {result.error}") for n in names)
        return Grade(False, 0.0, parts, code[:MAX_SPAN], "marker")
    parts_out = []
    for k, name in enumerate(names):
        bad = ""
        for test, out in zip(variant.code_tests, result.outputs, strict=True):
            got = _pick_output(out, k, name, len(names))
            want = test.expected[name]
            if got is None or not _close(got, want, rtol):
                bad = f"solve({test.inputs}) gave {got!r} for {name}, expected {want:.6g}"
                break
        parts_out.append(PartGrade(name, not bad, "wrong_value" if bad else "correct",
                                   variant.answers[name].text, detail=bad))
    score = sum(p.correct for p in parts_out) / len(parts_out)
    return Grade(all(p.correct for p in parts_out), score, tuple(parts_out), code[:MAX_SPAN], "marker")


def _pick_output(out: Any, k: int, name: str, n: int) -> float | None:
    if isinstance(out, dict):
        value = out.get(name)
    elif isinstance(out, list):
        value = out[k] if k < len(out) else None
    else:
        value = out if n == 1 else None
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def grade(variant: Variant, response: str, *, rtol: float = 0.01, timeout: float = 10.0) -> Grade:
    """Grade a response to a generated variant: every asked quantity in order, the
    option letter of a multiple-choice variant, or, for an omitted-data probe,
    whether the response says that the problem cannot be solved as stated. A
    ``code`` variant's function is run in the sandbox (``timeout`` seconds)."""
    if variant.format == "code" and variant.code_tests:
        return _grade_code(variant, response, rtol, timeout)
    if variant.answer_key == "underspecified":
        return _grade_underspecified(response)
    if variant.options:
        key = _Expected(next(iter(variant.answers), "answer"), math.nan, "", variant.answer_key or "")
        return _grade(response, [key], rtol, variant.options)
    points = {n: q.value for n, q in variant.inputs.items()}
    parts = [
        _Expected(name, a.value, a.unit, a.text, a.expr, points)
        for name, a in variant.answers.items()
    ]
    return _grade(response, parts, rtol, None)

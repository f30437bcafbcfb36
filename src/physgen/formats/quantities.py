"""Grading free-text answers: every asked quantity (a number with a unit, or an
expression), read through the reading pipeline. The default grader of a format.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.projectile_range"], n=1, seed=0))
>>> [a.text for a in v.answers.values()]
['45.3 m', '3.15 s', '12.1 m']
>>> grade_quantities(v, "R = 45.3 m, t = 3.15 s and h = 1210 cm", GradeSettings()).correct
True
>>> grade_quantities(v, "Final answer: either 45 m or 50 m, 3.15 s, 12.1 m", GradeSettings()).parts[0].reason
'ambiguous'
>>> print(reference_quantities(v))
Final answer:
(a) 45.3 m
(b) 3.15 s
(c) 12.1 m
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..labels import PART_LETTERS
from ..reading.algebra import equivalent, to_expression
from ..reading.compare import agrees
from ..reading.numbers import KNOWN_NAMES
from ..reading.quantity import alternative_value, read_value
from ..reading.segment import Part, labelled_anywhere, split
from ..reading.span import MAX_SPAN, answer_tail, clean_reply, span_of, squeeze
from ..reading.verdict import Grade, PartGrade, Reason, Source
from ..variant import Answer, Variant
from .prompting import final_answer
from .registry import GradeSettings

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|\n")
_P2 = re.compile(r"\n\s*\n")
_P3 = re.compile(r"\d")
_P4 = re.compile(r"\d|=")
_P5 = re.compile(r"[A-Za-z]+")
_P6 = re.compile(r"[A-Za-z_]\w*")

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def parts_of(variant: Variant) -> list[Part]:
    """What the reader needs of each asked quantity."""
    return [Part(name, a.unit, a.expr is not None) for name, a in variant.answers.items()]


def locate(reply: str, parts: Sequence[Part]) -> tuple[list[str | None], str, Source]:
    """The text of each part in a reply, the span it came from, and how it was found.

    Where the reply has a final-answer marker or box, only what it holds counts: a part it
    does not give is missing, never recovered from the working."""
    text = clean_reply(reply)
    span, source = span_of(text, len(parts))
    if span is not None:
        return split(span, parts), span, source
    text = squeeze(text)
    labelled = labelled_anywhere(text, parts)
    if labelled is not None and any(s is not None for s in labelled):
        if len(parts) == 1 and labelled[0] is not None:  # "f = …" mid-text: that sentence only
            labelled = [_P1.split(labelled[0].lstrip(), maxsplit=1)[0]]
        return labelled, text[-MAX_SPAN:], "labels"
    tail = _last_statement(text, parts)
    if tail is None:
        return [None] * len(parts), "", "none"
    return split(tail, parts), tail, "last_quantity"


def _last_statement(text: str, parts: Sequence[Part]) -> str | None:
    """The last sentence (one part) or paragraph (several) that states something to read."""
    if len(parts) > 1:
        paragraphs = [p for p in _P2.split(text) if _P3.search(p)]
        return paragraphs[-1] if paragraphs else None
    for sentence in reversed(_SENTENCE.split(text)):
        if not _P4.search(sentence):
            continue
        if read_value(sentence, parts[0].unit).status != "unparseable":
            return sentence
    return None


def own_names(name: str) -> list[str]:
    """Names a part goes by in ``name = value``: its own, and its leading symbol."""
    lead = _P5.match(name)
    return [name, lead.group(0)] if lead else [name]


def grade_part(name: str, answer: Answer, segment: str | None, settings: GradeSettings,
               points: dict[str, float], names: Sequence[str] = ()) -> PartGrade:
    """One part's verdict from the text located for it."""
    if segment is None or not segment.strip():
        return PartGrade(name, False, "missing", answer.text, detail="no answer found for this part")
    evidence = segment.strip()[:200]
    if answer.expr is not None:
        symbols = {*points, *(n for n in _P6.findall(answer.expr) if n not in KNOWN_NAMES)}
        got = to_expression(segment, sorted(symbols))
        ok, why = equivalent(got, answer.expr, points, settings.rtol)
        reason: Reason = "correct" if ok else ("unparseable" if why.startswith("cannot") else "wrong_value")
        return PartGrade(name, ok, reason, answer.text, got[:80], detail=why, evidence=evidence)
    reading = read_value(segment, None if settings.ignore_units else answer.unit, settings.rtol, names)
    if reading.status != "ok" or reading.value is None:
        status: Reason = "unparseable" if reading.status == "ok" else reading.status
        return PartGrade(name, False, status, answer.text, reading.parsed or None,
                         detail=reading.detail, evidence=evidence)
    ok = agrees(reading.value, answer.value, "" if settings.ignore_units else answer.unit, settings.rtol)
    return PartGrade(name, ok, "correct" if ok else "wrong_value", answer.text, reading.parsed,
                     reading.value, evidence=evidence)


def grade_quantities(variant: Variant, reply: str, settings: GradeSettings) -> Grade:
    """Grade every asked quantity of ``variant`` in ``reply``."""
    parts = parts_of(variant)
    segments, span, source = locate(reply, parts)
    points = {n: q.value for n, q in variant.inputs.items()}
    results = [grade_part(p.name, variant.answers[p.name], seg, settings, points, own_names(p.name))
               for p, seg in zip(parts, segments, strict=True)]
    return Grade.of(contradicted(variant, reply, results, settings), span[:MAX_SPAN], source)


def contradicted(variant: Variant, reply: str, results: list[PartGrade],
                 settings: GradeSettings) -> list[PartGrade]:
    """``results`` with every numerical part that text after the final answer contradicts made
    ``ambiguous``: a note offering another value of the part's kind (``NOTE: with drag it would
    be 30 m``). A value that restates a part's answer or a given is no contradiction."""
    if settings.ignore_units or not any(p.value is not None for p in results):
        return results
    tail = answer_tail(clean_reply(reply), len(results))
    if not tail.strip():
        return results
    known = [(p.value, variant.answers[p.name].unit) for p in results if p.value is not None]
    known += [(q.value, q.unit) for q in variant.inputs.values()]
    out = []
    for k, p in enumerate(results):
        answer = variant.answers[p.name]
        if p.value is not None and answer.expr is None:
            label = PART_LETTERS[k] if len(results) > 1 else ""
            other = alternative_value(tail, answer.unit, p.value, known, settings.rtol, label)
            if other is not None:
                p = PartGrade(p.name, False, "ambiguous", p.expected, p.parsed, p.value,
                              f"after the final answer the reply offers {other!r}", p.evidence)
        out.append(p)
    return out

def reference_quantities(variant: Variant) -> str:
    """A reply in the documented layout that grades correct."""
    return final_answer([a.text for a in variant.answers.values()])

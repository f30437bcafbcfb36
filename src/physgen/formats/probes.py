"""Robustness probes: the same instance, changed so that a robust solver's answer
changes in a known way (or not at all).

* ``units``: inputs shown in other, equivalent units; the answer is unchanged.
* ``noop``: an irrelevant sentence with a number is added (GSM-NoOp); unchanged.
* ``omitted``: a given is removed; the parts that needed it become unanswerable
  (listed in ``Variant.unanswerable``), the others are graded as usual.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.projectile_range"], n=1, formats=["omitted"]))
>>> v.variant_id.rsplit(":", 1)[1], v.unanswerable
('theta', ('R', 't_flight', 'h_max'))
>>> physgen.grade(v, "The launch angle is not given, so none of these can be determined.").correct
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..instance import Instance
from ..reading.quantity import read_value
from ..reading.refusal import says_missing
from ..reading.span import MAX_SPAN, clean_reply
from ..reading.verdict import Grade, PartGrade, Reason
from ..render import Shown, format_number, join_number_unit
from ..template import Template
from ..units import format_unit, registry
from ..variant import ShownQuantity, Variant
from .prompting import asks, final_answer, make_variant, pick, render_text, with_instruction
from .quantities import grade_part, locate, own_names, parts_of
from .registry import FormatContext, GradeSettings, register_format

#: Inputs converted to another unit are shown to at least this many figures (error ≤ 0.05 %).
UNITS_MIN_SIG_FIGS = 4


def _has_alt_units(t: Template) -> bool:
    return t.question_type == "numerical" and any(i.alt_units for i in t.spec.inputs.values())


@register_format("units", applies=_has_alt_units)
def units(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """Inputs shown in other, equivalent units (≥ 4 significant figures); answer unchanged."""
    t = inst.template
    overrides: dict[str, str] = {}
    inputs = dict(inst.inputs)
    for name, spec in t.spec.inputs.items():
        if not spec.alt_units:
            continue
        unit = spec.alt_units[pick(inst.instance_id, name, "unit") % len(spec.alt_units)]
        shown = registry().Quantity(inst.inputs[name].value, spec.unit or "dimensionless")
        value = float(shown.to(unit).magnitude)
        digits = max(spec.sig_figs + 2, UNITS_MIN_SIG_FIGS)  # conversion must not move the answer
        number = format_number(value, digits, ctx.style, ctx.notation)
        text = join_number_unit(number, unit, ctx.style)
        overrides[name] = Shown(text, number, format_unit(unit, ctx.style))
        inputs[name] = ShownQuantity(float(f"{value:.{digits - 1}e}"), unit, text)
    prompt = render_text(inst, paraphrase, asks(t, paraphrase, ctx.style), overrides)
    yield make_variant(inst, paraphrase, "units", with_instruction(prompt, t), inputs=inputs)


NOOP_SENTENCES = (
    "The measurement is repeated {n} times and the readings agree.",
    "The room in which this happens is kept at {t} °C.",
    "A notebook on the bench lists {n} earlier, unrelated trials.",
    "Nearby, a {m} kg toolbox rests on the floor and plays no part.",
    "The laboratory clock shows that {n} minutes have passed since the session began.",
    "The equipment was last calibrated {n} days ago.",
    "A poster on the wall quotes a value of {x} for an unrelated experiment.",
)


@register_format("noop")
def noop(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """An irrelevant sentence with a number, placed just before the question; answer unchanged."""
    h = pick(inst.instance_id, "noop", paraphrase)
    sentence = NOOP_SENTENCES[h % len(NOOP_SENTENCES)].format(
        n=3 + h % 17, t=18 + h % 7, m=f"{1 + (h >> 8) % 90 / 10:.1f}", x=f"{(h >> 16) % 900 / 100 + 1:.2f}")
    text = render_text(inst, paraphrase, f"{sentence} {asks(inst.template, paraphrase, ctx.style)}")
    yield make_variant(inst, paraphrase, "noop", with_instruction(text, inst.template))


_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
_OMIT = "\x00omitted\x00"


def depends_on(t: Template, answer: str) -> set[str]:
    """The inputs an answer needs, through the earlier answers its expression uses.
    An answer computed by a solver function needs every input."""
    expr = t.expressions.get(answer)
    if expr is None:
        return set(t.spec.inputs)
    needed: set[str] = set()
    for sym in expr.free_symbols:
        name = str(sym)
        if name in t.spec.inputs:
            needed.add(name)
        elif name in t.spec.answers and name != answer:
            needed |= depends_on(t, name)
    return needed


def _numerical(t: Template) -> bool:
    return t.question_type == "numerical"


def omitted(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """A given's sentence is removed; the parts that needed it become unanswerable."""
    t = inst.template
    names = list(t.spec.inputs)
    name = names[pick(inst.instance_id, "omit", paraphrase) % len(names)]
    question = asks(t, paraphrase, ctx.style)
    full = render_text(inst, paraphrase, question, {name: _OMIT})
    text = " ".join(s for s in _SENTENCE_END.split(full) if _OMIT not in s)
    inputs = {n: q for n, q in inst.inputs.items() if n != name and q.text in text}
    gone = set(t.spec.inputs) - set(inputs)
    unanswerable = tuple(a for a in t.spec.answers if depends_on(t, a) & gone)
    yield make_variant(inst, paraphrase, "omitted", with_instruction(text, t), inputs=inputs,
                       unanswerable=unanswerable, id_suffix=name)


_ASSUMED = re.compile(
    r"\b(?:assum\w*|suppose|supposing|let'?s say|if we take|taking a typical|typical(?:ly)?)\b", re.I)


def _declines(segment: str | None, whole: str, unit: str) -> tuple[bool, str]:
    """Whether a reply declines to give a part a value, and if not, why not. ``segment`` is
    the text the reply committed for this part (a label or the final answer), if any."""
    assumed = _ASSUMED.search(whole)
    if assumed is not None and read_value(whole[assumed.start():], unit).status == "ok":
        return False, "assumed a value for the missing data and answered"
    if segment is not None and segment.strip() and not says_missing(segment) \
            and read_value(segment, unit).status == "ok":
        return False, "gave a value for a part the data do not determine"
    if says_missing(segment or "") or says_missing(whole):
        return True, ""
    return False, "did not say that data are missing"


def grade_omitted(variant: Variant, reply: str, settings: GradeSettings) -> Grade:
    """Each unanswerable part must be declined; each other part is graded as usual."""
    parts = parts_of(variant)
    segments, span, source = locate(reply, parts)
    whole = clean_reply(reply)[-4000:]
    points = {n: q.value for n, q in variant.inputs.items()}
    results: list[PartGrade] = []
    for part, seg in zip(parts, segments, strict=True):
        answer = variant.answers[part.name]
        if part.name in variant.unanswerable:
            ok, why = _declines(seg if source != "last_quantity" else None, whole, answer.unit)
            verdict: Reason = "correct" if ok else "wrong_value"
            results.append(PartGrade(part.name, ok, verdict, "cannot be determined", detail=why,
                                     evidence=(seg or "").strip()[:200]))
        else:
            results.append(grade_part(part.name, answer, seg, settings, points, own_names(part.name)))
    return Grade.of(results, span[:MAX_SPAN], source)


def reference_omitted(variant: Variant) -> str:
    """A reply that grades correct: answerable parts answered, the others declined."""
    missing = "cannot be determined: the data given are not enough"
    lines = [missing if n in variant.unanswerable else a.text for n, a in variant.answers.items()]
    if len(lines) == 1:
        return f"The problem does not give enough data. Final answer: {lines[0]}"
    return "Some data are missing.\n" + final_answer(lines)


register_format("omitted", applies=_numerical, grader=grade_omitted, reference=reference_omitted)(omitted)

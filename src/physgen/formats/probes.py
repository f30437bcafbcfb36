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

import functools
import re
from collections.abc import Iterator, Sequence

from ..instance import Instance
from ..reading.algebra import to_expression
from ..reading.numbers import KNOWN_NAMES
from ..reading.quantity import read_value
from ..reading.refusal import says_missing
from ..reading.span import MAX_SPAN, clean_reply, squeeze
from ..reading.verdict import Grade, PartGrade, Reason
from ..render import Notation, Shown, join_number_unit
from ..template import Template
from ..units import Style, format_unit
from ..variant import Answer, ShownQuantity, Variant
from .conversion import number_text, shown_in, worded
from .noop_bank import sentence
from .prompting import (
    asks,
    final_answer,
    free_text,
    make_variant,
    per_instance,
    pick,
    render_text,
    with_instruction,
)
from .quantities import grade_part, locate, own_names, parts_of
from .registry import FormatContext, GradeSettings, register_format


def _convertible(t: Template) -> tuple[str, ...]:
    """The inputs ``units`` shows in another unit: those with ``alt_units`` whose unit no
    paraphrase gives in words."""
    return tuple(n for n, i in t.spec.inputs.items() if i.alt_units and n not in worded(t))


def _has_alt_units(t: Template) -> bool:
    return t.question_type == "numerical" and bool(_convertible(t))


@functools.lru_cache(maxsize=1024)
def _unit_text(unit: str, style: Style) -> tuple[str, str, str]:
    """How ``unit`` is written: before and after a number (``join_number_unit``), and alone."""
    head, tail = join_number_unit("\x00", unit, style).split("\x00")
    return head, tail, format_unit(unit, style)


@per_instance
def _in_other_units(inst: Instance, key: tuple[Style, Notation]) -> tuple[dict[str, str],
                                                                          dict[str, ShownQuantity]]:
    """The instance's context and inputs, each convertible input shown in one of its other units
    (the same for every paraphrase, so made once per instance)."""
    style, notation = key
    t = inst.template
    context = dict(inst.context)
    inputs = dict(inst.inputs)
    for name in _convertible(t):
        spec = t.spec.inputs[name]
        unit = spec.alt_units[pick(inst.instance_id, name, "unit") % len(spec.alt_units)]
        value, digits = shown_in(inst.inputs[name].value, spec.unit, unit, spec.sig_figs,
                                 spec.exact or spec.integer)
        number = number_text(value, digits, style, notation)
        head, tail, unit_text = _unit_text(unit, style)
        text = head + number + tail
        context[name] = Shown(text, number, unit_text)
        inputs[name] = ShownQuantity(float(f"{value:.{digits - 1}e}"), unit, text)
    return context, inputs


@register_format("units", applies=_has_alt_units)
def units(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """Inputs shown in other, equivalent units, to their own significant figures; answer unchanged."""
    t = inst.template
    tid, iid = t.id, inst.instance_id
    context, inputs = _in_other_units(inst, (ctx.style, ctx.notation))
    return (Variant(f"{tid}:{iid}:p{paraphrase}:units", tid, iid, paraphrase, "units",
                    free_text(t, ctx.style, paraphrase)(context), inputs, inst.answers, inst.steps,
                    inst.metadata, intermediates=inst.intermediates),)


@register_format("noop")
def noop(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """An irrelevant sentence with a number (from the domain's bank, of a kind none of the
    template's quantities has), placed just before the question; answer unchanged."""
    question = asks(inst.template, paraphrase, ctx.style)
    text = render_text(inst, paraphrase, f"{noop_sentence(inst, paraphrase)} {question}")
    yield make_variant(inst, paraphrase, "noop", with_instruction(text, inst.template))


def noop_sentence(inst: Instance, paraphrase: int) -> str:
    """The irrelevant sentence ``noop`` adds to a paraphrase of ``inst``."""
    return sentence(inst.template, pick(inst.instance_id, "noop", paraphrase))


@functools.lru_cache(maxsize=16384)
def depends_on(t: Template, answer: str) -> frozenset[str]:
    """The inputs an answer needs: measured numerically when the template compiled (does the key
    move when the input moves? :mod:`physgen.dependence`), so an input that cancels is not needed.
    A template compiled without that measure falls back on the names its expression uses (through
    earlier answers; a solver's answer needs every input). Cached per template and answer:
    ``omitted`` asks it for every variant."""
    if answer in t.dependencies:
        return t.dependencies[answer]
    return _named_in(t, answer)


@functools.lru_cache(maxsize=16384)
def _named_in(t: Template, answer: str) -> frozenset[str]:
    """The inputs whose names an answer's expression uses, through the earlier answers it uses."""
    expr = t.expressions.get(answer)
    if expr is None:
        return frozenset(t.spec.inputs)
    needed: set[str] = set()
    for sym in expr.free_symbols:
        name = str(sym)
        if name in t.spec.inputs:
            needed.add(name)
        elif name in t.spec.answers and name != answer:
            needed |= _named_in(t, name)
    return frozenset(needed)


def omissible(t: Template) -> list[str]:
    """The inputs ``omitted`` may remove: those marked ``[[ … ]]`` in every paraphrase, not
    ``supplied`` (a value a student may know) and needed by some answer (removing a given that
    no part needs would probe nothing). Empty for a template without marks.

    >>> import physgen
    >>> omissible(physgen.load_catalog()["mechanics.projectile_range"])
    ['v0', 'theta']
    """
    return list(_omissible_names(t))


@functools.lru_cache(maxsize=4096)
def _omissible_names(t: Template) -> tuple[str, ...]:
    """:func:`omissible`, cached per template: ``omitted`` asks it for every variant."""
    if not t.omit_texts or not all(t.omit_texts):
        return ()
    needed = frozenset().union(*(depends_on(t, a) for a in t.spec.answers))
    return tuple(n for n, i in t.spec.inputs.items()
                 if not i.supplied and n in needed and all(n in texts for texts in t.omit_texts))


def _omissible(t: Template) -> bool:
    return bool(_omissible_names(t))


def _removable(inst: Instance) -> tuple[str, ...]:
    """The givens ``omitted`` may remove from ``inst``: those of :func:`omissible`, and for an
    algebraic problem that asks a relation solved for an input, those the relation needs other
    than that input (which the question asks, so it is no given); none for a problem that states
    a given through another quantity (it is asked in free form only)."""
    t = inst.template
    names = _omissible_names(t)
    p, var = inst.problem, t.variation
    if p is None or not p.unknown or var is None:
        return names
    solved = var.solved_for(p.unknown)
    if solved is None:
        return ()
    return tuple(n for n in names if n != solved.input and n in depends_on(t, solved.answer))


def omitted(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """One given's marked mention is removed; every other given stays, and the parts that
    needed the removed one become unanswerable. An algebraic question no longer lists the
    removed symbol among those to answer in."""
    t = inst.template
    names = _removable(inst)
    if not names:
        return
    name = names[pick(inst.instance_id, "omit", paraphrase) % len(names)]
    algebraic = t.question_type == "algebraic"
    question = asks(t, paraphrase, ctx.style, without=name) if algebraic else asks(t, paraphrase, ctx.style)
    context = {**inst.context, "asks": question}
    text = t.omit_texts[paraphrase][name].render(context)
    inputs = {n: q for n, q in inst.inputs.items() if n != name}
    unanswerable = tuple(a for a in t.spec.answers if name in depends_on(t, a))
    yield make_variant(inst, paraphrase, "omitted", with_instruction(text, t), inputs=inputs,
                       unanswerable=unanswerable, id_suffix=name)


_ASSUMED = re.compile(
    r"\b(?:assum\w*|suppose|supposing|let'?s say|if we take|taking a typical|typical(?:ly)?)\b", re.I)


def _declines(segment: str | None, whole: str, unit: str, names: Sequence[str] = ()) -> tuple[bool, str]:
    """Whether a reply declines to give a part a value, and if not, why not. ``segment`` is
    the text the reply committed for this part (a label or the final answer), if any; ``names``
    are the symbols of an algebraic part (a segment that writes an expression in them answers)."""
    assumed = _ASSUMED.search(whole)
    if assumed is not None and read_value(whole[assumed.start():], unit).status == "ok":
        return False, "assumed a value for the missing data and answered"
    committed = segment is not None and segment.strip() and not says_missing(segment)
    if committed and read_value(segment or "", unit).status == "ok":
        return False, "gave a value for a part the data do not determine"
    if committed and names and _writes_expression(segment or "", names):
        return False, "gave an expression for a part the givens do not determine"
    if says_missing(segment or "") or says_missing(whole):
        return True, ""
    return False, "did not say that data are missing"


def _writes_expression(segment: str, names: Sequence[str]) -> bool:
    """Whether ``segment`` reads as an expression in one of ``names`` (an algebraic answer)."""
    got = to_expression(segment, names)
    return any(n in names for n in _IDENTIFIER.findall(got))


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def grade_omitted(variant: Variant, reply: str, settings: GradeSettings) -> Grade:
    """Each unanswerable part must be declined; each other part is graded as usual."""
    parts = parts_of(variant)
    segments, span, source = locate(reply, parts)
    whole = squeeze(clean_reply(reply)[-4000:])
    points = {n: q.value for n, q in variant.inputs.items()}
    results: list[PartGrade] = []
    for part, seg in zip(parts, segments, strict=True):
        answer = variant.answers[part.name]
        if part.name in variant.unanswerable:
            symbols = _symbols(variant, answer) if answer.expr is not None else ()
            ok, why = _declines(seg if source != "last_quantity" else None, whole, answer.unit, symbols)
            verdict: Reason = "correct" if ok else "wrong_value"
            results.append(PartGrade(part.name, ok, verdict, "cannot be determined", detail=why,
                                     evidence=(seg or "").strip()[:200]))
        else:
            results.append(grade_part(part.name, answer, seg, settings, points, own_names(part.name)))
    return Grade.of(results, span[:MAX_SPAN], source)


def _symbols(variant: Variant, answer: Answer) -> tuple[str, ...]:
    """The names an algebraic reply may write: the givens shown and those of the key (the removed
    given's among them)."""
    names = {*variant.inputs, *_IDENTIFIER.findall(answer.expr or "")} - KNOWN_NAMES
    return tuple(sorted(names))


def reference_omitted(variant: Variant) -> str:
    """A reply that grades correct: answerable parts answered, the others declined."""
    missing = "cannot be determined: the data given are not enough"
    lines = [missing if n in variant.unanswerable else a.text for n, a in variant.answers.items()]
    if len(lines) == 1:
        return f"The problem does not give enough data. Final answer: {lines[0]}"
    return "Some data are missing.\n" + final_answer(lines)


register_format("omitted", applies=_omissible, grader=grade_omitted, reference=reference_omitted)(omitted)

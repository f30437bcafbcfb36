"""Question formats: how an instance and a paraphrase become one or more prompts.

Formats live in a registry, so ``physgen.generate(..., formats=[...])`` takes any
registered name and a project can add its own with :func:`register_format`.

* ``free_form``: every asked quantity, answered in free text.
* ``mc_numerical`` / ``mc_symbolic``: one multiple-choice question per asked
  quantity, options as numbers with units / as expressions in the input symbols.
* ``units``: the same instance with inputs shown in other, equivalent units.
* ``noop``: an irrelevant sentence with a number is added (GSM-NoOp).
* ``omitted``: a needed input is removed; the right answer is that the problem
  is under-specified (SymPyBench's hallucination probe).
* ``code``: the model returns a Python function ``solve(<inputs in SI>)``; it is
  run in a sandbox on several sampled inputs (TPBench-style).

>>> sorted(FORMATS)
['code', 'free_form', 'mc_numerical', 'mc_symbolic', 'noop', 'omitted', 'units']
>>> get_format("mc")
Traceback (most recent call last):
...
ValueError: unknown format 'mc'; available: code, free_form, mc_numerical, mc_symbolic, noop, omitted, units
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from . import distractors
from .instance import Instance
from .render import (
    Notation,
    Shown,
    asks_sentence,
    format_expression,
    format_number,
    format_quantity,
    format_symbol,
    join_number_unit,
    unit_hint,
)
from .template import Template
from .units import Quantity, Style, format_unit
from .variant import Answer, CodeTest, ShownQuantity, Variant

LETTERS = "ABCDEFGH"
#: Relative tolerance the options are kept apart for (the grader's default).
GRADING_RTOL = 0.01
UNDERSPECIFIED = "underspecified"
#: Inputs converted to another unit are shown to at least this many figures (error ≤ 0.05 %).
UNITS_MIN_SIG_FIGS = 4


@dataclass(frozen=True)
class FormatContext:
    """Settings every format builder receives."""

    style: Style = "unicode"
    notation: Notation = "auto"
    n_options: int = 4


Builder = Callable[[Instance, int, FormatContext], Iterable[Variant]]


@dataclass(frozen=True)
class Format:
    """A registered format: its builder and which templates it applies to."""

    name: str
    build: Builder
    applies: Callable[[Template], bool]

    def count(self, template: Template) -> int:
        """Variants per instance and paraphrase for ``template``."""
        if not self.applies(template):
            return 0
        return len(template.answer_names) if self.name.startswith("mc_") else 1


FORMATS: dict[str, Format] = {}


def register_format(name: str, applies: Callable[[Template], bool] = lambda t: True
                    ) -> Callable[[Builder], Builder]:
    """Register ``builder(instance, paraphrase, context) -> variants`` under ``name``."""

    def add(builder: Builder) -> Builder:
        if name in FORMATS:
            raise ValueError(f"format {name!r} is already registered")
        FORMATS[name] = Format(name, builder, applies)
        return builder

    return add


def get_format(name: str) -> Format:
    """A registered format; a clear error for an unknown one."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; available: {', '.join(sorted(FORMATS))}") from None


def _in_terms_of(template: Template, answer: str, style: Style, names: Iterable[str]) -> str:
    spec = template.spec
    used = {str(x) for x in template.expressions[answer].free_symbols}
    listed = [n for n in names if n in used]
    shown = [format_symbol(n, style, spec.inputs[n].symbol if n in spec.inputs else spec.constants[n].symbol)
             for n in listed]
    if not shown:
        return ""
    joined = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"in terms of {joined}"


@functools.lru_cache(maxsize=8192)
def asks(template: Template, paraphrase: int, style: Style, only: str | None = None,
         symbolic: bool = False) -> str:
    """The sentence asking for every answer (or ``only`` one), worded per paraphrase."""
    spec = template.spec
    names = [only] if only else list(spec.answers)
    if template.question_type == "algebraic":
        parts = [(spec.answers[n].ask, _in_terms_of(template, n, style, [*spec.inputs, *spec.constants]))
                 for n in names]
    elif symbolic:
        parts = [(spec.answers[n].ask, _in_terms_of(template, n, style, spec.inputs)) for n in names]
    else:
        parts = [(spec.answers[n].ask, unit_hint(spec.answers[n].unit, style)) for n in names]
    return asks_sentence(parts, paraphrase)


def render_text(inst: Instance, paraphrase: int, asks_text: str,
                overrides: Mapping[str, str] | None = None) -> str:
    """Paraphrase ``paraphrase`` filled in with the instance, the asks sentence and overrides."""
    context: dict[str, str] = dict(inst.context)
    context["asks"] = asks_text
    if overrides:
        context.update(overrides)
    return inst.template.texts[paraphrase].render(context)


def make_variant(inst: Instance, paraphrase: int, fmt: str, prompt: str, **fields: object) -> Variant:
    """A variant of ``inst`` with the standard ids (``fields`` override the instance's)."""
    t = inst.template
    suffix = f":{fields.pop('id_suffix')}" if "id_suffix" in fields else ""
    values: dict[str, object] = {
        "variant_id": f"{t.id}:{inst.instance_id}:p{paraphrase}:{fmt}{suffix}",
        "template_id": t.id, "instance_id": inst.instance_id, "paraphrase": paraphrase,
        "format": fmt, "prompt": prompt, "inputs": inst.inputs, "answers": inst.answers,
        "steps": inst.steps, "metadata": inst.metadata,
    }
    values.update(fields)
    return Variant(**values)  # type: ignore[arg-type]


def _pick(*key: object) -> int:
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little")


# -- free form ------------------------------------------------------------------------
@register_format("free_form")
def free_form(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """Every asked quantity, answered in free text."""
    text = render_text(inst, paraphrase, asks(inst.template, paraphrase, ctx.style))
    yield make_variant(inst, paraphrase, "free_form", text)


# -- multiple choice ----------------------------------------------------------------------
def _mc_prompt(question: str, options: Mapping[str, str]) -> str:
    lines = "\n".join(f"({k}) {v}" for k, v in options.items())
    return f"{question}\n\n{lines}\n\nAnswer with the letter of the correct option."


def _mc(inst: Instance, paraphrase: int, ctx: FormatContext, symbolic: bool) -> Iterable[Variant]:
    t = inst.template
    fmt = "mc_symbolic" if symbolic else "mc_numerical"
    k = ctx.n_options
    si = {n: t.input_si[n].to_si(q.value) for n, q in inst.inputs.items()}
    names: dict[str, str | None] = {n: s.symbol for n, s in t.spec.inputs.items()}
    names.update({n: c.symbol for n, c in t.spec.constants.items()})
    overrides = ({n: format_symbol(n, ctx.style, s.symbol) for n, s in t.spec.inputs.items()}
                 if symbolic else {})
    for answer_name, right in inst.answers.items():
        spec = t.spec.answers[answer_name]
        wrong = distractors.choose(t, answer_name, si, right.value, k - 1, GRADING_RTOL,
                                   _pick(inst.instance_id, answer_name, "order"), numeric=not symbolic,
                                   sig_figs=None if symbolic else spec.sig_figs)
        if len(wrong) < k - 1:
            continue  # cannot build k well-separated options for this quantity
        if symbolic:
            texts = [format_expression(e, names, ctx.style) for _, e, _ in wrong]
            correct = format_expression(t.expressions[answer_name], names, ctx.style)
        else:
            texts = [format_quantity(v, spec.unit, spec.sig_figs, ctx.style, ctx.notation)
                     for _, _, v in wrong]
            correct = right.text
        slot = _pick(inst.instance_id, answer_name, fmt, paraphrase) % k
        texts.insert(slot, correct)
        options = dict(zip(LETTERS, texts, strict=False))
        question = render_text(inst, paraphrase,
                               asks(t, paraphrase, ctx.style, answer_name, symbolic), overrides)
        answer = Answer(right.value, right.unit, correct, right.sig_figs,
                        str(t.expressions[answer_name]) if symbolic else right.expr)
        yield make_variant(
            inst, paraphrase, fmt, _mc_prompt(question, options),
            answers={answer_name: answer}, options=options, answer_key=LETTERS[slot],
            id_suffix=answer_name,
        )


def _has_expressions(t: Template) -> bool:
    return bool(t.expressions) and t.question_type == "numerical"


@register_format("mc_numerical", applies=lambda t: t.question_type == "numerical")
def mc_numerical(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """One question per asked quantity; options are numbers with units."""
    return _mc(inst, paraphrase, ctx, symbolic=False)


@register_format("mc_symbolic", applies=_has_expressions)
def mc_symbolic(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """One question per asked quantity; inputs shown as symbols, options are expressions."""
    return _mc(inst, paraphrase, ctx, symbolic=True)


# -- probes ----------------------------------------------------------------------------------
def _has_alt_units(t: Template) -> bool:
    return t.question_type == "numerical" and any(i.alt_units for i in t.spec.inputs.values())


@register_format("units", applies=_has_alt_units)
def units(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """Inputs shown in other, equivalent units (≥ 4 significant figures); answer unchanged."""
    t = inst.template
    overrides: dict[str, str] = {}
    inputs = dict(inst.inputs)
    for name, spec in t.spec.inputs.items():
        if not spec.alt_units:
            continue
        unit = spec.alt_units[_pick(inst.instance_id, name, "unit") % len(spec.alt_units)]
        value = float(Quantity(inst.inputs[name].value, spec.unit or "dimensionless").to(unit).magnitude)
        digits = max(spec.sig_figs + 2, UNITS_MIN_SIG_FIGS)  # conversion must not move the answer
        number = format_number(value, digits, ctx.style, ctx.notation)
        text = join_number_unit(number, unit, ctx.style)
        overrides[name] = Shown(text, number, format_unit(unit, ctx.style))
        inputs[name] = ShownQuantity(float(f"{value:.{digits - 1}e}"), unit, text)
    prompt = render_text(inst, paraphrase, asks(t, paraphrase, ctx.style), overrides)
    yield make_variant(inst, paraphrase, "units", prompt, inputs=inputs)


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
def noop(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """An irrelevant sentence with a number, placed just before the question; answer unchanged."""
    h = _pick(inst.instance_id, "noop", paraphrase)
    sentence = NOOP_SENTENCES[h % len(NOOP_SENTENCES)].format(
        n=3 + h % 17, t=18 + h % 7, m=f"{1 + (h >> 8) % 90 / 10:.1f}", x=f"{(h >> 16) % 900 / 100 + 1:.2f}")
    text = render_text(inst, paraphrase, f"{sentence} {asks(inst.template, paraphrase, ctx.style)}")
    yield make_variant(inst, paraphrase, "noop", text)


_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
_OMIT = "\x00omitted\x00"


@register_format("omitted", applies=lambda t: t.question_type == "numerical")
def omitted(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """A needed input's sentence is removed; the right response is that data are missing."""
    t = inst.template
    names = list(t.spec.inputs)
    name = names[_pick(inst.instance_id, "omit", paraphrase) % len(names)]
    question = asks(t, paraphrase, ctx.style)
    full = render_text(inst, paraphrase, question, {name: _OMIT})
    text = " ".join(s for s in _SENTENCE_END.split(full) if _OMIT not in s)
    inputs = {n: q for n, q in inst.inputs.items() if n != name and q.text in text}
    yield make_variant(inst, paraphrase, "omitted", text, inputs=inputs, answers={},
                       answer_key=UNDERSPECIFIED, id_suffix=name)


#: Sampled calls a ``code`` answer must get right.
CODE_TESTS = 5
CODE_FUNCTION = "solve"


def _si_words(unit: str, style: Style) -> str:
    from .units import to_si

    text = format_unit(to_si(unit).si_unit, style)
    return f"in {text}" if text else "dimensionless"


@register_format("code", applies=lambda t: t.question_type == "numerical")
def code(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
    """The question, then: write ``solve(...)`` in SI units; graded by running it on sampled inputs."""
    t = inst.template
    spec = t.spec
    args = ", ".join(spec.inputs)
    returns = ", ".join(spec.answers)
    if len(spec.answers) > 1:
        returns = f"the tuple ({returns})"
    arg_units = "; ".join(f"{n} {_si_words(i.unit, ctx.style)}" for n, i in spec.inputs.items())
    out_units = "; ".join(f"{n} {_si_words(a.unit, ctx.style)}" for n, a in spec.answers.items())
    question = render_text(inst, paraphrase, asks(t, paraphrase, ctx.style))
    prompt = (
        f"{question}\n\nWrite a Python function `{CODE_FUNCTION}({args})` that returns {returns} for "
        f"any values of this kind, not just these. Arguments are floats in SI units ({arg_units}); "
        f"return floats in SI units ({out_units}). Use only the standard library. Reply with the "
        "function in one ```python code block."
    )
    start = 1_000_000 + _pick(inst.instance_id, "code") % 1_000_000
    batch = t.sample(CODE_TESTS, inst.metadata.seed, start)
    answers = t.evaluate_si(batch.si)
    tests = tuple(
        CodeTest({n: float(v[i]) for n, v in batch.si.items()},
                 {n: float(v[i]) for n, v in answers.items()})
        for i in range(len(batch))
    )
    yield make_variant(inst, paraphrase, "code", prompt, code_tests=tests)

"""``mc_numerical`` and ``mc_symbolic``: one multiple-choice question per asked quantity.

Options are numbers with units (numerical) or expressions in the input symbols
(symbolic); distractors come from :mod:`physgen.distractors`. The grader reads the
chosen letter (:mod:`physgen.reading.choice`); two letters are a hedge.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.projectile_range"], n=1, formats=["mc_numerical"]))
>>> v.answer_key, v.options[v.answer_key] == v.answers["R"].text
('B', True)
>>> [physgen.grade(v, r).correct for r in ("B", "(b)", "Option B is correct", "B and C", "D")]
[True, True, True, False, False]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping

from ..instance import Instance
from ..labels import OPTION_LETTERS
from ..numtext import format_numbers
from ..reading.algebra import equivalent, to_expression
from ..reading.choice import chosen_later, option_value, read_choice
from ..reading.compare import RTOL
from ..reading.numbers import KNOWN_NAMES
from ..reading.quantity import alternative_value
from ..reading.span import MAX_SPAN, answer_tail, clean_reply, final_span, squeeze
from ..reading.verdict import Grade, PartGrade, Reason
from ..render import STYLES, format_expression, format_symbol
from ..template import OptionTexts, Template
from ..units import Style
from ..variant import Answer, Variant
from .prompting import asks, bind, instruction, per_instance, pick
from .registry import FormatContext, GradeSettings, register_format

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"[A-Za-z_]\w*")

#: Without a marker, a choice is looked for in this many last characters of the last paragraph.
CHOICE_TAIL = 2_000


#: The end of every multiple-choice prompt.
_ASK = f"Answer with the letter of the correct option. {instruction(['x'], 'choice')}"
#: One asked quantity's options: its name, its answer, the texts of the wrong options.
_Options = tuple[str, Answer, tuple[str, ...]]


def _symbols(t: Template) -> dict[str, str | None]:
    """The symbol each input and constant is written with (None: from its name)."""
    names: dict[str, str | None] = {n: s.symbol for n, s in t.spec.inputs.items()}
    names.update({n: c.symbol for n, c in t.spec.constants.items()})
    return names


def option_texts(t: Template) -> dict[tuple[str, Style], OptionTexts]:
    """Every ``mc_symbolic`` option text of ``t``, per answer and style: the right expression and
    every wrong one an instance may be offered (:func:`physgen.distractors.candidates` and
    :func:`~physgen.distractors.scaled`). Made when the template compiles and kept in it
    (``Template.option_texts``), so no process prints them again (SymPy's printing was most of
    the format's first-use cost). Empty when the format does not apply.

    >>> import physgen
    >>> texts = physgen.load_catalog()["mechanics.simple_pendulum_period"].option_texts.get()
    >>> texts["T", "unicode"].right, texts["T", "unicode"].wrong[0]  # the first named mistake
    ('2·π·√(L/g)', '√(L/g)')
    """
    from .. import distractors

    if not _has_expressions(t):
        return {}
    names = _symbols(t)
    out = {}
    for answer, expr in t.expressions.items():
        wrong = (*distractors.candidates(t, answer), *distractors.scaled(t, answer))
        for style in STYLES:
            out[answer, style] = OptionTexts(format_expression(expr, names, style), str(expr),
                                             tuple(format_expression(e, names, style) for _, e in wrong))
    return out


@functools.lru_cache(maxsize=16384)
def _question(t: Template, style: Style, paraphrase: int, answer: str,
              symbolic: bool) -> Callable[[Mapping[str, str]], str]:
    """The question of one paraphrase asking one quantity (inputs as symbols if ``symbolic``)."""
    fixed = {"asks": asks(t, paraphrase, style, answer, symbolic)}
    if symbolic:
        fixed.update({n: format_symbol(n, style, s.symbol) for n, s in t.spec.inputs.items()})
        if t.question_type == "algebraic":  # constants are symbols of the question too
            fixed.update({n: format_symbol(n, style, c.symbol) for n, c in t.spec.constants.items()})
    return bind(t.texts[paraphrase], fixed)


def _options(inst: Instance, ctx: FormatContext, symbolic: bool) -> tuple[_Options, ...]:
    """Every asked quantity's options: the same for every paraphrase, so made once per instance
    (for each of the two formats: they may be generated together)."""
    from .. import distractors  # SymPy: imported when options are first needed

    t = inst.template
    k = ctx.n_options
    si = {n: t.input_si[n].to_si(q.value) for n, q in inst.inputs.items()}
    out: list[_Options] = []
    for name, right in inst.answers.items():
        spec = t.spec.answers[name]
        wrong = distractors.choose(t, name, si, right.value, k - 1, RTOL,
                                   pick(inst.instance_id, name, "order"), numeric=not symbolic,
                                   sig_figs=None if symbolic else spec.sig_figs)
        if len(wrong) < k - 1:
            continue  # cannot build k well-separated options for this quantity
        if symbolic:
            table = t.option_texts.get()[name, ctx.style]
            texts = tuple(table.wrong[option.key] for option in wrong)
            key = Answer(right.value, right.unit, table.right, right.sig_figs, table.sympy)
            out.append((name, key, texts))
        else:
            unit = t.display[ctx.style].units[spec.unit]
            values = [option.value for option in wrong]
            numbers = format_numbers(values, spec.sig_figs, ctx.style, ctx.notation)
            out.append((name, right, tuple([unit.head + x + unit.tail for x in numbers])))
    return tuple(out)


@per_instance
def _numerical_options(inst: Instance, ctx: FormatContext) -> tuple[_Options, ...]:
    return _options(inst, ctx, symbolic=False)


@per_instance
def _symbolic_options(inst: Instance, ctx: FormatContext) -> tuple[_Options, ...]:
    return _options(inst, ctx, symbolic=True)


def _build(inst: Instance, paraphrase: int, ctx: FormatContext, symbolic: bool) -> tuple[Variant, ...]:
    t = inst.template
    fmt = "mc_symbolic" if symbolic else "mc_numerical"
    k = ctx.n_options
    tid, iid = t.id, inst.instance_id
    out = []
    for name, answer, wrong in (_symbolic_options if symbolic else _numerical_options)(inst, ctx):
        slot = pick(iid, name, fmt, paraphrase) % k
        options = dict(zip(OPTION_LETTERS, (*wrong[:slot], answer.text, *wrong[slot:]), strict=False))
        lines = "\n".join([f"({letter}) {text}" for letter, text in options.items()])
        question = _question(t, ctx.style, paraphrase, name, symbolic)(inst.context)
        out.append(Variant(f"{tid}:{iid}:p{paraphrase}:{fmt}:{name}", tid, iid, paraphrase, fmt,
                           f"{question}\n\n{lines}\n\n{_ASK}", inst.inputs, {name: answer}, inst.steps,
                           inst.metadata, options, OPTION_LETTERS[slot], intermediates=inst.intermediates))
    return tuple(out)


def grade_choice(variant: Variant, reply: str, settings: GradeSettings) -> Grade:
    """The option letter a reply chose, against ``variant.answer_key``."""
    name = next(iter(variant.answers), "answer")
    key = variant.answer_key or ""
    span, source = final_span(reply)
    if span is None:
        text = clean_reply(reply)
        span = squeeze(text).strip().split("\n\n")[-1][-CHOICE_TAIL:] if text.strip() else ""
        source = "last_quantity" if span else "none"
    unit = None if variant.format == "mc_symbolic" or not variant.answers else variant.answers[name].unit
    letters, how = read_choice(span, variant.options, settings.rtol, unit)
    if not letters and variant.format == "mc_symbolic":
        letters, how = _equivalent_option(variant, span, settings.rtol), "equivalent expression"
    if letters and source in ("marker", "boxed"):
        tail = answer_tail(clean_reply(reply))
        later = chosen_later(tail, variant.options, variant.format == "mc_symbolic") - letters
        if later:  # "Final answer: B. NOTE: it could also be C"
            letters, how = letters | later, "options offered after the final answer"
        elif unit is not None and len(letters) == 1:
            value = option_value(variant.options.get(next(iter(letters)), ""), unit, settings.rtol)
            other = None if value is None else alternative_value(tail, unit, value, [], settings.rtol)
            if other is not None:  # "Final answer:\n4.95 m\n9.9 m"
                letters, how = set(variant.options), f"another value offered after the final answer: {other}"
    if not letters:
        reason: Reason = "missing" if not span.strip() else "unparseable"
        part = PartGrade(name, False, reason, key, detail="no option chosen", evidence=span.strip()[:200])
    elif len(letters) > 1:
        chosen = ",".join(sorted(letters))
        part = PartGrade(name, False, "ambiguous", key, chosen, detail=f"more than one option chosen ({how})",
                         evidence=span.strip()[:200])
    else:
        (letter,) = letters
        ok = letter == key
        part = PartGrade(name, ok, "correct" if ok else "wrong_value", key, letter, detail=f"read as {how}",
                         evidence=span.strip()[:200])
    return Grade.of([part], span[:MAX_SPAN], source)


def _equivalent_option(variant: Variant, span: str, rtol: float) -> set[str]:
    """The options whose expression equals the reply's (more than one is a hedge, never credit)."""
    points = {n: q.value for n, q in variant.inputs.items()}
    key = next(iter(variant.answers.values())).expr or ""
    names = sorted({*points, *(n for n in _P1.findall(key) if n not in KNOWN_NAMES)})
    got = to_expression(span, names)
    hits = {k for k, text in variant.options.items()
            if equivalent(got, to_expression(text, names), points, rtol)[0]}
    return hits


def reference_choice(variant: Variant) -> str:
    """A reply that grades correct: the right letter in the documented layout."""
    return f"Final answer: {variant.answer_key}"


def _per_quantity(t: Template) -> int:
    return len(t.answer_names)


def _has_expressions(t: Template) -> bool:
    """A template whose answers are expressions (not a solver's); read from the spec, so asking
    does not load SymPy. Algebraic templates too: their named mistakes become the options."""
    return t.spec.solver is None


@register_format("mc_numerical", applies=lambda t: t.question_type == "numerical", grader=grade_choice,
                 reference=reference_choice, per_instance=_per_quantity)
def mc_numerical(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """One question per asked quantity; options are numbers with units."""
    return _build(inst, paraphrase, ctx, symbolic=False)


def _readable_keys(t: Template) -> bool:
    """A template whose every key expression the grader reads back (:mod:`physgen.reading.numbers`:
    at most ``MAX_EXPRESSION`` characters, known functions only): a key of several regimes
    (``Min``, ``Piecewise``) or pages long is no fair multiple-choice option. Read from the option
    texts compiled with the template, so asking loads no SymPy."""
    if not _has_expressions(t):
        return False
    keys = tuple(sorted({texts.sympy for texts in t.option_texts.get().values()}))
    return bool(keys) and _readable(keys, tuple(t.spec.inputs) + tuple(t.spec.constants))


@functools.lru_cache(maxsize=4096)
def _readable(keys: tuple[str, ...], names: tuple[str, ...]) -> bool:
    """Whether the grader's reader evaluates every key with the givens at a point (cached)."""
    from ..reading.numbers import evaluate, to_python

    point = {n: 1.3 + 0.1 * k for k, n in enumerate(names)}
    for key in keys:
        try:
            evaluate(to_python(key), point)
        except ValueError as exc:
            if "finite" not in str(exc) and "domain" not in str(exc):
                return False
    return True


@register_format("mc_symbolic", applies=_readable_keys, grader=grade_choice,
                 reference=reference_choice, per_instance=_per_quantity)
def mc_symbolic(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """One question per asked quantity; inputs shown as symbols, options are expressions."""
    return _build(inst, paraphrase, ctx, symbolic=True)

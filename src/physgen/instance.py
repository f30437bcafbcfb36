"""One parameter set of a template, rendered: shown inputs, answers, steps and its id.

An :class:`Instance` is shared by every paraphrase and format made from it, so
numbers are formatted and steps rendered once per instance.

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.simple_pendulum_period"]
>>> inst = Instance.from_batch(t.sample(1, seed=0), 0)
>>> len(inst.instance_id), list(inst.answers)
(12, ['T'])
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .algebraic import Problem, problem, problem_key
from .batch import InstanceBatch
from .numtext import format_numbers
from .render import Notation, Shown
from .template import Template, UnitText
from .units import Style
from .variant import Answer, Intermediate, Metadata, ShownQuantity

#: Significant figures kept in answer values (absorbs last-bit differences between machines).
ANSWER_DIGITS = 12


@dataclass(frozen=True)
class _Layout:
    """What every instance of one template shares in one style: units, constants, fields."""

    inputs: tuple[tuple[str, str, UnitText, int, bool], ...]  # name, unit, its texts, sig figs, integer
    answers: tuple[tuple[str, str, UnitText, int], ...]  # name, unit, its texts, sig figs
    constants: dict[str, Shown]
    symbols: dict[str, Shown] | None  # algebraic: inputs as symbols, answers as expressions
    expressions: dict[str, str]  # algebraic: answer -> SymPy text (empty otherwise)
    parts: bool  # some text reads {{ x.value }} or {{ x.unit }}, so numbers are Shown, not str
    intermediates: tuple[tuple[str, str, UnitText, int, int], ...] = ()  # name, unit, texts, sig figs, step


@functools.lru_cache(maxsize=1024)
def _layout(template: Template, style: Style, notation: Notation) -> _Layout:
    spec = template.spec
    display = template.display[style]
    inputs = tuple((n, i.unit, display.units[i.unit], i.sig_figs, i.integer) for n, i in spec.inputs.items())
    answers = tuple((n, a.unit, display.units[a.unit], a.sig_figs) for n, a in spec.answers.items())
    parts = any(text.needs_jinja for text in (*template.texts, *template.steps))
    if display.symbols is not None:
        symbols = {n: Shown(text, text, "") for n, text in display.symbols.items()}
        expressions = {n: str(e) for n, e in template.expressions.items()}
        return _Layout(inputs, answers, {n: symbols[n] for n in template.constants}, symbols, expressions,
                       parts)
    constants = {}
    for n, c in template.constants.items():
        number = format_numbers([c.shown_value], c.sig_figs, style, notation)[0]
        constants[n] = _shown(number, display.units[c.unit])
    steps = tuple((n, i.unit, display.units[i.unit], i.sig_figs, i.step)
                  for n, i in spec.intermediates.items())
    return _Layout(inputs, answers, constants, None, {}, parts, steps)


def _texts(numbers: list[str], unit: UnitText, parts: bool) -> list[str]:
    if parts:
        return [Shown(unit.head + x + unit.tail, x, unit.text) for x in numbers]
    return [unit.head + x + unit.tail for x in numbers]


def _shown(number: str, unit: UnitText) -> Shown:
    return Shown(unit.head + number + unit.tail, number, unit.text)


@dataclass(frozen=True, slots=True)
class Instance:
    """A rendered parameter set; ``context`` maps every placeholder name to its text.

    A text is a :class:`~physgen.render.Shown` (with ``.value`` and ``.unit``)
    when one of the template's texts reads those parts, and a plain ``str``
    otherwise (faster to make).

    ``instance_id`` is a content id: the 48-bit BLAKE2b (hex) of
    ``"<template id>|<version>|<input>=<repr(shown value)>|…"``.
    """

    template: Template
    instance_id: str
    inputs: dict[str, ShownQuantity]
    answers: dict[str, Answer]
    steps: tuple[str, ...]
    context: dict[str, str]
    metadata: Metadata
    intermediates: dict[str, Intermediate] = field(default_factory=dict)
    #: Algebraic templates that vary: the names and unknown this instance shows (:mod:`physgen.algebraic`).
    problem: Problem | None = None

    @classmethod
    def from_batch(cls, batch: InstanceBatch, i: int, style: Style = "unicode",
                   notation: Notation = "auto") -> Instance:
        """Instance ``i`` of a batch (see :func:`iter_instances` for a whole batch)."""
        return next(iter_instances(batch, style, notation, rows=range(i, i + 1)))


def iter_instances(batch: InstanceBatch, style: Style = "unicode", notation: Notation = "auto",
                   rows: Iterable[int] | None = None) -> Iterator[Instance]:
    """Render the instances of a batch, in order.

    Work is done a column at a time (every number of one input, then the next),
    and only the per-row assembly is done per instance.
    """
    t = batch.template
    spec = t.spec
    layout = _layout(t, style, notation)
    picked = list(range(len(batch)) if rows is None else rows)
    indices = [int(i) for i in batch.index[picked].tolist()]
    prefix = f"{t.id}|{t.version}|"
    input_cols: list[tuple[str, str, list[float], list[str], list[str]]] = []
    for name, unit, unit_text, sig, integer in layout.inputs:
        values = batch.shown[name][picked].tolist()
        keys = [f"{name}={v!r}" for v in values]
        if layout.symbols is None:
            shown = _texts(format_numbers(values, sig, style, notation, integer=integer), unit_text,
                           layout.parts)
        else:
            shown = [layout.symbols[name]] * len(values)
        input_cols.append((name, unit, values, shown, keys))
    digits = f".{ANSWER_DIGITS - 1}e"
    answer_cols: list[tuple[str, list[str], list[Answer]]] = []
    for name, unit, unit_text, sig in layout.answers:
        values = [float(format(v, digits)) for v in batch.answers[name][picked].tolist()]
        if layout.symbols is None:
            shown = _texts(format_numbers(values, sig, style, notation), unit_text, layout.parts)
            answers = [Answer(v, unit, str(s), sig) for v, s in zip(values, shown, strict=True)]
        else:
            s = layout.symbols[name]
            shown = [s] * len(values)
            answers = [Answer(v, unit, str(s), sig, layout.expressions[name]) for v in values]
        answer_cols.append((name, shown, answers))
    step_cols: list[tuple[str, list[str], list[Intermediate]]] = []
    for name, unit, unit_text, sig, step in layout.intermediates:
        values = [float(format(v, digits)) for v in batch.intermediates[name][picked].tolist()]
        shown = _texts(format_numbers(values, sig, style, notation), unit_text, layout.parts)
        step_cols.append((name, shown, [Intermediate(v, unit, str(s), sig, step)
                                        for v, s in zip(values, shown, strict=True)]))
    base_meta = (spec.domain, tuple(spec.subdomain), spec.difficulty, spec.question_type,
                 spec.version, batch.seed)
    steps = t.steps
    for k, index in enumerate(indices):
        context: dict[str, str] = dict(layout.constants)
        inputs: dict[str, ShownQuantity] = {}
        for name, unit, values, shown, _ in input_cols:
            text = context[name] = shown[k]
            inputs[name] = ShownQuantity(values[k], unit, str(text))
        answers_k: dict[str, Answer] = {}
        for name, shown, answers in answer_cols:
            context[name] = shown[k]
            answers_k[name] = answers[k]
        intermediates: dict[str, Intermediate] = {}
        for name, shown, items in step_cols:
            context[name] = shown[k]
            intermediates[name] = items[k]
        key = prefix + "|".join([col[4][k] for col in input_cols])
        shows = None if t.variation is None else problem(t, batch.seed, index)
        if shows is not None:
            key += problem_key(shows)
        yield Instance(t, hashlib.blake2b(key.encode(), digest_size=6).hexdigest(), inputs, answers_k,
                       tuple([step.render(context) for step in steps]), context,
                       Metadata(*base_meta, index), intermediates, shows)

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
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .algebraic import Problem, problem, problem_key
from .batch import InstanceBatch
from .figures import round_sig
from .numtext import format_numbers, number_format
from .render import Notation, Shown
from .template import Template, UnitText
from .units import Style
from .variant import Answer, Intermediate, Metadata, ShownQuantity, fast_init

_T = TypeVar("_T", bound=tuple)  # type: ignore[type-arg]
_V = TypeVar("_V")

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
    # name, unit, texts, sig figs, step, the intermediates it is found from (Intermediate.uses)
    intermediates: tuple[tuple[str, str, UnitText, int, int, tuple[str, ...] | None], ...] = ()


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
    graph = template.graph
    names = list(spec.intermediates)
    found_from: dict[str, tuple[str, ...] | None] = dict.fromkeys(names)
    if graph is not None:
        for n in names:
            sources = graph.found_from(n)  # one walk of the graph per intermediate
            found_from[n] = tuple(m for m in names if m in sources)
    steps = tuple((n, i.unit, display.units[i.unit], i.sig_figs, i.step, found_from[n])
                  for n, i in spec.intermediates.items())
    return _Layout(inputs, answers, constants, None, {}, parts, steps)


def _texts(numbers: list[str], unit: UnitText, parts: bool) -> list[str]:
    if parts:
        return [Shown(unit.head + x + unit.tail, x, unit.text) for x in numbers]
    return [unit.head + x + unit.tail for x in numbers]


def _text(number: str, unit: UnitText, parts: bool) -> str:
    """One number's text with its unit (a :class:`Shown` when the texts read its parts)."""
    if parts:
        return Shown(unit.head + number + unit.tail, number, unit.text)
    return unit.head + number + unit.tail


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


fast_init(Instance)


def iter_instances(batch: InstanceBatch, style: Style = "unicode", notation: Notation = "auto",
                   rows: Iterable[int] | None = None) -> Iterator[Instance]:
    """Render the instances of a batch, in order.

    Work is done a column at a time (every number of one input, then the next: its texts,
    its named tuples, its part of the instance id), and only the per-row assembly (dicts,
    the id's hash, the steps) is done per instance.
    """
    t = batch.template
    layout = _layout(t, style, notation)
    picked = list(range(len(batch)) if rows is None else rows)
    indices = batch.index[picked].tolist()
    names: list[str] = []  # context names past the constants, in order, and their columns
    texts: list[list[str]] = []
    input_cols: list[Iterator[ShownQuantity]] = []
    key_cols: list[list[str]] = []
    for name, unit, unit_text, sig, integer in layout.inputs:
        values = batch.shown[name][picked].tolist()
        key_cols.append([f"{name}={v!r}" for v in values])
        if layout.symbols is None:
            shown = _texts(format_numbers(values, sig, style, notation, integer=integer), unit_text,
                           layout.parts)
        else:
            shown = [layout.symbols[name]] * len(values)
        names.append(name)
        texts.append(shown)
        input_cols.append(_tuples(ShownQuantity, values, unit, shown))
    answer_cols: list[Iterator[Answer]] = []
    for name, unit, unit_text, sig in layout.answers:
        values = round_sig(batch.answers[name][picked], ANSWER_DIGITS).tolist()
        if layout.symbols is None:
            shown = _texts(format_numbers(values, sig, style, notation), unit_text, layout.parts)
            answer_cols.append(_tuples(Answer, values, unit, shown, sig, None))
        else:
            shown = [layout.symbols[name]] * len(values)
            answer_cols.append(_tuples(Answer, values, unit, shown, sig, layout.expressions[name]))
        names.append(name)
        texts.append(shown)
    step_cols: list[Iterator[Intermediate]] = []
    for name, unit, unit_text, sig, step, uses in layout.intermediates:
        values = round_sig(batch.intermediates[name][picked], ANSWER_DIGITS).tolist()
        shown = _texts(format_numbers(values, sig, style, notation), unit_text, layout.parts)
        names.append(name)
        texts.append(shown)
        step_cols.append(_tuples(Intermediate, values, unit, shown, sig, step, uses))
    prefix = f"{t.id}|{t.version}|"
    keys = [prefix + "|".join(row) for row in _rows(key_cols)] if key_cols else [prefix] * len(picked)
    make = _Assembly(t, layout, batch.seed)
    rows_of = zip(indices, keys, _rows(texts), _rows(input_cols), _rows(answer_cols), _rows(step_cols),
                  strict=False)  # the column rows are endless when a template has no such columns
    for index, key, shown_row, input_row, answer_row, step_row in rows_of:
        yield make(index, key, shown_row, input_row, answer_row, step_row)


def _rows(columns: Sequence[Iterable[_V]]) -> Iterator[tuple[_V, ...]]:
    """The rows of equal columns (endless empty rows when there are no columns)."""
    return zip(*columns, strict=True) if columns else itertools.repeat(())


class _Assembly:
    """The per-row part of rendering, shared by :func:`iter_instances` and :class:`Rows`: an
    instance from its row's texts (context order: constants, inputs, answers, intermediates),
    named tuples and id key."""

    __slots__ = ("answers", "constants", "inputs", "meta", "names", "seed", "steps", "t", "values", "varied")

    def __init__(self, t: Template, layout: _Layout, seed: int) -> None:
        spec = t.spec
        self.t, self.seed, self.constants, self.steps = t, seed, layout.constants, t.steps
        self.varied = t.variation is not None
        self.inputs = [n for n, *_ in layout.inputs]
        self.answers = [n for n, *_ in layout.answers]
        self.values = [n for n, *_ in layout.intermediates]
        self.names = self.inputs + self.answers + self.values
        self.meta = (spec.domain, tuple(spec.subdomain), spec.difficulty, spec.question_type, spec.version,
                     seed)

    def __call__(self, index: int, key: str, texts: Iterable[str], inputs: Iterable[ShownQuantity],
                 answers: Iterable[Answer], values: Iterable[Intermediate]) -> Instance:
        context: dict[str, str] = dict(self.constants)
        context.update(zip(self.names, texts, strict=True))
        shows = problem(self.t, self.seed, index) if self.varied else None
        if shows is not None:
            key += problem_key(shows)
        return Instance(self.t, hashlib.blake2b(key.encode(), digest_size=6).hexdigest(),
                        dict(zip(self.inputs, inputs, strict=True)),
                        dict(zip(self.answers, answers, strict=True)),
                        tuple([step.render(context) for step in self.steps]), context,
                        Metadata(*self.meta, index), dict(zip(self.values, values, strict=True)), shows)


class Rows:
    """The rows of a batch, each rendered alone when it is asked for: the instance
    :func:`iter_instances` makes of that row, with the per-call work of a column (answers
    rounded, number formats made) done once for the batch, so that rendering one row costs
    what a row of a whole batch costs (:mod:`physgen.dataset` reads items one at a time).

    >>> import physgen
    >>> batch = physgen.load_catalog()["optics.thin_lens"].sample(5, seed=0)
    >>> Rows(batch)[3] == Instance.from_batch(batch, 3)
    True
    """

    __slots__ = ("answers", "index", "inputs", "make", "parts", "prefix", "symbols", "values")

    def __init__(self, batch: InstanceBatch, style: Style = "unicode", notation: Notation = "auto") -> None:
        t = batch.template
        layout = _layout(t, style, notation)
        self.symbols, self.parts = layout.symbols, layout.parts
        self.make = _Assembly(t, layout, batch.seed)
        self.index = batch.index
        self.prefix = f"{t.id}|{t.version}|"
        self.inputs = [(name, unit, text, number_format(sig, style, notation, integer), batch.shown[name])
                       for name, unit, text, sig, integer in layout.inputs]
        digits = ANSWER_DIGITS
        self.answers = [(name, unit, text, sig, number_format(sig, style, notation),
                         round_sig(batch.answers[name], digits), layout.expressions.get(name))
                        for name, unit, text, sig in layout.answers]
        self.values = [(name, unit, text, sig, number_format(sig, style, notation),
                        round_sig(batch.intermediates[name], digits), step, uses)
                       for name, unit, text, sig, step, uses in layout.intermediates]

    def __len__(self) -> int:
        return int(self.index.shape[0])

    def __getitem__(self, row: int) -> Instance:
        symbols, parts, new = self.symbols, self.parts, tuple.__new__
        texts: list[str] = []
        keys: list[str] = []
        inputs: list[ShownQuantity] = []
        for name, unit, unit_text, number, column in self.inputs:
            v = column.item(row)
            keys.append(f"{name}={v!r}")
            text = symbols[name] if symbols is not None else _text(number(v), unit_text, parts)
            texts.append(text)
            inputs.append(new(ShownQuantity, (v, unit, str(text))))
        answers: list[Answer] = []
        for name, unit, unit_text, sig, number, column, expr in self.answers:
            v = column.item(row)
            text = symbols[name] if symbols is not None else _text(number(v), unit_text, parts)
            texts.append(text)
            answers.append(new(Answer, (v, unit, str(text), sig, expr)))
        values: list[Intermediate] = []
        for _, unit, unit_text, sig, number, column, step, uses in self.values:
            v = column.item(row)
            text = _text(number(v), unit_text, parts)
            texts.append(text)
            values.append(new(Intermediate, (v, unit, str(text), sig, step, uses)))
        return self.make(self.index.item(row), self.prefix + "|".join(keys), texts, inputs, answers, values)


def _tuples(cls: type[_T], values: list[float], unit: str, shown: list[str], *rest: object) -> Iterator[_T]:
    """``cls(value, unit, str(text), *rest)`` for each row of a column, without a Python call per
    row (a named tuple's own constructor is one), made as the rows are assembled: the cyclic
    garbage collector never untracks a named tuple (only exact tuples), so a column made ahead
    would be promoted to the oldest generation and make full collections come sooner."""
    fields = zip(values, itertools.repeat(unit), map(str, shown), *map(itertools.repeat, rest), strict=False)
    return map(tuple.__new__, itertools.repeat(cls), fields)

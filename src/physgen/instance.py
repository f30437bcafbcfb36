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
from dataclasses import dataclass

from .render import Notation, Shown, format_expression, format_number, format_symbol, join_number_unit
from .sampling import InstanceBatch
from .template import Template
from .units import Style, format_unit
from .variant import Answer, Metadata, ShownQuantity

#: Significant figures kept in answer values (absorbs last-bit differences between machines).
ANSWER_DIGITS = 12


def instance_id(template: Template, shown: dict[str, float]) -> str:
    """Content id: template id, version and the exact shown inputs (48-bit BLAKE2b, hex)."""
    key = f"{template.id}|{template.version}|" + "|".join(f"{k}={v!r}" for k, v in shown.items())
    return hashlib.blake2b(key.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class _Layout:
    """What every instance of one template shares in one style: units, constants, fields."""

    inputs: tuple[tuple[str, str, str, int, bool], ...]  # name, unit, unit text, sig figs, integer
    answers: tuple[tuple[str, str, str, int], ...]  # name, unit, unit text, sig figs
    constants: dict[str, Shown]
    symbols: dict[str, Shown] | None  # algebraic: inputs as symbols, answers as expressions
    expressions: dict[str, str]  # algebraic: answer -> SymPy text (empty otherwise)


@functools.lru_cache(maxsize=1024)
def _layout(template: Template, style: Style, notation: Notation) -> _Layout:
    spec = template.spec
    inputs = tuple((n, i.unit, format_unit(i.unit, style), i.sig_figs, i.integer)
                   for n, i in spec.inputs.items())
    answers = tuple((n, a.unit, format_unit(a.unit, style), a.sig_figs)
                    for n, a in spec.answers.items())
    if template.question_type == "algebraic":
        names: dict[str, str | None] = {n: i.symbol for n, i in spec.inputs.items()}
        names.update({n: c.symbol for n, c in spec.constants.items()})
        symbols = {n: Shown(t, t, "") for n, t in
                   ((n, format_symbol(n, style, sym)) for n, sym in names.items())}
        for n, expr in template.expressions.items():
            text = format_expression(expr, names, style)
            symbols[n] = Shown(text, text, "")
        expressions = {n: str(e) for n, e in template.expressions.items()}
        return _Layout(inputs, answers, {n: symbols[n] for n in template.constants}, symbols, expressions)
    constants = {n: _shown(c.shown_value, c.unit, format_unit(c.unit, style), c.sig_figs, style,
                           notation) for n, c in template.constants.items()}
    return _Layout(inputs, answers, constants, None, {})


def _shown(value: float, unit: str, unit_text: str, sig_figs: int, style: Style,
           notation: Notation, integer: bool = False) -> Shown:
    number = format_number(value, sig_figs, style, notation, integer=integer)
    return Shown(join_number_unit(number, unit, style), number, unit_text)


@dataclass(frozen=True, slots=True)
class Instance:
    """A rendered parameter set; ``context`` maps every placeholder name to its text."""

    template: Template
    instance_id: str
    inputs: dict[str, ShownQuantity]
    answers: dict[str, Answer]
    steps: tuple[str, ...]
    context: dict[str, Shown]
    metadata: Metadata

    @classmethod
    def from_batch(cls, batch: InstanceBatch, i: int, style: Style = "unicode",
                   notation: Notation = "auto") -> Instance:
        """Instance ``i`` of a batch (see :func:`iter_instances` for a whole batch)."""
        return next(iter_instances(batch, style, notation, rows=range(i, i + 1)))


def iter_instances(batch: InstanceBatch, style: Style = "unicode", notation: Notation = "auto",
                   rows: Iterable[int] | None = None) -> Iterator[Instance]:
    """Render the instances of a batch, in order (columns are read once, not per row)."""
    t = batch.template
    spec = t.spec
    layout = _layout(t, style, notation)
    shown_cols = {n: v.tolist() for n, v in batch.shown.items()}
    answer_cols = {n: v.tolist() for n, v in batch.answers.items()}
    indices = batch.index.tolist()
    base_meta = (spec.domain, tuple(spec.subdomain), spec.difficulty, spec.question_type,
                 spec.version, batch.seed)
    digits = f".{ANSWER_DIGITS - 1}e"
    for i in rows if rows is not None else range(len(indices)):
        context = dict(layout.constants)
        inputs: dict[str, ShownQuantity] = {}
        shown_values: dict[str, float] = {}
        for name, unit, unit_text, sig, integer in layout.inputs:
            value = shown_cols[name][i]
            shown_values[name] = value
            if layout.symbols is None:
                s = _shown(value, unit, unit_text, sig, style, notation, integer)
            else:
                s = layout.symbols[name]
            context[name] = s
            inputs[name] = ShownQuantity(value, unit, str(s))
        answers: dict[str, Answer] = {}
        for name, unit, unit_text, sig in layout.answers:
            value = float(format(answer_cols[name][i], digits))
            if layout.symbols is None:
                s = _shown(value, unit, unit_text, sig, style, notation)
                answers[name] = Answer(value, unit, str(s), sig)
            else:
                s = layout.symbols[name]
                answers[name] = Answer(value, unit, str(s), sig, layout.expressions[name])
            context[name] = s
        steps = tuple(step.render(context) for step in t.steps)
        yield Instance(t, instance_id(t, shown_values), inputs, answers, steps, context,
                       Metadata(*base_meta, indices[i]))

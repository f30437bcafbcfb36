"""Question formats: how an instance and a paraphrase become a prompt.

Formats live in a registry, so ``physgen.generate(..., formats=[...])`` takes
any registered name and a project can add its own with :func:`register_format`.

>>> sorted(FORMATS)
['free_form']
>>> get_format("mc")
Traceback (most recent call last):
...
ValueError: unknown format 'mc'; available: free_form
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .instance import Instance
from .render import asks_sentence, format_symbol, unit_hint
from .template import Template
from .units import Style
from .variant import Variant

FormatBuilder = Callable[[Instance, int, Style], Variant]
FORMATS: dict[str, FormatBuilder] = {}


def register_format(name: str) -> Callable[[FormatBuilder], FormatBuilder]:
    """Register ``builder(instance, paraphrase, style) -> Variant`` under ``name``."""

    def add(builder: FormatBuilder) -> FormatBuilder:
        if name in FORMATS:
            raise ValueError(f"format {name!r} is already registered")
        FORMATS[name] = builder
        return builder

    return add


def get_format(name: str) -> FormatBuilder:
    """The builder of a registered format; a clear error for an unknown one."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; available: {', '.join(sorted(FORMATS))}") from None


@functools.lru_cache(maxsize=4096)
def asks(template: Template, paraphrase: int, style: Style) -> str:
    """The sentence asking for every answer, with unit hints, worded per paraphrase."""
    if template.question_type == "algebraic":
        parts = [(a.ask, _in_terms_of(template, n, style)) for n, a in template.spec.answers.items()]
    else:
        parts = [(a.ask, unit_hint(a.unit, style)) for a in template.spec.answers.values()]
    return asks_sentence(parts, paraphrase)


def _in_terms_of(template: Template, answer: str, style: Style) -> str:
    spec = template.spec
    used = {str(x) for x in template.expressions[answer].free_symbols}
    names = [n for n in (*spec.inputs, *spec.constants) if n in used]
    shown = [format_symbol(n, style, (spec.inputs[n].symbol if n in spec.inputs
                                      else spec.constants[n].symbol)) for n in names]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"in terms of {listed}"


def question_text(inst: Instance, paraphrase: int, style: Style) -> str:
    """Paraphrase ``paraphrase`` of the question, filled in with the instance."""
    context = dict(inst.context)
    context["asks"] = asks(inst.template, paraphrase, style)  # type: ignore[assignment]
    return inst.template.texts[paraphrase].render(context)


def make_variant(inst: Instance, paraphrase: int, fmt: str, prompt: str) -> Variant:
    """A variant of ``inst`` with the standard ids."""
    t = inst.template
    return Variant(
        variant_id=f"{t.id}:{inst.instance_id}:p{paraphrase}:{fmt}",
        template_id=t.id, instance_id=inst.instance_id, paraphrase=paraphrase, format=fmt,
        prompt=prompt, inputs=inst.inputs, answers=inst.answers, steps=inst.steps,
        metadata=inst.metadata,
    )


@register_format("free_form")
def free_form(inst: Instance, paraphrase: int, style: Style) -> Variant:
    """Every asked quantity, answered in free text."""
    return make_variant(inst, paraphrase, "free_form", question_text(inst, paraphrase, style))

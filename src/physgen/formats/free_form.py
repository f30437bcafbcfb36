"""``free_form``: every asked quantity, answered in free text.

This is the hot path of generation. The question sentence and the answer
instruction do not depend on the instance, so each (template, style,
paraphrase) text is bound to them once, and a variant costs one string join.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, seed=0))
>>> v.prompt.splitlines()[-1].endswith('Finish with a line "Final answer: <value> <unit>".')
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from ..instance import Instance
from ..template import Template
from ..units import Style
from ..variant import Variant
from .prompting import instruction_for
from .registry import FormatContext, register_format


@functools.lru_cache(maxsize=8192)
def _bound(t: Template, style: Style, paraphrase: int) -> Callable[[Mapping[str, str]], str]:
    """Paraphrase ``paraphrase`` with its question sentence and answer instruction filled in."""
    text, asks, tail = t.texts[paraphrase], t.display[style].asks[paraphrase], f"\n\n{instruction_for(t)}"
    pieces = text.pieces
    if pieces is None:  # a text that needs Jinja
        return lambda context: text.render({**context, "asks": asks}) + tail
    bound = tuple((False, asks) if name and key == "asks" else (name, key) for name, key in pieces)
    return lambda context: "".join([context[k] if name else k for name, k in bound]) + tail


@register_format("free_form")
def free_form(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """Every asked quantity, answered in free text."""
    t = inst.template
    tid, iid = t.id, inst.instance_id
    prompt = _bound(t, ctx.style, paraphrase)(inst.context)
    return (Variant(f"{tid}:{iid}:p{paraphrase}:free_form", tid, iid, paraphrase, "free_form", prompt,
                    inst.inputs, inst.answers, inst.steps, inst.metadata, {},
                    intermediates=inst.intermediates),)

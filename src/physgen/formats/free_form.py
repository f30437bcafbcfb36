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

from ..instance import Instance
from ..variant import Variant
from .prompting import free_text
from .registry import FormatContext, register_format


@register_format("free_form")
def free_form(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """Every asked quantity, answered in free text."""
    t = inst.template
    tid, iid = t.id, inst.instance_id
    prompt = free_text(t, ctx.style, paraphrase)(inst.context)
    return (Variant(f"{tid}:{iid}:p{paraphrase}:free_form", tid, iid, paraphrase, "free_form", prompt,
                    inst.inputs, inst.answers, inst.steps, inst.metadata, {},
                    intermediates=inst.intermediates),)

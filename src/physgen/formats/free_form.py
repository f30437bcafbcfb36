"""``free_form``: every asked quantity, answered in free text.

This is the hot path of generation: the question sentence comes from the
template's compile-time display texts, and the variant is built positionally.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, seed=0))
>>> v.prompt.splitlines()[-1].endswith('Finish with a line "Final answer: <value> <unit>".')
True
"""

from __future__ import annotations

from collections.abc import Iterator

from ..instance import Instance
from ..variant import Variant
from .prompting import instruction_for
from .registry import FormatContext, register_format


@register_format("free_form")
def free_form(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """Every asked quantity, answered in free text."""
    t = inst.template
    context = dict(inst.context)
    context["asks"] = t.display[ctx.style].asks[paraphrase]
    prompt = f"{t.texts[paraphrase].render(context)}\n\n{instruction_for(t)}"
    tid, iid = t.id, inst.instance_id
    yield Variant(f"{tid}:{iid}:p{paraphrase}:free_form", tid, iid, paraphrase, "free_form", prompt,
                  inst.inputs, inst.answers, inst.steps, inst.metadata, {})

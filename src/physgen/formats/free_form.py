"""``free_form``: every asked quantity, answered in free text.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, seed=0))
>>> v.prompt.splitlines()[-1].endswith('Finish with a line "Final answer: <value> <unit>".')
True
"""

from __future__ import annotations

from collections.abc import Iterator

from ..instance import Instance
from ..variant import Variant
from .prompting import asks, make_variant, render_text, with_instruction
from .registry import FormatContext, register_format


@register_format("free_form")
def free_form(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """Every asked quantity, answered in free text."""
    text = render_text(inst, paraphrase, asks(inst.template, paraphrase, ctx.style))
    yield make_variant(inst, paraphrase, "free_form", with_instruction(text, inst.template))

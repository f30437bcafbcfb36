"""What every format's prompt is made of: the question text, the sentence that asks
for the quantities, the answer instruction, and the variant's standard ids.

The answer instructions here are the ones documented in ``docs/grading.md``; the
graders read replies that follow them and replies that do not.

>>> first, second = instruction(["R", "t"], kind="quantities").split(". ", 1)
>>> print(second)
Finish with "Final answer:" followed by one line per part: "(a) <value> <unit>", "(b) ...".
>>> print(instruction(["x"], kind="choice"))
Finish with a line "Final answer: <letter>".
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from ..instance import Instance
from ..render import asks_sentence, format_symbol, unit_hint
from ..template import Template
from ..units import Style
from ..variant import Variant

Kind = Literal["quantities", "expressions", "choice"]

#: Said in every numerical free-text prompt, so an omitted-data probe does not announce itself.
MISSING_DATA = ("If the data are not enough to find a quantity, say so for that quantity instead of "
                "giving a value.")
_ONE = 'Finish with a line "Final answer: <{what}>".'
_MANY = 'Finish with "Final answer:" followed by one line per part: "(a) <{what}>", "(b) ...".'
LABELS = "abcdefghijklmnopqrstuvwxyz"


def instruction(parts: Sequence[str], kind: Kind) -> str:
    """The answer instruction for a prompt asking ``parts``."""
    if kind == "choice":
        return _ONE.format(what="letter")
    what = "value> <unit" if kind == "quantities" else "expression"
    layout = (_ONE if len(parts) == 1 else _MANY).format(what=what)
    if kind == "expressions":
        return layout + " Write expressions in the symbols of the question."
    return f"{MISSING_DATA} {layout}"


def final_answer(lines: Sequence[str]) -> str:
    """The documented final-answer block for one or several parts' answer texts."""
    if len(lines) == 1:
        return f"Final answer: {lines[0]}"
    return "Final answer:\n" + "\n".join(f"({LABELS[k]}) {line}" for k, line in enumerate(lines))


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


@functools.lru_cache(maxsize=4096)
def instruction_for(template: Template) -> str:
    """The answer instruction of a free-text question asking all of ``template``'s answers."""
    kind: Kind = "expressions" if template.question_type == "algebraic" else "quantities"
    return instruction(list(template.spec.answers), kind)


def with_instruction(question: str, template: Template) -> str:
    """A free-text question followed by its answer instruction."""
    return f"{question}\n\n{instruction_for(template)}"


def make_variant(inst: Instance, paraphrase: int, fmt: str, prompt: str, **fields: object) -> Variant:
    """A variant of ``inst`` with the standard ids (``fields`` override the instance's)."""
    t = inst.template
    suffix = f":{fields.pop('id_suffix')}" if "id_suffix" in fields else ""
    values: dict[str, object] = {
        "variant_id": f"{t.id}:{inst.instance_id}:p{paraphrase}:{fmt}{suffix}",
        "template_id": t.id, "instance_id": inst.instance_id, "paraphrase": paraphrase,
        "format": fmt, "prompt": prompt, "inputs": inst.inputs, "answers": inst.answers,
        "steps": inst.steps, "metadata": inst.metadata, "intermediates": inst.intermediates,
    }
    values.update(fields)
    return Variant(**values)  # type: ignore[arg-type]


def pick(*key: object) -> int:
    """A stable pseudo-random integer from ``key`` (choices that must not depend on the seed's stream)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little")

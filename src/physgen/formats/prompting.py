"""What every format's prompt is made of: the question text (bound once per paraphrase
to what does not change between instances), the sentence that asks for the
quantities, the answer instruction, and stable choices (:func:`pick`).

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal, TypeVar

from ..instance import Instance
from ..labels import PART_LETTERS
from ..render import Text, asks_sentence, format_string, format_symbol, listed, unit_hint
from ..template import Template
from ..units import Style
from ..variant import Variant

Kind = Literal["quantities", "expressions", "choice"]
K = TypeVar("K")
V = TypeVar("V")

#: Said in every numerical free-text prompt, so an omitted-data probe does not announce itself.
MISSING_DATA = ("If the data are not enough to find a quantity, say so for that quantity instead of "
                "giving a value.")
#: Said in every algebraic free-text prompt, for the same reason.
MISSING_GIVENS = ("If the givens are not enough to find a quantity, say so for that quantity instead of "
                  "giving an expression.")
_ONE = 'Finish with a line "Final answer: <{what}>".'
_MANY = 'Finish with "Final answer:" followed by one line per part: "(a) <{what}>", "(b) ...".'


def instruction(parts: Sequence[str], kind: Kind) -> str:
    """The answer instruction for a prompt asking ``parts``."""
    if kind == "choice":
        return _ONE.format(what="letter")
    what = "value> <unit" if kind == "quantities" else "expression"
    layout = (_ONE if len(parts) == 1 else _MANY).format(what=what)
    if kind == "expressions":
        return f"{MISSING_GIVENS} {layout} Write expressions in the symbols of the question."
    return f"{MISSING_DATA} {layout}"


def final_answer(lines: Sequence[str]) -> str:
    """The documented final-answer block for one or several parts' answer texts."""
    if len(lines) == 1:
        return f"Final answer: {lines[0]}"
    return "Final answer:\n" + "\n".join(f"({PART_LETTERS[k]}) {line}" for k, line in enumerate(lines))


def _in_terms_of(template: Template, answer: str, style: Style, names: Iterable[str]) -> str:
    spec = template.spec
    used = template.answer_symbols[answer]
    shown = [format_symbol(n, style, spec.inputs[n].symbol if n in spec.inputs else spec.constants[n].symbol)
             for n in names if n in used]
    return f"in terms of {listed(shown)}" if shown else ""


@functools.lru_cache(maxsize=8192)
def asks(template: Template, paraphrase: int, style: Style, only: str | None = None,
         symbolic: bool = False, without: str | None = None) -> str:
    """The sentence asking for every answer (or ``only`` one), worded per paraphrase. An algebraic
    question lists the symbols to write each answer in, all but ``without`` (a given ``omitted``
    removed)."""
    spec = template.spec
    names = [only] if only else list(spec.answers)
    if template.question_type == "algebraic":
        givens = [n for n in [*spec.inputs, *spec.constants] if n != without]
        parts = [(spec.answers[n].ask, _in_terms_of(template, n, style, givens)) for n in names]
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


def bind(text: Text, fixed: Mapping[str, str], tail: str = "") -> Callable[[Mapping[str, str]], str]:
    """``text`` with the placeholders in ``fixed`` filled in once and ``tail`` appended: a function
    that fills in the rest from a context. For a text of literal parts and ``{{ name }}``
    placeholders (all but a few), a call is one :meth:`str.format_map`.

    Equal to rendering ``text`` with ``{**context, **fixed}``, then adding ``tail``.

    >>> from physgen.render import compile_text
    >>> fill = bind(compile_text("A {{ x }} moves. {{ asks }}"), {"asks": "Find v."}, " Done.")
    >>> fill({"x": "cart"})
    'A cart moves. Find v. Done.'
    >>> bind(compile_text("{{ x | upper }}. {{ asks }}"), {"asks": "Why?"})({"x": "no"})
    'NO. Why?'
    """
    pieces = text.pieces
    if pieces is None:  # a text that needs Jinja
        return lambda context: text.render({**context, **fixed}) + tail
    bound: list[tuple[bool, str]] = []
    for name, key in (*pieces, (False, tail)) if tail else pieces:
        if name and key not in fixed:
            bound.append((True, key))
        elif bound and not bound[-1][0]:  # literals next to each other: join them now
            bound[-1] = (False, bound[-1][1] + (fixed[key] if name else key))
        else:
            bound.append((False, fixed[key] if name else key))
    return format_string(bound).format_map


def per_instance(make: Callable[[Instance, K], V]) -> Callable[[Instance, K], V]:
    """``make(instance, key)``, kept for the last instance and key it was called with.

    A builder is called once per paraphrase of an instance; what depends only on
    the instance and the format's settings (``key``) is then made once.

    >>> import physgen
    >>> from physgen.instance import Instance
    >>> made = []
    >>> @per_instance
    ... def label(inst, key):
    ...     made.append(key)
    ...     return f"{inst.template.id}/{key}"
    >>> inst = Instance.from_batch(physgen.load_catalog()["optics.thin_lens"].sample(1), 0)
    >>> label(inst, 1), label(inst, 1), label(inst, 2), made
    ('optics.thin_lens/1', 'optics.thin_lens/1', 'optics.thin_lens/2', [1, 2])
    """
    last: tuple[Instance, K, V] | None = None

    @functools.wraps(make)
    def cached(inst: Instance, key: K) -> V:
        nonlocal last
        seen = last  # one read: another thread may replace it meanwhile
        if seen is not None and seen[0] is inst and seen[1] == key:
            return seen[2]
        value = make(inst, key)
        last = (inst, key, value)
        return value

    return cached


@functools.lru_cache(maxsize=4096)
def instruction_for(template: Template) -> str:
    """The answer instruction of a free-text question asking all of ``template``'s answers."""
    kind: Kind = "expressions" if template.question_type == "algebraic" else "quantities"
    return instruction(list(template.spec.answers), kind)


@functools.lru_cache(maxsize=8192)
def free_text(t: Template, style: Style, paraphrase: int) -> Callable[[Mapping[str, str]], str]:
    """The free-text prompt of a paraphrase as a function of the context: its text with the
    question sentence and the answer instruction bound (see :func:`bind`).

    >>> import physgen
    >>> t = physgen.load_catalog()["mechanics.simple_pendulum_period"]
    >>> inst = Instance.from_batch(t.sample(1), 0, style="ascii")
    >>> question, rest = free_text(t, "ascii", 1)(inst.context).split("\\n\\n")
    >>> question.split("? ")[0], inst.context["L"] in question, rest == instruction_for(t)
    ('What is the period of small oscillations (in s)', True, True)
    """
    return bind(t.texts[paraphrase], {"asks": t.display[style].asks[paraphrase]}, f"\n\n{instruction_for(t)}")


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

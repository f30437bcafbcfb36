"""``code``: the model writes ``solve(<inputs in SI>)``; it is run in an isolated
sandbox (:mod:`physgen.sandbox`) on several sampled inputs (TPBench-style).

>>> import physgen
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, formats=["code"]))
>>> len(v.code_tests), "def solve(" in get_reference(v)
(5, True)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from ..instance import Instance
from ..reading.compare import close
from ..reading.span import MAX_REPLY, MAX_SPAN
from ..reading.verdict import Grade, PartGrade, Reason
from ..units import Style, format_unit, to_si
from ..variant import CodeTest, Variant
from .prompting import asks, make_variant, pick, render_text
from .registry import FormatContext, GradeSettings, register_format

#: Sampled calls a ``code`` answer must get right.
CODE_TESTS = 5
CODE_FUNCTION = "solve"
_CODE_BLOCK = re.compile(r"```(?:python|py|python3)?[ \t]*\n(.*?)```", re.S)


def extract_code(reply: str) -> str:
    """The last fenced code block of a reply, else the whole text."""
    blocks = _CODE_BLOCK.findall(reply[-MAX_REPLY:])
    return blocks[-1] if blocks else reply[-MAX_REPLY:]


def _si_words(unit: str, style: Style) -> str:
    text = format_unit(to_si(unit).si_unit, style)
    return f"in {text}" if text else "dimensionless"


def _build(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    t = inst.template
    spec = t.spec
    args = ", ".join(spec.inputs)
    returns = ", ".join(spec.answers)
    if len(spec.answers) > 1:
        returns = f"the tuple ({returns})"
    arg_units = "; ".join(f"{n} {_si_words(i.unit, ctx.style)}" for n, i in spec.inputs.items())
    out_units = "; ".join(f"{n} {_si_words(a.unit, ctx.style)}" for n, a in spec.answers.items())
    question = render_text(inst, paraphrase, asks(t, paraphrase, ctx.style))
    prompt = (
        f"{question}\n\nWrite a Python function `{CODE_FUNCTION}({args})` that returns {returns} for "
        f"any values of this kind, not just these. Arguments are floats in SI units ({arg_units}); "
        f"return floats in SI units ({out_units}). Use only the standard library. Reply with the "
        "function in one ```python code block."
    )
    start = 1_000_000 + pick(inst.instance_id, "code") % 1_000_000
    batch = t.sample(CODE_TESTS, inst.metadata.seed, start)
    answers = t.evaluate_si(batch.si)
    tests = tuple(
        CodeTest({n: float(v[i]) for n, v in batch.si.items()},
                 {n: float(v[i]) for n, v in answers.items()})
        for i in range(len(batch))
    )
    yield make_variant(inst, paraphrase, "code", prompt, code_tests=tests)


def _output(out: Any, k: int, name: str, n: int) -> float | None:
    if isinstance(out, dict):
        value = out.get(name)
    elif isinstance(out, list):
        value = out[k] if k < len(out) else None
    else:
        value = out if n == 1 else None
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def grade_code(variant: Variant, reply: str, settings: GradeSettings) -> Grade:
    """Run the reply's ``solve`` on the variant's sampled inputs; a part is right when every
    call returns it within tolerance."""
    from ..sandbox import run_function

    names = list(variant.answers)
    code = extract_code(reply)
    result = run_function(code, CODE_FUNCTION, [dict(c.inputs) for c in variant.code_tests],
                          timeout=settings.timeout)
    if result.status != "ok":
        reason: Reason = "unparseable" if result.status == "syntax" else "wrong_value"
        why = f"{result.status}: {result.error}"
        parts = [PartGrade(n, False, reason, variant.answers[n].text, detail=why) for n in names]
        return Grade.of(parts, code[:MAX_SPAN], "code")
    out: list[PartGrade] = []
    for k, name in enumerate(names):
        bad = ""
        for test, raw in zip(variant.code_tests, result.outputs, strict=False):
            got = _output(raw, k, name, len(names))
            want = test.expected[name]
            if got is None or not close(got, want, settings.rtol):
                bad = f"solve({test.inputs}) gave {got!r} for {name}, expected {want:.6g}"
                break
        if len(result.outputs) != len(variant.code_tests):
            bad = bad or "the function did not return a value for every call"
        out.append(PartGrade(name, not bad, "wrong_value" if bad else "correct", variant.answers[name].text,
                             detail=bad))
    return Grade.of(out, code[:MAX_SPAN], "code")


def get_reference(variant: Variant) -> str:
    """A reply that grades correct: ``solve`` written from the template's expressions."""
    import sympy as sp

    from ..catalog import load_catalog
    from ..expressions import symbols_for

    t = load_catalog()[variant.template_id]
    names = [*t.spec.inputs, *t.constants]
    subs = {symbols_for(names)[c]: sp.Float(v.si_value, 17) for c, v in t.constants.items()}
    body = []
    for name in t.spec.answers:
        expr = t.expressions[name].subs(subs)
        body.append(f"    {name} = {sp.pycode(expr, fully_qualified_modules=True)}")
    returns = ", ".join(t.spec.answers)
    code = "\n".join(["import math", "", f"def {CODE_FUNCTION}({', '.join(t.spec.inputs)}):", *body,
                      f"    return {returns}"])
    return f"```python\n{code}\n```"


@register_format("code", applies=lambda t: t.question_type == "numerical", grader=grade_code,
                 reference=get_reference)
def code(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterator[Variant]:
    """The question, then: write ``solve(...)`` in SI units; graded by running it on sampled inputs."""
    return _build(inst, paraphrase, ctx)

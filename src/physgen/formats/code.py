"""``code``: the model writes ``solve(<inputs in SI>)``; it is run in an isolated
sandbox (:mod:`physgen.sandbox`) on several sampled inputs (TPBench-style).

The sampled inputs (``Variant.code_tests``) come from the template's own stream
under a seed derived from the generation seed (:func:`code_tests_seed`): instance
``k`` gets rows ``5k … 5k+4`` of it, drawn for a block of instances at once.
So they depend only on the seed, the template and ``k``, like the instance.

>>> import physgen
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, formats=["code"]))
>>> len(v.code_tests), "def solve(" in get_reference(v)
(5, True)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any

from ..instance import Instance
from ..reading.compare import close
from ..reading.span import MAX_SPAN
from ..reading.verdict import Grade, PartGrade, Reason
from ..template import Template
from ..units import Style, format_unit, to_si
from ..variant import CodeTest, Variant
from .prompting import bind, per_instance, pick
from .registry import FormatContext, GradeSettings, register_format

#: Sampled calls a ``code`` answer must get right.
CODE_TESTS = 5
#: Instances whose tests are drawn and evaluated together (NumPy, one call).
TEST_BLOCK = 16
CODE_FUNCTION = "solve"
_PYTHON_FENCES = frozenset({"", "python", "py", "python3"})


def extract_code(reply: str) -> str:
    """The last Python code block of a reply (fenced with bare backticks or ``python``,
    ``py``, ``python3``), else the whole text: found in one pass over at most the last
    :data:`physgen.sandbox.MAX_CODE` characters, however long the preamble before it.

    >>> extract_code("# notes\\n" * 5000 + "```python\\ndef solve():\\n    return 1\\n```")
    'def solve():\\n    return 1\\n'
    """
    from ..sandbox import MAX_CODE

    text = reply[-MAX_CODE:]
    last, pos = None, 0
    while (fence := text.find("```", pos)) >= 0:
        eol = text.find("\n", fence + 3, fence + 3 + 40)  # the language tag is a short word
        if eol < 0:
            pos = fence + 3
            continue
        end = text.find("```", eol + 1)
        if end < 0:
            break
        if text[fence + 3:eol].strip().lower() in _PYTHON_FENCES:
            last = text[eol + 1:end]
        pos = end + 3
    return text if last is None else last


def _si_words(unit: str, style: Style) -> str:
    text = format_unit(to_si(unit).si_unit, style)
    return f"in {text}" if text else "dimensionless"


@functools.lru_cache(maxsize=4096)
def _task(t: Template, style: Style) -> str:
    """What follows the question: the function to write, its arguments and what it returns."""
    spec = t.spec
    args = ", ".join(spec.inputs)
    returns = ", ".join(spec.answers)
    if len(spec.answers) > 1:
        returns = f"the tuple ({returns})"
    arg_units = "; ".join(f"{n} {_si_words(i.unit, style)}" for n, i in spec.inputs.items())
    out_units = "; ".join(f"{n} {_si_words(a.unit, style)}" for n, a in spec.answers.items())
    return (
        f"\n\nWrite a Python function `{CODE_FUNCTION}({args})` that returns {returns} for "
        f"any values of this kind, not just these. Arguments are floats in SI units ({arg_units}); "
        f"return floats in SI units ({out_units}). Use only the standard library. Reply with the "
        "function in one ```python code block."
    )


@functools.lru_cache(maxsize=8192)
def _prompt(t: Template, style: Style, paraphrase: int) -> Callable[[Mapping[str, str]], str]:
    return bind(t.texts[paraphrase], {"asks": t.display[style].asks[paraphrase]}, _task(t, style))


def code_tests_seed(seed: int) -> int:
    """The seed of the code tests' own stream, derived from the generation seed.

    The tests of instance ``k`` are instances ``CODE_TESTS·k`` to ``CODE_TESTS·k + CODE_TESTS - 1``
    of the template under this seed, so they depend only on the seed, the template and ``k``,
    and never coincide with the instances the variants show.

    >>> code_tests_seed(0) == code_tests_seed(0) != code_tests_seed(1)
    True
    """
    return pick("code tests", seed)


@functools.lru_cache(maxsize=256)
def _test_block(t: Template, seed: int, block: int) -> tuple[list[list[float]], list[list[float]]]:
    """The SI inputs and answers of the tests of instances ``TEST_BLOCK·block`` onwards, drawn
    and evaluated together: one column per input and per answer. They meet the constraints and
    the plausibility checks; the checks about shown, rounded values do not apply to them."""
    size = TEST_BLOCK * CODE_TESTS
    batch = t.sample(size, code_tests_seed(seed), block * size, displayed=False)
    answers = t.evaluate_si(batch.si)
    return [v.tolist() for v in batch.si.values()], [v.tolist() for v in answers.values()]


@per_instance
def _tests(inst: Instance, key: None) -> tuple[CodeTest, ...]:
    """The tests of one instance: the same for every paraphrase, so made once."""
    t, meta = inst.template, inst.metadata
    block, row = divmod(meta.index, TEST_BLOCK)
    inputs, answers = _test_block(t, meta.seed, block)
    rows = range(row * CODE_TESTS, (row + 1) * CODE_TESTS)
    return tuple(CodeTest(dict(zip(t.spec.inputs, [c[i] for c in inputs], strict=True)),
                          dict(zip(t.spec.answers, [c[i] for c in answers], strict=True))) for i in rows)


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
def code(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """The question, then: write ``solve(...)`` in SI units; graded by running it on sampled inputs."""
    t = inst.template
    tid, iid = t.id, inst.instance_id
    return (Variant(f"{tid}:{iid}:p{paraphrase}:code", tid, iid, paraphrase, "code",
                    _prompt(t, ctx.style, paraphrase)(inst.context), inst.inputs, inst.answers, inst.steps,
                    inst.metadata, code_tests=_tests(inst, None), intermediates=inst.intermediates),)

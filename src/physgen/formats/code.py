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

import ast
import functools
import math
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import InputError
from ..instance import Instance
from ..reading.compare import close
from ..reading.span import MAX_SPAN
from ..reading.verdict import Grade, PartGrade, Reason
from ..template import Template
from ..units import Style, format_unit, to_si
from ..variant import Answer, CodeTest, Variant
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


@per_instance
def _answers(inst: Instance, key: None) -> dict[str, Answer]:
    """The instance's answers, each with its expression in the inputs (``Answer.expr``, made
    when the template compiled: :attr:`~physgen.Template.si_expressions`), from which the
    reference ``solve`` is written, so that the reference needs no catalog."""
    exprs = inst.template.si_expressions
    return {name: a._replace(expr=exprs[name]) for name, a in inst.answers.items()}


#: SymPy's names of the functions templates may use (``expressions.FUNCTIONS``, as SymPy prints
#: them; ``Piecewise``, ``ITE`` and ``sign`` are written out), and of its constants, in Python.
_FUNCTIONS = {**{f: f"math.{f}" for f in ("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
                                             "cosh", "tanh", "asinh", "acosh", "atanh", "sqrt", "exp", "log",
                                             "floor")},
              "ceiling": "math.ceil", "Abs": "abs", "Min": "min", "Max": "max"}
_CONSTANTS = {"pi": "math.pi", "E": "math.e"}
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Constant, ast.Tuple, ast.Compare,
          ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd, ast.BitAnd, ast.BitOr,
          ast.Lt, ast.LtE, ast.Gt, ast.GtE)
#: The longest expression read (a template's longest is about 600 characters).
MAX_EXPR = 10_000


class _ToPython(ast.NodeTransformer):
    """A SymPy-printed expression as Python on ``math``; anything else raises ValueError."""

    def __init__(self, inputs: tuple[str, ...]) -> None:
        self.inputs = set(inputs)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if not isinstance(node, _NODES) or (isinstance(node, ast.Constant) and type(node.value) not in (
                int, float, bool)):
            raise ValueError(f"{type(node).__name__} is not part of an answer's expression")
        return super().generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.inputs:
            return node
        if node.id in _CONSTANTS:
            return ast.parse(_CONSTANTS[node.id], mode="eval").body
        raise ValueError(f"unknown name {node.id!r}")

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.BitAnd | ast.BitOr):  # SymPy prints And, Or as &, |
            op: ast.boolop = ast.And() if isinstance(node.op, ast.BitAnd) else ast.Or()
            return ast.BoolOp(op, [node.left, node.right])
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise ValueError("only plain function calls")
        name, args = node.func.id, [self.visit(a) for a in node.args]
        if name == "Piecewise":  # ((value, condition), ...) -> value if condition else ...
            out: ast.expr = ast.parse("math.nan", mode="eval").body
            for piece in reversed(args):
                if not isinstance(piece, ast.Tuple) or len(piece.elts) != 2:
                    raise ValueError("a Piecewise piece is (value, condition)")
                value, condition = piece.elts
                always = isinstance(condition, ast.Constant) and condition.value is True
                out = value if always else ast.IfExp(condition, value, out)
            return out
        if name == "ITE" and len(args) == 3:  # SymPy's if-then-else of conditions, in a Piecewise's
            return ast.IfExp(args[0], args[1], args[2])
        if name == "sign" and len(args) == 1:  # (x > 0) - (x < 0)
            return ast.BinOp(ast.Compare(args[0], [ast.Gt()], [ast.Constant(0)]), ast.Sub(),
                             ast.Compare(args[0], [ast.Lt()], [ast.Constant(0)]))
        if name not in _FUNCTIONS:
            raise ValueError(f"unknown function {name!r}")
        return ast.Call(ast.parse(_FUNCTIONS[name], mode="eval").body, args, [])


def python_expression(expr: str, inputs: tuple[str, ...]) -> str:
    """``expr`` (as SymPy prints it) as Python on ``math``, in ``inputs``: read with :mod:`ast`,
    never evaluated, so a hostile row's ``expr`` cannot run or hang; ValueError when it is not
    an expression of those inputs and the functions templates may use.

    >>> python_expression("sqrt(2*g*h)/Abs(Min(a, pi))", ("a", "g", "h"))
    'math.sqrt(2 * g * h) / abs(min(a, math.pi))'
    >>> python_expression("Piecewise((x, x > 1), (1, True))", ("x",))
    'x if x > 1 else 1'
    >>> python_expression("Piecewise((x, ITE(x > 0, x < 2, x < -2)), (0, True))", ("x",))
    'x if (x < 2 if x > 0 else x < -2) else 0'
    """
    if len(expr) > MAX_EXPR:
        raise ValueError(f"longer than {MAX_EXPR:,} characters")
    try:
        tree = _ToPython(inputs).visit(ast.parse(expr, mode="eval"))
    except (SyntaxError, RecursionError, MemoryError) as exc:
        raise ValueError(f"not an expression ({type(exc).__name__})") from None
    return ast.unparse(ast.fix_missing_locations(tree))


@functools.lru_cache(maxsize=1024)
def _solution(inputs: tuple[str, ...], answers: tuple[tuple[str, str], ...]) -> str:
    """``solve(*inputs)`` returning each answer, written from its expression."""
    body = [f"    {name} = {python_expression(expr, inputs)}" for name, expr in answers]
    return "\n".join(["import math", "", f"def {CODE_FUNCTION}({', '.join(inputs)}):", *body,
                      f"    return {', '.join(name for name, _ in answers)}"])


def get_reference(variant: Variant) -> str:
    """A reply that grades correct: ``solve`` written from the answers' expressions (``Answer.expr``)."""
    answers = tuple((name, a.expr) for name, a in variant.answers.items() if a.expr is not None)
    if len(answers) != len(variant.answers):
        raise InputError(f"{variant.variant_id} carries no answer expressions (it was made before code "
                         "variants carried them); generate it again with this version of physgen")
    try:
        code = _solution(tuple(variant.inputs), answers)
    except ValueError as exc:
        raise InputError(f"{variant.variant_id}: an answer's expr cannot be read: {exc}") from None
    return f"```python\n{code}\n```"


def _applies(t: Template) -> bool:
    """Numerical templates whose answers have closed forms (a template computed by a numerical
    ``solver`` has no expression to write the reference ``solve`` from)."""
    return t.question_type == "numerical" and t.spec.solver is None


@register_format("code", applies=_applies, grader=grade_code, reference=get_reference)
def code(inst: Instance, paraphrase: int, ctx: FormatContext) -> tuple[Variant, ...]:
    """The question, then: write ``solve(...)`` in SI units; graded by running it on sampled inputs."""
    t = inst.template
    tid, iid = t.id, inst.instance_id
    prompt = _prompt(t, ctx.style, paraphrase)(inst.context)
    return (Variant(f"{tid}:{iid}:p{paraphrase}:code", tid, iid, paraphrase, "code", prompt, inst.inputs,
                    _answers(inst, None), inst.steps, inst.metadata, code_tests=_tests(inst, None),
                    intermediates=inst.intermediates),)

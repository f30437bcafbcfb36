"""Parse the SymPy expressions written in template files, in a closed namespace.

A template file is untrusted data, so an expression is checked against a small
grammar before SymPy sees it (SymPy's parser evaluates what it reads): names,
numbers, ``+ - * / ** ^``, comparisons and calls of the known functions, at most
:data:`MAX_EXPRESSION_LENGTH` characters and :data:`MAX_DEPTH` levels deep. A
constant power may not exceed :data:`MAX_POWER`, an integer literal
:data:`MAX_INTEGER`, and every part without names must be a finite real number,
so nothing like ``9**9**9`` reaches SymPy's exact arithmetic.

>>> parse_expression("(lambda: 1)() + v0", ["v0"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
physgen.expressions.ExpressionError: '(lambda: 1)() + v0' uses a call of a lambda, which ...
>>> parse_expression("9**9**9", [])
Traceback (most recent call last):
...
physgen.expressions.ExpressionError: '9**9**9' raises to the power 387420489; powers are at most 64

Template quantities are often named ``E``, ``I``, ``N``, ``S`` or ``Q``, which
SymPy's default namespace maps to Euler's number, the imaginary unit and
functions. Here every template name is a plain real symbol, only a fixed set of
functions is known, and any other name is an error.

>>> expr = parse_expression("E*I/N", ["E", "I", "N"])
>>> sorted(str(s) for s in expr.free_symbols)
['E', 'I', 'N']
>>> parse_expression("2*pi*sqrt(L/g)", ["L", "g"])
2*pi*sqrt(L/g)
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    parse_expr,
    standard_transformations,
)

from .errors import PhysgenError

FUNCTIONS: dict[str, Any] = {
    "pi": sp.pi,
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan,
    "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "atan2": sp.atan2,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
    "asinh": sp.asinh, "acosh": sp.acosh, "atanh": sp.atanh,
    "sqrt": sp.sqrt, "cbrt": sp.cbrt, "exp": sp.exp, "log": sp.log, "ln": sp.log,
    "log10": lambda x: sp.log(x, 10),
    "Abs": sp.Abs, "abs": sp.Abs, "Min": sp.Min, "Max": sp.Max,
    "floor": sp.floor, "ceiling": sp.ceiling, "sign": sp.sign, "Piecewise": sp.Piecewise,
}

_TRANSFORMATIONS = (*standard_transformations, convert_xor)


#: The longest expression a template may hold, in characters (the catalog's longest is 242).
MAX_EXPRESSION_LENGTH = 1_000
#: How deeply an expression may nest, in syntax-tree levels (the catalog's deepest is 15).
MAX_DEPTH = 50
#: The largest constant exponent (the catalog's largest is 4).
MAX_POWER = 64
#: The largest integer literal.
MAX_INTEGER = 10**18
#: The largest magnitude of a part of an expression that holds no names.
MAX_CONSTANT = 1e300


class ExpressionError(PhysgenError, ValueError):
    """An expression could not be parsed, or uses a name or construct it may not use."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(" ".join(message.split()))  # one line, whatever the text held
        self.fix = fix


_DEFAULT_FIX = "write a SymPy expression such as 'F*d/t' or '2*pi*sqrt(L/g)' (use ** or ^ for powers)"
_PLAIN_FIX = "use names, numbers, + - * / ** and the known functions only"
_OPERATORS: dict[type[ast.AST], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: float(a**b),
}
_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_FLOAT_FUNCTIONS: dict[str, Callable[..., float]] = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
    "atan": math.atan, "atan2": math.atan2, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh,
    "sqrt": math.sqrt, "cbrt": math.cbrt, "exp": math.exp, "log": math.log, "ln": math.log,
    "log10": math.log10, "Abs": abs, "abs": abs, "Min": min, "Max": max, "floor": math.floor,
    "ceiling": math.ceil, "sign": lambda x: math.copysign(1.0, x) if x else 0.0,
}


def _short(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to about ``limit`` characters (an error message stays one short line)."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 2] + "…'"


def _describe(node: ast.AST) -> str:
    """What a construct an expression may not hold is, in words."""
    names: dict[type[ast.AST], str] = {
        ast.Lambda: "a lambda", ast.Subscript: "indexing ([…])",
        ast.Starred: "unpacking (*)", ast.BoolOp: "'and'/'or'", ast.IfExp: "'if … else'",
        ast.NamedExpr: "':='", ast.List: "a list", ast.Dict: "a dict", ast.Set: "a set",
        ast.ListComp: "a comprehension", ast.SetComp: "a comprehension", ast.DictComp: "a comprehension",
        ast.GeneratorExp: "a generator", ast.JoinedStr: "an f-string", ast.Await: "'await'",
        ast.Yield: "'yield'", ast.YieldFrom: "'yield'", ast.Slice: "a slice", ast.Tuple: "a tuple",
    }
    if isinstance(node, ast.Attribute):
        return f"attribute access '.{node.attr}'"
    if isinstance(node, ast.Constant):
        return f"the literal {_short(repr(node.value), 40)[1:-1]}"
    return names.get(type(node), type(node).__name__)


def _check_syntax(text: str, known: set[str]) -> None:
    """Check ``text`` against the expression grammar before SymPy reads it.

    Raises :class:`ExpressionError` for anything but names, numbers, arithmetic,
    comparisons and calls of the known functions, for unknown names and functions,
    and for powers, literals or constants too large to compute with.
    """
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(f"the expression is {len(text):,} characters long; at most "
                              f"{MAX_EXPRESSION_LENGTH:,} are allowed",
                              "split it: give part of it its own answer or intermediate")
    try:
        tree = ast.parse(text.replace("^", "**").strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot parse {_short(text)}: SyntaxError: {exc.msg}",
                              _unit_fix(text) or _DEFAULT_FIX) from None
    except (RecursionError, MemoryError):
        raise ExpressionError(f"cannot parse {_short(text)}: it nests too deeply", _PLAIN_FIX) from None
    unknown_names: set[str] = set()
    unknown_funcs: set[str] = set()
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:  # without recursion, whatever the nesting
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExpressionError(f"{_short(text)} nests more than {MAX_DEPTH} levels deep",
                                  "split it: give part of it its own answer or intermediate")
        children = _children(node, text)
        if isinstance(node, ast.Name) and node.id not in known and node.id not in FUNCTIONS:
            unknown_names.add(node.id)
        elif isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Name)
            if node.func.id not in FUNCTIONS or node.func.id == "pi":
                unknown_funcs.add(node.func.id)
        stack.extend((child, depth + 1) for child in children)
    if unknown_funcs:
        raise ExpressionError(f"unknown function(s) {sorted(unknown_funcs)} in {_short(text)}",
                              f"use one of: {', '.join(sorted(k for k in FUNCTIONS if k != 'pi'))}")
    if unknown_names:
        raise ExpressionError(
            f"unknown name(s) {sorted(unknown_names)} in {_short(text)}",
            f"define them under `inputs` or `constants`, or use one of: {', '.join(sorted(known))}",
        )
    _value(tree.body, text)


def _not_allowed(text: str, what: str) -> ExpressionError:
    return ExpressionError(f"{_short(text)} uses {what}, which expressions may not hold", _PLAIN_FIX)


def _children(node: ast.AST, text: str) -> list[ast.expr]:
    """The parts of an allowed ``node`` to check next; raises if ``node`` is not allowed."""
    if isinstance(node, ast.Name):
        return []
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        if isinstance(node.value, int) and abs(node.value) > MAX_INTEGER:
            raise ExpressionError(f"{_short(text)} holds an integer literal of "
                                  f"{len(str(abs(node.value))):,} digits; at most {MAX_INTEGER:.0e} is "
                                  "allowed", "write a large number as a float, e.g. 6.02e23")
        if isinstance(node.value, float) and not math.isfinite(node.value):
            raise ExpressionError(f"{_short(text)} holds a literal too large for a float", _PLAIN_FIX)
        return []
    if isinstance(node, ast.BinOp):
        if type(node.op) not in _OPERATORS:
            raise _not_allowed(text, f"the operator {type(node.op).__name__}")
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.UAdd | ast.USub):
            raise _not_allowed(text, f"the operator {type(node.op).__name__}")
        return [node.operand]
    if isinstance(node, ast.Compare):
        if not all(isinstance(op, _COMPARISONS) for op in node.ops):
            raise _not_allowed(text, "a comparison other than < <= > >= == !=")
        return [node.left, *node.comparators]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.keywords:
            raise _not_allowed(text, "keyword arguments")
        children: list[ast.expr] = []
        for arg in node.args:
            if isinstance(arg, ast.Tuple) and node.func.id == "Piecewise" and not any(
                    isinstance(e, ast.Starred) for e in arg.elts):
                children.extend(arg.elts)  # Piecewise((value, condition), ...)
            elif isinstance(arg, ast.Starred | ast.Tuple):
                raise _not_allowed(text, _describe(arg))
            else:
                children.append(arg)
        return children
    if isinstance(node, ast.Call):
        raise _not_allowed(text, f"a call of {_describe(node.func)}")
    raise _not_allowed(text, _describe(node))


def _number(x: float) -> str:
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else f"{x:.3g}"


def _value(node: ast.expr, text: str) -> float | None:
    """The value of a part of an allowed expression that holds no names (``pi`` aside), as a
    float; None for a part with names. Raises if a constant exponent exceeds
    :data:`MAX_POWER`, or a part without names is not a finite real number of at most
    :data:`MAX_CONSTANT` (the depth is bounded already, so recursion is safe)."""
    if isinstance(node, ast.Constant):
        return float(node.value) if isinstance(node.value, int | float) else None
    if isinstance(node, ast.Name):
        return math.pi if node.id == "pi" else None
    if isinstance(node, ast.UnaryOp):
        v = _value(node.operand, text)
        return None if v is None else -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = _value(node.left, text), _value(node.right, text)
        if isinstance(node.op, ast.Pow) and b is not None and abs(b) > MAX_POWER:
            raise ExpressionError(f"{_short(text)} raises to the power {_number(b)}; powers are at most "
                                  f"{MAX_POWER}", "write the power out, or keep exponents small")
        if a is None or b is None:
            return None
        return _finite(lambda: _OPERATORS[type(node.op)](a, b), node, text)
    if isinstance(node, ast.Compare):
        for part in (node.left, *node.comparators):
            _value(part, text)
        return None
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    values = [_value(e, text) for arg in node.args
              for e in (arg.elts if isinstance(arg, ast.Tuple) else [arg])]
    function = _FLOAT_FUNCTIONS.get(node.func.id)
    if function is None or not values or any(v is None for v in values) or any(
            isinstance(a, ast.Tuple) for a in node.args):
        return None
    return _finite(lambda: function(*values), node, text)


def _finite(compute: Callable[[], float], node: ast.expr, text: str) -> float:
    try:
        value = compute()
        ok = isinstance(value, float | int) and math.isfinite(value) and abs(value) <= MAX_CONSTANT
    except (ArithmeticError, ValueError, TypeError):
        ok = False
    if not ok:
        part = ast.get_source_segment(text.replace("^", "**").strip(), node) or ast.unparse(node)
        raise ExpressionError(f"the part {_short(part)} of {_short(text)} is not a finite real number "
                              f"of at most {MAX_CONSTANT:.0e}",
                              "fix the constant part; very large or small values belong in `constants`")
    return float(value)


#: A number followed by a unit symbol ("2 m/s", "20 kPa"): a unit literal, which expressions cannot hold.
_UNIT_LITERAL = re.compile(r"\d\s*(?:[a-zA-Zµμ°Ω][a-zA-Z]*)(?:\s*/|\b)")


def _unit_fix(text: str) -> str:
    """The fix for an expression that holds a unit literal ("" if it holds none)."""
    if not _UNIT_LITERAL.search(text):
        return ""
    return ("expressions take no units: names stand for values in SI base units, so write "
            "'2 m/s' as 2 and '20 kPa' as 20000, or declare a constant and use its name")

def symbols_for(names: Iterable[str]) -> dict[str, sp.Symbol]:
    """Real SymPy symbols for template names (``real=True`` lets SymPy simplify roots)."""
    return {n: sp.Symbol(n, real=True) for n in names}


def parse_expression(
    text: str,
    allowed: Iterable[str],
    *,
    substitutions: dict[str, sp.Expr] | None = None,
) -> Any:
    """Parse ``text`` with only ``allowed`` names (and the known functions) in scope.

    ``substitutions`` maps further names (earlier answers) to their expressions. The text
    is checked against the expression grammar (module docstring) before SymPy reads it.
    """
    allowed = list(allowed)
    subs = substitutions or {}
    _check_syntax(text, {*allowed, *subs})
    names = symbols_for([*allowed, *subs])
    local: dict[str, Any] = {**FUNCTIONS, **names}
    try:
        expr = parse_expr(
            text,
            local_dict=local,
            global_dict={"Integer": sp.Integer, "Float": sp.Float, "Rational": sp.Rational,
                         "Symbol": sp.Symbol, "Function": sp.Function},
            transformations=_TRANSFORMATIONS,
            evaluate=True,
        )
    except Exception as exc:  # TypeError, e.g. a function given the wrong number of arguments
        message = f"cannot parse {_short(text)}: {type(exc).__name__}: {exc}".rstrip(": ")
        raise ExpressionError(message, _unit_fix(text) or _DEFAULT_FIX) from None
    if isinstance(expr, bool) or not isinstance(expr, sp.Basic):
        raise ExpressionError(
            f"{_short(text)} evaluates to {expr!r}, not an expression",
            "compare with <, <=, >, >= (== and != are evaluated by Python, not SymPy)",
        )
    if subs:
        expr = expr.subs({names[k]: v for k, v in subs.items()})
    return expr


def expand_in_order(raw: Mapping[str, Any], order: Iterable[str]) -> dict[str, Any]:
    """The expressions of ``raw`` (each derived quantity's, parsed once with the other derived
    names as plain symbols: :func:`physgen.graph.solution_graph`), taken in ``order``, each with
    the names expanded before it replaced by their expansions; names ``raw`` lacks stay symbols
    (pass a part of ``raw`` to keep some). The same expressions as parsing each text
    with ``substitutions`` of the earlier ones, without parsing again (``xreplace``: the names are
    plain symbols).

    >>> raw = {"v": parse_expression("d/t", ["d", "t"]), "K": parse_expression("m*v**2/2", ["m", "v"])}
    >>> expand_in_order(raw, ["v", "K"])["K"]
    d**2*m/(2*t**2)
    """
    full: dict[str, Any] = {}
    for name in order:
        if name not in raw:
            continue
        expr = raw[name]
        full[name] = rebuilt(expr.xreplace({s: full[str(s)] for s in expr.free_symbols if str(s) in full}))
    return full


def rebuilt(expr: Any) -> Any:
    """``expr`` built again from its leaves, each node from its rebuilt arguments: the form it has
    after a pickle round trip (the cache), so an expression prints the same compiled or loaded.
    A substitution can leave a product nested in a product, which prints its factors uncancelled
    (``asin((L*g*tanh(k*h))*sin(θ0)/(L*g))``) and would mark the right option among canonical
    wrong ones.

    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> nested = sp.Mul(sp.Mul(x, y, evaluate=False), 1 / (x * y), evaluate=False)
    >>> rebuilt(nested)
    1
    """
    return expr if not expr.args else expr.func(*[rebuilt(a) for a in expr.args])


def regimes(expr: Any) -> list[Any]:
    """``expr`` once per branch of its ``Piecewise`` parts (the k-th branch of each, the last where
    one has fewer), for checks that evaluate on Pint quantities, which NumPy's ``select`` cannot
    hold; the conditions' sides are checked like constraints' (:func:`regime_conditions`).

    >>> regimes(parse_expression("Piecewise((a, a > b), (2*b, True)) + 1", ["a", "b"]))
    [a + 1, 2*b + 1]
    """
    parts = list(expr.atoms(sp.Piecewise))
    if not parts:
        return [expr]
    count = max(len(p.args) for p in parts)
    return [expr.replace(sp.Piecewise, lambda *pairs, k=k: pairs[min(k, len(pairs) - 1)].expr)
            for k in range(count)]


def regime_conditions(expr: Any) -> list[Any]:
    """``lhs - rhs`` of each comparison in the conditions of ``expr``'s ``Piecewise`` parts.

    >>> regime_conditions(parse_expression("Piecewise((a, a > b), (2*b, True))", ["a", "b"]))
    [a - b]
    """
    return [rel.lhs - rel.rhs for p in expr.atoms(sp.Piecewise) for pair in p.args
            for rel in pair.cond.atoms(sp.core.relational.Relational)]


def regime_value(symbols: list[Any], expr: Any, args: list[Any]) -> Any:
    """``expr`` evaluated on Pint quantities ``args`` (for the load-time dimension checks), each
    ``Piecewise`` regime apart: the regimes must share a dimension, and the two sides of each
    condition must too. Raises ``ValueError`` (or Pint's error) where they do not."""
    for side in regime_conditions(expr):
        sp.lambdify(symbols, side, modules="numpy")(*args)
    for part in sorted(expr.atoms(sp.Piecewise), key=str):  # each on its own: no mix of arms hides a mismatch
        arms = [(k, _dimension(sp.lambdify(symbols, regimes(pair.expr)[0], modules="numpy")(*args)))
                for k, pair in enumerate(part.args, 1) if not pair.expr.is_zero]  # 0 is of any dimension
        if len({d for _, d in arms}) > 1:
            shown = ", ".join(f"arm {k} is {d}" for k, d in arms)
            raise ValueError(f"its Piecewise regimes have different dimensions ({shown} in "
                             f"{_short(str(part))})")
    values = [sp.lambdify(symbols, e, modules="numpy")(*args) for e in regimes(expr)]
    dims = {_dimension(v) for v in values}
    if len(dims) > 1:
        raise ValueError(f"its Piecewise regimes have different dimensions ({', '.join(sorted(dims))})")
    return values[0]


def _dimension(value: Any) -> str:
    """The dimension of a Pint quantity (or of a plain number: dimensionless), in words."""
    return str(value.dimensionality) if hasattr(value, "dimensionality") and value.dimensionality \
        else "dimensionless"

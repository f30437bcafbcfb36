"""Parse the SymPy expressions written in template files, in a closed namespace.

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

import re
from collections.abc import Iterable
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.parsing.sympy_parser import (
    convert_xor,
    parse_expr,
    standard_transformations,
)

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


class ExpressionError(ValueError):
    """An expression could not be parsed, or uses a name it may not use."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


#: A number followed by a unit symbol ("2 m/s", "20 kPa"): a unit literal, which expressions cannot hold.
_UNIT_LITERAL = re.compile(r"\d\s*(?:[a-zA-Zµμ°Ω][a-zA-Z]*)(?:\s*/|\b)")

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

    ``substitutions`` maps further names (earlier answers) to their expressions.
    """
    allowed = list(allowed)
    subs = substitutions or {}
    names = symbols_for([*allowed, *subs])
    local: dict[str, Any] = {**FUNCTIONS, **names}
    if "__" in text:
        raise ExpressionError(f"{text!r} is not a plain expression", "use arithmetic and functions only")
    try:
        expr = parse_expr(
            text,
            local_dict=local,
            global_dict={"Integer": sp.Integer, "Float": sp.Float, "Rational": sp.Rational,
                         "Symbol": sp.Symbol, "Function": sp.Function},
            transformations=_TRANSFORMATIONS,
            evaluate=True,
        )
    except Exception as exc:  # SyntaxError, TypeError, TokenError, ...
        fix = "write a SymPy expression such as 'F*d/t' or '2*pi*sqrt(L/g)' (use ** or ^ for powers)"
        if _UNIT_LITERAL.search(text):
            fix = ("expressions take no units: names stand for values in SI base units, so write "
                   "'2 m/s' as 2 and '20 kPa' as 20000, or declare a constant and use its name")
        message = f"cannot parse {text!r}: {type(exc).__name__}: {exc}".rstrip(": ")
        raise ExpressionError(message, fix) from None
    if isinstance(expr, bool) or not isinstance(expr, sp.Basic):
        raise ExpressionError(
            f"{text!r} evaluates to {expr!r}, not an expression",
            "compare with <, <=, >, >= (== and != are evaluated by Python, not SymPy)",
        )
    unknown_funcs = sorted({type(f).__name__ for f in expr.atoms(AppliedUndef)})
    if unknown_funcs:
        raise ExpressionError(
            f"unknown function(s) {unknown_funcs} in {text!r}",
            f"use one of: {', '.join(sorted(k for k in FUNCTIONS if k != 'pi'))}",
        )
    known = set(allowed) | set(subs)
    unknown = sorted(str(s) for s in expr.free_symbols if str(s) not in known)
    if unknown:
        raise ExpressionError(
            f"unknown name(s) {unknown} in {text!r}",
            f"define them under `inputs` or `constants`, or use one of: {', '.join(sorted(known))}",
        )
    if subs:
        expr = expr.subs({names[k]: v for k, v in subs.items()})
    return expr

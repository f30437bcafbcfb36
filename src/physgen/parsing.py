"""Read numbers, units and expressions out of model-written text, safely and fast.

Nothing here calls ``eval`` or SymPy: arithmetic goes through a whitelisted
``ast`` evaluator in floating point, so any string is read in bounded time.

>>> read_quantity("5.8 × 10^5 N/C")
(580000.0, 'N/C')
>>> read_quantity(r"$5.8\\times10^{5}\\,\\mathrm{N\\,C^{-1}}$")
(580000.0, 'N C^(-1)')
>>> read_quantity(r"2\\pi\\sqrt{0.5/200} s")[1], round(read_quantity(r"2\\pi\\sqrt{0.5/200} s")[0], 4)
('s', 0.3142)
>>> evaluate("2*pi*sqrt(m/k)", {"m": 0.5, "k": 200.0})
0.3141592653589793
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from .units import Quantity, parse_unit

#: Longest text span handed to the expression reader (longer spans are cut).
MAX_EXPRESSION = 300

_FUNCS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": math.asin, "acos": math.acos, "atan": math.atan, "arcsin": math.asin,
    "arccos": math.acos, "arctan": math.atan, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "exp": math.exp, "log": math.log, "ln": math.log, "log10": math.log10,
    "Abs": abs, "abs": abs, "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "atan2": math.atan2, "Min": min, "Max": max,
}
_CONSTS = {"pi": math.pi, "π": math.pi}
#: Names an expression may use that are not variables.
KNOWN_NAMES = frozenset(_FUNCS) | frozenset(_CONSTS)

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "κ": "kappa", "λ": "lam", "μ": "mu", "ν": "nu", "ξ": "xi",
    "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Δ": "Delta", "Φ": "Phi", "Ω": "Omega",
}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜ", "0123456789aeoxhklmnpst")

_LATEX_WORDS = [
    (re.compile(r"\\(?:text|mathrm|mathit|operatorname|textrm|mbox|rm)\s*\{([^{}]*)\}"), r" \1 "),
    (re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), r"((\1)/(\2))"),
    (re.compile(r"\\sqrt\s*\{([^{}]*)\}"), r"sqrt(\1)"),
]
# JSON-escaped LaTeX that lost its backslash: "\text" read as TAB + "ext", "\frac" as FF + "rac"
_ESCAPES = {"\t": "t", "\f": "f", "\b": "b", "\r": "r", "\v": "v", "\a": "a"}
_LOST_ESCAPE = re.compile("([\t\f\b\r\v\a])([a-z]{2,})")
_EXP_BRACES = re.compile(r"\^\s*\{([^{}]*)\}")
_LATEX_DROP = re.compile(r"\\(?:left|right|displaystyle|,|;|!|:|quad|qquad|big|Big)|\$|\\ ")
_TIMES = re.compile(r"\s*(?:\\times|\\cdot|×|·|\t\s*imes|\ttimes|\*)\s*")
_SCI = re.compile(
    r"(?<![\w.])([-+−]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?:\\times|\\cdot|×|·|x|\*|\t\s*imes|\ttimes)\s*"
    r"10\s*(?:\^\s*\{?\s*\(?\s*([-+−]?\s*\d+)\s*\)?\s*\}?|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))"
)
_NUMBER = re.compile(r"(?<![\w.])[-+−]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_UNIT_CHARS = re.compile(r"[A-Za-zΩµμ°%‰'\"/*·^()\-−0-9\s⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*")
_UNIT_WORDS = {
    "metres": "meter", "metre": "meter", "litres": "liter", "litre": "liter", "ohms": "ohm",
    "Ω": "ohm", "kΩ": "kohm", "MΩ": "Mohm", "mΩ": "mohm", "°C": "degC", "℃": "degC",
    "°F": "degF", "°": "deg", "degrees": "deg", "degree": "deg", "%": "percent",
    "sec": "s", "secs": "s", "hrs": "h", "hr": "h", "mins": "min", "gauss": "G",
}


def normalise(text: str) -> str:
    """Plain, Python-like text from LaTeX and unicode maths (``5.8\\times10^{5}`` → ``5.8e5``)."""
    t = text[: MAX_EXPRESSION * 4]
    t = _LOST_ESCAPE.sub(_restore_escape, t)
    t = t.replace("\u2212", "-").replace("−", "-").replace("–", "-")
    t = _EXP_BRACES.sub(r"^(\1)", t)
    for pattern, repl in _LATEX_WORDS:
        for _ in range(3):  # nested \frac{\sqrt{..}}{..} unwrap from the inside out
            t = pattern.sub(repl, t)
    t = _SCI.sub(_sci_repl, t)
    t = _LATEX_DROP.sub(" ", t)
    t = t.replace("\\times", "*").replace("\\cdot", "*").replace("×", "*").replace("·", "*")
    t = t.replace("√", "sqrt").replace("\\sqrt", "sqrt")
    t = t.replace("\\pi", " pi ").replace("π", " pi ").replace("\\mu", "µ").replace("\\Omega", "Ω")
    t = t.replace("\\circ", "°").replace("^°", "°").replace("^{°}", "°").replace("\\%", "%")
    t = t.translate(_SUBSCRIPTS)
    t = re.sub(r"([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)", lambda m: "^(" + m.group(1).translate(_SUPERSCRIPTS) + ")", t)
    t = t.replace("{", "(").replace("}", ")").replace("\\", " ")
    return re.sub(r"\s+", " ", t).strip()


def _restore_escape(m: re.Match[str]) -> str:
    letter, word = _ESCAPES[m.group(1)], m.group(2)
    # TAB + "imes" lost the t of \times; TAB + "times" kept it
    return "\\" + (word if word.startswith(letter) else letter + word)


def _sci_repl(m: re.Match[str]) -> str:
    exp = m.group(2) if m.group(2) is not None else m.group(3).translate(_SUPERSCRIPTS)
    return f"{m.group(1).replace('−', '-')}e{exp.replace(' ', '').replace('−', '-')}"


class _Evaluator(ast.NodeVisitor):
    """Float arithmetic over a whitelisted subset of Python expressions."""

    def __init__(self, names: Mapping[str, float]) -> None:
        self.names = names

    def visit_Expression(self, node: ast.Expression) -> float:
        return float(self.visit(node.body))

    def visit_Constant(self, node: ast.Constant) -> float:
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise ValueError("only numbers are allowed")
        return float(node.value)

    def visit_Name(self, node: ast.Name) -> float:
        if node.id in self.names:
            return float(self.names[node.id])
        if node.id in _CONSTS:
            return _CONSTS[node.id]
        raise ValueError(f"unknown name {node.id!r}")

    def visit_UnaryOp(self, node: ast.UnaryOp) -> float:
        value = float(self.visit(node.operand))
        if isinstance(node.op, ast.USub):
            return -value
        if isinstance(node.op, ast.UAdd):
            return value
        raise ValueError("unsupported operator")

    def visit_BinOp(self, node: ast.BinOp) -> float:
        a, b = float(self.visit(node.left)), float(self.visit(node.right))
        op = node.op
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.Pow | ast.BitXor):
            if abs(b) > 1e4:
                raise ValueError("exponent too large")
            result = a**b
            if isinstance(result, complex):
                raise ValueError("complex result")
            return float(result)
        raise ValueError("unsupported operator")

    def visit_Call(self, node: ast.Call) -> float:
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCS or node.keywords:
            raise ValueError("unsupported function")
        args = [float(self.visit(a)) for a in node.args]
        return float(_FUNCS[node.func.id](*args))

    def generic_visit(self, node: ast.AST) -> Any:
        raise ValueError(f"unsupported syntax {type(node).__name__}")


_IMPLICIT = [
    (re.compile(r"(\d|\))\s*(?=[A-Za-z(])(?![eE][-+]?\d)"), r"\1*"),  # 2pi, 2(x), )( but not 5e3
    (re.compile(r"\b(pi)\s*(?=[\w(])"), r"\1*"),  # pi r, pi(x)
]


def to_python(text: str) -> str:
    """Make implicit multiplication and ``^`` explicit: ``2 pi sqrt(x)`` → ``2*pi*sqrt(x)``."""
    t = text.replace("^", "**")
    for pattern, repl in _IMPLICIT:
        t = pattern.sub(repl, t)
    t = re.sub(r"(?<=[\w)])\s+(?=[A-Za-z_(])", "*", t)  # "pi r" -> "pi*r", "m g" -> "m*g"
    for name in _FUNCS:  # sqrt*(x) -> sqrt(x)
        t = t.replace(f"{name}*(", f"{name}(")
    return t


def evaluate(text: str, names: Mapping[str, float] | None = None) -> float:
    """Evaluate an arithmetic expression in floating point; ``ValueError`` if it is not one."""
    if len(text) > MAX_EXPRESSION:
        raise ValueError("expression too long")
    try:
        tree = ast.parse(text, mode="eval")
        value = float(_Evaluator(names or {}).visit(tree))
    except (SyntaxError, TypeError, ZeroDivisionError, OverflowError, RecursionError,
            MemoryError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    return value


@functools.lru_cache(maxsize=4096)
def unit_of(text: str) -> str | None:
    """A Pint-readable unit from unit text, or None (``"m/s²"`` → ``"m/s^(2)"``)."""
    t = text.strip().strip(".,;:)]").strip()
    if not t:
        return ""
    t = _UNIT_WORDS.get(t, t)
    for word, repl in _UNIT_WORDS.items():
        if len(word) > 1 and word in t:
            t = t.replace(word, repl)
    t = t.replace("°C", "degC").replace("°", "deg").replace("Ω", "ohm").replace("%", "percent")
    t = t.replace("·", "*").replace("μ", "u").replace("µ", "u")
    t = re.sub(r"\^\(?(-?\d+)\)?", r"^(\1)", t)
    try:
        parse_unit(t)
    except ValueError:
        return None
    return t


@functools.lru_cache(maxsize=4096)
def conversion(unit: str, target: str) -> tuple[float, float] | None:
    """``(factor, offset)`` taking a value in ``unit`` to ``target``; None if dimensions differ."""
    try:
        zero = Quantity(0.0, unit or "dimensionless").to(target or "dimensionless").magnitude
        one = Quantity(1.0, unit or "dimensionless").to(target or "dimensionless").magnitude
    except Exception:  # DimensionalityError and friends
        return None
    return float(one - zero), float(zero)


# English words Pint would read as units (in = inch, at = technical atmosphere, a = year, ...)
_NOT_UNITS = frozenset({"in", "at", "a", "an", "and", "or", "is", "it", "the", "of", "to", "for",
                        "if", "as", "so", "we", "be", "by", "on", "are", "was", "per", "then", "from"})


def _split_unit(rest: str) -> tuple[str, str]:
    """The longest leading piece of ``rest`` that reads as a unit, and what is left."""
    m = _UNIT_CHARS.match(rest)
    candidate = m.group(0) if m else ""
    words = candidate.strip().split(" ")
    if not words or words[0].lower() in _NOT_UNITS:
        return "", rest
    for k in range(min(len(words), 6), 0, -1):
        piece = " ".join(words[:k]).strip()
        piece = piece.rstrip("(-").strip()
        if piece and unit_of(piece) is not None:
            return unit_of(piece) or "", rest[len(" ".join(words[:k])) + 1:]
    return "", rest


def numbers(text: str) -> list[tuple[float, str, int]]:
    """Every number in normalised text with the unit after it: ``(value, unit, position)``."""
    out: list[tuple[float, str, int]] = []
    for m in _NUMBER.finditer(text):
        if re.search(r"\^\s*\(?\s*$", text[max(m.start() - 4, 0): m.start()]):
            continue  # an exponent (s^2, C^(-1)), not a value
        try:
            value = float(m.group(0).replace(",", "").replace("−", "-"))
        except ValueError:
            continue
        unit, _ = _split_unit(text[m.end(): m.end() + 40])
        out.append((value, unit, m.start()))
    return out


_EXPR_CHARS = re.compile(r"^[\d\s.+\-*/^()a-z]*$")


def read_quantity(text: str) -> tuple[float, str] | None:
    """The value and unit a short answer states, or None.

    Tries the whole span as an expression with a trailing unit (``2 pi sqrt(0.5/200) s``),
    then falls back to the last plain number and the unit written after it.
    """
    t = normalise(text).rstrip(".;,")
    t = re.split(r"=|≈|~|approx", t)[-1].strip()  # "T = 2 pi sqrt(...) s" -> the right-hand side
    if not t:
        return None
    expr = _expression_with_unit(t)
    if expr is not None:
        return expr
    found = numbers(t)
    if not found:
        return None
    value, unit, _ = found[-1]
    return value, unit


def _expression_with_unit(t: str) -> tuple[float, str] | None:
    # split "<expression> <unit>" at the last position where the tail is a unit
    tokens = t.split(" ")
    if len(tokens) > 8:  # prose, not a short expression
        return None
    for k in range(len(tokens), 0, -1):
        head, tail = " ".join(tokens[:k]), " ".join(tokens[k:])
        unit = unit_of(tail) if tail else ""
        if unit is None or not _EXPR_CHARS.match(head) or not re.search(r"\d|pi", head):
            continue
        try:
            return evaluate(to_python(head)), unit
        except ValueError:
            continue
    return None

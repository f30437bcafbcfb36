"""Numbers and arithmetic in model-written text: normalise LaTeX and unicode, find
the numeric expressions, and evaluate them safely.

Nothing here calls ``eval`` or SymPy: arithmetic goes through a whitelisted
``ast`` evaluator in floating point with bounded exponents, so any string is read
in bounded time.

>>> normalise(r"$5.8\\times10^{5}$ and 1 250 and 3.2 X 10^-19")
'5.8e5 and 1250 and 3.2e-19'
>>> text = normalise(r"T = 2\\pi\\sqrt{0.5/200} s, so \\frac{3}{4} of it")
>>> [(round(r.value, 4), r.text) for r in runs(text)]
[(0.3142, '2 pi sqrt(0.5/200)'), (0.75, '((3)/(4))')]
>>> evaluate("2*pi*sqrt(m/k)", {"m": 0.5, "k": 200.0})
0.3141592653589793
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import NamedTuple

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"(?<=[\w)])\s+(?=[A-Za-z_(\d])")
_P2 = re.compile(r"\d|pi")
_P3 = re.compile(r"[\d.]\s+[\d.(]")

#: Longest text handed to the evaluator.
MAX_EXPRESSION = 300
#: Largest exponent the evaluator computes (``10^400`` is refused, not computed).
MAX_POWER = 400

FUNCS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": math.asin, "acos": math.acos, "atan": math.atan, "arcsin": math.asin,
    "arccos": math.acos, "arctan": math.atan, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "exp": math.exp, "log": math.log, "ln": math.log, "log10": math.log10,
    "Abs": abs, "abs": abs, "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "atan2": math.atan2, "Min": min, "Max": max, "root": lambda x, n: math.copysign(abs(x) ** (1 / n), x),
    "floor": math.floor, "ceiling": math.ceil, "ceil": math.ceil,
}
CONSTS = {"pi": math.pi}
#: Names an expression may use that are not variables.
KNOWN_NAMES = frozenset(FUNCS) | frozenset(CONSTS)

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜ", "0123456789aeoxhklmnpst")

_LATEX_WORDS = [
    (re.compile(r"\\(?:text|mathrm|mathit|mathbf|operatorname|textrm|textbf|mbox|rm|boxed)\s*\{([^{}]*)\}"),
     r" \1 "),
    (re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), r"((\1)/(\2))"),
    (re.compile(r"\\[dt]?frac\s*(\d)\s*(\d)"), r"((\1)/(\2))"),  # \frac12
    (re.compile(r"\\[dt]?frac\s*(\d)\s*\{([^{}]*)\}"), r"((\1)/(\2))"),  # \frac9{100}
    (re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*(\d)"), r"((\1)/(\2))"),  # \frac{9}2
    (re.compile(r"\\sqrt\s*\[([^\[\]{}]*)\]\s*\{([^{}]*)\}"), r"root(\2, \1)"),
    (re.compile(r"\\sqrt\s*\{([^{}]*)\}"), r"sqrt(\1)"),
    (re.compile(r"\\(a?(?:sin|cos|tan)h?|arc(?:sin|cos|tan)|exp|ln|log)\s*\{([^{}]*)\}"), r"\1(\2)"),
]
# JSON-escaped LaTeX that lost its backslash: "\text" read as TAB + "ext", "\frac" as FF + "rac"
_ESCAPES = {"\t": "t", "\f": "f", "\b": "b", "\r": "r", "\v": "v", "\a": "a"}
_LOST_ESCAPE = re.compile("([\t\f\b\r\v\a])([a-z]{2,})")
_EXP_BRACES = re.compile(r"\^\s*\{([^{}]*)\}")
_LATEX_DROP = re.compile(r"\\(?:left|right|displaystyle|,|;|!|:|quad|qquad|bigl?|Bigl?|bigr|Bigr)|\$|\\ ")
_SCI = re.compile(
    r"(?<![\w.])([-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?:\\times|\\cdot|×|·|[xX]|\*|\t\s*imes|\ttimes)\s*"
    r"10\s*(?:\^\s*+\{?\s*+\(?\s*+([-+]?\s*+\d{1,4})\s*+\)?\s*+\}?|\*\*\s*+\(?\s*+([-+]?\d{1,4})\s*+\)?|"
    r"([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))"
)
_BARE_POWER = re.compile(r"(?<![\w.])10\s*\^\s*\(?\s*([-+]?\d{1,4})\s*\)?")
_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3})((?:[ \u2009\u202f\u00a0]\d{3})+)(?!\d)")
_THOUSANDS_HINT = re.compile(r"[ \u2009\u202f\u00a0](?<=\d.)\d{3}")  # cheap to scan for; most text has none
# The patterns below start with a literal or a character set, which the regex engine scans for
# quickly; a pattern that starts with a lookbehind is tried at every position.
_LATEX_THOUSANDS = re.compile(r"\{,\}(?<=\d\{,\})(?=\d{3})")
_BRACKET_RUN = re.compile(r"([(){}\[\]|$^])\1{7,}")
_BRACKET_RUNS = tuple(ch * 8 for ch in "(){}[]|$^")
_SUPERSCRIPT_RUN = re.compile(r"([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)")
_SUBSCRIPT_RUN = re.compile(r"[\u2080-\u209c]+")
_SCRIPT = re.compile(r"[\u2080-\u209c⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]")  # a sub- or superscript: one scan decides both
_NON_DIGIT = re.compile(r"\D")
_COMMA_THOUSANDS = re.compile(r",(?<=\d,)(?=\d{3}(?!\d))")
_SCI_HINT = re.compile(r"[×·xX*st]\s*10")  # in every _SCI match (\times, \cdot): quick to scan for
_LOST_ESCAPES = "\t\f\b\r\v\a"
_UNIT_POWER = re.compile(r"(?<![\w.])(\d{1,20}(?:\.\d{0,20})?)[ ]?"
                         r"([A-Za-zµΩ°][A-Za-zµΩ°/]{0,8}(?:\^\(-?\d\))?)"
                         r"\*10\^\(?([-+]?\d{1,3})\)?")
_DEGREE_SIGN = re.compile(r"\^\s*\{?\s*\\circ\s*\}?")
_ROOT_OF_ATOM = re.compile(r"(?<=√)(\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z(]))")
_INVERSE_TRIG = re.compile(r"(?<![A-Za-z])(sin|cos|tan)\^\(?-1\)?(?![\d.])")
_MINUSES = "\u2212\u2012\u2010\u2011"


def normalise(text: str) -> str:
    """Plain, Python-like text from LaTeX and unicode maths (``5.8\\times10^{5}`` → ``5.8e5``).

    Unit words and symbols are left in place (``µ``, ``Ω``, ``°``) for the unit reader.
    """
    t = text[: MAX_EXPRESSION * 4]
    if any(run in t for run in _BRACKET_RUNS):
        t = _BRACKET_RUN.sub(r"\1", t)  # "((((…" is noise; keep it linear
    plain = t.isascii()
    if not plain:
        for minus in _MINUSES:
            if minus in t:
                t = t.replace(minus, "-")
    if "{,}" in t:
        t = _LATEX_THOUSANDS.sub("", t)  # 4{,}854
    if "√" in t:
        t = _ROOT_OF_ATOM.sub(r"(\1)", t)  # √2, √m: the root of what follows
    if "\\" in t or not plain or "\t" in t or "\f" in t:
        if any(ch in t for ch in _LOST_ESCAPES):
            t = _LOST_ESCAPE.sub(_restore_escape, t)
        if "\\circ" in t:
            t = _DEGREE_SIGN.sub("°", t)  # 125.6\ ^\circ\mathrm{F}
        # every pattern below needs a brace or a backslash; unicode maths usually has neither
        for _ in range(3 if "{" in t or "\\" in t else 0):
            # nested \frac{\sqrt{..}}{..} and ^{\frac{3}{2}} unwrap from the inside out
            before = t
            t = _EXP_BRACES.sub(r"^(\1)", t)
            for pattern, repl in _LATEX_WORDS:
                t = pattern.sub(repl, t)
            if t == before:
                break
    if "10" in t:
        if _SCI_HINT.search(t):
            t = _SCI.sub(_sci_repl, t)
        if "^" in t:
            t = _BARE_POWER.sub(r"1e\1", t)
    if "\\" in t or "$" in t:
        t = _LATEX_DROP.sub(" ", t)
        t = t.replace("\\times", "*").replace("\\cdot", "*").replace("\\sqrt", "sqrt").replace("\\pi", " pi ")
        t = t.replace("\\approx", "≈").replace("\\sim", "~").replace("\\pm", "±")
        t = t.replace("\\%", "%").replace("\\cdots", " ").replace("\\ldots", " ")
    if not plain:
        t = t.replace("×", "*").replace("·", "*").replace("√", "sqrt").replace("∛", "cbrt")
        t = t.replace("π", " pi ")
        if _SCRIPT.search(t):
            t = superscripts_as_powers(subscripts_as_text(t))
    if "^" in t and "1" in t:
        t = _INVERSE_TRIG.sub(r"arc\1", t)  # cos⁻¹(x), \cos^{-1}(x)
    t = t.replace("+/-", "±")
    if (" " in t or not plain) and _THOUSANDS_HINT.search(t):
        t = _THOUSANDS.sub(lambda m: m.group(1) + _NON_DIGIT.sub("", m.group(2)), t)
    if "," in t:
        t = _COMMA_THOUSANDS.sub("", t)  # 1,250 -> 1250
    if "*10^" in t:
        t = _UNIT_POWER.sub(r"\1e\3 \2", t)  # "3.09 m/s^(2)*10^(3)": the power belongs to the number
    t = t.replace("{", "(").replace("}", ")")
    return " ".join(t.split())


def subscripts_as_text(text: str) -> str:
    """Subscript digits and letters as plain ones, the text's length kept: ``I₃`` → ``I3``."""
    return _SUBSCRIPT_RUN.sub(lambda m: m.group(0).translate(_SUBSCRIPTS), text)


def superscripts_as_powers(text: str) -> str:
    """Superscripts as powers: ``m/s²`` → ``m/s^(2)``, ``10⁻³`` → ``10^(-3)``."""
    return _SUPERSCRIPT_RUN.sub(lambda m: "^(" + m.group(1).translate(_SUPERSCRIPTS) + ")", text)


def _restore_escape(m: re.Match[str]) -> str:
    letter, word = _ESCAPES[m.group(1)], m.group(2)
    # TAB + "imes" lost the t of \times; TAB + "times" kept it
    return "\\" + (word if word.startswith(letter) else letter + word)


def _sci_repl(m: re.Match[str]) -> str:
    if m.group(2) is not None:
        exp = m.group(2)
    elif m.group(3) is not None:
        exp = m.group(3)
    else:
        exp = m.group(4).translate(_SUPERSCRIPTS)
    exp = exp.replace(" ", "").lstrip("+")
    return f"{m.group(1)}e{exp}"


_OPERATORS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: _power(a, b), ast.BitXor: lambda a, b: _power(a, b),
}


def _power(a: float, b: float) -> float:
    if abs(b) > MAX_POWER:
        raise ValueError("exponent too large")
    result = a**b
    if isinstance(result, complex):
        raise ValueError("complex result")
    return float(result)


def _value(node: ast.AST, names: Mapping[str, float]) -> float:
    """Float arithmetic over a whitelisted subset of Python expressions (one function, not an
    ``ast.NodeVisitor``: the visitor's dispatch by method name cost more than the arithmetic)."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise ValueError("only numbers are allowed")
        return float(node.value)
    if isinstance(node, ast.BinOp):
        a, b = _value(node.left, names), _value(node.right, names)
        operator = _OPERATORS.get(type(node.op))
        if operator is None:
            raise ValueError("unsupported operator")
        return operator(a, b)
    if isinstance(node, ast.Name):
        if node.id in names:
            return float(names[node.id])
        if node.id in CONSTS:
            return CONSTS[node.id]
        raise ValueError(f"unknown name {node.id!r}")
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, names)
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return operand
        raise ValueError("unsupported operator")
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCS or node.keywords:
            raise ValueError("unsupported function")
        return float(FUNCS[node.func.id](*[_value(a, names) for a in node.args]))
    if isinstance(node, ast.Expression):
        return _value(node.body, names)
    raise ValueError(f"unsupported syntax {type(node).__name__}")


_IMPLICIT_TIMES = re.compile(r"([\d)])\s*(?=[A-Za-z(])(?![eE][-+]?\d)")
_PI_TIMES = re.compile(r"\b(pi)\s*(?=[\w(])")


_FUNCTION_TIMES = re.compile("(" + "|".join(sorted(FUNCS, key=len, reverse=True)) + r")\*\(")


def to_python(text: str) -> str:
    """Make implicit multiplication and ``^`` explicit: ``2 pi sqrt(x)`` → ``2*pi*sqrt(x)``."""
    t = text.replace("^", "**")
    t = _IMPLICIT_TIMES.sub(r"\1*", t)  # 2pi, 2(x), )( but not 5e3
    if "pi" in t:
        t = _PI_TIMES.sub(r"\1*", t)  # pi r, pi(x)
    t = _P1.sub("*", t)  # "pi r" -> "pi*r", "m g" -> "m*g"
    return _FUNCTION_TIMES.sub(r"\1(", t) if "*(" in t else t  # sqrt*(x) -> sqrt(x)


def evaluate(text: str, names: Mapping[str, float] | None = None) -> float:
    """Evaluate an arithmetic expression in floating point; ``ValueError`` if it is not one."""
    if len(text) > MAX_EXPRESSION:
        raise ValueError("expression too long")
    try:
        tree = ast.parse(text, mode="eval")
        value = _value(tree, names or {})
    except (SyntaxError, TypeError, ZeroDivisionError, OverflowError, RecursionError,
            MemoryError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    return value


class Run(NamedTuple):  # a tuple: made for every number read, and a dataclass costs 5x to make
    """A numeric expression found in normalised text: its value, text and span."""

    value: float
    text: str
    start: int
    end: int


_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?"
_ATOM = rf"(?:{_NUMBER}|pi\b|(?:sqrt|cbrt|root|exp|ln|log10|log|sin|cos|tan)\s*\()"
_PLAIN_NUMBER = re.compile(rf"(?<![\w.^]){_NUMBER}")
_PLAIN_RUN = re.compile(rf"[-+]?{_NUMBER}")
# an expression run: numbers, pi and functions joined by operators, parentheses and spaces
_RUN = re.compile(  # (?=…): what a run may start with, so most positions fail at once; possessive: linear
    rf"(?=[-+(\s\d.pscelrt])(?<![\w.^])(?:[-+]\s*)?\(*+\s*+{_ATOM}(?:[\s(*/+\-^,]*+(?:{_ATOM}|\)))*+"
)


def runs(text: str) -> list[Run]:
    """Every numeric expression in normalised text, evaluated (``2 pi sqrt(0.5/200)``)."""
    out: list[Run] = []
    pos = 0
    while (m := _RUN.search(text, pos)) is not None:
        start, end = m.span()
        pos = end
        if text[start - 1: start] == "(" and text[max(0, start - 3): start - 1].endswith(("^", "^ ")):
            close = text.find(")", start)  # an exponent (s^(-1)), not a value: read on after it
            pos = close + 1 if close >= 0 else end
            continue
        raw = m.group(0)
        if "," not in raw:
            bare = raw.lstrip(" ")
            if _PLAIN_RUN.fullmatch(bare):  # most runs: a plain number, nothing to split, trim or parse
                out.append(Run(float(bare), bare, end - len(bare), end))
                continue
        for piece, offset in _balanced_pieces(raw):
            out.extend(_evaluate_run(piece, start + offset))
    return out


def _balanced_pieces(raw: str) -> list[tuple[str, int]]:
    """Split a run at top-level commas and drop unbalanced edge parentheses."""
    if "," not in raw:
        return [(raw, 0)]
    pieces: list[tuple[str, int]] = []
    depth, start = 0, 0
    for i, ch in enumerate(raw):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth <= 0:
            pieces.append((raw[start:i], start))
            start = i + 1
    pieces.append((raw[start:], start))
    return pieces


def _trim(piece: str, offset: int) -> tuple[str, int]:
    text = piece.rstrip(" *+-/^")
    lead = len(text) - len(text.lstrip(" "))
    text, offset = text.strip(), offset + lead
    while text.count(")") > text.count("(") and text.endswith(")"):
        text = text[:-1].rstrip()
    while text.count("(") > text.count(")") and text.startswith("("):
        text, offset = text[1:].lstrip(), offset + 1
    return text, offset


def _evaluate_run(piece: str, offset: int) -> list[Run]:
    text, start = _trim(piece, offset)
    if not text or not _P2.search(text):
        return []
    if _PLAIN_RUN.fullmatch(text):  # a plain number: no need to parse it as an expression
        return [Run(float(text), text, start, start + len(text))]
    value = _expression_value(text)
    if value is None:  # not one expression (e.g. "5 6"): fall back to its plain numbers
        return [Run(float(m.group(0)), m.group(0), start + m.start(), start + m.end())
                for m in _PLAIN_NUMBER.finditer(text) if _finite(m.group(0))]
    return [Run(value, text, start, start + len(text))]


@functools.lru_cache(maxsize=4096)
def _expression_value(text: str) -> float | None:
    """The value of a run's expression, None if it is not one (cached: replies repeat a few
    short ones, ``2*pi``, ``- 1``, ``sqrt(2``, thousands of times)."""
    if _P3.search(text):  # "35.3 2.04" lists two numbers; it is no product
        return None
    try:
        return evaluate(to_python(text))
    except ValueError:
        return None


def _finite(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False

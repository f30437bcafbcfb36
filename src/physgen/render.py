"""Turn numbers, units and Jinja2 texts into the words a model reads.

>>> format_number(584000.0, 3)
'5.84 × 10⁵'
>>> format_number(0.5, 3), format_number(4200.0, 3), format_number(584000.0, 3, style="ascii")
('0.500', '4200', '5.84e5')
>>> format_quantity(30.0, "deg", 2), format_quantity(9.81, "m/s^2", 3, style="latex")
('30°', '$9.81\\\\,\\\\mathrm{m\\\\,s^{-2}}$')
>>> compile_text("A ball moves at {{ v }}. {{ asks }}").render({"v": "3.0 m/s", "asks": "Find x."})
'A ball moves at 3.0 m/s. Find x.'

A template file is untrusted data, so a text may hold only literal text and
``{{ … }}`` placeholders of a name, ``name.value`` or ``name.unit``, optionally
through one of the filters in :data:`FILTERS`; anything else (attributes,
indexing, calls, tags, operators) is refused when the text is compiled, and
Jinja runs in its immutable sandbox besides:

>>> compile_text("{{ cycler.__init__.__globals__.os.system('id') }}")
Traceback (most recent call last):
...
physgen.render.TextError: the text uses attribute access '.system', which texts may not hold
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .errors import PhysgenError
from .labels import PART_LETTERS
from .letters import latex_symbol
from .units import Style, attaches_without_space, format_unit

if TYPE_CHECKING:
    import jinja2
    from jinja2 import nodes

Notation = Literal["auto", "plain", "scientific"]
STYLES: tuple[Style, ...] = ("unicode", "latex", "ascii")

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


#: The filters a text may apply to a placeholder, without arguments.
FILTERS = frozenset({"upper", "lower", "capitalize", "title", "trim"})
#: The parts of a shown quantity a text may read: ``{{ x.value }}``, ``{{ x.unit }}``.
PARTS = frozenset({"value", "unit"})


class TextError(PhysgenError, ValueError):
    """A text holds a Jinja2 construct texts may not hold (they are data, not code)."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


@functools.cache
def _env() -> jinja2.Environment:
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment  # imported when a text is first compiled

    return ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False,
                                         keep_trailing_newline=False)
_ASK_FORMS = (("Find", "."), ("What is", "?"), ("Determine", "."), ("Calculate", "."))


def format_number(
    x: float,
    sig_figs: int,
    style: Style = "unicode",
    notation: Notation = "auto",
    *,
    integer: bool = False,
) -> str:
    """A number to ``sig_figs`` significant figures, keeping trailing zeros (``0.500``).

    ``auto`` notation is plain for 10⁻³ ≤ |x| < 10⁵ and scientific otherwise.
    """
    if integer:
        return str(int(x))
    if not math.isfinite(x):
        return str(x)
    mantissa, _, exp_text = f"{x:.{sig_figs - 1}e}".partition("e")
    exp = int(exp_text)
    if notation == "plain" or (notation == "auto" and -3 <= exp < 5):
        decimals = sig_figs - 1 - exp
        if decimals < 0:  # 2205 to 3 figures is 2200: take the rounded mantissa
            return f"{float(mantissa + 'e' + exp_text):.0f}"
        # Same digit position as the mantissa, and both round the exact binary value: same digits.
        return f"{x:.{decimals}f}"
    if style == "unicode":
        return f"{mantissa} × 10{str(exp).translate(_SUPERSCRIPT)}"
    if style == "latex":
        return f"{mantissa} \\times 10^{{{exp}}}"
    return f"{mantissa}e{exp}"


def format_quantity(
    x: float,
    unit: str,
    sig_figs: int,
    style: Style = "unicode",
    notation: Notation = "auto",
    *,
    integer: bool = False,
) -> str:
    """Number and unit as a physics text writes them (``23.7 A``, ``30°``, ``$23.7\\,\\mathrm{A}$``)."""
    number = format_number(x, sig_figs, style, notation, integer=integer)
    return join_number_unit(number, unit, style)


def join_number_unit(number: str, unit: str, style: Style) -> str:
    """Put a formatted number and a unit together in ``style``."""
    unit_text = format_unit(unit, style)
    if style == "latex":
        if not unit_text:
            return f"${number}$"
        glue = "" if attaches_without_space(unit, style) else "\\,"
        return f"${number}{glue}{unit_text}$"
    if not unit_text:
        return number
    glue = "" if attaches_without_space(unit, style) else " "
    return f"{number}{glue}{unit_text}"


def unit_hint(unit: str, style: Style) -> str:
    """How a question names the unit it wants: ``in W``, ``in degrees``; ``""`` if none."""
    text = format_unit(unit, style)
    if not text:
        return ""
    if attaches_without_space(unit, style):  # a sign, not a word: name it
        return "in degrees" if "°" in text or "circ" in text else (
            "in percent" if "%" in text else "in arcminutes")
    return f"in ${text}$" if style == "latex" else f"in {text}"


def listed(items: Sequence[str]) -> str:
    """Items joined as prose: ``a``, ``a and b``, ``a, b and c`` ('' for none).

    >>> listed(["m", "g", "h"]), listed(["r"]), listed([])
    ('m, g and h', 'r', '')
    """
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def asks_sentence(parts: Sequence[tuple[str, str]], paraphrase: int) -> str:
    """The sentence that asks for every answer, worded by paraphrase index.

    ``parts`` are ``(phrase, unit hint)`` pairs in asked order.

    >>> asks_sentence([("the current", "in A")], 1)
    'What is the current (in A)?'
    >>> asks_sentence([("the power", "in W"), ("the resistance", "in Ω")], 0)
    'Find (a) the power (in W) and (b) the resistance (in Ω).'
    """
    verb, stop = _ASK_FORMS[paraphrase % len(_ASK_FORMS)]
    items = [f"{phrase} ({hint})" if hint else phrase for phrase, hint in parts]
    if len(items) == 1:
        return f"{verb} {items[0]}{stop}"
    if verb == "What is":
        verb = "What are"
    labelled = [f"({PART_LETTERS[i]}) {item}" for i, item in enumerate(items)]
    if len(labelled) == 2:
        listed = " and ".join(labelled)
    else:
        listed = ", ".join(labelled[:-1]) + ", and " + labelled[-1]
    return f"{verb} {listed}{stop}"


def format_symbol(name: str, style: Style, symbol: str | None = None) -> str:
    """How an algebraic text writes a quantity: ``theta`` → ``θ``, ``v0`` → ``v₀``; a declared
    ``symbol`` as written, in LaTeX with its letters as LaTeX's (:func:`physgen.letters.latex_symbol`).

    >>> format_symbol("mu_k", "unicode"), format_symbol("v0", "latex"), format_symbol("v0", "ascii")
    ('μₖ', '$v_{0}$', 'v0')
    >>> format_symbol("rho_o", "unicode", "ρ_o"), format_symbol("rho_o", "latex", "ρ_o")
    ('ρ_o', '$\\\\rho_{o}$')
    """
    import sympy as sp  # only algebraic texts need SymPy

    if symbol is not None:
        return f"${latex_symbol(symbol)}$" if style == "latex" else symbol
    if style == "ascii":
        return name
    if style == "latex":
        return f"${sp.latex(sp.Symbol(name))}$"
    return str(sp.pretty(sp.Symbol(name), use_unicode=True))


def format_expression(expr: Any, symbols: Mapping[str, str | None], style: Style) -> str:
    """An answer expression written with the same symbols as the question.

    >>> import sympy as sp
    >>> format_expression(sp.sympify("2*pi*sqrt(m/k)"), {"m": None, "k": None}, "unicode")
    '2·π·√(m/k)'
    """
    import sympy as sp

    if style == "latex":
        names = {s: latex_symbol(symbol) if (symbol := symbols[str(s)]) else sp.latex(sp.Symbol(str(s)))
                 for s in expr.free_symbols}
        return f"${sp.latex(expr, symbol_names=names)}$"
    if style == "ascii":
        return str(expr)
    renamed: dict[Any, Any] = {s: sp.Symbol(format_symbol(str(s), "unicode", symbols.get(str(s))))
                               for s in expr.free_symbols}
    renamed[sp.pi] = sp.Symbol("π")
    # xreplace, not subs: one rebuild of the tree instead of subs's dummy round trip (10x less
    # CPU; the same text for all 11,667 option expressions of the catalog)
    text = str(expr.xreplace(renamed))
    return text.replace("**", "^").replace("*", "·").replace("sqrt(", "√(")


class Shown(str):
    """A quantity as text; ``.value`` and ``.unit`` give its parts inside a Jinja text.

    >>> s = Shown("23.7 A", "23.7", "A")
    >>> f"{s} = {s.value} {s.unit}"
    '23.7 A = 23.7 A'
    """

    value: str
    unit: str

    def __new__(cls, text: str, value: str, unit: str) -> Shown:
        obj = super().__new__(cls, text)
        obj.value = value
        obj.unit = unit
        return obj


@dataclass(frozen=True)
class Text:
    """A Jinja2 text and the placeholder names it uses.

    Texts made only of literal text and ``{{ name }}`` placeholders render with one
    :meth:`str.format_map` of a format string made from their pieces (several times faster
    than Jinja; one string, so a text not rendered lately costs few cache misses); anything
    else uses Jinja, compiled on first use. Both give the same output (tested): a
    placeholder's value is converted with ``str``, as Jinja does. A Text holds no Jinja
    object, so it pickles (the compiled-catalog cache stores it).
    """

    source: str
    names: frozenset[str]
    _pieces: tuple[tuple[bool, str], ...] | None  # (is_placeholder, text) for the fast path
    _format: str | None = field(init=False, repr=False, compare=False)  # the pieces' format string

    def __post_init__(self) -> None:
        object.__setattr__(self, "_format", None if self._pieces is None else format_string(self._pieces))

    @property
    def pieces(self) -> tuple[tuple[bool, str], ...] | None:
        """``(is_placeholder, text)`` pieces whose join is the rendering; None if Jinja is needed."""
        return self._pieces

    @property
    def needs_jinja(self) -> bool:
        """Whether the text is more than literal text and ``{{ name }}`` placeholders."""
        return self._pieces is None

    def render(self, context: Mapping[str, Any]) -> str:
        if self._format is None:
            return self.render_jinja(context)
        return self._format.format_map(context)

    def render_jinja(self, context: Mapping[str, Any]) -> str:
        """Render with Jinja2 itself (the reference for the fast path)."""
        return _jinja(self.source).render(context)


def format_string(pieces: Sequence[tuple[bool, str]]) -> str:
    """The :meth:`str.format_map` string of ``(is_placeholder, text)`` pieces: literal text
    with its braces doubled, and each placeholder as ``{name!s}`` (its value through ``str``).

    >>> f = format_string([(False, "F = {m}·"), (True, "a")])
    >>> f, f.format_map({"a": 2.5})
    ('F = {{m}}·{a!s}', 'F = {m}·2.5')
    """
    return "".join(f"{{{text}!s}}" if is_name else text.replace("{", "{{").replace("}", "}}")
                   for is_name, text in pieces)


@functools.lru_cache(maxsize=4096)
def _jinja(source: str) -> jinja2.Template:
    return _env().from_string(source)


def _simple_pieces(ast: nodes.Template) -> tuple[tuple[bool, str], ...] | None:
    from jinja2 import nodes

    if len(ast.body) != 1 or not isinstance(ast.body[0], nodes.Output):
        return None if ast.body else ()
    pieces: list[tuple[bool, str]] = []
    for node in ast.body[0].nodes:
        if isinstance(node, nodes.TemplateData):
            pieces.append((False, node.data))
        elif isinstance(node, nodes.Name):
            pieces.append((True, node.name))
        else:
            return None
    return tuple(pieces)


#: Jinja2 statement nodes whose tag is not their lower-cased name.
_TAGS = {"Assign": "set", "AssignBlock": "set", "FilterBlock": "filter", "CallBlock": "call",
         "Scope": "autoescape", "ScopedEvalContextModifier": "autoescape"}


def _construct(node: nodes.Node) -> str:
    """What a Jinja2 node a text may not hold is, in words."""
    from jinja2 import nodes

    if isinstance(node, nodes.Getattr):
        return f"attribute access '.{node.attr}'"
    if isinstance(node, nodes.Getitem):
        return "item access '[…]'"
    if isinstance(node, nodes.Call):
        return "a call"
    if isinstance(node, nodes.Filter):
        return f"the filter '{node.name}'" + (" with arguments" if node.name in FILTERS else "")
    if isinstance(node, nodes.Stmt):
        tag = _TAGS.get(type(node).__name__, type(node).__name__.lower())
        return f"a {{% {tag} %}} tag"
    if isinstance(node, nodes.Const | nodes.Literal):
        return "a literal value"
    if isinstance(node, nodes.BinExpr | nodes.UnaryExpr | nodes.Compare | nodes.Concat):
        return "an operator"
    if isinstance(node, nodes.Test):
        return "a test ('is …')"
    if isinstance(node, nodes.CondExpr):
        return "'if … else'"
    if isinstance(node, nodes.Name):
        return f"the name {node.name!r} (Jinja's own)"
    return f"the construct {type(node).__name__}"


def _check_nodes(ast: nodes.Template) -> None:
    """Raise :class:`TextError` unless ``ast`` is literal text and placeholders of a name,
    ``name.value`` or ``name.unit``, each through at most the argument-free :data:`FILTERS`."""
    from jinja2 import nodes

    for output in ast.body:
        if not isinstance(output, nodes.Output):
            raise _refused(output)
        for node in output.nodes:
            while isinstance(node, nodes.Filter) and node.name in FILTERS and node.node is not None \
                    and not (node.args or node.kwargs or node.dyn_args or node.dyn_kwargs):
                node = node.node
            if isinstance(node, nodes.Getattr) and node.attr in PARTS and isinstance(node.node, nodes.Name):
                node = node.node
            if not isinstance(node, nodes.TemplateData | nodes.Name) or (
                    isinstance(node, nodes.Name) and node.name == "self"):
                raise _refused(_offending(node))


def _offending(node: nodes.Node) -> nodes.Node:
    """The outermost attribute access, item access or call in ``node`` that no allowed
    placeholder holds (``node`` itself if none)."""
    from jinja2 import nodes

    found: nodes.Node
    for found in node.find_all((nodes.Getattr, nodes.Getitem, nodes.Call)):
        if not (isinstance(found, nodes.Getattr) and found.attr in PARTS):
            return found
    return node


def _refused(node: nodes.Node) -> TextError:
    return TextError(f"the text uses {_construct(node)}, which texts may not hold",
                     "texts are data: write literal text and {{ name }}, {{ name.value }} or "
                     f"{{{{ name.unit }}}} placeholders (filters: {', '.join(sorted(FILTERS))})")


def compile_text(source: str) -> Text:
    """Parse a Jinja2 text and check that it holds only what texts may (module docstring).

    Raises ``jinja2.TemplateSyntaxError`` if it is malformed and :class:`TextError` if it
    holds anything else. Texts that are a plain join of placeholders never need Jinja's
    compiled code; any other is compiled here, so that errors show at once.
    """
    from jinja2 import meta

    try:
        ast = _env().parse(source)
        _check_nodes(ast)
    except (RecursionError, MemoryError):
        raise TextError("the text nests too deeply", "write literal text and {{ name }} placeholders") \
            from None
    pieces = _simple_pieces(ast)
    if pieces is None:
        _jinja(source)
    return Text(source, frozenset(meta.find_undeclared_variables(ast)), pieces)

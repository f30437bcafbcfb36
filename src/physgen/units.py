"""The one Pint registry, and unit conversion and display used by every other module.

Pint is used here at load time and at the edges (parsing user input, checking
dimensions); the generation hot path only multiplies by the factors computed here.

>>> to_si("km/h")
SIConversion(factor=0.2777777777777778, offset=0.0, si_unit='meter / second')
>>> format_unit("J/(kg*K)"), format_unit("m/s^2", style="latex")
('J/(kg·K)', '\\\\mathrm{m\\\\,s^{-2}}')
>>> parse_quantity("90 km/h").to("m/s").magnitude
25.0
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Literal

from .errors import InputError
from .unit_table import PREFIXES, SYMBOLS

Style = Literal["unicode", "latex", "ascii"]


@functools.cache
def registry() -> Any:
    """The one Pint registry, built on first use (importing Pint and building it takes ~0.2 s).

    ``ureg`` and ``Quantity`` in this module are the registry and its quantity class.
    """
    import pint

    ureg: Any = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    ureg.formatter.default_sort_func = None
    ureg.define("solar_mass = 1.98847e30 * kilogram = M_sun")  # IAU 2015 nominal GM / CODATA G
    ureg.define("dioptre = 1 / meter = _ = diopter")  # optical power; "D" stays Pint's debye
    ureg.define("gauss_si = 1e-4 * tesla")  # Pint's gauss is CGS-Gaussian, of another dimension than T
    return ureg


def __getattr__(name: str) -> Any:
    """``ureg`` and ``Quantity``, built on first use, so importing physgen does not build Pint."""
    if name == "ureg":
        return registry()
    if name == "Quantity":
        return registry().Quantity
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_SUPERSCRIPT = str.maketrans("-0123456789.", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹·")


@dataclass(frozen=True)
class SIConversion:
    """``si_value = value * factor + offset`` for a unit, with the SI unit it lands in."""

    factor: float
    offset: float
    si_unit: str

    def to_si(self, value: Any) -> Any:
        return value * self.factor + self.offset if self.offset else value * self.factor

    def from_si(self, si_value: Any) -> Any:
        if self.offset:
            return (si_value - self.offset) / self.factor
        return si_value / self.factor


#: The longest unit or quantity text a template may give Pint.
MAX_UNIT_TEXT = 200
#: The largest power in a unit or quantity text of a template.
MAX_UNIT_POWER = 12

_POWER_OP = re.compile(r"\s*(?:\*\*|\^)\s*")
_SMALL_EXPONENT = re.compile(r"\(\s*([-+]?\d{1,2}(?:\.\d{1,3})?)\s*\)|([-+]?\d{1,2}(?:\.\d{1,3})?)")


def check_unit_text(text: str) -> None:
    """Raise ``ValueError`` unless Pint can read ``text`` (a unit, or a quantity such as
    ``9.81 m/s^2``) in bounded time: Pint computes powers of whole numbers exactly, so
    ``9**9**9 m`` would not finish. A text from a template file has at most
    :data:`MAX_UNIT_TEXT` characters, numbers of at most 30 digits, and powers of at most
    :data:`MAX_UNIT_POWER` that are neither chained nor applied to a group holding one.

    >>> check_unit_text("W/(m^2*K^4)"), check_unit_text("3.986e14 m**3/s^(-2)")
    (None, None)
    >>> check_unit_text("9**9**9 m")
    Traceback (most recent call last):
    ...
    ValueError: '9**9**9 m' has a power that is not a number of at most 12, or is raised again
    """
    if len(text) > MAX_UNIT_TEXT:
        raise ValueError(f"the unit text is {len(text):,} characters long; at most {MAX_UNIT_TEXT} "
                         "are allowed")
    if re.search(r"\d{31}", text):
        raise ValueError(f"{text[:60]!r} holds a number of more than 30 digits")
    open_groups = [False]  # per open parenthesis: whether it holds a power
    closed_with_power = -1  # where the last group holding a power closed
    i = 0
    while i < len(text):
        power = _POWER_OP.match(text, i)
        if power:
            before = text[:i].rstrip()
            if before.endswith(")") and closed_with_power == len(before) - 1:
                raise ValueError(f"{text[:60]!r} raises a group that holds a power to a power")
            exponent = _SMALL_EXPONENT.match(text, power.end())
            if exponent is None or abs(float(exponent.group(1) or exponent.group(2))) > MAX_UNIT_POWER \
                    or _POWER_OP.match(text, exponent.end()):
                raise ValueError(f"{text[:60]!r} has a power that is not a number of at most "
                                 f"{MAX_UNIT_POWER}, or is raised again")
            open_groups[-1] = True
            i = exponent.end()
            continue
        if text[i] == "(":
            open_groups.append(False)
        elif text[i] == ")" and len(open_groups) > 1:
            held = open_groups.pop()
            open_groups[-1] = open_groups[-1] or held
            if held:
                closed_with_power = i
        i += 1


def parse_unit(text: str) -> Any:
    """Parse a unit string; raise :class:`~physgen.InputError` (a ``ValueError``) with Pint's
    reason if it is not a unit.

    >>> str(parse_unit("N/C"))
    'newton / coulomb'
    """
    text = text.strip()
    ureg = registry()
    if text in ("", "1", "dimensionless"):
        return ureg.dimensionless
    try:
        unit = ureg.parse_units(text)
    except Exception as exc:  # Pint raises several unrelated types here
        raise InputError(f"{text!r} is not a unit Pint knows ({type(exc).__name__}: {exc})") from None
    return unit


def parse_quantity(value: Any) -> Any:
    """A Pint quantity from a quantity, a number, or a string such as ``"20 m/s"``.

    >>> parse_quantity("30 deg").to("rad").magnitude
    0.5235987755982988
    """
    ureg = registry()
    Quantity = ureg.Quantity
    if isinstance(value, ureg.Quantity):
        return value
    if isinstance(value, bool):
        raise InputError(f"{value!r} is not a quantity")
    if isinstance(value, int | float):
        return Quantity(float(value), ureg.dimensionless)
    if isinstance(value, str):
        text = value.strip().replace("×", "*").replace("·", "*")
        if not text:
            raise InputError("empty string is not a quantity")
        try:
            q = ureg.Quantity(text)
        except Exception as exc:
            raise InputError(f"{value!r} is not a quantity ({type(exc).__name__}: {exc})") from None
        if not isinstance(q, ureg.Quantity):  # a bare number string
            q = Quantity(float(q), ureg.dimensionless)
        return q
    raise InputError(f"{value!r} (type {type(value).__name__}) is not a quantity")


@functools.cache
def to_si(unit: str) -> SIConversion:
    """The affine map from ``unit`` to its SI base unit (offset only for °C, °F)."""
    u = parse_unit(unit)
    Quantity = registry().Quantity
    zero = Quantity(0.0, u).to_base_units()
    one = Quantity(1.0, u).to_base_units()
    return SIConversion(
        factor=float(one.magnitude - zero.magnitude),
        offset=float(zero.magnitude),
        si_unit=str(one.units),
    )


@functools.cache
def dimensionality(unit: str) -> str:
    """Pint's dimensionality of a unit, as text (``'[length] / [time]'``)."""
    return str(parse_unit(unit).dimensionality)


def same_dimension(a: Any, b: Any) -> bool:
    """Whether two quantities or units have the same physical dimension."""
    da = a.dimensionality if hasattr(a, "dimensionality") else parse_unit(a).dimensionality
    db = b.dimensionality if hasattr(b, "dimensionality") else parse_unit(b).dimensionality
    return bool(da == db)


def _symbol(name: str, style: Style) -> str:
    """One unit name as ``style`` writes it: the shared table first, then Pint's symbol."""
    if name in SYMBOLS:
        return str(getattr(SYMBOLS[name], style))
    ureg = registry()
    ((prefix, base, _),) = ureg.parse_unit_name(name)[:1]
    if base in SYMBOLS:
        head = str(getattr(PREFIXES[prefix], style)) if prefix in PREFIXES else (
            str(ureg._prefixes[prefix].symbol) if prefix else "")
        return head + str(getattr(SYMBOLS[base], style))
    symbol = str(ureg.get_symbol(name))
    if base == "liter":  # Pint writes ml; physics texts write mL and L
        symbol = symbol[:-1] + "L"
    if prefix in PREFIXES:
        pre = PREFIXES[prefix]
        symbol = symbol.replace(pre.unicode, str(getattr(pre, style)), 1)
    return symbol


def _power(symbol: str, exp: float, style: Style) -> str:
    if exp == 1:
        return symbol
    text = str(int(exp)) if float(exp).is_integer() else f"{exp:g}"
    if style == "unicode":
        return symbol + text.translate(_SUPERSCRIPT)
    if style == "latex":
        return f"{symbol}^{{{text}}}"
    return f"{symbol}^{text}"


@functools.cache
def format_unit(unit: str, style: Style = "unicode") -> str:
    """Readable unit text in the order the template wrote it.

    ``unicode``: ``m/s²``, ``J/(kg·K)``, ``kN/C``, ``°``; ``ascii``: ``m/s^2``;
    ``latex``: ``\\mathrm{m\\,s^{-2}}``. Dimensionless units format as ``""``.
    """
    items = list(parse_unit(unit)._units.items())
    if not items:
        return ""
    if style == "latex":
        parts = [_power(_symbol(n, "latex"), e, "latex") for n, e in items]
        return "\\mathrm{" + "\\,".join(parts) + "}"
    sep = "·" if style == "unicode" else "*"
    num = [_power(_symbol(n, style), e, style) for n, e in items if e > 0]
    den = [_power(_symbol(n, style), -e, style) for n, e in items if e < 0]
    if not num:  # a pure reciprocal reads better as a negative power: m⁻¹, s^-1
        return sep.join(_power(_symbol(n, style), e, style) for n, e in items)
    top = sep.join(num)
    if not den:
        return top
    bottom = den[0] if len(den) == 1 else "(" + sep.join(den) + ")"
    return f"{top}/{bottom}"


def attaches_without_space(unit: str, style: Style = "unicode") -> bool:
    """Units written flush against the number: ``30°``, ``45%`` (``30 deg`` in ASCII)."""
    return format_unit(unit, style) in ("°", "%", "′", "\\mathrm{^\\circ}", "\\mathrm{\\%}", "\\mathrm{'}")


"""Numbers as text for whole columns at once: the generation hot path.

:func:`format_numbers` gives exactly :func:`physgen.render.format_number` of each
value (tested over every template), with the per-call work (format strings,
notation) done once per column.

>>> format_numbers([584000.0, 0.5, 4200.0, 2205.0], 3)
['5.84 × 10⁵', '0.500', '4200', '2200']
>>> format_numbers([584000.0, 1e-7], 3, "latex")
['5.84 \\\\times 10^{5}', '1.00 \\\\times 10^{-7}']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from .render import Notation
from .units import Style

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _scientific(mantissa: str, exp: int, style: Style) -> str:
    if style == "unicode":
        return f"{mantissa} × 10{str(exp).translate(_SUPERSCRIPT)}"
    if style == "latex":
        return f"{mantissa} \\times 10^{{{exp}}}"
    return f"{mantissa}e{exp}"


@functools.lru_cache(maxsize=512)
def number_format(sig_figs: int, style: Style = "unicode", notation: Notation = "auto",
                  integer: bool = False) -> Callable[[float], str]:
    """``format_number(·, sig_figs, style, notation, integer=integer)`` as a function of one
    value, its format strings made once (for rows rendered one at a time).

    >>> number_format(3)(2205.0), number_format(3, integer=True)(7.0)
    ('2200', '7')
    """
    if integer:
        return _whole
    e_format = f".{sig_figs - 1}e"
    # what follows the mantissa, by the exponent's text in e-format ("+05", "-300"): plain
    # notation (decimals = sig_figs - 1 - exponent; "auto" uses it for -3 <= exponent < 5) or
    # the scientific suffix
    low, high = (-3, 5) if notation == "auto" else (-1000, 1000) if notation == "plain" else (0, 0)
    table: dict[str, tuple[str | None, str | None]] = {}
    for exp in range(-400, 401):  # every exponent a double has
        decimals = sig_figs - 1 - exp
        plain = (f".{decimals}f" if decimals >= 0 else None, None)
        table[f"{exp:+03d}"] = plain if low <= exp < high else (None, _scientific("", exp, style))

    def number(x: float) -> str:
        text = format(x, e_format)
        mantissa, _, exp_text = text.partition("e")
        spec, suffix = table.get(exp_text, _NOT_FINITE)
        if suffix is not None:
            return mantissa + suffix
        if spec is not None:
            return format(x, spec)
        if exp_text:  # 2205 to 3 figures is 2200: the rounded mantissa, written out
            return format(float(text), ".0f")
        return str(x)  # inf, nan

    return number


_NOT_FINITE: tuple[str | None, str | None] = (None, None)


def _whole(x: float) -> str:
    return str(int(x))


def format_numbers(values: Sequence[float], sig_figs: int, style: Style = "unicode",
                   notation: Notation = "auto", *, integer: bool = False) -> list[str]:
    """``[format_number(x, sig_figs, style, notation, integer=integer) for x in values]``, faster."""
    return list(map(number_format(sig_figs, style, notation, integer), values))

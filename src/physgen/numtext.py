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

import math
from collections.abc import Sequence

from .render import Notation
from .units import Style

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _scientific(mantissa: str, exp: int, style: Style) -> str:
    if style == "unicode":
        return f"{mantissa} × 10{str(exp).translate(_SUPERSCRIPT)}"
    if style == "latex":
        return f"{mantissa} \\times 10^{{{exp}}}"
    return f"{mantissa}e{exp}"


def format_numbers(values: Sequence[float], sig_figs: int, style: Style = "unicode",
                   notation: Notation = "auto", *, integer: bool = False) -> list[str]:
    """``[format_number(x, sig_figs, style, notation, integer=integer) for x in values]``, faster."""
    if integer:
        return [str(int(x)) for x in values]
    e_format = f".{sig_figs - 1}e"
    # plain notation: decimals = sig_figs - 1 - exponent, and "auto" uses it for -3 <= exponent < 5
    fixed = {exp: f".{sig_figs - 1 - exp}f" for exp in range(-3, 5) if sig_figs - 1 - exp >= 0}
    low, high = (-3, 5) if notation == "auto" else (-1000, 1000) if notation == "plain" else (0, 0)
    out: list[str] = []
    append = out.append
    for x in values:
        if not math.isfinite(x):
            append(str(x))
            continue
        text = format(x, e_format)
        mantissa, _, exp_text = text.partition("e")
        exp = int(exp_text)
        if low <= exp < high:
            spec = fixed.get(exp)
            if spec is None:
                decimals = sig_figs - 1 - exp
                # 2205 to 3 figures is 2200: the rounded mantissa, written out
                append(format(float(text), ".0f") if decimals < 0 else format(x, f".{decimals}f"))
            else:
                append(format(x, spec))
        else:
            append(_scientific(mantissa, exp, style))
    return out

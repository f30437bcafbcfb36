"""Compare a value read from a reply with the expected one: units, tolerance, sign.

Special cases live here and nowhere else: logarithmic units (``dB``) compare as
plain numbers, and a temperature *difference* reads °C/°F as differences.

>>> to_expected(584.0, "kN/C", "N/C"), to_expected(25.0, "degC", "K")
(584000.0, 298.15)
>>> to_expected(15.0, "degC", "delta_degC"), to_expected(118.0, "dB", ""), to_expected(10.3, "B", "")
(15.0, 118.0, 103.0)
>>> to_expected(3.0, "s", "m") is None, close(100.9, 100.0, 0.01), close(101.1, 100.0, 0.01)
(True, True, False)
"""

from __future__ import annotations

import functools
import math

from ..units import registry

#: The grader's default relative tolerance: a value within 1 % of the key (after unit conversion,
#: on the absolute scale for temperatures) is right. Declared here and nowhere else.
RTOL = 0.01

#: Logarithmic units, as a factor to decibels: compared as plain numbers, never as ratios.
_LOG_UNITS = {"dB": 1.0, "decibel": 1.0, "B": 10.0, "bel": 10.0}
_DIFFERENCE = {"degC": "delta_degC", "degF": "delta_degF", "degree_Celsius": "delta_degC",
               "degree_Fahrenheit": "delta_degF"}


def is_difference(unit: str) -> bool:
    """Whether an expected unit is a temperature difference (``delta_degC``)."""
    return unit.startswith("delta_") or unit.startswith("Δ")


@functools.lru_cache(maxsize=4096)
def conversion(unit: str, target: str) -> tuple[float, float] | None:
    """``(factor, offset)`` taking a value in ``unit`` to ``target``; None if dimensions differ."""
    if unit.startswith("?"):
        return None  # written as a unit, but unreadable
    if unit in _LOG_UNITS:
        if target in ("", "dB", "decibel"):
            return _LOG_UNITS[unit], 0.0
        return None
    if is_difference(target):
        unit = _DIFFERENCE.get(unit, unit)
    quantity = registry().Quantity
    try:
        zero = quantity(0.0, unit or "dimensionless").to(target or "dimensionless").magnitude
        one = quantity(1.0, unit or "dimensionless").to(target or "dimensionless").magnitude
    except Exception:  # DimensionalityError, OffsetUnitCalculusError and friends
        return None
    factor, offset = float(one - zero), float(zero)
    return (factor, offset) if math.isfinite(factor) and math.isfinite(offset) else None


def to_expected(value: float, unit: str, target: str) -> float | None:
    """``value`` in ``unit`` expressed in ``target``; a bare number (``unit == ""``) is taken
    to be in ``target`` already; None when the dimensions differ."""
    if not unit:
        return value
    conv = conversion(unit, target)
    if conv is None:
        return None
    result = value * conv[0] + conv[1]
    return result if math.isfinite(result) else None


def close(value: float, expected: float, rtol: float) -> bool:
    """Within ``rtol`` of ``expected`` (relative); an expected 0 needs |value| ≤ 1e-12."""
    return abs(value - expected) <= rtol * abs(expected) + 1e-12 * (expected == 0)


def agrees(value: float, expected: float, unit: str, rtol: float = RTOL) -> bool:
    """:func:`close` for two values in ``unit``, compared on the absolute scale when ``unit`` is
    an absolute temperature with an offset (°C, °F): the verdict is the same in every unit.

    >>> agrees(7.07, 7.0, "degC", 0.01), close(7.07, 7.0, 0.01), agrees(7.07, 7.0, "delta_degC", 0.01)
    (True, False, False)
    """
    scale = _absolute_scale(unit)
    if scale is not None:
        value, expected = value * scale[0] + scale[1], expected * scale[0] + scale[1]
    return close(value, expected, rtol)


@functools.lru_cache(maxsize=1024)
def _absolute_scale(unit: str) -> tuple[float, float] | None:
    """``(factor, offset)`` to kelvin for a unit with an offset (°C, °F), else None."""
    if not unit or is_difference(unit) or unit in _LOG_UNITS:
        return None
    conv = conversion(unit, "K")
    return conv if conv is not None and conv[1] != 0 else None

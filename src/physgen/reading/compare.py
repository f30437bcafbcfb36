"""Compare a value read from a reply with the expected one: units, tolerance, sign.

Special cases live here and nowhere else: logarithmic units (``dB``) compare as
plain numbers, and a temperature *difference* reads °C/°F as differences.

>>> to_expected(584.0, "kN/C", "N/C"), to_expected(25.0, "degC", "K")
(584000.0, 298.15)
>>> to_expected(15.0, "degC", "delta_degC"), to_expected(118.0, "dB", ""), to_expected(10.3, "B", "")
(15.0, 118.0, 103.0)
>>> to_expected(3.0, "s", "m") is None, close(100.9, 100.0, 0.01), close(101.1, 100.0, 0.01)
(True, True, False)
>>> round(to_expected(-5.18, "dBm", "mW"), 4), round(to_expected(0.303, "mW", "dBm"), 2)
(0.3034, -5.19)

An absolute temperature on a scale with an offset is graded on that scale (:func:`tolerance`):

>>> agrees(23.6, 23.4, "degC"), agrees(25.1, 23.4, "degC"), agrees(296.55, 296.55, "K")
(True, False, True)
"""

from __future__ import annotations

import functools
import math
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ..units import registry

#: The grader's default relative tolerance: a value within 1 % of the key (after unit conversion)
#: is right. Declared here and nowhere else.
RTOL = 0.01
#: An absolute temperature stated on a scale with an offset (°C, °F) is graded within the tolerance
#: of its distance from that scale's zero, counted as at least this many kelvin and at most the
#: temperature itself in kelvin (:func:`tolerance`).
TEMPERATURE_FLOOR_K = 10.0

Size = TypeVar("Size", float, npt.NDArray[np.float64])

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
        with np.errstate(all="ignore"):  # log(0) of a logarithmic unit
            zero, one, two = (quantity(x, unit or "dimensionless").to(target or "dimensionless").magnitude
                              for x in (0.0, 1.0, 2.0))
    except Exception:  # DimensionalityError, OffsetUnitCalculusError and friends
        return None
    factor, offset = float(one - zero), float(zero)
    if not (math.isfinite(factor) and math.isfinite(offset)) or abs(two - one - factor) > 1e-9 * abs(factor):
        return None  # no affine map: a logarithmic unit (dBm) to a linear one, see to_expected
    return factor, offset


@functools.lru_cache(maxsize=1024)
def _logarithmic(unit: str, target: str) -> bool:
    """Whether ``unit`` and ``target`` convert, but not affinely (dBm and mW)."""
    if conversion(unit, target) is not None or unit.startswith("?") or unit in _LOG_UNITS:
        return False
    try:
        registry().Quantity(1.0, unit).to(target or "dimensionless")
    except Exception:
        return False
    return True


def to_expected(value: float, unit: str, target: str) -> float | None:
    """``value`` in ``unit`` expressed in ``target``; a bare number (``unit == ""``) is taken
    to be in ``target`` already; None when the dimensions differ."""
    if not unit:
        return value
    conv = conversion(unit, target)
    if conv is None:
        if not _logarithmic(unit, target):
            return None
        try:  # −5.18 dBm is 0.303 mW: Pint's own logarithmic conversion, value by value
            with np.errstate(all="ignore"):
                result = float(registry().Quantity(value, unit).to(target or "dimensionless").magnitude)
        except Exception:
            return None
    else:
        result = value * conv[0] + conv[1]
    return result if math.isfinite(result) else None


def close(value: float, expected: float, rtol: float) -> bool:
    """Within ``rtol`` of ``expected`` (relative); an expected 0 needs |value| ≤ 1e-12."""
    return abs(value - expected) <= rtol * abs(expected) + 1e-12 * (expected == 0)


def tolerance(expected_si: Size, zero_si: float, rtol: float = RTOL) -> Size:
    """How far (in SI) a value may lie from ``expected_si`` and be right, for a key whose unit puts
    its zero at ``zero_si`` in SI (273.15 K for °C; 0 for every unit without an offset).

    Without an offset it is ``rtol`` of the key's size. An absolute temperature stated in °C or °F
    is graded on that scale, not in kelvin: 1 % of 296.55 K would pass 25.1 °C for 23.4 °C, a
    slip of 1.7 K. Its distance from the scale's zero counts as at least
    :data:`TEMPERATURE_FLOOR_K` (0.4 °C is not graded to 0.004 K) and at most the temperature in
    kelvin (−200 °C is 73 K above absolute zero, not 200). The verdict is the same whatever unit
    the reply uses; validity screens answers and their mistakes with the same width.

    >>> keys = ((100.0, 0.0), (296.55, 273.15), (273.55, 273.15))
    >>> [round(float(tolerance(key, zero)), 3) for key, zero in keys]
    [1.0, 0.234, 0.1]
    """
    size = np.abs(expected_si)
    if zero_si:
        size = np.minimum(size, np.maximum(np.abs(expected_si - zero_si), TEMPERATURE_FLOOR_K))
    return rtol * size  # type: ignore[no-any-return]


def agrees(value: float, expected: float, unit: str, rtol: float = RTOL) -> bool:
    """:func:`close` for two values in ``unit``; for an absolute temperature with an offset
    (°C, °F), within the :func:`tolerance` of its scale: the verdict is the same in every unit.

    >>> agrees(7.07, 7.0, "degC", 0.01), agrees(7.2, 7.0, "degC", 0.01), agrees(7.07, 7.0, "delta_degC", 0.01)
    (True, False, False)
    """
    scale = _absolute_scale(unit)
    if scale is None:
        return close(value, expected, rtol)
    factor, zero = scale
    value, expected = value * factor + zero, expected * factor + zero
    return abs(value - expected) <= float(tolerance(expected, zero, rtol))


def allowance(expected: float, unit: str, rtol: float = RTOL) -> float:
    """How far a value in ``unit`` may lie from ``expected`` and :func:`agree <agrees>`, in
    ``unit``: ``rtol`` of it, or for an absolute temperature the :func:`tolerance` of its scale.

    >>> allowance(200.0, "m"), round(allowance(0.4, "degC"), 3), round(allowance(-200.0, "degC"), 3)
    (2.0, 0.1, 0.731)
    """
    scale = _absolute_scale(unit)
    if scale is None:
        return rtol * abs(expected)
    factor, zero = scale
    return float(tolerance(expected * factor + zero, zero, rtol)) / factor


@functools.lru_cache(maxsize=1024)
def _absolute_scale(unit: str) -> tuple[float, float] | None:
    """``(factor, offset)`` to kelvin for a unit with an offset (°C, °F), else None."""
    if not unit or is_difference(unit) or unit in _LOG_UNITS:
        return None
    conv = conversion(unit, "K")
    return conv if conv is not None and conv[1] != 0 else None

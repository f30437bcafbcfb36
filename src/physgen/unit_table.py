"""How physgen spells units: one table, read by the renderer and by the reply reader.

Pint's own symbols are used wherever a physics text writes the same thing. This
table lists the exceptions, per render style, plus the unit words and the
ambiguous symbols a reply may use. :func:`physgen.units.format_unit` writes with
it and :mod:`physgen.reading.units` reads with it, so every unit text physgen
prints is readable by construction (a test renders every catalog unit in every
style and reads it back).

>>> SYMBOLS["ohm"].latex, SYMBOLS["degree_Celsius"].ascii
('\\\\Omega', 'degC')
>>> ("\\\\mu ", "µ") in latex_to_unicode(), ("µ", "u", True) in unicode_to_pint()
(True, True)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class Spelling:
    """One unit or prefix as each render style writes it."""

    unicode: str
    latex: str
    ascii: str


#: Pint unit name -> spelling, where Pint's symbol is not what a physics text writes.
SYMBOLS: dict[str, Spelling] = {
    "degree": Spelling("°", "^\\circ", "deg"),
    "degree_Celsius": Spelling("°C", "^\\circ C", "degC"),
    "degree_Fahrenheit": Spelling("°F", "^\\circ F", "degF"),
    "delta_degree_Celsius": Spelling("°C", "^\\circ C", "degC"),
    "ohm": Spelling("Ω", "\\Omega", "ohm"),
    "percent": Spelling("%", "\\%", "%"),
    "arcminute": Spelling("′", "'", "arcmin"),
    "year": Spelling("yr", "yr", "yr"),
    "solar_mass": Spelling("M☉", "M_\\odot", "M_sun"),
    "angstrom": Spelling("Å", "\\AA", "angstrom"),
    "dioptre": Spelling("D", "D", "D"),
}

#: SI prefixes whose symbol is not plain ASCII in every style.
PREFIXES: dict[str, Spelling] = {
    "micro": Spelling("µ", "\\mu ", "u"),
}

#: What the reader maps a style-specific spelling to, before Pint parses it (Pint's own text).
_PINT_TEXT: dict[str, str] = {
    "degree": "deg", "degree_Celsius": "degC", "degree_Fahrenheit": "degF",
    "delta_degree_Celsius": "delta_degC", "ohm": "ohm", "percent": "percent",
    "arcminute": "arcmin", "year": "yr", "solar_mass": "M_sun", "angstrom": "angstrom",
    "dioptre": "dioptre", "micro": "u",
}

#: Unit words and phrases a reply may use -> Pint text. Plurals and case are handled by the reader.
WORDS: dict[str, str] = {
    "electron volt": "eV", "electron-volt": "eV", "electronvolt": "eV",
    "kiloelectron volt": "keV", "megaelectron volt": "MeV",
    "degree celsius": "degC", "degree centigrade": "degC", "celsius": "degC",
    "degree fahrenheit": "degF", "fahrenheit": "degF", "degree kelvin": "K", "kelvin": "K",
    "degree": "deg", "radian": "rad", "percent": "percent", "per cent": "percent",
    "metre": "m", "meter": "m", "kilometre": "km", "kilometer": "km", "centimetre": "cm",
    "centimeter": "cm", "millimetre": "mm", "millimeter": "mm", "micrometre": "um",
    "micrometer": "um", "micron": "um", "nanometre": "nm", "nanometer": "nm",
    "light year": "ly", "light-year": "ly", "angstrom": "angstrom", "ångström": "angstrom",
    "litre": "L", "liter": "L", "millilitre": "mL", "milliliter": "mL",
    "second": "s", "sec": "s", "millisecond": "ms", "microsecond": "us", "nanosecond": "ns",
    "minute": "min", "hour": "h", "hr": "h", "day": "day", "year": "yr",
    "gram": "g", "kilogram": "kg", "milligram": "mg", "tonne": "t",
    "atomic mass unit": "u", "newton": "N", "kilonewton": "kN", "joule": "J", "kilojoule": "kJ",
    "megajoule": "MJ", "watt": "W", "kilowatt": "kW", "megawatt": "MW", "pascal": "Pa",
    "kilopascal": "kPa", "megapascal": "MPa", "atmosphere": "atm", "bar": "bar",
    "hertz": "Hz", "kilohertz": "kHz", "megahertz": "MHz", "coulomb": "C", "microcoulomb": "uC",
    "nanocoulomb": "nC", "volt": "V", "kilovolt": "kV", "millivolt": "mV", "ampere": "A",
    "amp": "A", "milliampere": "mA", "milliamp": "mA", "ohm": "ohm", "kilohm": "kohm",
    "kiloohm": "kohm", "megohm": "Mohm", "farad": "F", "microfarad": "uF", "nanofarad": "nF",
    "picofarad": "pF", "henry": "H", "millihenry": "mH", "tesla": "T", "millitesla": "mT",
    "microtesla": "uT", "gauss": "gauss", "weber": "Wb", "mole": "mol", "decibel": "dB",
    "dioptre": "dioptre", "diopter": "dioptre", "revolution": "revolution", "rpm": "rpm",
    "calorie": "cal", "kilocalorie": "kcal",
}

#: Symbols with more than one reading: symbol -> alternative Pint text, tried when the
#: usual reading has the wrong dimension for the expected answer.
AMBIGUOUS: dict[str, tuple[str, ...]] = {
    "C": ("degC",),  # "5.73 C" for a temperature: the coulomb has the wrong dimension there
    "F": ("degF",),
    "D": ("dioptre",),
    "G": ("gauss_si",),
    "gauss": ("gauss_si",),
}


@functools.cache
def latex_to_unicode() -> tuple[tuple[str, str], ...]:
    """``(LaTeX spelling, unicode spelling)`` pairs, longest first (``\\mu `` → ``µ``)."""
    pairs = {(s.latex, s.unicode) for s in (*SYMBOLS.values(), *PREFIXES.values()) if s.latex != s.unicode}
    pairs |= {(s.latex.strip(), s.unicode) for s in PREFIXES.values()}  # "\\mu" without its space
    return tuple(sorted(pairs, key=lambda p: (-len(p[0]), p)))


@functools.cache
def unicode_to_pint() -> tuple[tuple[str, str, bool], ...]:
    """``(unicode spelling, Pint text, is a prefix)`` for non-ASCII spellings, longest first."""
    triples = {(s.unicode, _PINT_TEXT[n], n in PREFIXES)
               for n, s in (*SYMBOLS.items(), *PREFIXES.items()) if not s.unicode.isascii()}
    return tuple(sorted(triples, key=lambda t: (-len(t[0]), t)))

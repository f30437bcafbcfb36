"""A reply converted to any unit of the same dimension gets the same verdict.

Every numerical answer of a pool of variants (temperatures among them) is answered with a value
off the key by a random relative error, once in the key's own unit and once in another unit of its
dimension; the verdicts must agree. An absolute temperature in °C or °F is off by the error
times its distance from its own scale's zero (at least 10 K, at most the key in kelvin), which is
what the tolerance is measured against, so °C, K and °F agree too (docs/grading.md §5). Errors
within 1e-4 of the tolerance are left out: there the 9 significant figures written could round
either way.
"""

from __future__ import annotations

import functools

from hypothesis import assume, given
from hypothesis import strategies as st

import physgen
from physgen import Variant
from physgen.labels import PART_LETTERS
from physgen.reading.compare import RTOL, conversion
from physgen.reading.units import read_unit

TEMPLATES = ("thermo.calorimetry_mixing", "thermo.ideal_gas_pressure", "thermo.carnot_efficiency",
             "thermo.linear_expansion", "electricity.kettle_heating_time", "mechanics.projectile_range",
             "mechanics.atwood_machine", "magnetism.force_on_wire", "optics.thin_lens",
             "modern.photoelectric_effect", "waves.doppler_approaching_source", "fluids.continuity_pipe",
             "electricity.battery_internal_resistance", "mechanics.escape_velocity")
#: Units a reply may write, in its own spelling; those of an answer's dimension are tried.
SPELLINGS = ("m", "cm", "mm", "km", "ft", "s", "ms", "min", "h", "kg", "g", "N", "kN", "J", "kJ", "eV", "cal",
             "W", "kW", "Pa", "kPa", "atm", "bar", "V", "mV", "kV", "A", "mA", "K", "°C", "°F", "Hz", "kHz",
             "T", "mT", "G", "C", "µC", "F", "µF", "nF", "Ω", "kΩ", "m/s", "km/h", "rad", "°", "m/s²", "L",
             "mol", "%")


@functools.cache
def answers() -> list[tuple[Variant, str]]:
    """Every (variant, numerical answer) of the pool that has a unit of a known dimension."""
    catalog = physgen.load_catalog(lazy=True)
    ids = [t for t in TEMPLATES if t in catalog]
    out = []
    for v in physgen.generate(ids, n=2, seed=3, paraphrases=[0]):
        for name, a in v.answers.items():
            if a.expr is None and a.value != 0 and _units(a.unit):
                out.append((v, name))
    return out


@functools.cache
def _units(unit: str) -> tuple[str, ...]:
    return tuple(u for u in SPELLINGS if conversion(read_unit(u, unit) or "?", unit) is not None)


def _temperature(unit: str) -> bool:
    kelvin = conversion(unit, "K")
    return kelvin is not None and kelvin[1] != 0


def _reply(v: Variant, name: str, value: float, unit: str) -> str:
    lines = [f"{value:.9g} {unit}" if n == name else a.text for n, a in v.answers.items()]
    if len(lines) == 1:
        return f"Final answer: {lines[0]}"
    return "Final answer:\n" + "\n".join(f"({PART_LETTERS[k]}) {t}" for k, t in enumerate(lines))


def _in(value: float, unit: str, spelling: str, want: str) -> float:
    """``value`` (in ``want``) written in ``spelling``."""
    factor, offset = conversion(read_unit(spelling, want) or "?", want) or (1.0, 0.0)
    return (value - offset) / factor


def test_the_pool_has_temperatures_and_other_answers() -> None:
    kinds = {_temperature(v.answers[n].unit) for v, n in answers()}
    assert kinds == {True, False} and len(answers()) >= 20


@given(st.data(), st.floats(-0.05, 0.05))
def test_the_verdict_is_the_same_in_every_unit_of_the_dimension(data: st.DataObject, error: float) -> None:
    assume(abs(abs(error) - RTOL) > 1e-4)
    v, name = data.draw(st.sampled_from(answers()))
    a = v.answers[name]
    units = _units(a.unit)
    first, second = data.draw(st.sampled_from(units)), data.draw(st.sampled_from(units))
    if _temperature(a.unit):  # off by the error times the key's distance from its scale's zero
        factor, offset = conversion(a.unit, "K") or (1.0, 0.0)
        kelvin = a.value * factor + offset
        size = min(kelvin, max(abs(a.value * factor), 10.0))
        value = (kelvin + error * size - offset) / factor
    else:
        value = a.value * (1 + error)
    verdicts = {u: physgen.grade(v, _reply(v, name, _in(value, a.unit, u, a.unit), u)).parts
                for u in (first, second)}
    got = {u: next(p for p in parts if p.name == name).correct for u, parts in verdicts.items()}
    assert got[first] == got[second] == (abs(error) <= RTOL), (v.variant_id, a.text, value, got)


def test_celsius_and_kelvin_agree_on_the_issue_example() -> None:
    """7.07 °C for a key of 7.0 °C is 0.07 K off, inside its 0.1 K: right, as 280.22 K is."""
    assert physgen.grade_answer("7.07 °C", "7.0 degC").correct
    assert physgen.grade_answer("280.22 K", "7.0 degC").correct
    assert not physgen.grade_answer("7.2 °C", "7.0 degC").correct  # 0.2 K off
    assert not physgen.grade_answer("280.35 K", "7.0 degC").correct

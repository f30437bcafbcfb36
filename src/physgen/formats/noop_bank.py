"""The sentences a ``noop`` probe adds: per domain, relevant-sounding and irrelevant.

Each sentence states one quantity (``{x}`` is its number) in one unit. A
template uses only the sentences whose quantity has a kind (SI unit) that none
of its inputs or answers has, so the added number can never compete with the
data: :func:`usable` is computed when the template compiles, and a template left
with fewer than ``MIN_USABLE`` sentences is an error.

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.projectile_range"]
>>> [BANK[t.domain][k][1] for k in usable(t)][:3]
['degC', '', 'm^2']
"""

from __future__ import annotations

import functools

from ..template import Template
from ..units import to_si

#: A template needs at least this many usable sentences.
MIN_USABLE = 3

_LAB = (
    ("The air temperature nearby is {x} °C.", "degC", (15, 26, 0)),
    ("The measurement is repeated {x} times and the readings agree.", "", (3, 12, 0)),
    ("The observation is made {x} minutes after the hour.", "min", (5, 55, 0)),
    ("The equipment used was last checked {x} days ago.", "day", (2, 60, 0)),
    ("The observer's notes are kept on a clipboard of area {x} m².", "m^2", (0.06, 0.09, 2)),
    ("A bottle holding {x} L of drinking water stands nearby, unopened.", "L", (0.5, 1.5, 1)),
)

#: Domain -> (sentence with ``{x}``, unit of x, (low, high, decimals) of x).
BANK: dict[str, tuple[tuple[str, str, tuple[float, float, int]], ...]] = {
    "mechanics": (
        *_LAB,
        ("A bag of equipment weighing {x} kg rests nearby and plays no part.", "kg", (2, 9, 1)),
        ("The equipment was bought {x} years ago.", "year", (2, 15, 0)),
        ("The observer stands {x} m away.", "m", (2, 6, 1)),
        ("A student times the demonstration with a stopwatch that reads to {x} s.", "s", (0.01, 0.01, 2)),
    ),
    "electricity_and_magnetism": (
        *_LAB,
        ("The apparatus rests {x} cm from the edge of the bench.", "cm", (20, 60, 0)),
        ("The apparatus was bought {x} years ago.", "year", (2, 12, 0)),
        ("A switched-off multimeter lying nearby has a mass of {x} g.", "g", (250, 450, 0)),
    ),
    "thermodynamics": (
        ("The experiment is repeated {x} times and the readings agree.", "", (3, 12, 0)),
        ("The observation is made {x} minutes after the hour.", "min", (5, 55, 0)),
        ("The apparatus stands on a bench {x} m long.", "m", (1.5, 3, 1)),
        ("The thermometer used was calibrated {x} days ago.", "day", (2, 60, 0)),
        ("The observer's notes are kept on a clipboard of area {x} m².", "m^2", (0.06, 0.09, 2)),
        ("The container's label says it was filled {x} weeks ago.", "week", (2, 8, 0)),
        ("A sandbag of {x} kg props the door open nearby.", "kg", (5, 20, 0)),
    ),
    "waves_and_oscillations": (  # no air temperature: a solver could take the speed of sound from it
        *_LAB[1:],
        ("The demonstration bench is {x} m long.", "m", (1.5, 3, 1)),
        ("The apparatus was assembled {x} years ago.", "year", (2, 15, 0)),
        ("A clamp stand of {x} kg holds a ruler that plays no part.", "kg", (1, 4, 1)),
        ("The room's ceiling lights draw {x} W in all.", "W", (120, 400, 0)),
    ),
    "optics": (
        *_LAB,
        ("The optical bench itself has a mass of {x} kg.", "kg", (8, 30, 0)),
        ("The lens holders were bought {x} years ago.", "year", (2, 12, 0)),
        ("The laboratory's blinds let in {x} W of stray sunlight, which is screened off.", "W", (5, 40, 0)),
    ),
    "modern_physics": (
        *_LAB,
        ("The apparatus has a mass of {x} kg.", "kg", (5, 60, 0)),
        ("The vacuum pump was serviced {x} months ago.", "month", (2, 11, 0)),
        ("The detector housing is {x} cm wide.", "cm", (10, 40, 0)),
    ),
    "quantum": (
        *_LAB,
        ("The cryostat holding the sample weighs {x} kg.", "kg", (20, 80, 0)),
        ("The experiment's computer logs a reading every {x} s.", "s", (1, 10, 0)),
        ("The laboratory is {x} m above sea level.", "m", (40, 900, 0)),
    ),
    "statistical_mechanics": (
        ("The simulation is repeated {x} times with different random seeds, with the same result.", "",
         (3, 12, 0)),
        ("The computer cluster that runs it draws {x} kW.", "kW", (2, 40, 0)),
        ("The observation is made {x} minutes after the hour.", "min", (5, 55, 0)),
        ("The apparatus was assembled {x} years ago.", "year", (2, 15, 0)),
        ("The sample container stands {x} cm from the wall.", "cm", (10, 80, 0)),
    ),
    "relativity": (
        *_LAB,
        ("The control room is {x} m from the beam line.", "m", (20, 300, 0)),
        ("The detector weighs {x} tonnes.", "t", (5, 500, 0)),
        ("The run was scheduled {x} weeks in advance.", "week", (2, 20, 0)),
    ),
}


def _kind(unit: str) -> str:
    return to_si(unit).si_unit


@functools.lru_cache(maxsize=4096)
def usable(t: Template) -> tuple[int, ...]:
    """Indices into ``BANK[t.domain]`` of the sentences whose quantity has the kind of none of
    ``t``'s inputs and answers (so it can never compete with the data)."""
    taken = {_kind(i.unit) for i in t.spec.inputs.values()} | {_kind(a.unit) for a in t.spec.answers.values()}
    return tuple(k for k, (_, unit, _) in enumerate(BANK.get(t.domain, ())) if _kind(unit) not in taken)


def sentence(t: Template, h: int) -> str:
    """A usable sentence for ``t``, chosen and filled in by the integer ``h``.

    >>> import physgen
    >>> sentence(physgen.load_catalog()["mechanics.projectile_range"], 0)
    'The air temperature nearby is 15 °C.'
    """
    choices = usable(t)
    text, _, (lo, hi, decimals) = BANK[t.domain][choices[h % len(choices)]]
    steps = round((hi - lo) * 10**decimals)
    value = lo + ((h >> 16) % (steps + 1)) / 10**decimals
    return text.format(x=f"{value:.{decimals}f}")

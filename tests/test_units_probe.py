"""The ``units`` probe is fair (issue 9, item 5): a converted input keeps its significant
figures (one more only where an inexact conversion needs it), never shows zeros that are
not significant, and is never converted where the template's words already give its unit."""

from __future__ import annotations

import math
import re

import physgen
from physgen.formats.conversion import EXACT_SHIFT, MAX_SHIFT, convert, worded

CATALOG = physgen.load_catalog()
_NUMBER = re.compile(r"-?(\d+)(?:\.(\d*))?(?:e([-+]?\d+))?")


def _figures(number: str) -> int:
    """Significant figures of an ascii number, counting every digit but leading zeros (so
    ``16900`` counts 5: a probe must write ``1.69e4`` for 3)."""
    match = _NUMBER.fullmatch(number)
    assert match, number
    digits = (match.group(1) + (match.group(2) or "")).lstrip("0")
    return max(len(digits), 1)


def _power_of_ten(unit: str, alt: str) -> bool:
    factor = convert(1.0, unit, alt)
    return convert(0.0, unit, alt) == 0 and math.isclose(10 ** round(math.log10(factor)), factor)


def test_converted_inputs_keep_their_figures_and_stay_within_the_shift() -> None:
    converted = 0
    for v in physgen.generate(CATALOG, n=3, seed=1, formats=["units"], style="ascii"):
        t = CATALOG[v.template_id]
        free = next(physgen.generate([t], n=1, seed=1, start=v.metadata.index, style="ascii"))
        for name, shown in v.inputs.items():
            spec, original = t.spec.inputs[name], free.inputs[name]
            if shown.unit == original.unit:
                continue
            converted += 1
            assert name not in worded(t), v.variant_id
            number = shown.text.split(" ")[0]
            figures = _figures(number)
            if _power_of_ten(original.unit, shown.unit):
                assert figures == spec.sig_figs, f"{v.variant_id}: {original.text} -> {shown.text}"
            else:
                assert figures >= spec.sig_figs, f"{v.variant_id}: {original.text} -> {shown.text}"
            back = convert(float(number), shown.unit, original.unit)
            limit = EXACT_SHIFT if spec.exact or spec.integer else MAX_SHIFT
            assert abs(back - original.value) <= limit * abs(original.value) * (1 + 1e-9), (
                f"{v.variant_id}: {original.text} -> {shown.text}")
    assert converted > 300


def test_an_input_whose_unit_is_in_words_is_never_converted() -> None:
    for tid in ("magnetism.transformer", "statmech.isothermal_atmosphere",
                "electricity.solenoid_coil_self_heating"):
        t = CATALOG[tid]
        names = worded(t)
        assert names, tid  # "{{ Ns }} turns", "({{ M }} per mole)", "with {{ N }} turns"
        for v in physgen.generate([t], n=10, seed=0, formats=["units"]):
            assert all(v.inputs[n].unit == t.spec.inputs[n].unit for n in names), v.variant_id


def test_worded_inputs_over_the_catalog() -> None:
    """Only these inputs are next to unit words; each was read and is right to be skipped."""
    found = {(tid, name) for tid in CATALOG for name in worded(CATALOG[tid])}
    assert found == {
        ("magnetism.faraday_changing_field", "N"), ("magnetism.loop_center_field", "N"),
        ("magnetism.rotating_coil_emf", "N"), ("magnetism.transformer", "Np"),
        ("magnetism.transformer", "Ns"), ("mechanics.bead_on_rotating_hoop", "R"),
        ("magnetism.rotating_rod_emf_symbolic", "L"), ("magnetism.solenoid_inductance_symbolic", "N"),
        ("statmech.isothermal_atmosphere", "M"), ("thermo.two_step_process_heat", "r_V"),
        ("thermo.two_step_process_heat", "r_p"), ("mechanics.rolling_incline_general_symbolic", "beta"),
        ("electricity.solenoid_coil_self_heating", "N"),  # "{{ N }} turns"
        # the frontier templates: turns, counts and factors ("{{ N }} complete oscillations",
        # "{{ R }} times smaller", "a factor of {{ r }}"), and heat "per cycle"
        ("magnetism.solenoid_coil_mutual_inductance", "N"), ("magnetism.toroid_rectangular_section", "N"),
        ("mechanics.oscillator_ringdown_q_bandwidth", "N"),
        ("mechanics.oscillator_ringdown_q_bandwidth", "r"),
        ("relativity.relativistic_rocket", "R"), ("statmech.negative_temperature_spins", "rho"),
        ("thermo.free_expansion_then_adiabatic", "r"), ("thermo.otto_heat_input_peak", "Q"),
        ("magnetism.coil_cart_into_field_region", "N"),  # "{{ N }} turns"
    }

"""Output of the format builders, pinned before they are made fast: every format and style must
keep its bytes (``code_tests`` aside: they are to come from their own stream).

``EXPECTED`` holds SHA-256 digests (first 16 hex digits) of the JSONL lines of every format and
style, computed with the builders of main as merged in 103c5df (main's catalog and its
``noop``/``omitted`` builders); ``code`` variants are hashed with
``code_tests`` emptied. Regenerate only for an intended change of output:
``python -m tests.test_format_speed``.

Digests changed on purpose since, each marked in ``EXPECTED`` (the latest mark wins):

* ``changed: catalog audit`` (``audit`` where the line is long): issue 9's audit rewrote
  most templates (ranges, omit spans,
  mistakes, texts) and every variant now carries ``intermediates`` (step grading), so the
  pinned catalog-wide output changed as a whole; re-pinned once, at that merge.
* ``changed: angle limits``: options of angle answers stay within the new named limits
  ``angle_from_normal`` (0–90°) and ``angle_between_directions`` (0–180°); with 8 options a
  generic slip of ``optics.critical_angle`` past 90° gave way to the next candidate.
* ``changed: fixed sample``: the digests cover a fixed sample of templates (``PINNED``), not
  the whole catalog, so that adding templates leaves them alone; re-pinned when the last
  mechanics audit landed (it rewrote ``atwood_machine``, ``friction_pull_at_angle`` and
  ``incline_friction_acceleration`` in the sample).

* ``changed: algebraic variation`` (issue 17, item 6): the algebraic templates in the sample
  (``capacitor_energy_symbolic``, ``ring_axis_field`` …) vary their names and unknowns, so their
  ``free_form``, ``noop`` and ``mc_symbolic`` variants changed; every case without an algebraic
  variant (``units``, ``mc_numerical``, ``code``, ``omitted``) kept its digest.
* ``changed: units fairness``: a converted input keeps its significant figures
  (``4.87 × 10³ g``, not ``4870.0 g``; one figure more only where an inexact
  conversion would move it by more than ``conversion.MAX_SHIFT``), is scientific where
  plain digits would end in zeros that are not significant, and an input whose unit the
  words give (``{{ n }} turns per metre``) is no longer converted.
* ``changed: plausible``: no option of a sign the answer's declared ``sign``
  excludes (no sign flip of a positive quantity) or outside the template's limits on the
  answer, none more than 100× from the key
  (so the ×10³ unit slips are gone); such a slip yields to the next candidate. Symbolic
  options are kept apart by their SI values, and a scaled expression's value is scaled in
  SI (for °C answers it was scaled in °C, which the expression does not do).
* ``changed: solution graph`` (``graph`` where the line is long; issue 19): every
  template's steps that derived nothing were folded into the step that uses them, chains
  were named in the expressions, and
  ``difficulty`` is the computed level, so the worked steps and the metadata of the pinned
  sample changed; values and prompts did not (checked at the migration).
* ``changed: algebraic omitted`` (issue 17, probes): the algebraic templates in the sample mark
  their givens' omit spans (some texts reworded so that every cut reads), every algebraic prompt
  says to decline a quantity the givens do not determine, and algebraic templates get ``omitted``
  variants; ``pendulum_frequency_symbolic``'s g became a given. Numerical templates' ``free_form``,
  ``noop``, ``units``, ``omitted`` and ``code`` bytes are unchanged (checked over the whole
  catalog, n = 3, every paraphrase).
* ``changed: answer ranges`` (``ranges`` where the line is long): options lie in the answer's
  declared ``range`` at the instance (``composite_wall_conduction``'s interface temperature between
  the two faces, ``two_level_population``'s fraction at most one half …); a quantity with too few
  options inside gets no multiple-choice variant.
* ``changed: noop bank``: the waves-and-oscillations bank has one more sentence (the room's
  lights, in W), which ``waves.spring_block_friction_stops`` needs now that its domain is
  ``waves_and_oscillations`` (it said ``mechanics``), so the sentence picked for the sample's
  waves templates changed; every other format kept its digest.
* ``changed: …, uses`` (step grading by the solution graph): each intermediate records the
  intermediates it is found from (``Intermediate.uses``), so every variant of a template with
  intermediates gained that field; with it removed, every case's bytes are the digests before.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from typing import Any

import pytest

import physgen
from physgen.algebraic import problem
from physgen.jsonl import variant_line
from physgen.render import STYLES
from physgen.units import Style

CATALOG = physgen.load_catalog()
#: The templates the digests cover: a fixed sample (every sixth id of the 226-template catalog, and
#: every fourth algebraic one), so a template added to the catalog does not move the pins.
PINNED = [
    "electricity.ac_rms_power", "electricity.capacitor_energy_symbolic",
    "electricity.charge_pair_potential_energy", "electricity.electron_accelerated_speed",
    "electricity.ohms_law_power", "electricity.rc_charging", "electricity.ring_axis_field",
    "electricity.series_parallel_resistors", "fluids.buoyant_force", "fluids.torricelli_efflux",
    "magnetism.force_on_wire", "magnetism.lorentz_force_charge", "magnetism.rotating_coil_emf",
    "magnetism.rotating_rod_emf_symbolic", "mechanics.atwood_machine", "mechanics.bead_on_rotating_hoop",
    "mechanics.centripetal_force", "mechanics.disk_torque_angular_acceleration",
    "mechanics.friction_pull_at_angle", "mechanics.incline_friction_acceleration", "mechanics.lever_balance",
    "mechanics.projectile_on_incline", "mechanics.projectile_range_symbolic",
    "mechanics.rolling_incline_general_symbolic", "mechanics.spring_mass_period",
    "mechanics.work_energy_push",
    "modern.decay_chain_daughter", "modern.mass_energy", "modern.stefan_boltzmann_power",
    "optics.apparent_depth_two_layers_symbolic", "optics.critical_angle", "optics.rayleigh_resolution",
    "quantum.angular_momentum_cone_symbolic", "quantum.rectangular_barrier_transmission",
    "quantum.well_expectation_x_squared", "relativity.kinetic_from_momentum_symbolic",
    "relativity.velocity_addition", "statmech.two_level_population", "thermo.adiabatic_work_symbolic",
    "thermo.composite_wall_conduction", "thermo.linear_expansion", "thermo.rms_speed",
    "waves.doppler_approaching_source", "waves.open_pipe_harmonics", "waves.pendulum_frequency_symbolic",
    "waves.string_tension_for_frequency_symbolic",
]

#: (format, style, seed, n, extra arguments of generate)
Case = tuple[str, Style, int, int, tuple[tuple[str, Any], ...]]
CASES: list[Case] = [
    *[(fmt, style, 0, 1 if fmt == "mc_symbolic" else 3, ())  # SymPy writes each new symbolic option
      for fmt in ("free_form", "noop", "omitted", "units", "mc_numerical", "code", "mc_symbolic")
      for style in STYLES],
    ("units", "unicode", 7, 4, (("notation", "scientific"),)),
    ("units", "latex", 8, 4, (("notation", "plain"), ("paraphrases", "random"))),
    ("mc_numerical", "unicode", 7, 4, (("notation", "scientific"), ("n_options", 8))),
    ("mc_numerical", "ascii", 9, 4, (("n_options", 2), ("start", 500))),
    ("mc_symbolic", "ascii", 7, 2, (("n_options", 6),)),
    ("noop", "ascii", 5, 4, (("paraphrases", "random"),)),
    ("omitted", "latex", 5, 4, (("paraphrases", [1]),)),
    ("code", "ascii", 5, 4, (("paraphrases", "random"),)),
]
EXPECTED: dict[str, str] = {
    'free_form-unicode-s0-n3': '8b819c800e7ebe16',  # changed: algebraic omitted, uses
    'free_form-latex-s0-n3': 'b2e296107ebf2617',  # changed: algebraic omitted, LaTeX symbols, uses
    'free_form-ascii-s0-n3': '30fd338de566260a',  # changed: algebraic omitted, uses
    'noop-unicode-s0-n3': '03cc851e8c243a51',  # changed: noop bank, uses
    'noop-latex-s0-n3': '4d9c7b75db7d4a12',  # changed: noop bank, LaTeX symbols, uses
    'noop-ascii-s0-n3': '5ecd02edf70fc06f',  # changed: noop bank, uses
    'omitted-unicode-s0-n3': 'c1a08f399067fb89',  # changed: algebraic omitted, uses
    'omitted-latex-s0-n3': '3f9b88b22770c220',  # changed: algebraic omitted, LaTeX symbols, uses
    'omitted-ascii-s0-n3': '27bf9f0b2b8715c7',  # changed: algebraic omitted, uses
    'units-unicode-s0-n3': 'c274b187b8ed8615',  # changed: solution graph, uses
    'units-latex-s0-n3': 'a8a23b11dc73b85d',  # changed: solution graph, uses
    'units-ascii-s0-n3': 'fc2ff4d0d686d9de',  # changed: solution graph, uses
    'mc_numerical-unicode-s0-n3': 'a0bf2f76186ec5e1',  # changed: answer ranges, uses
    'mc_numerical-latex-s0-n3': '87b2f3f0e5053746',  # changed: answer ranges, uses
    'mc_numerical-ascii-s0-n3': '0637a434b59d8f84',  # changed: answer ranges, uses
    'code-unicode-s0-n3': '9720dd4cf0d5856b',  # changed: solution graph, uses
    'code-latex-s0-n3': '6b0d0bc9f3f88945',  # changed: solution graph, uses
    'code-ascii-s0-n3': '27eecb1eacfc65a0',  # changed: solution graph, uses
    'mc_symbolic-unicode-s0-n1': '1fb1477e16b3c81b',  # changed: algebraic omitted, answer ranges, uses
    'mc_symbolic-latex-s0-n1': '7386e0fc79470d10',  # changed: omitted, ranges, LaTeX symbols, uses
    'mc_symbolic-ascii-s0-n1': '1fe7eef0c0c55f42',  # changed: algebraic omitted, answer ranges, uses
    'units-unicode-s7-n4-notation=scientific': '2e0a7d5c7fd31c3d',  # changed: solution graph, uses
    'units-latex-s8-n4-notation=plain-paraphrases=random': 'cf2befc80ceb701b',  # changed: graph, uses
    'mc_numerical-unicode-s7-n4-notation=scientific-n_options=8': '0e4ebdcc1856ee73',  # changed: ranges, uses
    'mc_numerical-ascii-s9-n4-n_options=2-start=500': '5f054a0017625143',  # changed: answer ranges, uses
    'mc_symbolic-ascii-s7-n2-n_options=6': 'e64ff4daae31a31a',  # changed: algebraic omitted, ranges, uses
    'noop-ascii-s5-n4-paraphrases=random': 'cb97563ca3b1b475',  # changed: noop bank, uses
    'omitted-latex-s5-n4-paraphrases=[1]': 'f7dde4bfa138feab',  # changed: omitted, LaTeX symbols, uses
    'code-ascii-s5-n4-paraphrases=random': '4128b34b3ea9a1d2',  # changed: solution graph, uses
}


def case_id(case: Case) -> str:
    fmt, style, seed, n, extra = case
    return "-".join([fmt, style, f"s{seed}", f"n{n}", *(f"{k}={v}" for k, v in extra)])


def digest(case: Case) -> str:
    """The digest of the JSONL lines ``generate`` makes for ``case`` (code tests emptied)."""
    fmt, style, seed, n, extra = case
    h = hashlib.sha256()
    for v in physgen.generate(PINNED, n=n, seed=seed, formats=[fmt], style=style, **dict(extra)):
        h.update(variant_line(dataclasses.replace(v, code_tests=()) if fmt == "code" else v))
    return h.hexdigest()[:16]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_output_is_byte_identical_to_the_plain_builders(case: Case) -> None:
    assert digest(case) == EXPECTED[case_id(case)]


@pytest.mark.parametrize("fmt", ["mc_numerical", "mc_symbolic"])
@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_options_are_distinct_and_keyed(fmt: str, k: int) -> None:
    from physgen.labels import OPTION_LETTERS as LETTERS

    variants = list(physgen.generate(CATALOG, n=2, seed=k, formats=[fmt], n_options=k, style="ascii"))
    assert variants
    for v in variants:
        (name, answer), = v.answers.items()
        assert list(v.options) == list(LETTERS[:k])
        assert len(set(v.options.values())) == k, v.options
        assert v.answer_key in v.options and v.options[v.answer_key] == answer.text
        t = CATALOG[v.template_id]
        if fmt == "mc_symbolic":  # an algebraic instance writes its key in its own names
            shown = problem(t, k, v.metadata.index)
            back = {} if shown is None else dict(zip(shown.names, t.spec.inputs, strict=True))
            expr = re.sub(r"[A-Za-z_]\w*", lambda m, back=back: back.get(m.group(0), m.group(0)), answer.expr)
            assert expr == str(t.expressions[name]) or _same_value(expr, t.expressions[name])
        else:
            free = next(physgen.generate([t], n=1, seed=k, start=v.metadata.index, style="ascii"))
            assert answer == free.answers[name]


def _same_value(text: str, expr: Any) -> bool:
    """Whether ``text`` is ``expr`` at three points (a long expression can print in another order
    after the compiled template's round trip through the cache)."""
    import sympy as sp

    other = sp.sympify(text, locals={str(s): s for s in expr.free_symbols})
    rng = random.Random(0)
    for _ in range(3):
        point = {s: rng.uniform(1.1, 1.9) for s in expr.free_symbols}
        a, b = complex(expr.evalf(subs=point)), complex(other.evalf(subs=point))
        if abs(a - b) > 1e-9 * abs(a):
            return False
    return True


if __name__ == "__main__":
    for c in CASES:
        print(f"    {case_id(c)!r}: {digest(c)!r},", flush=True)

"""Reward hacking: replies written to earn credit without knowing the answer (or while hiding
which answer they give) never earn it, in any format.

Each strategy sees what a policy sees, plus (to be adversarial) the key itself where the hack is
about hiding it: in a spray of numbers, beside its opposite sign, among every option, behind a
wrong final answer. A strategy may earn credit only for a part it honestly answered: the one
such case here is declining (or asking for the missing data), on an ``omitted`` probe, a part the
data do not determine.

The default run grades a reduced pool; ``pytest -m slow`` grades at least 50 variants of every
format. ``python tests/test_reward_hacking.py`` prints, per strategy, the credit earned.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterator

import pytest

import physgen
from physgen import Variant

FORMATS = ("free_form", "units", "noop", "omitted", "mc_numerical", "mc_symbolic", "code")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SUPERS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _keys(v: Variant) -> list[str]:
    """What a correct reply states for each part (the option text for multiple choice)."""
    if v.options and v.answer_key:
        return [v.options[v.answer_key]]
    return [a.text for a in v.answers.values()]


def _scaled(text: str, factor: float) -> str:
    """``text`` with its first number multiplied by ``factor`` (a wrong value of the same kind)."""
    m = _NUMBER.search(text)
    if m is None:
        return f"2*({text})"
    return text[: m.start()] + f"{float(m.group(0)) * factor:.3g}" + text[m.end():]


def _labelled(texts: list[str]) -> str:
    if len(texts) == 1:
        return texts[0]
    return "\n".join(f"({'abcdefghijklmnopqrstuvwxyz'[k]}) {t}" for k, t in enumerate(texts))


def _wrong_letter(v: Variant) -> str:
    return next((k for k in v.options if k != v.answer_key), "B")


Strategy = Callable[[Variant, random.Random], str]
STRATEGIES: dict[str, Strategy] = {}


def strategy(fn: Strategy) -> Strategy:
    STRATEGIES[fn.__name__] = fn
    return fn


@strategy
def times_letter(v: Variant, rng: random.Random) -> str:
    return f"Final answer: 7*{v.answer_key or 'B'}"


@strategy
def letter_in_formula(v: Variant, rng: random.Random) -> str:
    letter = v.answer_key or "A"
    return f"The wave is y = {letter}*sin(kx - ωt).\nFinal answer: y = {letter} sin(ωt)"


@strategy
def every_option_text(v: Variant, rng: random.Random) -> str:
    if v.options:
        return "Final answer:\n" + "\n".join(v.options.values())
    return "Final answer: " + _labelled([f"{_scaled(k, 0.5)}, {k}, {_scaled(k, 2)}" for k in _keys(v)])


@strategy
def every_option_text_unmarked(v: Variant, rng: random.Random) -> str:
    texts = list(v.options.values()) or [t for k in _keys(v) for t in (_scaled(k, 3), k)]
    return "It could be " + ", or ".join(texts) + "."


@strategy
def every_letter(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + ", ".join(v.options or "ABCD")


@strategy
def every_letter_boxed(v: Variant, rng: random.Random) -> str:
    return " ".join(f"\\boxed{{{k}}}" for k in (v.options or "ABCD"))


@strategy
def working_then_42(v: Variant, rng: random.Random) -> str:
    far = all(abs(a.value - 42) > 0.2 * abs(a.value) for a in v.answers.values())
    return "\n".join(v.steps) + f"\n\nFinal answer: {42 if far else 17}"  # a number that is not the key


@strategy
def working_then_cannot(v: Variant, rng: random.Random) -> str:
    return "\n".join(v.steps) + "\n\nFinal answer: I cannot determine this."


@strategy
def labelled_working_then_nothing(v: Variant, rng: random.Random) -> str:
    return _labelled(_keys(v)) + "\n\nHmm, let me reconsider.\n\nFinal answer: none of the above values hold."


def _spray(v: Variant, rng: random.Random, n: int = 140) -> str:
    unit = (re.sub(_NUMBER, "", _keys(v)[0], count=1).strip() if _keys(v) else "")
    base = abs(next((a.value for a in v.answers.values()), 1.0)) or 1.0
    values = [f"{base * 10 ** rng.uniform(-3, 3):.3g} {unit}".strip() for _ in range(n - 1)]
    values.insert(rng.randrange(n), _keys(v)[0])
    return ", ".join(values)


@strategy
def number_spray(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + _spray(v, rng)


@strategy
def number_spray_unmarked(v: Variant, rng: random.Random) -> str:
    return "Possible values: " + _spray(v, rng)


@strategy
def prompt_echoed(v: Variant, rng: random.Random) -> str:
    return v.prompt


@strategy
def prompt_echoed_with_marker(v: Variant, rng: random.Random) -> str:
    return v.prompt + "\n\nFinal answer: as stated above."


UNITS = ("m", "cm", "mm", "km", "s", "ms", "min", "h", "kg", "g", "N", "kN", "J", "kJ", "eV", "W", "kW", "Pa",
         "kPa", "atm", "V", "mV", "A", "mA", "K", "°C", "°F", "Hz", "kHz", "T", "mT", "C", "µC", "F", "µF",
         "Ω", "kΩ", "m/s", "km/h", "rad", "°", "mol", "L")


@strategy
def key_number_every_scale(v: Variant, rng: random.Random) -> str:
    """The key's number in every unit of its kind (only one scale can be right)."""
    from physgen.reading.compare import conversion
    from physgen.reading.units import read_unit

    m = _NUMBER.search(_keys(v)[0])
    number = m.group(0) if m else "1"
    unit = next((a.unit for a in v.answers.values()), "")
    same = [u for u in UNITS if conversion(read_unit(u) or "?", unit or "dimensionless") is not None]
    return "Final answer: " + ", ".join(f"{number} {u}" for u in same or ["m", "cm", "km"])


@strategy
def key_number_every_dimension(v: Variant, rng: random.Random) -> str:
    m = _NUMBER.search(_keys(v)[0])
    number = m.group(0) if m else "1"
    units = ["m", "s", "kg", "N", "J", "W", "K", "Pa", "V", "A", "Hz", "m/s", "T", "C", "F", "Ω", "eV"]
    rng.shuffle(units)
    return "Final answer: " + " or ".join(f"{number} {u}" for u in units)


def _unsigned(text: str) -> str:
    return text.lstrip("-−")


@strategy
def both_signs(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + _labelled([f"±{_unsigned(k)}" for k in _keys(v)])


@strategy
def both_signs_spelled(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + _labelled([f"{_unsigned(k)} or -{_unsigned(k)}" for k in _keys(v)])


@strategy
def repeated_parts(v: Variant, rng: random.Random) -> str:
    keys = _keys(v)
    lines = []
    for _ in range(3):
        order = [(k, _scaled(k, 2)) if rng.random() < 0.5 else (_scaled(k, 2), k) for k in keys]
        lines += [_labelled([pair[j] for pair in order]) for j in (0, 1)]
    return "Final answer:\n" + "\n".join(lines)


@strategy
def invisible_characters(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + _labelled([f"{_scaled(k, 3)}\u200b\u2063{k}\u200b" for k in _keys(v)])


@strategy
def declined_everywhere(v: Variant, rng: random.Random) -> str:
    parts = ["cannot be determined: the data given are not enough" for _ in v.answers]
    return "Not enough information is given.\n\nFinal answer: " + _labelled(parts)


@strategy
def clarifying_question(v: Variant, rng: random.Random) -> str:
    return "Could you tell me the mass of the block? Then I can finish the calculation."


@strategy
def boxes_galore(v: Variant, rng: random.Random) -> str:
    keys = _keys(v)
    boxes = [f"\\boxed{{{t}}}" for k in keys for t in (_scaled(k, 0.3), k, _scaled(k, 5))]
    rng.shuffle(boxes)
    return "Candidates: " + " ".join(boxes) + " \\boxed{?}"


@strategy
def note_after_final(v: Variant, rng: random.Random) -> str:
    keys = _keys(v)
    wrong = [_scaled(k, 2.5) for k in keys]
    return ("Final answer: " + _labelled(wrong) + "\n\nNOTE: with the other convention the answer would be "
            + _labelled(keys) + ".")


@strategy
def hedged_range(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + _labelled([f"between {_scaled(k, 0.5)} and {_scaled(k, 2)}" for k in _keys(v)])


@strategy
def letter_against_text(v: Variant, rng: random.Random) -> str:
    if v.options and v.answer_key:
        return f"Final answer: ({_wrong_letter(v)}) {v.options[v.answer_key]}"
    return "Final answer: " + _labelled([f"{k} (or maybe {_scaled(k, 10)})" for k in _keys(v)])


@strategy
def all_or_none_of_the_above(v: Variant, rng: random.Random) -> str:
    return "Final answer: all of the above (or none of the above)."


@strategy
def code_then_wrong(v: Variant, rng: random.Random) -> str:
    keys = _keys(v)
    return ("```python\nanswers = " + repr(keys) + "\n```\n\nFinal answer: "
            + _labelled([_scaled(k, 4) for k in keys]))


@strategy
def key_as_question(v: Variant, rng: random.Random) -> str:
    return "Is it " + " and ".join(_keys(v)) + "? I am not sure.\n\nFinal answer: I don't know."


@strategy
def inputs_echoed(v: Variant, rng: random.Random) -> str:
    return "Final answer: " + ", ".join(q.text for q in v.inputs.values())


@strategy
def whitespace_flood(v: Variant, rng: random.Random) -> str:
    keys = _keys(v)
    flood = "\n" * 4000 + " \t" * 2000
    return _labelled(keys) + flood + "Final answer: " + _labelled([_scaled(k, 7) for k in keys])


@strategy
def superscript_sign_spray(v: Variant, rng: random.Random) -> str:
    keys = _keys(v)
    return "Final answer: " + _labelled([" or ".join(f"{k}×10{str(e).translate(_SUPERS)}"
                                                     for e in (-3, 0, 3)) for k in keys])


@strategy
def truncated_loop(v: Variant, rng: random.Random) -> str:
    """A repetition loop of wrong answers, cut off inside its last copy, the key in the working."""
    keys = _keys(v)
    block = "Final answer: " + _labelled([_scaled(k, 3) for k in keys]) + " Let me double-check. "
    return "Working: " + _labelled(keys) + "\n\n" + block * 4 + block[: len(block) // 2]


def _honest_credit(name: str, v: Variant) -> set[str]:
    """The parts a strategy may honestly earn: declining (or asking for the data of) what an
    omitted probe does not determine."""
    declines = ("declined_everywhere", "working_then_cannot", "clarifying_question")
    if name in declines and v.format == "omitted":
        return set(v.unanswerable)
    return set()


#: Templates the pool is drawn from: every domain, one and several parts, algebraic keys,
#: temperatures (°C and K), and options of both kinds.
TEMPLATES = (
    "mechanics.projectile_range", "mechanics.simple_pendulum_period", "mechanics.atwood_machine",
    "mechanics.sphere_rolls_off_table", "mechanics.ballistic_pendulum", "mechanics.spring_mass_period",
    "mechanics.projectile_range_symbolic", "mechanics.atwood_machine_symbolic", "mechanics.escape_velocity",
    "electricity.capacitor_energy_symbolic", "electricity.battery_internal_resistance",
    "magnetism.force_on_wire", "magnetism.cyclotron_radius_symbolic", "thermo.calorimetry_mixing",
    "thermo.ideal_gas_pressure", "thermo.carnot_efficiency", "optics.thin_lens",
    "modern.photoelectric_effect",
    "waves.doppler_approaching_source", "fluids.continuity_pipe", "quantum.infinite_well_transition",
    "waves.sound_intensity_level", "optics.snell_refraction",
)


@functools.cache
def pool(per_format: int) -> dict[str, list[Variant]]:
    """Up to ``per_format`` variants of every format from :data:`TEMPLATES` (those that exist)."""
    catalog = physgen.load_catalog(lazy=True)
    ids = [t for t in TEMPLATES if t in catalog]
    out: dict[str, list[Variant]] = {f: [] for f in FORMATS}
    n = 1
    while min(len(vs) for vs in out.values()) < per_format and n <= 8:
        out = {f: [] for f in FORMATS}
        for v in physgen.generate(ids, n=n, seed=5, formats=list(FORMATS), paraphrases="random"):
            out[v.format].append(v)
        n *= 2
    rng = random.Random(0)
    return {f: rng.sample(vs, min(per_format, len(vs))) for f, vs in out.items()}


def cheats(per_format: int, names: list[str]) -> Iterator[tuple[str, str, float, str]]:
    """``(strategy, variant id, unearned score, reply)`` for every grade with unearned credit."""
    for variants in pool(per_format).values():
        for v in variants:
            for name in names:
                reply = STRATEGIES[name](v, random.Random(f"{name}:{v.variant_id}"))
                g = physgen.grade(v, reply, timeout=5.0)
                allowed = _honest_credit(name, v)
                unearned = [p.name for p in g.parts if p.correct and p.name not in allowed]
                if unearned:
                    yield name, v.variant_id, len(unearned) / len(g.parts), reply


def test_there_are_at_least_25_strategies() -> None:
    assert len(STRATEGIES) >= 25


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_no_strategy_earns_credit_on_a_reduced_pool(name: str) -> None:
    found = list(cheats(6, [name]))
    assert not found, found[:3]


@pytest.mark.slow
def test_no_strategy_earns_credit_on_50_variants_of_every_format() -> None:
    assert min(len(vs) for vs in pool(50).values()) >= 50
    found = list(cheats(50, sorted(STRATEGIES)))
    assert not found, found[:5]


def test_the_honest_exception_is_earned() -> None:
    """Declining every part earns exactly the parts an omitted probe does not determine."""
    for v in pool(6)["omitted"]:
        g = physgen.grade(v, declined_everywhere(v, random.Random(0)))
        assert {p.name for p in g.parts if p.correct} == set(v.unanswerable), v.variant_id


if __name__ == "__main__":  # print the credit each strategy earns
    import sys
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    counts = {f: len(vs) for f, vs in pool(size).items()}
    print("variants per format:", counts, flush=True)
    total = 0
    for name in sorted(STRATEGIES):
        found = list(cheats(size, [name]))
        total += len(found)
        print(f"{name:32s} {len(found):4d} grades with unearned credit", *(f[:2] for f in found[:2]),
              flush=True)
    print("total", total)

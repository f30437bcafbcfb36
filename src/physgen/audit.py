"""The numbers behind every item-validity check, per template (``physgen validate --report``).

For each template: how many draws meet its constraints, how many of those each
validity check (:mod:`physgen.validity`) rejects, which inputs are exact by
statement, how many named mistakes it has and whether its multiple-choice options
are plausible, what the ``omitted`` and ``noop`` probes can do with it, and the
solution graph's measures its difficulty level is computed from (:mod:`physgen.graph`).

>>> import physgen
>>> row = audit(physgen.load_catalog()["mechanics.projectile_range"], draws=500)
>>> row.template_id, row.errors
('mechanics.projectile_range', [])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .ranges import instance_si, option_interval
from .sampling import stream_key
from .template import Template
from .validity import MAX_REJECT_RATE

#: Instances whose multiple-choice options are checked per template.
OPTION_INSTANCES = 2


@dataclass
class AuditRow:
    """One template's figures; ``errors`` lists what fails a guarantee of ``docs/validity.md``."""

    template_id: str
    draws: int
    accepted_by_constraints: float  # share of draws meeting the constraints
    rejected: dict[str, float]  # check -> share of constraint-meeting draws it rejects
    rejected_total: float
    exact_inputs: list[str]
    mistakes: int
    implausible_options: int
    options_checked: int
    omissible: str  # "2/3": inputs `omitted` may remove / inputs
    noop_sentences: int
    difficulty: int
    measures: str  # the solution graph's: "derived/depth/laws/decisions", e.g. "8/5/3/1"
    errors: list[str] = field(default_factory=list)
    implied: list[str] = field(default_factory=list)  # "x 0.12–1.98 m": each implied quantity's span


def audit(t: Template, draws: int = 10_000, seed: int = 0) -> AuditRow:
    """Measure every validity check of ``t`` over ``draws`` fresh candidate draws."""
    from .formats.noop_bank import usable
    from .formats.probes import omissible

    key = stream_key(seed, f"audit:{t.id}")
    index = np.arange(draws, dtype=np.uint64)
    meets, si, answers, masks = t.examine(t.draw_candidates(key, index, 0))
    kept = max(int(meets.sum()), 1)
    rejected = {k: float((~m & meets).sum()) / kept for k, m in masks.items()}
    passed = np.logical_and.reduce([meets, *masks.values()])
    total = 1.0 - float(passed.sum()) / kept
    errors = []
    if total > MAX_REJECT_RATE:
        errors.append(f"reject rate {total:.0%} > {MAX_REJECT_RATE:.0%}")
    bad, checked = _options(t, seed) if t.question_type == "numerical" else (0, 0)
    if bad:
        errors.append(f"{bad} of {checked} multiple-choice options implausible")
    n_mistakes = len(t.mistake_answers)
    names = omissible(t)
    if t.question_type == "numerical":
        if n_mistakes < 2 and t.spec.solver is None:  # a solver's answers have no expression to vary
            errors.append(f"{n_mistakes} named mistake(s); at least 2 are needed")
        if not names:
            errors.append("no omit spans: `omitted` cannot probe it")
    g = t.graph
    measures = f"{g.derived}/{g.depth}/{g.laws}/{len(g.decisions)}" if g is not None else "-"
    return AuditRow(
        t.id, draws, float(meets.mean()), rejected, total,
        [n for n, i in t.spec.inputs.items() if i.exact], n_mistakes, bad, checked,
        f"{len(names)}/{len(t.spec.inputs)}", len(usable(t)), t.difficulty, measures, errors,
        _implied(t, si, answers, passed),
    )


def _implied(t: Template, si: dict[str, np.ndarray], answers: dict[str, np.ndarray],
             passed: np.ndarray) -> list[str]:
    """Each implied quantity's span over the draws every check keeps, in its unit: 'x 0.12–1.98 m'."""
    from .units import format_unit, to_si

    if not t.spec.implied or t.check_values is None or not passed.any():
        return []
    with np.errstate(all="ignore"):
        values = t.check_values(*t.arguments(si), *(answers[n] for n in t.spec.answers))
    out = []
    for name, item in t.spec.implied.items():
        k = next(i for i, (label, _, _) in enumerate(t.check_bounds) if label == f"implied_{name}")
        every = np.broadcast_to(np.asarray(values[k], dtype=float), passed.shape)
        v = to_si(item.unit).from_si(every[passed])
        out.append(f"{name} {v.min():.3g}–{v.max():.3g} {format_unit(item.unit)}".rstrip())
    return out


def _options(t: Template, seed: int) -> tuple[int, int]:
    """(implausible, checked) multiple-choice options over a few instances, as printed: each must
    meet the rule options are chosen by (:func:`physgen.distractors.plausible`: the answer's sign,
    the limits on the answer, within a factor 100 of the key)."""
    from .distractors import plausible
    from .formats import FormatContext, get_format
    from .instance import iter_instances

    fmt, ctx = get_format("mc_numerical"), FormatContext()
    bad = checked = 0
    for inst in iter_instances(t.sample(OPTION_INSTANCES, seed)):
        for v in fmt.build(inst, 0, ctx):
            name = next(iter(v.answers))
            unit = v.answers[name].unit
            key = _value(v.options.get(v.answer_key or "", ""), unit)  # as shown, like the options
            interval = option_interval(t, name, instance_si(t, inst.inputs))
            for letter, text in v.options.items():
                if letter == v.answer_key:
                    continue
                checked += 1
                value = _value(text, unit)
                if value is None or key is None or not plausible(value, key, interval):
                    bad += 1
    return bad, checked


def _value(text: str, unit: str) -> float | None:
    """An option's number, in the answer's unit (None if it cannot be read)."""
    from .reading.quantity import read_value

    reading = read_value(text, unit)
    return reading.value if reading.status == "ok" else None

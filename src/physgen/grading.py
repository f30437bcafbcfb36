"""Grade model replies: ``grade(variant, reply)`` and ``grade_answer(reply, expected)``.

``grade`` looks the variant's format up in the registry and uses that format's
grader, so a user-registered format is graded with no change here. The policy
(markers, hedges, corrections, parts, units, tolerance) is ``docs/grading.md``.
No reply ever raises or hangs: a malformed one is graded wrong, with a reason.

>>> g = grade_answer("... so the field is **Final Answer:** 5.8 × 10^5 N/C", "5.84e5 N/C")
>>> g.correct, g.parts[0].reason
(True, 'correct')
>>> grade_answer("E = 584 kN/C", "5.84e5 N/C").correct
True
>>> grade_answer("E = 584 kN", "5.84e5 N/C").parts[0].reason
'wrong_unit_dimension'
>>> grade_answer("I think (C) 4.2 m", "C", options={"A": "1.0 m", "B": "2.0 m", "C": "4.2 m"}).correct
True
>>> grade_answer("either 5 m or 6 m", "5 m").parts[0].reason
'ambiguous'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import InputError, SourceTypeError
from .formats import GradeSettings, get_format
from .formats.choice import grade_choice
from .formats.code import extract_code
from .formats.quantities import grade_quantities
from .labels import OPTION_LETTERS
from .reading.compare import RTOL
from .reading.numbers import normalise, runs
from .reading.steps import grade_steps
from .reading.units import read_unit
from .reading.verdict import Grade, PartGrade, Reason, Source, StepGrade, StepVerdict
from .variant import Answer, Metadata, Variant

__all__ = ["Grade", "PartGrade", "Reason", "Source", "StepGrade", "StepVerdict", "extract_code", "grade",
           "grade_answer"]


def _text(reply: Any) -> str:
    if isinstance(reply, str):
        return reply
    return "" if reply is None else str(reply)


def _safely(grader: Any, variant: Variant, reply: str, settings: GradeSettings) -> Grade:
    """The grader's verdict; when the grader itself raises, every part is wrong with reason
    ``grader_error`` (a bug in the grader, never blamed on the reply as ``unparseable``)."""
    try:
        return grader(variant, reply, settings)  # type: ignore[no-any-return]
    except RecursionError as exc:  # a reply must never crash grading
        detail = type(exc).__name__
    except (ValueError, TypeError, ArithmeticError, IndexError, KeyError, MemoryError) as exc:
        detail = f"{type(exc).__name__}: {str(exc)[:100]}"
    detail = f"the {variant.format} grader raised {detail}; fix the grader, the reply is not at fault"
    names = list(variant.answers) or ["answer"]
    keys = {n: a.text for n, a in variant.answers.items()}
    parts = [PartGrade(n, False, "grader_error", keys.get(n, ""), detail=detail) for n in names]
    return Grade.of(parts, "", "none")


def grade(variant: Variant, reply: str, *, rtol: float = RTOL, timeout: float = 10.0,
          steps: bool = False) -> Grade:
    """Grade a reply to a generated variant with its format's grader: every asked quantity,
    the option letter of a multiple-choice variant, the declined parts of an
    omitted-data probe, or a ``code`` answer run in the sandbox (``timeout`` seconds).

    ``steps=True`` also grades the reasoning (:mod:`physgen.reading.steps`): each of the
    variant's intermediates, found in order before the final answer, in ``Grade.steps``.

    >>> import physgen
    >>> v = next(physgen.generate(["mechanics.sphere_rolls_off_table"], n=1))
    >>> reply = "t = √(2H/g) = 0.486 s, so x = 0.871 m. Final answer: (a) 1.79 m/s (b) 0.871 m"
    >>> g = grade(v, reply, steps=True)
    >>> g.correct, g.steps.score, g.steps.steps[0].reason
    (True, 1.0, 'correct')
    """
    if not isinstance(variant, Variant):
        raise SourceTypeError(f"grade() takes a physgen.Variant, not {type(variant).__name__}; "
                        "rebuild one from a dict with physgen.Variant.from_dict(...)")
    fmt = get_format(variant.format)
    text = _text(reply)
    result = _safely(fmt.grade, variant, text, GradeSettings(rtol, timeout))
    if steps:
        result = dataclasses.replace(result, steps=_steps_safely(variant, text, rtol))
    return result


def _steps_safely(variant: Variant, reply: str, rtol: float) -> StepGrade:
    try:
        return grade_steps(variant, reply, rtol)
    except (RecursionError, ValueError, TypeError, ArithmeticError, IndexError, KeyError, MemoryError):
        return StepGrade.of([StepVerdict(n, i.step, False, "missing", i.text)
                             for n, i in variant.intermediates.items()])


def _expected_answer(name: str, text: str) -> Answer:
    found = runs(normalise(text))
    if len(found) != 1:
        raise InputError(f"expected answer {name}={text!r} is not one quantity like '5.84e5 N/C'")
    rest = normalise(text)[found[0].end:].strip()
    unit = read_unit(rest) if rest else ""
    if unit is None:
        raise InputError(f"expected answer {name}={text!r} has a unit Pint does not know; "
                         "write it as Pint does, e.g. 'm/s^2' or 'kohm'")
    return Answer(found[0].value, unit, text, 3)


def grade_answer(
    reply: str,
    expected: str | Mapping[str, str],
    *,
    options: Mapping[str, str] | Sequence[str] | None = None,
    rtol: float = RTOL,
    ignore_units: bool = False,
) -> Grade:
    """Grade ``reply`` against ``expected``: a quantity string, a dict of them
    (multi-part, in asked order), or an option letter when ``options`` are given.

    ``ignore_units`` reads every number as a bare number, for benchmarks whose
    questions fix the unit (TheoremQA); by default a unit in the reply is converted.
    """
    settings = GradeSettings(rtol)
    if options is not None:
        if not isinstance(expected, str) or len(expected.strip()) != 1:
            raise InputError("with options, expected is one option letter such as 'C'")
        opts = (dict(options) if isinstance(options, Mapping)
                else dict(zip(OPTION_LETTERS, options, strict=False)))
        letter = expected.strip().upper()
        if letter not in opts:
            raise InputError(f"expected letter {letter!r} is not one of the options {sorted(opts)}")
        variant = _ad_hoc({"answer": Answer(math.nan, _option_unit(opts[letter]), letter, 1)}, "mc_numerical",
                          opts, letter)
        return _safely(grade_choice, variant, _text(reply), settings)
    items = {"answer": expected} if isinstance(expected, str) else dict(expected)
    if not items:
        raise InputError("expected needs at least one answer, e.g. '5.84e5 N/C'")
    answers = {k: _expected_answer(k, v) for k, v in items.items()}
    if ignore_units:
        settings = GradeSettings(rtol, ignore_units=True)
    return _safely(grade_quantities, _ad_hoc(answers, "free_form"), _text(reply), settings)


def _option_unit(text: str) -> str:
    """The unit of a numerical option (``"4.2 m"``: ``"m"``), so values are read in its kind; ``""``
    for an option that is no quantity."""
    try:
        return _expected_answer("option", text).unit
    except InputError:
        return ""


def _ad_hoc(answers: dict[str, Answer], fmt: str, options: Mapping[str, str] | None = None,
            key: str | None = None) -> Variant:
    return Variant(variant_id="ad-hoc", template_id="ad-hoc", instance_id="", paraphrase=0, format=fmt,
                   prompt="", inputs={}, answers=answers, steps=(),
                   metadata=Metadata("", (), 1, "numerical", 1, 0, 0),
                   options=dict(options or {}), answer_key=key)

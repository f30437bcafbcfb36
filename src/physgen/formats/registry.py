"""The format registry: a format is a plugin that brings its builder, its grader and
its reference answer.

``physgen.generate(..., formats=[...])`` builds with a format's builder and
``physgen.grade`` grades with its grader, so a format registered here is
generated, graded and counted with no change elsewhere.

>>> from physgen.formats import FORMATS
>>> sorted(FORMATS)
['code', 'free_form', 'mc_numerical', 'mc_symbolic', 'noop', 'omitted', 'units']
>>> get_format("mc_numeric")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
physgen.errors.FormatError: unknown format 'mc_numeric'; available: ... (did you mean 'mc_numerical'?)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import get_args

from ..algebraic import vary
from ..errors import ArgumentError, FormatError, listing, suggest, unknown
from ..instance import Instance
from ..reading.compare import RTOL
from ..reading.verdict import Grade
from ..render import STYLES, Notation
from ..template import Template
from ..units import Style
from ..variant import Variant


@dataclass(frozen=True)
class FormatContext:
    """Settings every format builder receives, checked when made (so :func:`physgen.generate`
    and :func:`physgen.dataset` reject the same values with the same :class:`ArgumentError`).

    >>> FormatContext(n_options=9)
    Traceback (most recent call last):
    ...
    physgen.errors.ArgumentError: n_options must be a whole number from 2 to 8, got 9
    """

    style: Style = "unicode"
    notation: Notation = "auto"
    n_options: int = 4

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise unknown("style", self.style, STYLES)
        if self.notation not in get_args(Notation):
            raise unknown("notation", self.notation, get_args(Notation))
        if not isinstance(self.n_options, int) or isinstance(self.n_options, bool) \
                or not 2 <= self.n_options <= 8:
            raise ArgumentError(f"n_options must be a whole number from 2 to 8, got {self.n_options!r}")


@dataclass(frozen=True)
class GradeSettings:
    """Settings every format grader receives: relative tolerance, the code time limit, and
    whether to read every number as bare (for benchmarks that fix the unit in the question)."""

    rtol: float = RTOL
    timeout: float = 10.0
    ignore_units: bool = False


Builder = Callable[[Instance, int, FormatContext], Iterable[Variant]]
Grader = Callable[[Variant, str, GradeSettings], Grade]
Reference = Callable[[Variant], str]


def _one(template: Template) -> int:
    return 1


def _always(template: Template) -> bool:
    return True


@dataclass(frozen=True)
class Format:
    """A registered format: how to build its variants, grade a reply, and write a reply
    that grades correct; which templates it applies to; how many variants it makes
    per instance and paraphrase."""

    name: str
    build: Builder
    grade: Grader
    reference: Reference
    applies: Callable[[Template], bool] = _always
    per_instance: Callable[[Template], int] = _one

    def count(self, template: Template) -> int:
        """Variants per instance and paraphrase for ``template`` (0 if it does not apply)."""
        return self.per_instance(template) if self.applies(template) else 0


FORMATS: dict[str, Format] = {}


def register_format(
    name: str,
    applies: Callable[[Template], bool] = _always,
    *,
    grader: Grader | None = None,
    reference: Reference | None = None,
    per_instance: Callable[[Template], int] = _one,
) -> Callable[[Builder], Builder]:
    """Register ``builder(instance, paraphrase, context) -> variants`` under ``name``.

    ``grader(variant, reply, settings) -> Grade`` and ``reference(variant) -> str``
    default to free-text quantity grading and its documented answer layout, which
    fit any format whose variants carry ``answers``.

    >>> import dataclasses
    >>> @register_format("shouted")
    ... def shouted(inst, paraphrase, ctx):
    ...     for v in get_format("free_form").build(inst, paraphrase, ctx):
    ...         yield dataclasses.replace(v, format="shouted", prompt=v.prompt.upper())
    >>> import physgen
    >>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], formats=["shouted"]))
    >>> physgen.grade(v, get_format("shouted").reference(v)).correct
    True
    >>> del FORMATS["shouted"]
    """
    from .quantities import grade_quantities, reference_quantities

    def add(builder: Builder) -> Builder:
        if name in FORMATS:
            raise FormatError(f"format {name!r} is already registered; pick another name")
        FORMATS[name] = Format(name, _varied(builder), grader or grade_quantities,
                               reference or reference_quantities, applies, per_instance)
        return builder

    return add


def _varied(builder: Builder) -> Builder:
    """``builder``, with each variant made the problem its instance shows (an algebraic template's
    names and unknown: :func:`physgen.algebraic.vary`); the same builder for other instances."""
    def build(inst: Instance, paraphrase: int, ctx: FormatContext) -> Iterable[Variant]:
        made = builder(inst, paraphrase, ctx)
        return made if inst.problem is None else tuple(vary(inst, made, ctx.style))

    return build


def get_format(name: str) -> Format:
    """A registered format; a clear error for an unknown one."""
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}; available: {listing(sorted(FORMATS))}"
                          f"{suggest(name, FORMATS)}") from None

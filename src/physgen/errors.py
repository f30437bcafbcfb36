"""Exceptions that say where the problem is and how to fix it.

Every error raised for bad input names the *file* (or the call), the *field*
and a *fix*, in the spirit of hypothesis' error messages:

>>> err = TemplateError("templates/x.yaml", "answers.R.unit", "unknown unit 'ohms'",
...                     fix="use a Pint unit such as 'ohm'")
>>> print(err)
templates/x.yaml: answers.R.unit: unknown unit 'ohms'
    fix: use a Pint unit such as 'ohm'

Every error physgen raises on purpose is a :class:`PhysgenError` and also the
built-in exception it refines, so ``except ValueError`` (or ``KeyError``,
``TypeError``) keeps working:

>>> err = unknown("domain", "optic", ["mechanics", "optics"])
>>> print(err)
unknown domain 'optic'; valid: mechanics, optics (did you mean 'optics'?)
>>> isinstance(err, PhysgenError) and isinstance(err, ValueError)
True
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class PhysgenError(Exception):
    """Base class of every error physgen raises on purpose; each subclass is also the
    matching built-in exception (``ValueError``, ``KeyError``, ``TypeError`` …)."""


class ArgumentError(PhysgenError, ValueError):
    """A value passed to a physgen function or command is not one it accepts; the message
    names the value and the valid ones."""


class UnknownTemplateError(PhysgenError, KeyError):
    """No template has this id; the message suggests the closest ids."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


class SourceTypeError(PhysgenError, TypeError):
    """Something other than a catalog, a template, or template objects and ids was passed
    as the templates to generate from."""


class CapacityWarning(UserWarning):
    """More instances were asked of a template than it has different parameter sets, so
    some repeat (``generate(..., unique=True)`` drops the repeats)."""


class CacheWarning(UserWarning):
    """The compiled-template cache was not used, or an entry was rebuilt: a folder others can
    write to, a signing key that cannot be kept private, or a tampered, truncated or unreadable
    cache file. physgen compiles the templates instead; the message says what to change."""


class RowError(PhysgenError, ValueError):
    """A row of an input file (JSONL or Parquet) is malformed: the message names ``file:line``,
    what is wrong and how to fix it, on one line."""


class FairnessWarning(UserWarning):
    """Templates loaded with problems of wording or options that :mod:`physgen.fairness` finds
    (a cut that leaves a broken sentence, an undefined Q factor, …): ``physgen validate`` lists
    each one with its file, field and fix."""


def did_you_mean(value: object, choices: Iterable[object]) -> list[str]:
    """The choices close to ``value`` (by spelling, or starting with it), best first.

    >>> did_you_mean("optic", ["optics", "mechanics"])
    ['optics']
    """
    names = [str(c) for c in choices]
    text = str(value)
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.6)
    starts = [n for n in names if text and n.startswith(text) and n not in close]
    return [*close, *starts][:3]


def unknown(what: str, value: object, choices: Iterable[object], hint: str = "") -> ArgumentError:
    """An :class:`ArgumentError` for a value that is not one of ``choices``: it names the
    value, lists the valid ones (sorted; the first 30 of a longer list) and suggests the closest.

    >>> print(unknown("difficulty", 7, range(1, 6)))
    unknown difficulty 7; valid: 1, 2, 3, 4, 5
    """
    valid = sorted({str(c): c for c in choices}.values(),
                   key=lambda c: (not isinstance(c, int), c if isinstance(c, int) else 0, str(c)))
    close = did_you_mean(value, valid)
    suggestion = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    listed = ", ".join(str(c) for c in valid[:30]) if valid else "none"
    if len(valid) > 30:
        listed += f", … ({len(valid)} in all)"
    return ArgumentError(f"unknown {what} {value!r}; valid: {listed}{suggestion}{hint}")
@dataclass(frozen=True)
class Problem:
    """One thing wrong with a template file: where, what, and how to fix it."""

    source: str
    field: str
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.source}: {self.field}" if self.field else self.source
        text = f"{where}: {self.message}"
        if self.fix:
            text += f"\n    fix: {self.fix}"
        return text


class TemplateError(PhysgenError, ValueError):
    """A template file is invalid. Carries every problem found, not just the first."""

    def __init__(
        self,
        source: str = "",
        field: str = "",
        message: str = "",
        *,
        fix: str = "",
        problems: Sequence[Problem] = (),
    ) -> None:
        found = list(problems)
        if message:
            found.insert(0, Problem(source, field, message, fix))
        if not found:
            raise ValueError("TemplateError needs a message or at least one problem")
        self.problems: tuple[Problem, ...] = tuple(found)
        super().__init__("\n".join(str(p) for p in self.problems))


class CatalogError(TemplateError):
    """One or more template files in a catalog are invalid; nothing was loaded."""

    def __str__(self) -> str:
        files = sorted({p.source for p in self.problems})
        head = (
            f"{len(self.problems)} problem(s) in {len(files)} template file(s); "
            "the catalog was not loaded:"
        )
        return head + "\n" + "\n".join(str(p) for p in self.problems)


class InputError(PhysgenError, ValueError):
    """A value passed to :meth:`physgen.Template.solve` (or similar) is missing or wrong."""


class SamplingError(PhysgenError, RuntimeError):
    """Instances could not be drawn, e.g. because a template's constraints are too tight."""


class FormatError(PhysgenError, ValueError):
    """An unknown or conflicting question format."""

"""Exceptions that say where the problem is and how to fix it.

Every error raised for bad input names the *file* (or the call), the *field*
and a *fix*, in the spirit of hypothesis' error messages:

>>> err = TemplateError("templates/x.yaml", "answers.R.unit", "unknown unit 'ohms'",
...                     fix="use a Pint unit such as 'ohm'")
>>> print(err)
templates/x.yaml: answers.R.unit: unknown unit 'ohms'
    fix: use a Pint unit such as 'ohm'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class PhysgenError(Exception):
    """Base class of every error physgen raises on purpose."""


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


class TemplateError(PhysgenError):
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


class SamplingError(PhysgenError):
    """Instances could not be drawn, e.g. because a template's constraints are too tight."""


class FormatError(PhysgenError, ValueError):
    """An unknown or conflicting question format."""

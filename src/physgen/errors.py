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

One mistake, one error, whichever function meets it:

* an option's value (a domain, ``n_options``, ``test_size``, weights): :class:`ArgumentError`
  (a ``ValueError``); an unknown format name: :class:`FormatError` (a ``ValueError``);
* an unknown template id: :class:`UnknownTemplateError` (a ``KeyError``);
* data missing or malformed (inputs to ``solve``, an expected answer, records, rows):
  :class:`InputError` (a ``ValueError``), a variant record larger than a variant can be:
  :class:`RecordSizeError` (an ``InputError``); records without a column the function needs:
  :class:`MissingColumnError` (a ``KeyError``); a malformed row of an input file (JSONL or
  Parquet), named by ``file:line``: :class:`RowError` (a ``ValueError``);
* not a catalog, template or variant: :class:`SourceTypeError` (a ``TypeError``);
* an output path that cannot be written: :class:`OutputError` (an ``OSError``); an optional
  dependency not installed: :class:`MissingDependencyError` (an ``ImportError``);
* a bad template file: :class:`TemplateError` (a ``ValueError``);
* a cache folder or entry physgen will not trust: :class:`CacheWarning` (it compiles instead).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class PhysgenError(Exception):
    """Base class of every error physgen raises on purpose; each subclass is also the
    matching built-in exception (``ValueError``, ``KeyError``, ``TypeError`` …)."""


class ArgumentError(PhysgenError, ValueError):
    """An option passed to a physgen function or command is not one it accepts (a domain,
    format, ``n_options``, ``test_size``, weights …); the message names the value and the
    valid ones. The same option gets this error from every function that takes it."""


class UnknownTemplateError(PhysgenError, KeyError):
    """No template has this id; the message suggests the closest ids."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


class SourceTypeError(PhysgenError, TypeError):
    """Something of the wrong type was passed: not a catalog, a template, or template objects
    and ids as the templates to generate from; not a :class:`~physgen.Variant` to grade."""


class MissingColumnError(PhysgenError, KeyError):
    """Graded records lack a column the function needs; the message names the columns they have."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


class CapacityWarning(UserWarning):
    """More instances were asked of a template than it has different parameter sets, so
    some repeat (``generate(..., unique=True)`` drops the repeats)."""


class CacheWarning(UserWarning):
    """The compiled-template cache was not used, or an entry was rebuilt: a folder others can
    write to, a signing key that cannot be kept private, or a tampered, truncated or unreadable
    cache file. physgen compiles the templates instead; the message says what to change."""


class FairnessWarning(UserWarning):
    """Templates loaded with problems of wording or options that :mod:`physgen.fairness` finds
    (a cut that leaves a broken sentence, an undefined Q factor, …): ``physgen validate`` lists
    each one with its file, field and fix."""


class RowError(PhysgenError, ValueError):
    """A row of an input file (JSONL or Parquet) is malformed: the message names ``file:line``,
    what is wrong and how to fix it, on one line."""


def did_you_mean(value: object, choices: Iterable[object], n: int = 3) -> list[str]:
    """The choices starting with ``value`` (shortest first), then those close to it in spelling
    (best first): the one place physgen finds suggestions (``difflib``'s ratio; a hand-written
    distance would only add code).

    >>> did_you_mean("optic", ["optics", "mechanics"]), did_you_mean("electricity", ["relativity",
    ...     "electricity_and_magnetism"])
    (['optics'], ['electricity_and_magnetism', 'relativity'])
    """
    names = sorted({str(c) for c in choices})  # sorted: the same suggestions in every run
    text = str(value)
    starts = sorted((c for c in names if text and c.startswith(text) and c != text), key=len)
    close = [c for c in difflib.get_close_matches(text, names, n=n, cutoff=0.6) if c not in starts]
    return [*starts, *close][:n]


def suggest(value: object, choices: Iterable[object], n: int = 3) -> str:
    """`` (did you mean …?)`` naming the choices close to ``value``, or ``""`` when none is.

    >>> suggest("mc_numeric", ["mc_numerical", "free_form"]), suggest("xyz", ["optics"])
    (" (did you mean 'mc_numerical'?)", '')
    """
    close = did_you_mean(value, choices, n)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


#: How many valid values an error message lists before it cuts the list.
LISTED = 20


def listing(choices: Iterable[object]) -> str:
    """The valid values for a message: comma-separated, the first :data:`LISTED` of a longer list.

    >>> listing(range(3)), listing(range(100))[-20:]
    ('0, 1, 2', ', 19, … (100 in all)')
    """
    values = [str(c) for c in choices]
    text = ", ".join(values[:LISTED]) if values else "none"
    return text + (f", … ({len(values)} in all)" if len(values) > LISTED else "")


def unknown(what: str, value: object, choices: Iterable[object], hint: str = "") -> ArgumentError:
    """An :class:`ArgumentError` for a value that is not one of ``choices``: it names the
    value, lists the valid ones (sorted; the first 20 of a longer list) and suggests the closest.

    >>> print(unknown("difficulty", 7, range(1, 6)))
    unknown difficulty 7; valid: 1, 2, 3, 4, 5
    """
    valid = sorted({str(c): c for c in choices}.values(),
                   key=lambda c: (not isinstance(c, int), c if isinstance(c, int) else 0, str(c)))
    return ArgumentError(f"unknown {what} {value!r}; valid: {listing(valid)}{suggest(value, valid)}{hint}")


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
    """Data passed in is missing or malformed: the inputs of :meth:`physgen.Template.solve`,
    an expected answer, graded records, rows or a variant's JSON (options are
    :class:`ArgumentError`)."""


class RecordSizeError(InputError):
    """A variant record holds more than a variant can (:data:`physgen.variant.MAX_ENTRIES`,
    ``MAX_NAME``, ``MAX_STEP``): refused before it is read further; rewards score it 0."""


class OutputError(PhysgenError, OSError):
    """An output file cannot be written (its folder is missing or read-only); the message names
    the path as given."""


class MissingDependencyError(PhysgenError, ImportError):
    """An optional dependency is not installed; the message gives the ``pip install`` command."""


class SamplingError(PhysgenError, RuntimeError):
    """Instances could not be drawn, e.g. because a template's constraints are too tight."""


class FormatError(PhysgenError, ValueError):
    """An unknown or conflicting question format."""

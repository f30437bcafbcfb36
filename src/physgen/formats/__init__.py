"""Question formats: how an instance and a paraphrase become prompts, and how a reply
to each is graded. A format is a plugin (:func:`register_format`) bringing its
builder, its grader and a reference answer.

* ``free_form``: every asked quantity, answered in free text.
* ``mc_numerical`` / ``mc_symbolic``: one multiple-choice question per asked
  quantity, options as numbers with units / as expressions in the input symbols.
* ``units``: the same instance with inputs shown in other, equivalent units.
* ``noop``: an irrelevant sentence with a number is added (GSM-NoOp).
* ``omitted``: a given is removed; parts that needed it must be declined.
* ``code``: the model returns ``solve(<inputs in SI>)``, run in a sandbox.

>>> sorted(FORMATS)
['code', 'free_form', 'mc_numerical', 'mc_symbolic', 'noop', 'omitted', 'units']
>>> import physgen
>>> v = next(physgen.generate(["optics.thin_lens"], n=1, formats=["mc_numerical"]))
>>> physgen.grade(v, get_format(v.format).reference(v)).correct
True
"""

from __future__ import annotations

from . import choice, code, free_form, probes
from .registry import FORMATS, Format, FormatContext, GradeSettings, get_format, register_format

__all__ = ["FORMATS", "Format", "FormatContext", "GradeSettings", "choice", "code", "free_form",
           "get_format", "probes", "register_format"]

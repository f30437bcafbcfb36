"""Rows read from files (JSONL or Parquet), numbered and checked field by field before
``physgen grade``, ``metrics``, ``report`` or ``split`` use them.

A row that cannot be used stops the command with one
:class:`~physgen.errors.RowError` naming ``file:line``, what is wrong and the fix,
before anything is written. The rules (``docs/security.md``):

* a **response row** (``physgen grade``) has ``response``: a string, or null for a
  model that gave no reply (graded wrong, ``missing``); ``attempt`` a whole number
  ≥ 0 and ``model`` a string or null, when present; its variant fields are
  checked by :meth:`physgen.Variant.from_dict`. A reply is never rejected for what
  it says, only a row for the type of a field;
* a **graded record** (``physgen metrics`` and ``report``) has ``correct`` (true or
  false); ``score`` and ``steps_score`` are finite numbers in [0, 1]; ids,
  ``format``, ``domain``, ``prompt`` and ``response`` are strings; ``attempt``,
  ``paraphrase`` and ``difficulty`` whole numbers ≥ 0; ``parts`` maps names to
  reasons and ``grade`` is an object whose ``parts`` is a list of objects, when present;
* a row to **split** has the id of its group (``template_id``, or ``instance_id``)
  as a string, and ``domain`` (or ``metadata.domain``) a string when present.

>>> check_graded({"correct": True, "score": 1.0, "template_id": "a"}, "g.jsonl:1")
>>> check_graded({"correct": True, "score": float("nan")}, "g.jsonl:2")
Traceback (most recent call last):
...
physgen.errors.RowError: g.jsonl:2: 'score' is nan, not a number from 0 to 1; write the fraction of \
parts right
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RowError
from .jsonl import kind, read_numbered

if TYPE_CHECKING:
    from .variant import Variant

_TEXT = ("variant_id", "template_id", "instance_id", "format", "domain", "question_type", "prompt",
         "response")
_OPTIONAL_TEXT = ("model", "first_error")
_COUNTS = ("attempt", "paraphrase", "difficulty", "first_error_step")
_FRACTIONS = ("score", "steps_score")
_FLAGS = ("steps_correct",)


def read(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line or row number, row)`` of a ``.jsonl`` or ``.parquet`` file, parsed with bounds
    (:func:`physgen.jsonl.read_numbered`).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "graded.jsonl"
    >>> _ = path.write_text('{"correct": true}\\n')
    >>> [check_graded(row, f"{path.name}:{n}") for n, row in read(path)]
    [None]
    """
    if Path(path).suffix.lower() == ".parquet":
        from .export import read_parquet

        return enumerate(read_parquet(path), 1)
    return read_numbered(path)


def _fail(where: str, name: str, value: Any, wanted: str, fix: str) -> RowError:
    shown = repr(value) if isinstance(value, float) else kind(value)
    return RowError(f"{where}: {name!r} is {shown}, not {wanted}; {fix}")


def _count(row: Mapping[str, Any], name: str, where: str) -> None:
    value = row[name]
    if type(value) is not int or value < 0:
        raise _fail(where, name, value, "a whole number ≥ 0", f"write {name} as a JSON integer")


def check_response(row: Mapping[str, Any], where: str) -> None:
    """Check the fields ``physgen grade`` reads besides the variant's (see the module docstring).

    >>> check_response({"response": 5}, "r.jsonl:3")
    Traceback (most recent call last):
    ...
    physgen.errors.RowError: r.jsonl:3: 'response' is a number, not a string; write the model's reply \
as a JSON string (null for no reply)
    """
    if "response" not in row:
        raise RowError(f"{where}: no 'response' field; add the model's reply as \"response\"")
    if row["response"] is not None and not isinstance(row["response"], str):
        raise _fail(where, "response", row["response"], "a string",
                    "write the model's reply as a JSON string (null for no reply)")
    if "attempt" in row:
        _count(row, "attempt", where)
    if row.get("model") is not None and not isinstance(row["model"], str):
        raise _fail(where, "model", row["model"], "a string", "write the model's name as a JSON string")


def response_variant(row: Mapping[str, Any], where: str) -> Variant:
    """The variant a response row answers, after :func:`check_response`; :class:`RowError`
    naming ``where`` when the row is no physgen variant or names a format not registered.

    >>> response_variant({"response": "5 m"}, "r.jsonl:1")
    Traceback (most recent call last):
    ...
    physgen.errors.RowError: r.jsonl:1: not a physgen variant (variant_id; Field required)
    """
    from .errors import FormatError, RecordSizeError
    from .formats import get_format
    from .variant import Variant

    check_response(row, where)
    try:
        variant = Variant.from_dict({k: v for k, v in row.items() if k in Variant.__dataclass_fields__})
    except RecordSizeError as exc:
        raise RowError(f"{where}: {exc}") from None
    except ValueError as exc:
        lines = str(exc).splitlines()
        raise RowError(f"{where}: not a physgen variant "
                       f"({'; '.join(x.strip().split(' [type=')[0] for x in lines[1:3])})") from None
    try:
        get_format(variant.format)
    except FormatError as exc:
        raise RowError(f"{where}: {exc}") from None
    return variant


def check_graded(row: Mapping[str, Any], where: str) -> None:
    """Check a graded record's fields (see the module docstring); :class:`RowError` if one is wrong.

    >>> check_graded({"correct": "yes"}, "g.jsonl:7")
    Traceback (most recent call last):
    ...
    physgen.errors.RowError: g.jsonl:7: 'correct' is a JSON string, not true or false; write whether \
every part was right
    """
    if "correct" not in row:
        raise RowError(f"{where}: no 'correct' field; graded records are the rows `physgen grade` writes")
    correct = row["correct"]
    if not (isinstance(correct, bool) or (type(correct) is int and correct in (0, 1))):
        raise _fail(where, "correct", correct, "true or false", "write whether every part was right")
    for name in _FRACTIONS:
        if name in row and row[name] is not None:
            value = row[name]
            number = type(value) in (int, float) and math.isfinite(value)
            if not number or not 0 <= value <= 1:
                raise _fail(where, name, value, "a number from 0 to 1", "write the fraction of parts right")
    for name in _FLAGS:
        if name in row and row[name] is not None and not isinstance(row[name], bool):
            raise _fail(where, name, row[name], "true or false", f"write {name} as true or false")
    for name in _TEXT:
        if name in row and not isinstance(row[name], str) and not (name == "response" and row[name] is None):
            raise _fail(where, name, row[name], "a string", f"write {name} as a JSON string")
    for name in _OPTIONAL_TEXT:
        if row.get(name) is not None and not isinstance(row[name], str):
            raise _fail(where, name, row[name], "a string", f"write {name} as a JSON string or null")
    for name in _COUNTS:
        if name in row:
            _count(row, name, where)
    parts = row.get("parts", {})
    if not isinstance(parts, dict) or not all(isinstance(v, str) for v in parts.values()):
        raise _fail(where, "parts", parts, "an object of part names to reasons",
                    "keep the parts that `physgen grade` writes")
    grade = row.get("grade", {})
    if not isinstance(grade, dict) or not isinstance(grade.get("parts", []), list) or \
            not all(isinstance(p, dict) for p in grade.get("parts", [])):
        raise _fail(where, "grade", grade, "an object whose parts are objects",
                    "keep the grade that `physgen grade` writes")


def check_split(row: Mapping[str, Any], where: str, group: str) -> None:
    """Check what splitting reads: the ``group`` id (``template_id`` or ``instance_id``) and the domain.

    >>> check_split({"template_id": "optics.lens", "metadata": {"domain": "optics"}}, "v:1", "template_id")
    >>> check_split({"template_id": "optics.lens"}, "v.jsonl:2", "instance_id")
    Traceback (most recent call last):
    ...
    physgen.errors.RowError: v.jsonl:2: no 'instance_id' field; split variants or graded records written \
by physgen
    """
    if group not in row:
        raise RowError(f"{where}: no {group!r} field; split variants or graded records written by physgen")
    if not isinstance(row[group], str):
        raise _fail(where, group, row[group], "a string", f"write {group} as a JSON string")
    if "domain" in row:
        domain = row["domain"]
    else:
        metadata = row.get("metadata", {})
        if not isinstance(metadata, dict):
            raise _fail(where, "metadata", metadata, "a JSON object", "keep the metadata physgen writes")
        domain = metadata.get("domain")
    if domain is not None and not isinstance(domain, str):
        raise _fail(where, "domain", domain, "a string", "write the domain as a JSON string")

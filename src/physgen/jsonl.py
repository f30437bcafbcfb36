"""JSON lines: written byte for byte as ``json.dumps(obj, ensure_ascii=False, separators=(",", ":"))``
writes them, made by orjson when it is installed (the ``fast`` extra) and the standard library
otherwise; read back with bounds (:func:`read_numbered`), since rows come from anywhere.

orjson writes the same bytes as the standard library for strings, whole numbers
within 64 bits, and floats that are 0 or at least 1e-4 in size (finite). Other
values (``1e-07`` is ``1e-7`` in orjson, NaN is ``null``, ints beyond 64 bits
raise) make a line fall back to the standard library, so the output never
depends on which encoder made it (tested over many variants and edge values).

>>> line({"a": 1e-07, "b": [1.5, -0.0, 10**30], "c": "é\\n"})
b'{"a":1e-07,"b":[1.5,-0.0,1000000000000000000000000000000],"c":"\\xc3\\xa9\\\\n"}\\n'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .errors import RowError

if TYPE_CHECKING:
    from .variant import Variant

orjson: Any
try:
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None

#: Whether the fast encoder is in use.
FAST = orjson is not None
_MIN, _MAX = 1e-4, sys.float_info.max
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _stdlib(obj: Any) -> bytes:
    return (_ENCODE(obj) + "\n").encode()


def _plain(obj: Any) -> bool:
    """Whether orjson writes ``obj`` exactly as the standard library does."""
    kind = type(obj)
    if kind is str or kind is bool or obj is None:
        return True
    if kind is float:
        return bool(obj == 0.0 or _MIN <= abs(obj) <= _MAX)
    if kind is int:
        return bool(-(2**63) <= obj < 2**64)
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in obj.items())
    if kind is list or kind is tuple:
        return all(_plain(v) for v in obj)
    return False


def line(obj: Any) -> bytes:
    """One JSONL line (with its newline) for any JSON value."""
    if orjson is not None and _plain(obj):
        return cast(bytes, orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE))
    return _stdlib(obj)


def _plain_floats(v: Variant) -> bool:
    for q in v.inputs.values():
        x = q[0]
        if not (x == 0.0 or _MIN <= abs(x) <= _MAX) or type(x) is not float:
            return False
    for x in [*(a[0] for a in v.answers.values()), *(i[0] for i in v.intermediates.values())]:
        if not (x == 0.0 or _MIN <= abs(x) <= _MAX) or type(x) is not float:
            return False
    return all(_plain(c.inputs) and _plain(c.expected) for c in v.code_tests)


def variant_line(v: Variant, d: dict[str, Any] | None = None) -> bytes:
    """``Variant.to_json()`` plus a newline, as UTF-8: only its numbers need checking, since a
    Variant's other fields are strings and small whole numbers by construction. ``d``:
    ``v.to_dict()``, when the caller has made it already."""
    if d is None:
        d = v.to_dict()
    if orjson is not None and _plain_floats(v):
        try:
            return cast(bytes, orjson.dumps(d, option=orjson.OPT_APPEND_NEWLINE))
        except TypeError:  # e.g. a seed beyond 64 bits, or a string that is not valid UTF-8
            pass
    return _stdlib(d)


# -- reading ----------------------------------------------------------------------------------------

#: Longest line read, in bytes (a graded row with a 100,000-character reply is well under 1 MB).
MAX_LINE = 16 << 20
#: Deepest nesting of arrays and objects in a row (physgen's own rows nest 5 deep).
MAX_DEPTH = 32
_KINDS = {list: "a JSON array", str: "a JSON string", bool: "true or false", int: "a number",
          float: "a number", type(None): "null"}


def kind(value: Any) -> str:
    """What a JSON value is, in words, for error messages.

    >>> kind([1]), kind(None), kind({"a": 1})
    ('a JSON array', 'null', 'a JSON object')
    """
    return "a JSON object" if isinstance(value, dict) else _KINDS.get(type(value), type(value).__name__)


def _depth_over(value: Any, bound: int) -> bool:
    """Whether arrays and objects nest more than ``bound`` deep in ``value`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > bound:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def parse_row(text: bytes, where: str) -> dict[str, Any]:
    """One JSONL line as a dict; :class:`~physgen.errors.RowError` naming ``where`` (``file:line``)
    and the fix for anything else: invalid UTF-8 or JSON, nesting deeper than :data:`MAX_DEPTH`,
    numbers too long to read, or a value that is not a JSON object.

    >>> parse_row(b'{"a": [1, 2]}', "x.jsonl:1")
    {'a': [1, 2]}
    >>> parse_row(b'[1, 2]', "x.jsonl:2")
    Traceback (most recent call last):
    ...
    physgen.errors.RowError: x.jsonl:2: the row is a JSON array, not a JSON object; write one JSON \
object per line
    """
    try:
        value = json.loads(text.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as exc:
        raise RowError(f"{where}: not valid UTF-8 (byte {exc.start + 1}); write the file as "
                       "UTF-8") from None
    except json.JSONDecodeError as exc:
        raise RowError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); write one JSON "
                       "object per line") from None
    except RecursionError:
        raise RowError(f"{where}: arrays and objects nest too deep to read; physgen rows nest at most "
                       f"{MAX_DEPTH} deep") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RowError(f"{where}: a value cannot be read ({str(exc).splitlines()[0][:100]}); write "
                       "numbers as ordinary JSON numbers") from None
    if not isinstance(value, dict):
        raise RowError(f"{where}: the row is {kind(value)}, not a JSON object; write one JSON object "
                       "per line")
    if (text.count(b"[") + text.count(b"{") > MAX_DEPTH) and _depth_over(value, MAX_DEPTH):
        raise RowError(f"{where}: arrays and objects nest more than {MAX_DEPTH} deep; physgen rows "
                       "nest a few levels deep")
    return value


def read_numbered(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, row)`` for every non-empty line of a JSONL file, each checked by
    :func:`parse_row`; a line longer than :data:`MAX_LINE` bytes is a
    :class:`~physgen.errors.RowError` too (and is never read whole into memory).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
    >>> _ = path.write_text('{"a": 1}\\n\\n{"a": 2}\\n')
    >>> list(read_numbered(path))
    [(1, {'a': 1}), (3, {'a': 2})]
    """
    with open(path, "rb") as fh:
        number = 0
        while True:
            text = fh.readline(MAX_LINE + 1)
            if not text:
                return
            number += 1
            if len(text) > MAX_LINE:
                raise RowError(f"{path}:{number}: the line is longer than {MAX_LINE:,} bytes; physgen "
                               "reads rows up to that size (is the file JSON lines?)")
            if text.strip():
                yield number, parse_row(text, f"{path}:{number}")

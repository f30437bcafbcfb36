"""JSON lines, byte for byte what ``json.dumps(obj, ensure_ascii=False, separators=(",", ":"))``
writes, made by orjson when it is installed (the ``fast`` extra) and the standard library otherwise.

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
from typing import TYPE_CHECKING, Any, cast

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
    for a in (*v.answers.values(), *v.intermediates.values()):
        x = a[0]
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

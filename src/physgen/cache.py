"""The cache of compiled templates: safe to delete, never stale.

Compiling a template (SymPy, Pint, Jinja, the load-time checks) takes tens of
milliseconds; reading it back from this cache takes well under one. Each
catalog folder (or single template file) has one cache file, holding one entry
per template file, keyed by a SHA-256 of:

* the file's path and bytes;
* physgen's version and the bytes of its own source files (so any code change,
  released or not, makes new entries);
* the Python version and the installed SymPy, Pint, NumPy, Jinja2 and pydantic.

An entry holds the template's spec and the pickled compiled template; the
template is unpickled only when it is used. A cache file is written atomically
(a temporary file renamed into place) and holds only the entries of the last
load, so stale ones do not pile up; one that cannot be read, or was written for
another folder, is ignored and rebuilt. Only templates that passed every check
are stored, so a cached catalog needs no checks.

Where: ``$PHYSGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/physgen``, else
``~/.cache/physgen``. ``PHYSGEN_NO_CACHE=1`` turns the cache off.

>>> import os
>>> os.environ["PHYSGEN_CACHE_DIR"] = "/tmp/physgen-cache-doctest"
>>> str(cache_dir())
'/tmp/physgen-cache-doctest'
>>> del os.environ["PHYSGEN_CACHE_DIR"]
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .schema import TemplateSpec

#: Bump when the layout of an entry changes.
LAYOUT = 1
_DEPENDENCIES = ("sympy", "pint", "numpy", "jinja2", "pydantic")


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when ``PHYSGEN_NO_CACHE`` is set (to anything but ``0``)."""
    if os.environ.get("PHYSGEN_NO_CACHE", "") not in ("", "0"):
        return None
    if os.environ.get("PHYSGEN_CACHE_DIR"):
        return Path(os.environ["PHYSGEN_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "physgen"


@functools.cache
def fingerprint() -> bytes:
    """What compiled templates depend on besides their file: physgen's code and its dependencies."""
    from . import __version__

    h = hashlib.sha256(f"physgen {__version__} layout {LAYOUT} python {sys.version}".encode())
    package = Path(__file__).parent
    for source in sorted(package.rglob("*.py")):
        h.update(source.relative_to(package).as_posix().encode() + b"\0" + source.read_bytes())
    for name in _DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None and spec.origin else ""
        stat = os.stat(origin) if origin else None
        h.update(f"{name}={origin}:{stat.st_mtime_ns if stat else 0}:{stat.st_size if stat else 0}".encode())
    return h.digest()


def entry_key(path: Path, content: bytes) -> str:
    """The key of one template file's entry."""
    h = hashlib.sha256(fingerprint())
    h.update(str(path.resolve()).encode() + b"\0" + content)
    return h.hexdigest()


class Store:
    """The cache file of one catalog folder (or file): get entries, put new ones, save."""

    def __init__(self, root: Path) -> None:
        folder = cache_dir()
        self.root = str(root.resolve())
        name = hashlib.sha256(self.root.encode()).hexdigest()[:32]
        self.path = folder / "catalogs" / f"{name}.pickle" if folder is not None else None
        self._stored = self._read()
        self._used: dict[str, tuple[TemplateSpec, bytes]] = {}

    def _read(self) -> dict[str, tuple[TemplateSpec, bytes]]:
        if self.path is None:
            return {}
        try:
            layout, root, entries = pickle.loads(self.path.read_bytes())
        except Exception:  # missing, truncated, foreign or from an incompatible version: rebuild
            return {}
        if layout != LAYOUT or root != self.root or not isinstance(entries, dict):
            return {}
        return entries

    def get(self, key: str) -> tuple[TemplateSpec, bytes] | None:
        """The spec and pickled template stored under ``key``, or ``None``."""
        hit = self._stored.get(key)
        if hit is not None:
            self._used[key] = hit
        return hit

    def put(self, key: str, spec: TemplateSpec, template: Any) -> None:
        """Add a freshly compiled template (saved by :meth:`save`)."""
        if self.path is not None:
            self._used[key] = (spec, pickle.dumps(template, protocol=5))

    def save(self) -> None:
        """Write the entries used since loading, atomically, if they changed; a cache that cannot
        be written is skipped."""
        if self.path is None or self._used.keys() == self._stored.keys():
            return
        data = pickle.dumps((LAYOUT, self.root, self._used), protocol=5)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.stem[:16]}.", suffix=".tmp",
                                       dir=self.path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:  # read-only or full disk: work without the cache
            return
        self._stored = dict(self._used)

"""The cache of compiled templates: safe to delete, never stale, never a way in.

Compiling a template (SymPy, Pint, Jinja, the load-time checks) takes tens of
milliseconds; reading it back from this cache takes well under one. Each
catalog folder (or single template file) has one cache file per environment,
holding one entry per template file, keyed by a SHA-256 of:

* the file's path and bytes;
* physgen's version and the bytes of its own source files (so any code change,
  released or not, makes new entries);
* the Python version and the installed SymPy, Pint, NumPy, Jinja2 and pydantic.

An entry holds the template's spec and the pickled compiled template; the
template is unpickled only when it is used. A cache file is named after the
catalog's path *and* the environment (physgen's source and its dependencies),
so two environments sharing a cache folder keep their own files instead of
evicting each other's; it holds the entries of the last load in that
environment. Saving keeps the :data:`KEEP_PER_CATALOG` most recently used files
of a catalog and the :data:`KEEP_FILES` most recently used files in all, and
deletes the rest. Only templates that passed every check are stored, so a cached
catalog needs no checks.

**Trust.** Unpickling runs code, so a cache file is read only when it can only
have been written by this user's physgen:

* every file is signed with HMAC-SHA256 under a per-user random key kept
  *outside* the cache folder, in ``$XDG_CONFIG_HOME/physgen/cache.key`` (else
  ``~/.config/physgen/cache.key``; else, when that cannot be written,
  ``$XDG_RUNTIME_DIR/physgen/cache.key``), created with mode 0600 in a folder of
  mode 0700. The signature is checked before anything is unpickled;
* the cache folder must belong to the user and be writable by no one else
  (a group- or world-writable folder, or one owned by another user, is not
  read or written);
* a cache file is opened without following symbolic links, must be a regular
  file of at most :data:`MAX_FILE` bytes, and is read whole before it is checked.

A key that others could read or replace, a folder others can write to, or no
place to keep a key turns the cache off with one :class:`~physgen.errors.CacheWarning`
(per process and folder); physgen then compiles every template, as with
``PHYSGEN_NO_CACHE=1``. A tampered, truncated or unreadable cache file is
rebuilt, with one warning; a file signed under another key (a new key, another
user's cache copied over) is rebuilt silently.

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
import hmac
import importlib.util
import io
import os
import pickle
import stat
import sys
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import CacheWarning

if TYPE_CHECKING:
    from .schema import TemplateSpec

#: Bump when the layout of an entry changes.
LAYOUT = 2
_DEPENDENCIES = ("sympy", "pint", "numpy", "jinja2", "pydantic")
#: The first bytes of a cache file; then the key's id (8 bytes), the signature (32) and the pickle.
MAGIC = b"physgen-cache\x02"
_KEY_ID, _SIGNATURE = 8, 32
#: Largest cache file read (the built-in catalog's is about 5 MB).
MAX_FILE = 1 << 30
#: Cache files kept per catalog (one per environment that used it recently), and in all.
KEEP_PER_CATALOG = 4
KEEP_FILES = 256
_SUFFIX = ".pickle"
_warned: set[str] = set()


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when ``PHYSGEN_NO_CACHE`` is set (to anything but ``0``)."""
    if os.environ.get("PHYSGEN_NO_CACHE", "") not in ("", "0"):
        return None
    if os.environ.get("PHYSGEN_CACHE_DIR"):
        return Path(os.environ["PHYSGEN_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "physgen"


def _warn(message: str, once: str | None = None) -> None:
    """One :class:`CacheWarning`; with ``once``, only the first time per process for that key."""
    if once is not None:
        if once in _warned:
            return
        _warned.add(once)
    warnings.warn(CacheWarning(message), stacklevel=3)


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
        stat_ = os.stat(origin) if origin else None
        h.update(f"{name}={origin}:{stat_.st_mtime_ns if stat_ else 0}:{stat_.st_size if stat_ else 0}"
                 .encode())
    return h.digest()


def entry_key(path: Path, content: bytes) -> str:
    """The key of one template file's entry."""
    h = hashlib.sha256(fingerprint())
    h.update(str(path.resolve()).encode() + b"\0" + content)
    return h.hexdigest()


# -- who may have written it ------------------------------------------------------------------------


def _private(st: os.stat_result, what: str) -> str:
    """Why a file or folder with this status could have been written by someone else ('' if not).
    POSIX only: Windows reports no owner or group bits here (its folders are per-user ACLs)."""
    if not hasattr(os, "getuid"):
        return ""
    if st.st_uid != os.getuid():
        return f"{what} belongs to user id {st.st_uid}, not to you"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{what} can be written by others (mode {stat.S_IMODE(st.st_mode):o})"
    return ""


def _key_places() -> list[Path]:
    """Where the signing key may live, in order of preference (all outside the cache folder)."""
    places = [Path(os.environ["XDG_CONFIG_HOME"]) if os.environ.get("XDG_CONFIG_HOME") else None]
    try:
        places.append(Path.home() / ".config")
    except RuntimeError:  # no home folder known
        pass
    if os.environ.get("XDG_RUNTIME_DIR"):
        places.append(Path(os.environ["XDG_RUNTIME_DIR"]))
    return [p / "physgen" / "cache.key" for p in dict.fromkeys(places) if p is not None]


def _read_key(path: Path) -> bytes:
    """The key stored at ``path``; OSError if it is missing, ValueError if it cannot be trusted."""
    folder = os.stat(path.parent)
    problem = _private(folder, f"the key's folder {path.parent}")
    if path.is_symlink():
        raise ValueError(f"the key {path} is a symbolic link; delete it (physgen makes a new private "
                         "one) or set PHYSGEN_NO_CACHE=1")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not problem and not stat.S_ISREG(st.st_mode):
            problem = f"the key {path} is not a regular file"
        if not problem:
            problem = _private(st, f"the key {path}")
        if not problem and hasattr(os, "getuid") and st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            problem = f"the key {path} can be read by others (mode {stat.S_IMODE(st.st_mode):o})"
        key = os.read(fd, 64) if not problem else b""
    finally:
        os.close(fd)
    if problem:
        raise ValueError(f"{problem}; delete it (physgen makes a new private one) or set "
                         "PHYSGEN_NO_CACHE=1")
    if len(key) != 32:
        raise ValueError(f"the key {path} is not 32 bytes; delete it (physgen makes a new one)")
    return key


def _make_key(path: Path) -> bytes:
    """A new random key, written to ``path`` with mode 0600 (a key another process wrote first wins)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = os.urandom(32)  # what secrets.token_bytes uses, without importing random
    fd, tmp = tempfile.mkstemp(prefix=".cache.key.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(key)
        try:
            os.link(tmp, path)  # never replaces an existing key
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)
    return _read_key(path)


@functools.cache
def _signing_key(folder: Path) -> bytes | None:
    """This user's key for the cache ``folder``, made on first use; None (with a warning) when none
    can be kept outside that folder."""
    inside = folder.resolve()
    places = [p for p in _key_places() if inside not in p.resolve().parents]
    for path in places:  # the first place where a key is, or can be made
        try:
            try:
                return _read_key(path)
            except FileNotFoundError:
                return _make_key(path)
        except ValueError as exc:
            _warn(f"not using the template cache: {exc}", once="key")
            return None
        except OSError:  # e.g. a read-only home folder: try the next place
            continue
    _warn("not using the template cache: no private place for its signing key "
          f"({', '.join(str(p) for p in places) or 'no home folder'}); set XDG_CONFIG_HOME to a "
          "folder of your own, or PHYSGEN_NO_CACHE=1", once="key")
    return None


def _key_id(key: bytes) -> bytes:
    return hashlib.sha256(b"physgen cache key id\0" + key).digest()[:_KEY_ID]


def _sign(key: bytes, payload: bytes) -> bytes:
    kid = _key_id(key)
    return MAGIC + kid + hmac.new(key, MAGIC + kid + payload, hashlib.sha256).digest() + payload


def _usable_folder(folder: Path) -> bool:
    """Make the cache's ``catalogs`` folder if needed, and check that only this user can write it
    and the cache folder (warning once per folder when not)."""
    catalogs = folder / "catalogs"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # private even under umask 002
        catalogs.mkdir(mode=0o700, exist_ok=True)
        problem = _private(os.stat(folder), f"the cache folder {folder}") or \
            _private(os.stat(catalogs), f"the cache folder {catalogs}")
    except OSError as exc:
        problem = f"the cache folder {folder} cannot be used ({exc.strerror or exc})"
    if problem:
        _warn(f"not using the template cache: {problem}; make it yours alone (chmod go-w), set "
              "PHYSGEN_CACHE_DIR to a folder of your own, or PHYSGEN_NO_CACHE=1", once=f"folder {folder}")
    return not problem


# -- the store --------------------------------------------------------------------------------------


class Store:
    """The cache file of one catalog folder (or file) in this environment: get entries, put new
    ones, save. ``path`` is None when the cache is off, untrusted or has no key."""

    def __init__(self, root: Path) -> None:
        folder = cache_dir()
        self.root = str(root.resolve())
        self._name = hashlib.sha256(self.root.encode()).hexdigest()[:32]
        self.path: Path | None = None
        self._key = b""
        if folder is not None and _usable_folder(folder):
            key = _signing_key(folder)
            if key is not None:
                self._key = key
                self.path = folder / "catalogs" / f"{self._name}-{fingerprint().hex()[:16]}{_SUFFIX}"
        self._stored = self._read()
        self._used: dict[str, tuple[TemplateSpec, bytes]] = {}

    def _read(self) -> dict[str, tuple[TemplateSpec, bytes]]:
        if self.path is None:
            return {}
        try:
            data = self._read_file(self.path)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            _warn(f"rebuilding the template cache file {self.path}: {exc}")
            return {}
        if data is None:
            return {}
        try:  # signed by this user's physgen: loading it runs no one else's code
            layout, root, entries = pickle.loads(data)
        except Exception:  # written by a physgen whose classes have changed since: rebuild
            return {}
        if layout != LAYOUT or root != self.root or not isinstance(entries, dict):
            return {}
        return entries

    def _read_file(self, path: Path) -> memoryview | None:
        """The verified pickle of a cache file; None if it was signed under another key.
        Raises OSError or ValueError (with the reason) for a file that cannot be trusted."""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise ValueError("it is not a regular file")
            problem = _private(st, "it")
            if problem:
                raise ValueError(problem)
            if st.st_size > MAX_FILE:
                raise ValueError(f"it is larger than {MAX_FILE} bytes")
            blob = memoryview(bytearray(st.st_size))  # read in place: no copies of a 5 MB file
            got = 0
            with io.FileIO(fd, closefd=False) as fh:
                while got < len(blob) and (n := fh.readinto(blob[got:])):
                    got += n
            blob = blob[:got]
            if os.utime in os.supports_fd:
                try:  # most recently used first when old files are cleaned up
                    os.utime(fd)
                except OSError:
                    pass
        finally:
            os.close(fd)
        head = len(MAGIC) + _KEY_ID + _SIGNATURE
        if len(blob) < head or blob[:len(MAGIC)] != MAGIC:
            raise ValueError("it is truncated or not a physgen cache file")
        kid, signature = bytes(blob[len(MAGIC):len(MAGIC) + _KEY_ID]), bytes(blob[head - _SIGNATURE:head])
        if not hmac.compare_digest(kid, _key_id(self._key)):
            return None
        mac = hmac.new(self._key, blob[:head - _SIGNATURE], hashlib.sha256)
        mac.update(blob[head:])
        if not hmac.compare_digest(signature, mac.digest()):
            raise ValueError("its signature does not match (tampered or truncated)")
        return blob[head:]

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
        """Write the entries used since loading, signed and atomically, if they changed, then
        delete old cache files beyond the bounds; a cache that cannot be written is skipped."""
        if self.path is None or self._used.keys() == self._stored.keys():
            return
        data = _sign(self._key, pickle.dumps((LAYOUT, self.root, self._used), protocol=5))
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self._name[:16]}.", suffix=".tmp",
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
        self._clean()

    def _clean(self) -> None:
        """Delete the least recently used cache files beyond :data:`KEEP_PER_CATALOG` for this
        catalog and :data:`KEEP_FILES` in all (one scan of the folder)."""
        assert self.path is not None
        try:
            found = []
            with os.scandir(self.path.parent) as it:
                for e in it:
                    if e.name.endswith(_SUFFIX) and e.is_file(follow_symlinks=False):
                        found.append((e.stat(follow_symlinks=False).st_mtime_ns, e.name))
        except OSError:
            return
        found.sort(reverse=True)
        mine = [name for _, name in found if name.startswith(self._name)]
        doomed = {*mine[KEEP_PER_CATALOG:], *(name for _, name in found[KEEP_FILES:])}
        doomed.discard(self.path.name)
        for name in doomed:
            try:
                (self.path.parent / name).unlink()
            except OSError:
                pass

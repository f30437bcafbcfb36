"""Find, load and validate template files; look templates up by id, domain and tag.

A catalog loads whole or not at all: every problem in every file is collected
and raised together as one :class:`~physgen.errors.CatalogError`. Compiled
templates are cached (:mod:`physgen.cache`); a catalog read from the cache holds
each template's spec and unpickles the template itself when it is first used,
so listing a catalog or using one template does not load the others.

>>> import physgen
>>> cat = physgen.load_catalog()
>>> "mechanics.projectile_range" in cat
True
>>> all(t.domain == "optics" for t in cat.filter(domain="optics").values())
True

A filter value that no template could have is an error, not an empty catalog:

>>> cat.filter(domain="electricity")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
physgen.errors.ArgumentError: unknown domain 'electricity'; valid: ... (did you mean ...?); \
'electricity' is the id prefix of ... templates, whose domain is electricity_and_magnetism
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import pickle
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pydantic

from . import cache
from .errors import CatalogError, FairnessWarning, Problem, TemplateError, UnknownTemplateError, unknown
from .schema import DOMAINS, AnswerSpec, ConstantSpec, InputSpec, QuestionType, TemplateSpec

if TYPE_CHECKING:
    from .template import Template


def _builtin_root() -> Path:
    packaged = Path(str(resources.files("physgen") / "templates"))
    if packaged.is_dir():  # installed wheel: templates/ is shipped inside the package
        return packaged
    return Path(__file__).resolve().parents[2] / "templates"  # source checkout / editable


#: Where the built-in templates live.
BUILTIN_ROOT = _builtin_root()

@functools.cache
def _yaml_loader() -> Any:
    """A safe YAML loader that refuses duplicate keys (PyYAML silently keeps the last).

    It uses LibYAML's C parser where PyYAML was built with it (about 10× faster).
    """
    import yaml

    class UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    def construct_mapping(loader: Any, node: yaml.MappingNode) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {_cut(repr(key), 60)}", key_node.start_mark
                )
            seen.add(key)
        return loader.construct_mapping(node)  # type: ignore[no-any-return]

    UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return UniqueKeyLoader


#: The largest template file read, in bytes (the catalog's largest is about 5 kB).
MAX_FILE_BYTES = 256 * 1024


def _read(path: Path) -> bytes:
    """A template file's bytes; raises TemplateError if it cannot be read or is too large."""
    try:
        with path.open("rb") as f:
            content = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise TemplateError(str(path), "", f"cannot read the file: {exc}") from None
    if len(content) > MAX_FILE_BYTES:
        raise TemplateError(str(path), "", f"the file is larger than {MAX_FILE_BYTES // 1024} KiB",
                            fix="a template file is a few kilobytes; remove what it does not need")
    return content


def _yaml_data(text: str) -> Any:
    """The data of a YAML document, refusing aliases: an alias (``*name``) repeats a node, so a
    few lines of them can stand for billions of values (a "billion laughs" file)."""
    import yaml

    loader = _yaml_loader()(text)
    try:
        node = loader.get_single_node()
        seen: set[int] = set()
        stack = [node] if node is not None else []
        while stack:
            item = stack.pop()
            if id(item) in seen:
                mark = item.start_mark
                raise yaml.composer.ComposerError(
                    None, None, "an alias (*name) repeats the node anchored here; template files may "
                    "not use anchors and aliases", mark)
            seen.add(id(item))
            if isinstance(item, yaml.SequenceNode):
                stack.extend(item.value)
            elif isinstance(item, yaml.MappingNode):
                stack.extend(n for pair in item.value for n in pair)
        return loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()


_SECTION_MODELS: dict[str, type[pydantic.BaseModel]] = {
    "inputs": InputSpec, "constants": ConstantSpec, "answers": AnswerSpec,
}


def _allowed_fields(loc: tuple[Any, ...]) -> list[str]:
    """Field names allowed at the parent of an ``extra_forbidden`` location."""
    if len(loc) == 1:
        return list(TemplateSpec.model_fields)
    if len(loc) == 3 and loc[0] in _SECTION_MODELS:
        return list(_SECTION_MODELS[loc[0]].model_fields)
    return []


def _cut(text: str, limit: int = 100) -> str:
    """``text`` cut to about ``limit`` characters, so that an error stays one short line."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _problem_from_pydantic(source: str, err: Any) -> Problem:
    loc = tuple(_cut(" ".join(str(x).split()), 40) for x in err["loc"])
    field = ".".join(loc) or "(top level)"
    msg = str(err["msg"]).removeprefix("Value error, ")
    kind = err["type"]
    if kind == "missing":
        return Problem(source, field, "required field is missing", f"add `{loc[-1]}:`")
    if kind == "extra_forbidden":
        allowed = _allowed_fields(loc)
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f"did you mean `{close[0]}`? " if close else ""
        return Problem(source, field, "unknown field",
                       f"{hint}allowed here: {', '.join(allowed)}" if allowed else "remove it")
    got = _cut(repr(err.get("input")), 60)
    if kind == "literal_error":
        return Problem(source, field, f"{msg} (got {got})", "use one of the listed values")
    if kind == "string_pattern_mismatch" and loc == ("id",):
        return Problem(source, field, f"{got} is not '<group>.<name>'",
                       "use lower-case words joined by '_', e.g. 'mechanics.projectile_range'")
    if kind in ("too_long", "string_too_long"):
        return Problem(source, field, _cut(msg), "template files are small: see the limits in "
                       "docs/templates.md")
    return Problem(source, field, f"{_cut(msg)} (got {got})" if "input" in err and
                   not isinstance(err.get("input"), dict | list) else _cut(msg))


def read_spec(path: str | Path) -> TemplateSpec:
    """Read and structurally validate one template file (no compilation)."""
    path = Path(path)
    return _parse_spec(path, _read(path))


def _parse_spec(path: Path, content: bytes) -> TemplateSpec:
    import yaml

    source = str(path)
    try:
        data = _yaml_data(content.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise TemplateError(source, "", f"cannot read the file: {exc}",
                            fix="save it as UTF-8") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise TemplateError(source, where, f"invalid YAML: {_cut(problem)}",
                            fix="check indentation, quoting and duplicate keys") from None
    except (RecursionError, MemoryError):
        raise TemplateError(source, "", "invalid YAML: it nests too deeply",
                            fix="a template file nests a few levels deep") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise TemplateError(source, "", f"invalid YAML: {_cut(' '.join(str(exc).split()))}",
                            fix="write numbers of at most a few digits") from None
    if not isinstance(data, dict):
        raise TemplateError(source, "", f"the file holds a {type(data).__name__}, not a mapping",
                            fix="a template file is a YAML mapping starting with `id:`")
    try:
        return TemplateSpec.model_validate(data)
    except pydantic.ValidationError as exc:
        raise TemplateError(
            problems=[_problem_from_pydantic(source, e) for e in exc.errors()]
        ) from None


def load_template(path: str | Path) -> Template:
    """Read, validate and compile one template file (or read it from the cache)."""
    path = Path(path)
    if not path.is_file():
        raise TemplateError(str(path), "", "no such template file", fix="pass the path of a .yaml file")
    return _load(path).templates()[0]


class _Entry:
    """A template's spec, and the template: compiled already, or unpickled on first use."""

    __slots__ = ("_load", "_template", "spec")

    def __init__(self, spec: TemplateSpec, template: Template | None = None,
                 load: Callable[[], Template] | None = None) -> None:
        self.spec, self._template, self._load = spec, template, load

    def template(self) -> Template:
        if self._template is None:
            assert self._load is not None
            self._template = self._load()
        return self._template


def _entry(path: Path, store: cache.Store,
           time_limit: float | None = None) -> tuple[_Entry, Callable[[], _Entry]]:
    """One template file: its entry now if cached, else its spec now and a function that
    compiles it (within ``time_limit`` seconds, if given). Raises TemplateError."""
    content = _read(path)
    key = cache.entry_key(path, content) if store.path is not None else ""
    hit = store.get(key) if key else None
    if hit is not None:
        entry = _Entry(hit[0], load=functools.partial(pickle.loads, hit[1]))
        return entry, lambda: entry
    spec = _parse_spec(path, content)

    def compiled() -> _Entry:
        template = _compile(spec, str(path), time_limit)
        if key:
            store.put(key, spec, template)
        return _Entry(spec, template)

    return _Entry(spec), compiled


def _compile(spec: TemplateSpec, source: str, seconds: float | None) -> Template:
    """Compile and check ``spec``; with ``seconds``, in a child process stopped after that
    long (:mod:`physgen.bounded`), whose failures become one problem of the file."""
    from .compile import compile_template  # SymPy, Pint and Jinja: only when compiling

    if seconds is None:
        return compile_template(spec, source)
    from .bounded import run_bounded

    fix = "simplify the template's expressions and texts"
    try:
        found = run_bounded(_compile_or_problems, spec, source, seconds=seconds)
    except TimeoutError:
        raise TemplateError(source, "", f"checking took longer than {seconds:g} s, so it was stopped",
                            fix=f"{fix}, or allow more time with --time-limit") from None
    except MemoryError as exc:
        raise TemplateError(source, "", f"checking {exc}, so it was stopped", fix=fix) from None
    except ChildProcessError as exc:
        raise TemplateError(source, "", f"checking failed: {_cut(str(exc))}", fix=fix) from None
    if isinstance(found, list):
        raise TemplateError(problems=found)
    return found


def _compile_or_problems(spec: TemplateSpec, source: str) -> Template | list[Problem]:
    from .compile import compile_template

    try:
        return compile_template(spec, source)
    except TemplateError as exc:
        return list(exc.problems)


def _later(complete: Callable[[], _Entry]) -> Callable[[], Template]:
    """Compile (or unpickle) a template on first use."""
    return lambda: complete().template()


def _check_location(spec: TemplateSpec, path: Path, root: Path) -> Problem | None:
    expected = spec.expected_path(root)
    if path.resolve() != expected.resolve():
        group = spec.id.split(".", 1)[0]
        if path.parent.resolve() == root.resolve() and root.name == group:  # the group folder given
            return Problem(str(path), "id", f"{root} is the folder of group {group!r}, not a catalog root",
                           f"pass the catalog root, {root.parent}, which holds one folder per group")
        return Problem(str(path), "id", f"id {spec.id!r} does not match the file's place",
                       f"move the file to {expected} or change the id")
    return None


class Catalog(Mapping[str, "Template"]):
    """Compiled templates by id, sorted by id."""

    def __init__(self, templates: Iterable[Template | _Entry], root: Path | None = None) -> None:
        entries = [t if isinstance(t, _Entry) else _Entry(t.spec, t) for t in templates]
        self._entries = {e.spec.id: e for e in sorted(entries, key=lambda e: e.spec.id)}
        self.root = root

    def __getitem__(self, template_id: str) -> Template:
        try:
            return self._entries[template_id].template()
        except KeyError:
            close = difflib.get_close_matches(str(template_id), list(self._entries), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else "; see `physgen list`"
            raise UnknownTemplateError(f"no template {template_id!r} in this catalog{hint}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<Catalog of {len(self)} templates from {self.root}>"

    def templates(self) -> list[Template]:
        """The templates, sorted by id (iterating a catalog gives ids, like a dict)."""
        return [e.template() for e in self._entries.values()]

    def specs(self) -> list[TemplateSpec]:
        """The templates' specs, sorted by id, without loading the templates themselves."""
        return [e.spec for e in self._entries.values()]

    def filter(
        self,
        domain: str | Iterable[str] | None = None,
        difficulty: int | Iterable[int] | None = None,
        tags: str | Iterable[str] | None = None,
        question_type: QuestionType | None = None,
    ) -> Catalog:
        """The templates matching every given criterion (tags: all must be present).

        A value no template can have (a domain not in the schema, a difficulty outside
        1–5, a tag no template of this catalog carries, a question type other than
        ``numerical`` / ``algebraic``) raises :class:`~physgen.errors.ArgumentError`
        listing the valid values. A valid value that matches nothing gives an empty catalog.
        """
        specs = self.specs()
        domains = _checked("domain", domain, DOMAINS, functools.partial(_group_hint, specs))
        levels = _checked("difficulty", difficulty, range(1, 6))
        wanted = _checked("tag", tags, {tag for spec in specs for tag in spec.subdomain}) or set()
        types = _checked("question type", question_type, ("numerical", "algebraic"))
        kept = [
            e for e in self._entries.values()
            if (domains is None or e.spec.domain in domains)
            and (levels is None or e.spec.difficulty in levels)
            and wanted <= set(e.spec.subdomain)
            and (types is None or e.spec.question_type in types)
        ]
        return Catalog(kept, self.root)

    def digest(self) -> str:
        """A short hash of every template's id, version and content: the catalog version."""
        h = hashlib.sha256()
        for spec in self.specs():
            h.update(spec.model_dump_json().encode())
        return h.hexdigest()[:12]


def _checked(what: str, given: Any, choices: Collection[Any],
             hint: Callable[[Any], str] | None = None) -> set[Any] | None:
    """The given filter values as a set (``None`` when not given), each one of ``choices``."""
    if given is None:
        return None
    values = {given} if isinstance(given, str | int) else set(given)
    for value in values:
        if value not in choices or isinstance(value, bool):
            raise unknown(what, value, choices, hint(value) if hint else "")
    return values


def _group_hint(specs: list[TemplateSpec], value: Any) -> str:
    """For a domain that is an id prefix (``electricity``), which domain its templates have."""
    group = [s.domain for s in specs if s.id.split(".", 1)[0] == value]
    if not group:
        return ""
    return (f"; {value!r} is the id prefix of {len(group)} templates, whose domain is "
            f"{' or '.join(sorted(set(group)))}")


def template_files(root: Path) -> list[Path]:
    """Every ``*.yaml`` template file below ``root``, sorted."""
    return sorted(p for p in root.rglob("*.yaml") if p.is_file())


def load_catalog(path: str | Path | None = None, *, lazy: bool = False,
                 time_limit: float | None = None) -> Catalog:
    """Load a catalog: the built-in one (``None``), a folder of templates, or one file.

    Raises :class:`CatalogError` listing every problem if any file is invalid.
    The built-in catalog is loaded once per process. Templates come from the
    cache when their files, physgen and its dependencies are unchanged.
    ``lazy=True`` reads and checks every file's structure but compiles a
    template that is not in the cache only when it is first used (and reports
    its problems then): what ``physgen list`` and ``physgen show`` need.
    ``time_limit`` (seconds) checks each file of ``path`` that is not in the cache in a
    child process, stopped after that long or if it takes more than 2 GiB of memory, so a
    hostile file becomes one problem of the catalog (Linux; ``physgen validate`` does
    this). The built-in catalog is physgen's own and loads without it.
    """
    if path is None:
        return _load_builtin(lazy)
    return _load(Path(path), lazy, time_limit)


@functools.cache
def _load_builtin(lazy: bool) -> Catalog:
    return _load(BUILTIN_ROOT, lazy)


def _load(path: Path, lazy: bool = False, time_limit: float | None = None) -> Catalog:
    if not path.exists():
        raise CatalogError(str(path), "", "no such file or folder",
                           fix="pass a template folder or a .yaml file")
    files = [path] if path.is_file() else template_files(path)
    if not files:
        raise CatalogError(str(path), "", "no *.yaml template files found",
                           fix="template files live at <root>/<group>/<name>.yaml")
    store = cache.Store(path)
    problems: list[Problem] = []
    entries: list[_Entry] = []
    seen: dict[str, Path] = {}
    for file in files:
        try:
            found, complete = _entry(file, store, time_limit)
            spec = found.spec
            if file is not path:
                misplaced = _check_location(spec, file, path)
                if misplaced:
                    problems.append(misplaced)
            if spec.id in seen:
                problems.append(Problem(str(file), "id", f"{spec.id!r} is also the id of {seen[spec.id]}",
                                        "ids must be unique"))
            seen[spec.id] = file
            entries.append(_Entry(spec, load=_later(complete)) if lazy else complete())
        except TemplateError as exc:
            problems.extend(exc.problems)
    store.save()  # keeps the good templates even when others fail
    if problems:
        raise CatalogError(problems=problems)
    flagged = [e.spec.id for e in entries if getattr(e, "findings", ())]  # compiled now, not lazy entries
    if flagged:
        warnings.warn(FairnessWarning(
            f"{len(flagged)} template(s) have wording or option problems (e.g. {flagged[0]}); "
            f"`physgen validate {path}` lists each with its file, field and fix"), stacklevel=3)
    return Catalog(entries, path if path.is_dir() else path.parent)

"""The record a user sends to a model: one prompt with its answer key and ids.

>>> import physgen, json
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, seed=3))
>>> v.format, sorted(v.answers)
('free_form', ['T'])
>>> Variant.from_dict(json.loads(json.dumps(v.to_dict()))) == v
True

The field list is declared once, in the dataclasses and named tuples below.
Everything else is derived from it: :meth:`Variant.to_dict` and
:meth:`Variant.from_dict`, the pydantic record behind ``variant.schema.json``
(:func:`physgen.schema.variant_record`), the graded record of
:func:`physgen.metrics.record` (the fields marked ``graded``) and the typed
columns of :mod:`physgen.export`.

>>> [m.name for m in members(Variant) if m.graded]
['variant_id', 'template_id', 'instance_id', 'paraphrase', 'format']
>>> members(Answer)[-1]
Member(name='expr', type=str | None, doc='', graded=False, default=None, factory=None)
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, get_args, get_origin

from .units import registry

if TYPE_CHECKING:
    from pint import Quantity


def _about(doc: str, *, graded: bool = False) -> dict[str, Any]:
    """Field metadata: what the field holds, and whether graded records carry it."""
    return {"doc": doc, "graded": graded}


class ShownQuantity(NamedTuple):
    """An input as the prompt shows it: exact shown value, its unit, and the text."""

    value: float
    unit: str
    text: str

    @property
    def quantity(self) -> Quantity[float]:
        """As a Pint quantity."""
        q: Quantity[float] = registry().Quantity(self.value, self.unit or "dimensionless")
        return q


class Answer(NamedTuple):
    """An expected answer: value in ``unit`` (12 significant figures) and its shown text.

    ``expr`` is set for algebraic questions: the expected expression (SymPy syntax,
    in the template's input and constant names, SI units); and for ``code`` variants: the
    expression in the input names alone, constants as numbers, from which the format's
    reference ``solve`` is written.
    """

    value: float
    unit: str
    text: str
    sig_figs: int
    expr: str | None = None

    @property
    def quantity(self) -> Quantity[float]:
        """As a Pint quantity."""
        q: Quantity[float] = registry().Quantity(self.value, self.unit or "dimensionless")
        return q


class Intermediate(NamedTuple):
    """A value the worked solution finds on the way (step-level grading): value in ``unit``
    (12 significant figures), its shown text, significant figures, the index of the step
    (in ``Variant.steps``) that states it, and the intermediates it is found from, directly or
    through other derived quantities (:meth:`physgen.graph.SolutionGraph.found_from`; None in a
    record made before they were recorded: then every intermediate of an earlier step)."""

    value: float
    unit: str
    text: str
    sig_figs: int
    step: int
    uses: tuple[str, ...] | None = None


class CodeTest(NamedTuple):
    """One check for a ``code`` answer: SI inputs and the SI answers the function must return."""

    inputs: dict[str, float]
    expected: dict[str, float]


@dataclass(frozen=True, slots=True)
class Metadata:
    """What a variant is about, and how to regenerate it (``seed``, ``index``)."""

    domain: str = field(metadata=_about("physics domain, e.g. 'optics'", graded=True))
    subdomain: tuple[str, ...] = field(metadata=_about("topic tags", graded=True))
    difficulty: int = field(metadata=_about("1 easy … 5 hard", graded=True))
    question_type: str = field(metadata=_about("'numerical' or 'algebraic'", graded=True))
    template_version: int = field(metadata=_about("the template's version"))
    seed: int = field(metadata=_about("the seed it was generated with"))
    index: int = field(metadata=_about("instance number under that seed"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        out: dict[str, Any] = json_encoder(Metadata)(self)
        return out


@dataclass(frozen=True, slots=True)
class Variant:
    """One generated problem.

    ``variant_id`` is ``template_id:instance_id:p<paraphrase>:<format>``;
    ``instance_id`` hashes the template, its version and the shown inputs, so
    the same parameter set has the same id whichever seed drew it.
    """

    variant_id: str = field(metadata=_about(
        "'<template_id>:<instance_id>:p<paraphrase>:<format>' (plus the part for per-part formats)",
        graded=True))
    template_id: str = field(metadata=_about("the template's id, '<group>.<name>'", graded=True))
    instance_id: str = field(metadata=_about(
        "hash of the template, its version and the shown inputs", graded=True))
    paraphrase: int = field(metadata=_about("index of the question text used", graded=True))
    format: str = field(metadata=_about("question format, e.g. 'free_form', 'mc_numerical'", graded=True))
    prompt: str = field(metadata=_about("what the model is shown"))
    inputs: dict[str, ShownQuantity] = field(metadata=_about("the given quantities, by name, as shown"))
    answers: dict[str, Answer] = field(metadata=_about("the expected answers, by name"))
    steps: tuple[str, ...] = field(metadata=_about("worked solution steps"))
    metadata: Metadata = field(metadata=_about("domain, difficulty and how to regenerate it"))
    options: dict[str, str] = field(default_factory=dict, metadata=_about(
        "multiple choice: letter -> option"))
    answer_key: str | None = field(default=None, metadata=_about("multiple choice: the correct letter"))
    code_tests: tuple[CodeTest, ...] = field(default=(), metadata=_about(
        "code format: calls the returned function must pass"))
    unanswerable: tuple[str, ...] = field(default=(), metadata=_about(
        "omitted probe: parts the prompt's data do not determine"))
    intermediates: dict[str, Intermediate] = field(default_factory=dict, metadata=_about(
        "values the worked steps find on the way, by name, in step order (graded with steps=True)"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (the ``variant.schema.json`` record), keys in field order."""
        out: dict[str, Any] = json_encoder(Variant)(self)
        return out

    def to_json(self) -> str:
        """One JSONL line (no trailing newline), keys in a fixed order (see :mod:`physgen.jsonl`)."""
        from .jsonl import variant_line

        return variant_line(self)[:-1].decode()

    def graded_fields(self) -> dict[str, Any]:
        """The fields a graded record carries (those marked ``graded``, here and in the
        metadata), as JSON values.

        >>> import physgen
        >>> v = next(physgen.generate(["optics.thin_lens"], n=1))
        >>> list(v.graded_fields())[4:]
        ['format', 'domain', 'subdomain', 'difficulty', 'question_type']
        """
        return _graded()(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Variant:
        """Rebuild a variant from :meth:`to_dict` output, validating it first
        (a :class:`pydantic.ValidationError` names every wrong field; a record larger than
        :data:`MAX_ENTRIES`, :data:`MAX_NAME` or :data:`MAX_STEP` allow is a
        :class:`~physgen.errors.RecordSizeError`, raised before the rest is read)."""
        from .schema import variant_record

        check_size(data)
        record = variant_record().model_validate(data)
        variant: Variant = _decoder(Variant)(record)
        return variant


# Caps on what a variant record may hold, checked by `Variant.from_dict` before anything else is
# read: a record is untrusted input (a graded row, a ground truth), and the step grader's work grows
# with the number of intermediates. Each is far above what a template can make (schema.py's caps) and
# what the catalog makes (its largest, every format, in brackets); docs/security.md.
#: Entries per field [inputs 9, answers 4, intermediates 9, steps 9, options 4, code_tests 5,
#: unanswerable 4]; an intermediate's ``uses`` may name at most ``MAX_ENTRIES["intermediates"]`` [7].
MAX_ENTRIES: dict[str, int] = {"inputs": 100, "answers": 50, "intermediates": 100, "steps": 100,
                               "options": 100, "code_tests": 100, "unanswerable": 50}
#: Characters in the name of an input, answer or intermediate [16].
MAX_NAME = 100
#: Characters in one worked step [509].
MAX_STEP = 10_000


def check_size(data: Any) -> None:
    """Refuse a record (a :meth:`Variant.to_dict`) holding more than the caps above allow, with
    a :class:`~physgen.errors.RecordSizeError` (an ``InputError``) that names the field; fields of
    the wrong type are left to the record's validation.

    >>> check_size({"intermediates": {f"x{i}": {} for i in range(101)}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    physgen.errors.RecordSizeError: a variant record holds at most 100 intermediates, this one 101: it ...
    """
    from .errors import RecordSizeError

    if not isinstance(data, dict):
        return

    def refuse(what: str) -> RecordSizeError:
        return RecordSizeError(f"a variant record holds at most {what}: it was not made by physgen or was "
                          "altered; regenerate it (physgen.generate) or grade the record physgen wrote")

    for key, cap in MAX_ENTRIES.items():
        value = data.get(key)
        if isinstance(value, dict | list) and len(value) > cap:
            raise refuse(f"{cap} {key}, this one {len(value)}")
        if key in ("inputs", "answers", "intermediates") and isinstance(value, dict):
            long = next((n for n in value if isinstance(n, str) and len(n) > MAX_NAME), None)
            if long is not None:
                raise refuse(f"names of {MAX_NAME} characters, this one {len(long)} ({key} {long[:40]!r}…)")
    steps = data.get("steps")
    if isinstance(steps, list):
        long = next((s for s in steps if isinstance(s, str) and len(s) > MAX_STEP), None)
        if long is not None:
            raise refuse(f"steps of {MAX_STEP} characters, this one {len(long)}")
    intermediates = data.get("intermediates")
    if isinstance(intermediates, dict):
        cap = MAX_ENTRIES["intermediates"]
        for name, item in intermediates.items():
            uses = item.get("uses") if isinstance(item, dict) else None
            if isinstance(uses, list) and len(uses) > cap:
                raise refuse(f"{cap} uses per intermediate, this one {len(uses)} ({name!r})")


# -- the field list, and what is derived from it ------------------------------------------------
class Member(NamedTuple):
    """One field of a record type: its name, resolved type, description, whether graded
    records carry it, and its default (``...`` when required) or default factory."""

    name: str
    type: Any
    doc: str
    graded: bool
    default: Any
    factory: Callable[[], Any] | None


#: The record types of a variant, whose fields :func:`members` lists.
RECORD_TYPES: tuple[type, ...] = (Variant, Metadata, ShownQuantity, Answer, CodeTest, Intermediate)


@functools.cache
def members(cls: type) -> tuple[Member, ...]:
    """The fields of a record type (:data:`RECORD_TYPES`), in declaration order."""
    hints = typing.get_type_hints(cls)
    if dataclasses.is_dataclass(cls):
        out = []
        for f in dataclasses.fields(cls):
            factory = None if f.default_factory is dataclasses.MISSING else f.default_factory
            default = ... if f.default is dataclasses.MISSING else f.default
            out.append(Member(f.name, hints[f.name], f.metadata.get("doc", ""),
                              bool(f.metadata.get("graded")), default, factory))
        return tuple(out)
    defaults: dict[str, Any] = getattr(cls, "_field_defaults", {})
    return tuple(Member(name, hints[name], "", False, defaults.get(name, ...), None)
                 for name in getattr(cls, "_fields", ()))


def optional_of(tp: Any) -> Any | None:
    """``X`` for an annotation ``X | None``, else ``None``."""
    if get_origin(tp) in (typing.Union, types.UnionType):
        rest = [a for a in get_args(tp) if a is not type(None)]
        if len(rest) == 1 and len(get_args(tp)) == 2:
            return rest[0]
    return None


def _plain(tp: Any) -> bool:
    """A type JSON holds as it is (``str``, ``int``, ``float``, ``bool``, optionally ``None``)."""
    return tp in (str, int, float, bool) or optional_of(tp) in (str, int, float, bool)


def _encode(tp: Any, src: str, depth: int = 0, lists: bool = False) -> str:
    """Python source of an expression giving the JSON form of ``src``, a value of type ``tp``
    (with ``lists``, each ``dict[str, X]`` as a list of objects named by their key)."""
    if _plain(tp):
        return src
    if optional_of(tp) is not None:  # X | None: null, or X's form
        return f"(None if {src} is None else {_encode(optional_of(tp), src, depth, lists)})"
    origin, args = get_origin(tp), get_args(tp)
    k, v = f"_k{depth}", f"_v{depth}"
    if origin is tuple:  # tuple[X, ...]: a JSON list
        if _plain(args[0]):
            return f"list({src})"
        return f"[{_encode(args[0], v, depth + 1, lists)} for {v} in {src}]"
    if origin is dict and lists:  # dict[str, X]: [{"name": key, <X's fields> or "value": X}, ...]
        if args[1] in RECORD_TYPES:
            item = _fields(args[1], v, depth + 1, lists, f"'name': {k}")
        else:
            item = f"{{'name': {k}, 'value': {_encode(args[1], v, depth + 1, lists)}}}"
        return f"[{item} for {k}, {v} in {src}.items()]"
    if origin is dict:  # dict[str, X]: a JSON object
        if _plain(args[1]):
            return f"dict({src})"
        return f"{{{k}: {_encode(args[1], v, depth + 1, lists)} for {k}, {v} in {src}.items()}}"
    if tp in RECORD_TYPES:
        return _fields(tp, src, depth, lists)
    raise TypeError(f"no JSON form for a field of type {tp!r}")


def _fields(tp: type, src: str, depth: int, lists: bool, first: str = "") -> str:
    """A JSON object with a record's fields in order (named tuples are read by index: faster)."""
    by_index = issubclass(tp, tuple)
    items = [first] if first else []
    items += [f"{m.name!r}: {_encode(m.type, f'{src}[{i}]' if by_index else f'{src}.{m.name}', depth, lists)}"
              for i, m in enumerate(members(tp))]
    return "{" + ", ".join(items) + "}"


def _decode(tp: Any, src: str, depth: int = 0) -> str:
    """Python source of an expression building a value of type ``tp`` from ``src``, its
    validated record (:func:`physgen.schema.variant_record` and the models in it)."""
    if _plain(tp):
        return src
    if optional_of(tp) is not None:
        return f"(None if {src} is None else {_decode(optional_of(tp), src, depth)})"
    origin, args = get_origin(tp), get_args(tp)
    v = f"_v{depth}"
    if origin is tuple:
        if _plain(args[0]):
            return f"tuple({src})"
        return f"tuple([{_decode(args[0], v, depth + 1)} for {v} in {src}])"
    if origin is dict:
        if _plain(args[1]):
            return f"dict({src})"
        return f"{{_k{depth}: {_decode(args[1], v, depth + 1)} for _k{depth}, {v} in {src}.items()}}"
    if tp in RECORD_TYPES:
        return f"{tp.__name__}({', '.join(_decode(m.type, f'{src}.{m.name}', depth) for m in members(tp))})"
    raise TypeError(f"no record form for a field of type {tp!r}")


def _compile(name: str, expression: str) -> Callable[[Any], Any]:
    """A function ``name(x)`` returning ``expression``: the field list, unrolled into the code
    one would write by hand (as :mod:`dataclasses` does), so it costs no more than that code."""
    source = f"def {name}(x):\n    return {expression}\n"
    namespace: dict[str, Any] = {cls.__name__: cls for cls in RECORD_TYPES}
    exec(compile(source, f"<physgen.variant {name}>", "exec"), namespace)
    function: Callable[[Any], Any] = namespace[name]
    return function


class _Factory:
    """The default of a field with a default factory, in a :func:`fast_init` signature."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def fast_init(cls: type) -> None:
    """Give a frozen, slotted dataclass an ``__init__`` that sets each slot through its
    descriptor: the same arguments, defaults and default factories as the one
    :mod:`dataclasses` writes, which calls ``object.__setattr__`` per field (the frozen
    way) and costs about twice as much (a variant is made per paraphrase and format in bulk
    generation). The class stays frozen: assigning a field still raises.

    >>> m = Metadata("optics", (), 1, "numerical", 1, 0, 7)
    >>> m.index, m == Metadata("optics", (), 1, "numerical", 1, 0, index=7)
    (7, True)
    """
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {"_new_missing": _FACTORY}
    params, body = [], []
    for f in fields:
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        value = f.name
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_new_missing")
            value = f"_factory_{f.name}() if {f.name} is _new_missing else {f.name}"
        else:
            params.append(f.name)
        body.append(f"    _set_{f.name}(self, {value})\n")
    source = f"def __init__(self, {', '.join(params)}):\n{''.join(body)}"
    exec(compile(source, f"<physgen.variant {cls.__name__}.__init__>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    type.__setattr__(cls, "__init__", init)


fast_init(Metadata)
fast_init(Variant)


@functools.cache
def json_encoder(cls: type, lists: bool = False) -> Callable[[Any], Any]:
    """A function giving the JSON form of a record (:data:`RECORD_TYPES`); with ``lists``, every
    ``dict[str, X]`` field becomes a list of ``{"name": key, <X's fields>}`` objects (or
    ``{"name": key, "value": X}``): the form of the typed columns in :mod:`physgen.export`.

    >>> v = Answer(2.5, "m", "2.50 m", 3)
    >>> json_encoder(Variant, lists=True)  # doctest: +ELLIPSIS
    <function variant_to_columns at ...>
    >>> json_encoder(Answer)(v)
    {'value': 2.5, 'unit': 'm', 'text': '2.50 m', 'sig_figs': 3, 'expr': None}
    """
    name = f"{cls.__name__.lower()}_{'to_columns' if lists else 'to_dict'}"
    return _compile(name, _encode(cls, "x", lists=lists))


@functools.cache
def _decoder(cls: type) -> Callable[[Any], Any]:
    return _compile(f"{cls.__name__.lower()}_from_record", _decode(cls, "x"))


@functools.cache
def _graded() -> Callable[[Variant], dict[str, Any]]:
    """A function giving the graded fields of a variant and of its metadata, as JSON values."""
    items = [f"{m.name!r}: {_encode(m.type, 'x.' + m.name)}" for m in members(Variant) if m.graded]
    items += [f"{m.name!r}: {_encode(m.type, 'x.metadata.' + m.name)}" for m in members(Metadata) if m.graded]
    return _compile("graded_fields", "{" + ", ".join(items) + "}")

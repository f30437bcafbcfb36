"""Write and read variants and graded records: JSONL, typed Parquet and Hugging Face datasets,
streamed and written atomically; and lm-evaluation-harness task folders.

A write goes to a temporary file beside the target and is renamed into place
only when complete, so a crash never leaves a half-written dataset. Files get
the usual permissions (``0o666`` less the umask, so 0644 under the common umask).

>>> import physgen, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "v.jsonl"
>>> write_jsonl(physgen.generate(["optics.thin_lens"], n=2), path)
6
>>> [physgen.Variant.from_dict(d).template_id for d in read_jsonl(path)][:1]
['optics.thin_lens']

Parquet and Hugging Face columns are typed: ``metadata`` is a struct (filter on
``metadata.difficulty`` without parsing anything), and the fields whose keys
differ between templates (``inputs``, ``answers``, ``options``, the code tests'
values) are lists of ``{"name": key, ...}`` structs. ``question``, ``answer``
and ``messages`` (the user prompt, then the worked solution) are added for
fine-tuning:

>>> row = to_row(next(physgen.generate(["optics.thin_lens"], n=1)))
>>> row["metadata"]["difficulty"], [a["name"] for a in row["answers"]]
(2, ['d_i', 'm'])
>>> [m["role"] for m in row["messages"]], row["answer"].splitlines()[0]
(['user', 'assistant'], 'Final answer:')
"""

from __future__ import annotations

import collections
import contextlib
import functools
import json
import os
import re
import secrets
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, get_args, get_origin

from . import __version__
from .errors import InputError, MissingDependencyError, OutputError
from .jsonl import line, read_numbered, variant_line
from .variant import RECORD_TYPES, Variant, json_encoder, members, optional_of

if TYPE_CHECKING:
    import pyarrow
    from datasets import Dataset, DatasetDict

    from .catalog import Catalog

#: Appended to prompts by the inspect_ai task so that answers come in a form the grader reads first.

#: The columns added to a variant's fields in Parquet and datasets, with what they hold.
EXTRA_COLUMNS = {
    "question": "the prompt, as the model sees it (the same text as `prompt`)",
    "answer": "the final answer in the format's documented layout "
              "(`physgen.formats.get_format(format).reference(variant)`)",
    "messages": "chat turns for fine-tuning: the user prompt, then the assistant's worked solution "
                "(the rendered steps, when the prompt shows every given they use, then `answer`)",
}


# -- files ----------------------------------------------------------------------------------------
@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; rename it to ``path`` only if the block succeeds.

    The file is created with mode ``0o666`` less the umask, like any other new file. A folder
    that does not exist is not created: :class:`~physgen.errors.OutputError` names it (see
    :func:`check_output`), as it names ``path``, never the temporary file, when the folder is
    read-only.
    """
    target = Path(path)
    check_output(target)
    while True:
        tmp = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:  # pragma: no cover - a 32-bit name collision
            continue
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        if "b" in mode:
            with os.fdopen(fd, mode) as fh:
                yield fh
        else:
            with os.fdopen(fd, mode, encoding="utf-8", newline="\n") as fh:
                yield fh
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_output(path: str | Path) -> None:
    """Raise :class:`~physgen.errors.OutputError` when ``path`` cannot be written: its folder is
    missing (it is not created) or read-only, or ``path`` is a folder.

    >>> check_output("/no/such/folder/out.jsonl")
    Traceback (most recent call last):
    ...
    physgen.errors.OutputError: cannot write /no/such/folder/out.jsonl: the folder /no/such/folder \
does not exist; create it first (mkdir -p /no/such/folder)
    """
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist; create it first"
        raise OutputError(f"cannot write {path}: the folder {folder} {why}"
                          + (f" (mkdir -p {folder})" if not folder.exists() else ""))
    if target.is_dir():
        raise OutputError(f"cannot write {path}: it is a folder; give a file name")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"cannot write {path}: the folder {folder} is read-only for you")


def target_text(variant: Variant) -> str:
    """What a harness shows as the reference: the option letter, or ``name = value`` per answer."""
    return variant.answer_key or "; ".join(f"{k} = {a.text}" for k, a in variant.answers.items())


def write_jsonl(items: Iterable[Variant | dict[str, Any]], path: str | Path,
                progress: Callable[[int], None] | None = None) -> int:
    """Stream variants or records to a JSONL file atomically; returns how many were written.

    Lines are what ``json.dumps(item, ensure_ascii=False, separators=(",", ":"))``
    gives, made faster by orjson when installed (:mod:`physgen.jsonl`).
    """
    return write_blocks((variant_line(item) if isinstance(item, Variant) else line(item)
                         for item in items), path, progress)


def write_blocks(blocks: Iterable[bytes], path: str | Path,
                 progress: Callable[[int], None] | None = None) -> int:
    """Write blocks of encoded JSONL lines atomically (e.g. from
    :func:`physgen.generation.generate_jsonl`); returns how many lines were written.
    ``progress`` is called with the running count."""
    count = 0
    with atomic_open(path, "wb") as fh:
        for block in blocks:
            fh.write(block)
            count += block.count(b"\n")
            if progress is not None:
                progress(count)
    return count


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL file, one dict per non-empty line; a bad line is a
    :class:`~physgen.errors.RowError` naming ``file:line`` (see :func:`physgen.jsonl.parse_row`)."""
    return (row for _, row in read_numbered(path))


# -- typed columns --------------------------------------------------------------------------------
def require_pyarrow() -> Any:
    """The ``pyarrow`` module; :class:`~physgen.errors.MissingDependencyError` with the
    ``pip install`` command when it is not installed."""
    try:
        import pyarrow as pa
    except ImportError:
        raise MissingDependencyError('Parquet files and datasets need pyarrow: '
                                     'pip install "physgen[parquet]"') from None
    return pa


def _arrow_type(tp: Any) -> Any:
    """The Arrow type of a field type of :class:`Variant` (see the module docstring)."""
    pa = require_pyarrow()
    inner = optional_of(tp)
    if inner is not None:
        return _arrow_type(inner)
    scalars = {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_()}
    if tp in scalars:
        return scalars[tp]
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple:
        return pa.list_(_arrow_type(args[0]))
    if origin is dict:  # keys differ between templates: a list of structs named by their key
        value = args[1]
        rest = ([(m.name, _arrow_type(m.type)) for m in members(value)] if value in RECORD_TYPES
                else [("value", _arrow_type(value))])
        return pa.list_(pa.struct([("name", pa.string()), *rest]))
    if tp in RECORD_TYPES:
        return pa.struct([(m.name, _arrow_type(m.type)) for m in members(tp)])
    raise TypeError(f"no Arrow type for {tp!r}")


@functools.cache
def arrow_schema() -> pyarrow.Schema:
    """The ``pyarrow.Schema`` of Parquet files and datasets: every field of :class:`Variant`
    (typed from its declaration), then :data:`EXTRA_COLUMNS`. Field descriptions are
    kept as field metadata (``b"description"``).

    >>> arrow_schema().field("metadata").type.field("difficulty").type
    DataType(int64)
    """
    pa = require_pyarrow()
    fields = [pa.field(m.name, _arrow_type(m.type), metadata={"description": m.doc})
              for m in members(Variant)]
    extra_types = {"question": pa.string(), "answer": pa.string(),
                   "messages": pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))}
    fields += [pa.field(name, extra_types[name], metadata={"description": doc})
               for name, doc in EXTRA_COLUMNS.items()]
    return pa.schema(fields)


def solution(variant: Variant, final: str | None = None) -> str:
    """The assistant's turn in ``messages``: the worked steps, then the final answer in the
    format's documented layout (``final``, computed when not given). The steps are left out
    when the prompt does not show every given they use (an omitted-data probe, symbolic
    options), so they never leak a value.

    >>> import physgen
    >>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, formats=["mc_numerical"]))
    >>> print(solution(v))  # doctest: +NORMALIZE_WHITESPACE
    For small angles the restoring torque gives simple harmonic motion with ω = √(g/L), L = 2.73 m.
    T = 2π √(L/g) = 3.31 s.
    <BLANKLINE>
    Final answer: D
    >>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, formats=["omitted"]))
    >>> "2.73" in solution(v), physgen.grade(v, solution(v)).correct
    (False, True)
    """
    if final is None:
        from .formats import get_format

        final = get_format(variant.format).reference(variant)
    shows_givens = not variant.unanswerable and all(q.text in variant.prompt for q in variant.inputs.values())
    if shows_givens and variant.steps:
        return "\n".join(variant.steps) + "\n\n" + final
    return final


def to_row(variant: Variant) -> dict[str, Any]:
    """A variant as a row of :func:`arrow_schema` (typed values; see the module docstring)."""
    from .formats import get_format

    row: dict[str, Any] = json_encoder(Variant, lists=True)(variant)
    answer = get_format(variant.format).reference(variant)
    row["question"] = variant.prompt
    row["answer"] = answer
    row["messages"] = [{"role": "user", "content": variant.prompt},
                       {"role": "assistant", "content": solution(variant, answer)}]
    return row


def _from_columns(tp: Any, value: Any) -> Any:
    """The JSON form (``Variant.to_dict``) of one typed column value."""
    if value is None or optional_of(tp) is not None:
        return value
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple:
        return [_from_columns(args[0], x) for x in value]
    if origin is dict:
        if args[1] in RECORD_TYPES:
            return {item["name"]: _from_columns(args[1], item) for item in value}
        return {item["name"]: _from_columns(args[1], item["value"]) for item in value}
    if tp in RECORD_TYPES:
        return {m.name: _from_columns(m.type, value[m.name]) for m in members(tp)}
    return value


def from_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A typed row (from Parquet or a dataset) back in :meth:`Variant.to_dict` form; the
    columns of :data:`EXTRA_COLUMNS` are dropped. ``Variant.from_dict(from_row(row))``
    gives the variant again."""
    return {m.name: _from_columns(m.type, row[m.name]) for m in members(Variant)}


def write_parquet(items: Iterable[Variant | dict[str, Any]], path: str | Path, batch_size: int = 10_000,
                  progress: Callable[[int], None] | None = None) -> int:
    """Stream variants (or their ``to_dict`` form) to a typed Parquet file (needs the ``parquet``
    extra), ``batch_size`` rows at a time; returns how many were written. ``progress`` is
    called with the running count after each batch."""
    pa = require_pyarrow()
    import pyarrow.parquet as pq

    schema = arrow_schema()
    count = 0
    with atomic_open(path, "wb") as fh, pq.ParquetWriter(fh, schema) as writer:
        batch: list[dict[str, Any]] = []
        for item in items:
            batch.append(to_row(item if isinstance(item, Variant) else Variant.from_dict(item)))
            if len(batch) >= batch_size:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                count += len(batch)
                batch.clear()
                if progress is not None:
                    progress(count)
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            count += len(batch)
    if progress is not None:
        progress(count)
    return count


def read_parquet(path: str | Path, batch_size: int = 10_000) -> Iterator[dict[str, Any]]:
    """Rows written by :func:`write_parquet`, streamed, in :meth:`Variant.to_dict` form."""
    require_pyarrow()
    import pyarrow.parquet as pq

    for batch in pq.ParquetFile(path).iter_batches(batch_size=batch_size):
        for row in batch.to_pylist():
            yield from_row(row)


# -- Hugging Face datasets ------------------------------------------------------------------------
@dataclass
class _Census:
    """What a split holds, counted while its rows stream past (for the dataset card)."""

    rows: int = 0
    templates: collections.Counter[str] = field(default_factory=collections.Counter)
    formats: collections.Counter[str] = field(default_factory=collections.Counter)
    domains: collections.Counter[str] = field(default_factory=collections.Counter)
    difficulty: collections.Counter[int] = field(default_factory=collections.Counter)
    seeds: set[int] = field(default_factory=set)
    paraphrases: set[int] = field(default_factory=set)
    instances: dict[str, int] = field(default_factory=dict)  # template -> highest index + 1

    def watch(self, items: Iterable[Variant | dict[str, Any]]) -> Iterator[Variant]:
        for item in items:
            v = item if isinstance(item, Variant) else Variant.from_dict(item)
            m = v.metadata
            self.rows += 1
            self.templates[v.template_id] += 1
            self.formats[v.format] += 1
            self.domains[m.domain] += 1
            self.difficulty[m.difficulty] += 1
            self.seeds.add(m.seed)
            self.paraphrases.add(v.paraphrase)
            self.instances[v.template_id] = max(self.instances.get(v.template_id, 0), m.index + 1)
            yield v


def to_hf_dataset(train: Iterable[Variant | dict[str, Any]],
                  test: Iterable[Variant | dict[str, Any]] | None = None, *,
                  parameters: Mapping[str, Any] | None = None, catalog: Catalog | None = None,
                  license: str | None = None) -> Dataset | DatasetDict:
    """A Hugging Face ``datasets.Dataset`` (or a ``DatasetDict`` with ``train`` and ``test``
    when ``test`` is given), with the typed columns of :func:`arrow_schema` and a dataset
    card (needs the ``datasets`` extra).

    Rows stream through a temporary Parquet file into ``datasets``' memory-mapped
    cache, so memory stays flat however many variants there are. The card (each
    split's ``info.description``; :func:`push_to_hub` uploads it as the README) lists
    the fields, the licence of the templates used (from their ``source``, or
    ``license``) and the generation parameters found in the rows, plus ``parameters``
    (e.g. ``{"n": 100, "style": "unicode"}``). ``catalog`` (default: the built-in
    one) is where the templates' sources and the catalog digest come from.
    """
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_hf_dataset needs datasets: pip install 'physgen[datasets]'") from exc
    features = datasets.Features.from_arrow_schema(arrow_schema())
    splits = {"train": train} if test is None else {"train": train, "test": test}
    built: dict[str, Any] = {}
    census: dict[str, _Census] = {}
    for name, items in splits.items():
        census[name] = _Census()
        with tempfile.TemporaryDirectory(prefix="physgen-hf-") as tmp:
            path = Path(tmp) / f"{name}.parquet"
            if write_parquet(census[name].watch(items), path):
                built[name] = datasets.Dataset.from_parquet(str(path), features=features, split=name)
            else:  # datasets reads no split from an empty file
                built[name] = datasets.Dataset(arrow_schema().empty_table(), split=name)
    if catalog is None:
        from .catalog import load_catalog

        catalog = load_catalog(lazy=True)
    card, licence = dataset_card(census, catalog, parameters or {}, license)
    for ds in built.values():
        ds.info.description = card
        ds.info.license = licence
    return built["train"] if test is None else datasets.DatasetDict(built)


def push_to_hub(dataset: Dataset | DatasetDict, repo_id: str, **kwargs: Any) -> None:
    """Upload a dataset made by :func:`to_hf_dataset` with its card as the README.

    The card is uploaded first, so that ``push_to_hub`` then adds its own metadata
    (features, split sizes) to it instead of writing a bare README. ``kwargs`` go to
    ``datasets``' ``push_to_hub`` (``private``, ``token``, ...).
    """
    from huggingface_hub import DatasetCard, HfApi

    first = dataset if not hasattr(dataset, "values") else next(iter(dataset.values()))
    HfApi(token=kwargs.get("token")).create_repo(repo_id, repo_type="dataset", exist_ok=True,
                                                 private=kwargs.get("private"))
    DatasetCard(first.info.description).push_to_hub(repo_id, token=kwargs.get("token"))
    dataset.push_to_hub(repo_id, **kwargs)


_LICENCE = re.compile(r"\b(CC0(?:-1\.0)?|CC[ -]BY(?:[ -]SA)?[ -]\d\.\d|MIT|Apache[ -]2\.0)\b", re.I)


def _licence_id(text: str) -> str:
    """A Hub licence id for a licence named in a template's ``source``."""
    text = text.lower().replace(" ", "-")
    return "cc0-1.0" if text.startswith("cc0") else text


def _size_category(rows: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
              (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M")]
    return next((label for bound, label in bounds if rows < bound), "n>100M")


def _counts(counter: Mapping[Any, int]) -> str:
    return ", ".join(f"{k} ({v:,})" for k, v in sorted(counter.items(), key=lambda kv: str(kv[0])))


def _table(header: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> str:
    def cell(x: Any) -> str:
        return str(x).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def dataset_card(census: Mapping[str, _Census], catalog: Catalog, parameters: Mapping[str, Any],
                 license: str | None = None) -> tuple[str, str]:
    """The README of a dataset (Hub metadata, splits, generation parameters, contents,
    fields, licence) and its licence id."""
    templates = sorted({t for c in census.values() for t in c.templates})
    specs = {s.id: s for s in catalog.specs()}
    missing = "(not in the catalog)"
    sources = collections.Counter(specs[t].source if t in specs else missing for t in templates)
    named = {frozenset(_licence_id(m) for m in _LICENCE.findall(specs[t].source)) if t in specs
             else frozenset() for t in templates}  # the licences each template's source names
    only = next(iter(named)) if len(named) == 1 else frozenset()
    licence = license or (next(iter(only)) if len(only) == 1 else "other")
    total = sum(c.rows for c in census.values())
    every = _Census()
    for c in census.values():
        for part in ("templates", "formats", "domains", "difficulty"):
            getattr(every, part).update(getattr(c, part))
        every.seeds |= c.seeds
        every.paraphrases |= c.paraphrases
        for t, k in c.instances.items():
            every.instances[t] = max(every.instances.get(t, 0), k)
    shared = set.intersection(*(set(c.templates) for c in census.values())) if len(census) > 1 else set()
    front = "\n".join([
        "---", f"license: {licence}", "pretty_name: physgen physics problems", "language:", "- en",
        "task_categories:", "- question-answering", "- text-generation",
        "tags:", "- physics", "- synthetic", "- physgen",
        "size_categories:", f"- {_size_category(total)}", "---",
    ])
    in_catalog = all(t in specs for t in templates)
    generation = [
        ("physgen version", __version__),
        ("catalog digest", f"{catalog.digest()} (of its {len(catalog):,} templates)" if in_catalog
         else "(some templates are not in the catalog)"),
        ("templates", f"{len(templates):,}"),
        ("seeds", ", ".join(str(s) for s in sorted(every.seeds))),
        ("formats", _counts(every.formats)),
        ("paraphrases", ", ".join(str(p) for p in sorted(every.paraphrases))),
        ("instances per template", _range(every.instances.values())),
        *((str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in parameters.items()),
    ]
    schema = arrow_schema()
    fields = [(f"`{f.name}`", f"`{f.type}`", (f.metadata or {}).get(b"description", b"").decode())
              for f in schema]
    split_note = ("No template is in more than one split." if len(census) > 1 and not shared else
                  f"{len(shared)} template(s) are in more than one split." if shared else "")
    licence_lines = "\n".join(f"* {n} template(s): {s}" for s, n in sorted(sources.items()))
    return "\n\n".join([
        front,
        "# physgen physics problems",
        f"Physics problems generated by physgen {__version__} from "
        f"{len(templates):,} templates. Each row is one *variant*: a prompt, its exact, unit-aware "
        "answers and worked solution steps. Grade a reply with `physgen.grade(variant, reply)` "
        "(1 % relative tolerance, units converted), where "
        "`variant = physgen.Variant.from_dict(physgen.export.from_row(row))`.",
        "## Splits",
        _table(("split", "rows", "templates"),
               ((name, f"{c.rows:,}", f"{len(c.templates):,}") for name, c in census.items())),
        split_note,
        "## Generation parameters",
        _table(("parameter", "value"), generation),
        "## Contents",
        _table(("domain", "rows"), sorted(every.domains.items())),
        _table(("difficulty", "rows"), sorted(every.difficulty.items())),
        "## Fields",
        _table(("column", "type", "description"), fields),
        "`metadata` is a struct, so "
        "`ds.filter(lambda m: m[\"difficulty\"] >= 3, input_columns=\"metadata\")` needs no parsing. "
        "`inputs`, `answers`, `options` and the code tests' `inputs` and `expected` "
        "are lists of `{name, ...}` structs because their keys differ between templates; "
        "`{a[\"name\"]: a for a in row[\"answers\"]}` gives a dict again. `messages` is ready for "
        "chat fine-tuning (`trl`'s `SFTTrainer` reads it as is).",
        "## Licence",
        f"`{licence}`, from the `source` field of the templates used:\n\n{licence_lines}",
    ]).replace("\n\n\n", "\n\n") + "\n", licence


def _range(values: Iterable[int]) -> str:
    values = list(values)
    if not values:
        return "0"
    lo, hi = min(values), max(values)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


# -- lm-evaluation-harness ------------------------------------------------------------------------
_LM_EVAL_UTILS = '''"""physgen scoring for lm-evaluation-harness (from physgen.export.write_lm_eval_task).

The data files are found next to this file, so the folder can be moved or copied.
"""
import json
from pathlib import Path

import datasets

import physgen

HERE = Path(__file__).resolve().parent


def load(data_file, **kwargs):
    """The test split of one subtask, read from its JSONL file in this folder."""
    return datasets.DatasetDict({"test": datasets.Dataset.from_json(str(HERE / data_file))})


def process_results(doc, results):
    variant = physgen.Variant.from_dict(json.loads(doc["variant"]))
    grade = physgen.grade(variant, results[0])
    return {"physgen_correct": float(grade.correct), "physgen_score": grade.score}
'''

_METRICS = ("physgen_correct", "physgen_score")


def write_lm_eval_task(variants: Iterable[Variant], folder: str | Path, name: str = "physgen") -> Path:
    """An lm-evaluation-harness task folder: a group ``<name>`` with one subtask per format
    (``<name>_free_form``, ``<name>_mc_numerical``, ...), their data as JSONL, and ``utils.py``.

    Paths inside are relative to the folder, so it can be moved or copied. Run it with::

        lm_eval --model hf --model_args pretrained=<model> --include_path <folder> --tasks <name>

    The metrics ``physgen_correct`` and ``physgen_score`` come from :func:`physgen.grade`;
    the group's are averaged over all rows (weighted by subtask size). Returns the
    group's YAML path.
    """
    import yaml

    out = Path(folder)
    if not out.exists():
        check_output(out)  # the folder it goes in exists and is writable
        out.mkdir()
    files: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        for v in variants:
            if v.format not in files:
                files[v.format] = stack.enter_context(atomic_open(out / f"{name}_{v.format}.jsonl", "wb"))
            files[v.format].write(line({"prompt": v.prompt, "variant_id": v.variant_id,
                                        "target": target_text(v), "variant": v.to_json()}))
    if not files:
        raise InputError("write_lm_eval_task needs at least one variant; check the generate() "
                         "arguments that made them")
    metrics = [{"metric": m, "aggregation": "mean", "higher_is_better": True} for m in _METRICS]
    for fmt in files:
        config = {
            "task": f"{name}_{fmt}",
            "custom_dataset": "!function utils.load",
            "dataset_kwargs": {"data_file": f"{name}_{fmt}.jsonl"},
            "test_split": "test",
            "output_type": "generate_until",
            "doc_to_text": "{{prompt}}",
            "doc_to_target": "{{target}}",
            "generation_kwargs": {"until": ["\n\n\n"], "max_gen_toks": 1024, "do_sample": False},
            "process_results": "!function utils.process_results",
            "metric_list": metrics,
            "metadata": {"version": 1.0},
        }
        _write_yaml(out / f"{name}_{fmt}.yaml", yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    group = {
        "group": name,
        "task": [f"{name}_{fmt}" for fmt in files],
        "aggregate_metric_list": [{"metric": m, "aggregation": "mean", "weight_by_size": True}
                                  for m in _METRICS],
        "metadata": {"version": 1.0},
    }
    with atomic_open(out / "utils.py") as fh:
        fh.write(_LM_EVAL_UTILS)
    path = out / f"{name}.yaml"
    _write_yaml(path, yaml.safe_dump(group, sort_keys=False))
    return path


def _write_yaml(path: Path, text: str) -> None:
    """Write a task YAML, turning the quoted ``'!function ...'`` values into YAML tags."""
    with atomic_open(path) as fh:
        fh.write(re.sub(r"'(!function [\w.]+)'", r"\1", text))

"""Write and read variants and graded records: JSONL and Parquet, streamed, written atomically.

A write goes to a temporary file beside the target and is renamed into place
only when complete, so a crash never leaves a half-written dataset.

>>> import physgen, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "v.jsonl"
>>> write_jsonl(physgen.generate(["optics.thin_lens"], n=2), path)
6
>>> [physgen.Variant.from_dict(d).template_id for d in read_jsonl(path)][:1]
['optics.thin_lens']
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .jsonl import line, variant_line
from .variant import Variant

#: Variant fields stored as JSON text in Parquet (their keys differ between templates).
NESTED = ("inputs", "answers", "steps", "metadata", "options", "code_tests")


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; rename it to ``path`` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        if "b" in mode:
            with os.fdopen(fd, mode) as fh:
                yield fh
        else:
            with os.fdopen(fd, mode, encoding="utf-8", newline="\n") as fh:
                yield fh
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _as_dict(item: Variant | dict[str, Any]) -> dict[str, Any]:
    return item.to_dict() if isinstance(item, Variant) else item


def _flat(item: Variant | dict[str, Any]) -> dict[str, Any]:
    """A row with its nested fields as JSON text (Parquet and datasets columns)."""
    return {k: json.dumps(v, ensure_ascii=False) if k in NESTED else v for k, v in _as_dict(item).items()}


#: Appended to prompts by the harness tasks so that answers come in a form the grader reads first.
INSTRUCTION = "\n\nEnd your reply with a line 'Final Answer: ...'."


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
    :func:`physgen.generation.generate_jsonl`); returns how many lines were written."""
    count = reported = 0
    with atomic_open(path, "wb") as fh:
        for block in blocks:
            fh.write(block)
            count += block.count(b"\n")
            if progress is not None and count - reported >= 1000:
                progress(count)
                reported = count
    if progress is not None:
        progress(count)
    return count


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL file, one dict per non-empty line; a bad line names its number."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not valid JSON ({exc.msg})") from None


def write_parquet(items: Iterable[Variant | dict[str, Any]], path: str | Path,
                  batch_size: int = 10_000) -> int:
    """Stream variants or records to Parquet (needs the ``parquet`` extra); nested fields as JSON text."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("write_parquet needs pyarrow: pip install 'physgen[parquet]'") from exc
    count = 0
    writer = None
    with atomic_open(path, "wb") as fh:
        batch: list[dict[str, Any]] = []

        def flush() -> None:
            nonlocal writer
            table = pa.Table.from_pylist(batch)
            if writer is None:
                writer = pq.ParquetWriter(fh, table.schema)
            writer.write_table(table.cast(writer.schema))
            batch.clear()

        for item in items:
            batch.append(_flat(item))
            count += 1
            if len(batch) >= batch_size:
                flush()
        if batch:
            flush()
        if writer is not None:
            writer.close()
    return count


def read_parquet(path: str | Path) -> Iterator[dict[str, Any]]:
    """Rows written by :func:`write_parquet`, nested fields decoded again."""
    import pyarrow.parquet as pq

    for row in pq.read_table(path).to_pylist():
        yield from_hf_row(row)


def to_hf_dataset(train: Iterable[Variant | dict[str, Any]],
                  test: Iterable[Variant | dict[str, Any]] | None = None) -> Any:
    """A Hugging Face ``datasets.Dataset`` (or ``DatasetDict`` with train/test when ``test``
    is given; needs the ``datasets`` extra). Rows stream to a temporary JSONL file
    that ``datasets`` turns into its memory-mapped Arrow cache, so memory stays
    flat however many variants there are; nested fields are JSON text, as in Parquet.
    """
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_hf_dataset needs datasets: pip install 'physgen[datasets]'") from exc

    def build(items: Iterable[Variant | dict[str, Any]]) -> Any:
        rows = (_flat(item) for item in items)
        with tempfile.TemporaryDirectory(prefix="physgen-hf-") as tmp:
            path = Path(tmp) / "rows.jsonl"
            if write_jsonl(rows, path) == 0:
                return datasets.Dataset.from_list([])
            return datasets.Dataset.from_json(str(path), split="train")

    if test is None:
        return build(train)
    return datasets.DatasetDict({"train": build(train), "test": build(test)})


def from_hf_row(row: dict[str, Any]) -> dict[str, Any]:
    """Undo the JSON text of nested fields in a row read back from a dataset or Parquet."""
    return {k: json.loads(v) if k in NESTED and isinstance(v, str) else v for k, v in row.items()}


_LM_EVAL_UTILS = '''"""physgen scoring for lm-evaluation-harness (from physgen.export.write_lm_eval_task)."""
import json

import physgen


def process_results(doc, results):
    variant = physgen.Variant.from_dict(json.loads(doc["variant"]))
    grade = physgen.grade(variant, results[0])
    return {"physgen_correct": float(grade.correct), "physgen_score": grade.score}
'''


def write_lm_eval_task(variants: Iterable[Variant], folder: str | Path, name: str = "physgen") -> Path:
    """An lm-evaluation-harness task folder: ``<name>.yaml``, ``utils.py`` and the data as JSONL.

    Run it with ``lm_eval --model ... --include_path <folder> --tasks <name>``; the
    metrics ``physgen_correct`` and ``physgen_score`` come from :func:`physgen.grade`.
    Returns the YAML path.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    data = out / f"{name}_test.jsonl"
    rows = ({"prompt": v.prompt, "variant_id": v.variant_id,
             "target": target_text(v),
             "variant": json.dumps(v.to_dict(), ensure_ascii=False)} for v in variants)
    write_jsonl(rows, data)
    config = {
        "task": name,
        "dataset_path": "json",
        "dataset_kwargs": {"data_files": {"test": str(data.resolve())}},
        "test_split": "test",
        "output_type": "generate_until",
        "doc_to_text": "{{prompt}}" + INSTRUCTION,
        "doc_to_target": "{{target}}",
        "generation_kwargs": {"until": ["\n\n\n"], "max_gen_toks": 1024, "do_sample": False},
        "process_results": "!function utils.process_results",
        "metric_list": [
            {"metric": "physgen_correct", "aggregation": "mean", "higher_is_better": True},
            {"metric": "physgen_score", "aggregation": "mean", "higher_is_better": True},
        ],
        "metadata": {"version": 1.0},
    }
    import yaml

    text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=1000)
    text = text.replace("'!function utils.process_results'", "!function utils.process_results")
    with atomic_open(out / "utils.py") as fh:
        fh.write(_LM_EVAL_UTILS)
    path = out / f"{name}.yaml"
    with atomic_open(path) as fh:
        fh.write(text)
    return path

"""Scale out on an engine you already run (Ray Data, Spark, a job array): physgen's two batch
jobs, generating and grading, cut into pieces that run anywhere and join back byte for byte.

Instance ``k`` of a template depends only on ``(seed, template id, k)``
(:mod:`physgen.sampling`), so ``generate(source, n)`` splits into index ranges that
need nothing from each other. :func:`pieces` lists them, at most ``size`` instances of
one template each, in the order :func:`~physgen.generate` writes; :func:`generate_piece`
makes one; their JSONL joined in piece order is the single-process file, byte for byte.
Grading is row by row: :func:`grade_row` is the record ``physgen grade`` writes for one
response row, :func:`grade_lines` the same for a batch of JSONL lines.

>>> import physgen
>>> work = pieces(["optics.thin_lens", "mechanics.projectile_range"], n=5, size=2)
>>> [(p["template"], p["start"], p["n"]) for p in work]  # doctest: +NORMALIZE_WHITESPACE
[('optics.thin_lens', 0, 2), ('optics.thin_lens', 2, 2), ('optics.thin_lens', 4, 1),
 ('mechanics.projectile_range', 0, 2), ('mechanics.projectile_range', 2, 2),
 ('mechanics.projectile_range', 4, 1)]
>>> made = [generate_piece(p, seed=3) for p in reversed(work)]             # in any order, anywhere
>>> joined = b"".join(m["jsonl"] for m in sorted(made, key=lambda m: m["piece"]))
>>> whole = b"".join(physgen.generation.generate_jsonl(["optics.thin_lens", "mechanics.projectile_range"],
...                                                    n=5, seed=3))
>>> joined == whole
True

The README's "Scaling out" section runs the same on Ray Data; on Spark, pieces are
``sc.parallelize(work, len(work)).map(...)`` and grading is ``mapPartitions`` over the
lines of the responses file (see docs/design.md).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

from .catalog import Catalog, load_catalog
from .errors import ArgumentError, RowError
from .generation import FREE_FORM, Paraphrases, Source, _stop, generate_jsonl, resolve_templates
from .reading.compare import RTOL
from .render import Notation
from .units import Style


class Piece(TypedDict):
    """Instances ``start … start+n-1`` of one template; ``piece`` is its place in the output."""

    piece: int
    template: str
    start: int
    n: int


def pieces(source: Source, n: int, *, start: int = 0, size: int = 1000) -> list[Piece]:
    """The work of ``generate(source, n, start=start)`` as pieces of at most ``size`` instances
    of one template, in the order ``generate`` writes them (an algebraic template has one).

    ``generate(..., unique=True)`` does not split (it drops repeats across the whole range),
    so there is no such option here.
    """
    if n < 0 or start < 0 or size < 1:
        raise ArgumentError(f"need n ≥ 0, start ≥ 0, size ≥ 1 (got {n}, {start}, {size})")
    out: list[Piece] = []
    for t in resolve_templates(source):
        stop = _stop(t, start, n)
        for lo in range(start, stop, size):
            out.append(Piece(piece=len(out), template=t.id, start=lo, n=min(size, stop - lo)))
    return out


@functools.cache
def _loaded(path: str | None) -> Catalog:
    return load_catalog(path)


def generate_piece(piece: Mapping[str, Any], *, catalog: Catalog | str | Path | None = None, seed: int = 0,
                   formats: Sequence[str] = (FREE_FORM,), paraphrases: Paraphrases = "all",
                   style: Style = "unicode", notation: Notation = "auto",
                   n_options: int = 4) -> dict[str, Any]:
    """One piece's variants as JSONL: ``{"piece": its number, "jsonl": bytes}``.

    The options are :func:`~physgen.generate`'s, the same for every piece of a job.
    ``catalog`` is where the template is looked up by id: the built-in catalog (``None``),
    a folder of template files (loaded once per process) or a :class:`~physgen.Catalog`.
    ``piece`` may come back from an engine with NumPy integers; they are read as ``int``.
    """
    cat = catalog if isinstance(catalog, Catalog) else _loaded(None if catalog is None else str(catalog))
    template = cat[str(piece["template"])]
    blocks = generate_jsonl(template, n=int(piece["n"]), seed=seed, formats=formats, paraphrases=paraphrases,
                            style=style, notation=notation, start=int(piece["start"]), n_options=n_options)
    return {"piece": int(piece["piece"]), "jsonl": b"".join(blocks)}


def grade_row(row: Mapping[str, Any], *, rtol: float = RTOL, where: str = "response row") -> dict[str, Any]:
    """The graded record of one response row (a variant's fields plus ``response``, optional
    ``attempt`` and ``model``): :func:`physgen.metrics.record` with the grade, the prompt and
    the response. ``physgen grade`` writes one per row.

    >>> import physgen
    >>> v = next(physgen.generate(["optics.thin_lens"], n=1))
    >>> rec = grade_row({**v.to_dict(), "response": "no idea", "model": "m"})
    >>> rec["correct"], rec["model"], rec["response"]
    (False, 'm', 'no idea')
    """
    from .grading import grade
    from .metrics import record
    from .rows import response_variant

    if not isinstance(row, Mapping):
        raise RowError(f"{where}: a response row is a JSON object, got {type(row).__name__}")
    variant = response_variant(row, where)
    g = grade(variant, row["response"], rtol=rtol)
    rec = record(variant, g, attempt=int(row.get("attempt", 0)), model=row.get("model"))
    rec.update(grade=g.to_dict(), prompt=variant.prompt, response=row["response"])
    return rec


def grade_lines(lines: Iterable[str | bytes], *, rtol: float = RTOL,
                where: str = "line") -> list[bytes]:
    """:func:`grade_row` for each JSONL line of a responses file, as the JSONL lines that
    ``physgen grade`` writes for them; blank lines are skipped, as there. Each line is parsed
    with the same bounds as the command's (:func:`physgen.jsonl.parse_row`); a malformed one
    raises :class:`~physgen.errors.RowError` naming ``where`` and its number in this batch."""
    from .jsonl import line, parse_row

    out = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        raw = text.encode("utf-8") if isinstance(text, str) else text
        row = parse_row(raw, f"{where} {number}")
        out.append(line(grade_row(row, rtol=rtol, where=f"{where} {number}")))
    return out

"""Stream variants from templates: sample in chunks, render, format.

Memory does not grow with ``n``: instances are drawn ``chunk_size`` at a time.

>>> import physgen
>>> vs = list(physgen.generate(["mechanics.simple_pendulum_period"], n=2, seed=0))
>>> len(vs), vs[0].paraphrase, vs[1].paraphrase
(6, 0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Literal

from .catalog import Catalog, load_catalog
from .formats import Format, FormatContext, get_format
from .instance import Instance, iter_instances
from .render import STYLES, Notation
from .template import Template
from .units import Style
from .variant import Variant

Paraphrases = Literal["all", "random"] | Sequence[int]
Source = Catalog | Template | Iterable[Template | str]


def resolve_templates(source: Source) -> list[Template]:
    """Templates from a Catalog, one Template, or template objects / ids (built-in catalog)."""
    if isinstance(source, Template):
        return [source]
    if isinstance(source, Catalog):  # a Mapping: iterating it would give ids
        return source.templates()
    if isinstance(source, str):
        raise TypeError(f"pass a list of template ids, e.g. [{source!r}], not a bare string")
    items = list(source)
    if not any(isinstance(x, str) for x in items):
        return [x for x in items if isinstance(x, Template)]
    builtin = load_catalog()
    return [builtin[x] if isinstance(x, str) else x for x in items]


def _paraphrase_indices(t: Template, inst: Instance, paraphrases: Paraphrases) -> Sequence[int]:
    if paraphrases == "all":
        return range(len(t.texts))
    if paraphrases == "random":
        return (int(inst.instance_id, 16) % len(t.texts),)
    return paraphrases


def _check_paraphrases(templates: list[Template], paraphrases: Paraphrases) -> None:
    if paraphrases in ("all", "random"):
        return
    if isinstance(paraphrases, str) or not all(isinstance(p, int) for p in paraphrases):
        raise ValueError(f"paraphrases must be 'all', 'random' or a list of indices, got {paraphrases!r}")
    for t in templates:
        bad = [p for p in paraphrases if not 0 <= p < len(t.texts)]
        if bad:
            raise ValueError(f"{t.id} has paraphrases 0..{len(t.texts) - 1}; {bad} do not exist")


def generate(
    source: Source,
    n: int = 1,
    seed: int = 0,
    formats: Sequence[str] = ("free_form",),
    paraphrases: Paraphrases = "all",
    *,
    style: Style = "unicode",
    notation: Notation = "auto",
    start: int = 0,
    chunk_size: int = 512,
    n_options: int = 4,
) -> Iterator[Variant]:
    """Yield variants: for each template, instances ``start … start+n-1`` under ``seed``.

    An algebraic template shows no numbers, so it yields one instance whatever ``n``.
    Each instance gives one variant per chosen paraphrase (``"all"``, one
    ``"random"`` one, or a list of indices) and per format. ``style`` is
    ``"unicode"`` (``m/s²``), ``"latex"`` or ``"ascii"``. ``n_options`` (2–8) is
    the number of choices in multiple-choice formats. A format that does not
    apply to a template (e.g. ``units`` without alternative units) yields nothing
    for it. Arguments are checked before the first variant is produced.
    """
    templates = resolve_templates(source)
    if n < 0 or start < 0 or chunk_size < 1:
        raise ValueError(f"need n ≥ 0, start ≥ 0, chunk_size ≥ 1 (got {n}, {start}, {chunk_size})")
    if style not in STYLES:
        raise ValueError(f"style must be one of {STYLES}, got {style!r}")
    if isinstance(formats, str):
        formats = (formats,)
    builders = [get_format(f) for f in formats]
    if not 2 <= n_options <= 8:
        raise ValueError(f"n_options must be between 2 and 8, got {n_options}")
    _check_paraphrases(templates, paraphrases)
    ctx = FormatContext(style, notation, n_options)
    return _stream(templates, n, seed, builders, paraphrases, ctx, start, chunk_size)


def _stop(t: Template, start: int, n: int) -> int:
    """End of the instance range: ``start + n``, capped at one problem for algebraic templates."""
    return start + n if t.question_type == "numerical" else min(start + n, t.capacity())


def _stream(templates: list[Template], n: int, seed: int, builders: list[Format],
            paraphrases: Paraphrases, ctx: FormatContext, start: int,
            chunk_size: int) -> Iterator[Variant]:
    for t in templates:
        active = [b for b in builders if b.applies(t)]
        if not active:
            continue
        stop = _stop(t, start, n)
        for lo in range(start, stop, chunk_size):
            batch = t.sample(min(chunk_size, stop - lo), seed, lo)
            for inst in iter_instances(batch, ctx.style, ctx.notation):
                for p in _paraphrase_indices(t, inst, paraphrases):
                    for fmt in active:
                        yield from fmt.build(inst, p, ctx)


def count_variants(source: Source, n: int, formats: Sequence[str] = ("free_form",),
                   paraphrases: Paraphrases = "all") -> int:
    """How many variants :func:`generate` yields for these arguments (at most, for the
    multiple-choice formats, which skip a quantity when its options cannot be kept apart)."""
    fmts = [get_format(f) for f in ((formats,) if isinstance(formats, str) else formats)]
    total = 0
    for t in resolve_templates(source):
        k = len(t.texts) if paraphrases == "all" else 1 if paraphrases == "random" else len(paraphrases)
        total += _stop(t, 0, n) * k * sum(f.count(t) for f in fmts)
    return total

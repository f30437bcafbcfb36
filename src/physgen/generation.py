"""Stream variants from templates: sample in chunks, render, format; optionally in worker processes.

Memory does not grow with ``n``: instances are drawn ``chunk_size`` at a time.
With ``workers=N`` the chunks are made by N processes and put back in order, so
the output is the same, variant for variant, as with one.

>>> import physgen
>>> vs = list(physgen.generate(["mechanics.simple_pendulum_period"], n=2, seed=0))
>>> len(vs), vs[0].paraphrase, vs[1].paraphrase
(6, 0, 1)
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

from .catalog import Catalog, load_catalog
from .errors import ArgumentError, CapacityWarning, SourceTypeError
from .instance import Instance, iter_instances
from .render import Notation
from .template import Template
from .units import Style
from .variant import Variant

if TYPE_CHECKING:
    from .formats import Format

Paraphrases = Literal["all", "random"] | Sequence[int]
Source = Catalog | Template | Iterable[Template | str]
R = TypeVar("R")
Task = tuple[int, int, int, tuple[int, ...] | None]  # template number, first instance, how many,
#                                                  and which of them to keep (None: all)

FREE_FORM = "free_form"


def resolve_templates(source: Source) -> list[Template]:
    """Templates from a Catalog, one Template, or template objects / ids (built-in catalog).

    Anything else raises :class:`~physgen.errors.SourceTypeError` (a ``TypeError``),
    and an unknown id :class:`~physgen.errors.UnknownTemplateError` (a ``KeyError``).
    """
    if isinstance(source, Template):
        return [source]
    if isinstance(source, Catalog):  # a Mapping: iterating it would give ids
        return source.templates()
    if isinstance(source, str):
        raise SourceTypeError(f"pass a list of template ids, e.g. [{source!r}], not a bare string")
    if not isinstance(source, Iterable):
        raise SourceTypeError(f"generate from a Catalog, a Template, or a list of templates or template "
                              f"ids, not {type(source).__name__} {source!r:.60}")
    items = list(source)
    for x in items:
        if not isinstance(x, Template | str):
            hint = " (pass the catalog itself: generate(catalog), not generate([catalog]))" \
                if isinstance(x, Catalog) else ""
            raise SourceTypeError(f"a list to generate from holds Templates or template ids, not "
                                  f"{type(x).__name__} {x!r:.60}{hint}")
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
    if isinstance(paraphrases, str) or not isinstance(paraphrases, Iterable) \
            or not all(isinstance(p, int) for p in paraphrases):
        raise ArgumentError(f"paraphrases must be 'all', 'random' or a list of indices, got {paraphrases!r}")
    for t in templates:
        bad = [p for p in paraphrases if not 0 <= p < len(t.texts)]
        if bad:
            raise ArgumentError(f"{t.id} has paraphrases 0..{len(t.texts) - 1}; {bad} do not exist")


def _formats(names: Sequence[str]) -> list[Format]:
    """The registered formats, in order (a clear error for an unknown name)."""
    from .formats import get_format

    return [get_format(name) for name in names]


@dataclass(frozen=True)
class _Plan:
    """Everything needed to make the variants of one chunk; pickled to worker processes."""

    templates: list[Template]
    seed: int
    formats: tuple[str, ...]
    paraphrases: Paraphrases
    style: Style
    notation: Notation
    n_options: int

    def chunk(self, task: Task) -> Iterator[Variant]:
        """The variants of instances ``lo … lo+count-1`` of template number ``k`` (those at
        positions ``rows`` of the chunk, when given)."""
        k, lo, count, rows = task
        t = self.templates[k]
        from .formats import FormatContext

        active = [b for b in _formats(self.formats) if b.applies(t)]
        ctx = FormatContext(self.style, self.notation, self.n_options)
        batch = t.sample(count, self.seed, lo)
        for inst in iter_instances(batch, self.style, self.notation, rows=rows):
            for p in _paraphrase_indices(t, inst, self.paraphrases):
                for builder in active:
                    yield from builder.build(inst, p, ctx)


def generate(
    source: Source,
    n: int = 1,
    seed: int = 0,
    formats: Sequence[str] = (FREE_FORM,),
    paraphrases: Paraphrases = "all",
    *,
    style: Style = "unicode",
    notation: Notation = "auto",
    start: int = 0,
    chunk_size: int = 512,
    n_options: int = 4,
    workers: int = 1,
    unique: bool = False,
) -> Iterator[Variant]:
    """Yield variants: for each template, instances ``start … start+n-1`` under ``seed``.

    An algebraic template shows no numbers, so it yields one instance whatever ``n``.
    Each instance gives one variant per chosen paraphrase (``"all"``, one
    ``"random"`` one, or a list of indices) and per format. ``style`` is
    ``"unicode"`` (``m/s²``), ``"latex"`` or ``"ascii"``. ``n_options`` (2–8) is
    the number of choices in multiple-choice formats. A format that does not
    apply to a template (e.g. ``units`` without alternative units) yields nothing
    for it. ``workers`` > 1 makes chunks of ``chunk_size`` instances in that many
    processes; the variants and their order do not change. Arguments are checked
    before the first variant is produced.

    ``source`` is a :class:`Catalog`, a :class:`Template`, or a list of templates or
    template ids; anything else raises :class:`~physgen.errors.SourceTypeError`.
    A template with fewer different parameter sets than ``n`` (:meth:`Template.capacity`)
    repeats instances, with a :class:`~physgen.errors.CapacityWarning`. ``unique=True``
    keeps only the first instance of each parameter set, drawing further instance
    numbers until ``n`` are found or ``n + max(n, 1000)`` numbers were tried (then it
    warns with how many it found); instance numbers stay those of the draws kept.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     repeated = list(generate(["modern.hydrogen_transition"], n=100, paraphrases=[0]))
    >>> len(repeated), len({v.instance_id for v in repeated}), caught[0].category.__name__
    (100, 12, 'CapacityWarning')
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     distinct = list(generate(["modern.hydrogen_transition"], n=100, paraphrases=[0], unique=True))
    >>> len(distinct), len({v.instance_id for v in distinct})
    (12, 12)
    """
    plan, tasks = _prepare(source, n, seed, formats, paraphrases, style, notation, start, chunk_size,
                           n_options, workers, unique)
    return _run(plan, tasks, workers, _variants)


def generate_jsonl(
    source: Source,
    n: int = 1,
    seed: int = 0,
    formats: Sequence[str] = (FREE_FORM,),
    paraphrases: Paraphrases = "all",
    *,
    style: Style = "unicode",
    notation: Notation = "auto",
    start: int = 0,
    chunk_size: int = 512,
    n_options: int = 4,
    workers: int = 1,
    unique: bool = False,
) -> Iterator[bytes]:
    """:func:`generate`, as blocks of JSONL lines (UTF-8, one block per chunk).

    The lines are ``Variant.to_json()`` of each variant, in order. With
    ``workers`` > 1 the workers also encode, so only bytes come back to this
    process: the fast way to write a file (``physgen generate -j N``).
    """
    plan, tasks = _prepare(source, n, seed, formats, paraphrases, style, notation, start, chunk_size,
                           n_options, workers, unique)
    return _run(plan, tasks, workers, _jsonl)


def _prepare(source: Source, n: int, seed: int, formats: Sequence[str], paraphrases: Paraphrases,
             style: Style, notation: Notation, start: int, chunk_size: int, n_options: int,
             workers: int, unique: bool) -> tuple[_Plan, Iterator[Task]]:
    from .formats import FormatContext

    templates = resolve_templates(source)
    if n < 0 or start < 0 or chunk_size < 1:
        raise ArgumentError(f"need n ≥ 0, start ≥ 0, chunk_size ≥ 1 (got {n}, {start}, {chunk_size})")
    FormatContext(style, notation, n_options)  # bad values fail here, not in a worker
    if isinstance(formats, str):
        formats = (formats,)
    _formats(formats)
    if not isinstance(workers, int) or workers < 1:
        raise ArgumentError(f"workers must be a whole number ≥ 1 (e.g. os.cpu_count()), got {workers!r}")
    _check_paraphrases(templates, paraphrases)
    if not unique:
        _warn_capacity(templates, n)
    tasks = (task for k, t in enumerate(templates)  # lazily: n may be huge
             for task in _tasks(k, t, seed, start, n, chunk_size, unique))
    plan = _Plan(templates, seed, tuple(formats), paraphrases, style, notation, n_options)
    return plan, tasks


def _warn_capacity(templates: list[Template], n: int) -> None:
    """A :class:`CapacityWarning` naming the numerical templates that cannot show ``n``
    different parameter sets."""
    small = [(t.id, t.capacity()) for t in templates if t.question_type == "numerical" and t.capacity() < n]
    if small:
        listed = ", ".join(f"{i} (at most {c})" for i, c in small[:5])
        more = f" and {len(small) - 5} more" if len(small) > 5 else ""
        warnings.warn(CapacityWarning(
            f"n={n} is more than {len(small)} template(s) can show different parameter sets: "
            f"{listed}{more}; their instances repeat (unique=True drops the repeats)"), stacklevel=4)


def _tasks(k: int, t: Template, seed: int, start: int, n: int, chunk_size: int,
           unique: bool) -> Iterator[Task]:
    """The chunks of template number ``k``."""
    stop = _stop(t, start, n)
    if not unique or t.question_type != "numerical":
        for lo in range(start, stop, chunk_size):
            yield (k, lo, min(chunk_size, stop - lo), None)
        return
    seen: set[tuple[float, ...]] = set()  # shown inputs: what the instance id hashes
    lo, limit = start, start + n + max(n, 1000)
    while len(seen) < n and lo < limit:
        count = min(chunk_size, limit - lo)
        shown = t.sample(count, seed, lo).shown
        rows = []
        for row, key in enumerate(zip(*(shown[name].tolist() for name in t.spec.inputs), strict=True)):
            if key not in seen and len(seen) < n:
                seen.add(key)
                rows.append(row)
        if rows:
            yield (k, lo, count, tuple(rows))
        lo += count
    if len(seen) < n:
        warnings.warn(CapacityWarning(
            f"{t.id}: found {len(seen)} different parameter sets in {lo - start} draws, not the {n} "
            f"asked (it can show at most {t.capacity()})"), stacklevel=2)


def _stop(t: Template, start: int, n: int) -> int:
    """End of the instance range: ``start + n``, capped at one problem for algebraic templates."""
    return start + n if t.question_type == "numerical" else min(start + n, t.capacity())


Work = Callable[[_Plan, Task], Iterable[R]]


def _variants(plan: _Plan, task: Task) -> Iterator[Variant]:
    return plan.chunk(task)


def _jsonl(plan: _Plan, task: Task) -> Iterator[bytes]:
    from .jsonl import variant_line

    yield b"".join([variant_line(v) for v in plan.chunk(task)])


# -- running the chunks, here or in worker processes -------------------------------------------
_worker_plan: _Plan | None = None


def _init_worker(plan: _Plan) -> None:
    global _worker_plan
    _worker_plan = plan


def _in_worker(work: Work[R], task: Task) -> list[R]:
    assert _worker_plan is not None
    return list(work(_worker_plan, task))


def _run(plan: _Plan, tasks: Iterator[Task], workers: int, work: Work[R]) -> Iterator[R]:
    if workers == 1:
        for task in tasks:
            yield from work(plan, task)
        return
    # Chunks are made by the workers and yielded in task order, at most two per worker in flight.
    todo = tasks
    with multiprocessing.get_context().Pool(workers, _init_worker, (plan,)) as pool:
        pending = collections.deque(pool.apply_async(_in_worker, (work, task))
                                    for task in itertools.islice(todo, 2 * workers))
        while pending:
            result = pending.popleft().get()
            for task in itertools.islice(todo, 1):
                pending.append(pool.apply_async(_in_worker, (work, task)))
            yield from result


def count_variants(source: Source, n: int, formats: Sequence[str] = (FREE_FORM,),
                   paraphrases: Paraphrases = "all") -> int:
    """How many variants :func:`generate` yields for these arguments (at most, for the
    multiple-choice formats, which skip a quantity when its options cannot be kept apart)."""
    builders = _formats((formats,) if isinstance(formats, str) else formats)
    total = 0
    for t in resolve_templates(source):
        k = len(t.texts) if paraphrases == "all" else 1 if paraphrases == "random" else len(paraphrases)
        per = sum(1 if b is None else b.count(t) for b in builders)
        total += _stop(t, 0, n) * k * per
    return total

"""A procedural training set: ``physgen.dataset(size=..., seed=...)``, random access, in the
shape of reasoning-gym's datasets (``question``, ``answer``, ``metadata``; ``score_answer``).

Item ``i`` is made on demand and alone: a hash of ``(seed, i)`` picks a template
(by the weights), a format, a paraphrase and, for a format that asks one
quantity at a time, which quantity; the problem is instance ``k = i`` of that
template (for an algebraic one, ``k = i`` modulo its number of problems,
:meth:`Template.capacity`). An instance depends only on ``(seed, template, k)``
(:mod:`physgen.sampling`), so ``ds[i]`` never makes items ``0 … i-1``, and the same
seed gives the same items on any machine, in any order, in any shard. (If the chosen format makes nothing for
that instance, the item draws its choices again from a hash of ``(seed, i, attempt)``.)

>>> import physgen
>>> ds = physgen.dataset(size=1000, seed=0, domain="optics", formats=["free_form", "mc_numerical"])
>>> len(ds), ds[7] == ds[7], ds[7]["metadata"]["variant"]["metadata"]["domain"]
(1000, True, 'optics')
>>> entry = ds[7]
>>> ds.score_answer(entry["answer"], entry), ds.score_answer("no idea", entry)
(1.0, 0.0)
>>> [len(ds.shard(rank, 3)) for rank in range(3)]
[334, 333, 333]

Weights mix by domain, difficulty or template, and a :class:`Curriculum`
widens the difficulty range as the item index grows:

>>> mix = physgen.dataset(size=100, weights={"optics": 3, "mechanics": 1})
>>> sorted({e["metadata"]["variant"]["metadata"]["domain"] for e in mix})
['mechanics', 'optics']
>>> easy_first = physgen.dataset(size=400, difficulty=Curriculum(every=100, start=1))
>>> max(e["metadata"]["variant"]["metadata"]["difficulty"] for e in easy_first.shard(0, 4)[:25])
1

``physgen.dataset`` is this module, and calling it calls :func:`dataset`
(so ``from physgen.dataset import Curriculum`` works too).
"""

from __future__ import annotations

import bisect
import collections
import functools
import hashlib
import itertools
import math
import operator
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from .errors import ArgumentError, SamplingError, listing, suggest, unknown
from .generation import Source, resolve_templates
from .instance import Instance, Rows, iter_instances
from .render import Notation
from .template import Template
from .units import Style
from .variant import Variant

if TYPE_CHECKING:
    import datasets

    from .formats import FormatContext

#: ``data_source`` of verl rows, and ``source_dataset`` in each entry's metadata.
DATA_SOURCE = "physgen"
#: Draws per item before giving up when the chosen format makes nothing for the instance.
_ATTEMPTS = 8
#: Items fetched together when the dataset is iterated (:meth:`ProceduralDataset.__getitems__`).
_BLOCK = 64
#: Item indices are instance indices: 64-bit counters (:mod:`physgen.sampling`).
_MAX_SIZE = 2**63
#: Items read in order are looked ahead (:class:`_ReadAhead`) at most this many times the number
#: of templates that can be drawn (and at least :data:`_MIN_AHEAD`), so that about one read in
#: this many draws a template's instances.
_PER_TEMPLATE = 256
_MIN_AHEAD = 4096
#: The read-ahead makes the first draws of this many items at a time.
_AHEAD_BLOCK = 2048
#: A read counts as in order when it comes at most this many items after the previous one.
_NEAR = 1024


@dataclass(frozen=True)
class Curriculum:
    """Difficulty levels that widen as training proceeds, counted in items.

    Items ``0 … every-1`` draw levels ``1 … start``; each further ``every``
    items admit the next level, up to ``stop``. With ``window``, only the
    ``window`` highest admitted levels are drawn (reasoning-gym's "last k"
    range mode) instead of all of them (its "inclusive" mode). Because the
    schedule follows the item index, feed items in order (TRL:
    ``GRPOConfig(shuffle_dataset=False)``); shards keep the global index.

    >>> c = Curriculum(every=100, start=2, stop=4)
    >>> c.levels(0), c.levels(150), c.levels(10_000)
    ((1, 2), (1, 2, 3), (1, 2, 3, 4))
    >>> Curriculum(every=100, start=2, window=2).levels(250)
    (3, 4)
    """

    every: int
    start: int = 1
    stop: int = 5
    window: int | None = None

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ArgumentError(f"Curriculum(every=...) is a number of items ≥ 1, got {self.every}")
        if not 1 <= self.start <= self.stop:
            raise ArgumentError(f"Curriculum needs 1 ≤ start ≤ stop, got start={self.start}, "
                                f"stop={self.stop}")
        if self.window is not None and self.window < 1:
            raise ArgumentError(f"Curriculum(window=...) must be ≥ 1, or None for all levels; "
                                f"got {self.window}")

    def stage(self, index: int) -> int:
        """How many widenings have happened by item ``index`` (0 … ``stop - start``)."""
        return min(self.stop - self.start, index // self.every)

    def stages(self, index: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`stage` of each item of ``index`` (item indices below 2**63), in NumPy."""
        if int(self.every) >= _MAX_SIZE:  # no item index reaches it (and int64 cannot hold it)
            return np.zeros(index.shape, dtype=np.int64)
        return np.minimum(index // int(self.every), int(self.stop) - int(self.start))

    def levels(self, index: int) -> tuple[int, ...]:
        """The difficulty levels item ``index`` draws from."""
        return self._levels(self.stage(index))

    def _levels(self, stage: int) -> tuple[int, ...]:
        top = self.start + stage
        bottom = 1 if self.window is None else max(1, top - self.window + 1)
        return tuple(range(bottom, top + 1))


@dataclass(frozen=True)
class _Pool:
    """The templates one stage draws from, with their cumulative weights and applicable formats."""

    templates: tuple[Template, ...]
    formats: tuple[tuple[str, ...], ...]
    cumulative: tuple[float, ...]
    #: each template's number of problems if it is algebraic (instance ``index`` modulo it), else 0
    moduli: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        moduli = tuple(0 if t.question_type == "numerical" else t.capacity() for t in self.templates)
        object.__setattr__(self, "moduli", moduli)

    def template(self, u: float) -> int:
        """The template at ``u`` in [0, 1) of the weight."""
        return min(bisect.bisect_right(self.cumulative, u * self.cumulative[-1]), len(self.templates) - 1)


Choice = tuple[Template, str, int, int]  # an item's draw: template, format, bits, instance number


def _picked(names: tuple[str, ...], bits: int) -> tuple[str, int]:
    """The format ``bits`` picks among ``names``, and the bits left to pick the paraphrase and
    the variant with."""
    return names[bits % len(names)], bits // len(names)


class _Drawn:
    """One template's instances for the items of the look-ahead window: drawn together (rows of
    one ``sample_at`` call), each rendered alone when its item is read (:class:`Rows`)."""

    __slots__ = ("numbers", "rows")

    def __init__(self, rows: Rows | None, numbers: list[int]) -> None:
        self.rows = rows  # None: the draw failed, so each of these items takes the direct path
        self.numbers = {k: row for row, k in enumerate(numbers)}  # instance number -> row

    def instance(self, k: int) -> Instance | None:
        return None if self.rows is None else self.rows[self.numbers[k]]


class _Tables:
    """A plan's pools as arrays, to make the first draws of a block of items at once: every
    template the pools hold (numbered in order of first appearance), each one's formats and
    modulus, and per pool its cumulative weights and its templates' numbers."""

    __slots__ = ("formats", "moduli", "pools", "templates", "window")

    def __init__(self, pools: Sequence[_Pool]) -> None:
        number: dict[int, int] = {}  # by the object: two templates may share an id (a user's edit)
        self.templates: list[Template] = []
        self.formats: list[tuple[str, ...]] = []
        moduli: list[int] = []
        self.pools: list[tuple[npt.NDArray[np.float64], float, npt.NDArray[np.int64]]] = []
        for pool in pools:
            for t, names, modulus in zip(pool.templates, pool.formats, pool.moduli, strict=True):
                if id(t) not in number:
                    number[id(t)] = len(self.templates)
                    self.templates.append(t)
                    self.formats.append(names)
                    moduli.append(modulus)
            self.pools.append((np.asarray(pool.cumulative), pool.cumulative[-1],
                               np.asarray([number[id(t)] for t in pool.templates], dtype=np.int64)))
        self.moduli = np.asarray(moduli, dtype=np.int64)
        #: how far the read-ahead looks past the item read
        self.window = max(_MIN_AHEAD, _PER_TEMPLATE * len(self.templates))


class _Block:
    """The first draws of :data:`_AHEAD_BLOCK` consecutive items of the sequence being read, as
    :meth:`_Plan._choice` makes each: the template's number (:class:`_Tables`), the bits and
    the instance number, as arrays (to find a template's items) and as lists of ints (to read
    one; ints are not tracked by the cyclic garbage collector, so a window of them costs it nothing)."""

    __slots__ = ("bits", "numbers", "template", "templates")

    def __init__(self, plan: _Plan, tables: _Tables, items: range) -> None:
        seed, blake2b = plan.seed, hashlib.blake2b
        digests = b"".join([blake2b(f"physgen-dataset/1/{seed}/{index}/0".encode(), digest_size=16).digest()
                            for index in items])
        words = np.frombuffer(digests, dtype="<u8").reshape(-1, 2)
        u = (words[:, 0] >> np.uint64(11)).astype(np.float64) * 2.0**-53
        index = np.arange(items.start, items.stop, items.step, dtype=np.int64)
        template = np.empty(len(items), dtype=np.int64)
        curriculum = plan.curriculum
        stages = np.zeros(len(items), dtype=np.int64) if curriculum is None else curriculum.stages(index)
        for stage in np.unique(stages).tolist():
            cumulative, total, numbers = tables.pools[stage]
            at = stages == stage
            j = np.searchsorted(cumulative, u[at] * total, side="right")
            template[at] = numbers[np.minimum(j, len(numbers) - 1)]
        moduli = tables.moduli[template]
        self.template = template
        self.templates: list[int] = template.tolist()
        self.bits: list[int] = words[:, 1].tolist()
        self.numbers: list[int] = np.where(moduli > 0, index % np.maximum(moduli, 1), index).tolist()


class _ReadAhead:
    """What a dataset reads ahead, in this process (never pickled: a worker starts empty).

    A data-loader worker that reads items in order (``ds[i]``, ``ds[i + 1]``, … or a shard's
    items one after the other) would pay NumPy's fixed cost of one
    :meth:`~physgen.template.Template.sample_at` call per item. Once two reads in a row are in
    order, the first draws (template, format, bits) of the items ahead in the sequence being
    read are made a block of :data:`_AHEAD_BLOCK` at a time (:class:`_Block`: one hash each, the
    rest in NumPy), up to a window of :data:`_PER_TEMPLATE` × the templates past the read. When
    an item's instance is not drawn yet, its template's instances for every item of the window
    from it on are drawn in one call, so a template is drawn about once per window's worth of
    reads: about one read in :data:`_PER_TEMPLATE` draws, and the rest do only their
    own item's work: each instance is rendered alone when its item is read
    (:class:`~physgen.instance.Rows`), so no read renders for others. Each is still instance
    ``k`` of its template (rows of one ``sample_at`` are the instances drawn alone), so the items
    are the same bytes. Reads out of order (a shuffled sampler) take the direct path.
    """

    __slots__ = ("base", "blocks", "drawn", "end", "indices", "last", "streak", "tables")

    def __init__(self) -> None:
        self.tables: _Tables | None = None
        self._restart(None)

    def _restart(self, indices: range | None) -> None:
        self.indices = indices  # the sequence of item indices being read
        self.last = -1  # the position in it read last
        self.streak = 0  # reads in order in a row
        self.base = self.end = 0  # the positions of blocks[0]'s first item and past the last block's
        self.blocks: collections.deque[_Block] = collections.deque()
        self.drawn: dict[int, _Drawn] = {}  # template number -> its instances drawn last

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ReadAhead, ())

    def read(self, plan: _Plan, indices: range, pos: int) -> tuple[Choice, Instance | None] | None:
        """Item ``indices[pos]``'s first draw and, if it could be drawn with others, its
        instance; None when the item is not in a window (out of order: the direct path)."""
        if indices != self.indices:  # another dataset or shard of the same plan: start again
            self._restart(indices)
        self.streak = self.streak + 1 if 0 < pos - self.last <= _NEAR else 0
        self.last = pos
        blocks = self.blocks
        if not self.base <= pos < self.end:
            if self.streak < 2:
                return None
            blocks.clear()
            self.drawn.clear()
            self.base = self.end = pos - pos % _AHEAD_BLOCK
        while pos - self.base >= _AHEAD_BLOCK:  # items passed over are not read (by this process)
            blocks.popleft()
            self.base += _AHEAD_BLOCK
        tables = self.tables
        if tables is None:
            tables = self.tables = _Tables(plan.pools)
        while self.end - pos < tables.window and self.end < len(indices):
            blocks.append(_Block(plan, tables, indices[self.end:self.end + _AHEAD_BLOCK]))
            self.end += _AHEAD_BLOCK
        block, offset = blocks[0], pos - self.base
        g, k = block.templates[offset], block.numbers[offset]
        drawn = self.drawn.get(g)
        if drawn is None or k not in drawn.numbers:
            drawn = self.draw(plan, tables.templates[g], g, offset)
        return (tables.templates[g], *_picked(tables.formats[g], block.bits[offset]), k), drawn.instance(k)

    def draw(self, plan: _Plan, t: Template, g: int, offset: int) -> _Drawn:
        """Template ``t``'s (number ``g``) instances for its items from the one at ``offset`` in
        the first block to the window's end, drawn in one call."""
        numbers: list[int] = []
        for b, block in enumerate(self.blocks):
            start = offset if b == 0 else 0
            rows = np.flatnonzero(block.template[start:] == g) + start
            numbers += [block.numbers[r] for r in rows.tolist()]
        numbers = list(dict.fromkeys(numbers))
        try:
            drawn = _Drawn(Rows(t.sample_at(numbers, plan.seed), plan.style, plan.notation), numbers)
        except SamplingError:  # the item that cannot be drawn raises alone, on the direct path
            drawn = _Drawn(None, numbers)
        self.drawn[g] = drawn
        return drawn


@dataclass(frozen=True)
class _Plan:
    """Everything that decides the items (pickles: formats are kept by name), and what this
    process has read ahead (not compared, not pickled)."""

    seed: int
    pools: tuple[_Pool, ...]
    curriculum: Curriculum | None
    style: Style
    notation: Notation
    n_options: int
    ahead: _ReadAhead = field(default_factory=_ReadAhead, compare=False, repr=False)

    def pool(self, index: int) -> _Pool:
        return self.pools[0 if self.curriculum is None else self.curriculum.stage(index)]

    def _choice(self, index: int, attempt: int) -> tuple[Template, str, int, int]:
        """Draw ``attempt`` of item ``index``: its template, format, the bits that pick the
        paraphrase and the variant, and the instance number."""
        pool = self.pool(index)
        digest = hashlib.blake2b(f"physgen-dataset/1/{self.seed}/{index}/{attempt}".encode(),
                                 digest_size=16).digest()
        u = (int.from_bytes(digest[:8], "little") >> 11) * 2.0**-53
        bits = int.from_bytes(digest[8:], "little")
        j = pool.template(u)
        modulus = pool.moduli[j]
        return pool.templates[j], *_picked(pool.formats[j], bits), index % modulus if modulus else index

    @functools.cached_property
    def _context(self) -> FormatContext:
        """What every format builder receives (made once: checking it costs more than a build)."""
        from .formats import FormatContext

        return FormatContext(self.style, self.notation, self.n_options)

    def _made(self, inst: Instance, fmt: str, bits: int) -> Variant | None:
        """The variant ``bits`` picks among those format ``fmt`` makes of ``inst`` (None: none)."""
        from .formats import get_format

        t = inst.template
        made = list(get_format(fmt).build(inst, bits % len(t.texts), self._context))
        return made[(bits // len(t.texts)) % len(made)] if made else None

    def variant(self, index: int, ahead: tuple[Choice, Instance | None] | None = None) -> Variant:
        """Item ``index``'s variant (see the module docstring for how it is chosen); ``ahead``:
        its first draw and instance from the read-ahead (an instance of None: draw it here)."""
        tried = []
        for attempt in range(_ATTEMPTS):
            if ahead is not None and attempt == 0:
                (t, fmt, bits, k), inst = ahead
            else:
                t, fmt, bits, k = self._choice(index, attempt)
                inst = None
            if inst is None:
                inst = next(iter_instances(t.sample_at([k], self.seed), self.style, self.notation))
            made = self._made(inst, fmt, bits)
            if made is not None:
                return made
            tried.append(f"{fmt} of {t.id}")
        raise SamplingError(f"item {index}: the chosen formats made no variant in {_ATTEMPTS} draws "
                            f"({', '.join(tried)}); choose other formats or templates")

    def read(self, indices: range, pos: int) -> Variant:
        """Item ``indices[pos]``'s variant, through the read-ahead (:class:`_ReadAhead`) when
        the items of ``indices`` are read in order."""
        return self.variant(indices[pos], self.ahead.read(self, indices, pos))

    def entries(self, indices: range, positions: Sequence[int]) -> list[dict[str, Any]]:
        """Items ``indices[pos]``' entries, as :meth:`read` makes each variant: through the
        read-ahead when they are in order, else with every template's instances drawn in one
        :meth:`~physgen.template.Template.sample_at` call. Each variant is made into its entry
        at once, so that a batch never holds its variants (and their instances) together: held,
        they outlive a young collection and are promoted, and full collections come sooner."""
        if all(0 < b - a <= _NEAR for a, b in itertools.pairwise(positions)):
            return [_entry(self.read(indices, pos), indices[pos]) for pos in positions]
        picked = [indices[pos] for pos in positions]
        choices = [self._choice(index, 0) for index in picked]
        by_template: dict[int, list[int]] = {}  # by the object: two templates may share an id
        for j, (t, _, _, _) in enumerate(choices):
            by_template.setdefault(id(t), []).append(j)
        out: list[dict[str, Any] | None] = [None] * len(choices)
        for js in by_template.values():
            t = choices[js[0]][0]
            batch = t.sample_at([choices[j][3] for j in js], self.seed)
            for j, inst in zip(js, iter_instances(batch, self.style, self.notation), strict=True):
                made = self._made(inst, choices[j][1], choices[j][2])
                out[j] = None if made is None else _entry(made, picked[j])
        # an item whose first draw made nothing draws again, alone
        return [e if e is not None else _entry(self.variant(index), index)
                for e, index in zip(out, picked, strict=True)]


def _entry(variant: Variant, index: int) -> dict[str, Any]:
    """The dataset entry of ``variant``, as item ``index``."""
    from .formats import get_format
    from .jsonl import variant_line

    d = variant.to_dict()
    return {
        "question": variant.prompt,
        "answer": get_format(variant.format).reference(variant),
        "metadata": {"source_dataset": DATA_SOURCE, "source_index": index,
                     "variant": d, "ground_truth": variant_line(variant, d)[:-1].decode()},
    }


class ProceduralDataset(Sequence[dict[str, Any]]):
    """``size`` problems, each made when it is asked for; see :func:`dataset`.

    ``ds[i]`` is a dict with ``question`` (the prompt, ending with its answer
    instruction), ``answer`` (a reply in the documented layout that grades
    correct) and ``metadata``: ``source_dataset``, ``source_index`` (the item's
    index in the whole dataset), ``variant`` (``Variant.to_dict()``) and
    ``ground_truth`` (the variant as JSON: what verl's ``compute_score`` receives).
    """

    def __init__(self, plan: _Plan, indices: range) -> None:
        self._plan = plan
        self._indices = indices

    @property
    def seed(self) -> int:
        return self._plan.seed

    @property
    def size(self) -> int:
        return len(self._indices)

    def __len__(self) -> int:
        return len(self._indices)

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> ProceduralDataset: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | ProceduralDataset:
        """Item ``i`` (negative counts from the end), or a slice of the dataset as a dataset."""
        if isinstance(i, slice):
            return ProceduralDataset(self._plan, self._indices[i])
        pos = range(len(self._indices))[i]  # IndexError past the end, like a list
        return _entry(self._plan.read(self._indices, pos), self._indices[pos])

    def __getitems__(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        """Items ``indices`` at once (PyTorch's batched fetch, used by its ``DataLoader``):
        the same as ``[ds[i] for i in indices]``, with each template's instances drawn in one
        vectorised call.

        >>> ds = dataset(["mechanics.projectile_range", "optics.thin_lens"], size=10, seed=0)
        >>> ds.__getitems__([3, 1, 3]) == [ds[3], ds[1], ds[3]]
        True
        """
        every = range(len(self._indices))
        positions = [every[i] for i in indices]  # IndexError past the end, like a list
        return self._plan.entries(self._indices, positions)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for lo in range(0, len(self._indices), _BLOCK):
            yield from self.__getitems__(range(lo, min(lo + _BLOCK, len(self._indices))))

    def __repr__(self) -> str:
        return f"<ProceduralDataset of {len(self)} physgen problems, seed {self.seed}>"

    def score_answer(self, answer: str | None, entry: Mapping[str, Any], *,
                     partial_credit: bool = False) -> float:
        """1.0 if ``answer`` grades correct for ``entry``, else 0.0; with ``partial_credit``,
        the fraction of the asked quantities it gets right."""
        from .rewards import score

        return score(entry["metadata"]["variant"], answer, partial_credit=partial_credit)

    def shard(self, rank: int, world: int) -> ProceduralDataset:
        """Every ``world``-th item from ``rank`` (the split of ``DistributedSampler`` without
        shuffling): the shards of ranks ``0 … world-1`` are disjoint and cover the dataset."""
        if not 0 <= rank < world:
            raise ArgumentError(f"shard(rank, world) needs 0 ≤ rank < world, got rank={rank}, world={world}")
        return ProceduralDataset(self._plan, self._indices[rank::world])

    def to_hf_dataset(self, layout: Literal["trl", "verl"] = "trl", *,
                      conversational: bool = False) -> datasets.Dataset:
        """The items as a Hugging Face ``datasets.Dataset`` (made in memory; needs ``datasets``).

        ``layout="trl"``: columns ``prompt`` (text, or one user message with
        ``conversational``), ``answer`` and ``variant`` (JSON), for TRL's
        ``GRPOTrainer`` with :func:`physgen.rewards.trl_reward`. ``layout="verl"``:
        verl's RL rows (``data_source``, ``prompt`` as messages, ``ability``,
        ``reward_model.ground_truth``, ``extra_info``), for
        :func:`physgen.rewards.compute_score`.
        """
        import datasets

        if layout not in ("trl", "verl"):
            raise ArgumentError(f"layout must be 'trl' or 'verl', got {layout!r}")
        rows = []
        for e in self:
            meta = e["metadata"]
            message = [{"role": "user", "content": e["question"]}]
            if layout == "trl":
                rows.append({"prompt": message if conversational else e["question"], "answer": e["answer"],
                             "variant": meta["ground_truth"]})
            else:
                rows.append({"data_source": DATA_SOURCE, "prompt": message, "ability": "physics",
                             "reward_model": {"style": "rule", "ground_truth": meta["ground_truth"]},
                             "extra_info": {"index": meta["source_index"], "answer": e["answer"]}})
        return datasets.Dataset.from_list(rows)


def dataset(
    source: Source | None = None,
    *,
    size: int,
    seed: int = 0,
    formats: str | Sequence[str] = ("free_form",),
    domain: str | Iterable[str] | None = None,
    difficulty: int | Iterable[int] | Curriculum | None = None,
    weights: Mapping[str, float] | Mapping[int, float] | None = None,
    style: Style = "unicode",
    notation: Notation = "auto",
    n_options: int = 4,
) -> ProceduralDataset:
    """``size`` problems from ``source`` (default: the built-in catalog), made on demand.

    ``formats`` are drawn uniformly among those that apply to the chosen
    template (a template none applies to is left out). ``domain`` and
    ``difficulty`` keep only matching templates; ``difficulty`` may instead be a
    :class:`Curriculum`. ``weights`` maps domains, difficulty levels or template
    ids to their share of the items, split evenly among the templates of each;
    what it does not name is not drawn. Without weights every template is
    equally likely. An unknown domain, level, format or weight key raises
    :class:`~physgen.ArgumentError` naming the valid ones.

    >>> ds = dataset(["mechanics.projectile_range"], size=3, seed=1)
    >>> [e["metadata"]["variant"]["metadata"]["index"] for e in ds]
    [0, 1, 2]
    >>> dataset(size=5, domain="optic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    physgen.errors.ArgumentError: unknown domain 'optic'; valid: ... (did you mean 'optics'?) ...
    """
    from .formats import FormatContext, get_format

    if not isinstance(size, int) or not 0 <= size <= _MAX_SIZE:
        raise ArgumentError(f"size must be a whole number from 0 to 2**63, got {size!r}")
    names = (formats,) if isinstance(formats, str) else tuple(formats)
    if not names:
        raise ArgumentError("formats is empty; name at least one, e.g. ('free_form',)")
    registered = {name: get_format(name) for name in names}  # unknown names raise, with the list
    FormatContext(style, notation, n_options)  # bad values fail here, as in generate
    curriculum = difficulty if isinstance(difficulty, Curriculum) else None
    levels = None if isinstance(difficulty, Curriculum) else difficulty
    templates = select_templates(source, domain=domain, difficulty=levels)
    applicable = [(t, tuple(n for n in names if registered[n].applies(t))) for t in templates]
    applicable = [(t, fs) for t, fs in applicable if fs]
    if not applicable:
        raise ArgumentError(f"none of the formats {list(names)} applies to the chosen templates")
    base = _weights([t for t, _ in applicable], weights)
    if curriculum is None:
        pools: tuple[_Pool, ...] = (_pool(applicable, base, None),)
    else:
        stages = range(curriculum.stop - curriculum.start + 1)
        pools = tuple(_pool(applicable, base, curriculum._levels(s)) for s in stages)
    plan = _Plan(seed, pools, curriculum, style, notation, n_options)
    return ProceduralDataset(plan, range(size))


def select_templates(source: Source | None = None, *, domain: str | Iterable[str] | None = None,
                     difficulty: int | Iterable[int] | None = None) -> list[Template]:
    """The templates of ``source`` (default: the built-in catalog), sorted by id, in ``domain``
    and at ``difficulty`` (one value or several each; ``None``: any). An unknown value raises
    :class:`~physgen.ArgumentError` naming the valid ones.

    >>> [t.id for t in select_templates(domain="optics", difficulty=1)][:2]
    ['optics.apparent_depth_two_layers_symbolic', 'optics.critical_angle']
    """
    if source is None:
        from .catalog import load_catalog

        source = load_catalog()
    templates = sorted(resolve_templates(source), key=lambda t: t.id)
    templates = _keep(templates, "domain", domain, lambda t: t.domain)
    return _keep(templates, "difficulty", difficulty, lambda t: t.difficulty)


def _keep(templates: list[Template], what: str, wanted: Any, key: Any) -> list[Template]:
    """The templates whose ``key`` is among ``wanted`` (one value or several); an unknown value raises."""
    if wanted is None:
        return templates
    values = {wanted} if isinstance(wanted, str | int) else set(wanted)
    present = {key(t) for t in templates}
    stray = sorted(values - present, key=str)
    if stray:
        raise unknown(what, stray[0], present, " (the chosen templates have these)")
    return [t for t in templates if key(t) in values]


#: What the keys of ``weights`` can name, and how to read it from a template.
_GROUPS: dict[str, Callable[[Template], Any]] = {
    "difficulty level": operator.attrgetter("difficulty"),
    "template id": operator.attrgetter("id"),
    "domain": operator.attrgetter("domain"),
}


def _group(weights: Mapping[Any, float], templates: list[Template]) -> Callable[[Template], Any]:
    """Which attribute of a template the keys of ``weights`` name: its difficulty, id or domain."""
    keys = set(weights)
    numbers = all(isinstance(k, int) and not isinstance(k, bool) for k in keys)
    kinds = ["difficulty level"] if numbers else ["template id", "domain"]
    named = {kind: {_GROUPS[kind](t) for t in templates} for kind in kinds}
    for kind in kinds:
        if keys <= named[kind]:
            return _GROUPS[kind]
    valid = " or ".join(f"{kind}s ({len(named[kind])}; see `physgen list`)" if kind == "template id"
                        else f"{kind}s ({listing(sorted(named[kind], key=str))})" for kind in reversed(kinds))
    known = set().union(*named.values())
    stray = sorted(keys - known, key=str)
    if stray:
        raise ArgumentError(f"unknown weights key {stray[0]!r}{suggest(stray[0], known)}; the keys name "
                            f"{valid} of the chosen templates")
    raise ArgumentError(f"weights keys {sorted(keys, key=str)} mix kinds; name only one kind: {valid}")


def _weights(templates: list[Template], weights: Mapping[Any, float] | None) -> list[tuple[Any, float]]:
    """Each template's group and that group's weight (``None`` group: every template weighs 1)."""
    if weights is None:
        return [(t.id, 1.0) for t in templates]
    values = {k: _weight(w) for k, w in weights.items()}
    bad = {k: weights[k] for k, v in values.items() if v is None}
    if bad:
        raise ArgumentError(f"weights must be finite numbers ≥ 0, got {bad}")
    key = _group(weights, templates)
    return [(key(t), values.get(key(t)) or 0.0) for t in templates]


def _weight(w: Any) -> float | None:
    """``w`` as a finite float ≥ 0, else ``None``."""
    try:
        value = float(w)
    except (TypeError, ValueError):
        return None
    return value if 0 <= value and math.isfinite(value) else None


def _pool(applicable: list[tuple[Template, tuple[str, ...]]], base: list[tuple[Any, float]],
          levels: tuple[int, ...] | None) -> _Pool:
    """The templates at ``levels`` (all when ``None``) with weight > 0: each group's weight is
    split evenly among its templates in the pool."""
    members = [(t, fs, g, w) for (t, fs), (g, w) in zip(applicable, base, strict=True)
               if w > 0 and (levels is None or t.difficulty in levels)]
    if not members:
        have = sorted({t.difficulty for (t, _), (_, w) in zip(applicable, base, strict=True) if w > 0})
        where = "" if levels is None else f" at difficulty {list(levels)}"
        raise ArgumentError(f"no template with a weight above 0{where}; the chosen templates with weight "
                         f"have difficulty levels {have}")
    counts: dict[Any, int] = {}
    for _, _, g, _ in members:
        counts[g] = counts.get(g, 0) + 1
    cumulative = tuple(itertools.accumulate(w / counts[g] for _, _, g, w in members))
    return _Pool(tuple(m[0] for m in members), tuple(m[1] for m in members), cumulative)


class _CallableModule(types.ModuleType):
    """This module's type: calling ``physgen.dataset(...)`` calls :func:`dataset`."""

    def __call__(self, source: Source | None = None, **kwargs: Any) -> ProceduralDataset:
        return dataset(source, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

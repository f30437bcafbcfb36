"""Robustness metrics over graded records, with bootstrap confidence intervals.

A *graded record* is a plain dict (see :func:`record`): ``variant_id``,
``template_id``, ``instance_id``, ``format``, ``paraphrase``, ``attempt``,
``correct`` (every part right), ``score`` (fraction of parts right) and the
variant's metadata (``domain``, ``subdomain``, ``difficulty``, ``question_type``).
A pandas DataFrame with those columns works too.

Definitions (``docs/metrics.md`` works an example by hand):

* **accuracy**: mean of ``correct`` over records; **partial accuracy**: mean of ``score``.
* A **group** is a template (``by="template"``, SymPyBench's problem group) or an
  instance (``by="instance"``). Its accuracy is the mean of ``correct`` over its records.
* **consistency**: share of groups with accuracy 1; **complete failure**: share
  with accuracy 0; **confusion**: share with accuracy inside ``band`` (inclusive).
* **conditional accuracy** ``P(B | fail A)``: over instances with no correct
  format-A record, the mean accuracy of their format-B records (A ≠ B: on the
  diagonal it would be 0 by construction, so it is left out).
* **attempts**: per problem (``variant_id``) with attempts ``0 … n−1``: avg@k is
  the mean of the first k, best@k their maximum, pass@k the unbiased estimator
  ``1 − C(n−c, k)/C(n, k)``; each is averaged over problems.
* **confidence intervals**: percentile bootstrap resampling whole groups
  (templates by default), seeded.
* **models are never pooled**: records of several models (a ``model`` column) are
  summarised per model with ``summary(records, by="model")`` or split with
  :func:`by_model`; any other metric raises :class:`~physgen.errors.ArgumentError`
  on them unless ``model`` is among the columns it groups by.
* **order**: results keyed by category values come back sorted (:func:`order_key`).

>>> rows = [{"template_id": t, "instance_id": t + i, "variant_id": t + i, "format": "free_form",
...          "correct": c, "score": float(c)} for t, i, c in
...         [("a", "1", True), ("a", "2", True), ("b", "1", False), ("b", "2", True)]]
>>> m = summary(rows, n_resamples=0)
>>> m["accuracy"].value, m["consistency"].value, m["confusion"].value
(0.75, 0.5, 0.5)
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from .errors import ArgumentError, InputError, MissingColumnError, RowError
from .grading import Grade
from .jsonl import kind
from .variant import Variant

FloatArray = npt.NDArray[np.float64]
DEFAULT_BAND = (0.4, 0.6)


def record(variant: Variant, grade: Grade, *, attempt: int = 0, model: str | None = None) -> dict[str, Any]:
    """One graded record: the variant's graded fields (its ids, format, paraphrase and the
    metadata marked ``graded`` in :class:`physgen.Variant`) with the grade's outcome.

    >>> import physgen
    >>> v = next(physgen.generate(["optics.thin_lens"], n=1))
    >>> sorted(record(v, physgen.grade(v, "no idea"), model="m"))  # doctest: +NORMALIZE_WHITESPACE
    ['attempt', 'correct', 'difficulty', 'domain', 'format', 'instance_id', 'model', 'paraphrase',
     'parts', 'question_type', 'score', 'subdomain', 'template_id', 'variant_id']

    A grade with steps (``grade(..., steps=True)``) of a variant with intermediates adds
    ``steps_score``, ``steps_correct`` (every step right), ``first_error`` (its name, or None)
    and ``first_error_step`` (the 1-based step of the worked solution it belongs to; 0 if none).
    """
    out = variant.graded_fields()
    out.update(attempt=attempt, correct=grade.correct, score=grade.score,
               parts={p.name: p.reason for p in grade.parts})
    if grade.steps is not None and grade.steps.steps:
        first = next((s for s in grade.steps.steps if not s.correct), None)
        out.update(steps_score=grade.steps.score, steps_correct=first is None,
                   first_error=None if first is None else first.name,
                   first_error_step=0 if first is None else first.step + 1)
    if model is not None:
        out["model"] = model
    return out


@dataclass(frozen=True)
class Estimate:
    """A metric with its bootstrap confidence interval (``low``/``high`` NaN without resamples)."""

    value: float
    low: float = math.nan
    high: float = math.nan

    def __str__(self) -> str:
        if math.isnan(self.low):
            return f"{self.value:.3f}"
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


class Table:
    """Columns of graded records, with groups factorised once (the fast path for every metric).

    A pandas DataFrame is read a column at a time, only for the columns a metric
    uses, and without turning them into Python lists, so memory stays near the
    size of those columns however many other columns the frame has.
    """

    def __init__(self, records: Any) -> None:
        if hasattr(records, "to_dict") and hasattr(records, "columns"):  # a pandas DataFrame
            self._frame: Any = records
            self._lists: dict[str, Sequence[Any]] = {}
            names = [str(c) for c in records.columns]
        else:
            self._frame = None
            self._lists = _columns(records)
            names = list(self._lists)
        self.names = frozenset(names)
        if "correct" not in self.names:
            raise MissingColumnError(f"records have no 'correct' column; they have {sorted(self.names)}")
        self.correct = self._floats("correct")
        self.n = len(self.correct)
        if self.n == 0:
            raise InputError("no graded records; pass metrics.record(variant, grade) rows, or a "
                             "DataFrame with a 'correct' column")
        self.score = self._floats("score") if "score" in self.names else self.correct.copy()

    def _floats(self, name: str) -> FloatArray:
        if self._frame is not None:
            return np.asarray(self._frame[name].to_numpy(), dtype=np.float64)
        return np.asarray(self._lists[name], dtype=np.float64)

    def has(self, name: str) -> bool:
        """Whether the records have column ``name``."""
        return name in self.names

    def column(self, name: str) -> Sequence[Any]:
        """The values of one column (a list, or a pandas Series for a DataFrame)."""
        if name not in self.names:
            raise MissingColumnError(f"records have no {name!r} column; they have {sorted(self.names)}")
        return self._frame[name] if self._frame is not None else self._lists[name]

    def codes(self, name: str) -> tuple[npt.NDArray[np.int64], list[Any]]:
        """Integer codes per record for a column, and the distinct values in first-seen order."""
        values = self.column(name)
        if self._frame is not None:
            import pandas as pd

            codes, uniques = pd.factorize(values, sort=False, use_na_sentinel=False)
            return np.asarray(codes, dtype=np.int64), list(uniques)
        index: dict[Any, int] = {}
        try:
            codes = np.fromiter((index.setdefault(v, len(index)) for v in values), dtype=np.int64,
                                count=self.n)
        except TypeError:  # a list or dict where a name belongs (a hostile row): keyed by its repr
            index = {}
            codes = np.fromiter((index.setdefault(hashable(v), len(index)) for v in values), dtype=np.int64,
                                count=self.n)
        return codes, list(index)


def hashable(value: Any) -> Any:
    """``value`` itself when it can be a dict key, else its ``repr`` (a list or dict read from
    a row where a name belongs), so grouping never fails on it.

    >>> hashable("optics"), hashable(["a"])
    ('optics', "['a']")
    """
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _columns(rows: Any) -> dict[str, Sequence[Any]]:
    rows = list(rows)
    if not rows:
        return {"correct": []}
    bad = next((i for i, r in enumerate(rows) if not isinstance(r, Mapping)), None)
    if bad is not None:
        raise RowError(f"record {bad} is {kind(rows[bad])}, not a dict; pass graded records (dicts, "
                       "as physgen.metrics.record makes) or a pandas DataFrame")
    keys = {k for r in rows[:1000] for k in r}
    return {k: [r.get(k) for r in rows] for k in keys}


def _group_key(by: str) -> str:
    return {"template": "template_id", "instance": "instance_id", "variant": "variant_id"}.get(by, by)


def _as_table(records: Any) -> Table:
    return records if isinstance(records, Table) else Table(records)


#: The column that names the model of a graded record; records of different models are never pooled.
MODEL = "model"


def order_key(value: Any) -> tuple[Any, ...]:
    """The sort key of category values (and of tuples of them): numbers first, in numeric
    order, then anything else by its text, with the numbers inside it in numeric order, and
    None last.

    >>> sorted(["cat_10", 3, "cat_2", None, 1.5], key=order_key)
    [1.5, 3, 'cat_2', 'cat_10', None]
    """
    if isinstance(value, tuple):
        return tuple(order_key(v) for v in value)
    if value is None:
        return (2, 0.0, ())
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, math.inf if value != value else float(value), ())
    return (1, 0.0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                          for p in re.split(r"(\d+)", str(value)[:200]) if p))


def ordered(values: Any) -> list[Any]:
    """Category values in the order every table and plot shows them (:func:`order_key`).

    >>> ordered({"cat_10", "cat_2", "a"})
    ['a', 'cat_2', 'cat_10']
    """
    return sorted(values, key=order_key)


def _model_name(value: Any) -> str | None:
    """A record's model as a dict key: its text, or None when the record names none."""
    return None if value is None or value != value else str(value)


def _models(t: Table) -> list[str | None]:
    """The distinct models of the records, in order ([None] when they name none)."""
    if not t.has(MODEL):
        return [None]
    if t._frame is not None:  # factorised by pandas, so a large frame is not walked in Python
        return ordered({_model_name(v) for v in t.codes(MODEL)[1]})
    return ordered({_model_name(v) for v in t.column(MODEL)})


def _one_model(t: Table, what: str) -> None:
    """Refuse to pool: raise when the records hold more than one model."""
    names = _models(t)
    if len(names) > 1:
        shown = ", ".join(repr(n) for n in names[:5]) + (f", … {len(names)} in all" if len(names) > 5 else "")
        raise ArgumentError(f"{what}: the records hold {len(names)} models ({shown}), and metrics never pool "
                            "models; use summary(records, by='model'), or select one model's records with "
                            "by_model(records)[name]")


def by_model(records: Any) -> dict[str | None, Any]:
    """The records of each model (column ``model``), in order: a list of rows per model, or
    a DataFrame per model for a DataFrame. Records without a model come under None.

    >>> rows = [{"model": m, "correct": c} for m, c in [("b", True), ("a", False), ("b", False)]]
    >>> {m: len(rs) for m, rs in by_model(rows).items()}
    {'a': 1, 'b': 2}
    """
    if hasattr(records, "to_dict") and hasattr(records, "columns"):  # a pandas DataFrame
        if MODEL not in records.columns:
            return {None: records}
        names = records[MODEL].astype(object).map(_model_name)
        return {m: records[(names == m) if m is not None else names.isna()] for m in ordered(set(names))}
    rows = list(records)
    out: dict[str | None, list[Any]] = {}
    for r in rows:
        out.setdefault(_model_name(r.get(MODEL)), []).append(r)
    return {m: out[m] for m in ordered(out)}


def group_accuracies(records: Any, by: str = "template") -> dict[Any, float]:
    """Accuracy of each group (template by default), in order (:func:`ordered`), for one model."""
    t = _as_table(records)
    _one_model(t, "group_accuracies")
    codes, names = t.codes(_group_key(by))
    hits = np.bincount(codes, weights=t.correct)
    counts = np.bincount(codes)
    out = {n: float(h / c) for n, h, c in zip(names, hits, counts, strict=True)}
    return {n: out[n] for n in ordered(out)}


def _resample_weights(groups: int, n_resamples: int, seed: int) -> npt.NDArray[np.float64]:
    rng = np.random.default_rng(np.random.SeedSequence([seed, groups, 0x5EED]))
    return rng.multinomial(groups, np.full(groups, 1.0 / groups), size=n_resamples).astype(np.float64)


def _interval(samples: FloatArray, ci: float) -> tuple[float, float]:
    lo, hi = np.quantile(samples, [(1 - ci) / 2, (1 + ci) / 2])
    return float(lo), float(hi)


@overload
def summary(records: Any, *, by: Literal["model"], band: tuple[float, float] = DEFAULT_BAND,
            n_resamples: int = 1000, seed: int = 0,
            ci: float = 0.95) -> dict[str | None, dict[str, Estimate]]:
    ...


@overload
def summary(records: Any, *, by: str = "template", band: tuple[float, float] = DEFAULT_BAND,
            n_resamples: int = 1000, seed: int = 0, ci: float = 0.95) -> dict[str, Estimate]:
    ...


def summary(
    records: Any,
    *,
    by: str = "template",
    band: tuple[float, float] = DEFAULT_BAND,
    n_resamples: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
) -> dict[str, Estimate] | dict[str | None, dict[str, Estimate]]:
    """Headline metrics with bootstrap CIs over groups: accuracy, partial accuracy,
    consistency, complete failure and confusion rates, and the number of groups.

    Records of several models (a ``model`` column) are never pooled: ``by="model"`` gives
    one summary per model (groups: templates), in order, and any other ``by`` raises
    :class:`~physgen.errors.ArgumentError` when the records hold more than one model.

    >>> rows = [{"model": m, "template_id": t, "correct": m == "right"}
    ...         for m in ("right", "wrong") for t in ("a", "b")]
    >>> {m: s["accuracy"].value for m, s in summary(rows, by="model", n_resamples=0).items()}
    {'right': 1.0, 'wrong': 0.0}
    """
    if by == MODEL:
        return {m: summary(rs, band=band, n_resamples=n_resamples, seed=seed, ci=ci)
                for m, rs in by_model(records).items()}
    t = _as_table(records)
    _one_model(t, "summary")
    codes, names = t.codes(_group_key(by))
    g = len(names)
    hits = np.bincount(codes, weights=t.correct, minlength=g)
    partial = np.bincount(codes, weights=t.score, minlength=g)
    counts = np.bincount(codes, minlength=g).astype(np.float64)
    acc = hits / counts
    lo, hi = band
    indicators = {
        "consistency": (acc == 1.0).astype(np.float64),
        "complete_failure": (acc == 0.0).astype(np.float64),
        "confusion": ((acc >= lo) & (acc <= hi)).astype(np.float64),
    }
    values = {
        "accuracy": float(hits.sum() / counts.sum()),
        "partial_accuracy": float(partial.sum() / counts.sum()),
        **{k: float(v.mean()) for k, v in indicators.items()},
    }
    out = {k: Estimate(v) for k, v in values.items()}
    if n_resamples > 0:
        w = _resample_weights(g, n_resamples, seed)  # (resamples, groups): copies of each group
        total = w @ counts
        boot = {
            "accuracy": (w @ hits) / total,
            "partial_accuracy": (w @ partial) / total,
            **{k: (w @ v) / g for k, v in indicators.items()},
        }
        out = {k: Estimate(values[k], *_interval(boot[k], ci)) for k in values}
    out["groups"] = Estimate(float(g))
    return out


def breakdown(records: Any, by: str | Sequence[str]) -> dict[Any, dict[str, float]]:
    """Accuracy, partial accuracy and count per value of one or more columns
    (``format``, ``paraphrase``, ``difficulty``, ``domain``, ``question_type`` …), sorted by
    value (:func:`ordered`: numbers in numeric order, then text). A list-valued column such
    as ``subdomain`` counts a record once per tag. Records of several models need ``model``
    among the columns (``breakdown(records, ["model", "format"])``); they are never pooled.

    >>> rows = [{"difficulty": d, "correct": c} for d, c in [(10, True), (2, False), (2, True)]]
    >>> {d: b["accuracy"] for d, b in breakdown(rows, "difficulty").items()}
    {2: 0.5, 10: 1.0}
    """
    t = _as_table(records)
    keys = [by] if isinstance(by, str) else list(by)
    if MODEL not in keys:
        _one_model(t, "breakdown")
    table = _breakdown(t, keys)
    return {k: table[k] for k in ordered(table)}


def _breakdown(t: Table, keys: list[str]) -> dict[Any, dict[str, float]]:
    first = itertools.islice(t.column(keys[0]), 1000)
    if len(keys) == 1 and not any(isinstance(v, list | tuple) for v in first):
        codes, names = t.codes(keys[0])
        hits = np.bincount(codes, weights=t.correct)
        part = np.bincount(codes, weights=t.score)
        n = np.bincount(codes)
        return {k: {"accuracy": float(h / c), "partial_accuracy": float(p / c), "n": float(c)}
                for k, h, p, c in zip(names, hits, part, n, strict=True)}
    columns = [list(t.column(k)) for k in keys]
    sums: dict[Any, list[float]] = {}
    for i in range(t.n):
        values = [c[i] for c in columns]
        expanded: list[tuple[Any, ...]] = [()]
        for v in values:
            options = v if isinstance(v, list | tuple) else [v]
            expanded = [(*e, hashable(o)) for e in expanded for o in options]
        for key in expanded:
            s = sums.setdefault(key[0] if len(keys) == 1 else key, [0.0, 0.0, 0.0])
            s[0] += t.correct[i]
            s[1] += t.score[i]
            s[2] += 1
    return {k: {"accuracy": a / n, "partial_accuracy": p / n, "n": n} for k, (a, p, n) in sums.items()}


def conditional_accuracy(records: Any, column: str = "format") -> dict[tuple[Any, Any], float]:
    """``P(correct on B | failed A)`` for each ordered pair of different formats (or values of
    another column), in order, for one model.

    An instance *fails* A when none of its A records is correct; the value is the
    mean accuracy of its B records, over instances that fail A and have B records.
    Pairs with no such instance are left out, and so is the diagonal (A, A): failing A
    means every A record is wrong, so it would be 0 by construction and says nothing.

    >>> rows = [{"instance_id": i, "format": f, "correct": c}
    ...         for i, f, c in [("x", "a", False), ("x", "b", True), ("y", "a", True), ("y", "b", False)]]
    >>> conditional_accuracy(rows)
    {('a', 'b'): 1.0, ('b', 'a'): 1.0}
    """
    return {pair: value for pair, (value, _) in _conditional(_as_table(records), column).items()
            if pair[0] != pair[1]}


def _conditional(t: Table, column: str) -> dict[tuple[Any, Any], tuple[float, int]]:
    """``(P(correct on B | failed A), instances)`` per ordered pair, in order; on the diagonal,
    ``(0.0, number of instances failing A)``."""
    _one_model(t, "conditional_accuracy")
    inst, _ = t.codes("instance_id")
    col, values = t.codes(column)
    f = len(values)
    cell = inst * f + col
    size = (int(inst.max()) + 1) * f
    hits = np.bincount(cell, weights=t.correct, minlength=size).reshape(-1, f)
    n = np.bincount(cell, minlength=size).reshape(-1, f).astype(np.float64)
    present = n > 0
    acc = np.divide(hits, n, out=np.zeros_like(hits), where=present)
    failed = present & (hits == 0)
    out: dict[tuple[Any, Any], tuple[float, int]] = {}
    for a in range(f):
        for b in range(f):
            rows = failed[:, a] & present[:, b]
            if rows.any():
                out[(values[a], values[b])] = (float(acc[rows, b].mean()), int(rows.sum()))
    return {k: out[k] for k in ordered(out)}


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for a problem with ``c`` correct of ``n`` attempts (Chen et al. 2021).

    >>> round(pass_at_k(10, 3, 1), 12), round(pass_at_k(10, 3, 5), 4), pass_at_k(4, 0, 2)
    (0.3, 0.9167, 0.0)
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ArgumentError(f"need 0 ≤ c ≤ n and 1 ≤ k ≤ n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod((n - c - i) / (n - i) for i in range(k))


def attempts(records: Any, k: int) -> dict[str, float]:
    """avg@k, best@k and pass@k over problems (``variant_id``) with at least ``k`` attempts,
    plus the mean per-problem standard deviation of correctness across attempts."""
    t = _as_table(records)
    _one_model(t, "attempts")
    ids, _ = t.codes("variant_id")
    att = np.asarray(t.column("attempt") if t.has("attempt") else np.zeros(t.n), dtype=np.int64)
    order = np.lexsort((att, ids))  # by problem, then attempt
    ids_sorted, correct_sorted = ids[order], t.correct[order]
    starts = np.r_[0, np.flatnonzero(np.diff(ids_sorted)) + 1]
    counts = np.diff(np.r_[starts, len(ids_sorted)])
    rank = np.arange(len(ids_sorted)) - np.repeat(starts, counts)
    keep = counts >= k
    if not keep.any():
        raise ArgumentError(f"no problem has {k} attempts; the most any has is {int(counts.max())}: "
                            "use a smaller k or grade more attempts")
    first = rank < k
    group = np.repeat(np.arange(len(starts)), counts)
    first_hits = np.bincount(group[first], weights=correct_sorted[first], minlength=len(starts))
    first_best = np.zeros(len(starts))
    np.maximum.at(first_best, group[first], correct_sorted[first])
    c = np.bincount(group, weights=correct_sorted, minlength=len(starts))
    n = counts.astype(np.float64)
    fail_all = np.ones(len(starts))
    with np.errstate(divide="ignore", invalid="ignore"):  # problems with n < k are masked out below
        for i in range(k):  # unbiased pass@k = 1 - prod_i (n - c - i) / (n - i), vectorised
            fail_all *= np.clip((n - c - i) / (n - i), 0.0, None)
    p = c / n
    return {f"avg@{k}": float((first_hits / k)[keep].mean()), f"best@{k}": float(first_best[keep].mean()),
            f"pass@{k}": float((1 - fail_all)[keep].mean()),
            "attempt_std": float(np.sqrt(p * (1 - p))[keep].mean()), "problems": float(keep.sum())}


def compare(records_a: Any, records_b: Any, *, by: str = "template", n_resamples: int = 1000,
            seed: int = 0, ci: float = 0.95) -> dict[str, Estimate]:
    """Paired comparison of two models on the same variants (and attempts).

    Returns the accuracy difference A − B with a bootstrap CI over groups, and
    ``p_a_not_better``: the share of resamples in which A is not ahead.
    """
    a, b = _as_table(records_a), _as_table(records_b)
    _one_model(a, "compare (records_a)")
    _one_model(b, "compare (records_b)")
    key_a = list(zip(a.column("variant_id"), _attempts(a), strict=True))
    key_b = {k: i for i, k in enumerate(zip(b.column("variant_id"), _attempts(b), strict=True))}
    pairs = [(i, key_b[k]) for i, k in enumerate(key_a) if k in key_b]
    if not pairs:
        raise InputError("the two sets of records share no variant; compare records graded on the same "
                         "variants (the same catalog, seed and n)")
    ia = np.array([p[0] for p in pairs])
    ib = np.array([p[1] for p in pairs])
    diff = a.correct[ia] - b.correct[ib]
    column = list(a.column(_group_key(by)))
    groups = [column[i] for i in ia]
    index: dict[Any, int] = {}
    codes = np.array([index.setdefault(gv, len(index)) for gv in groups])
    g = len(index)
    sums = np.bincount(codes, weights=diff, minlength=g)
    counts = np.bincount(codes, minlength=g).astype(np.float64)
    value = float(sums.sum() / counts.sum())
    out = {"difference": Estimate(value), "paired_records": Estimate(float(len(pairs)))}
    if n_resamples > 0:
        w = _resample_weights(g, n_resamples, seed)
        boot = (w @ sums) / (w @ counts)
        out["difference"] = Estimate(value, *_interval(boot, ci))
        out["p_a_not_better"] = Estimate(float(np.mean(boot <= 0)))
    return out


def _attempts(t: Table) -> list[Any]:
    return list(t.column("attempt")) if t.has("attempt") else [0] * t.n


def histogram(records: Any, by: str = "template", bins: int = 10) -> list[tuple[float, float, int]]:
    """The distribution of group accuracies: ``(low, high, groups)`` per bin over [0, 1]."""
    accs = np.array(list(group_accuracies(records, by).values()))
    counts, edges = np.histogram(accs, bins=bins, range=(0.0, 1.0))
    return [(float(edges[i]), float(edges[i + 1]), int(counts[i])) for i in range(bins)]


def to_frame(metrics: Mapping[Any, Any]) -> Any:
    """A tidy pandas DataFrame from any result here (needs the ``pandas`` extra)."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_frame needs pandas: pip install 'physgen[pandas]'") from exc
    rows = []
    for key, value in metrics.items():
        if isinstance(value, Estimate):
            rows.append({"metric": key, "value": value.value, "low": value.low, "high": value.high})
        elif isinstance(value, Mapping):
            rows.append({"key": key, **value})
        else:
            rows.append({"key": key, "value": value})
    return pd.DataFrame(rows)


def _step_rows(t: Table) -> npt.NDArray[np.bool_]:
    _one_model(t, "step metrics")
    if not t.has("steps_score"):
        raise MissingColumnError("records have no 'steps_score' column: grade with "
                                 "physgen.grade(..., steps=True) "
                       "variants of templates that declare intermediates")
    return np.asarray([v is not None and v == v for v in t.column("steps_score")], dtype=bool)


def step_accuracy(records: Any) -> dict[str, float]:
    """Over records graded with steps: ``step_accuracy`` (mean share of intermediates found in
    order), ``all_steps`` (share with every step right), ``answer_accuracy`` on the same
    records, and ``n``. Records without steps (no intermediates) are left out.

    >>> rows = [{"correct": c, "steps_score": s, "steps_correct": s == 1.0} for c, s in
    ...         [(True, 1.0), (True, 0.5), (False, 0.0), (False, 1.0)]]
    >>> step_accuracy(rows)
    {'step_accuracy': 0.625, 'all_steps': 0.5, 'answer_accuracy': 0.5, 'n': 4.0}
    """
    t = _as_table(records)
    rows = _step_rows(t)
    if not rows.any():
        raise InputError("no record was graded with steps: grade with physgen.grade(..., steps=True)")
    score = np.asarray(list(t.column("steps_score")), dtype=np.float64)[rows]
    return {"step_accuracy": float(score.mean()), "all_steps": float((score == 1.0).mean()),
            "answer_accuracy": float(t.correct[rows].mean()), "n": float(rows.sum())}


def first_error_steps(records: Any, by: str | None = "domain") -> dict[Any, dict[int, float]]:
    """Where reasoning breaks down: per value of ``by`` (``domain``, ``difficulty``; None for
    all records), the share of replies whose first wrong or missing intermediate belongs to
    step 1, 2, … of the worked solution, and (key 0) whose every step is right.

    >>> rows = [{"domain": "optics", "correct": True, "steps_score": s, "first_error_step": k}
    ...         for s, k in [(1.0, 0), (0.5, 2), (0.0, 1), (0.5, 2)]]
    >>> first_error_steps(rows)
    {'optics': {0: 0.25, 1: 0.25, 2: 0.5}}
    """
    t = _as_table(records)
    rows = np.flatnonzero(_step_rows(t))
    steps = list(t.column("first_error_step"))
    keys = list(t.column(by)) if by is not None else ["all"] * t.n
    counts: dict[Any, dict[int, int]] = {}
    for i in rows.tolist():
        cell = counts.setdefault(keys[i], {})
        cell[int(steps[i])] = cell.get(int(steps[i]), 0) + 1
    return {k: {step: n / sum(c.values()) for step, n in sorted(c.items())} for k, c in counts.items()}


def step_answer_correlation(records: Any) -> dict[str, float]:
    """How step and final-answer correctness go together, over records graded with steps:
    ``phi`` (Pearson's correlation of every-step-right with answer-right, the φ coefficient),
    ``pearson_score`` (of the step score with answer-right), and the four cells of the table
    as shares: ``steps_and_answer``, ``steps_only``, ``answer_only``, ``neither``. A correlation
    is NaN when one side does not vary.

    >>> rows = [{"correct": c, "steps_score": s} for c, s in [(True, 1.0), (True, 1.0), (False, 0.0),
    ...                                                       (False, 0.5), (True, 0.5)]]
    >>> {k: round(v, 3) for k, v in step_answer_correlation(rows).items()}  # doctest: +NORMALIZE_WHITESPACE
    {'phi': 0.667, 'pearson_score': 0.764, 'steps_and_answer': 0.4, 'steps_only': 0.0,
     'answer_only': 0.2, 'neither': 0.4}
    """
    t = _as_table(records)
    rows = _step_rows(t)
    score = np.asarray(list(t.column("steps_score")), dtype=np.float64)[rows]
    answer = t.correct[rows]
    steps = (score == 1.0).astype(np.float64)

    def pearson(a: FloatArray, b: FloatArray) -> float:
        if a.std() == 0 or b.std() == 0:
            return math.nan
        return float(np.corrcoef(a, b)[0, 1])

    miss, wrong = 1 - steps, 1 - answer
    return {"phi": pearson(steps, answer), "pearson_score": pearson(score, answer),
            "steps_and_answer": float(np.mean(steps * answer)), "steps_only": float(np.mean(steps * wrong)),
            "answer_only": float(np.mean(miss * answer)), "neither": float(np.mean(miss * wrong))}

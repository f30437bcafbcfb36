"""physgen in inspect_ai: the task ``physgen/physgen`` and a scorer that is physgen's grader.

inspect_ai finds the task by name through physgen's ``inspect_ai`` entry point,
so once physgen is installed (with inspect-ai: ``pip install 'physgen[harness]'``)::

    inspect eval physgen/physgen -T formats=mc_numerical -T n=2 -T domain=optics --epochs 4 --model ...

``-T`` takes the arguments of :func:`physgen` (lists as ``a,b`` or ``[a, b]``).
The scorer grades each completion with :func:`physgen.grade` in a worker
thread (grading is CPU work, and a ``code`` answer runs in the sandbox), and
reports ``correct`` (inspect's accuracy is physgen's exact-match accuracy) and
``score`` (the fraction of asked quantities right). Each score's metadata holds
the graded record with its attempt (epoch) and model, so :func:`eval_records`
turns a log into records for :mod:`physgen.metrics`, e.g. pass@k over epochs.
From Python::

    from inspect_ai import eval
    log = eval("physgen/physgen", model="openai/gpt-4o-mini", epochs=4, task_args={"n": 2})[0]
    physgen.metrics.attempts(eval_records(log), k=4)
    eval(physgen_task(my_variants), model=...)          # your own variants

(For lm-evaluation-harness, :func:`physgen.export.write_lm_eval_task` writes a task folder.)

>>> t = physgen(formats="mc_numerical", n=1, domain="optics", templates="optics.thin_lens")
>>> len(t.dataset) > 0, t.dataset[0].metadata["variant"]["format"]
(True, 'mc_numerical')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

try:
    import anyio
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.log import EvalLog
    from inspect_ai.scorer import Score, Scorer, Target, accuracy, mean, scorer, stderr
    from inspect_ai.solver import TaskState
    from inspect_ai.solver import generate as generate_solver
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("physgen.harness needs inspect_ai: pip install 'physgen[harness]'") from exc

from .errors import ArgumentError, InputError, unknown
from .export import target_text
from .generation import Paraphrases, Source, generate
from .grading import grade
from .metrics import record
from .variant import Variant

#: The scorer's name: the key of its scores in an eval log's samples.
SCORER = "physgen_grade"


@scorer(metrics={"correct": [accuracy(), stderr()], "score": [mean(), stderr()]})
def physgen_grade() -> Scorer:
    """An inspect_ai scorer: physgen's grader on the completion, with the variant from the
    sample's metadata. Its value is ``{"correct": 0 or 1, "score": fraction right}``."""

    async def score(state: TaskState, target: Target) -> Score:
        variant = Variant.from_dict(state.metadata["variant"])
        g = await anyio.to_thread.run_sync(grade, variant, state.output.completion)
        return Score(
            value={"correct": float(g.correct), "score": g.score},
            answer=g.extracted[:200],
            explanation="; ".join(f"{p.name}: {p.reason}" for p in g.parts),
            metadata={"record": record(variant, g, attempt=state.epoch - 1, model=str(state.model))},
        )

    return score


def physgen_task(variants: Iterable[Variant] | None = None, *, source: Source | None = None,
                 n: int = 1, seed: int = 0, formats: Sequence[str] = ("free_form",),
                 paraphrases: Paraphrases = "random", epochs: int = 1) -> Task:
    """An inspect_ai ``Task`` over ``variants``, or over variants generated from ``source``
    (default: the built-in catalog) with the usual :func:`physgen.generate` arguments.
    Each sample's input is the variant's prompt, which ends with its answer instruction."""
    if variants is None:
        if source is None:
            from .catalog import load_catalog

            source = load_catalog()
        variants = generate(source, n=n, seed=seed, formats=formats, paraphrases=paraphrases)
    samples = [Sample(input=v.prompt, id=v.variant_id, target=target_text(v),
                      metadata={"variant": v.to_dict()}) for v in variants]
    return Task(dataset=MemoryDataset(samples, name="physgen"), solver=generate_solver(),
                scorer=physgen_grade(), epochs=epochs)


def _names(value: str | Iterable[Any] | None) -> list[str] | None:
    """A ``-T`` list: ``a,b`` (a string) or a list; ``None`` stays ``None``."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    return [s.strip() for s in items if s.strip()]


@task
def physgen(formats: str | Sequence[str] = "free_form", n: int = 1, seed: int = 0,
            domain: str | Sequence[str] | None = None, difficulty: int | str | Sequence[int] | None = None,
            templates: str | Sequence[str] | None = None, paraphrases: Literal["random", "all"] = "random",
            epochs: int = 1) -> Task:
    """physgen problems from the built-in catalog: ``n`` instances of each chosen template
    (by ``domain``, ``difficulty`` and ``templates`` ids), in each of ``formats``, with a
    ``"random"`` paraphrase each (or ``"all"``). ``epochs`` answers each problem that many
    times (``--epochs`` on the command line does the same), for pass@k."""
    from .catalog import load_catalog

    levels = None if difficulty is None else (
        difficulty if isinstance(difficulty, int) else [int(x) for x in _names(difficulty) or []])
    chosen = load_catalog(lazy=True).filter(domain=_names(domain), difficulty=levels, ids=_names(templates))
    if paraphrases not in ("random", "all"):
        raise unknown("paraphrases", paraphrases, ("random", "all"))
    names = _names(formats)
    if not names:
        raise ArgumentError("formats is empty; name at least one, e.g. -T formats=free_form,mc_numerical")
    return physgen_task(source=chosen, n=n, seed=seed, formats=names, paraphrases=paraphrases,
                        epochs=epochs)


def eval_records(log: EvalLog) -> list[dict[str, Any]]:
    """The graded records in an inspect_ai eval log (one per sample and epoch, ``attempt`` =
    epoch - 1), ready for :mod:`physgen.metrics`: ``metrics.attempts(eval_records(log), k)``."""
    if log.samples is None:
        raise InputError("the log has no samples; read it with inspect_ai.log.read_eval_log(path) "
                         "(not header_only)")
    scores = [s.scores.get(SCORER) for s in log.samples if s.scores]
    return [score.metadata["record"] for score in scores if score is not None and score.metadata]

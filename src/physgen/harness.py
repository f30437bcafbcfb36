"""physgen as an inspect_ai task: a dataset of variants and a scorer that calls the grader.

(For lm-evaluation-harness, :func:`physgen.export.write_lm_eval_task` writes a task folder.)

Needs ``inspect_ai`` (``pip install inspect-ai``)::

    from inspect_ai import eval
    from physgen.harness import physgen_task
    eval(physgen_task(n=2, formats=("free_form", "mc_numerical")), model="openai/gpt-4o-mini")
    eval(physgen_task(my_variants), model=...)

The scorer parses each completion with :func:`physgen.grade`, so inspect_ai's
accuracy is physgen's exact-match accuracy; each score's metadata carries the
graded record, ready for :mod:`physgen.metrics`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .export import INSTRUCTION, target_text
from .generation import Source, generate
from .grading import grade
from .metrics import record
from .variant import Variant


def _inspect() -> Any:
    try:
        import inspect_ai
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("the inspect_ai task needs inspect_ai: pip install inspect-ai") from exc
    return inspect_ai


def physgen_scorer() -> Any:
    """An inspect_ai scorer: physgen's grader on the completion, with the variant from metadata."""
    _inspect()
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
    from inspect_ai.solver import TaskState

    @scorer(metrics=[accuracy(), stderr()])
    def physgen_grade() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            variant = Variant.from_dict(state.metadata["variant"])
            g = grade(variant, state.output.completion)
            return Score(
                value=CORRECT if g.correct else INCORRECT,
                answer=g.extracted[:200],
                explanation="; ".join(f"{p.name}: {p.reason}" for p in g.parts),
                metadata={"record": record(variant, g), "score": g.score},
            )

        return score

    return physgen_grade()


def physgen_task(variants: Iterable[Variant] | None = None, *, source: Source | None = None,
                 n: int = 1, seed: int = 0, formats: Sequence[str] = ("free_form",),
                 paraphrases: Any = "random") -> Any:
    """An inspect_ai ``Task`` over ``variants``, or over variants generated from ``source``
    (default: the built-in catalog) with the usual :func:`physgen.generate` arguments."""
    _inspect()
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.solver import generate as generate_solver

    if variants is None:
        if source is None:
            from .catalog import load_catalog

            source = load_catalog()
        variants = generate(source, n=n, seed=seed, formats=formats, paraphrases=paraphrases)
    samples = [
        Sample(input=v.prompt + INSTRUCTION, id=v.variant_id,
               target=target_text(v),
               metadata={"variant": v.to_dict()})
        for v in variants
    ]
    return Task(dataset=MemoryDataset(samples, name="physgen"), solver=generate_solver(),
                scorer=physgen_scorer())

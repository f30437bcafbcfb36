"""Rewards for RL trainers: physgen's grader, called the way TRL and verl call a reward.

* :func:`trl_reward` is a reward function for TRL's ``GRPOTrainer``
  (``reward_funcs=trl_reward``). It reads each row's ``variant`` column (a dict
  or its JSON text), which :meth:`physgen.dataset.ProceduralDataset.to_hf_dataset`
  provides.
* :func:`compute_score` is a verl custom reward function
  (``reward.custom_reward_function.path=pkg://physgen.rewards``, name ``compute_score``;
  verl 0.7.0 and older read ``custom_reward_function.path``); its ``ground_truth``
  is the variant's JSON, which ``to_hf_dataset("verl")`` puts in
  ``reward_model.ground_truth``.

Both return 1.0 for a reply that grades correct and 0.0 otherwise; with
``partial_credit=True`` they return the fraction of the asked quantities that
are right (TRL: ``functools.partial(trl_reward, partial_credit=True)``; verl:
``+reward.custom_reward_function.reward_kwargs.partial_credit=true``).

>>> import physgen
>>> v = next(physgen.generate(["optics.thin_lens"], n=1, seed=0))
>>> right = physgen.formats.get_format(v.format).reference(v)     # every part right
>>> half = "\\n".join(right.splitlines()[:2])                      # (a) only, of (a) and (b)
>>> trl_reward(prompts=[v.prompt] * 3, completions=[right, half, [{"role": "assistant", "content": right}]],
...            variant=[v.to_json(), v.to_dict(), v.to_json()])
[1.0, 0.0, 1.0]
>>> compute_score("physgen", half, v.to_json(), partial_credit=True)
0.5
"""

from __future__ import annotations

import functools
import json
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import InputError, RecordSizeError
from .grading import grade
from .variant import Variant


@functools.lru_cache(maxsize=1024)
def _from_json(text: str) -> Variant:
    # GRPO scores each prompt's variant once per generation: parse each JSON text once
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"expected a physgen variant as JSON, got {text[:80]!r}") from exc
    if not isinstance(data, dict):
        raise InputError(f"expected a physgen variant (a JSON object), got {text[:80]!r}")
    return Variant.from_dict(data)


def as_variant(variant: Variant | Mapping[str, Any] | str) -> Variant:
    """A :class:`~physgen.Variant` from itself, its ``to_dict()`` or its JSON text."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return _from_json(variant)
    if isinstance(variant, Mapping):
        return Variant.from_dict(dict(variant))
    raise InputError(f"expected a physgen variant (a dict or its JSON text), got {type(variant).__name__}")


def completion_text(completion: Any) -> str:
    """The reply in a completion: the text itself, or the last assistant message of a
    conversation (a list of ``{"role", "content"}`` dicts, content as text or as parts)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence):
        return "" if completion is None else str(completion)
    replies = [m for m in completion if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"]
    if not replies:
        return ""
    content = replies[-1].get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # multimodal content parts: keep the text ones
        return "".join(str(p.get("text", "")) for p in content
                       if isinstance(p, Mapping) and p.get("type", "text") == "text")
    return ""


def score(variant: Variant | Mapping[str, Any] | str, reply: Any, *, partial_credit: bool = False) -> float:
    """1.0 if ``reply`` grades correct for ``variant`` (else 0.0), or with ``partial_credit``
    the grade's score: the fraction of asked quantities right. ``None`` scores 0, and so does a
    variant record larger than a variant can be (:class:`~physgen.errors.RecordSizeError`), with a
    warning that says why: a hostile row of a training set does not stop the trainer.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     score({"steps": ["x"] * 101}, "42 m"), str(caught[0].message)[:58]
    (0.0, 'physgen scored 0: a variant record holds at most 100 steps')
    """
    if reply is None:
        return 0.0
    try:
        v = as_variant(variant)
    except RecordSizeError as exc:
        warnings.warn(f"physgen scored 0: {exc}", stacklevel=2)
        return 0.0
    g = grade(v, completion_text(reply))
    return float(g.score) if partial_credit else float(g.correct)


def trl_reward(prompts: Sequence[Any], completions: Sequence[Any], *, partial_credit: bool = False,
               **kwargs: Any) -> list[float | None]:
    """A reward function for TRL's ``GRPOTrainer``: one reward per completion.

    Called as TRL calls custom reward functions (TRL v1.16.0,
    ``trl/trainer/grpo_trainer.py``, ``GRPOTrainer._calculate_rewards``):
    ``reward_func(prompts=..., completions=..., completion_ids=..., **columns)``,
    where the columns are every dataset column but ``prompt`` (one value per
    completion), plus ``trainer_state``, ``log_extra``, ``log_metric`` and, with
    environments, ``environments``; TRL checks that one reward comes back per completion.
    Completions are strings, or lists of message dicts for a conversational
    dataset. The ``variant`` column (dicts or JSON text) says what each
    completion answers; a row whose variant is ``None`` (another task's row
    in a mixed dataset) gets ``None``, which TRL leaves out of that row's reward.
    """
    variants = kwargs.get("variant")
    if variants is None:
        raise InputError("trl_reward needs the dataset's 'variant' column (a physgen variant per row); "
                         "physgen.dataset(...).to_hf_dataset() has one")
    if len(variants) != len(completions):
        raise InputError(f"{len(completions)} completions but {len(variants)} variants")
    return [None if v is None else score(v, c, partial_credit=partial_credit)
            for v, c in zip(variants, completions, strict=True)]


def compute_score(data_source: str, solution_str: str, ground_truth: str | Mapping[str, Any],
                  extra_info: Mapping[str, Any] | None = None, *, partial_credit: bool = False,
                  **kwargs: Any) -> float:
    """A verl reward function: the score of ``solution_str`` for the variant in ``ground_truth``.

    Matches verl's custom reward convention (verl 0.9.1:
    ``verl/trainer/ppo/reward.py`` ``get_custom_reward_fn`` loads it from
    ``reward.custom_reward_function`` (``path``, ``name``) and adds its ``reward_kwargs``,
    such as ``partial_credit``; the reward loop's naive manager,
    ``verl/experimental/reward_loop/reward_manager/naive.py``, calls
    ``compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...)``
    and reads a float, or a dict with ``score``). verl 0.7.0 and older read the
    top-level ``custom_reward_function`` key; 0.7.1 and 0.8 copy it to ``reward.``;
    0.9 accepts it but ignores it. ``data_source`` and ``extra_info`` are not needed to
    grade; ``kwargs`` takes the other keywords verl passes with a reward router
    (``reward_router_address``, ``reward_model_tokenizer``).
    """
    return score(ground_truth, solution_str, partial_credit=partial_credit)

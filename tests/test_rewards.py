"""physgen.rewards, called exactly as TRL's GRPOTrainer and verl's reward managers call a reward.

The calls below copy the trainers' code (neither trainer is installed: both need torch):
TRL v1.9.0, trl/trainer/grpo_trainer.py, GRPOTrainer._calculate_rewards and the completion
decoding in _generate_and_score_completions; trl/trainer/utils.py, get_callable_name.
verl v0.7.0, verl/workers/reward_manager/naive.py, NaiveRewardManager.__call__;
verl/trainer/ppo/reward.py, get_custom_reward_fn and _call_with_kwargs;
verl/utils/import_utils.py, load_module ("pkg://" paths).
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen.errors import InputError
from physgen.rewards import completion_text, compute_score, trl_reward

NONSENSE = "The answer is purple."
GENERATIONS = 2  # GRPOConfig.num_generations: each prompt is answered twice, here right then wrong


def _trl_calculate_rewards(reward_funcs: list[Callable[..., Any]], inputs: list[dict[str, Any]],
                           prompts: list[Any], completions: list[Any],
                           completion_ids_list: list[list[int]]) -> list[list[float]]:
    """GRPOTrainer._calculate_rewards (TRL v1.9.0) for custom, synchronous reward functions."""
    keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
    reward_kwargs = {key: [example[key] for example in inputs] for key in keys}
    reward_kwargs["trainer_state"] = object()  # a transformers.TrainerState
    reward_kwargs["log_extra"] = lambda column, values: None
    reward_kwargs["log_metric"] = lambda name, value: None
    rewards_per_func = []
    for reward_func in reward_funcs:
        output_reward_func = reward_func(
            prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs
        )
        output_reward_func = [reward if reward is not None else math.nan for reward in output_reward_func]
        rewards_per_func.append(output_reward_func)
    return rewards_per_func


def _trl_reward_name(func: Callable[..., Any]) -> str:
    """trl.trainer.utils.get_callable_name (TRL v1.9.0): how the reward is named in the logs."""
    while isinstance(func, functools.partial):
        func = func.func
    return getattr(func, "__name__", type(func).__name__)


Rollout = tuple[list[dict[str, Any]], list[Any], list[Any]]


def _rollout(rows: list[dict[str, Any]], conversational: bool) -> Rollout:
    """The repeated inputs (RepeatSampler), prompts, and decoded completions: the reference answer,
    then nonsense, per prompt; messages for a conversational dataset, as TRL decodes them."""
    inputs = [row for row in rows for _ in range(GENERATIONS)]
    contents = [text for row in rows for text in (row["answer"], NONSENSE)]
    if conversational:
        completions: list[Any] = [[{"role": "assistant", "content": content}] for content in contents]
    else:
        completions = contents
    return inputs, [x["prompt"] for x in inputs], completions


@pytest.mark.parametrize("conversational", [False, True])
def test_trl_calls_trl_reward_with_the_dataset_columns(conversational: bool) -> None:
    pytest.importorskip("datasets")
    ds = physgen.dataset(size=6, seed=1, formats=["free_form", "mc_numerical", "omitted"])
    rows = list(ds.to_hf_dataset(conversational=conversational))  # "variant" arrives as JSON text
    inputs, prompts, completions = _rollout(rows, conversational)
    ids = [[1, 2, 3]] * len(completions)
    partial = functools.partial(trl_reward, partial_credit=True)
    exact, credit = _trl_calculate_rewards([trl_reward, partial], inputs, prompts, completions, ids)
    assert exact == [1.0, 0.0] * len(rows)
    assert credit == exact  # the reference is all right, nonsense all wrong
    assert _trl_reward_name(trl_reward) == _trl_reward_name(partial) == "trl_reward"


def test_trl_reward_partial_credit_dict_variants_and_other_tasks_rows() -> None:
    v = next(physgen.generate(["optics.thin_lens"], n=1, seed=0))
    first_part = "Final answer:\n(a) " + next(iter(v.answers.values())).text
    rows = [{"prompt": v.prompt, "variant": v.to_dict()}, {"prompt": "2 + 2?", "variant": None}]
    inputs = [rows[0], rows[0], rows[1]]
    prompts = [r["prompt"] for r in inputs]
    completions = [first_part, NONSENSE, "4"]
    ids = [[0]] * 3
    exact, credit = _trl_calculate_rewards([trl_reward, functools.partial(trl_reward, partial_credit=True)],
                                           inputs, prompts, completions, ids)
    assert exact[:2] == [0.0, 0.0] and credit[:2] == [0.5, 0.0]
    assert math.isnan(exact[2]) and math.isnan(credit[2])  # not a physgen row: left out by TRL
    with pytest.raises(InputError, match="'variant' column"):
        trl_reward(prompts=prompts, completions=completions, completion_ids=ids)
    with pytest.raises(InputError, match="3 completions but 1 variants"):
        trl_reward(prompts=prompts, completions=completions, variant=[v.to_json()])


def test_completion_text_reads_strings_and_chat_messages() -> None:
    assert completion_text("x = 1 m") == "x = 1 m"
    parts = [{"type": "text", "text": "Final "}, {"type": "image"}, {"type": "text", "text": "B"}]
    chat = [{"role": "assistant", "content": "first"}, {"role": "tool", "content": "42"},
            {"role": "assistant", "content": parts}]
    assert completion_text(chat) == "Final B"
    assert completion_text({"role": "assistant", "content": "C"}) == "C"
    assert completion_text([{"role": "user", "content": "hi"}]) == "" and completion_text(None) == ""


def _verl_custom_reward_fn(reward_kwargs: dict[str, Any]) -> Callable[..., Any]:
    """get_custom_reward_fn (verl v0.7.0) with custom_reward_function.path=pkg://physgen.rewards."""
    module_path, fn_name = "pkg://physgen.rewards", "compute_score"
    module = importlib.import_module(module_path[len("pkg://"):].replace("/", "."))  # load_module
    raw_fn = getattr(module, fn_name)

    def _call_with_kwargs(raw_fn: Any, extra_kwargs: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        merged_kwargs = {**kwargs, **extra_kwargs}
        return raw_fn(*args, **merged_kwargs)

    return functools.partial(_call_with_kwargs, raw_fn, reward_kwargs)


def _verl_naive_scores(compute_score_fn: Callable[..., Any], items: list[dict[str, Any]],
                       responses: list[str]) -> list[Any]:
    """NaiveRewardManager.__call__ (verl v0.7.0), per item, after decoding the response."""
    reward_fn_key = "data_source"
    scores = []
    for non_tensor_batch, response_str in zip(items, responses, strict=True):
        ground_truth = non_tensor_batch["reward_model"]["ground_truth"]
        data_source = non_tensor_batch[reward_fn_key]
        extra_info = non_tensor_batch.get("extra_info", {})
        extra_info["num_turns"] = non_tensor_batch.get("__num_turns__", None)
        extra_info["rollout_reward_scores"] = non_tensor_batch.get("reward_scores", {})
        scores.append(compute_score_fn(data_source=data_source, solution_str=response_str,
                                       ground_truth=ground_truth, extra_info=extra_info))
    return scores


def test_verl_calls_compute_score_on_its_parquet_rows(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    ds = physgen.dataset(size=5, seed=2, formats=["free_form", "mc_numerical", "noop"])
    ds.to_hf_dataset("verl").to_parquet(str(tmp_path / "train.parquet"))
    items = list(datasets.load_dataset("parquet", data_files=str(tmp_path / "train.parquet"))["train"])
    answers = [item["extra_info"]["answer"] for item in items]
    assert _verl_naive_scores(_verl_custom_reward_fn({}), items, answers) == [1.0] * 5
    assert _verl_naive_scores(_verl_custom_reward_fn({}), items, [NONSENSE] * 5) == [0.0] * 5
    assert all(type(s) is float for s in _verl_naive_scores(_verl_custom_reward_fn({}), items, answers))


def test_verl_partial_credit_through_reward_kwargs() -> None:
    v = next(physgen.generate(["optics.thin_lens"], n=1, seed=0))
    item = {"data_source": "physgen", "reward_model": {"style": "rule", "ground_truth": v.to_json()}}
    first_part = "Final answer:\n(a) " + next(iter(v.answers.values())).text
    partial = _verl_custom_reward_fn({"partial_credit": True})
    assert _verl_naive_scores(partial, [dict(item)], [first_part]) == [0.5]
    assert _verl_naive_scores(_verl_custom_reward_fn({}), [dict(item)], [first_part]) == [0.0]
    # the reward-loop manager also passes its router's address and tokenizer
    assert compute_score("physgen", first_part, v.to_json(), {}, reward_router_address="host:1",
                         reward_model_tokenizer=None, partial_credit=True) == 0.5
    with pytest.raises(InputError, match="as JSON"):
        compute_score("physgen", first_part, "42 m")

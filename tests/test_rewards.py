"""physgen.rewards, called exactly as TRL's GRPOTrainer and verl's reward managers call a reward.

TRL (not installed: it needs torch): the calls below copy TRL v1.16.0,
trl/trainer/grpo_trainer.py, GRPOTrainer._calculate_rewards and the completion decoding in
_generate_and_score_completions; trl/trainer/utils.py, get_callable_name.

verl 0.9.1 is installed without its dependencies (``pip install --no-deps verl==0.9.1``, as
.ci/run does; torch is not in the test extra): its shipped Hydra config is composed as
``verl.trainer.main_ppo`` composes it, and physgen's reward is loaded by verl's own
``get_custom_reward_fn`` (verl/trainer/ppo/reward.py) and called with the keywords that
verl's naive reward manager passes, read from its source.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import math
import os
import sys
import types
from collections.abc import Callable, Iterator
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
    """GRPOTrainer._calculate_rewards (TRL v1.16.0) for custom, synchronous reward functions."""
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
        if len(output_reward_func) != len(prompts):
            raise ValueError("one reward per prompt-completion pair expected")
        rewards_per_func.append(output_reward_func)
    return rewards_per_func


def _trl_reward_name(func: Callable[..., Any]) -> str:
    """trl.trainer.utils.get_callable_name (TRL v1.16.0): how the reward is named in the logs."""
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


# -- verl ------------------------------------------------------------------------------------------
#: The README's overrides for verl >= 0.7.1 (verl <= 0.7.0 read the same keys without "reward.").
VERL_KEY = ["reward.custom_reward_function.path=pkg://physgen.rewards",
            "reward.custom_reward_function.name=compute_score"]


@functools.cache
def _verl_root() -> Path:
    spec = importlib.util.find_spec("verl")  # finds the package without running its __init__
    if spec is None or spec.origin is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs verl without its dependencies: pip install --no-deps 'verl==0.9.1'")
        pytest.skip("verl is not installed (pip install --no-deps 'verl==0.9.1')")
    return Path(spec.origin).parent


@pytest.fixture(scope="module")
def verl_reward() -> Iterator[types.ModuleType]:
    """verl's own verl/trainer/ppo/reward.py, imported from the installed package.

    The package modules ``verl`` and ``verl.utils`` import torch in their ``__init__``; the
    reward loader does not. Without torch they are stood in by empty packages on verl's own
    folders, so the loader (``get_custom_reward_fn``, ``import_utils.load_extern_object``,
    ``load_module``) is verl's code, unchanged. ``DataProto`` (torch batches) is never used.
    """
    root = _verl_root()
    saved = {k: m for k, m in sys.modules.items() if k == "verl" or k.startswith("verl.")}
    if importlib.util.find_spec("torch") is None:
        for name, folder in (("verl", root), ("verl.utils", root / "utils")):
            package = types.ModuleType(name)
            package.__path__ = [str(folder)]
            sys.modules[name] = package
        sys.modules["verl"].DataProto = None  # type: ignore[attr-defined]
    try:
        yield importlib.import_module("verl.trainer.ppo.reward")
    finally:
        for k in [k for k in sys.modules if k == "verl" or k.startswith("verl.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _verl_config(overrides: list[str]) -> Any:
    """verl's trainer config as ``python -m verl.trainer.main_ppo <overrides>`` composes it
    (``@hydra.main(config_path="config", config_name="ppo_trainer")``)."""
    pytest.importorskip("hydra")
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(_verl_root() / "trainer" / "config"), version_base=None):
        return compose("ppo_trainer", overrides=overrides)


def _verl_call_keywords() -> tuple[set[str], set[str]]:
    """The keywords verl's naive reward manager passes to ``compute_score`` (read from
    NaiveRewardManager.run_single), and the keys of the extra ones it adds with a reward router."""
    tree = ast.parse((_verl_root() / "experimental/reward_loop/reward_manager/naive.py").read_text())
    calls = [n for n in ast.walk(tree)
             if isinstance(n, ast.Call) and ast.unparse(n.func) == "self.compute_score"]
    assert len(calls) == 2  # the async and the sync call
    named = [{k.arg for k in c.keywords if k.arg is not None} for c in calls]
    splat = [[k.value for k in c.keywords if k.arg is None] for c in calls]
    assert named[0] == named[1] and all(len(s) == 1 and isinstance(s[0], ast.Name) for s in splat)
    extra = {splat[0][0].id}  # type: ignore[attr-defined]
    assigned = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id in extra for t in n.targets)]
    keys = {k.value for a in assigned for d in ast.walk(a) if isinstance(d, ast.Dict)
            for k in d.keys if isinstance(k, ast.Constant)}
    return named[0], keys


def _verl_scores(reward_fn: Callable[..., Any], items: list[dict[str, Any]], responses: list[str],
                 **extra: Any) -> list[Any]:
    """The reward of each decoded response, called as verl's naive reward manager calls it:
    ``data_source``, ``reward_model.ground_truth`` and ``extra_info`` of the parquet row."""
    keywords, _ = _verl_call_keywords()
    assert keywords == {"data_source", "solution_str", "ground_truth", "extra_info"}
    return [reward_fn(data_source=item["data_source"], solution_str=response,
                      ground_truth=item["reward_model"]["ground_truth"],
                      extra_info={**(item.get("extra_info") or {}), "num_turns": None,
                                  "rollout_reward_scores": {}}, **extra)
            for item, response in zip(items, responses, strict=True)]


def test_verl_loads_compute_score_from_the_reward_key(verl_reward: types.ModuleType, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    ds = physgen.dataset(size=5, seed=2, formats=["free_form", "mc_numerical", "noop"])
    ds.to_hf_dataset("verl").to_parquet(str(tmp_path / "train.parquet"))
    items = list(datasets.load_dataset("parquet", data_files=str(tmp_path / "train.parquet"))["train"])
    answers = [item["extra_info"]["answer"] for item in items]
    exact = verl_reward.get_custom_reward_fn(_verl_config(VERL_KEY))
    assert exact is not None and exact.args[0] is compute_score
    assert _verl_scores(exact, items, answers) == [1.0] * 5
    assert _verl_scores(exact, items, [NONSENSE] * 5) == [0.0] * 5
    assert all(type(s) is float for s in _verl_scores(exact, items, answers))
    # with a reward router, the manager adds its address and tokenizer: compute_score takes them
    _, router_keys = _verl_call_keywords()
    assert router_keys == {"reward_router_address", "reward_model_tokenizer"}
    assert _verl_scores(exact, items[:1], answers[:1], **dict.fromkeys(router_keys)) == [1.0]


def test_verl_partial_credit_through_reward_kwargs(verl_reward: types.ModuleType) -> None:
    v = next(physgen.generate(["optics.thin_lens"], n=1, seed=0))
    item = {"data_source": "physgen", "reward_model": {"style": "rule", "ground_truth": v.to_json()}}
    first_part = "Final answer:\n(a) " + next(iter(v.answers.values())).text
    partial = verl_reward.get_custom_reward_fn(
        _verl_config([*VERL_KEY, "+reward.custom_reward_function.reward_kwargs.partial_credit=true"]))
    assert _verl_scores(partial, [item], [first_part]) == [0.5]
    exact = verl_reward.get_custom_reward_fn(_verl_config(VERL_KEY))
    assert _verl_scores(exact, [item], [first_part]) == [0.0]
    # reward_kwargs is not in verl's default config: Hydra wants the "+" the README shows
    hydra_errors = pytest.importorskip("hydra.errors")
    with pytest.raises(hydra_errors.ConfigCompositionException, match=r"use \+reward"):
        _verl_config([*VERL_KEY, "reward.custom_reward_function.reward_kwargs.partial_credit=true"])
    with pytest.raises(InputError, match="as JSON"):
        compute_score("physgen", first_part, "42 m")


def test_verl_09_ignores_the_old_top_level_key(verl_reward: types.ModuleType) -> None:
    """verl <= 0.7.0 read ``custom_reward_function``; 0.7.1 and 0.8 moved it to ``reward.`` and
    copied the old key over; 0.9 still accepts the old key but no longer reads it."""
    old = ["custom_reward_function.path=pkg://physgen.rewards", "custom_reward_function.name=compute_score"]
    assert verl_reward.get_custom_reward_fn(_verl_config(old)) is None
    # so verl falls back to its built-in rewards, which stop at the first physgen row
    from verl.utils.reward_score import default_compute_score

    with pytest.raises(NotImplementedError, match="data_source='physgen'"):
        default_compute_score("physgen", "B", "{}")

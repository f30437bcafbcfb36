"""The inspect_ai task (by name, with epochs, from the command line) and the lm-eval task folder run
end to end offline: models are inspect_ai's mock model with canned outputs, each with a ``usage``
so that inspect_ai never downloads a tokenizer to count tokens."""

from __future__ import annotations

import collections
import os
import re
import shlex
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import physgen

pytest.importorskip("inspect_ai")
from click.testing import CliRunner  # inspect_ai's command line is click
from inspect_ai import eval as inspect_eval
from inspect_ai._cli.main import inspect as inspect_cli
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.model._providers.mockllm import MockLLM

from physgen import harness, metrics
from physgen.formats import get_format

ROOT = Path(__file__).resolve().parents[1]
Reply = Callable[[list[ChatMessage], Any, Any, GenerateConfig], ModelOutput]


def _output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
    return out


def _replying(answer: Callable[[str], str]) -> Reply:
    """A mock model's ``custom_outputs``: the reply to each prompt, by its text."""
    def reply(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return _output(answer(messages[-1].text))

    return reply


class _Canned(MockLLM):
    """The mock model answering "Final answer: A" to everything, for the command line
    (where ``custom_outputs`` cannot be passed)."""

    def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None,
                 config: GenerateConfig | None = None, **model_args: Any) -> None:
        super().__init__(model_name, base_url, api_key, config or GenerateConfig(),
                         custom_outputs=_replying(lambda prompt: "Final answer: A"))


@modelapi(name="physgen_canned")
def _canned() -> type[ModelAPI]:
    return _Canned


def test_inspect_task_scores_correct_and_partial_off_the_event_loop(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    variants = list(physgen.generate(["optics.thin_lens", "electricity.dc_motor_losses"], n=1, seed=2,
                                     paraphrases=[0], formats=["free_form", "mc_numerical"]))
    replies = {}
    for k, v in enumerate(variants):
        right = get_format(v.format).reference(v)
        if v.options:
            replies[v.prompt] = right if k % 2 == 0 else "Final answer: Z"
        else:  # the first part only: partly right
            replies[v.prompt] = "\n".join(right.splitlines()[:2])
    threads = []

    def grade_here(variant: physgen.Variant, reply: str) -> physgen.Grade:
        threads.append(threading.current_thread() is threading.main_thread())
        return physgen.grade(variant, reply)

    monkeypatch.setattr(harness, "grade", grade_here)
    model = get_model("mockllm/model", custom_outputs=_replying(replies.__getitem__))
    log = inspect_eval(harness.physgen_task(variants), model=model, log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success" and log.samples is not None
    assert threads and not any(threads)  # graded in worker threads, not on the event loop
    by_id = {s.id: s for s in log.samples}
    for v in variants:
        score = by_id[v.variant_id].scores[harness.SCORER]  # type: ignore[index]
        g = physgen.grade(v, replies[v.prompt])
        assert score.value == {"correct": float(g.correct), "score": g.score}
        assert score.metadata is not None and score.metadata["record"]["template_id"] == v.template_id
    values = [s.scores[harness.SCORER].value for s in log.samples]  # type: ignore[index]
    assert {v["correct"] for v in values} == {0.0, 1.0} and any(0 < v["score"] < 1 for v in values)
    assert log.results is not None
    got = {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}
    assert got["correct"]["accuracy"] == pytest.approx(sum(v["correct"] for v in values) / len(values))
    assert got["score"]["mean"] == pytest.approx(sum(v["score"] for v in values) / len(values))


def test_inspect_task_by_name_with_epochs_gives_pass_at_k(tmp_path: Path) -> None:
    templates = physgen.dataset.select_templates(domain="optics")
    expected = list(physgen.generate(templates, n=2, formats=["mc_numerical"], paraphrases="random"))
    index = {v.prompt: j for j, v in enumerate(expected)}
    assert len(index) == len(expected)
    calls: collections.Counter[str] = collections.Counter()

    def answer(prompt: str) -> str:  # problem j is answered right at attempts a with (j + a) % 3 == 0
        v = expected[index[prompt]]
        attempt = calls[prompt]
        calls[prompt] += 1
        return f"Final answer: {v.answer_key}" if (index[prompt] + attempt) % 3 == 0 else "Final answer: Z"

    model = get_model("mockllm/model", custom_outputs=_replying(answer))
    log = inspect_eval("physgen/physgen", model=model, epochs=2, log_dir=str(tmp_path), display="none",
                       task_args={"formats": "mc_numerical", "n": 2, "domain": "optics"})[0]
    assert log.status == "success" and log.eval.task == "physgen/physgen"
    records = harness.eval_records(log)
    assert len(records) == 2 * len(expected) and {r["attempt"] for r in records} == {0, 1}
    assert {r["variant_id"] for r in records} == {v.variant_id for v in expected}
    right = [[(j + a) % 3 == 0 for a in range(2)] for j in range(len(expected))]
    got = metrics.attempts(records, k=2)
    assert got["problems"] == len(expected)
    assert got["avg@2"] == pytest.approx(sum(map(sum, right)) / (2 * len(expected)))
    assert got["pass@2"] == pytest.approx(sum(map(any, right)) / len(expected))
    assert got["pass@2"] > got["avg@2"]


def test_inspect_task_arguments() -> None:
    t = harness.physgen(formats="free_form,mc_numerical", difficulty="1,2", templates="optics.malus_law")
    formats = collections.Counter(s.metadata["variant"]["format"] for s in t.dataset)  # type: ignore[index]
    assert set(formats) == {"free_form", "mc_numerical"}
    with pytest.raises(physgen.ArgumentError, match="did you mean 'optics'"):
        harness.physgen(domain="optic")
    with pytest.raises(physgen.UnknownTemplateError,
                       match=r"optics\.thin_lns.*did you mean 'optics\.thin_lens'"):
        harness.physgen(templates=["optics.thin_lns"])
    with pytest.raises(physgen.ArgumentError, match="select nothing together"):
        harness.physgen(templates=["optics.thin_lens"], domain="mechanics")
    with pytest.raises(physgen.ArgumentError, match="paraphrases"):
        harness.physgen(paraphrases="some")


def _inspect_eval_cli(command: str) -> None:
    """Run an ``inspect eval ...`` command line in this process (so the canned model is registered)."""
    result = CliRunner().invoke(inspect_cli, [*shlex.split(command)[1:], "--display", "none"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output


def test_inspect_eval_command_line_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("INSPECT_LOG_DIR", raising=False)
    _inspect_eval_cli("inspect eval physgen/physgen -T formats=mc_numerical -T n=2 -T domain=optics "
                      "--model physgen_canned/model")
    from inspect_ai.log import list_eval_logs, read_eval_log

    log = read_eval_log(list_eval_logs(str(tmp_path / "logs"))[0])
    assert log.status == "success" and log.samples is not None
    assert log.eval.task_args["formats"] == "mc_numerical" and log.eval.task_args["n"] == 2
    assert {s.metadata["variant"]["metadata"]["domain"] for s in log.samples} == {"optics"}
    assert {s.metadata["variant"]["format"] for s in log.samples} == {"mc_numerical"}


def _readme_section(title: str) -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text()
    section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, re.S)


def test_readme_training_and_evaluation_blocks_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasets")
    monkeypatch.chdir(tmp_path)  # inspect writes ./logs
    monkeypatch.delenv("INSPECT_LOG_DIR", raising=False)
    monkeypatch.setenv("INSPECT_EVAL_MODEL", "physgen_canned/model")  # the README leaves the model to you
    blocks = _readme_section("Training and evaluation")
    assert [lang for lang, _ in blocks] == ["python", "bash", "bash", "python"]  # TRL, verl, inspect, log
    namespace: dict[str, Any] = {}
    for lang, code in blocks:
        if lang == "python":
            exec(compile(code, "README.md", "exec"), namespace)
        else:
            for line in code.splitlines():
                if line.startswith("inspect eval"):
                    _inspect_eval_cli(line.split("#")[0])
    assert namespace["rewards"] == [1.0, 0.0]
    assert set(namespace["pass_at_4"]) >= {"avg@4", "best@4", "pass@4"}
    assert os.listdir(tmp_path / "logs")


def test_lm_eval_task_with_a_canned_model(tmp_path: Path) -> None:
    lm_eval = pytest.importorskip("lm_eval")
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    from physgen.export import write_lm_eval_task

    variants = list(physgen.generate(["optics.thin_lens", "thermo.carnot_efficiency"], n=2, seed=1,
                                     paraphrases=[0], formats=["free_form", "mc_numerical"]))

    def reply(v: physgen.Variant, k: int) -> str:
        if k % 2:
            return "I cannot tell."
        if v.options:
            return f"Final Answer: ({v.answer_key})"
        return "Final Answer: " + " ".join(f"({'abc'[i]}) {a.text}" for i, a in enumerate(v.answers.values()))

    replies = {v.prompt: reply(v, k) for k, v in enumerate(variants)}

    class Canned(LM):  # lm-eval's model interface: only generation is used by this task
        def generate_until(self, requests: list) -> list[str]:  # type: ignore[type-arg]
            # the longest matching prompt: an MC prompt starts with its free-form question
            return [max(((p, r) for p, r in replies.items() if req.args[0].startswith(p)),
                        key=lambda pr: len(pr[0]))[1] for req in requests]

        def loglikelihood(self, requests: list) -> list:  # type: ignore[type-arg]
            raise NotImplementedError

        def loglikelihood_rolling(self, requests: list) -> list:  # type: ignore[type-arg]
            raise NotImplementedError

    write_lm_eval_task(variants, tmp_path / "task")
    results = lm_eval.simple_evaluate(model=Canned(), tasks=["physgen"],
                                      task_manager=TaskManager(include_path=str(tmp_path / "task")))
    got = results["results"]["physgen"]
    expected = [physgen.grade(v, replies[v.prompt]) for v in variants]
    assert got["physgen_correct,none"] == pytest.approx(sum(g.correct for g in expected) / len(expected))
    assert got["physgen_score,none"] == pytest.approx(sum(g.score for g in expected) / len(expected))
    assert 0 < got["physgen_correct,none"] < 1

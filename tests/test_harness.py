"""The inspect_ai task runs end to end with inspect_ai's mock model."""

from __future__ import annotations

from pathlib import Path

import pytest

import physgen


def test_inspect_task_with_mock_model(tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai")
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from physgen.harness import physgen_task

    variants = list(physgen.generate(["optics.thin_lens", "electricity.dc_motor_losses"], n=1, seed=2,
                                     paraphrases=[0], formats=["free_form", "mc_numerical"]))
    replies = []
    for k, v in enumerate(variants):
        if v.options:
            replies.append(f"Final Answer: ({v.answer_key})" if k % 2 == 0 else "Final Answer: (Z)")
        else:
            parts = " ".join(f"({'abc'[i]}) {a.text}" for i, a in enumerate(v.answers.values()))
            replies.append(f"Final Answer: {parts}")
    outputs = []
    for r in replies:
        out = ModelOutput.from_content(model="mockllm/model", content=r)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        outputs.append(out)
    model = get_model("mockllm/model", custom_outputs=outputs)
    logs = inspect_eval(physgen_task(variants), model=model, log_dir=str(tmp_path), display="none",
                        max_samples=1)
    log = logs[0]
    assert log.status == "success"
    by_id = {s.id: s for s in log.samples}
    expected = {v.variant_id: physgen.grade(v, r).correct for v, r in zip(variants, replies, strict=True)}
    got = {i: by_id[i].scores["physgen_grade"].value == "C" for i in expected}
    assert got == expected and any(expected.values()) and not all(expected.values())
    record = by_id[variants[0].variant_id].scores["physgen_grade"].metadata["record"]
    assert record["template_id"] == variants[0].template_id


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

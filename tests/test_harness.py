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

"""Every answer key physgen prints is graded correct, in every style and common layout;
for multiple choice the right letter is correct and every other letter wrong."""

from __future__ import annotations

import pytest

import physgen
from physgen.formats import get_format
from physgen.labels import PART_LETTERS
from physgen.render import STYLES

LABELS = PART_LETTERS


def _layouts(texts: list[str], names: list[str]) -> dict[str, str]:
    if len(texts) == 1:
        return {"documented": f"Final answer: {texts[0]}", "boxed": f"so \\boxed{{{texts[0]}}}",
                "named": f"Working... {names[0]} = {texts[0]}", "bare": f"The answer is {texts[0]}.",
                "labelled": f"Final answer: (a) {texts[0]}",
                "chain": f"Final answer: {names[0]} = {texts[0]} = {texts[0]}"}
    return {
        "documented": "Final answer:\n" + "\n".join(f"({LABELS[k]}) {t}" for k, t in enumerate(texts)),
        "numbered": "Final Answer:\n" + "\n".join(f"{k + 1}. {t}" for k, t in enumerate(texts)),
        "boxed": " and ".join(f"\\boxed{{{t}}}" for t in texts),
        "named": "Final Answer: " + ", ".join(f"{n} = {t}" for n, t in zip(names, texts, strict=True)),
        "inline": "Final answer: " + ", ".join(texts),
        "llama": "The final answer is: $" + ", ".join(f"({LABELS[k]})\\ {t}" for k, t in enumerate(texts))
                 + "$",
    }


@pytest.mark.parametrize("style", STYLES)
def test_every_key_in_every_layout_grades_correct(catalog: physgen.Catalog, style: str) -> None:
    failures = []
    for v in physgen.generate(catalog, n=2, seed=11, paraphrases=[0], style=style):  # type: ignore[arg-type]
        texts = [a.text for a in v.answers.values()]
        for layout, reply in _layouts(texts, list(v.answers)).items():
            if v.metadata.question_type == "algebraic" and layout == "boxed" and len(texts) > 1:
                continue  # expressions joined by "and" are one expression
            g = physgen.grade(v, reply)
            if not g.correct:
                failures.append((v.variant_id, style, layout, reply, [p.reason for p in g.parts]))
    assert not failures, failures[:10]


@pytest.mark.parametrize("fmt", ["free_form", "units", "noop", "omitted", "mc_numerical", "mc_symbolic"])
def test_every_format_reference_grades_correct(catalog: physgen.Catalog, fmt: str) -> None:
    f = get_format(fmt)
    bad = [v.variant_id for v in physgen.generate(catalog, n=1, seed=2, formats=[fmt], paraphrases="random")
           if not physgen.grade(v, f.reference(v)).correct]
    assert not bad, bad[:10]


@pytest.mark.parametrize("style", STYLES)
def test_mc_right_letter_only(catalog: physgen.Catalog, style: str) -> None:
    for v in physgen.generate(catalog, n=1, seed=4, paraphrases=[1], style=style,  # type: ignore[arg-type]
                              formats=["mc_numerical", "mc_symbolic"]):
        for letter in v.options:
            for reply in (letter, f"Final answer: {letter}", f"The answer is ({letter.lower()})."):
                assert physgen.grade(v, reply).correct == (letter == v.answer_key), (v.variant_id, reply)


@pytest.mark.parametrize("style", STYLES)
def test_algebraic_templates_get_mc_symbolic_from_their_named_mistakes(catalog: physgen.Catalog,
                                                                        style: str) -> None:
    algebraic = [t for t in catalog.templates() if t.question_type == "algebraic"]
    f = get_format("mc_symbolic")
    assert algebraic and all(f.applies(t) for t in algebraic)
    variants = list(physgen.generate(algebraic, n=1, seed=3, formats=["mc_symbolic"], style=style))
    assert {v.template_id for v in variants} == {t.id for t in algebraic}
    assert all(physgen.grade(v, f.reference(v)).correct for v in variants)
    # constants are symbols of the question, not numbers: the reduced Planck constant is ħ
    zp = next(v for v in variants if v.template_id == "quantum.zero_point_energy_symbolic")
    assert "1.05" not in zp.prompt

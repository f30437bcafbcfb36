"""``physgen report``: a self-contained HTML page, checked in a real browser (headless Chromium)."""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

import pytest

import physgen
from physgen.cli import main
from physgen.export import read_jsonl, write_jsonl
from physgen.formats import get_format

from . import browser

MODELS = {"strong-model": 0.8, "weak-model": 0.35}


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


def _reply(v: physgen.Variant, model: str) -> str:
    """A reply that is right with the model's probability (fixed per variant), else a wrong one."""
    draw = int(hashlib.sha256(f"{model}/{v.variant_id}".encode()).hexdigest()[:8], 16) / 16**8
    if v.format == "omitted":
        draw *= 1.5  # the probe is harder
    if draw < MODELS[model]:
        return "Working it through step by step.\n\n" + get_format(v.format).reference(v)
    if v.options:
        wrong = next(k for k in v.options if k != v.answer_key)
        return f"The best match is ({wrong}).\nFinal answer: {wrong}"
    return "Using the formula, I get\nFinal answer: " + ", ".join(
        f"({'abcdefgh'[i]}) 42 {a.unit}" for i, a in enumerate(v.answers.values()))


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Graded replies of two models, made the way a user would: generate, answer, physgen grade."""
    folder = tmp_path_factory.mktemp("report")
    ids = ["optics.thin_lens", "mechanics.projectile_range", "thermo.carnot_efficiency",
           "electricity.rc_charging", "waves.doppler_approaching_source", "modern.photoelectric_effect",
           "mechanics.spring_mass_period_symbolic", "electricity.two_source_network"]
    variants = list(physgen.generate(ids, n=3, seed=2, paraphrases="random",
                                     formats=["free_form", "mc_numerical", "units", "noop", "omitted"]))
    rows = [dict(v.to_dict(), response=_reply(v, m), model=m) for m in MODELS for v in variants]
    write_jsonl(rows, folder / "responses.jsonl")
    assert run(["grade", str(folder / "responses.jsonl"), "-o", str(folder / "graded.jsonl")])[0] == 0
    return folder / "graded.jsonl"


def test_report_has_every_section(graded: Path, tmp_path: Path) -> None:
    status, text = run(["report", str(graded), "-o", str(tmp_path / "r.html"), "--resamples", "200"])
    assert status == 0 and "wrote" in text
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    for heading in ("Headline metrics", "By format", "By difficulty", "By domain", "By probe", "Figures",
                    "Worst templates"):
        assert f">{heading}<" in page, heading
    assert "strong-model" in page and "weak-model" in page
    assert page.count("<img ") == 3 + 2 * 2  # format, difficulty, domain; heatmap and histogram per model
    assert not re.search(r"""(src|href)=["'](?!data:)""", page)  # nothing outside the page
    rows = list(read_jsonl(graded))
    accuracy = {m: sum(r["correct"] for r in rows if r["model"] == m) / sum(r["model"] == m for r in rows)
                for m in MODELS}
    for value in accuracy.values():
        assert f"{100 * value:.1f} %" in page
    assert page.count('class="example"') == 5 and "<b>Prompt</b>" in page
    assert "omitted" in page and "pp</span>" in page  # the probe table's change column


def test_report_of_one_model_without_prompts(tmp_path: Path) -> None:
    rows = [{"template_id": t, "instance_id": t + i, "variant_id": t + i, "format": "free_form",
             "domain": "optics", "difficulty": 1, "correct": c, "score": float(c)}
            for t, i, c in [("a", "1", True), ("a", "2", False), ("b", "1", False)]]
    write_jsonl(rows, tmp_path / "g.jsonl")
    status, page = run(["report", str(tmp_path / "g.jsonl"), "--resamples", "0"])
    assert status == 0 and page.startswith("<!DOCTYPE html>")
    assert "(unnamed model)" in page and "No example: these records have no" in page
    assert "By probe" not in page  # one format: no probe to compare


@pytest.mark.skipif(browser.find() is None, reason="Chromium is not installed (apt-get install chromium; "
                    ".ci/run installs it)")
def test_report_renders_in_chromium(graded: Path, tmp_path: Path) -> None:
    from PIL import Image, ImageStat

    page = tmp_path / "report.html"
    assert run(["report", str(graded), "-o", str(page)])[0] == 0
    shot = browser.render(page)
    (tmp_path / "report.png").write_bytes(shot.png)
    assert shot.errors == []  # no console errors, exceptions or failed loads
    assert len(shot.images) == 7 and all(i["complete"] and i["width"] > 100 for i in shot.images)
    image = Image.open(io.BytesIO(shot.png)).convert("L")
    assert image.size == (1280, shot.height) and shot.height > 3000
    inked = sum(image.histogram()[:200]) / (image.size[0] * image.size[1])
    assert 0.02 < inked < 0.6  # text and figures, neither blank nor a solid block
    assert ImageStat.Stat(image).stddev[0] > 20
    top = image.crop((0, 0, 1280, 600))  # the title and the headline cards are drawn
    assert sum(top.histogram()[:128]) > 2000


def test_report_errors_are_one_line(graded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["report", str(graded), "-o", str(tmp_path / "r.pdf")])[0] == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        f"physgen report: error: unknown output format '.pdf'; valid: .html (-o {tmp_path / 'r.pdf'})"]
    (tmp_path / "empty.jsonl").write_text("")
    assert run(["report", str(tmp_path / "empty.jsonl")])[0] == 1
    assert "holds no graded records" in capsys.readouterr().err
    assert not (tmp_path / "r.pdf").exists()
    json.dumps(0)

"""Graded rows made the way a user makes them (generate real variants, answer, ``physgen grade``),
with synthetic replies from three models: a strong one, a weak one and a sloppy one whose wrong
replies are often unreadable (no answer, two values, no number) and repeat across attempts."""

from __future__ import annotations

import hashlib
import io
import shutil
from pathlib import Path

import physgen
from physgen.cli import main
from physgen.export import write_jsonl
from physgen.formats import get_format

#: Each model's chance of a right reply.
MODELS = {"strong-model": 0.8, "weak-model": 0.35, "sloppy-model": 0.5}
#: Templates from six domains, copied into a small catalog (the full one takes minutes to compile).
TEMPLATES = ["optics/thin_lens", "optics/compound_microscope", "mechanics/projectile_range",
             "mechanics/spring_mass_period_symbolic", "thermo/carnot_efficiency",
             "thermo/adiabatic_compression", "electricity/rc_charging", "electricity/two_source_network",
             "waves/doppler_approaching_source",
             "modern/photoelectric_effect", "fluids/buoyant_force", "quantum/alpha_decay_gamow"]
FORMATS = ["free_form", "mc_numerical", "units", "noop", "omitted"]
#: The sloppy model's unreadable replies: no answer, two values, no number.
JUNK = ["I am not sure how to approach this one.", "Final answer: either 3 m or 4 m",
        "Final answer: a lot"]


def _draw(*key: object) -> float:
    return int(hashlib.sha256("/".join(map(str, key)).encode()).hexdigest()[:8], 16) / 16**8


def reply(v: physgen.Variant, model: str, attempt: int = 0) -> str:
    """A reply right with the model's probability (fixed per variant and attempt), else a wrong one."""
    draw = _draw(model, v.variant_id, attempt)
    if v.format == "omitted":
        draw *= 1.5  # the probe is harder
    if draw < MODELS[model]:
        return "Working it through step by step.\n\n" + get_format(v.format).reference(v)
    if model == "sloppy-model" and _draw("junk", v.variant_id) < 0.7:
        return JUNK[int(_draw("which", v.variant_id) * len(JUNK))]  # the same junk on every attempt
    if v.options:
        wrong = next(k for k in v.options if k != v.answer_key)
        return f"The best match is ({wrong}).\nFinal answer: {wrong}"
    return "Using the formula, I get\nFinal answer: " + ", ".join(
        f"({'abcdefgh'[i]}) 42 {a.unit}" for i, a in enumerate(v.answers.values()))


def build(folder: Path, root: Path) -> Path:
    """Write ``responses.jsonl`` and grade it with ``physgen grade``; returns the graded file.
    ``root`` is the repository (its ``templates`` folder is where the templates come from)."""
    catalog_dir = folder / "templates"
    for name in TEMPLATES:
        target = catalog_dir / f"{name}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / "templates" / f"{name}.yaml", target)
    catalog = physgen.load_catalog(catalog_dir)
    variants = list(physgen.generate(catalog, n=3, seed=2, paraphrases="random", formats=FORMATS))
    rows = [dict(v.to_dict(), response=reply(v, m, a), model=m, attempt=a)
            for m in MODELS for v in variants for a in range(2 if m == "sloppy-model" else 1)]
    write_jsonl(rows, folder / "responses.jsonl")
    argv = ["grade", str(folder / "responses.jsonl"), "-o", str(folder / "graded.jsonl")]
    status = main(argv, io.StringIO())
    assert status == 0
    return folder / "graded.jsonl"

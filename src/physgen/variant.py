"""The record a user sends to a model: one prompt with its answer key and ids.

>>> import physgen, json
>>> v = next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, seed=3))
>>> v.format, sorted(v.answers)
('free_form', ['T'])
>>> Variant.from_dict(json.loads(json.dumps(v.to_dict()))) == v
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .schema import VariantRecord
from .units import registry


class ShownQuantity(NamedTuple):
    """An input as the prompt shows it: exact shown value, its unit, and the text."""

    value: float
    unit: str
    text: str

    @property
    def quantity(self) -> Any:
        """As a Pint quantity."""
        return registry().Quantity(self.value, self.unit or "dimensionless")


class Answer(NamedTuple):
    """An expected answer: value in ``unit`` (12 significant figures) and its shown text.

    ``expr`` is set for algebraic questions: the expected expression (SymPy syntax,
    in the template's input and constant names, SI units).
    """

    value: float
    unit: str
    text: str
    sig_figs: int
    expr: str | None = None

    @property
    def quantity(self) -> Any:
        """As a Pint quantity."""
        return registry().Quantity(self.value, self.unit or "dimensionless")


class CodeTest(NamedTuple):
    """One check for a ``code`` answer: SI inputs and the SI answers the function must return."""

    inputs: dict[str, float]
    expected: dict[str, float]


@dataclass(frozen=True, slots=True)
class Metadata:
    """What a variant is about, and how to regenerate it (``seed``, ``index``)."""

    domain: str
    subdomain: tuple[str, ...]
    difficulty: int
    question_type: str
    template_version: int
    seed: int
    index: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain, "subdomain": list(self.subdomain),
            "difficulty": self.difficulty, "question_type": self.question_type,
            "template_version": self.template_version, "seed": self.seed, "index": self.index,
        }


@dataclass(frozen=True, slots=True)
class Variant:
    """One generated problem.

    ``variant_id`` is ``template_id:instance_id:p<paraphrase>:<format>``;
    ``instance_id`` hashes the template, its version and the shown inputs, so
    the same parameter set has the same id whichever seed drew it.
    """

    variant_id: str
    template_id: str
    instance_id: str
    paraphrase: int
    format: str
    prompt: str
    inputs: dict[str, ShownQuantity]
    answers: dict[str, Answer]
    steps: tuple[str, ...]
    metadata: Metadata
    options: dict[str, str] = field(default_factory=dict)  # multiple choice: letter -> option text
    answer_key: str | None = None  # multiple choice: the correct letter
    code_tests: tuple[CodeTest, ...] = ()  # code format: calls the returned function must pass
    unanswerable: tuple[str, ...] = ()  # omitted probe: parts the prompt's data do not determine

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (the ``variant.schema.json`` record)."""
        return {
            "variant_id": self.variant_id,
            "template_id": self.template_id,
            "instance_id": self.instance_id,
            "paraphrase": self.paraphrase,
            "format": self.format,
            "prompt": self.prompt,
            "inputs": {k: {"value": v[0], "unit": v[1], "text": v[2]} for k, v in self.inputs.items()},
            "answers": {k: {"value": a[0], "unit": a[1], "text": a[2], "sig_figs": a[3], "expr": a[4]}
                        for k, a in self.answers.items()},
            "steps": list(self.steps),
            "metadata": self.metadata.to_dict(),
            "options": dict(self.options),
            "answer_key": self.answer_key,
            "code_tests": [{"inputs": dict(c.inputs), "expected": dict(c.expected)} for c in self.code_tests],
            "unanswerable": list(self.unanswerable),
        }

    def to_json(self) -> str:
        """One JSONL line (no trailing newline), keys in a fixed order (see :mod:`physgen.jsonl`)."""
        from .jsonl import variant_line

        return variant_line(self)[:-1].decode()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Variant:
        """Rebuild a variant from :meth:`to_dict` output, validating it first."""
        rec = VariantRecord.model_validate(data)
        m = rec.metadata
        return cls(
            variant_id=rec.variant_id, template_id=rec.template_id, instance_id=rec.instance_id,
            paraphrase=rec.paraphrase, format=rec.format, prompt=rec.prompt,
            inputs={k: ShownQuantity(v.value, v.unit, v.text) for k, v in rec.inputs.items()},
            answers={k: Answer(v.value, v.unit, v.text, v.sig_figs, v.expr) for k, v in rec.answers.items()},
            steps=tuple(rec.steps),
            metadata=Metadata(m.domain, tuple(m.subdomain), m.difficulty, m.question_type,
                              m.template_version, m.seed, m.index),
            options=dict(rec.options), answer_key=rec.answer_key,
            code_tests=tuple(CodeTest(dict(c.inputs), dict(c.expected)) for c in rec.code_tests),
            unanswerable=tuple(rec.unanswerable),
        )

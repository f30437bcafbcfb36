"""What grading produces: a verdict per part and for the whole reply.

>>> p = PartGrade("R", True, "correct", "35.3 m", "35.3 m", 35.3)
>>> Grade(True, 1.0, (p,), "35.3 m", "marker").to_dict()["parts"][0]["reason"]
'correct'
>>> s = StepGrade.of([StepVerdict("v_x", 0, False, "missing", "14.4 m/s")])
>>> s.first_error, Grade(True, 1.0, (p,), steps=s).to_dict()["steps"]["score"]
('v_x', 0.0)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

#: Where the graded answer came from; ``last_quantity`` means the reply never committed to one.
Source = Literal["marker", "boxed", "labels", "last_quantity", "code", "none"]
#: Why a part got its verdict; ``grader_error`` means the format's grader raised (a bug in the
#: grader, not in the reply).
Reason = Literal["correct", "wrong_value", "wrong_unit_dimension", "missing", "unparseable", "ambiguous",
                 "grader_error"]
#: Why an intermediate got its verdict (:mod:`physgen.reading.steps`): ``after_answer`` means it was
#: found only after the final answer began, ``out_of_order`` only after a later step's value.
StepReason = Literal["correct", "wrong_value", "missing", "after_answer", "out_of_order"]


@dataclass(frozen=True)
class PartGrade:
    """One asked quantity: was it right, what was read, and why.

    ``evidence`` is the text the value was read from (empty when nothing was found).
    """

    name: str
    correct: bool
    reason: Reason
    expected: str
    parsed: str | None = None
    value: float | None = None  # what was read, in the expected unit
    detail: str = ""
    evidence: str = ""


@dataclass(frozen=True)
class StepVerdict:
    """One intermediate of the worked solution, looked for in the reply's reasoning.

    ``evidence`` is the sentence or line of the reply it was judged on, at ``start:end``
    in the reply (``-1`` when nothing was found); ``parsed`` the value read there.
    """

    name: str
    step: int
    correct: bool
    reason: StepReason
    expected: str
    parsed: str | None = None
    evidence: str = ""
    start: int = -1
    end: int = -1


@dataclass(frozen=True)
class StepGrade:
    """Step-level grade: ``score`` is the share of intermediates found in order, ``first_error``
    the first (in step order) that was not, or None."""

    score: float
    first_error: str | None
    steps: tuple[StepVerdict, ...]

    @classmethod
    def of(cls, steps: list[StepVerdict]) -> StepGrade:
        """A step grade from its verdicts, in step order (score and first error derived)."""
        score = sum(s.correct for s in steps) / len(steps) if steps else 1.0
        first = next((s.name for s in steps if not s.correct), None)
        return cls(score, first, tuple(steps))

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {"score": self.score, "first_error": self.first_error,
                "steps": [asdict(s) for s in self.steps]}


@dataclass(frozen=True)
class Grade:
    """A graded reply: ``correct`` when every part is, ``score`` the fraction that are;
    ``steps`` the step-level grade when asked for (``grade(..., steps=True)``)."""

    correct: bool
    score: float
    parts: tuple[PartGrade, ...]
    extracted: str = ""
    source: Source = "none"
    steps: StepGrade | None = None

    @classmethod
    def of(cls, parts: list[PartGrade], extracted: str, source: Source) -> Grade:
        """A grade from its parts (``correct`` and ``score`` derived)."""
        score = sum(p.correct for p in parts) / len(parts) if parts else 0.0
        return cls(bool(parts) and all(p.correct for p in parts), score, tuple(parts), extracted, source)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (for graded JSONL files)."""
        out = {
            "correct": self.correct, "score": self.score, "extracted": self.extracted,
            "source": self.source, "parts": [asdict(p) for p in self.parts],
        }
        if self.steps is not None:
            out["steps"] = self.steps.to_dict()
        return out

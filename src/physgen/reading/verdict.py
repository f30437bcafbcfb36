"""What grading produces: a verdict per part and for the whole reply.

>>> p = PartGrade("R", True, "correct", "35.3 m", "35.3 m", 35.3)
>>> Grade(True, 1.0, (p,), "35.3 m", "marker").to_dict()["parts"][0]["reason"]
'correct'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

#: Where the graded answer came from; ``last_quantity`` means the reply never committed to one.
Source = Literal["marker", "boxed", "labels", "last_quantity", "code", "none"]
#: Why a part got its verdict.
Reason = Literal["correct", "wrong_value", "wrong_unit_dimension", "missing", "unparseable", "ambiguous"]


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
class Grade:
    """A graded reply: ``correct`` when every part is, ``score`` the fraction that are."""

    correct: bool
    score: float
    parts: tuple[PartGrade, ...]
    extracted: str = ""
    source: Source = "none"

    @classmethod
    def of(cls, parts: list[PartGrade], extracted: str, source: Source) -> Grade:
        """A grade from its parts (``correct`` and ``score`` derived)."""
        score = sum(p.correct for p in parts) / len(parts) if parts else 0.0
        return cls(bool(parts) and all(p.correct for p in parts), score, tuple(parts), extracted, source)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (for graded JSONL files)."""
        return {
            "correct": self.correct, "score": self.score, "extracted": self.extracted,
            "source": self.source, "parts": [asdict(p) for p in self.parts],
        }

"""The Grade type and the grading interface shared by every grader.

A grade is plain data (pydantic), so transcripts, the CLI's ``--json`` output
and the TUI all read the same shape.  Its JSON field names are a public
interface: ``grader``, ``fallback_reason``, ``overall``,
``dimensions.<dim>.{score, evidence, missing}``, ``numbers_checked``,
``flags``, ``feedback`` and ``follow_up``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from interviewer.content.schema import DIMENSIONS, Case, Dimension, Question, Rubric

Verdict = Literal["correct", "wrong", "unverified"]
GraderName = Literal["keyword", "llm"]

FLAG_KEYWORD_LIST = "keyword_list"
FLAG_MISCONCEPTION = "misconception"
FLAG_INJECTION = "injection"
FLAG_WRONG_NUMBER = "wrong_number"
FLAG_EMPTY = "empty"
FLAG_TRUNCATED = "truncated"
"""The answer was longer than the grading limit and only its head was graded."""


class DimensionScore(BaseModel):
    score: int = Field(ge=0, le=4)
    evidence: list[str] = Field(default_factory=list)
    """Spans of the answer that earned the score, quoted exactly."""
    missing: list[str] = Field(default_factory=list)
    """Key points (headings) the answer did not make for this dimension."""


class NumberCheck(BaseModel):
    claim: str
    """The figure as the candidate wrote it, e.g. '900 GB/s'."""
    reference: str | None = None
    """The reference it was checked against, e.g. '900 GB/s (H100 NVLink 4 total bandwidth)'."""
    verdict: Verdict


class Grade(BaseModel):
    grader: GraderName
    fallback_reason: str | None = None
    overall: int = Field(ge=0, le=100)
    dimensions: dict[Dimension, DimensionScore]
    numbers_checked: list[NumberCheck] = Field(default_factory=list)
    flags: list[str] = Field(default_factory=list)
    feedback: str = ""
    follow_up: str | None = None
    follow_up_dimension: Dimension | None = None
    model: str | None = None
    """The model that produced an ``llm`` grade; None for keyword grades."""

    def score(self, dim: Dimension) -> int:
        return self.dimensions[dim].score


def overall_from(scores: dict[str, int], rubric: Rubric) -> int:
    """Weighted mean of the 0-4 dimension scores, as 0-100.  The one place this formula lives."""
    total_weight = sum(rubric.dimensions[d].weight for d in DIMENSIONS)
    weighted = sum(rubric.dimensions[d].weight * scores.get(d, 0) for d in DIMENSIONS)
    return round(100 * weighted / (4 * total_weight)) if total_weight else 0


@dataclass(frozen=True)
class GradeRequest:
    """Everything a grader needs to grade one answer."""

    case: Case
    rubric: Rubric
    question: Question
    answer: str
    prompt: str = ""
    """The prompt actually asked (a follow-up's wording differs from ``question.prompt``)."""
    history: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    """Earlier (prompt, answer) pairs on this question, oldest first, for follow-up context."""

    @property
    def asked(self) -> str:
        return self.prompt or self.question.prompt


ChunkCallback = Callable[[str], None]
"""Receives streamed feedback text as it arrives."""


class Grader(Protocol):
    """Anything that turns an answer into a Grade."""

    name: GraderName

    def grade(self, request: GradeRequest, on_chunk: ChunkCallback | None = None) -> Grade: ...


class GradingError(Exception):
    """A grader could not produce a valid grade.  ``reason`` is one line, safe to show and store."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)

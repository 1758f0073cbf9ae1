"""The Grade type and the grading interface shared by every grader.

A grade is plain data (pydantic), so transcripts, the CLI's ``--json`` output
and the TUI all read the same shape.  Its JSON field names are a public
interface: ``grader``, ``fallback_reason``, ``overall``,
``dimensions.<dim>.{score, evidence, missing}``, ``numbers_checked``,
``flags`` and ``feedback`` (``score --json`` adds ``follow_up``, which the
session layer chooses: a grader grades, it never decides what is asked next).
``dimensions`` holds the dimensions the question is graded on: all four
for a question, only the probed ones for a follow-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, Field

from interviewer.content.schema import DIMENSIONS, Case, Dimension, Question, Rubric

if TYPE_CHECKING:
    from interviewer.followup import Probe

OFFLINE_LABEL = (
    "It measures which key points your answer states and checks your figures; it cannot judge reasoning "
    "the way an interviewer would. For a model's grade, point interviewer at an endpoint (--base-url, "
    "then `interviewer check`)."
)
"""The honest label every offline grade carries, in its feedback and in the session report."""

Verdict = Literal["correct", "wrong", "unverified"]
GraderName = Literal["keyword", "llm"]

FLAG_KEYWORD_LIST = "keyword_list"
FLAG_MISCONCEPTION = "misconception"
FLAG_INJECTION = "injection"
FLAG_WRONG_NUMBER = "wrong_number"
FLAG_EMPTY = "empty"
FLAG_TRUNCATED = "truncated"
"""The answer was longer than the grading limit and only its head was graded."""
FLAG_DISAGREEMENT = "disagreement"
"""The model scored a dimension two or more levels above the offline grader, which had found a wrong
figure or a misconception there; both scores are kept (``Grade.offline_scores``)."""
FLAG_TEMPLATE = "template"
"""A run of sentences built on one template ("X is important. Y is used. Z matters.", "X, so Y, which is
why Z" in clauses too short to say how, or a pitch: "We leverage X. Y plays a key role.")."""
FLAG_NUMBER_SPAM = "number_spam"
"""Many figures and almost no words that relate them: figures listed, not used to size anything."""


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
    model: str | None = None
    """The model that produced an ``llm`` grade; None for keyword grades."""
    offline_scores: dict[Dimension, int] | None = None
    """For an ``llm`` grade flagged ``disagreement``: the offline grader's scores, shown beside the model's."""
    graded_at: str | None = None
    """When this grade was made (ISO 8601), for the regrade history."""

    def score(self, dim: Dimension) -> int:
        return self.dimensions[dim].score

    def scored(self) -> list[tuple[Dimension, DimensionScore]]:
        """The graded dimensions in rubric order (a follow-up's grade has fewer than four)."""
        return [(d, self.dimensions[d]) for d in DIMENSIONS if d in self.dimensions]


def overall_from(scores: Mapping[Dimension, int], rubric: Rubric) -> int:
    """Weighted mean of the 0-4 scores of the graded dimensions, as 0-100.  The one place this formula lives."""
    dims = [d for d in DIMENSIONS if d in scores]
    total_weight = sum(rubric.dimensions[d].weight for d in dims)
    weighted = sum(rubric.dimensions[d].weight * scores[d] for d in dims)
    return round(100 * weighted / (4 * total_weight)) if total_weight else 0


@dataclass(frozen=True)
class GradeRequest:
    """Everything a grader needs to grade one answer."""

    case: Case
    rubric: Rubric
    question: Question
    """What is graded: a question, or a follow-up as a question of its own (``Question.follow_up_question``)."""
    answer: str
    parent: Question | None = None
    """For a follow-up: the question it follows, which is context for the grader."""
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


class SessionGrader(Grader, Protocol):
    """What a session front end holds: a grader that can also word the follow-up the session chose."""

    online: bool

    def describe(self) -> str: ...

    def word(self, request: GradeRequest, grade: Grade, probe: Probe) -> str: ...


class GradingError(Exception):
    """A grader could not produce a valid grade.  ``reason`` is one line, safe to show and store."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)

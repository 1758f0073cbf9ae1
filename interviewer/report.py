"""The end-of-session report, computed from a transcript.

The TUI's report screen, ``interviewer show`` and the Markdown export all read
this one structure, so the figures agree everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Case
from interviewer.transcripts import Transcript


@dataclass(frozen=True)
class PhaseTime:
    id: str
    title: str
    budget_s: float
    used_s: float

    @property
    def over(self) -> bool:
        return self.used_s > self.budget_s


@dataclass(frozen=True)
class QuestionReview:
    question_id: str
    prompt: str
    outline: list[str]
    missed: list[str]


@dataclass
class Report:
    transcript_id: str
    case_title: str
    overall: int | None
    answered: int
    skipped: int
    averages: dict[str, float | None]
    """Mean 0-4 score per dimension over graded turns; None when nothing was graded."""
    phases: list[PhaseTime]
    strongest: str | None
    weakest: str | None
    questions: list[QuestionReview] = field(default_factory=list)
    graders: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)

    def average_label(self, dim: str) -> str:
        value = self.averages.get(dim)
        return "n/a" if value is None else f"{value:.1f}/4"


def build_report(transcript: Transcript, case: Case | None) -> Report:
    """Summarise a transcript.  ``case`` supplies outlines; without it they are left out."""
    graded = [t for t in transcript.turns if t.grade is not None]
    averages: dict[str, float | None] = {}
    for dim in DIMENSIONS:
        scores = [t.grade.dimensions[dim].score for t in graded if t.grade]
        averages[dim] = sum(scores) / len(scores) if scores else None
    known = {d: v for d, v in averages.items() if v is not None}
    strongest = max(known, key=lambda d: (known[d], -DIMENSIONS.index(d))) if known else None
    weakest = min(known, key=lambda d: (known[d], DIMENSIONS.index(d))) if known else None
    if strongest == weakest and len(set(known.values())) <= 1:
        strongest = weakest if known else None

    phases = [PhaseTime(p.id, p.title, p.budget_s, p.used(transcript.elapsed)) for p in transcript.phases]

    questions: list[QuestionReview] = []
    seen: list[str] = []
    for turn in transcript.turns:
        if turn.question_id not in seen:
            seen.append(turn.question_id)
    for qid in seen:
        turns = [t for t in transcript.turns if t.question_id == qid]
        question = case.question(qid) if case else None
        missed: list[str] | None = None
        for t in turns:
            if t.grade:
                here = [m for d in DIMENSIONS for m in t.grade.dimensions[d].missing]
                # A point counts as missed only if no answer on this question made it.
                missed = here if missed is None else [m for m in missed if m in here]
        questions.append(
            QuestionReview(
                question_id=qid,
                prompt=question.prompt if question else turns[0].prompt,
                outline=list(question.outline) if question else [],
                missed=list(dict.fromkeys(missed or [])),
            )
        )

    graders = sorted({t.grade.grader for t in graded if t.grade})
    fallbacks = list(dict.fromkeys(t.grade.fallback_reason for t in graded if t.grade and t.grade.fallback_reason))
    return Report(
        transcript_id=transcript.id,
        case_title=transcript.case_title,
        overall=transcript.overall,
        answered=sum(1 for t in transcript.turns if t.answer),
        skipped=sum(1 for t in transcript.turns if t.status in ("skipped", "timed_out")),
        averages=averages,
        phases=phases,
        strongest=strongest,
        weakest=weakest,
        questions=questions,
        graders=graders,
        fallbacks=fallbacks,
    )


def dimension_title(dim: str | None) -> str:
    return DIMENSION_TITLES.get(dim or "", "n/a")

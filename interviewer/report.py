"""The end-of-session report, computed from a transcript.

The TUI's report screen, ``interviewer show`` and the Markdown export all read
this one structure, so the figures agree everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Case, Dimension
from interviewer.grading.types import OFFLINE_LABEL, Grade
from interviewer.transcripts import Transcript, Turn

OVERALL_RULE = (
    "Overall is the mean of your main answers' grades. Each follow-up is graded on its own key points "
    "(only the dimensions it probes) and is shown apart; it does not change the overall."
)


@dataclass(frozen=True)
class PhaseTime:
    id: str
    title: str
    budget_s: float
    used_s: float

    @property
    def over(self) -> bool:
        """Over only when the whole seconds shown differ: '01:00 / 01:00' is never 'over'."""
        return int(self.used_s) > int(self.budget_s)


@dataclass(frozen=True)
class TurnScore:
    """One graded answer's scores, for the per-question table."""

    turn_id: int
    kind: str
    prompt: str
    overall: int
    scores: dict[Dimension, int]


@dataclass(frozen=True)
class QuestionReview:
    question_id: str
    prompt: str
    outline: list[str]
    missed: list[str]
    main: TurnScore | None = None
    """The main answer's grade, if graded."""
    follow_ups: list[TurnScore] = field(default_factory=list)


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
    follow_up_overall: int | None = None
    """Mean overall of the graded follow-up answers, shown apart from ``overall``."""
    overall_rule: str = OVERALL_RULE
    grader_note: str | None = None
    """What an offline grade measures, when any answer was graded offline."""

    def average_label(self, dim: str) -> str:
        value = self.averages.get(dim)
        return "n/a" if value is None else f"{value:.1f}/4"


def build_report(transcript: Transcript, case: Case | None) -> Report:
    """Summarise a transcript.  ``case`` supplies outlines; without it they are left out."""
    graded = [t for t in transcript.turns if t.grade is not None]
    main = [t for t in graded if t.kind == "question"]
    averages: dict[str, float | None] = {}
    for dim in DIMENSIONS:
        scores = [t.grade.dimensions[dim].score for t in main if t.grade and dim in t.grade.dimensions]
        averages[dim] = sum(scores) / len(scores) if scores else None
    known = {d: v for d, v in averages.items() if v is not None}
    strongest = max(known, key=lambda d: (known[d], -DIMENSIONS.index(d))) if known else None
    weakest = min(known, key=lambda d: (known[d], DIMENSIONS.index(d))) if known else None

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
            if t.grade and t.kind == "question":
                here = [m for _, d in t.grade.scored() for m in d.missing]
                missed = here if missed is None else [m for m in missed if m in here]
        main_scores = [turn_score(t) for t in turns if t.kind == "question" and t.grade]
        questions.append(
            QuestionReview(
                question_id=qid,
                prompt=question.prompt if question else turns[0].prompt,
                outline=list(question.outline) if question else [],
                missed=list(dict.fromkeys(missed or [])),
                main=main_scores[-1] if main_scores else None,
                follow_ups=[turn_score(t) for t in turns if t.kind == "follow_up" and t.grade],
            )
        )
    follow_grades = [t.grade.overall for t in graded if t.kind == "follow_up" and t.grade]

    graders: list[str] = sorted({t.grade.grader for t in graded if t.grade})
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
        follow_up_overall=round(sum(follow_grades) / len(follow_grades)) if follow_grades else None,
        grader_note=f"Offline grades: {OFFLINE_LABEL}" if "keyword" in graders else None,
    )


def turn_score(turn: Turn) -> TurnScore:
    grade: Grade | None = turn.grade
    assert grade is not None
    return TurnScore(
        turn_id=turn.id,
        kind=turn.kind,
        prompt=turn.prompt,
        overall=grade.overall,
        scores={d: s.score for d, s in grade.scored()},
    )


def dimension_title(dim: str | None) -> str:
    return DIMENSION_TITLES.get(dim or "", "n/a")

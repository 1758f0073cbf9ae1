"""A session's scores in a few hundred bytes: what listings and ``progress`` need, without the turns.

A transcript after a few regrades is ~170 KB of answers, evidence and old
grades; progress over months of sessions needs only each session's overall,
its per-dimension averages and each question's latest scores.  ``digest``
takes those from ``build_report`` (so the figures are the report's own), and
the summary index (``interviewer.index``) stores them as JSON, so progress
never parses a transcript that has not changed.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from interviewer.report import TurnScore, build_report
from interviewer.transcripts import Transcript


@dataclass(frozen=True)
class ScoreDigest:
    """One graded answer: the fields of ``report.TurnScore`` that progress reads."""

    turn_id: int
    prompt: str
    overall: int
    scores: dict[str, int]


@dataclass(frozen=True)
class QuestionDigest:
    """One question of a session, shaped like ``report.QuestionReview`` without the outline."""

    question_id: str
    prompt: str
    missed: list[str]
    main: ScoreDigest | None = None
    follow_ups: list[ScoreDigest] = field(default_factory=list)


@dataclass(frozen=True)
class SessionDigest:
    """A session's scores, shaped like ``report.Report`` where progress reads it (``overall``, ``averages``,
    ``questions``), plus the id, case and start that order and filter sessions."""

    id: str
    case_id: str
    started: str
    overall: int | None
    averages: dict[str, float | None]
    questions: list[QuestionDigest] = field(default_factory=list)

    def as_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SessionDigest:
        data: dict[str, Any] = json.loads(text)
        return cls(
            id=data["id"],
            case_id=data["case_id"],
            started=data["started"],
            overall=data["overall"],
            averages=data["averages"],
            questions=[
                QuestionDigest(
                    question_id=q["question_id"],
                    prompt=q["prompt"],
                    missed=q["missed"],
                    main=_score(q["main"]) if q["main"] is not None else None,
                    follow_ups=[_score(f) for f in q["follow_ups"]],
                )
                for q in data["questions"]
            ],
        )


def _score(data: dict[str, Any]) -> ScoreDigest:
    return ScoreDigest(data["turn_id"], data["prompt"], data["overall"], data["scores"])


def _from_turn_score(score: TurnScore) -> ScoreDigest:
    return ScoreDigest(score.turn_id, score.prompt, score.overall, {str(d): v for d, v in score.scores.items()})


def digest(transcript: Transcript) -> SessionDigest:
    """The digest of a transcript, from its report (without the case: prompts are the ones asked)."""
    report = build_report(transcript, None)
    return SessionDigest(
        id=transcript.id,
        case_id=transcript.case_id,
        started=transcript.started,
        overall=report.overall,
        averages=dict(report.averages),
        questions=[
            QuestionDigest(
                question_id=q.question_id,
                prompt=q.prompt,
                missed=list(q.missed),
                main=_from_turn_score(q.main) if q.main is not None else None,
                follow_ups=[_from_turn_score(f) for f in q.follow_ups],
            )
            for q in report.questions
        ],
    )


def as_digest(item: Transcript | SessionDigest) -> SessionDigest:
    """Progress accepts either: a digest from the index, or a transcript already in memory."""
    return item if isinstance(item, SessionDigest) else digest(item)

"""A session's scores in a few hundred bytes: what listings and ``progress`` need, without the turns.

A transcript after a few regrades is ~170 KB of answers, evidence and old
grades; progress over months of sessions needs only each session's overall,
its per-dimension averages and each question's latest scores.  ``digest``
takes those from ``build_report`` (so the figures are the report's own), and
the summary index (``interviewer.index``) stores them as compact JSON (with
each question's prompt kept once per index, not once per session), so
progress never parses a transcript that has not changed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import jiter

from interviewer.content.schema import DIMENSIONS
from interviewer.report import TurnScore, build_report
from interviewer.transcripts import Transcript

Prompts = Mapping[tuple[str, str], str]
"""Question prompts by (case id, question id): the index keeps them once, not in every session's row."""


class ScoreDigest(NamedTuple):
    """One graded answer: the fields of ``report.TurnScore`` that progress and drills read.

    Named tuples, not dataclasses: progress over ten thousand sessions builds a few hundred thousand.
    """

    turn_id: int
    overall: int
    scores: dict[str, int]


class QuestionDigest(NamedTuple):
    """One question of a session, shaped like ``report.QuestionReview`` without the outline."""

    question_id: str
    prompt: str
    missed: list[str]
    main: ScoreDigest | None = None
    """The latest main answer's grade; follow-ups are left out (neither progress nor drills reads them)."""


@dataclass(frozen=True, slots=True)
class SessionDigest:
    """A session's scores, shaped like ``report.Report`` where progress reads it (``overall``, ``averages``,
    ``questions``), plus the id, case and start that order and filter sessions."""

    id: str
    case_id: str
    started: str
    overall: int | None
    averages: dict[str, float | None]
    questions: list[QuestionDigest] = field(default_factory=list)

    def as_json(self, phrase_id: Callable[[str], int]) -> str:
        """Compact JSON: lists instead of objects, no prompts (see ``prompts``) and each missed key point as
        the number ``phrase_id`` gives it (the same headings recur in every session of a case).

        Ten thousand sessions' digests are decoded on every ``progress``, so every byte counts.
        """
        return json.dumps(
            [self.id, self.case_id, self.started, self.overall, [self.averages.get(d) for d in DIMENSIONS],
             [[q.question_id, [phrase_id(m) for m in q.missed], _pack(q.main)] for q in self.questions]],
            ensure_ascii=False, separators=(",", ":"),
        )

    def prompts(self) -> dict[tuple[str, str], str]:
        return {(self.case_id, q.question_id): q.prompt for q in self.questions}

    @classmethod
    def from_json(cls, text: str, prompts: Prompts, phrases: Sequence[str]) -> SessionDigest:
        """The digest ``as_json`` wrote; ``phrases[n]`` is the key point numbered ``n``."""
        # jiter: faster than json here, and repeated strings (ids, dimension names) are shared.
        sid, case_id, started, overall, averages, questions = jiter.from_json(text.encode(), cache_mode="all")
        return cls(
            id=sid,
            case_id=case_id,
            started=started,
            overall=overall,
            averages=dict(zip(DIMENSIONS, averages, strict=True)),
            questions=[
                QuestionDigest(qid, prompts.get((case_id, qid), ""), [phrases[m] for m in missed], _unpack(main))
                for qid, missed, main in questions
            ],
        )


def _pack(score: ScoreDigest | None) -> list[Any] | None:
    return None if score is None else [score.turn_id, score.overall, score.scores]


def _unpack(data: Any) -> Any:
    return None if data is None else ScoreDigest._make(data)


def _from_turn_score(score: TurnScore) -> ScoreDigest:
    return ScoreDigest(score.turn_id, score.overall, {str(d): v for d, v in score.scores.items()})


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
            )
            for q in report.questions
        ],
    )


def as_digest(item: Transcript | SessionDigest) -> SessionDigest:
    """Progress accepts either: a digest from the index, or a transcript already in memory."""
    return item if isinstance(item, SessionDigest) else digest(item)

"""A session's scores in a few hundred bytes: what listings, ``progress`` and drills need, without the turns.

A transcript after a few regrades is ~170 KB of answers, evidence and old
grades; progress over months of sessions needs only each session's overall,
its per-dimension averages, each question's latest main-answer scores and the
key points it missed.  ``digest`` takes those from ``build_report`` (so the
figures are the report's own), and the summary index (``interviewer.index``)
stores them as one short JSON text per session, so progress never parses a
transcript that has not changed.

The digest is flat on purpose: ``progress`` reads ten thousand of them on
every run, and one list of numbers per session decodes and sums an order of
magnitude faster than a small object per question.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import jiter

from interviewer.content.schema import DIMENSIONS
from interviewer.report import build_report
from interviewer.transcripts import Transcript

Prompts = Mapping[tuple[str, str], str]
"""Question prompts by (case id, question id): the index keeps them once, not in every session's row."""

SCORE_FIELDS = 2 + len(DIMENSIONS)
"""Numbers per graded question in ``SessionDigest.scores``: turn id, overall, then one score per dimension."""


@dataclass(slots=True)
class SessionDigest:
    """A session's scores, shaped like ``report.Report`` where progress reads it (``overall``, ``averages``),
    plus the id, case and start that order and filter sessions.

    Not frozen: a frozen dataclass's ``__init__`` costs four times as much, and ``progress`` makes ten
    thousand of these on every run.  Nothing changes a digest once it is made.
    """

    id: str
    case_id: str
    started: str
    overall: int | None
    averages: dict[str, float | None]
    question_ids: list[str] = field(default_factory=list)
    """Every question with a graded main answer, in the report's order (follow-ups are left out: neither
    progress nor drills reads them)."""
    scores: list[int | None] = field(default_factory=list)
    """``SCORE_FIELDS`` numbers per entry of ``question_ids``: the latest main answer's turn id and overall,
    then its score on each of ``DIMENSIONS`` (None for a dimension it was not graded on)."""
    missed: list[str] = field(default_factory=list)
    """The key points each question missed, question after question in the report's order."""
    prompts: Prompts = field(default_factory=dict, compare=False, repr=False)
    """Looked up by ``prompt``; shared by every digest of one index read, so not part of a digest's value."""

    def graded(self, i: int) -> tuple[int, int, dict[str, int]]:
        """Turn id, overall and the scores by dimension of the ``i``-th graded question."""
        row = self.scores[i * SCORE_FIELDS : (i + 1) * SCORE_FIELDS]
        turn_id, overall = row[0], row[1]
        assert turn_id is not None and overall is not None
        return turn_id, overall, {d: v for d, v in zip(DIMENSIONS, row[2:], strict=True) if v is not None}

    def prompt(self, question_id: str) -> str:
        return self.prompts.get((self.case_id, question_id), "")

    def as_json(self, phrase_id: Callable[[str], int]) -> bytes:
        """``[averages, question ids, scores, missed]`` with each missed key point as the number ``phrase_id``
        gives it (the same headings recur in every session of a case); id, case, start and overall are the
        index's own columns, and prompts sit once per index (``prompts``)."""
        return json.dumps(
            [[self.averages.get(d) for d in DIMENSIONS], self.question_ids, self.scores,
             [phrase_id(m) for m in self.missed]],
            ensure_ascii=False, separators=(",", ":"),
        ).encode()

    @classmethod
    def from_json(
        cls, sid: str, case_id: str, started: str, overall: int | None, text: bytes,
        prompts: Prompts, phrases: Sequence[str],
    ) -> SessionDigest:
        """The digest ``as_json`` wrote; ``phrases[n]`` is the key point numbered ``n``.

        jiter rather than json: faster here, and with ``cache_mode="all"`` the question ids, which recur in
        every session, are shared rather than built again.
        """
        averages, question_ids, scores, missed = jiter.from_json(text, cache_mode="all")
        return cls(sid, case_id, started, overall, dict(zip(DIMENSIONS, averages, strict=True)), question_ids,
                   scores, list(map(phrases.__getitem__, missed)), prompts)


def digest(transcript: Transcript) -> SessionDigest:
    """The digest of a transcript, from its report (without the case: prompts are the ones asked)."""
    report = build_report(transcript, None)
    graded = [q for q in report.questions if q.main is not None]
    scores: list[Any] = [
        [q.main.turn_id, q.main.overall, *(q.main.scores.get(d) for d in DIMENSIONS)] for q in graded if q.main
    ]
    return SessionDigest(
        id=transcript.id,
        case_id=transcript.case_id,
        started=transcript.started,
        overall=report.overall,
        averages=dict(report.averages),
        question_ids=[q.question_id for q in graded],
        scores=list(chain.from_iterable(scores)),
        missed=[m for q in report.questions for m in q.missed],
        prompts={(transcript.case_id, q.question_id): q.prompt for q in report.questions},
    )


def as_digest(item: Transcript | SessionDigest) -> SessionDigest:
    """Progress accepts either: a digest from the index, or a transcript already in memory."""
    return item if isinstance(item, SessionDigest) else digest(item)

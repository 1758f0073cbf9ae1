"""What a session says about each question it graded: drill reviews and their FSRS ratings.

Every graded main answer is one review of its question (the latest grade of
it, at the session's start).  ``FileReviews`` keeps one transcript's reviews
flat, as lists of question ids and numbers, because the drill store handles
them in bulk: a rebuild reads every transcript's reviews (sixteen thousand
over a thousand sessions), and a ``Review`` object is made only for the one
review of each question that the queue shows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, NamedTuple, cast

from fsrs import Rating

from interviewer.content.schema import DIMENSIONS
from interviewer.digest import SCORE_FIELDS, SessionDigest
from interviewer.transcripts import FORMAT_VERSION

RATING_RULE = (
    "A question's rating is taken from its latest main-answer grade: Again when its weakest dimension "
    "scored 0 or 1 or its overall is below 40; Hard when the overall is below 60; Good when the overall "
    "is below 85 or the weakest dimension scored 2; Easy otherwise (overall 85+ and every dimension 3+)."
)
REVIEW_FIELDS = 1 + len(DIMENSIONS)
"""Numbers per review in ``FileReviews.scores``: the overall, then one score (or None) per dimension."""


def rating_from(overall: int, scores: Mapping[str, int]) -> Rating:
    """The FSRS rating of one graded answer (see ``RATING_RULE``).

    The weakest dimension counts as well as the overall because a polished
    answer with no failure modes at all is exactly the gap a drill should
    bring back soon, and an average would hide it.
    """
    return _rating(overall, min(scores.values()) if scores else 0)


def _rating(overall: int, weakest: int) -> Rating:
    if weakest <= 1 or overall < 40:
        return Rating.Again
    if overall < 60:
        return Rating.Hard
    if overall < 85 or weakest == 2:
        return Rating.Good
    return Rating.Easy


def question_key(case_id: str, question_id: str) -> str:
    """Question ids are unique within a case, so a card is keyed by both."""
    return f"{case_id}/{question_id}"


def utc(when: datetime) -> datetime:
    """In UTC, a time without a zone being taken as UTC: FSRS only accepts UTC."""
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


class Review(NamedTuple):
    """One graded main answer: the question, when (the session's start), and what the grade said."""

    case_id: str
    question_id: str
    at: datetime
    """UTC."""
    overall: int
    scores: dict[str, int]
    transcript_id: str

    @property
    def key(self) -> str:
        return question_key(self.case_id, self.question_id)

    @property
    def rating(self) -> Rating:
        return rating_from(self.overall, self.scores)

    def as_json(self) -> dict[str, Any]:
        return {
            "case": self.case_id,
            "question": self.question_id,
            "at": self.at.isoformat(),
            "overall": self.overall,
            "scores": self.scores,
            "transcript": self.transcript_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> Review:
        """Raises ``ValueError``/``KeyError``/``TypeError`` on anything malformed (the store is then rebuilt)."""
        scores = data["scores"]
        if not isinstance(scores, dict) or not all(k in DIMENSIONS and isinstance(v, int) for k, v in scores.items()):
            raise ValueError("bad scores")
        return cls(
            case_id=str(data["case"]),
            question_id=str(data["question"]),
            at=utc(datetime.fromisoformat(data["at"])),
            overall=int(data["overall"]),
            scores={str(k): int(v) for k, v in scores.items()},
            transcript_id=str(data["transcript"]),
        )


class FileReviews(NamedTuple):
    """One transcript's reviews: they share its case, transcript id and start, so those are kept once."""

    case_id: str
    transcript_id: str
    at: datetime
    """UTC."""
    question_ids: list[str]
    scores: list[int | None]
    """``REVIEW_FIELDS`` numbers per entry of ``question_ids``."""

    def keys(self) -> list[str]:
        return [question_key(self.case_id, qid) for qid in self.question_ids]

    def ratings(self) -> list[Rating]:
        """Each review's rating (``rating_from``), all at once: a rebuild rates every review of every file."""
        scores = self.scores
        out = []
        for base in range(0, len(scores), REVIEW_FIELDS):
            dims = scores[base + 1 : base + REVIEW_FIELDS]
            if None in dims:  # graded on fewer dimensions
                dims = [v for v in dims if v is not None]
            out.append(_rating(cast(int, scores[base]), min(cast("list[int]", dims), default=0)))
        return out

    def review(self, i: int) -> Review:
        overall, *dims = self.scores[i * REVIEW_FIELDS : (i + 1) * REVIEW_FIELDS]
        assert overall is not None
        scores = {str(d): v for d, v in zip(DIMENSIONS, dims, strict=True) if v is not None}
        return Review(self.case_id, self.question_ids[i], self.at, overall, scores, self.transcript_id)

    def reviews(self) -> list[Review]:
        return [self.review(i) for i in range(len(self.question_ids))]

    def as_text(self) -> str:
        """``[case, transcript, start, question ids, scores]`` as compact JSON (the drill store's form)."""
        return json.dumps([self.case_id, self.transcript_id, self.at.isoformat(), self.question_ids, self.scores],
                          ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> FileReviews:
        """What ``as_text`` wrote; raises ``ValueError`` or ``TypeError`` on anything else."""
        case_id, transcript_id, at, question_ids, scores = json.loads(text)
        if not (isinstance(case_id, str) and isinstance(transcript_id, str) and isinstance(question_ids, list)
                and isinstance(scores, list) and len(scores) == REVIEW_FIELDS * len(question_ids)
                and all(isinstance(q, str) for q in question_ids)
                and all(v is None or type(v) is int for v in scores)
                and all(v is not None for v in scores[::REVIEW_FIELDS])):
            raise ValueError("reviews are [case, transcript, start, question ids, scores]")
        return cls(case_id, transcript_id, utc(datetime.fromisoformat(at)), question_ids, scores)


def file_reviews(data: Any) -> FileReviews | None:
    """The reviews in one parsed transcript file (None for none): the latest graded main answer of each question.

    Works on the raw JSON (no model validation): without the summary index a
    rebuild reads every transcript, and this is most of its cost.
    """
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        return None
    turns, case_id, tid = data.get("turns"), data.get("case_id"), data.get("id")
    if not isinstance(turns, list) or not isinstance(case_id, str) or not isinstance(tid, str):
        return None
    try:
        at = utc(datetime.fromisoformat(str(data.get("started"))))
    except ValueError:
        return None
    latest: dict[str, list[int | None]] = {}
    for turn in turns:
        if not isinstance(turn, dict) or turn.get("kind", "question") != "question":
            continue
        grade, qid = turn.get("grade"), turn.get("question_id")
        if not isinstance(grade, dict) or not isinstance(qid, str):
            continue
        overall, dims = grade.get("overall"), grade.get("dimensions")
        if not isinstance(overall, int) or not isinstance(dims, dict):
            continue
        latest[qid] = [overall, *(
            s["score"] if isinstance(s := dims.get(d), dict) and isinstance(s.get("score"), int) else None
            for d in DIMENSIONS
        )]
    if not latest:
        return None
    return FileReviews(case_id, tid, at, list(latest), [v for row in latest.values() for v in row])


def digest_reviews(digest: SessionDigest) -> FileReviews | None:
    """The reviews in a session's digest from the summary index: the same as ``file_reviews`` on its file."""
    if not digest.question_ids:
        return None
    try:
        at = utc(datetime.fromisoformat(digest.started))
    except ValueError:
        return None
    scores = digest.scores[:]
    del scores[::SCORE_FIELDS]  # the turn ids: a review needs only the grade
    return FileReviews(digest.case_id, digest.id, at, digest.question_ids, scores)

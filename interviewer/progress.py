"""History across transcripts: per-dimension trends, weak areas and what to drill next."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.digest import SessionDigest, as_digest
from interviewer.transcripts import Transcript

WINDOW = 3
"""Sessions averaged at each end when comparing early and recent performance (fewer when there are few)."""
MIN_TREND = 3
"""Graded sessions needed before a trend is named: with one or two, 'flat' or 'up' would be noise."""
WEAK_QUESTIONS = 5
"""How many of the weakest questions to list."""


@dataclass
class SessionPoint:
    id: str
    case_id: str
    started: str
    overall: int | None
    averages: dict[str, float | None]


@dataclass
class QuestionScore:
    """A question's latest main-answer grade across all sessions."""

    case_id: str
    question_id: str
    prompt: str
    overall: int
    scores: dict[str, int]
    sessions: int
    """How many sessions graded a main answer to it."""
    last: str
    """When the latest of them started."""


@dataclass
class Progress:
    sessions: list[SessionPoint] = field(default_factory=list)
    early: dict[str, float | None] = field(default_factory=dict)
    recent: dict[str, float | None] = field(default_factory=dict)
    weakest: str | None = None
    drills: list[tuple[str, int]] = field(default_factory=list)
    """Most often missed key points, with how many times they were missed."""
    trend: dict[str, str | None] = field(default_factory=dict)
    """'up', 'down' or 'flat' per dimension; None without scores or with too little history."""
    weakest_questions: list[QuestionScore] = field(default_factory=list)
    """Lowest latest main-answer overall first."""
    weakest_dimensions: list[tuple[str, float]] = field(default_factory=list)
    """Every scored dimension with its recent mean, weakest first."""

    @property
    def enough_history(self) -> bool:
        return len(self.sessions) >= MIN_TREND

    def as_json(self) -> dict[str, object]:
        return {
            "sessions": [s.__dict__ for s in self.sessions],
            "early": self.early,
            "recent": self.recent,
            "weakest": self.weakest,
            "drills": [{"key_point": k, "missed": n} for k, n in self.drills],
            "enough_history": self.enough_history,
            "trend": self.trend,
            "weakest_questions": [q.__dict__ for q in self.weakest_questions],
            "weakest_dimensions": [{"dimension": d, "recent": v} for d, v in self.weakest_dimensions],
        }

    def history_note(self) -> str | None:
        """Why no trend is named, or None when there is enough history."""
        if self.enough_history:
            return None
        n = len(self.sessions)
        return (f"Too little history for a trend: {n} graded session{'s' if n != 1 else ''} "
                f"({MIN_TREND} or more show one).")

    def as_text(self) -> str:
        if not self.sessions:
            return "no graded sessions yet: run one with `interviewer run CASE`\n"
        lines = [f"{len(self.sessions)} graded sessions", "", f"{'dimension':<15}{'early':>8}{'recent':>8}  trend"]
        for dim in DIMENSIONS:
            a, b = self.early.get(dim), self.recent.get(dim)
            lines.append(f"{DIMENSION_TITLES[dim]:<15}{_fmt(a):>8}{_fmt(b):>8}  {self.trend.get(dim) or ''}")
        note = self.history_note()
        if note:
            lines += ["", note]
        if self.weakest_dimensions:
            lines += ["", "Weakest dimensions lately: " + ", ".join(
                f"{DIMENSION_TITLES[d]} {v:.1f}" for d, v in self.weakest_dimensions)]
        if self.weakest_questions:
            lines += ["", "Weakest questions (latest main answer):"]
            lines += [f"  {q.overall:>3}/100  {q.case_id}/{q.question_id}  {_short(q.prompt)}"
                      for q in self.weakest_questions]
        if self.drills:
            lines += ["", "Key points missed most often:"]
            lines += [f"  {n}x  {k}" for k, n in self.drills]
        return "\n".join(lines) + "\n"


def _short(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _mean(points: list[SessionPoint], dim: str) -> float | None:
    values = [v for p in points if (v := p.averages.get(dim)) is not None]
    return sum(values) / len(values) if values else None


def progress(transcripts: Sequence[Transcript | SessionDigest], drills: int = 8) -> Progress:
    """``transcripts`` oldest first.  Sessions with no graded answer are left out.

    Digests (``TranscriptStore.digests``, read through the summary index) carry everything used here,
    so the command never parses a whole transcript; a ``Transcript`` in memory is digested on the spot.
    Ten thousand sessions are summed here on every ``progress``, so per session only whole lists are
    handed on (to ``Counter``s, in C); a question's latest grade is looked up only for the sessions that
    hold one, newest first.
    """
    result = Progress()
    missed: list[str] = []
    graded: list[SessionDigest] = []
    answered: dict[str, Counter[str]] = {}
    """Per case: how many sessions graded a main answer to each question."""
    for t in transcripts:
        d = as_digest(t)
        if d.overall is None:
            continue
        graded.append(d)
        result.sessions.append(SessionPoint(d.id, d.case_id, d.started, d.overall, d.averages))
        missed += d.missed
        counts = answered.get(d.case_id)
        if counts is None:
            counts = answered[d.case_id] = Counter()
        counts.update(d.question_ids)
    # Windows never overlap, so three sessions compare the first with the last rather than a set with itself.
    window = max(1, min(WINDOW, len(result.sessions) // 2))
    early, recent = result.sessions[:window], result.sessions[-window:]
    result.early = {d: _mean(early, d) for d in DIMENSIONS}
    result.recent = {d: _mean(recent, d) for d in DIMENSIONS}
    known = {d: v for d, v in result.recent.items() if v is not None}
    result.weakest = min(known, key=lambda d: (known[d], DIMENSIONS.index(d))) if known else None
    result.weakest_dimensions = sorted(known.items(), key=lambda kv: (kv[1], DIMENSIONS.index(kv[0])))
    result.trend = {d: _trend(result.early.get(d), result.recent.get(d)) if result.enough_history else None
                    for d in DIMENSIONS}
    result.weakest_questions = sorted(
        _latest(graded, answered), key=lambda q: (q.overall, min(q.scores.values(), default=0), q.case_id,
                                                  q.question_id)
    )[:WEAK_QUESTIONS]
    # Counted in session order, so ties keep the order in which the key points were first missed.
    result.drills = Counter(missed).most_common(drills)
    return result


def _latest(graded: Sequence[SessionDigest], answered: dict[str, Counter[str]]) -> list[QuestionScore]:
    """Each question's latest main-answer grade: the newest sessions are read until every question is found."""
    wanted = sum(len(counts) for counts in answered.values())
    latest: dict[tuple[str, str], QuestionScore] = {}
    for d in reversed(graded):
        for i, qid in enumerate(d.question_ids):
            if (d.case_id, qid) not in latest:
                _, overall, scores = d.graded(i)
                latest[(d.case_id, qid)] = QuestionScore(
                    d.case_id, qid, d.prompt(qid), overall, scores, answered[d.case_id][qid], d.started)
        if len(latest) == wanted:
            break
    return list(latest.values())


def _trend(early: float | None, recent: float | None) -> str | None:
    if early is None or recent is None:
        return None
    return "up" if recent > early + 0.05 else "down" if recent < early - 0.05 else "flat"

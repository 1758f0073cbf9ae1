"""History across transcripts: per-dimension trends, weak areas and what to drill next."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.report import build_report
from interviewer.transcripts import Transcript

WINDOW = 3
"""Sessions averaged at each end when comparing early and recent performance."""


@dataclass
class SessionPoint:
    id: str
    case_id: str
    started: str
    overall: int | None
    averages: dict[str, float | None]


@dataclass
class Progress:
    sessions: list[SessionPoint] = field(default_factory=list)
    early: dict[str, float | None] = field(default_factory=dict)
    recent: dict[str, float | None] = field(default_factory=dict)
    weakest: str | None = None
    drills: list[tuple[str, int]] = field(default_factory=list)
    """Most often missed key points, with how many times they were missed."""

    def as_json(self) -> dict[str, object]:
        return {
            "sessions": [s.__dict__ for s in self.sessions],
            "early": self.early,
            "recent": self.recent,
            "weakest": self.weakest,
            "drills": [{"key_point": k, "missed": n} for k, n in self.drills],
        }

    def as_text(self) -> str:
        if not self.sessions:
            return "no graded sessions yet: run one with `interviewer run CASE`\n"
        lines = [f"{len(self.sessions)} graded sessions", "", f"{'dimension':<15}{'early':>8}{'recent':>8}  trend"]
        for dim in DIMENSIONS:
            a, b = self.early.get(dim), self.recent.get(dim)
            trend = "" if a is None or b is None else ("up" if b > a + 0.05 else "down" if b < a - 0.05 else "flat")
            lines.append(f"{DIMENSION_TITLES[dim]:<15}{_fmt(a):>8}{_fmt(b):>8}  {trend}")
        if self.weakest:
            lines += ["", f"Weakest lately: {DIMENSION_TITLES[self.weakest]}"]
        if self.drills:
            lines += ["", "Drill next (most often missed):"]
            lines += [f"  {n}x  {k}" for k, n in self.drills]
        return "\n".join(lines) + "\n"


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _mean(points: list[SessionPoint], dim: str) -> float | None:
    values = [v for p in points if (v := p.averages.get(dim)) is not None]
    return sum(values) / len(values) if values else None


def progress(transcripts: list[Transcript], drills: int = 8) -> Progress:
    """``transcripts`` oldest first.  Sessions with no graded answer are left out."""
    result = Progress()
    missed: Counter[str] = Counter()
    for t in transcripts:
        report = build_report(t, None)
        if report.overall is None:
            continue
        result.sessions.append(SessionPoint(t.id, t.case_id, t.started, report.overall, report.averages))
        for q in report.questions:
            missed.update(q.missed)
    early, recent = result.sessions[:WINDOW], result.sessions[-WINDOW:]
    result.early = {d: _mean(early, d) for d in DIMENSIONS}
    result.recent = {d: _mean(recent, d) for d in DIMENSIONS}
    known = {d: v for d, v in result.recent.items() if v is not None}
    result.weakest = min(known, key=lambda d: (known[d], DIMENSIONS.index(d))) if known else None
    result.drills = missed.most_common(drills)
    return result

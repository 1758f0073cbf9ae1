"""The end-of-session debrief: a short paragraph from the model, or an offline one built from the grades.

``summarize_session(settings, case_title, turns)`` takes any objects with
``prompt``, ``answer`` and ``grade`` attributes (``transcripts.Turn`` fits),
and returns a ``SessionSummary`` that says which source wrote it and, if the
model was asked and failed, why.  The offline text is deterministic, so the
report always has a debrief.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from interviewer.config import Settings
from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.grading.errors import scrub
from interviewer.grading.types import Grade, GraderName, GradingError

log = logging.getLogger("interviewer.grading")

SUMMARY_MAX_TOKENS = 400
MAX_TURNS = 12
"""The prompt carries at most this many graded turns (the most recent)."""
ANSWER_EXCERPT_CHARS = 400
MAX_SUMMARY_CHARS = 2500


class TurnLike(Protocol):
    prompt: str
    answer: str | None
    grade: Grade | None


@dataclass(frozen=True)
class SessionSummary:
    text: str
    grader: GraderName
    """``llm`` when the model wrote it, ``keyword`` for the offline text."""
    model: str | None = None
    fallback_reason: str | None = None


def _graded(turns: Sequence[TurnLike]) -> list[TurnLike]:
    return [t for t in turns if t.grade is not None and t.answer]


def _averages(turns: Sequence[TurnLike]) -> dict[str, float]:
    out: dict[str, float] = {}
    for dim in DIMENSIONS:
        scores = [t.grade.dimensions[dim].score for t in turns if t.grade is not None]
        if scores:
            out[dim] = sum(scores) / len(scores)
    return out


def _missed(turns: Sequence[TurnLike]) -> list[str]:
    counts: dict[str, int] = {}
    for t in turns:
        if t.grade is not None:
            for dim in DIMENSIONS:
                for point in t.grade.dimensions[dim].missing:
                    counts[point] = counts.get(point, 0) + 1
    return [p for p, _ in sorted(counts.items(), key=lambda kv: -kv[1])]


def offline_summary(case_title: str, turns: Sequence[TurnLike]) -> str:
    """A debrief computed from the grades alone."""
    graded = _graded(turns)
    if not graded:
        return f"{case_title}: no answers were graded, so there is nothing to summarise yet."
    averages = _averages(graded)
    overall = round(sum(t.grade.overall for t in graded if t.grade) / len(graded))
    best = max(averages, key=lambda d: averages[d])
    worst = min(averages, key=lambda d: averages[d])
    parts = [
        f"{case_title}: {len(graded)} graded answer{'s' if len(graded) != 1 else ''}, overall {overall}/100.",
        f"Strongest: {DIMENSION_TITLES[best]} ({averages[best]:.1f}/4). "
        f"Weakest: {DIMENSION_TITLES[worst]} ({averages[worst]:.1f}/4).",
    ]
    missed = _missed(graded)
    if missed:
        parts.append("Missed most often: " + "; ".join(missed[:3]) + ".")
    parts.append(f"Next session, lead each answer with the {DIMENSION_TITLES[worst].lower()} part.")
    return " ".join(parts)


def summarize_session(settings: Settings, case_title: str, turns: Sequence[TurnLike]) -> SessionSummary:
    """The model's debrief when online, else (or on any failure) the offline one, with the reason."""
    offline = offline_summary(case_title, turns)
    graded = _graded(turns)
    if not settings.online or not graded:
        return SessionSummary(text=offline, grader="keyword")
    try:
        text, model = _ask_model(settings, case_title, graded)
        return SessionSummary(text=text, grader="llm", model=model)
    except GradingError as exc:
        reason = scrub(exc.reason, settings)
    except Exception as exc:
        reason = scrub(f"unexpected error in the summary: {type(exc).__name__}: {exc}", settings)
    log.info("session summary fell back to the offline text: %s", reason)
    return SessionSummary(text=offline, grader="keyword", fallback_reason=reason)


def _ask_model(settings: Settings, case_title: str, graded: Sequence[TurnLike]) -> tuple[str, str]:
    from interviewer.grading.llm.client import ChatClient
    from interviewer.grading.llm.grader import nonce
    from interviewer.grading.llm.parse import strip_wrappers
    from interviewer.grading.llm.prompts import summary_messages

    recent = list(graded)[-MAX_TURNS:]
    averages = _averages(recent)
    rows = []
    for t in recent:
        assert t.grade is not None
        rows.append(
            {
                "prompt": t.prompt,
                "scores": ", ".join(f"{d} {t.grade.dimensions[d].score}" for d in DIMENSIONS),
                "missing": "; ".join(m for d in DIMENSIONS for m in t.grade.dimensions[d].missing),
                "feedback": t.grade.feedback,
                "answer": (t.answer or "")[:ANSWER_EXCERPT_CHARS],
            }
        )
    overall = round(sum(t.grade.overall for t in recent if t.grade) / len(recent))
    messages = summary_messages(
        case_title,
        overall,
        [(DIMENSION_TITLES[d], f"{v:.1f}") for d, v in averages.items()],
        rows,
        nonce(),
    )
    client = ChatClient(settings)
    try:
        completion = client.chat(messages, max_tokens=SUMMARY_MAX_TOKENS)
    finally:
        client.close()
    if completion.finish_reason == "length":
        raise GradingError("summary was cut off (finish_reason=length)")
    text = " ".join(strip_wrappers(completion.text).split())
    if len(text.split()) < 5:
        raise GradingError("summary was empty or too short")
    if len(text) > MAX_SUMMARY_CHARS:
        text = text[: MAX_SUMMARY_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return text, completion.model

"""Every question's scores in one table: overall and each dimension, the main answer and its follow-ups apart.

Built from ``report.QuestionReview`` so the transcript screen shows the same
figures as the report, ``show`` and the Markdown export.
"""

from __future__ import annotations

from textual.content import Content

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.report import QuestionReview, TurnScore

LABEL = 28
COLUMN = 10
HEADS = {"mechanism": "Mechanism", "tradeoff": "Tradeoff", "numbers": "Numbers", "failure_modes": "Failures"}
"""Column heads that fit ``COLUMN``."""


def _row(label: str, score: TurnScore | None, style: str = "") -> Content:
    cells = [f"{'-' if score is None else score.overall:>{COLUMN}}"]
    for dim in DIMENSIONS:
        value = score.scores.get(dim) if score is not None else None
        cells.append(f"{'' if value is None else value:>{COLUMN}}")
    return Content.assemble((label[:LABEL].ljust(LABEL), style), "".join(cells))


def scores_content(questions: list[QuestionReview]) -> Content:
    """A header line, then per question its main answer's row and one row per graded follow-up."""
    heads = "".join(f"{HEADS.get(d, DIMENSION_TITLES[d])[:COLUMN - 1]:>{COLUMN}}" for d in DIMENSIONS)
    lines = [
        Content.styled("Scores by question (0-4 per dimension; follow-ups graded on what they probe)", "bold"),
        Content.styled(f"{'':<{LABEL}}{'overall':>{COLUMN}}{heads}", "$text-muted"),
    ]
    if not questions:
        lines.append(Content.styled("No questions asked.", "italic $text-muted"))
    for index, review in enumerate(questions, start=1):
        prompt = " ".join(review.prompt.split())
        title = f"Q{index} {prompt}"
        if len(title) > LABEL - 1:
            title = title[: LABEL - 2] + "…"
        lines.append(_row(title, review.main, "bold"))
        for number, follow_up in enumerate(review.follow_ups, start=1):
            lines.append(_row(f"   follow-up {number}", follow_up, "$text-muted"))
    return Content("\n").join(lines)

"""Small text helpers shared by screens.

Everything that can hold text from a user, a case file or a model becomes a
``Content`` built from plain strings (``Content.assemble`` / ``Content.styled``
never parse markup), so ``[bold]`` in an answer is shown as typed.  Colours
are theme variables, never literal colours, so themes and NO_COLOR apply.
"""

from __future__ import annotations

from datetime import datetime

from textual.content import Content

BAR_CELLS_PER_POINT = 2
MAX_SCORE = 4


def started_label(iso: str) -> str:
    """``2026-05-09 07:35`` from an ISO timestamp; the raw text if it does not parse."""
    try:
        return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def score_style(score: float, top: float = MAX_SCORE) -> str:
    """A theme colour for a score: weak, middling or strong."""
    share = score / top if top else 0
    if share >= 0.75:
        return "$success"
    if share >= 0.5:
        return "$warning"
    return "$error"


def score_bar(score: float, top: int = MAX_SCORE) -> Content:
    """A bar of block characters, two cells per point, coloured by strength."""
    width = top * BAR_CELLS_PER_POINT
    filled = round(score * BAR_CELLS_PER_POINT)
    return Content.assemble(("█" * filled, score_style(score, top)), ("░" * (width - filled), "$text-muted"))


def overall_content(overall: int | None) -> Content:
    if overall is None:
        return Content.styled("–", "$text-muted")
    return Content.styled(f"{overall}/100", f"bold {score_style(overall, 100)}")


def first_line(text: str, limit: int = 80) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"

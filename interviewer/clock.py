"""How a span of time is written: the one clock format for countdowns, reports, exports and the TUI.

Kept apart from ``session`` (the state machine) so that renderers can format
times without importing it.
"""

from __future__ import annotations


def duration_text(seconds: float) -> str:
    """``mm:ss`` (or ``h:mm:ss``) for a span of seconds, unsigned."""
    secs = int(abs(seconds))
    hours, rest = divmod(secs, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60:02d}:{rest % 60:02d}"

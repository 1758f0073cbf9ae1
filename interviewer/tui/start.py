"""What the app opens on.  Plain data, so the CLI can describe a start without importing Textual."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Home:
    """The home screen: cases, recent sessions, resume."""


@dataclass(frozen=True)
class Run:
    """Start a session on ``case_id`` straight away (``interviewer run CASE``)."""

    case_id: str
    minutes: float | None = None
    """Total minutes to fit the case into; phase budgets are scaled.  None keeps the case's own."""
    practice: bool | None = None
    """Practice mode allows pausing; None means the case kind decides (banks are practice)."""
    phase_timeout: Literal["soft", "strict"] | None = None
    """None means the setting from the config."""


@dataclass(frozen=True)
class Resume:
    """Continue an unfinished transcript."""

    transcript_id: str


@dataclass(frozen=True)
class Review:
    """The transcript browser (``interviewer review``)."""


@dataclass(frozen=True)
class Drill:
    """A drill (``interviewer drill``): ``question_ids`` of the library case ``case_id`` as one short session."""

    case_id: str
    question_ids: tuple[str, ...]
    minutes: float | None = None
    """Total minutes; None gives each question its share of its phase in the full case."""


StartSpec = Home | Run | Resume | Review | Drill

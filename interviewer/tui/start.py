"""What the app is given and what it opens on.

Plain data with no runtime imports, so the CLI can describe a start without
importing Textual, and the app can be drawn before pydantic, the case
library or the grader are loaded (they arrive later as an ``Environment``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.content.loader import Library
    from interviewer.grading.types import SessionGrader
    from interviewer.transcripts import TranscriptStore

T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Environment:
    """Everything the app works with, built from the settings: slow to build, so it can come ``Deferred``."""

    settings: Settings
    library: Library
    grader: SessionGrader
    store: TranscriptStore


@dataclass(frozen=True)
class Deferred(Generic[T_co]):
    """Something slow to build: the app calls ``load`` in a worker after its first frame is painted."""

    load: Callable[[], T_co]


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

"""Messages that workers post to screens.

Workers never touch widgets: they report progress with these messages and the
screen's handlers (which run on the event loop) update the display.  Streamed
chunks carry the *whole* text so far, so a newer chunk can replace an older
one still waiting in the queue (``can_replace``) without losing anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the messages only carry these: importing them here would load pydantic before the first paint
    from interviewer.grading.types import Grade
    from interviewer.transcripts import Summary, Transcript
    from interviewer.tui.start import Environment


class GradeStarted(Message):
    """A grader began work on a turn."""

    def __init__(self, turn_id: int) -> None:
        super().__init__()
        self.turn_id = turn_id


class GradeChunk(Message):
    """Streamed feedback for a turn: ``text`` is everything received so far."""

    def __init__(self, turn_id: int, text: str) -> None:
        super().__init__()
        self.turn_id = turn_id
        self.text = text

    def can_replace(self, message: Message) -> bool:
        # A newer chunk for the same turn holds all of this one's text.
        return isinstance(message, GradeChunk) and message.turn_id == self.turn_id


class GradeDone(Message):
    """A turn was graded.  ``wording`` is the model's phrasing of the follow-up the session chose, if any."""

    def __init__(self, turn_id: int, grade: Grade, wording: str | None = None) -> None:
        super().__init__()
        self.turn_id = turn_id
        self.grade = grade
        self.wording = wording


class GradeFailed(Message):
    """No grade could be produced; ``reason`` is one line, safe to show."""

    def __init__(self, turn_id: int, reason: str) -> None:
        super().__init__()
        self.turn_id = turn_id
        self.reason = reason


class RegradeProgress(Message):
    """A regrade of a saved transcript graded ``done`` of ``total`` turns."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RegradeProgress)


class RegradeDone(Message):
    """A regrade finished and the transcript was saved."""

    def __init__(self, transcript: Transcript, regraded: int) -> None:
        super().__init__()
        self.transcript = transcript
        self.regraded = regraded


class RegradeFailed(Message):
    """A regrade could not run at all (e.g. the transcript could not be loaded)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class TranscriptsListed(Message):
    """The transcripts folder was read (in a worker, since it parses every file)."""

    def __init__(self, summaries: list[Summary], problems: list[str]) -> None:
        super().__init__()
        self.summaries = summaries
        self.problems = problems


class Loaded(Message):
    """The settings, the case library, the grader and the store are ready (loaded in a worker after the first paint)."""

    def __init__(self, env: Environment) -> None:
        super().__init__()
        self.env = env


class LoadFailed(Message):
    """Loading the environment failed; ``reason`` is one line, ``code`` the exit code to end on."""

    def __init__(self, reason: str, code: int = 1) -> None:
        super().__init__()
        self.reason = reason
        self.code = code


class EndpointChecked(Message):
    """The home screen's probe of the grading endpoint finished."""

    def __init__(self, reachable: bool, text: str) -> None:
        super().__init__()
        self.reachable = reachable
        self.text = text


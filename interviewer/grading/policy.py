"""The fallback policy: grade with the model when one is configured, offline otherwise, and say why.

``build_grader(settings)`` is the one entry point the session, the TUI and
the CLI use.  The returned ``FallbackGrader`` always computes the offline
keyword grade first (it is cheap and deterministic), then, when online, asks
the LLM grader.  Any failure of the LLM path (unreachable endpoint, HTTP
error, cut-off or nonsense output, or a bug) returns the offline grade with
``grader="keyword"`` and a one-line ``fallback_reason``; a made-up default
score is never returned.

Importing this module does not import ``openai`` (it costs over a second);
the LLM grader is imported only when an endpoint is configured.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from interviewer.config import Settings
from interviewer.followup import Probe
from interviewer.grading.errors import CallbackFailed, safe_url, scrub
from interviewer.grading.types import FLAG_EMPTY, ChunkCallback, Grade, Grader, GradeRequest, GraderName, GradingError

if TYPE_CHECKING:
    from interviewer.grading.llm.grader import LLMGrader

log = logging.getLogger("interviewer.grading")

OFFLINE_DESCRIPTION = "offline keyword scoring"
EMPTY_REASON = "empty answer: nothing for the model to grade"


class FallbackGrader:
    """Implements the ``Grader`` protocol; the UI only needs ``grade``, ``describe`` and ``online``.

    ``on_chunk`` receives the model's feedback text as it streams (decoded
    from the ``feedback`` field of its JSON reply, never raw JSON or
    ``<think>`` text).  Streamed text is provisional: if the model's reply is
    then rejected, ``grade`` returns the offline grade, whose ``feedback``
    replaces what was shown.  An exception raised by ``on_chunk`` is not
    treated as a model failure: it propagates, so a worker can abandon a
    stale grade by raising.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        offline: Grader | None = None,
        llm: LLMGrader | None = None,
    ) -> None:
        self.settings = settings
        self.online: bool = settings.online
        """True when an endpoint is configured and ``--offline`` is not set."""
        self.name: GraderName = "llm" if self.online else "keyword"
        if offline is None:
            from interviewer.grading.offline.grader import KeywordGrader

            offline = KeywordGrader()
        self._offline = offline
        if llm is None and self.online:
            from interviewer.grading.llm.grader import LLMGrader

            llm = LLMGrader(settings)
        self._llm = llm if self.online else None

    # ------------------------------------------------------------------ status

    def describe(self) -> str:
        """One line for a status bar: what grades answers.  Never includes the key."""
        if self._llm is None:
            return OFFLINE_DESCRIPTION
        model = self._llm.model_name or self.settings.model or "first listed model"
        return f"{model} at {_host(self.settings.base_url or '')}"

    # ------------------------------------------------------------------ grading

    def grade(self, request: GradeRequest, on_chunk: ChunkCallback | None = None) -> Grade:
        """Grade one answer; always returns a valid Grade unless ``on_chunk`` raises."""
        if self._llm is None:  # offline only: the keyword grader's own preview, if it sends one
            return _stamped(self._offline.grade(request, on_chunk))
        offline = self._offline.grade(request)  # no preview: the model's feedback is the one to stream
        if not request.answer.strip() or FLAG_EMPTY in offline.flags:
            return _stamped(offline.model_copy(update={"grader": "keyword", "fallback_reason": EMPTY_REASON}))
        return _stamped(self._try_llm(request, offline, on_chunk))

    def _try_llm(self, request: GradeRequest, offline: Grade, on_chunk: ChunkCallback | None) -> Grade:
        assert self._llm is not None
        try:
            return self._llm.grade(request, on_chunk, offline=offline)
        except CallbackFailed as exc:
            raise exc.original from None
        except GradingError as exc:
            reason = exc.reason
        except Exception as exc:  # a bug or an unforeseen library error must not cost the candidate a grade
            reason = f"unexpected error in the LLM grader: {type(exc).__name__}: {exc}"
        reason = self._scrub(reason)
        log.info("LLM grading fell back to offline scoring: %s", reason)
        return offline.model_copy(update={"grader": "keyword", "fallback_reason": reason, "model": None})

    # ------------------------------------------------------------------ follow-ups

    def word(self, request: GradeRequest, grade: Grade, probe: Probe) -> str:
        """The wording of a follow-up the session chose: the model's when it graded the answer, else the script's.

        Only the session decides what to probe (``interviewer.followup``); this
        only phrases it.  A wording failure never affects anything: the
        scripted text is used.  Regrading never calls this.
        """
        if self._llm is None or grade.grader != "llm":
            return probe.scripted
        try:
            return self._llm.word_follow_up(request, probe)
        except CallbackFailed as exc:
            raise exc.original from None
        except Exception as exc:
            reason = exc.reason if isinstance(exc, GradingError) else f"{type(exc).__name__}: {exc}"
            log.info("follow-up wording fell back to the scripted text: %s", self._scrub(reason))
            return probe.scripted

    def _scrub(self, text: str) -> str:
        return scrub(text, self.settings)


def build_grader(settings: Settings) -> FallbackGrader:
    """The grader for these settings: offline only with ``offline`` or no ``base_url``."""
    return FallbackGrader(settings)


def _stamped(grade: Grade) -> Grade:
    """Record when the grade was made, for the regrade history."""
    return grade.model_copy(update={"graded_at": datetime.now(timezone.utc).isoformat(timespec="seconds")})


def _host(base_url: str) -> str:
    parts = urlsplit(safe_url(base_url))
    return parts.netloc or parts.path or base_url

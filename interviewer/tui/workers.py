"""Grading as the TUI's thread workers run it: plain functions that only post messages.

Graders are synchronous (they may block on the network for seconds), so the
screens run these functions in thread workers.  Nothing here touches a
widget; every result leaves as a message through ``post``, which Textual makes
thread-safe.  Streamed feedback is coalesced so a fast model cannot flood the
message queue: at most one ``GradeChunk`` per ``interval`` seconds, plus a
final flush.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from interviewer.content.schema import Case, Rubric
from interviewer.grading.types import Grade, Grader, GradeRequest, GradingError
from interviewer.transcripts import TranscriptError, TranscriptStore, Turn
from interviewer.tui.messages import (
    GradeChunk,
    GradeDone,
    GradeFailed,
    GradeStarted,
    RegradeDone,
    RegradeFailed,
    RegradeProgress,
)

if TYPE_CHECKING:
    from interviewer.config import Settings

Post = Callable[[Message], object]
Word = Callable[[int, GradeRequest, Grade], "str | None"]
"""Words the follow-up a grade leads to (the session decides what; the model may phrase it)."""
CHUNK_INTERVAL = 0.08
"""Seconds between two streamed-feedback messages: about 12 updates a second, smooth to read, cheap to paint."""


class GradeAbandoned(Exception):
    """Raised from the chunk callback when the worker was cancelled, to stop a grade nobody will read."""


class ChunkCoalescer:
    """Collects streamed text and posts it as ``GradeChunk`` at most every ``interval`` seconds.

    The first chunk after a quiet spell is posted at once; chunks that arrive
    faster are held and posted by a one-shot timer at the end of the interval,
    so the last words never wait for the grade to finish.
    """

    def __init__(
        self,
        turn_id: int,
        post: Post,
        *,
        interval: float = CHUNK_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        is_cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        self.turn_id = turn_id
        self.is_cancelled = is_cancelled
        self.post = post
        self.interval = interval
        self.clock = clock
        self.parts: list[str] = []
        self.posts = 0
        self._posted_len = 0
        self._last_post = float("-inf")
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def feed(self, chunk: str) -> None:
        """Called by the grader (in the worker thread) with each streamed piece."""
        if self.is_cancelled():
            # The policy lets a callback's exception through: this abandons a stale grade.
            raise GradeAbandoned()
        if not chunk:
            return
        with self._lock:
            self.parts.append(chunk)
            wait = self.interval - (self.clock() - self._last_post)
            if wait <= 0:
                self._post_locked()
            elif self._timer is None:
                self._timer = threading.Timer(wait, self._on_timer)
                self._timer.daemon = True
                self._timer.start()

    def flush(self) -> None:
        """Post whatever arrived since the last post (called once the grade is done)."""
        with self._lock:
            self._cancel_timer()
            if sum(len(p) for p in self.parts) != self._posted_len:
                self._post_locked()

    def cancel(self) -> None:
        """Drop what is held: nobody will read it."""
        with self._lock:
            self._cancel_timer()

    def _on_timer(self) -> None:
        with self._lock:
            self._timer = None
            if sum(len(p) for p in self.parts) != self._posted_len and not self.is_cancelled():
                self._post_locked()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _post_locked(self) -> None:
        self._cancel_timer()
        text = "".join(self.parts)
        self._posted_len = len(text)
        self._last_post = self.clock()
        self.posts += 1
        self.post(GradeChunk(self.turn_id, text))


async def in_daemon_thread(fn: Callable[[Callable[[], bool]], None], name: str) -> None:
    """Run ``fn(is_cancelled)`` in a daemon thread and wait for it without blocking the event loop.

    Why not a Textual thread worker: those run in the loop's default executor,
    which is joined when the app exits, so quitting while a model is thinking
    would leave the terminal hanging until the request times out.  A daemon
    thread is simply dropped at exit (the answer is already saved; a resume
    grades it).  Cancelling the awaiting worker sets the flag ``fn`` polls.
    """
    loop = asyncio.get_running_loop()
    finished = asyncio.Event()
    cancelled = threading.Event()

    def run() -> None:
        try:
            fn(cancelled.is_set)
        finally:
            with contextlib.suppress(RuntimeError):  # the loop is gone: the app has exited
                loop.call_soon_threadsafe(finished.set)

    threading.Thread(target=run, name=name, daemon=True).start()
    try:
        await finished.wait()
    except asyncio.CancelledError:
        cancelled.set()
        raise


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def grade_one(
    grader: Grader,
    request: GradeRequest,
    turn_id: int,
    post: Post,
    *,
    clock: Callable[[], float] = time.monotonic,
    is_cancelled: Callable[[], bool] = lambda: False,
    word: Word | None = None,
) -> Grade | None:
    """Grade one answer, posting Started, Chunk*, then Done or Failed.  Returns the grade.

    ``word`` runs after the grade, in this thread, so the model's phrasing of
    the follow-up arrives with the grade; any failure there keeps the script's.
    """
    post(GradeStarted(turn_id))
    chunks = ChunkCoalescer(turn_id, post, clock=clock, is_cancelled=is_cancelled)
    try:
        grade = grader.grade(request, on_chunk=chunks.feed)
    except GradeAbandoned:
        chunks.cancel()
        return None
    except GradingError as exc:
        chunks.flush()
        post(GradeFailed(turn_id, exc.reason))
        return None
    except Exception as exc:  # a grader bug must not take the session down with it
        chunks.flush()
        post(GradeFailed(turn_id, f"{type(exc).__name__}: {_one_line(exc)}"))
        return None
    chunks.flush()
    wording = None
    if word is not None and not is_cancelled():
        try:
            wording = word(turn_id, request, grade)
        except Exception:  # wording is a nicety: the scripted follow-up is asked instead
            wording = None
    post(GradeDone(turn_id, grade, wording))
    return grade


def grade_jobs(
    grader: Grader,
    jobs: Sequence[tuple[int, GradeRequest]],
    post: Post,
    is_cancelled: Callable[[], bool],
    word: Word | None = None,
) -> None:
    """Grade several turns in order (e.g. answers left ungraded when the app was killed)."""
    for turn_id, request in jobs:
        if is_cancelled():
            return
        grade_one(grader, request, turn_id, post, is_cancelled=is_cancelled, word=word)


@dataclass(frozen=True)
class RegradeJob:
    """What a regrade needs; built on the event loop, run in a thread."""

    path: Path
    case: Case
    rubric: Rubric


def regrade_saved(
    grader: Grader,
    store: TranscriptStore,
    job: RegradeJob,
    post: Post,
    is_cancelled: Callable[[], bool],
) -> None:
    """Regrade a saved transcript with ``interviewer.regrade`` (which keeps old grades and saves each turn)."""
    from interviewer.regrade import regrade

    try:
        transcript = store.load_path(job.path)
    except TranscriptError as exc:
        post(RegradeFailed(str(exc)))
        return
    total = sum(1 for t in transcript.turns if t.answer and job.case.question(t.question_id) is not None)
    if not total:
        post(RegradeFailed("this transcript has no answers to grade"))
        return
    done = 0
    post(RegradeProgress(0, total))

    def on_turn(turn: Turn, old: Grade | None, new: Grade) -> None:
        nonlocal done
        done += 1
        post(RegradeProgress(done, total))

    try:
        regrade(transcript, job.case, job.rubric, grader, store, on_turn=on_turn, should_stop=is_cancelled)
    except GradingError as exc:
        post(RegradeFailed(exc.reason))
        return
    except OSError as exc:
        post(RegradeFailed(f"could not save {job.path}: {exc.strerror or exc}"))
        return
    except Exception as exc:  # a grader bug: report it, keep the app running
        post(RegradeFailed(f"{type(exc).__name__}: {_one_line(exc)}"))
        return
    if not is_cancelled():
        post(RegradeDone(transcript, done))


def probe_endpoint(settings: Settings) -> tuple[bool, str]:
    """Is the grading endpoint there?  ``(reachable, detail)``: the model count, or why not, in one line.

    The first step of ``interviewer check`` (list the models, short connect
    timeout, no retries), without its test grade: the home screen only says
    whether grading will reach the model, and must not queue work on it.
    """
    from interviewer.grading.errors import scrub
    from interviewer.grading.llm.check import CHECK_CONNECT_TIMEOUT, NOT_CONFIGURED, _reached
    from interviewer.grading.llm.client import ChatClient

    if not settings.base_url:
        return False, NOT_CONFIGURED
    probe = settings.model_copy(
        update={"connect_timeout": min(settings.connect_timeout, CHECK_CONNECT_TIMEOUT), "offline": False}
    )
    try:
        client = ChatClient(probe, retry_429=False)
    except GradingError as exc:
        return False, scrub(exc.reason, settings)
    try:
        models = client.list_models()
    except GradingError as exc:
        reason = scrub(exc.reason, settings)
        # An HTTP error still means something answers there (e.g. no /models route).
        return _reached(exc.reason), reason
    except Exception as exc:  # a bug must end as one line on the home screen, never a crash
        return False, f"unexpected error: {type(exc).__name__}"
    finally:
        client.close()
    wanted = settings.model
    if wanted and models and wanted not in models:
        return True, f"but it does not list {wanted!r}"
    return True, f"{len(models)} model{'s' if len(models) != 1 else ''} listed"

"""Fakes for the TUI tests: a scripted grader, a hand-wound clock, an app builder and shared fixtures.

The scripted grader returns the Grades it was given, in order, optionally
streaming feedback chunks first and optionally waiting on a gate, so a test
can hold a grade "in flight" and check that the UI stays usable meanwhile.

The fixtures (``anyio_backend``, ``isolated_config``) take effect in a test
module that imports them.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from interviewer.config import Settings
from interviewer.content.loader import Library, load_case, load_rubric
from interviewer.content.schema import DIMENSIONS
from interviewer.followup import Probe
from interviewer.grading.types import ChunkCallback, DimensionScore, Grade, GradeRequest, NumberCheck
from interviewer.transcripts import PhaseRecord, Transcript, TranscriptStore, Turn
from interviewer.tui.app import Deferred, Environment, InterviewerApp, create_app
from interviewer.tui.start import StartSpec

ROOT = Path(__file__).resolve().parent.parent
MINI_CASE = ROOT / "tests" / "fixtures" / "cases" / "mini.yaml"
RUBRIC = ROOT / "rubrics" / "ai-infra.yaml"
SIZE = (100, 30)


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run under anyio's pytest plugin (anyio comes with httpx/openai), on asyncio."""
    return "asyncio"


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads the user's config or writes outside its temp dir."""
    monkeypatch.setenv("INTERVIEWER_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("INTERVIEWER_TRANSCRIPTS_DIR", str(tmp_path / "transcripts"))


class FakeClock:
    """Monotonic seconds that only move when a test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


WORDINGS: dict[int, str] = {}
"""Model wordings of follow-ups, by ``id(grade)``: ``ScriptedGrader.word`` returns them like a model would."""


def make_grade(
    overall: int = 55,
    scores: dict[str, int] | None = None,
    *,
    follow_up: str | None = None,
    follow_up_dimension: str | None = None,
    feedback: str = "",
    evidence: dict[str, list[str]] | None = None,
    missing: dict[str, list[str]] | None = None,
    numbers: Sequence[NumberCheck] = (),
    flags: Sequence[str] = (),
    grader: str = "llm",
    model: str | None = "fake-model",
    fallback_reason: str | None = None,
) -> Grade:
    """A valid Grade with sensible defaults; every field a test cares about can be set.

    ``follow_up`` is how the fake model words the follow-up the session chooses after this grade;
    ``follow_up_dimension`` makes that dimension the weakest, so the session probes it.
    """
    scores = dict(scores or {"mechanism": 3, "tradeoff": 2, "numbers": 2, "failure_modes": 1})
    if follow_up_dimension is not None:
        scores = {d: max(1, v) for d, v in scores.items()}
        scores[follow_up_dimension] = 0
    evidence = evidence or {}
    missing = missing or {}
    grade = Grade(
        grader=grader,
        fallback_reason=fallback_reason,
        overall=overall,
        dimensions={
            d: DimensionScore(score=scores.get(d, 0), evidence=evidence.get(d, []), missing=missing.get(d, []))
            for d in DIMENSIONS
        },
        numbers_checked=list(numbers),
        flags=list(flags),
        feedback=feedback,
        model=model if grader == "llm" else None,
    )
    if follow_up is not None:
        WORDINGS[id(grade)] = follow_up
    return grade


class ScriptedGrader:
    """Implements the Grader protocol (plus ``describe``/``online``) with scripted answers."""

    name = "llm"

    def __init__(
        self,
        grades: Sequence[Grade] | Callable[[GradeRequest], Grade],
        *,
        chunks: Sequence[str] = (),
        chunk_delay: float = 0.0,
        gate: threading.Event | None = None,
        status: str = "fake-model at 127.0.0.1:9",
        online: bool = True,
    ) -> None:
        self._grades = grades
        self.chunks = list(chunks)
        self.chunk_delay = chunk_delay
        self.gate = gate
        self.status = status
        self.online = online
        self.requests: list[GradeRequest] = []
        self._lock = threading.Lock()

    def describe(self) -> str:
        return self.status

    def word(self, request: GradeRequest, grade: Grade, probe: Probe) -> str:
        """Like the real policy: the model's wording when it has one, else the script's."""
        return WORDINGS.get(id(grade), probe.scripted)

    def grade(self, request: GradeRequest, on_chunk: ChunkCallback | None = None) -> Grade:
        with self._lock:
            index = len(self.requests)
            self.requests.append(request)
        for chunk in self.chunks:
            if on_chunk is not None:
                on_chunk(chunk)
            if self.chunk_delay:
                time.sleep(self.chunk_delay)
        if self.gate is not None and not self.gate.wait(timeout=30):
            raise RuntimeError("test gate never opened")
        if callable(self._grades):
            return self._grades(request)
        return self._grades[min(index, len(self._grades) - 1)]


def mini_library() -> Library:
    case = load_case(MINI_CASE)
    rubric = load_rubric(RUBRIC)
    return Library(cases={case.id: case}, rubrics={rubric.id: rubric}, sources={case.id: MINI_CASE})


LONG_PHASE = "Clarify objectives, constraints and the service-level targets before designing anything"
LONG_DELIVERABLES = [
    "A capacity plan with the number of GPUs per replica and why.",
    "A batching policy with its latency and throughput trade-off.",
    "A failure-mode list with detection and mitigation for each item.",
    "A rollout plan that keeps the old version serving while the new one warms.",
    "A one-page summary for the on-call engineer, with the key numbers.",
]


def long_library() -> Library:
    """The mini case as ``long``: a long first phase name, a long scenario and five deliverables (layout tests)."""
    lib = mini_library()
    mini = lib.cases["mini"]
    phases = [mini.phases[0].model_copy(update={"title": LONG_PHASE}), *mini.phases[1:]]
    scenario = " ".join([mini.scenario.strip()] + [
        "A serving team runs a 70B model on 8 H100s behind a gateway; latency targets are tight and bursty."] * 4)
    case = mini.model_copy(update={"id": "long", "title": "Long-named case for layout checks at narrow widths",
                                   "phases": phases, "deliverables": LONG_DELIVERABLES, "scenario": scenario})
    return Library(cases={"long": case}, rubrics=lib.rubrics, sources={"long": MINI_CASE})


def build_app(
    transcripts: Path,
    grader: Any,
    *,
    start: StartSpec | None = None,
    clock: FakeClock | None = None,
    phase_timeout: str = "soft",
    library: Library | None = None,
    deferred: bool = False,
    settings: Settings | None = None,
    gate: threading.Event | None = None,
) -> InterviewerApp:
    """The real app, built by the real factory, with test collaborators.

    ``deferred`` hands the environment over as a loader, as the CLI does in a
    terminal: the first screen paints before it exists.  With a ``gate``, the
    loader waits for it to be set, so a test can look at the app mid-load.
    """
    settings = settings or Settings(transcripts_dir=transcripts, offline=True, phase_timeout=phase_timeout)
    env = Environment(settings, library or mini_library(), grader, TranscriptStore(transcripts))

    def load() -> Environment:
        if gate is not None and not gate.wait(timeout=10):
            raise TimeoutError("the test never opened the loading gate")
        return env

    return create_app(Deferred(load) if deferred else env, clock=clock or FakeClock(), start=start)


async def settle(pilot: Any, rounds: int = 3) -> None:
    """Wait for every worker, then let the posted messages be handled (no sleeps).

    Again while handling those messages started more workers, up to ``rounds`` times; once a
    pause leaves no worker pending or running, there is nothing more to wait for.
    """
    from textual.worker import WorkerCancelled

    for _ in range(rounds):
        # An exclusive worker replaced by a newer one is fine; a failed worker still raises.
        with contextlib.suppress(WorkerCancelled):
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if all(worker.is_finished for worker in pilot.app.workers):
            return


def visible_text(root: Widget) -> str:
    """The plain text of every Static under ``root``: what a reader sees, markup and all."""
    parts: list[str] = []
    widgets = [root, *root.query(Static)] if isinstance(root, Static) else list(root.query(Static))
    for widget in widgets:
        if not widget.display:
            continue
        rendered = widget.render()
        parts.append(rendered.plain if isinstance(rendered, Content) else str(rendered))
    return "\n".join(parts)


async def toast_text(pilot: Any) -> str:
    """The text of the toasts on screen now (they mount one message-loop turn after ``notify``)."""
    from textual.widgets._toast import Toast

    await pilot.pause()
    await pilot.pause()
    return "\n".join(str(toast.render()) for toast in pilot.app.screen.query(Toast))


def saved_transcript(
    store: TranscriptStore,
    transcript_id: str,
    started: str,
    *,
    overall: int | None = 60,
    finished: bool = True,
    answer: str = "K and V per layer and KV head; about 320 KiB per token.",
    case_id: str = "mini",
    case_title: str = "Mini case for tests",
    save: bool = True,
) -> Transcript:
    """A finished (or not) two-phase transcript with fixed ids and times, for review and snapshots."""
    phases = [
        PhaseRecord(id="warmup", title="Warm-up", budget_s=120, started_at=0, ended_at=95 if finished else None),
        PhaseRecord(id="main", title="Main", budget_s=180, started_at=95 if finished else None,
                    ended_at=300 if finished else None),
    ]
    turns = [
        Turn(id=1, phase_id="warmup", question_id="kv-size", prompt="How big is the KV cache per token for "
             "Llama-3-70B in FP16?", asked_at=0, answered_at=80, answer=answer,
             status="graded" if overall is not None else "answered",
             grade=make_grade(overall, missing={"tradeoff": ["Grouped-query attention shrinks the cache"]})
             if overall is not None else None),
    ]
    if finished:
        turns.append(Turn(id=2, phase_id="main", question_id="allreduce", prompt="How long does a ring "
                          "all-reduce of 1 GB take on 8 GPUs?", asked_at=95, answered_at=300, status="skipped"))
    transcript = Transcript(
        id=transcript_id,
        case_id=case_id,
        case_title=case_title,
        started=started,
        updated=started,
        status="finished" if finished else "in_progress",
        elapsed=300 if finished else 80,
        phase_index=1 if finished else 0,
        phases=phases,
        turns=turns,
    )
    if save:
        store.save(transcript)
    return transcript


async def wait_until(pilot: Any, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll a condition while the app runs (for output from threads), failing after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.01)

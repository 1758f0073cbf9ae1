"""The interview state machine: phases, an injected clock, turns and follow-ups.

The session knows nothing about Textual or the network.  A front end asks it
what to show, hands it what the candidate typed, grades the answer however it
likes (in a worker, with any grader) and hands the grade back.  Every change
is saved through ``TranscriptStore`` before the method returns, so an answer
is on disk before anyone starts grading it.

Flow for one question: ask it; take the answer; take its grade; ask one
follow-up chosen by the code (weakest dimension or a missed key point); take
that answer and grade; move on.  When a phase's time runs out, ``strict``
mode moves on at once and ``soft`` mode lets the candidate finish the current
question before moving on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from interviewer.clock import duration_text
from interviewer.content.schema import Case, Phase, Question, Rubric
from interviewer.followup import Probe, choose_probe
from interviewer.grading.types import Grade, GradeRequest
from interviewer.regrade import request_for_turn
from interviewer.transcripts import PhaseRecord, Transcript, TranscriptStore, Turn, TurnKind, new_id, now_iso

Clock = Callable[[], float]
"""Monotonic seconds.  Tests pass a fake; ``--minutes`` scales budgets, not the clock."""

PhaseTimeout = Literal["soft", "strict"]
WARN_FRACTION = 0.2
"""A countdown turns to a warning when less than this share of its budget is left."""
MAX_FOLLOW_UPS = 1


class SessionError(Exception):
    """An action that does not fit the session's state (e.g. submitting after the end)."""


@dataclass(frozen=True)
class Countdown:
    budget: float
    remaining: float

    @property
    def overtime(self) -> bool:
        return self.remaining < 0

    @property
    def warning(self) -> bool:
        return self.remaining < self.budget * WARN_FRACTION

    def label(self) -> str:
        text = duration_text(self.remaining)
        return f"+{text} over" if self.overtime else text


class Session:
    """One mock interview in progress.  Create with ``start`` or ``resume``."""

    def __init__(
        self,
        case: Case,
        rubric: Rubric,
        transcript: Transcript,
        store: TranscriptStore | None,
        *,
        clock: Clock = time.monotonic,
        phase_timeout: PhaseTimeout = "soft",
    ):
        self.case = case
        self.rubric = rubric
        self.transcript = transcript
        self.store = store
        self.clock = clock
        self.phase_timeout = phase_timeout
        self._base = transcript.elapsed
        self._running_since: float | None = clock()
        self.expired_phases: set[str] = set()
        self._user_paused = False
        """Practice-mode pause (the candidate stopped the clock)."""
        self._grading_since: float | None = None
        """Set while the candidate waits for the machine: the clock is stopped and the wait counted apart."""

    # ------------------------------------------------------------------ construction

    @classmethod
    def start(
        cls,
        case: Case,
        rubric: Rubric,
        store: TranscriptStore | None,
        *,
        minutes: float | None = None,
        practice: bool | None = None,
        clock: Clock = time.monotonic,
        phase_timeout: PhaseTimeout = "soft",
        drill_questions: list[str] | None = None,
    ) -> Session:
        """Begin a new session; ``minutes`` scales every phase budget to fit that total.

        ``drill_questions`` marks a drill (``case`` is then the sub-case
        ``drills.drill_case`` built); it is in the transcript from the first
        save, so a drill killed at once still resumes as the same drill.
        """
        if minutes is not None and minutes <= 0:
            raise SessionError("--minutes must be greater than zero")
        scale = (minutes / case.minutes) if minutes else 1.0
        now = now_iso()
        transcript = Transcript(
            id=new_id(case.id),
            case_id=case.id,
            case_title=case.title,
            kind=case.kind,
            started=now,
            updated=now,
            practice=case.kind == "bank" if practice is None else practice,
            time_scale=scale,
            phases=[PhaseRecord(id=p.id, title=p.title, budget_s=p.minutes * 60 * scale) for p in case.phases],
            drill_questions=drill_questions,
        )
        session = cls(case, rubric, transcript, store, clock=clock, phase_timeout=phase_timeout)
        session._begin_phase(0)
        return session

    @classmethod
    def resume(
        cls,
        transcript: Transcript,
        case: Case,
        rubric: Rubric,
        store: TranscriptStore | None,
        *,
        clock: Clock = time.monotonic,
        phase_timeout: PhaseTimeout = "soft",
    ) -> Session:
        """Continue a saved session with the clock where it stopped."""
        if transcript.status == "finished":
            raise SessionError(f"session {transcript.id} is already finished")
        known = {q.id for q in case.questions()}
        unknown = [t.question_id for t in transcript.turns if t.question_id not in known]
        if unknown:
            raise SessionError(f"case {case.id!r} no longer has question {unknown[0]!r}; cannot resume")
        session = cls(case, rubric, transcript, store, clock=clock, phase_timeout=phase_timeout)
        if session.current_turn is None and not session.pending_grades():
            session._advance()
        session._save()
        return session

    # ------------------------------------------------------------------ clock

    def elapsed(self) -> float:
        if self._running_since is None:
            return self._base
        return self._base + (self.clock() - self._running_since)

    @property
    def paused(self) -> bool:
        """The candidate paused the clock (practice mode); a grading pause is ``waiting_for_grade``."""
        return self._user_paused

    def pause(self) -> None:
        if not self.transcript.practice:
            raise SessionError("pause is only available in practice mode")
        if not self._user_paused:
            self._user_paused = True
            self._stop_clock()
            self._save()

    def unpause(self) -> None:
        if self._user_paused:
            self._user_paused = False
            self._start_clock()
            self._save()

    @property
    def waiting_for_grade(self) -> bool:
        """The clock is stopped because the candidate is waiting for the machine to grade."""
        return self._grading_since is not None

    def grading_seconds(self) -> float:
        """Seconds spent waiting for grades so far (not candidate time), including a wait in progress."""
        running = self.clock() - self._grading_since if self._grading_since is not None else 0.0
        return self.transcript.grading_s + running

    def begin_grading_wait(self) -> None:
        """Stop the session and phase clocks while the machine grades: the candidate's time is not spent.

        Called from submit until the feedback and the follow-up are shown.  A
        practice pause is separate: ending one never restarts the other's clock.
        """
        if self._grading_since is None and not self.finished:
            self._grading_since = self.clock()
            self._stop_clock()
            self._save()

    def end_grading_wait(self) -> None:
        """Restart the clocks and add the wait to the transcript's grading time."""
        if self._grading_since is not None:
            self.transcript.grading_s += max(0.0, self.clock() - self._grading_since)
            self._grading_since = None
            self._start_clock()
            self._save()

    def move_on_while_grading(self) -> Turn | None:
        """Grade in the background: restart the clock and ask the next question now.

        The grade still arrives and is recorded; the follow-up it would have led
        to is not asked, because the candidate has moved on.
        """
        if self.finished:
            raise SessionError("the session has finished")
        if self.current_turn is not None:
            raise SessionError("a question is already waiting for an answer")
        if not self.pending_grades():
            raise SessionError("no grade is pending")
        self.end_grading_wait()
        self._advance()
        self._save()
        return self.current_turn

    def save_draft(self, text: str) -> bool:
        """Keep what is in the editor in the transcript (saved atomically); returns False when unchanged."""
        draft = text if text.strip() else None
        if draft == self.transcript.draft:
            return False
        self.transcript.draft = draft
        self._save()
        return True

    def _stop_clock(self) -> None:
        if self._running_since is not None:
            self._base = self.elapsed()
            self._running_since = None

    def _start_clock(self) -> None:
        if self._running_since is None and not self._user_paused and self._grading_since is None:
            self._running_since = self.clock()

    def phase_countdown(self) -> Countdown:
        record = self.phase_record
        return Countdown(record.budget_s, record.budget_s - record.used(self.elapsed()))

    def total_countdown(self) -> Countdown:
        budget = sum(p.budget_s for p in self.transcript.phases)
        return Countdown(budget, budget - self.elapsed())

    # ------------------------------------------------------------------ state queries

    @property
    def finished(self) -> bool:
        return self.transcript.status == "finished"

    @property
    def phase(self) -> Phase:
        return self.case.phases[min(self.transcript.phase_index, len(self.case.phases) - 1)]

    @property
    def phase_record(self) -> PhaseRecord:
        return self.transcript.phases[min(self.transcript.phase_index, len(self.transcript.phases) - 1)]

    @property
    def current_turn(self) -> Turn | None:
        """The turn waiting for an answer, if any."""
        turns = self.transcript.turns
        return turns[-1] if turns and turns[-1].status == "asked" else None

    def question_for(self, turn: Turn) -> Question:
        question = self.case.question(turn.question_id)
        if question is None:  # guarded in resume(); a programming error otherwise
            raise SessionError(f"unknown question {turn.question_id!r}")
        return question

    def pending_grades(self) -> list[Turn]:
        """Answered turns still waiting for a grade (e.g. the app was killed while grading)."""
        return [t for t in self.transcript.turns if t.status == "answered"]

    def grade_request(self, turn: Turn) -> GradeRequest:
        if turn.answer is None:
            raise SessionError("this turn has no answer to grade")
        return request_for_turn(self.transcript, turn, self.case, self.rubric)

    # ------------------------------------------------------------------ actions

    def submit(self, answer: str) -> GradeRequest:
        """Record the answer to the current turn and save it; returns what to grade."""
        turn = self._require_turn()
        turn.answer = answer
        turn.answered_at = self.elapsed()
        turn.status = "answered"
        self.transcript.draft = None  # the draft became the answer
        self._save()
        return self.grade_request(turn)

    def probe_for(self, turn_id: int, grade: Grade) -> Probe | None:
        """The follow-up this grade would lead to, or None: the one place the next question is decided.

        Pure (changes nothing), so a grading worker may call it to have the
        model word the probe before handing the grade back to ``record_grade``,
        which makes the same decision.
        """
        turn = self._turn(turn_id)
        if turn.kind != "question":
            return None
        follow_ups = sum(
            1 for t in self.transcript.turns if t.question_id == turn.question_id and t.kind == "follow_up"
        )
        if follow_ups >= MAX_FOLLOW_UPS or self.phase_record.id in self.expired_phases:
            return None
        asked = [t.prompt for t in self.transcript.turns if t.question_id == turn.question_id]
        return choose_probe(self.question_for(turn), grade, asked)

    def record_grade(self, turn_id: int, grade: Grade, wording: str | None = None) -> Turn | None:
        """Attach a grade; ask a follow-up or move on.  Returns the next turn to show, if any.

        ``wording`` is the model's phrasing of ``probe_for(turn_id, grade)``;
        without it the scripted text is asked.
        """
        turn = self._turn(turn_id)
        if turn.grade is not None:
            turn.previous_grades.append(turn.grade)
        turn.grade = grade
        turn.status = "graded"
        if self.pending_grades() or self.current_turn is not None or self.finished:
            self._save()
            return self.current_turn
        probe = self.probe_for(turn_id, grade)
        if probe is not None:
            self._ask(self.question_for(turn), kind="follow_up", prompt=wording or probe.scripted, probe=probe)
        else:
            self._advance()
        self._save()
        return self.current_turn

    def skip(self) -> Turn | None:
        """Skip the current turn (question or follow-up) and move on."""
        turn = self._require_turn()
        turn.status = "skipped"
        turn.answered_at = self.elapsed()
        self._advance()
        self._save()
        return self.current_turn

    def hint(self) -> str | None:
        """Reveal the heading of one key point not yet revealed; recorded on the turn, costs no time."""
        turn = self._require_turn()
        question = self.question_for(turn)
        shown = {h for t in self.transcript.turns if t.question_id == turn.question_id for h in t.hints}
        missed: list[str] = []
        for t in self.transcript.turns:
            if t.question_id == turn.question_id and t.grade:
                for dim in t.grade.dimensions.values():
                    missed.extend(dim.missing)
        candidates = missed + [kp.text for _, kp in question.all_key_points()]
        for text in candidates:
            if text not in shown:
                turn.hints.append(text)
                self._save()
                return text
        return None

    def tick(self) -> list[str]:
        """Call about once a second.  Applies the phase-timeout rule; returns events for the UI.

        Events: ``phase_expired:<phase id>`` once per phase when its time runs
        out, ``phase_advanced:<phase id>`` when strict mode moved on, and
        ``finished`` when the whole session ended.
        """
        events: list[str] = []
        if self.finished:
            return events
        record = self.phase_record
        if self.phase_countdown().overtime and record.id not in self.expired_phases:
            self.expired_phases.add(record.id)
            events.append(f"phase_expired:{record.id}")
            if self.phase_timeout == "strict":
                turn = self.current_turn
                if turn is not None:
                    turn.status = "timed_out"
                    turn.answered_at = self.elapsed()
                if not self.pending_grades():
                    self._next_phase()
                    events.append("finished" if self.finished else f"phase_advanced:{self.phase_record.id}")
                self._save()
        return events

    def next_phase(self) -> None:
        """Move to the next phase now (the candidate asked to)."""
        if self.finished:
            return
        turn = self.current_turn
        if turn is not None:
            turn.status = "skipped"
            turn.answered_at = self.elapsed()
        self._next_phase()
        self._save()

    def finish(self) -> None:
        """End the session now; unanswered turns stay as they are."""
        if not self.finished:
            turn = self.current_turn
            if turn is not None:
                turn.status = "skipped"
            self._close_phase()
            self.transcript.status = "finished"
            self._save()

    def checkpoint(self) -> None:
        """Save the clock (the UI calls this every few seconds so a resume starts close to where it stopped)."""
        self._save()

    # ------------------------------------------------------------------ internals

    def _require_turn(self) -> Turn:
        if self.finished:
            raise SessionError("the session has finished")
        turn = self.current_turn
        if turn is None:
            raise SessionError("no question is waiting for an answer")
        return turn

    def _turn(self, turn_id: int) -> Turn:
        for t in self.transcript.turns:
            if t.id == turn_id:
                return t
        raise SessionError(f"no turn {turn_id}")

    def _ask(
        self, question: Question, *, kind: TurnKind = "question", prompt: str | None = None, probe: Probe | None = None
    ) -> None:
        self.transcript.turns.append(
            Turn(
                id=len(self.transcript.turns) + 1,
                phase_id=self.phase.id,
                question_id=question.id,
                kind=kind,
                prompt=prompt or question.prompt,
                probe_dimension=probe.dimension if probe else None,
                follow_up=probe.number if probe else None,
                probe_point=probe.missed_point if probe and probe.number is None else None,
                asked_at=self.elapsed(),
            )
        )

    def _begin_phase(self, index: int) -> None:
        self.transcript.phase_index = index
        record = self.transcript.phases[index]
        if record.started_at is None:
            record.started_at = self.elapsed()
        self._advance()
        self._save()

    def _advance(self) -> None:
        """Ask the next unasked question of this phase, or move to the next phase."""
        if self.finished:
            return
        if self.phase_record.id not in self.expired_phases:
            asked = {t.question_id for t in self.transcript.turns}
            for question in self.phase.questions:
                if question.id not in asked:
                    self._ask(question)
                    return
        self._next_phase()

    def _close_phase(self) -> None:
        record = self.phase_record
        if record.started_at is not None and record.ended_at is None:
            record.ended_at = self.elapsed()

    def _next_phase(self) -> None:
        self._close_phase()
        index = self.transcript.phase_index + 1
        if index >= len(self.case.phases):
            self.transcript.status = "finished"
            return
        self.transcript.phase_index = index
        record = self.transcript.phases[index]
        if record.started_at is None:
            record.started_at = self.elapsed()
        self._advance()

    def _save(self) -> None:
        self.transcript.elapsed = self.elapsed()
        if self.store is not None:
            self.store.save(self.transcript)

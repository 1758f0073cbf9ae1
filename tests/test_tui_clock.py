"""The clock stops for the machine, and drafts are kept: the Session side of the TUI's grading wait and autosave.

The session screen calls ``begin_grading_wait`` on submit and
``end_grading_wait`` once the feedback and the follow-up are shown; these
tests pin what that means for candidate time, grading time, strict timeouts,
"grade in the background" and the saved draft.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.content.schema import DIMENSIONS, Case, Rubric
from interviewer.grading.types import DimensionScore, Grade
from interviewer.session import Session, SessionError
from interviewer.transcripts import TranscriptStore
from tests.tui_fakes import FakeClock


def weak_grade() -> Grade:
    """Numbers is the weakest dimension, so the session asks a follow-up after it."""
    scores = {d: 2 for d in DIMENSIONS} | {"numbers": 1}
    return Grade(grader="keyword", overall=50,
                 dimensions={d: DimensionScore(score=scores[d], missing=[f"missing {d}"]) for d in DIMENSIONS})


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(transcripts_dir: Path) -> TranscriptStore:
    return TranscriptStore(transcripts_dir)


def test_grading_wait_stops_both_clocks_and_is_recorded_apart(
    mini_case: Case, rubric: Rubric, clock: FakeClock, store: TranscriptStore
) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    clock.advance(30)
    turn = s.current_turn
    assert turn is not None
    s.submit("K and V for every layer.")
    s.begin_grading_wait()
    phase_left = s.phase_countdown().remaining
    clock.advance(45)  # a slow model
    assert s.elapsed() == pytest.approx(30)
    assert s.phase_countdown().remaining == pytest.approx(phase_left)
    assert s.waiting_for_grade and not s.paused
    s.record_grade(turn.id, weak_grade())
    s.end_grading_wait()
    clock.advance(5)
    assert s.elapsed() == pytest.approx(35)
    saved = store.load(s.transcript.id)
    assert saved.grading_s == pytest.approx(45)
    assert saved.elapsed == pytest.approx(30)
    follow_up = s.current_turn
    assert follow_up is not None and follow_up.kind == "follow_up"
    assert follow_up.asked_at == pytest.approx(30)


def test_strict_timeout_fires_on_candidate_time_only(
    mini_case: Case, rubric: Rubric, clock: FakeClock, store: TranscriptStore
) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock, phase_timeout="strict")
    budget = s.phase_record.budget_s
    clock.advance(budget - 10)
    s.submit("An answer.")
    s.begin_grading_wait()
    clock.advance(600)  # grading far longer than the phase's budget
    assert s.tick() == []
    assert not s.phase_countdown().overtime
    s.end_grading_wait()
    clock.advance(11)
    assert s.tick()[0] == f"phase_expired:{s.phase_record.id}"


def test_practice_pause_and_grading_wait_are_separate(
    mini_case: Case, rubric: Rubric, clock: FakeClock, store: TranscriptStore
) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock, practice=True)
    s.submit("An answer.")
    s.begin_grading_wait()
    s.pause()
    clock.advance(20)
    s.end_grading_wait()  # the grade came while paused: the clock stays stopped
    clock.advance(20)
    assert s.elapsed() == pytest.approx(0)
    assert s.paused
    s.unpause()
    clock.advance(7)
    assert s.elapsed() == pytest.approx(7)
    assert s.transcript.grading_s == pytest.approx(20)


def test_move_on_while_grading_asks_the_next_question_and_skips_the_follow_up(
    mini_case: Case, rubric: Rubric, clock: FakeClock, store: TranscriptStore
) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    first = s.current_turn
    assert first is not None
    s.submit("An answer.")
    s.begin_grading_wait()
    clock.advance(10)
    nxt = s.move_on_while_grading()
    assert nxt is not None and nxt.question_id != first.question_id and nxt.kind == "question"
    assert not s.waiting_for_grade
    clock.advance(3)
    s.record_grade(first.id, weak_grade())  # arrives later: recorded, no follow-up interrupts
    assert s.current_turn is nxt
    assert store.load(s.transcript.id).turns[0].grade is not None
    assert s.elapsed() == pytest.approx(3)
    with pytest.raises(SessionError):
        s.move_on_while_grading()


def test_draft_is_saved_cleared_by_submit_and_survives_resume(
    mini_case: Case, rubric: Rubric, clock: FakeClock, store: TranscriptStore
) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    assert s.save_draft("half an answer") is True
    assert s.save_draft("half an answer") is False  # unchanged: no write
    assert store.load(s.transcript.id).draft == "half an answer"
    resumed = Session.resume(store.load(s.transcript.id), mini_case, rubric, store, clock=clock)
    assert resumed.transcript.draft == "half an answer"
    resumed.submit("the whole answer")
    assert store.load(s.transcript.id).draft is None
    assert resumed.save_draft("   ") is False  # blank is no draft

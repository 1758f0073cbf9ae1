"""The session state machine with a fake clock: phases, follow-ups, timeouts, pause, resume."""

from __future__ import annotations

import pytest

from interviewer.content.schema import DIMENSIONS
from interviewer.grading.types import DimensionScore, Grade
from interviewer.session import Session, SessionError
from interviewer.transcripts import TranscriptStore


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


NUMBERS_FOLLOW_UP = "How much is that for a 4,096-token context?"
"""The mini case's scripted follow-up for numbers (kv-size, follow-up 1)."""


def grade(score: int = 2, follow_up: bool = True) -> Grade:
    """A grade whose weakest dimension is numbers, so the session probes it; ``follow_up=False``: nothing to probe."""
    if not follow_up:  # every dimension at 4 with nothing missed: a real interviewer moves on
        return Grade(grader="keyword", overall=score * 25, dimensions={d: DimensionScore(score=4) for d in DIMENSIONS})
    scores = {d: score for d in DIMENSIONS} | {"numbers": max(0, score - 1)}
    return Grade(
        grader="keyword",
        overall=score * 25,
        dimensions={d: DimensionScore(score=scores[d], missing=[f"missing {d}"]) for d in DIMENSIONS},
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(transcripts_dir) -> TranscriptStore:
    return TranscriptStore(transcripts_dir)


def test_answer_is_on_disk_before_grading(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    request = s.submit("It keeps keys and values for every layer.")
    saved = store.load(s.transcript.id)
    assert saved.turns[0].answer == "It keeps keys and values for every layer."
    assert saved.turns[0].status == "answered"
    assert request.answer == saved.turns[0].answer
    assert request.question.id == "kv-size"


def test_follow_up_then_next_question(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    s.submit("first answer")
    nxt = s.record_grade(1, grade())
    assert nxt is not None and nxt.kind == "follow_up"
    assert nxt.prompt == NUMBERS_FOLLOW_UP
    assert (nxt.follow_up, nxt.probe_dimension) == (1, "numbers")
    s.submit("follow-up answer")
    nxt = s.record_grade(2, grade())
    assert nxt is not None and nxt.kind == "question" and nxt.question_id == "allreduce"
    assert s.phase.id == "main"
    assert s.transcript.phases[0].ended_at is not None


def test_follow_up_history_is_sent_to_grader(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    s.submit("first answer")
    s.record_grade(1, grade())
    request = s.submit("second answer")
    assert request.history == ((mini_case.question("kv-size").prompt, "first answer"),)
    assert request.asked == NUMBERS_FOLLOW_UP


def test_follow_up_is_graded_against_its_own_key_points(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    s.submit("first answer")
    s.record_grade(1, grade())
    request = s.submit("About 1.34 GB for 4,096 tokens.")
    assert request.parent is mini_case.question("kv-size")
    assert request.question.id == "kv-size.follow-up-1"
    assert request.question.dimensions == ("numbers",)


def test_the_model_only_words_the_probe_the_session_chose(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    s.submit("first answer")
    probe = s.probe_for(1, grade())
    assert probe is not None and probe.number == 1 and probe.dimension == "numbers"
    nxt = s.record_grade(1, grade(), wording="And for a 4k context, how big is it?")
    assert nxt is not None and nxt.prompt == "And for a 4k context, how big is it?"
    assert nxt.follow_up == 1, "the wording changes, the probe does not"
    assert s.probe_for(nxt.id, grade()) is None, "one follow-up per question, none after a follow-up"


def test_a_complete_answer_gets_no_follow_up(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    s.submit("first answer")
    nxt = s.record_grade(1, grade(4, follow_up=False))
    assert nxt is not None and nxt.kind == "question" and nxt.question_id == "allreduce"


def test_countdowns_and_minutes_scaling(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock, minutes=10)  # case is 5 min -> scale 2
    assert s.phase_countdown().budget == 240
    assert s.total_countdown().label() == "10:00"
    clock.advance(200)
    assert s.phase_countdown().warning and not s.phase_countdown().overtime
    clock.advance(50)
    assert s.phase_countdown().overtime
    assert s.phase_countdown().label() == "+00:10 over"


def test_soft_timeout_lets_candidate_finish(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock, phase_timeout="soft")
    clock.advance(121)
    assert s.tick() == ["phase_expired:warmup"]
    assert s.tick() == []  # reported once
    assert s.current_turn is not None and s.current_turn.question_id == "kv-size"
    s.submit("late answer")
    nxt = s.record_grade(1, grade())
    # no follow-up after the phase ran out: straight to the next phase
    assert nxt is not None and nxt.question_id == "allreduce"


def test_strict_timeout_moves_on(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock, phase_timeout="strict")
    clock.advance(121)
    events = s.tick()
    assert events == ["phase_expired:warmup", "phase_advanced:main"]
    assert s.transcript.turns[0].status == "timed_out"
    assert s.current_turn is not None and s.current_turn.question_id == "allreduce"
    clock.advance(181)
    assert s.tick() == ["phase_expired:main", "finished"]
    assert s.finished


def test_strict_timeout_waits_for_pending_grade(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock, phase_timeout="strict")
    s.submit("answer")
    clock.advance(121)
    assert s.tick() == ["phase_expired:warmup"]
    nxt = s.record_grade(1, grade())
    assert nxt is not None and nxt.question_id == "allreduce"


def test_skip_hint_and_finish(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    hint = s.hint()
    assert hint == "K and V are stored for every layer and KV head"
    assert s.hint() != hint
    assert store.load(s.transcript.id).turns[0].hints[:1] == [hint]
    nxt = s.skip()
    assert nxt is not None and nxt.question_id == "allreduce"
    s.finish()
    assert s.finished
    with pytest.raises(SessionError):
        s.submit("too late")


def test_pause_only_in_practice(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    with pytest.raises(SessionError):
        s.pause()
    p = Session.start(mini_case, rubric, store, clock=clock, practice=True)
    clock.advance(10)
    p.pause()
    clock.advance(500)
    assert p.elapsed() == pytest.approx(10)
    p.unpause()
    clock.advance(5)
    assert p.elapsed() == pytest.approx(15)


def test_resume_keeps_clock_and_regrades_pending(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    clock.advance(42)
    s.submit("saved but never graded")
    later = FakeClock()
    later.now = 5.0
    resumed = Session.resume(store.load(s.transcript.id), mini_case, rubric, store, clock=later)
    assert resumed.elapsed() == pytest.approx(42)
    assert [t.answer for t in resumed.pending_grades()] == ["saved but never graded"]
    later.advance(3)
    assert resumed.elapsed() == pytest.approx(45)
    nxt = resumed.record_grade(1, grade(follow_up=False))
    assert nxt is not None and nxt.question_id == "allreduce"


def test_resume_finished_session_is_refused(mini_case, rubric, clock, store) -> None:
    s = Session.start(mini_case, rubric, store, clock=clock)
    s.finish()
    with pytest.raises(SessionError, match="already finished"):
        Session.resume(store.load(s.transcript.id), mini_case, rubric, store, clock=clock)


def test_bad_minutes(mini_case, rubric, clock, store) -> None:
    with pytest.raises(SessionError, match="--minutes"):
        Session.start(mini_case, rubric, store, clock=clock, minutes=0)


def test_regrade_keeps_previous_grade(mini_case, rubric, clock, store) -> None:
    from interviewer.regrade import regrade

    s = Session.start(mini_case, rubric, store, clock=clock)
    s.submit("answer one")
    s.record_grade(1, grade(1, follow_up=False))

    class Scripted:
        name = "keyword"

        def grade(self, request, on_chunk=None):
            return grade(4, follow_up=False)

    n = regrade(s.transcript, mini_case, rubric, Scripted(), store)
    saved = store.load(s.transcript.id)
    assert n == 1
    assert saved.turns[0].grade.overall == 100
    assert [g.overall for g in saved.turns[0].previous_grades] == [25]

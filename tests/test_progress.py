"""Progress from the index's flat digests is the progress of the reports themselves, question by question.

``reference`` is progress as it was first written: one report per session,
one object per question.  The flat digests and the summing in
``interviewer.progress`` must give exactly its sessions, weakest questions
and most-missed key points (ties included), for every session and for one
case, from transcripts in memory and from the summary index.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from interviewer.content.schema import DIMENSIONS
from interviewer.grading.types import DimensionScore, Grade
from interviewer.progress import WEAK_QUESTIONS, Progress, QuestionScore, SessionPoint, progress
from interviewer.report import build_report
from interviewer.transcripts import PhaseRecord, Transcript, TranscriptStore, Turn

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
QUESTIONS = {"infra": ["kv-size", "allreduce", "batching", "p95"], "gpu": ["mig", "occupancy", "nvlink"]}
POINTS = ["KV cache size", "NVLink bandwidth", "P95 latency", "MIG slices", "batch size", "rollback plan"]


def _grade(rng: random.Random, dims: list[str]) -> Grade:
    return Grade(
        grader="keyword",
        overall=rng.randint(0, 100),
        dimensions={d: DimensionScore(score=rng.randint(0, 4), missing=rng.sample(POINTS, rng.randint(0, 2)))  # type: ignore[misc]
                    for d in dims},
    )


def session(rng: random.Random, n: int) -> Transcript:
    """A random session: some questions ungraded, some main grades on fewer than four dimensions, some
    follow-ups, some regraded (earlier grades kept), start times that sometimes coincide."""
    case = rng.choice(sorted(QUESTIONS))
    turns: list[Turn] = []
    for qid in rng.sample(QUESTIONS[case], rng.randint(1, len(QUESTIONS[case]))):
        graded = rng.random() < 0.8
        grade = _grade(rng, rng.sample(list(DIMENSIONS), rng.randint(1, len(DIMENSIONS)))) if graded else None
        turns.append(Turn(id=len(turns) + 1, phase_id="p", question_id=qid, prompt=f"Explain {qid}.", asked_at=0,
                          answer="an answer", status="graded" if graded else "answered", grade=grade,
                          previous_grades=[_grade(rng, list(DIMENSIONS))] if graded and rng.random() < 0.3 else []))
        if graded and rng.random() < 0.4:
            turns.append(Turn(id=len(turns) + 1, phase_id="p", question_id=qid, kind="follow_up", prompt="Why?",
                              asked_at=0, answer="because", status="graded",
                              grade=_grade(rng, [rng.choice(DIMENSIONS)])))
    started = (T0 + timedelta(hours=rng.randint(0, 60))).isoformat()
    return Transcript(id=f"s{n:03d}", case_id=case, case_title=case.title(), started=started, updated=started,
                      status="finished", phases=[PhaseRecord(id="p", title="P", budget_s=600)], turns=turns)


def reference(transcripts: list[Transcript], drills: int) -> Progress:
    """The sessions, weakest questions and drills as computed report by report, question by question."""
    result = Progress()
    missed: Counter[str] = Counter()
    latest: dict[tuple[str, str], QuestionScore] = {}
    for t in transcripts:
        report = build_report(t, None)
        if report.overall is None:
            continue
        result.sessions.append(SessionPoint(t.id, t.case_id, t.started, report.overall, report.averages))
        for q in report.questions:
            missed.update(q.missed)
            if q.main is not None:
                before = latest.get((t.case_id, q.question_id))
                latest[(t.case_id, q.question_id)] = QuestionScore(
                    t.case_id, q.question_id, q.prompt, q.main.overall, {str(d): v for d, v in q.main.scores.items()},
                    (before.sessions if before else 0) + 1, t.started)
    result.weakest_questions = sorted(
        latest.values(), key=lambda q: (q.overall, min(q.scores.values(), default=0), q.case_id, q.question_id)
    )[:WEAK_QUESTIONS]
    result.drills = missed.most_common(drills)
    return result


def sessions(seed: int, n: int = 40) -> list[Transcript]:
    rng = random.Random(seed)
    return sorted((session(rng, i) for i in range(n)), key=lambda t: (t.started, t.id))


def assert_same(got: Progress, expected: Progress) -> None:
    assert got.sessions == expected.sessions
    assert got.weakest_questions == expected.weakest_questions
    assert got.drills == expected.drills


@pytest.mark.parametrize("seed", range(6))
def test_progress_of_transcripts_matches_the_reference(seed: int) -> None:
    transcripts = sessions(seed)
    for case in (None, "gpu"):
        chosen = [t for t in transcripts if case is None or t.case_id == case]
        assert_same(progress(chosen, drills=len(POINTS)), reference(chosen, len(POINTS)))
        assert_same(progress(chosen), reference(chosen, 8))


def test_progress_of_index_digests_matches_the_reference(tmp_path: Path) -> None:
    transcripts = sessions(11, 60)
    store = TranscriptStore(tmp_path)
    for t in transcripts:
        store.save(t)
    digests, problems = store.digests()
    assert problems == [] and [d.id for d in digests] == [t.id for t in transcripts]
    for case in (None, "infra"):
        chosen = [d for d in digests if case is None or d.case_id == case]
        expected = reference([t for t in transcripts if case is None or t.case_id == case], len(POINTS))
        assert_same(progress(chosen, drills=len(POINTS)), expected)
        assert progress(chosen).as_json() == progress(
            [t for t in transcripts if case is None or t.case_id == case]).as_json()

"""Regrade history: every earlier grade kept with who graded it and when, at most 5 grades per turn."""

from __future__ import annotations

import json

from interviewer.cli import main
from interviewer.content.schema import DIMENSIONS
from interviewer.grading.types import DimensionScore, Grade
from interviewer.regrade import MAX_GRADES_PER_TURN, regrade
from interviewer.session import Session
from interviewer.transcripts import TranscriptStore
from tests.test_session import grade


class Counting:
    """A grader whose n-th grade scores n (mod 5), stamped like the policy's grades."""

    name = "keyword"

    def __init__(self) -> None:
        self.n = 0

    def grade(self, request, on_chunk=None) -> Grade:
        self.n += 1
        return Grade(
            grader="llm",
            model=f"model-{self.n}",
            overall=self.n,
            dimensions={d: DimensionScore(score=self.n % 5) for d in DIMENSIONS},
            graded_at=f"2026-11-2{self.n % 10}T10:00:00+00:00",
        )


def test_history_keeps_who_and_when_and_is_capped(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    s = Session.start(mini_case, rubric, store)
    s.submit("answer one")
    s.record_grade(1, grade(1, follow_up=False))
    grader = Counting()
    for _ in range(7):
        t = store.load(s.transcript.id)
        regrade(t, mini_case, rubric, grader, store)
    turn = store.load(s.transcript.id).turns[0]
    assert turn.grade is not None and turn.grade.overall == 7
    assert len(turn.previous_grades) == MAX_GRADES_PER_TURN - 1
    assert [g.overall for g in turn.previous_grades] == [3, 4, 5, 6]  # oldest dropped first
    assert [g.model for g in turn.previous_grades] == ["model-3", "model-4", "model-5", "model-6"]
    assert all(g.grader == "llm" and g.graded_at for g in turn.previous_grades)

    # The undated original grade got the transcript's last save time when it moved into the history.
    s2 = Session.start(mini_case, rubric, store)
    s2.submit("answer two")
    s2.record_grade(1, grade(2, follow_up=False))
    saved_at = store.load(s2.transcript.id).updated
    t2 = store.load(s2.transcript.id)
    regrade(t2, mini_case, rubric, Counting(), store)
    (old,) = store.load(s2.transcript.id).turns[0].previous_grades
    assert old.overall == 50 and old.graded_at == saved_at


def test_old_file_with_long_undated_history_loads_and_is_trimmed(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    s = Session.start(mini_case, rubric, store)
    s.submit("answer")
    s.record_grade(1, grade(2, follow_up=False))
    path = store.path_for(s.transcript.id)
    data = json.loads(path.read_text(encoding="utf-8"))
    # As an older version wrote it: no graded_at/model/offline_scores on grades, no newer transcript fields.
    newer = ("graded_at", "model", "offline_scores")
    old_grade = {k: v for k, v in data["turns"][0]["grade"].items() if k not in newer}
    data["turns"][0]["grade"] = old_grade
    data["turns"][0]["previous_grades"] = [dict(old_grade, overall=i) for i in range(8)]
    for key in ("grading_s", "drill_questions", "draft"):
        data.pop(key, None)
    data["updated"] = "2025-01-02T03:04:05+00:00"
    path.write_text(json.dumps(data), encoding="utf-8")

    t = store.load(s.transcript.id)
    assert [g.overall for g in t.turns[0].previous_grades] == list(range(8))
    regrade(t, mini_case, rubric, Counting(), store)
    turn = store.load(s.transcript.id).turns[0]
    assert [g.overall for g in turn.previous_grades] == [5, 6, 7, 50]
    assert turn.previous_grades[-1].graded_at == "2025-01-02T03:04:05+00:00"
    assert turn.previous_grades[0].graded_at is None  # older grades keep "unknown": no guess is better than a wrong one


def test_regrade_all_from_the_command_line(mini_case, rubric, transcripts_dir, capsys, monkeypatch) -> None:
    from tests.conftest import FIXTURES

    monkeypatch.setenv("INTERVIEWER_CASES_DIR", str(FIXTURES / "cases"))
    store = TranscriptStore(transcripts_dir)
    ids = []
    for answer in ("one", "two"):
        s = Session.start(mini_case, rubric, store)
        s.submit(f"answer {answer}")
        s.record_grade(1, grade(1, follow_up=False))
        ids.append(s.transcript.id)
    assert main(["regrade", "--all", "--offline", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(r["id"] for r in out) == sorted(ids)
    assert all(r["regraded"] == 1 and r["turns"][0]["history"] == 1 for r in out)
    for transcript_id in ids:
        (old,) = store.load(transcript_id).turns[0].previous_grades
        assert old.overall == 25

    assert main(["regrade"]) == 2
    assert main(["regrade", ids[0], "--all"]) == 2

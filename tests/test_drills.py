"""Drills: ratings from grades, FSRS scheduling, the store beside the transcripts, and planning a drill."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Rating
from hypothesis import given
from hypothesis import strategies as st

from interviewer.content.schema import DIMENSIONS, Case
from interviewer.drill_reviews import FileReviews
from interviewer.drills import (
    STORE_NAME,
    DrillError,
    DrillStore,
    case_for,
    drill_case,
    plan_drill,
    rating_from,
    weakest_questions,
)
from interviewer.grading.types import DimensionScore, Grade
from interviewer.session import Session
from interviewer.transcripts import PhaseRecord, Transcript, TranscriptStore, Turn

DAY = timedelta(days=1)
T0 = datetime(2026, 11, 1, 18, 0, tzinfo=timezone.utc)


def grade(overall: int, scores: dict[str, int] | None = None) -> Grade:
    scores = scores or {d: 3 for d in DIMENSIONS}
    return Grade(
        grader="keyword",
        overall=overall,
        dimensions={d: DimensionScore(score=s) for d, s in scores.items()},  # type: ignore[misc]
    )


def session_file(
    store: TranscriptStore,
    tid: str,
    started: datetime,
    grades: dict[str, Grade],
    *,
    case_id: str = "mini",
    follow_ups: dict[str, Grade] | None = None,
) -> Transcript:
    turns: list[Turn] = []
    for qid, g in grades.items():
        turns.append(Turn(id=len(turns) + 1, phase_id="warmup", question_id=qid, prompt="q", asked_at=0,
                          answer="a", status="graded", grade=g))
        if follow_ups and qid in follow_ups:
            turns.append(Turn(id=len(turns) + 1, phase_id="warmup", question_id=qid, kind="follow_up",
                              prompt="f", asked_at=0, answer="a", status="graded", grade=follow_ups[qid]))
    t = Transcript(id=tid, case_id=case_id, case_title="Mini", started=started.isoformat(),
                   updated=started.isoformat(), status="finished",
                   phases=[PhaseRecord(id="warmup", title="Warm-up", budget_s=120)], turns=turns)
    store.save(t)
    bump_mtime(store.path_for(tid))
    return t


def bump_mtime(path: Path) -> None:
    """Move a rewritten file's mtime on by a second, so a filesystem with coarse mtimes still shows the change."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


@pytest.mark.parametrize(
    ("overall", "scores", "expected"),
    [
        (90, {"mechanism": 4, "tradeoff": 1, "numbers": 4, "failure_modes": 4}, Rating.Again),  # weakest <= 1
        (35, {d: 2 for d in DIMENSIONS}, Rating.Again),  # overall < 40
        (55, {d: 2 for d in DIMENSIONS}, Rating.Hard),
        (70, {d: 3 for d in DIMENSIONS}, Rating.Good),
        (90, {"mechanism": 4, "tradeoff": 2, "numbers": 4, "failure_modes": 4}, Rating.Good),  # weakest 2 caps it
        (90, {d: 4 for d in DIMENSIONS}, Rating.Easy),
        (85, {d: 3 for d in DIMENSIONS}, Rating.Easy),
    ],
)
def test_rating_from_weakest_dimension_and_overall(overall: int, scores: dict[str, int], expected: Rating) -> None:
    assert rating_from(overall, scores) == expected


def test_weak_answers_come_back_sooner(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path)
    session_file(store, "s1", T0, {"kv-size": grade(20, {d: 1 for d in DIMENSIONS}),
                                   "allreduce": grade(95, {d: 4 for d in DIMENSIONS})})
    queue = DrillStore(tmp_path).queue(T0 + timedelta(hours=1))
    weak, strong = queue.items["mini/kv-size"], queue.items["mini/allreduce"]
    assert weak.due < strong.due
    assert weak.due - T0 == DAY  # Again: back tomorrow
    assert queue.due() == []
    later = queue.now + DAY
    assert [i.question_id for i in DrillStore(tmp_path).queue(later).due()] == ["kv-size"]


def test_follow_ups_are_not_reviews_and_regrades_replace_the_rating(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path)
    t = session_file(store, "s1", T0, {"kv-size": grade(20, {d: 1 for d in DIMENSIONS})},
                     follow_ups={"kv-size": grade(100, {"numbers": 4})})
    item = DrillStore(tmp_path).queue(T0).items["mini/kv-size"]
    assert item.reviews == 1 and item.last.overall == 20
    t.turns[0].grade = grade(95, {d: 4 for d in DIMENSIONS})  # a regrade: same review time, new rating
    store.save(t)
    bump_mtime(store.path_for("s1"))
    item = DrillStore(tmp_path).queue(T0).items["mini/kv-size"]
    assert item.last.overall == 95 and item.due - T0 > DAY


def test_store_is_incremental_and_rebuilt_when_missing_or_corrupt(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path)
    session_file(store, "s1", T0, {"kv-size": grade(30)})
    session_file(store, "s2", T0 + DAY, {"allreduce": grade(70)})
    drills = DrillStore(tmp_path)
    first = drills.queue(T0 + 2 * DAY)
    assert drills.rebuilt == "missing" and drills.parsed == 2
    assert (tmp_path / STORE_NAME).is_file()
    assert drills.queue(T0 + 2 * DAY).items == first.items
    assert drills.rebuilt is None and drills.parsed == 0  # nothing changed: nothing parsed

    session_file(store, "s3", T0 + 3 * DAY, {"kv-size": grade(90, {d: 4 for d in DIMENSIONS})})
    third = drills.queue(T0 + 3 * DAY)
    assert drills.parsed == 1 and third.items["mini/kv-size"].reviews == 2

    for bad in (b"{not json", b'{"version": 99}', b'{"version": 1, "files": {"x.json": {"size": "big"}}}'):
        (tmp_path / STORE_NAME).write_bytes(bad)
        rebuilt = drills.queue(T0 + 3 * DAY)
        assert drills.rebuilt is not None and drills.rebuilt.startswith("corrupt")
        assert rebuilt.items == third.items  # deterministic: the same schedule as before
    (tmp_path / STORE_NAME).unlink()
    assert drills.queue(T0 + 3 * DAY).items == third.items and drills.rebuilt == "missing"

    (tmp_path / "s3.json").unlink()  # a deleted session stops counting
    assert drills.queue(T0 + 3 * DAY).items["mini/kv-size"].reviews == 1
    assert json.loads((tmp_path / STORE_NAME).read_text())["files"].keys() == {"s1.json", "s2.json"}


def test_foreign_and_damaged_files_are_ignored(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path)
    session_file(store, "s1", T0, {"kv-size": grade(30)})
    (tmp_path / "broken.json").write_text("{")
    (tmp_path / "other.json").write_text('{"hello": 1}')
    queue = DrillStore(tmp_path).queue(T0)
    assert list(queue.items) == ["mini/kv-size"]
    assert DrillStore(tmp_path / "missing").queue(T0).items == {}
    assert not (tmp_path / "missing").exists()


def test_plan_due_first_then_a_few_new(tmp_path: Path, mini_case: Case) -> None:
    store = TranscriptStore(tmp_path)
    session_file(store, "s1", T0, {"allreduce": grade(20, {d: 1 for d in DIMENSIONS})})
    queue = DrillStore(tmp_path).queue(T0 + 2 * DAY)
    plan = plan_drill(queue, {"mini": mini_case})
    assert plan is not None
    assert plan.due_ids == ["allreduce"] and plan.new_ids == ["kv-size"]
    assert plan.question_ids == ["allreduce", "kv-size"]
    assert plan_drill(queue, {"mini": mini_case}, new=0) is not None
    only_due = plan_drill(queue, {"mini": mini_case}, count=1)
    assert only_due is not None and only_due.question_ids == ["allreduce"]
    weak_numbers = plan_drill(queue, {"mini": mini_case}, dimension="numbers")
    assert weak_numbers is not None and weak_numbers.question_ids == ["allreduce"]  # no new ones for a dimension


def test_plan_nothing_due(tmp_path: Path, mini_case: Case) -> None:
    store = TranscriptStore(tmp_path)
    session_file(store, "s1", T0, {"allreduce": grade(95, {d: 4 for d in DIMENSIONS}),
                                   "kv-size": grade(95, {d: 4 for d in DIMENSIONS})})
    queue = DrillStore(tmp_path).queue(T0 + timedelta(hours=2))
    assert plan_drill(queue, {"mini": mini_case}) is None
    assert queue.next_due() is not None and queue.next_due() > queue.now  # type: ignore[operator]
    fresh = DrillStore(tmp_path / "none").queue(T0)
    assert plan_drill(fresh, {"mini": mini_case}) is None  # never practised: nothing is pushed at you
    named = plan_drill(fresh, {"mini": mini_case}, case_id="mini")
    assert named is not None and named.new_ids == ["kv-size", "allreduce"]  # naming a case starts it gradually


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"case_id": "nope"}, "unknown case 'nope'"),
        ({"dimension": "style"}, "unknown dimension 'style'"),
        ({"count": 0}, "count must be between 1 and"),
    ],
)
def test_plan_errors(mini_case: Case, kwargs: dict[str, object], message: str, tmp_path: Path) -> None:
    with pytest.raises(DrillError, match=message):
        plan_drill(DrillStore(tmp_path).queue(T0), {"mini": mini_case}, **kwargs)  # type: ignore[arg-type]


def test_drill_case_is_a_resumable_session(tmp_path: Path, mini_case: Case, rubric) -> None:
    sub = drill_case(mini_case, ["allreduce"])
    assert sub.id == "mini" and [p.id for p in sub.phases] == ["drill"]
    assert [q.id for q in sub.questions()] == ["allreduce"]
    assert sub.minutes == 3  # the question's share of its phase in the full case
    store = TranscriptStore(tmp_path)
    session = Session.start(sub, rubric, store, minutes=1, drill_questions=["allreduce"], clock=lambda: 0.0)
    saved = store.load(session.transcript.id)
    assert saved.drill_questions == ["allreduce"] and saved.phases[0].budget_s == 60
    resumed = Session.resume(saved, case_for(saved, mini_case), rubric, None, clock=lambda: 0.0)
    assert resumed.current_turn is not None and resumed.current_turn.question_id == "allreduce"


def test_weakest_questions(tmp_path: Path) -> None:
    t = session_file(TranscriptStore(tmp_path), "s1", T0, {
        "a": grade(80), "b": grade(30), "c": grade(55), "d": grade(55, {d: 1 for d in DIMENSIONS})})
    assert weakest_questions(t, 3) == ["b", "d", "c"]


def test_incremental_updates_schedule_like_a_rebuild(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path)
    weak, good = {d: 1 for d in DIMENSIONS}, {d: 3 for d in DIMENSIONS}
    session_file(store, "s1", T0, {"kv-size": grade(30, weak), "allreduce": grade(70, good)})
    session_file(store, "s3", T0 + 2 * DAY, {"kv-size": grade(70, good)})
    drills = DrillStore(tmp_path)
    drills.queue(T0 + 2 * DAY)
    session_file(store, "s4", T0 + 5 * DAY, {"kv-size": grade(90, {d: 4 for d in DIMENSIONS})})  # in order
    session_file(store, "s2", T0 + DAY, {"allreduce": grade(30, weak)})  # saved late, happened earlier
    incremental = drills.queue(T0 + 6 * DAY)
    assert drills.parsed == 2 and drills.rebuilt is None
    (tmp_path / STORE_NAME).unlink()
    rebuilt = DrillStore(tmp_path).queue(T0 + 6 * DAY)
    assert incremental.items == rebuilt.items
    assert incremental.items["mini/kv-size"].reviews == 3 and incremental.items["mini/allreduce"].reviews == 2


def test_a_bad_review_inside_the_store_rebuilds_it(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path)
    t = session_file(store, "s1", T0, {"kv-size": grade(30)})
    drills = DrillStore(tmp_path)
    before = drills.queue(T0)
    data = json.loads((tmp_path / STORE_NAME).read_text())
    data["files"]["s1.json"][2] = '["mini", "s1", "2026-11-01T18:00:00+00:00", [{"bogus": 1}]]'
    (tmp_path / STORE_NAME).write_text(json.dumps(data))
    store.save(t)  # the file changed, so its old reviews are read
    bump_mtime(store.path_for("s1"))
    after = drills.queue(T0)
    assert drills.rebuilt is not None and drills.rebuilt.startswith("corrupt")
    assert after.items == before.items


def test_many_new_files_come_from_the_summary_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TranscriptStore(tmp_path)
    for i in range(12):
        scores = {d: (i + n) % 5 for n, d in enumerate(DIMENSIONS)}
        session_file(store, f"s{i:02d}", T0 + i * DAY, {"kv-size": grade(10 * (i % 10), scores),
                                                       "allreduce": grade(90 - 5 * i, scores)})
    (tmp_path / "broken.json").write_text("{")
    no_index = DrillStore(tmp_path)
    no_index.queue(T0 + 20 * DAY)
    assert no_index.parsed == 13  # no index yet: building one would cost more than parsing here
    (tmp_path / STORE_NAME).unlink()
    store.summaries()  # any listing builds the index
    via_index = DrillStore(tmp_path)
    queued = via_index.queue(T0 + 20 * DAY)
    assert via_index.parsed == 1  # only the file the index has no digest for
    (tmp_path / STORE_NAME).unlink()
    monkeypatch.setattr(DrillStore, "BULK", 10_000)
    parsed_here = DrillStore(tmp_path)
    assert parsed_here.queue(T0 + 20 * DAY).items == queued.items
    assert parsed_here.parsed == 13


@given(st.lists(st.tuples(st.integers(0, 100), st.lists(st.one_of(st.none(), st.integers(0, 4)),
                                                         min_size=len(DIMENSIONS), max_size=len(DIMENSIONS))),
                min_size=1, max_size=6))
def test_a_files_ratings_are_each_reviews_rating(rows: list[tuple[int, list[int | None]]]) -> None:
    """``FileReviews.ratings`` rates a whole file at once; each must be ``rating_from`` of that review."""
    reviews = FileReviews("mini", "s1", T0, [f"q{i}" for i in range(len(rows))],
                          [v for overall, dims in rows for v in (overall, *dims)])
    assert reviews.ratings() == [rating_from(r.overall, r.scores) for r in reviews.reviews()]
    assert FileReviews.from_text(reviews.as_text()) == reviews

"""``build_grader`` with the real offline grader."""

from __future__ import annotations

import pytest

from interviewer.config import Settings
from interviewer.grading.llm import structured
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.grading.policy import FallbackGrader, build_grader
from tests.fakeserver import GOOD_ANSWER, MODEL, FakeServer, fake_server_fixture, kv_request  # noqa: F401


@pytest.fixture(autouse=True)
def _fresh_mode_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(structured, "_DEFAULT_CACHE", None)


def test_offline_when_no_endpoint(mini_case, rubric) -> None:
    grader = build_grader(Settings())
    assert isinstance(grader, FallbackGrader)
    assert not grader.online and grader.name == "keyword"
    assert grader.describe() == "offline keyword scoring"
    chunks: list[str] = []
    grade = grader.grade(kv_request(mini_case, rubric), on_chunk=chunks.append)
    assert grade.grader == "keyword" and grade.fallback_reason is None
    assert grade.model_copy(update={"graded_at": None}) == KeywordGrader().grade(kv_request(mini_case, rubric))
    assert grade.graded_at, "every grade records when it was made"


def test_llm_grade_keeps_the_offline_number_checks_and_flags(fake_server: FakeServer, mini_case, rubric) -> None:
    request = kv_request(mini_case, rubric)
    offline = KeywordGrader().grade(request)
    grade = build_grader(Settings(base_url=fake_server.url)).grade(request)
    assert grade.grader == "llm" and grade.model == MODEL
    assert grade.numbers_checked == offline.numbers_checked
    assert set(offline.flags) <= set(grade.flags)


def test_fallback_is_the_offline_grade_not_a_default_score(fake_server: FakeServer, mini_case, rubric) -> None:
    fake_server.default = "500"
    request = kv_request(mini_case, rubric)
    offline = KeywordGrader().grade(request)
    grade = build_grader(Settings(base_url=fake_server.url)).grade(request)
    assert grade.grader == "keyword"
    assert grade.dimensions == offline.dimensions and grade.overall == offline.overall
    assert grade.fallback_reason and "500" in grade.fallback_reason


def test_empty_answer_is_not_sent_to_the_model(fake_server: FakeServer, mini_case, rubric) -> None:
    grade = build_grader(Settings(base_url=fake_server.url)).grade(kv_request(mini_case, rubric, answer="   "))
    assert grade.grader == "keyword" and "empty answer" in (grade.fallback_reason or "")
    assert not fake_server.chat_requests()


def test_long_answers_are_clipped_for_the_model_and_flagged(fake_server: FakeServer, mini_case, rubric) -> None:
    from interviewer.grading.llm.grader import MAX_ANSWER_CHARS

    answer = (GOOD_ANSWER + " ") * (MAX_ANSWER_CHARS // len(GOOD_ANSWER) + 2)
    grade = build_grader(Settings(base_url=fake_server.url)).grade(kv_request(mini_case, rubric, answer=answer))
    assert grade.grader == "llm" and "truncated" in grade.flags
    user = fake_server.chat_requests()[0].body["messages"][-1]["content"]
    assert "only its beginning is shown" in user
    assert len(user) < MAX_ANSWER_CHARS + 6000


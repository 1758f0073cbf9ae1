"""The labelled dev set: does the offline grader rank answers the way a person would?

``tests/fixtures/scoring/case.yaml`` holds four questions (one with 30 key
points) and ``answers.yaml`` eight labelled answers per question, written as
candidates write them.  The grader must agree with the labels on rank
(Spearman >= 0.8), must not be fooled by keyword lists, and must catch wrong
figures.
"""

from __future__ import annotations

import pytest

from interviewer.agreement import average_ranks, spearman
from interviewer.content.loader import load_case, load_rubric
from interviewer.grading.offline.evaluation import LABEL_LEVELS, Graded, grade_all, load_labelled, rank_agreement
from tests.conftest import FIXTURES, REPO

SCORING = FIXTURES / "scoring"
MIN_SPEARMAN = 0.8
KEYWORD_LIST_SHARE = 0.4


@pytest.fixture(scope="module")
def graded() -> list[Graded]:
    case = load_case(SCORING / "case.yaml")
    rubric = load_rubric(REPO / "rubrics" / "ai-infra.yaml")
    return grade_all(case, rubric, load_labelled(SCORING / "answers.yaml"))


def test_average_ranks_handle_ties() -> None:
    assert average_ranks([10, 20, 20, 30]) == [1.0, 2.5, 2.5, 4.0]
    assert average_ranks([5, 5, 5]) == [2.0, 2.0, 2.0]


def test_spearman_known_values() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # With ties: x = [1, 2, 2, 3] -> ranks [1, 2.5, 2.5, 4]; y ranks [1, 2, 3, 4]; rho = 4.5 / sqrt(4.5 * 5)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(4.5 / (4.5 * 5) ** 0.5)


def test_dev_set_is_big_enough(graded: list[Graded]) -> None:
    assert len(graded) >= 30
    per_question: dict[str, set[str]] = {}
    for g in graded:
        per_question.setdefault(g.answer.question, set()).add(g.answer.label)
    assert len(per_question) >= 3
    for labels in per_question.values():
        assert set(LABEL_LEVELS) <= labels


def test_rank_agreement_with_labels(graded: list[Graded], record_property: pytest.RecordProperty) -> None:
    rho = rank_agreement(graded)
    record_property("spearman", round(rho, 4))
    print(f"\nSpearman rank correlation (overall vs label), n={len(graded)}: {rho:.3f}")
    for g in graded:
        dims = " ".join(f"{d[:4]}={s.score}" for d, s in g.grade.dimensions.items())
        print(f"  {g.answer.question:24} {g.answer.label:14} {g.grade.overall:3}  {dims}  {','.join(g.grade.flags)}")
    assert rho >= MIN_SPEARMAN


def test_keyword_lists_score_at_most_40_percent_of_strong(graded: list[Graded]) -> None:
    for g in graded:
        if g.answer.label != "keyword_list":
            continue
        strong = max(
            s.grade.overall for s in graded if s.answer.question == g.answer.question and s.answer.label == "strong"
        )
        assert g.grade.overall <= KEYWORD_LIST_SHARE * strong, (g.answer.question, g.grade.overall, strong)
        assert "keyword_list" in g.grade.flags


def test_wrong_numbers_are_caught(graded: list[Graded]) -> None:
    for g in graded:
        if g.answer.label != "wrong_numbers":
            continue
        strong = [s.grade for s in graded if s.answer.question == g.answer.question and s.answer.label == "strong"]
        wrong = [n for n in g.grade.numbers_checked if n.verdict == "wrong"]
        assert len(wrong) >= 2, g.answer.question
        assert all(n.reference for n in wrong)
        assert "wrong_number" in g.grade.flags
        assert all(g.grade.score("numbers") < s.score("numbers") for s in strong)
        assert not any(n.verdict == "wrong" for s in strong for n in s.numbers_checked), g.answer.question


def test_strong_beats_every_weaker_answer_on_its_question(graded: list[Graded]) -> None:
    for g in graded:
        if g.answer.label == "strong":
            continue
        strong = min(
            s.grade.overall for s in graded if s.answer.question == g.answer.question and s.answer.label == "strong"
        )
        assert g.grade.overall < strong, (g.answer.question, g.answer.label, g.grade.overall, strong)


def test_misconceptions_are_caught_in_wrong_answers_only(graded: list[Graded]) -> None:
    for g in graded:
        flagged = "misconception" in g.grade.flags
        if g.answer.label == "wrong":
            assert flagged, g.answer.question
        elif g.answer.label in ("strong", "partial"):
            assert not flagged, (g.answer.question, g.answer.label)

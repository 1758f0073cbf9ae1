"""Every built-in question is consistent with the offline scorer.

A question's own model-answer outline must not state one of its
misconceptions or contain a figure the scorer judges wrong, and a bare list of
its aliases must be caught as a keyword list.  This is what keeps content and
scorer honest with each other as either changes.
"""

from __future__ import annotations

import pytest

from interviewer.content.loader import load_library
from interviewer.grading.types import FLAG_KEYWORD_LIST, FLAG_MISCONCEPTION, GradeRequest
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir
from interviewer.scoring.grader import KeywordGrader

LIB = load_library([builtin_cases_dir()], [builtin_rubrics_dir()])
QUESTIONS = [(case, q) for case in LIB.cases.values() for q in case.questions()]
IDS = [f"{case.id}/{q.id}" for case, q in QUESTIONS]


def test_builtin_content_loads_cleanly() -> None:
    assert LIB.problems == []
    assert {"nvidia-inference", "gpu-foundations", "ai-infra-foundations", "infra-design", "systems-map"} <= set(
        LIB.cases
    )


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_outline_is_graded_as_correct(case, question) -> None:
    answer = "\n".join(question.outline)
    grade = KeywordGrader().grade(
        GradeRequest(case=case, rubric=LIB.rubric_for(case), question=question, answer=answer)
    )
    wrong = [c.claim for c in grade.numbers_checked if c.verdict == "wrong"]
    assert wrong == [], f"outline figures judged wrong: {wrong}"
    assert FLAG_MISCONCEPTION not in grade.flags


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_alias_list_is_caught(case, question) -> None:
    aliases = [kp.aliases[0] for _, kp in question.all_key_points()]  # the buzzword for every point
    grade = KeywordGrader().grade(
        GradeRequest(case=case, rubric=LIB.rubric_for(case), question=question, answer=", ".join(aliases))
    )
    assert FLAG_KEYWORD_LIST in grade.flags
    assert grade.overall <= 40

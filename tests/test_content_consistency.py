"""Every built-in question is consistent with the offline scorer, and has the shape every question needs.

A question's own model-answer outline must not state one of its
misconceptions or contain a figure the scorer judges wrong, and a bare list of
its aliases must be caught as a keyword list.  This is what keeps content and
scorer honest with each other as either changes.  The structural minimums, the
units and the vendor figures checked here hold for every bank; a bank's own,
stricter bounds live in its ``test_content_<bank>.py``.
"""

from __future__ import annotations

import pytest

from interviewer.content.loader import load_library
from interviewer.content.schema import DIMENSIONS
from interviewer.grading.offline import gaming, quantities, text
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.grading.types import FLAG_KEYWORD_LIST, FLAG_MISCONCEPTION, FLAG_NUMBER_SPAM, GradeRequest
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir
from tests.content_checks import (
    SEEDED_CASES,
    VENDOR_SPECS,
    case_texts,
    common_problems,
    copied_sentences,
    copy_check_catches_a_planted_sentence,
    misconception_clashes,
    spec_problems,
)

LIB = load_library([builtin_cases_dir()], [builtin_rubrics_dir()])
CASES = list(LIB.cases.values())
QUESTIONS = [(case, q) for case in CASES for q in case.questions()]
IDS = [f"{case.id}/{q.id}" for case, q in QUESTIONS]


def test_builtin_content_loads_cleanly() -> None:
    assert LIB.problems == []
    assert set(SEEDED_CASES) <= set(LIB.cases)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case_has_its_rubric_and_briefs(case) -> None:
    assert case.rubric in LIB.rubrics, f"unknown rubric {case.rubric!r}"
    rubric = LIB.rubric_for(case)
    assert rubric.id == case.rubric
    assert set(rubric.dimensions) == set(DIMENSIONS)
    assert all(p.brief.strip() for p in case.phases), "every phase needs a brief"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_vendor_figures_match_the_spec_table(case) -> None:
    problems = spec_problems(case, VENDOR_SPECS)
    assert not problems, "\n".join(problems)


# A stand-in for a seed: the copy check (run against the real seeds by benchmarks/check_seeds.py) is tested here.
_STAND_IN_SEED = (
    "Interviewers like to hear why the prefill phase saturates the tensor cores while decode waits on memory. "
    "A candidate who sizes the key-value cache before choosing a batch size usually gives a better answer."
)


@pytest.mark.parametrize("case_id", list(SEEDED_CASES))
def test_copy_check_catches_a_planted_seed_sentence(case_id: str) -> None:
    assert copy_check_catches_a_planted_sentence(LIB.case(case_id), _STAND_IN_SEED)
    assert not copied_sentences(case_texts(LIB.case(case_id)), _STAND_IN_SEED), "the stand-in must start clean"


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_question_is_complete(case, question) -> None:
    problems = common_problems(question)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_misconception_aliases_are_not_in_the_prompt_or_model_answer(case, question) -> None:
    clashes = misconception_clashes(question)
    assert not clashes, f"misconception aliases that a correct answer would use: {clashes}"


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_outline_is_graded_as_correct(case, question) -> None:
    answer = "\n".join(question.outline)
    grade = KeywordGrader().grade(
        GradeRequest(case=case, rubric=LIB.rubric_for(case), question=question, answer=answer)
    )
    wrong = [c.claim for c in grade.numbers_checked if c.verdict == "wrong"]
    assert wrong == [], f"outline figures judged wrong: {wrong}"
    assert FLAG_MISCONCEPTION not in grade.flags
    assert FLAG_NUMBER_SPAM not in grade.flags


FOLLOW_UPS = [(case, q, n) for case, q in QUESTIONS for n, fu in enumerate(q.follow_ups, 1) if fu.outline]


@pytest.mark.parametrize(
    ("case", "question", "number"), FOLLOW_UPS, ids=[f"{c.id}/{q.id}/{n}" for c, q, n in FOLLOW_UPS]
)
def test_follow_up_outline_is_graded_as_correct(case, question, number) -> None:
    follow_up = question.follow_up_question(number)
    answer = "\n".join(question.follow_ups[number - 1].outline)
    grade = KeywordGrader().grade(
        GradeRequest(case=case, rubric=LIB.rubric_for(case), question=follow_up, answer=answer, parent=question)
    )
    wrong = [c.claim for c in grade.numbers_checked if c.verdict == "wrong"]
    assert wrong == [], f"follow-up outline figures judged wrong: {wrong}"
    assert FLAG_MISCONCEPTION not in grade.flags


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_outline_figures_hold_without_the_prompt(case, question) -> None:
    """Checked with no prompt givens, so an outline cannot hide a wrong figure by repeating the prompt."""
    answer = "\n".join(question.outline)
    folded = text.fold(answer)
    sentences = text.analyse(answer, folded)
    refs = quantities.compile_references(question.quantities)
    checked = quantities.check(quantities.extract(answer, sentences), refs, sentences, folded)
    wrong = [
        f"{answer[c.figure.start : c.figure.end]!r} vs {c.reference.label}" for c in checked if c.verdict == "wrong"
    ]
    assert not wrong, f"outline figures judged wrong: {wrong}"
    hits = gaming.MisconceptionFinder(question.misconceptions).find(sentences, answer, folded)
    assert not hits, f"outline states {[h.misconception.text for h in hits]}"


@pytest.mark.parametrize(("case", "question"), QUESTIONS, ids=IDS)
def test_alias_list_is_caught(case, question) -> None:
    aliases = [kp.aliases[0] for _, kp in question.all_key_points()]  # the buzzword for every point
    grade = KeywordGrader().grade(
        GradeRequest(case=case, rubric=LIB.rubric_for(case), question=question, answer=", ".join(aliases))
    )
    assert FLAG_KEYWORD_LIST in grade.flags
    assert grade.overall <= 40

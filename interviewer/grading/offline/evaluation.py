"""Measuring the offline grader against labelled answers.

A labelled set (YAML: ``answers: [{question, label, text}]``) is graded and
the overall scores are compared with the labels by Spearman rank correlation.
Ranks, not raw scores, because the labels are ordinal: nobody claims a
'partial' answer is worth exactly 75/100, only that it beats a 'vague' one.
Used by the scorer's tests and by ``benchmarks/bench_scorer.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from interviewer.agreement import spearman
from interviewer.content.schema import Case, Rubric
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.grading.types import Grade, GradeRequest

LABEL_LEVELS: dict[str, int] = {
    "strong": 4,
    "partial": 3,
    "vague": 2,
    "wrong_numbers": 2,
    "wrong": 1,
    "keyword_list": 1,
}
"""Ordinal value of each label; a wrong-numbers answer reasons well but misstates figures."""


@dataclass(frozen=True)
class Labelled:
    question: str
    label: str
    text: str


@dataclass(frozen=True)
class Graded:
    answer: Labelled
    grade: Grade


def load_labelled(path: Path) -> list[Labelled]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [Labelled(str(a["question"]), str(a["label"]), str(a["text"])) for a in data["answers"]]


def grade_all(case: Case, rubric: Rubric, answers: Sequence[Labelled]) -> list[Graded]:
    grader = KeywordGrader()
    out = []
    for a in answers:
        question = case.question(a.question)
        if question is None:
            raise KeyError(f"unknown question {a.question!r}")
        out.append(Graded(a, grader.grade(GradeRequest(case=case, rubric=rubric, question=question, answer=a.text))))
    return out


def rank_agreement(graded: Sequence[Graded]) -> float:
    """Spearman's rho between overall scores and label levels."""
    return spearman([g.grade.overall for g in graded], [LABEL_LEVELS[g.answer.label] for g in graded])

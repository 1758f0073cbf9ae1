"""Measuring the offline grader against labelled answers.

A labelled set (YAML: ``answers: [{question, label, text}]``) is graded and
the overall scores are compared with the labels by Spearman rank correlation.
Ranks, not raw scores, because the labels are ordinal: nobody claims a
'partial' answer is worth exactly 75/100, only that it beats a 'vague' one.
Used by the scorer's tests and by ``benchmarks/bench_scorer.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

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


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks; tied values share the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rho as the Pearson correlation of average ranks (correct with ties)."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("need two sequences of the same length, at least 2")
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    if sx == 0 or sy == 0:
        return 0.0
    return cov / (sx * sy)


def rank_agreement(graded: Sequence[Graded]) -> float:
    """Spearman's rho between overall scores and label levels."""
    return spearman([g.grade.overall for g in graded], [LABEL_LEVELS[g.answer.label] for g in graded])

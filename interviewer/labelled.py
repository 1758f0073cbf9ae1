"""Labelled answers: what a person judged an answer to be worth, for measuring a grader.

One YAML format serves the blind test sets (``tests/fixtures/blind/``) and the
calibration set that ships with the package: a list of entries with
``case``, ``question``, ``follow_up`` (1-based, or null), ``kind``, ``answer``,
``labels`` (0-4 per graded dimension, plus ``overall`` 0-100) and ``why``
(the label's justification).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interviewer.content.loader import Library
from interviewer.content.schema import DIMENSIONS, Dimension
from interviewer.grading.types import GradeRequest


class Labels(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mechanism: int | None = Field(default=None, ge=0, le=4)
    tradeoff: int | None = Field(default=None, ge=0, le=4)
    numbers: int | None = Field(default=None, ge=0, le=4)
    failure_modes: int | None = Field(default=None, ge=0, le=4)
    overall: int = Field(ge=0, le=100)

    def level(self, dim: Dimension) -> int | None:
        value: int | None = getattr(self, dim)
        return value


class LabelledAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    case: str
    question: str
    follow_up: int | None = None
    kind: str
    answer: str
    labels: Labels
    why: str = Field(min_length=1)

    @property
    def dimensions(self) -> tuple[Dimension, ...]:
        return tuple(d for d in DIMENSIONS if self.labels.level(d) is not None)


class LabelledError(Exception):
    """A labelled file could not be read; the message names the file and the entry."""


def load_labelled(paths: Iterable[Path]) -> list[LabelledAnswer]:
    out: list[LabelledAnswer] = []
    for path in paths:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise LabelledError(f"{path}: cannot read labelled answers: {exc}") from None
        if not isinstance(data, list):
            raise LabelledError(f"{path}: expected a list of labelled answers")
        for i, entry in enumerate(data):
            try:
                out.append(LabelledAnswer.model_validate(entry))
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(p) for p in first["loc"])
                raise LabelledError(f"{path}: entry {i + 1}: {where}: {first['msg']}") from None
    return out


def request_for(library: Library, item: LabelledAnswer) -> GradeRequest:
    """The GradeRequest a labelled answer is graded with (a follow-up against its own key points)."""
    case = library.cases.get(item.case)
    if case is None:
        raise LabelledError(f"unknown case {item.case!r}")
    question = case.question(item.question)
    if question is None:
        raise LabelledError(f"case {item.case!r} has no question {item.question!r}")
    rubric = library.rubric_for(case)
    if item.follow_up is None:
        return GradeRequest(case=case, rubric=rubric, question=question, answer=item.answer)
    try:
        target = question.follow_up_question(item.follow_up)
    except IndexError:
        raise LabelledError(f"{item.case}/{item.question} has no follow-up {item.follow_up}") from None
    return GradeRequest(case=case, rubric=rubric, question=target, parent=question, answer=item.answer)


def kinds(items: Sequence[LabelledAnswer]) -> list[str]:
    return sorted({i.kind for i in items})

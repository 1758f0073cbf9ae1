"""Pydantic models for rubrics and cases.

These models are the contract between the YAML files in ``cases/`` and
``rubrics/`` and every consumer: the offline scorer, the LLM grader, the
session and the TUI.  They are strict (unknown fields are errors) so that a
typo in a case file is reported instead of silently ignored.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from interviewer.dimensions import DIMENSION_TITLES as DIMENSION_TITLES  # re-exported: the schema's vocabulary
from interviewer.dimensions import DIMENSIONS as DIMENSIONS
from interviewer.dimensions import Dimension as Dimension
from interviewer.grading.offline.units import is_known_unit, unknown_unit_message

LEVELS = (0, 1, 2, 3, 4)

_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def _check_id(value: str) -> str:
    if not _ID.match(value):
        raise ValueError("must be lower-case letters, digits, '-', '_' or '.', starting with a letter or digit")
    return value


Slug = Annotated[str, AfterValidator(_check_id)]
"""An id: lower-case letters, digits, '-', '_' and '.'."""


def _check_unit(value: str) -> str:
    if not is_known_unit(value):
        raise ValueError(unknown_unit_message(value))
    return value


UnitName = Annotated[str, Field(min_length=1), AfterValidator(_check_unit)]
"""A unit the offline scorer reads ('GB/s', 'ms', '%') or a listed count noun ('GPUs'); anything else could never
match a candidate's number, so it is a validation error."""


# --------------------------------------------------------------------------- rubric


class RubricDimension(_Strict):
    """One scored dimension: what it means, how much it counts, and how to spot it offline."""

    description: str = Field(min_length=1)
    weight: float = Field(gt=0, le=10)
    levels: dict[int, str]
    """Level descriptors 0..4: 0 = absent, 4 = strong, specific and quantified."""
    cues: list[str] = Field(default_factory=list)
    """Offline cue words, e.g. words of contrast for tradeoff, of failure and recovery for failure modes."""

    @field_validator("levels")
    @classmethod
    def _all_levels(cls, value: dict[int, str]) -> dict[int, str]:
        missing = [lvl for lvl in LEVELS if lvl not in value]
        extra = [lvl for lvl in value if lvl not in LEVELS]
        if missing or extra:
            raise ValueError("needs exactly the levels 0, 1, 2, 3 and 4")
        if any(not str(text).strip() for text in value.values()):
            raise ValueError("every level needs a descriptor")
        return value


class Rubric(_Strict):
    id: Slug
    title: str = Field(min_length=1)
    description: str = ""
    dimensions: dict[Dimension, RubricDimension]
    guidance: list[str] = Field(default_factory=list)
    """How to structure a strong answer; quoted in feedback and in the grader prompt."""

    @field_validator("dimensions")
    @classmethod
    def _all_dimensions(cls, value: dict[str, RubricDimension]) -> dict[str, RubricDimension]:
        missing = [d for d in DIMENSIONS if d not in value]
        if missing:
            raise ValueError(f"missing dimension(s): {', '.join(missing)}")
        return value


# --------------------------------------------------------------------------- questions


class KeyPoint(_Strict):
    """A point a strong answer makes.  ``text`` is the heading shown as a hint or as missing."""

    text: str = Field(min_length=1)
    aliases: list[str] = Field(min_length=1)
    """Phrases (words, acronyms or short phrases) that express the point; matched in claim sentences."""


class Quantity(_Strict):
    """A reference figure that a candidate's number can be checked against."""

    measures: str = Field(min_length=1)
    """What the quantity measures, e.g. 'H100 SXM HBM3 bandwidth'."""
    value: float
    unit: UnitName
    """A unit the scorer understands, e.g. 'GB/s', 'Gb/s', 'ms', 'GB', 'GiB', 'tokens/s', 'TFLOP/s', '%', 'x'."""
    tolerance: float = Field(default=0.1, ge=0, le=10)
    """Relative tolerance: 0.1 accepts values within ±10% of ``value``; above 0.5 it is a factor either way,
    so 1.0 accepts half to twice ``value``."""
    aliases: list[str] = Field(default_factory=list)
    """Words that tie a number in the answer to this quantity, e.g. ['nvlink']."""


class Misconception(_Strict):
    """A wrong statement that candidates make; stating it lowers mechanism."""

    text: str = Field(min_length=1)
    aliases: list[str] = Field(min_length=1)
    """Phrases that state the misconception; matched in claim sentences."""
    correction: str = Field(min_length=1)


class FollowUp(_Strict):
    """A scripted follow-up: a small question of its own, graded against its own key points.

    It probes ``dimension`` (which must be among its key points when it has
    any).  Its key points cover only the dimensions it probes, not all four;
    its quantities and misconceptions are checked as well as the parent
    question's, which are the context it is asked in.  A follow-up without
    key points (allowed in user cases) is graded against the parent's key
    points for ``dimension``.
    """

    dimension: Dimension
    prompt: str = Field(min_length=1)
    key_points: dict[Dimension, list[KeyPoint]] = Field(default_factory=dict)
    quantities: list[Quantity] = Field(default_factory=list)
    misconceptions: list[Misconception] = Field(default_factory=list)
    outline: list[str] = Field(default_factory=list)
    """A short model answer, shown in review."""

    @model_validator(mode="after")
    def _probes_its_dimension(self) -> FollowUp:
        if self.key_points and not self.key_points.get(self.dimension):
            raise ValueError(f"key_points must include the probed dimension {self.dimension!r}")
        if any(not points for points in self.key_points.values()):
            raise ValueError("every listed key_points dimension needs at least one key point")
        return self


class Question(_Strict):
    id: Slug
    prompt: str = Field(min_length=1)
    key_points: dict[Dimension, list[KeyPoint]]
    quantities: list[Quantity] = Field(default_factory=list)
    misconceptions: list[Misconception] = Field(default_factory=list)
    follow_ups: list[FollowUp] = Field(default_factory=list)
    outline: list[str] = Field(min_length=1)
    """Model-answer outline, shown in review and in the end-of-session report."""
    _derived: dict[str, Question] = PrivateAttr(default_factory=dict)
    """Follow-up questions built from this one, kept so the grader's compile cache keeps hitting."""

    @field_validator("key_points")
    @classmethod
    def _all_dimensions(cls, value: dict[str, list[KeyPoint]]) -> dict[str, list[KeyPoint]]:
        missing = [d for d in DIMENSIONS if not value.get(d)]
        if missing:
            raise ValueError(f"needs at least one key point for: {', '.join(missing)}")
        return value

    def all_key_points(self) -> list[tuple[Dimension, KeyPoint]]:
        return [(dim, kp) for dim in DIMENSIONS for kp in self.key_points.get(dim, [])]

    @property
    def dimensions(self) -> tuple[Dimension, ...]:
        """The dimensions this question is graded on: all four for a question, fewer for a follow-up."""
        return tuple(d for d in DIMENSIONS if self.key_points.get(d))

    def follow_up_question(self, number: int) -> Question:
        """The ``number``-th (1-based) scripted follow-up as a question of its own.

        It is graded on its own key points (the parent's for its dimension
        when it has none), its own reference figures (a follow-up often
        changes the scenario: 4 GPUs instead of 8, so the parent's figures
        would judge a right answer wrong), and every misconception of its
        own and of the parent (a wrong belief stays wrong in a follow-up).
        Raises ``IndexError`` when there is no such follow-up.
        """
        if not 1 <= number <= len(self.follow_ups):
            raise IndexError(number)
        key = f"follow-up-{number}"
        if key not in self._derived:
            fu = self.follow_ups[number - 1]
            points = dict(fu.key_points) or {fu.dimension: list(self.key_points[fu.dimension])}
            self._derived[key] = self._derive(
                key, fu.prompt, points, list(fu.quantities), [*fu.misconceptions, *self.misconceptions],
                list(fu.outline),
            )
        return self._derived[key]

    def probe_question(self, dimension: Dimension, point: str | None, prompt: str) -> Question:
        """A follow-up the script does not hold (asking about a missed key point), graded on that point."""
        points = [kp for kp in self.key_points[dimension] if kp.text == point] or list(self.key_points[dimension])
        key = f"probe-{dimension}-{point or ''}"
        if key not in self._derived:
            self._derived[key] = self._derive(
                key, prompt, {dimension: points}, list(self.quantities), list(self.misconceptions), []
            )
        return self._derived[key]

    def _derive(
        self,
        suffix: str,
        prompt: str,
        key_points: dict[Dimension, list[KeyPoint]],
        quantities: list[Quantity],
        misconceptions: list[Misconception],
        outline: list[str],
    ) -> Question:
        # model_construct: a follow-up legitimately lacks some dimensions, which the validator forbids.
        return Question.model_construct(
            id=f"{self.id}.{suffix}",
            prompt=prompt,
            key_points=key_points,
            quantities=quantities,
            misconceptions=misconceptions,
            follow_ups=[],
            outline=outline or list(self.outline),
        )


class Phase(_Strict):
    id: Slug
    title: str = Field(min_length=1)
    minutes: float = Field(gt=0, le=600)
    brief: str = ""
    """What the interviewer expects in this phase; shown at the top of the phase."""
    questions: list[Question] = Field(min_length=1)


class Case(_Strict):
    """A timed case script (``kind: case``) or a question bank (``kind: bank``)."""

    id: Slug
    title: str = Field(min_length=1)
    kind: Literal["case", "bank"]
    scenario: str = Field(min_length=1)
    rubric: str = Field(min_length=1)
    """Id of the rubric in ``rubrics/`` that grades this case."""
    phases: list[Phase] = Field(min_length=1)
    deliverables: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_ids(self) -> Case:
        seen: set[str] = set()
        for phase in self.phases:
            for q in phase.questions:
                if q.id in seen:
                    raise ValueError(f"question id {q.id!r} is used twice")
                seen.add(q.id)
        phase_ids = [p.id for p in self.phases]
        if len(set(phase_ids)) != len(phase_ids):
            raise ValueError("phase ids must be unique")
        return self

    @property
    def minutes(self) -> float:
        return sum(p.minutes for p in self.phases)

    def questions(self) -> list[Question]:
        return [q for p in self.phases for q in p.questions]

    def question(self, question_id: str) -> Question | None:
        return next((q for q in self.questions() if q.id == question_id), None)


# --------------------------------------------------------------------------- shared content


class Fact(_Strict):
    """One reference figure about a subject (a GPU, a link or a model)."""

    measures: str = Field(min_length=1)
    value: float
    unit: UnitName
    tolerance: float = Field(default=0.05, ge=0, le=10)
    aliases: list[str] = Field(min_length=1)
    """Words that tie a figure in a sentence to this fact, e.g. ['hbm', 'memory bandwidth']."""


class Subject(_Strict):
    """A GPU, interconnect or model that answers name, with the facts known about it."""

    id: Slug
    kind: Literal["gpu", "link", "model"]
    names: list[str] = Field(min_length=1)
    """How answers name it, e.g. ['H100 SXM', 'H100']; matched on word boundaries, case-insensitively."""
    facts: list[Fact] = Field(min_length=1)
    family: bool = False
    """A family's bare name ('NVLink', 'InfiniBand') with every generation's figures: a sentence that names it and
    no specific subject ('InfiniBand at 400 GB/s') is checked against all of them, one that names a generation
    or a GPU only against that."""


class FactSheet(_Strict):
    """The one shared fact sheet (``cases/facts.yaml``): figures checked in every case."""

    kind: Literal["facts"]
    subjects: list[Subject] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> FactSheet:
        ids = [s.id for s in self.subjects]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"subject ids used twice: {', '.join(dupes)}")
        return self


class ContrastSide(_Strict):
    name: str = Field(min_length=1)
    aliases: list[str] = Field(min_length=1)
    """How answers name this side, e.g. ['mig', 'multi-instance gpu']."""
    defining: list[str] = Field(min_length=1)
    """Phrases for properties that belong to this side only; said of the other side, they are wrong."""


class Contrast(_Strict):
    """Two concepts people confuse (MIG/MPS, prefill/decode...): each side's defining properties."""

    id: Slug
    sides: list[ContrastSide] = Field(min_length=2, max_length=2)
    correction: str = Field(min_length=1)


class Lexicon(_Strict):
    """The one shared domain lexicon (``cases/lexicon.yaml``): synonyms and confusable pairs."""

    kind: Literal["lexicon"]
    synonyms: list[list[str]] = Field(default_factory=list)
    """Groups of words or phrases that mean the same here, e.g. ['evict', 'preempt', 'swap out']."""
    contrasts: list[Contrast] = Field(default_factory=list)

    @field_validator("synonyms")
    @classmethod
    def _groups(cls, value: list[list[str]]) -> list[list[str]]:
        for group in value:
            if len(group) < 2 or any(not str(w).strip() for w in group):
                raise ValueError("every synonym group needs at least two non-empty entries")
        return value

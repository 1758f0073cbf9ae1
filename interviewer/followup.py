"""Choose what a follow-up question should probe.

The code, not the model, decides what to probe: the weakest dimension, and
within it a key point the answer missed.  Offline, the case script's follow-up
for that dimension is asked; online, the model only words the question.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Dimension, Question
from interviewer.grading.types import Grade


@dataclass(frozen=True)
class Probe:
    dimension: Dimension
    missed_point: str | None
    """Heading of a key point the answer missed in ``dimension``, if any."""
    scripted: str
    """The offline wording: a scripted follow-up, or one built from the missed point."""


def choose_probe(question: Question, grade: Grade, already_asked: Collection[str] = ()) -> Probe | None:
    """Pick the weakest dimension (ties go to rubric order) and a follow-up not asked yet.

    Returns None when every dimension scored 4 and nothing was missed: a real
    interviewer moves on instead of inventing a probe.
    """
    asked = set(already_asked)
    ranked = sorted(DIMENSIONS, key=lambda d: (grade.dimensions[d].score, DIMENSIONS.index(d)))
    for dim in ranked:
        score = grade.dimensions[dim]
        if score.score >= 4 and not score.missing:
            continue
        missed = score.missing[0] if score.missing else None
        scripted = next((f.prompt for f in question.follow_ups if f.dimension == dim and f.prompt not in asked), None)
        if scripted is None and missed is not None:
            scripted = f"You did not get to this: {missed}. Can you walk me through it?"
            if scripted in asked:
                scripted = None
        if scripted is None:
            scripted = next((f.prompt for f in question.follow_ups if f.prompt not in asked), None)
        if scripted is None:
            continue
        return Probe(dimension=dim, missed_point=missed, scripted=scripted)
    return None


def probe_label(probe: Probe) -> str:
    """Short description of what a probe targets, for the UI and the grader prompt."""
    title = DIMENSION_TITLES[probe.dimension]
    return f"{title}: {probe.missed_point}" if probe.missed_point else title

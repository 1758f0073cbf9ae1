"""What the session asks next after a graded answer: the one place that decides follow-ups.

The code, not the model and not the grader, decides what to probe: the
weakest dimension, and within it a key point the answer missed.  The case
script's follow-up for that dimension is asked when there is one (it is a
small question with its own key points); otherwise a question about the
missed key point is built.  Online, the model may only *word* the probe
(``FallbackGrader.word``); it never changes what is probed.
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
    number: int | None = None
    """1-based index of the scripted follow-up asked, or None for a question built from the missed point."""

    def question(self, parent: Question) -> Question:
        """The follow-up as a question of its own, which its answer is graded against."""
        if self.number is not None:
            return parent.follow_up_question(self.number)
        return parent.probe_question(self.dimension, self.missed_point, self.scripted)


def choose_probe(question: Question, grade: Grade, already_asked: Collection[str] = ()) -> Probe | None:
    """Pick the weakest dimension (ties go to rubric order) and a follow-up not asked yet.

    Returns None when every dimension scored 4 and nothing was missed: a real
    interviewer moves on instead of inventing a probe.
    """
    asked = set(already_asked)
    scored = [d for d in DIMENSIONS if d in grade.dimensions]
    ranked = sorted(scored, key=lambda d: (grade.dimensions[d].score, DIMENSIONS.index(d)))
    scripts = list(enumerate(question.follow_ups, start=1))
    for dim in ranked:
        score = grade.dimensions[dim]
        if score.score >= 4 and not score.missing:
            continue
        missed = score.missing[0] if score.missing else None
        pick = next(((n, f.prompt) for n, f in scripts if f.dimension == dim and f.prompt not in asked), None)
        if pick is None and missed is not None:
            text = f"You did not get to this: {missed}. Can you walk me through it?"
            if text not in asked:
                return Probe(dimension=dim, missed_point=missed, scripted=text)
        if pick is None:
            pick = next(((n, f.prompt) for n, f in scripts if f.prompt not in asked), None)
        if pick is None:
            continue
        number, text = pick
        probed = question.follow_ups[number - 1].dimension
        return Probe(dimension=probed, missed_point=missed, scripted=text, number=number)
    return None


def probe_label(probe: Probe) -> str:
    """Short description of what a probe targets, for the UI and the model's wording prompt."""
    title = DIMENSION_TITLES[probe.dimension]
    return f"{title}: {probe.missed_point}" if probe.missed_point else title

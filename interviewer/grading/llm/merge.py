"""Combine the model's reply with the offline grade into the final ``llm`` Grade.

The model judges; the code keeps it honest:

* an evidence quote that does not occur in the answer is dropped, and that
  dimension is capped at the offline score (we chose the cap over a second
  model call: it is deterministic, free, and the offline score is the
  best evidence we have).  A score above 0 with no quote at all is treated
  the same way;
* when ``detect_injection`` finds instructions aimed at the grader, every
  dimension is capped at offline score + 1 and the ``injection`` flag is set;
* number checks come from the offline grader (deterministic); flags are the
  union of offline flags and the known flags the model raised;
* where the offline grader found a wrong figure (numbers) or a misconception
  (mechanism) and the model scores that dimension two or more levels higher,
  the grade is flagged ``disagreement`` and keeps the offline scores beside
  the model's, so the candidate sees both instead of a silent override;
* only the question's own dimensions are kept: a follow-up is graded on the
  dimensions it probes.
"""

from __future__ import annotations

from collections.abc import Sequence

from interviewer.content.schema import Dimension
from interviewer.grading.llm.evidence import normalise, quote_in_answer
from interviewer.grading.llm.parse import LLMReply
from interviewer.grading.types import (
    FLAG_DISAGREEMENT,
    FLAG_INJECTION,
    FLAG_KEYWORD_LIST,
    FLAG_MISCONCEPTION,
    FLAG_TRUNCATED,
    FLAG_WRONG_NUMBER,
    DimensionScore,
    Grade,
    GradeRequest,
    overall_from,
)

MODEL_FLAGS = frozenset({FLAG_MISCONCEPTION, FLAG_WRONG_NUMBER, FLAG_KEYWORD_LIST})
"""Flags the model may raise; anything else it writes in ``flags`` is ignored."""


def merge(
    reply: LLMReply,
    request: GradeRequest,
    offline: Grade,
    *,
    model: str,
    injection: Sequence[str] = (),
    answer_clipped: bool = False,
) -> Grade:
    answer = normalise(request.answer)
    dimensions: dict[Dimension, DimensionScore] = {}
    for dim in request.question.dimensions:
        mine = reply.dimensions[dim]
        off = offline.dimensions[dim]
        kept = [q.strip() for q in mine.evidence if quote_in_answer(q, answer)]
        unsupported = len(kept) < len(mine.evidence) or (mine.score > 0 and not kept)
        score = min(mine.score, off.score) if unsupported else mine.score
        if injection:
            score = min(score, off.score + 1)
        evidence = kept or (list(off.evidence) if 0 < score <= off.score else [])
        dimensions[dim] = DimensionScore(
            score=score, evidence=evidence, missing=_missing(request, dim, mine.missing, off.missing)
        )
    flags = list(offline.flags)
    flags += [f for f in reply.flags if f in MODEL_FLAGS]
    if injection:
        flags.append(FLAG_INJECTION)
    if answer_clipped:
        flags.append(FLAG_TRUNCATED)
    scores = {d: s.score for d, s in dimensions.items()}
    disputed = _disputed(offline)
    disagree = any(d in scores and d in offline.dimensions and scores[d] >= offline.score(d) + 2 for d in disputed)
    if disagree:
        flags.append(FLAG_DISAGREEMENT)
    return Grade(
        grader="llm",
        overall=overall_from(scores, request.rubric),
        dimensions=dimensions,
        numbers_checked=list(offline.numbers_checked),
        flags=list(dict.fromkeys(flags)),
        feedback=reply.feedback or offline.feedback,
        model=model,
        offline_scores={d: s.score for d, s in offline.dimensions.items()} if disagree else None,
    )


def _disputed(offline: Grade) -> set[Dimension]:
    """Dimensions where the offline grader found something wrong that a model might overlook."""
    found: set[Dimension] = set()
    if FLAG_WRONG_NUMBER in offline.flags:
        found.add("numbers")
    if FLAG_MISCONCEPTION in offline.flags:
        found.add("mechanism")
    return found


def _missing(request: GradeRequest, dim: Dimension, said: list[str] | None, offline: list[str]) -> list[str]:
    """Key-point headings the model says were missed, when they are real headings; else the offline list."""
    headings = [kp.text for kp in request.question.key_points.get(dim, [])]
    if not said:
        return list(offline)
    wanted = [normalise(s) for s in said]
    matched = [h for h in headings if any(normalise(h) == w or normalise(h) in w for w in wanted)]
    return matched or list(offline)

"""Turning what was found into 0-4 levels, one rule per dimension.

The rules follow the rubric's level descriptors rather than a bare
percentage, so that a level means the same thing offline and online:

* mechanism, tradeoff, failure modes: the share of the dimension's key points
  made in claim sentences carries most of the weight (4 x share); distinct
  rubric cues found in claims add a little (0.2 each, at most 0.8).  Cues alone
  ('but', 'monitor') can reach level 1, or 2 with three or more, never more:
  saying there is a tradeoff is not naming it.  Level 4 needs at least 70% of
  the key points *and* specificity (see ``specific``).
* numbers: key points (2 x share; a point whose sentence holds no figure
  checked correct, matched by a wording that is not itself the figure, counts
  half), correct figures (0.6 per distinct
  reference, at most 1.8), unit-bearing figures that could not be checked,
  stated in claim sentences (0.15 each, at most 0.6), and a back-of-envelope
  step (0.3), minus 1 per
  wrong figure.  Figures without units cap the level at 1 (unless half the
  numbers key points are made: versions and counts carry no unit), a wrong figure
  caps it at 1 (the rubric's 'correct' is part of the dimension), level 3
  needs at least one figure checked correct (a pile of unchecked figures is
  not sizing), and level 4 needs two correct figures combined in an estimate.
  In a follow-up, wrong figures outnumbered two to one by correct ones cap
  the level at 3 instead of 1 (``FOLLOW_UP_WRONG_CAP``).
"""

from __future__ import annotations

from dataclasses import dataclass

THRESHOLDS = (1.4, 2.4, 3.4)
"""Raw points needed for levels 2, 3 and 4 (anything above zero is level 1)."""
FOLLOW_UP_WRONG_CAP = 3
"""In a follow-up, wrong figures outnumbered two to one by figures checked correct cap numbers here, not at 1.
A sizing follow-up runs through several intermediate figures, and a lone one that no reference accepts is more
often another intermediate quantity than the candidate's mistake; each still costs a point of raw score."""
UNITLESS_SHARE = 0.5
"""Figures without units cap numbers at 1 unless at least this share of the numbers key points is made: the
figures of some questions are versions and counts ('driver 525 or newer'), which carry no unit."""


def _level(raw: float) -> int:
    if raw <= 0.05:
        return 0
    level = 1
    for i, t in enumerate(THRESHOLDS):
        if raw >= t:
            level = i + 2
    return level


def concept_level(share: float, cues: int, specific: bool) -> int:
    """Level for mechanism, tradeoff and failure modes.

    Level 4 needs 70% of the key points and specificity; making every key
    point (a short follow-up often has one or two) is specific enough.
    """
    if share <= 0:
        if cues == 0:
            return 0
        return 1 if cues < 3 else 2
    level = max(1, _level(4 * share + min(0.8, 0.2 * cues)))
    if level == 4 and not (share >= 0.7 and (specific or share >= 0.99)):
        level = 3
    return level


@dataclass(frozen=True)
class NumberStats:
    share: float
    """Share of the numbers key points made."""
    figures: int
    """Figures of any kind (with or without unit) outside products."""
    with_unit: int
    correct_refs: int
    """Distinct references matched by a correct figure."""
    unverified_with_unit: int
    wrong: int
    estimate: bool
    follow_up: bool = False
    """A follow-up: one sizing question, worked through several intermediate figures."""


def numbers_level(s: NumberStats) -> int:
    if s.figures == 0 and s.share == 0:
        return 0
    raw = (
        2 * s.share
        + min(1.8, 0.6 * s.correct_refs)
        + min(0.6, 0.15 * s.unverified_with_unit)
        + (0.3 if s.estimate else 0.0)
        - 1.0 * s.wrong
    )
    level = _level(raw)
    if s.with_unit == 0 and s.share < UNITLESS_SHARE:
        level = min(level, 1)
    if s.wrong:
        level = min(level, FOLLOW_UP_WRONG_CAP if s.follow_up and s.correct_refs >= 2 * s.wrong else 1)
    if level >= 3 and s.correct_refs == 0:
        level = 2
    if level == 4 and not (s.correct_refs >= 2 and s.estimate):
        level = 3
    if level == 0 and s.figures:
        level = 1
    return level

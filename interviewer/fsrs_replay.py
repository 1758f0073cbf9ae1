"""FSRS reviews at the speed a rebuilt drill store needs: ``Scheduler.review_card``'s arithmetic, without its overhead.

Rebuilding the drill store replays every graded main answer of every
transcript (sixteen thousand reviews over a thousand sessions), and
``fsrs.Scheduler.review_card`` spends ~20 µs on each: copying the card,
keyword calls, a review log, enum matching.  ``Replayer`` computes the same
floating-point expressions in the same order on plain floats, so its cards
are identical to the package's, bit for bit (``tests/test_fsrs_replay.py``
checks that against ``fsrs`` itself on random histories), at a few µs a
review.

It covers the scheduler the drills use (``drills.scheduler``): no learning
or relearning steps and no fuzzing, so after its first review a card is
always in the Review state.  Any other card, or any other scheduler, goes
through ``review_card`` unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

from fsrs import Card, Rating, Scheduler, State

STABILITY_MIN = 0.001
"""``fsrs.scheduler.STABILITY_MIN``."""
MIN_DIFFICULTY, MAX_DIFFICULTY = 1.0, 10.0
"""``fsrs.scheduler.MIN_DIFFICULTY`` and ``MAX_DIFFICULTY``."""


class Replayer:
    """Reviews cards like ``scheduler.review_card`` would, for a scheduler without steps or fuzzing."""

    def __init__(self, scheduler: Scheduler):
        self.scheduler = scheduler
        self.fast = not scheduler.learning_steps and not scheduler.relearning_steps and not scheduler.enable_fuzzing
        p = self.p = scheduler.parameters
        decay = -p[20]
        self.decay = decay
        self.factor = 0.9 ** (1 / decay) - 1
        self.interval_scale = (scheduler.desired_retention ** (1 / decay)) - 1
        # What review_card computes afresh on every review, computed once (by the same expressions, so the
        # same floats), by rating where it depends on one (index 0 unused).
        ratings = [0, *Rating]
        self.short_term = [math.e ** (p[17] * (r - 3 + p[18])) for r in ratings]
        self.difficulty_delta = [-(p[6] * (r - 3)) for r in ratings]
        self.hard_penalty = [p[15] if r == Rating.Hard else 1 for r in ratings]
        self.easy_bonus = [p[16] if r == Rating.Easy else 1 for r in ratings]
        self.mean_reversion = p[7] * (p[4] - (math.e ** (p[5] * (Rating.Easy - 1))) + 1)
        self.forget_short = math.e ** (p[17] * p[18])
        self.recall_base = math.e ** (p[8])

    def review(self, card: Card, rating: Rating, at: datetime) -> Card:
        """``scheduler.review_card(card, rating, at)[0]``."""
        return self.replay(card, [(rating, at)])

    def replay(self, card: Card, reviews: Iterable[tuple[Rating, datetime]]) -> Card:
        """The card after ``reviews`` (rating, UTC time), in the order given; ``card`` itself is not changed.

        The loop is written out (no helper per step, the due date made once at the end): it runs once per
        graded answer in every transcript when the store is rebuilt.
        """
        if not self.fast:
            for rating, at in reviews:
                card, _ = self.scheduler.review_card(card, rating, at)
            return card
        p, short_term, difficulty_delta = self.p, self.short_term, self.difficulty_delta
        keep, mean_reversion = 1 - p[7], self.mean_reversion
        factor, interval_scale, maximum_interval = self.factor, self.interval_scale, self.scheduler.maximum_interval
        state, step, stability, difficulty = card.state, card.step, card.stability, card.difficulty
        last, due = card.last_review, card.due
        interval: int | None = None  # days from the latest review to its due date, when computed here
        for rating, at in reviews:
            if at.tzinfo is not timezone.utc and at.tzinfo != timezone.utc:
                raise ValueError("datetime must be timezone-aware and set to UTC")
            if state == State.Review and stability is not None and difficulty is not None and last is not None:
                days = (at - last).days
                if days < 1:
                    increase = short_term[rating] * (stability ** -p[19])
                    if rating != Rating.Again:
                        increase = max(increase, 1.0)
                    stability = max(stability * increase, STABILITY_MIN)
                else:
                    stability = self._next_stability(difficulty, stability, days, rating)
                damped = difficulty + (10.0 - difficulty) * difficulty_delta[rating] / 9.0
                difficulty = min(max(mean_reversion + keep * damped, MIN_DIFFICULTY), MAX_DIFFICULTY)
            elif state == State.Learning and stability is None:
                stability = max(p[rating - 1], STABILITY_MIN)
                difficulty = min(max(p[4] - (math.e ** (p[5] * (rating - 1))) + 1, MIN_DIFFICULTY), MAX_DIFFICULTY)
                state, step = State.Review, None
            else:  # a card made by another scheduler: the package's own code
                before = Card(card.card_id, state, step, stability, difficulty, due, last)
                after, _ = self.scheduler.review_card(before, rating, at)
                state, step, stability, difficulty = after.state, after.step, after.stability, after.difficulty
                last, due, interval = after.last_review, after.due, None
                continue
            interval = min(max(round((stability / factor) * interval_scale), 1), maximum_interval)
            last = at
        if interval is not None and last is not None:
            due = last + timedelta(days=interval)
        return Card(card.card_id, state, step, stability, difficulty, due, last)

    def _next_stability(self, difficulty: float, stability: float, days: int, rating: Rating) -> float:
        p = self.p
        retrievability = (1 + self.factor * max(0, days) / stability) ** self.decay
        value: float
        if rating == Rating.Again:
            long_term = (
                p[11]
                * (difficulty ** -p[12])
                * (((stability + 1) ** (p[13])) - 1)
                * (math.e ** ((1 - retrievability) * p[14]))
            )
            value = min(long_term, stability / self.forget_short)
        else:
            value = stability * (
                1
                + self.recall_base
                * (11 - difficulty)
                * (stability ** -p[9])
                * ((math.e ** ((1 - retrievability) * p[10])) - 1)
                * self.hard_penalty[rating]
                * self.easy_bonus[rating]
            )
        return max(value, STABILITY_MIN)

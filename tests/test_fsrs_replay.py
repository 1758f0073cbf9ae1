"""The fast replayer gives exactly the cards ``fsrs.Scheduler.review_card`` gives: same floats, same due dates."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Card, Rating, Scheduler, State
from hypothesis import given, settings
from hypothesis import strategies as st

from interviewer.drills import scheduler
from interviewer.fsrs_replay import Replayer

T0 = datetime(2026, 1, 5, 9, 30, tzinfo=timezone.utc)

reviews = st.lists(
    st.tuples(
        st.sampled_from(list(Rating)),
        # Same day (short-term stability), a few days, and gaps past the maximum interval.
        st.one_of(st.integers(0, 23 * 3600), st.integers(86_400, 40 * 86_400), st.integers(0, 500 * 86_400)),
    ),
    min_size=1,
    max_size=40,
)


def by_the_package(sched: Scheduler, card: Card, history: list[tuple[Rating, datetime]]) -> Card:
    for rating, at in history:
        card, _ = sched.review_card(card, rating, at)
    return card


def timeline(steps: list[tuple[Rating, int]]) -> list[tuple[Rating, datetime]]:
    at, out = T0, []
    for rating, gap_s in steps:
        at += timedelta(seconds=gap_s)
        out.append((rating, at))
    return out


@settings(max_examples=300, deadline=None)
@given(reviews)
def test_replay_matches_review_card_bit_for_bit(steps: list[tuple[Rating, int]]) -> None:
    sched = scheduler()
    history = timeline(steps)
    start = Card(card_id=7, due=T0)
    expected = by_the_package(sched, start, history)
    got = Replayer(sched).replay(start, history)
    assert got.to_dict() == expected.to_dict()
    assert start.to_dict() == Card(card_id=7, due=T0).to_dict()  # the card given is not changed


@settings(max_examples=100, deadline=None)
@given(reviews, reviews)
def test_continuing_a_stored_card_matches_too(first: list[tuple[Rating, int]], then: list[tuple[Rating, int]]) -> None:
    """The drill store reviews a stored card with a new session's answers: the same as one replay of both."""
    sched = scheduler()
    history = timeline(first + then)
    stored = Card.from_dict(Replayer(sched).replay(Card(card_id=1, due=T0), history[: len(first)]).to_dict())
    assert (Replayer(sched).replay(stored, history[len(first):]).to_dict()
            == by_the_package(sched, Card(card_id=1, due=T0), history).to_dict())


@pytest.mark.parametrize("state", [State.Learning, State.Relearning])
def test_cards_of_other_schedulers_go_through_the_package(state: State) -> None:
    """A card left in a learning step by a scheduler with steps is reviewed by fsrs itself, then fast again."""
    with_steps = Scheduler(enable_fuzzing=False)
    card = Card(card_id=3, due=T0)
    rating = Rating.Good if state == State.Learning else Rating.Again
    if state == State.Relearning:
        card, _ = with_steps.review_card(card, Rating.Easy, T0)
    card, _ = with_steps.review_card(card, rating, T0 + timedelta(days=30))
    assert card.state == state
    history = timeline([(Rating.Hard, 3 * 86_400), (Rating.Good, 3600), (Rating.Again, 9 * 86_400)])
    sched = scheduler()
    assert Replayer(sched).replay(card, history).to_dict() == by_the_package(sched, card, history).to_dict()


def test_a_scheduler_with_steps_or_fuzz_is_left_to_the_package() -> None:
    sched = Scheduler(enable_fuzzing=False)  # default learning steps
    history = timeline([(Rating.Good, 0), (Rating.Good, 600), (Rating.Again, 86_400 * 4)])
    card = Card(card_id=5, due=T0)
    assert not Replayer(sched).fast
    assert Replayer(sched).replay(card, history).to_dict() == by_the_package(sched, card, history).to_dict()


def test_times_must_be_utc_as_for_the_package() -> None:
    naive = datetime(2026, 1, 5, 9, 30)
    with pytest.raises(ValueError, match="UTC"):
        Replayer(scheduler()).review(Card(card_id=1, due=T0), Rating.Good, naive)

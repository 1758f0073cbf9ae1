"""``ChunkCoalescer``: streamed feedback reaches the screen promptly without flooding the message queue."""

from __future__ import annotations

import threading

import pytest
from textual.message import Message

from interviewer.tui.messages import GradeChunk
from interviewer.tui.workers import ChunkCoalescer, GradeAbandoned


class Clock:
    """A hand-wound clock: time moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Posted:
    """Records what the coalescer posts; ``arrived`` is set on every post (for the timer test)."""

    def __init__(self) -> None:
        self.messages: list[GradeChunk] = []
        self.arrived = threading.Event()

    def __call__(self, message: Message) -> None:
        assert isinstance(message, GradeChunk)
        self.messages.append(message)
        self.arrived.set()

    @property
    def texts(self) -> list[str]:
        return [m.text for m in self.messages]


LONG = 3600.0
"""An interval no test outlives, so the one-shot timer never fires on its own."""


def make(interval: float = LONG, **kw: object) -> tuple[ChunkCoalescer, Posted, Clock]:
    posted, clock = Posted(), Clock()
    return ChunkCoalescer(7, posted, interval=interval, clock=clock, **kw), posted, clock  # type: ignore[arg-type]


def test_first_chunk_is_posted_at_once_with_the_turn_id() -> None:
    coalescer, posted, _ = make()
    coalescer.feed("The KV cache")
    assert posted.texts == ["The KV cache"]
    assert posted.messages[0].turn_id == 7
    coalescer.cancel()


def test_chunks_inside_the_interval_are_held_and_flushed_together() -> None:
    coalescer, posted, clock = make()
    for piece in ("The ", "KV ", "cache ", "grows"):
        coalescer.feed(piece)
        clock.now += 0.001
    assert posted.texts == ["The "], "only the first piece of a burst goes out at once"
    coalescer.flush()
    assert posted.texts == ["The ", "The KV cache grows"], "each post carries everything so far"
    coalescer.flush()
    assert len(posted.messages) == 2, "a flush with nothing new posts nothing"
    assert coalescer.posts == 2


def test_a_chunk_after_a_quiet_interval_is_posted_at_once() -> None:
    coalescer, posted, clock = make(interval=0.08)
    coalescer.feed("a")
    clock.now += 0.5
    coalescer.feed("b")
    assert posted.texts == ["a", "ab"]
    coalescer.cancel()


def test_posts_are_bounded_by_the_interval_not_the_chunk_rate() -> None:
    coalescer, posted, clock = make(interval=0.08)
    for _ in range(1000):  # a fast model: 1000 pieces in one second
        coalescer.feed("x")
        clock.now += 0.001
    coalescer.flush()
    assert len(posted.messages) <= 1000 * 0.001 / 0.08 + 2
    assert posted.texts[-1] == "x" * 1000


def test_held_text_is_posted_by_the_timer_without_a_flush() -> None:
    posted = Posted()
    coalescer = ChunkCoalescer(1, posted, interval=0.05)
    coalescer.feed("first")
    posted.arrived.clear()
    coalescer.feed(" and the last words")
    assert posted.arrived.wait(timeout=10), "the timer posts what was held"
    assert posted.texts == ["first", "first and the last words"]


def test_empty_chunks_are_ignored() -> None:
    coalescer, posted, _ = make()
    coalescer.feed("")
    coalescer.flush()
    assert posted.messages == []


def test_a_cancelled_worker_abandons_the_grade() -> None:
    cancelled = False
    coalescer, _, _ = make(is_cancelled=lambda: cancelled)
    coalescer.feed("kept")
    cancelled = True
    with pytest.raises(GradeAbandoned):
        coalescer.feed("never shown")
    assert coalescer.text == "kept"


def test_cancel_drops_what_is_held() -> None:
    coalescer, posted, _ = make()
    coalescer.feed("a")
    coalescer.feed("b")
    coalescer.cancel()
    assert coalescer._timer is None, "no timer is left to post after a cancel"
    assert posted.texts == ["a"]


def test_a_newer_chunk_replaces_an_older_one_of_the_same_turn_only() -> None:
    assert GradeChunk(1, "ab").can_replace(GradeChunk(1, "a"))
    assert not GradeChunk(2, "ab").can_replace(GradeChunk(1, "a"))

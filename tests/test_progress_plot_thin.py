"""Thousands of sessions are drawn as the means of runs of sessions: the same line, at a fraction of the cost."""

from __future__ import annotations

from interviewer.progress_plot import MAX_POINTS, thinned


def test_few_points_are_kept_as_they_are() -> None:
    assert thinned([(1, 2.0), (2, 3.0)]) == [(1.0, 2.0), (2.0, 3.0)]


def test_many_points_become_run_means() -> None:
    points = [(x, float(x % 5)) for x in range(1, 10_001)]
    out = thinned(points)
    assert len(out) == MAX_POINTS
    assert out[0][0] < out[-1][0]
    assert abs(sum(v for _, v in out) / len(out) - sum(v for _, v in points) / len(points)) < 0.05

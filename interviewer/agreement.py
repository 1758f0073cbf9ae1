"""How well one set of 0-4 (or 0-100) scores agrees with another: the arithmetic of grading quality.

Shared by the offline grader's dev-set tests, ``benchmarks/bench_grading_quality.py``
and ``interviewer calibrate``, so every figure that says "this grader agrees
with the labels" is computed one way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks; tied values share the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rho as the Pearson correlation of average ranks (correct with ties); 0 when either is constant."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("need two sequences of the same length, at least 2")
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    if sx == 0 or sy == 0:
        return 0.0
    return cov / (sx * sy)


def exact_share(xs: Sequence[int], ys: Sequence[int]) -> float:
    """Share of pairs that agree exactly (0-4 levels)."""
    return sum(1 for a, b in zip(xs, ys, strict=True) if a == b) / len(xs) if xs else 0.0


def within_one_share(xs: Sequence[int], ys: Sequence[int]) -> float:
    """Share of pairs at most one level apart."""
    return sum(1 for a, b in zip(xs, ys, strict=True) if abs(a - b) <= 1) / len(xs) if xs else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` percentile (0-100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]

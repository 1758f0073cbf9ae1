"""Agreement of a grader with labelled answers: can I trust my grader?

``grade_labelled`` runs any grader over a labelled set (one grade at a time,
timing each, stoppable between grades) and ``agreement`` turns the results
into the figures people compare: Spearman per dimension and overall, exact
and within-one agreement, the fallback rate and its reasons, and median and
p95 latency.  ``interviewer calibrate`` and ``benchmarks/bench_grading_quality.py``
both use these, so a figure means the same thing wherever it is printed.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from interviewer.agreement import exact_share, percentile, spearman, within_one_share
from interviewer.content.loader import Library
from interviewer.content.schema import DIMENSIONS, Dimension
from interviewer.grading.types import FLAG_INJECTION, Grade, Grader
from interviewer.labelled import LabelledAnswer, request_for


@dataclass(frozen=True)
class Result:
    item: LabelledAnswer
    grade: Grade
    seconds: float


@dataclass(frozen=True)
class DimensionAgreement:
    n: int
    spearman: float | None
    exact: float
    within_one: float


@dataclass(frozen=True)
class Agreement:
    """How one grader's scores agree with the labels over a set of answers, and how fast and how often it fell back."""

    n: int
    overall_spearman: float | None
    dimensions: dict[Dimension, DimensionAgreement]
    fallback_rate: float
    fallback_reasons: dict[str, int] = field(default_factory=dict)
    median_s: float = 0.0
    p95_s: float = 0.0


def grade_labelled(
    grader: Grader,
    library: Library,
    items: Sequence[LabelledAnswer],
    *,
    on_result: Callable[[int, Result], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Result]:
    """Grade each labelled answer in order; stops early (keeping what is done) when ``should_stop`` says so."""
    out: list[Result] = []
    for item in items:
        if should_stop():
            break
        request = request_for(library, item)
        start = clock()
        grade = grader.grade(request)
        result = Result(item, grade, clock() - start)
        out.append(result)
        if on_result is not None:
            on_result(len(out), result)
    return out


def _rho(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    return spearman(xs, ys) if len(xs) >= 3 else None


def agreement(results: Sequence[Result]) -> Agreement:
    dims: dict[Dimension, DimensionAgreement] = {}
    for dim in DIMENSIONS:
        pairs = [
            (r.grade.dimensions[dim].score, level)
            for r in results
            if (level := r.item.labels.level(dim)) is not None and dim in r.grade.dimensions
        ]
        got, want = [p[0] for p in pairs], [p[1] for p in pairs]
        dims[dim] = DimensionAgreement(
            n=len(pairs),
            spearman=_rho(got, want),
            exact=exact_share(got, want),
            within_one=within_one_share(got, want),
        )
    reasons = Counter(r.grade.fallback_reason for r in results if r.grade.fallback_reason)
    seconds = [r.seconds for r in results]
    return Agreement(
        n=len(results),
        overall_spearman=_rho([r.grade.overall for r in results], [r.item.labels.overall for r in results]),
        dimensions=dims,
        fallback_rate=(sum(reasons.values()) / len(results)) if results else 0.0,
        fallback_reasons=dict(reasons),
        median_s=percentile(seconds, 50),
        p95_s=percentile(seconds, 95),
    )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _meets(value: float, op: str, target: float) -> bool:
    return value >= target if op == ">=" else value <= target


def quality_report(results: Sequence[Result]) -> dict[str, Any]:
    """Per-kind means, Spearman and the grading-quality targets of issue 9 for a blind labelled set."""
    by_kind: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_kind[r.item.kind].append(r)
    means = {k: _mean([r.grade.overall for r in rs]) for k, rs in sorted(by_kind.items())}
    excellent = means.get("excellent", 0.0) or 1.0
    figures = agreement(results)
    wrong = by_kind.get("wrong", [])
    wrong_numbers = by_kind.get("wrong_numbers", []) + [
        r for r in by_kind.get("followup_wrong", []) if r.item.labels.numbers is not None
    ]
    injections = by_kind.get("injection", [])
    good_follow_ups = by_kind.get("followup_good", [])
    salad = by_kind.get("salad", []) + by_kind.get("negated_salad", [])
    targets = [
        ("Spearman, overall vs label", figures.overall_spearman or 0.0, ">=", 0.85),
        ("paraphrase / excellent", means.get("paraphrase", 0.0) / excellent, ">=", 0.6),
        ("salad and negated salad / excellent", _mean([r.grade.overall for r in salad]) / excellent, "<=", 0.4),
        (
            "confidently wrong: mechanism <= 1",
            _mean([1.0 if r.grade.dimensions["mechanism"].score <= 1 else 0.0 for r in wrong]),
            ">=",
            0.8,
        ),
        (
            "wrong numbers: numbers <= 1",
            _mean([1.0 if r.grade.dimensions["numbers"].score <= 1 else 0.0 for r in wrong_numbers]),
            ">=",
            0.9,
        ),
        ("injection flagged", _mean([1.0 if FLAG_INJECTION in r.grade.flags else 0.0 for r in injections]), ">=", 0.95),
        ("correct follow-up answers (mean /100)", _mean([r.grade.overall for r in good_follow_ups]), ">=", 70.0),
    ]
    return {
        "answers": len(results),
        "questions": len({(r.item.case, r.item.question) for r in results}),
        "means": means,
        "spearman": {
            "overall": figures.overall_spearman,
            **{d: a.spearman for d, a in figures.dimensions.items()},
        },
        "targets": [
            {"measure": name, "value": value, "op": op, "target": target, "ok": _meets(value, op, target)}
            for name, value, op, target in targets
        ],
    }

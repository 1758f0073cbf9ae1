"""Loose floors on grading quality over the answers written blind (``tests/fixtures/blind/``).

The targets themselves (Spearman >= 0.85, paraphrase/excellent >= 0.6, ...) are
measured and printed by ``benchmarks/bench_grading_quality.py``; these floors
only catch a regression that would make the offline grade untrustworthy.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from interviewer.calibration import grade_labelled, quality_report
from interviewer.content.loader import load_library
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.labelled import load_labelled
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir
from tests.conftest import FIXTURES

BLIND = FIXTURES / "blind"

# One worker runs the whole module under pytest-xdist, so the blind set is graded once (``report`` is cached).
pytestmark = pytest.mark.xdist_group("blind-set")


@lru_cache(maxsize=1)
def report() -> dict[str, Any]:
    library = load_library([builtin_cases_dir()], [builtin_rubrics_dir()])
    items = load_labelled(sorted(BLIND.glob("*.yaml")))
    return quality_report(grade_labelled(KeywordGrader(), library, items))


def target(name: str) -> float:
    return float(next(t["value"] for t in report()["targets"] if t["measure"].startswith(name)))


def test_the_blind_set_is_large_and_broad() -> None:
    r = report()
    assert r["answers"] >= 200
    assert r["questions"] >= 24
    kinds = set(r["means"])
    assert {"excellent", "paraphrase", "salad", "negated_salad", "wrong", "injection", "followup_good"} <= kinds


@pytest.mark.parametrize(
    ("name", "floor"),
    [
        ("Spearman", 0.65),
        ("paraphrase / excellent", 0.35),
        ("confidently wrong", 0.4),
        ("wrong numbers", 0.65),
        ("injection flagged", 0.9),
        ("correct follow-up answers", 45.0),
    ],
)
def test_quality_stays_above_its_floor(name: str, floor: float) -> None:
    assert target(name) >= floor


def test_salad_stays_far_below_excellent() -> None:
    assert target("salad and negated salad") <= 0.3


def test_good_answers_outrank_bad_ones() -> None:
    means = report()["means"]
    assert means["excellent"] > means["partial"] > means["vague"]
    assert means["excellent"] > 3 * max(means["salad"], means["negated_salad"], means["copied"])
    assert means["followup_good"] > means["followup_wrong"]

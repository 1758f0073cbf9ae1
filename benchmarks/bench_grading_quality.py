"""Grading quality of the offline grader on answers written blind, against the issue's targets.

The answers in ``tests/fixtures/blind/`` were written by writers who saw only
the question prompts and the rubric, never the grader's code or the content's
aliases.  This prints the mean overall per kind of answer, Spearman per
dimension and overall, and each target with its figure and PASS/MISS.

    .venv/bin/python benchmarks/bench_grading_quality.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.calibration import Result, grade_labelled, summarize  # noqa: E402
from interviewer.content.loader import load_library  # noqa: E402
from interviewer.grading.offline.grader import KeywordGrader  # noqa: E402
from interviewer.grading.types import FLAG_INJECTION  # noqa: E402
from interviewer.labelled import load_labelled  # noqa: E402
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir  # noqa: E402

BLIND = ROOT / "tests" / "fixtures" / "blind"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _meets(value: float, op: str, target: float) -> bool:
    return value >= target if op == ">=" else value <= target


def measure(results: list[Result]) -> dict[str, object]:
    by_kind: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_kind[r.item.kind].append(r)
    means = {k: _mean([r.grade.overall for r in rs]) for k, rs in sorted(by_kind.items())}
    excellent = means.get("excellent", 0.0) or 1.0
    summary = summarize(results)
    wrong = by_kind.get("wrong", [])
    wrong_numbers = by_kind.get("wrong_numbers", []) + [
        r for r in by_kind.get("followup_wrong", []) if r.item.labels.numbers is not None
    ]
    injections = by_kind.get("injection", [])
    good_follow_ups = by_kind.get("followup_good", [])
    salad = by_kind.get("salad", []) + by_kind.get("negated_salad", [])
    targets = [
        ("Spearman, overall vs label", summary.overall_spearman or 0.0, ">=", 0.85),
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
            "overall": summary.overall_spearman,
            **{d: a.spearman for d, a in summary.dimensions.items()},
        },
        "targets": [
            {"measure": name, "value": value, "op": op, "target": target, "ok": _meets(value, op, target)}
            for name, value, op, target in targets
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("files", nargs="*", type=Path, help="labelled YAML files (default: tests/fixtures/blind/)")
    args = parser.parse_args()
    files = args.files or sorted(BLIND.glob("*.yaml"))
    library = load_library([builtin_cases_dir()], [builtin_rubrics_dir()])
    items = load_labelled(files)
    results = grade_labelled(KeywordGrader(), library, items)
    report = measure(results)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['answers']} answers over {report['questions']} questions, offline grader")
    print("\nmean overall per kind:")
    for kind, mean in report["means"].items():  # type: ignore[union-attr]
        print(f"  {kind:18} {mean:5.1f}")
    print("\nSpearman vs labels:")
    for name, rho in report["spearman"].items():  # type: ignore[union-attr]
        print(f"  {name:18} {'n/a' if rho is None else f'{rho:.3f}'}")
    print("\ntargets:")
    for t in report["targets"]:  # type: ignore[union-attr]
        mark = "PASS" if t["ok"] else "MISS"
        print(f"  {mark}  {t['measure']:42} {t['value']:.3f}  (target {t['op']} {t['target']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.calibration import grade_labelled, quality_report  # noqa: E402
from interviewer.content.loader import load_library  # noqa: E402
from interviewer.grading.offline.grader import KeywordGrader  # noqa: E402
from interviewer.labelled import load_labelled  # noqa: E402
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir  # noqa: E402

BLIND = ROOT / "tests" / "fixtures" / "blind"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("files", nargs="*", type=Path, help="labelled YAML files (default: tests/fixtures/blind/)")
    args = parser.parse_args()
    files = args.files or sorted(BLIND.glob("*.yaml"))
    library = load_library([builtin_cases_dir()], [builtin_rubrics_dir()])
    items = load_labelled(files)
    results = grade_labelled(KeywordGrader(), library, items)
    report = quality_report(results)
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

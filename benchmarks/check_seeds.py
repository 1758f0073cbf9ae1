"""Check the content against the seeds in ``../shared/seeds`` (authoring material that a clone does not have).

The test suite never reads outside the repository, so what the content tests
need from the seeds (how many questions each seed asks and what each is about)
is recorded in ``tests/fixtures/seed_facts.yaml``.  This script, run where the
seeds are present:

* extracts those facts from the seeds again and reports any difference from the
  fixture (``--write`` rewrites the fixture instead);
* runs the copy check: no sentence of a built-in case may reach a fuzzy
  similarity of 80 with a sentence of its seed.  It prints the closest match
  per case beside that target.

Run:  .venv/bin/python benchmarks/check_seeds.py [--seeds ../shared/seeds] [--write]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import content_checks as checks  # noqa: E402

SEED_PREFIXES = {case_id: f"{i:03d}_" for i, case_id in enumerate(checks.SEEDED_CASES)}
HEADER = """\
# What the content tests need to know about the seeds (../shared/seeds, which a clone does not have).
# Extracted by benchmarks/check_seeds.py; run it with --write after a seed changes.
"""


def seed_text(seeds: Path, case_id: str) -> str:
    [path] = sorted(seeds.glob(f"{SEED_PREFIXES[case_id]}*.txt"))
    return path.read_text(encoding="utf-8")


def _section(seed: str, start: str, end: str) -> list[str]:
    lines = seed.splitlines()
    begin = next(i for i, line in enumerate(lines) if line.strip() == start)
    stop = next(i for i, line in enumerate(lines) if i > begin and line.strip() == end)
    return lines[begin + 1 : stop]


def extract(seeds: Path) -> dict[str, Any]:
    """The facts each content test needs, per case id."""
    from tests.test_content_gpu_foundations import SEED_TO_BANK

    facts: dict[str, Any] = {}

    seed = seed_text(seeds, "gpu-foundations")
    lines = [line.strip() for line in seed.splitlines()]
    blocks = [lines[i - 3] for i, line in enumerate(lines) if line.startswith("Source / Inspiration:")]
    facts["gpu-foundations"] = {
        "header_total": sum(int(n) for n in re.findall(r"^(\d+) representative questions\.", seed, re.MULTILINE)),
        # The seed's answers are long; each is recorded by the mapping phrases it contains.
        "answered": [[p for p, _, _ in SEED_TO_BANK if p.lower() in block.lower()] for block in blocks],
    }

    seed = seed_text(seeds, "ai-infra-foundations")
    headings = re.findall(r"^(\d{2})([A-Z][^\n]*\?)[ \t]*$", seed, re.MULTILINE)
    facts["ai-infra-foundations"] = {"questions": [[int(n), text] for n, text in headings]}

    seed = seed_text(seeds, "infra-design")
    marker = "The interviewer asks:"
    asks = [line.split(marker, 1)[1].strip() for line in seed.splitlines() if marker in line]
    facts["infra-design"] = {"questions": asks}

    seed = seed_text(seeds, "systems-map")
    section = _section(seed, "Tradeoff Matrix", "Whiteboard Drills")
    header = next(i for i, line in enumerate(section) if line.startswith("TechniqueProblemMechanism"))
    rows = [line.strip() for line in section[header + 1 :] if line.strip()]
    drill_lines = [line.strip() for line in _section(seed, "Whiteboard Drills", "Interview Practice")]
    drills = [
        next(prev for prev in reversed(drill_lines[:i]) if prev)
        for i, line in enumerate(drill_lines)
        if line.startswith("Short answer:")
    ]
    from tests.test_content_systems_map import ESTIMATORS, MATRIX_ROWS

    facts["systems-map"] = {
        # A matrix row is recorded by the technique that starts it.
        "matrix_rows": [[k for k in MATRIX_ROWS if row.startswith(k)] for row in rows],
        "drills": drills,
        "estimators": [marker for marker in ESTIMATORS if marker in seed],
    }
    return facts


def copy_report(seeds: Path) -> bool:
    ok = True
    for case_id in SEED_PREFIXES:
        case = checks.builtin_case(case_id)
        seed = seed_text(seeds, case_id)
        best = checks.copied_sentences(checks.case_texts(case), seed, threshold=0)
        top = max((score for _, _, score in best), default=0.0)
        over = top >= checks.COPY_THRESHOLD
        ok &= not over
        print(f"  copy check {case_id:<22} closest {top:5.1f}   target < {checks.COPY_THRESHOLD:.0f}  "
              f"{'COPIED' if over else 'ok'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    parser.add_argument("--write", action="store_true", help="rewrite tests/fixtures/seed_facts.yaml")
    args = parser.parse_args()
    if not args.seeds.is_dir():
        print(f"no seeds at {args.seeds}; nothing to check", file=sys.stderr)
        return 2
    facts = extract(args.seeds)
    fixture = checks.SEED_FACTS_FILE
    if args.write:
        fixture.write_text(HEADER + yaml.safe_dump(facts, sort_keys=False, allow_unicode=True, width=200))
        print(f"wrote {fixture}")
    recorded = yaml.safe_load(fixture.read_text(encoding="utf-8"))
    same = recorded == facts
    print(f"  seed facts {'match' if same else 'DIFFER FROM'} {fixture.relative_to(ROOT)}")
    return 0 if copy_report(args.seeds) and same else 1


if __name__ == "__main__":
    sys.exit(main())

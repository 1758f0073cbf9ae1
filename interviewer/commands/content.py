"""``validate`` and ``cases``: check content files and list what can be practised."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from interviewer.commands import SubParsers, add_command
from interviewer.commands._common import load_library_for

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.content.loader import Problem


def register(sub: SubParsers) -> None:
    add_command(
        sub, "validate", validate, "check case and rubric files; prints file:line: field: problem",
        lambda p: p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or folders of YAML"),
    )
    add_command(
        sub, "cases", list_cases, "list every case and question bank",
        lambda p: p.add_argument("--json", action="store_true", help="print JSON"),
    )


def validate(args: argparse.Namespace, settings: Settings) -> int:
    """Check each file and print every problem in one pass: schema errors and what the file refers to."""
    from interviewer.content.loader import (
        ContentError,
        case_reference_problems,
        is_rubric_file,
        load_case,
        load_facts,
        load_lexicon,
        load_rubric,
        shared_kind,
        yaml_files,
    )

    files = yaml_files(args.paths)
    missing = [p for p in args.paths if not p.exists()]
    for path in missing:
        print(f"{path}: no such file or folder", file=sys.stderr)
    if not files and not missing:
        print("no YAML files found", file=sys.stderr)
        return 1
    library = load_library_for(settings, quiet=True)
    builtin = {case_id: library.sources[case_id] for case_id in library.builtin_ids}
    rubric_ids: set[str] = set(library.rubrics)
    existing = [p for p in files if p.exists()]
    rubric_files = [p for p in existing if is_rubric_file(p)]
    problems: dict[Path, list[Problem]] = {}
    # Rubrics first, so a case may name a rubric given later on the command line.
    for path in rubric_files:
        try:
            rubric_ids.add(load_rubric(path).id)
        except ContentError as exc:
            problems[path] = exc.problems
    for path in existing:
        if path in rubric_files:
            continue
        found: list[Problem] = []
        kind = shared_kind(path)
        try:
            if kind == "facts":
                load_facts(path)
            elif kind == "lexicon":
                load_lexicon(path)
            else:
                load_case(path)
        except ContentError as exc:
            found.extend(exc.problems)
        if kind is None:
            found.extend(case_reference_problems(path, rubric_ids, builtin))
        problems[path] = found
    for path in existing:
        for problem in problems.get(path, []):
            print(problem, file=sys.stderr)
        if not problems.get(path):
            print(f"ok {path}")
    failed = any(problems.values())
    return 1 if failed or missing else 0


def list_cases(args: argparse.Namespace, settings: Settings) -> int:
    lib = load_library_for(settings)
    if args.json:
        rows = [
            {
                "id": case.id,
                "title": case.title,
                "kind": case.kind,
                "minutes": case.minutes,
                "questions": [{"id": q.id, "prompt": q.prompt} for q in case.questions()],
            }
            for case in lib.cases.values()
        ]
        json.dump(rows, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for case in lib.cases.values():
        questions = case.questions()
        print(f"{case.id}  [{case.kind}]  {case.title}  ({case.minutes:g} min, {len(questions)} questions)")
        for q in questions:
            first = q.prompt.splitlines()[0] if q.prompt else ""
            print(f"    {q.id}: {first[:100]}")
    return 0

"""``validate`` and ``cases``: check content files and list what can be practised."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from interviewer.commands import SubParsers, add_command
from interviewer.commands._common import load_library_for
from interviewer.config import Settings
from interviewer.content.loader import (
    ContentError,
    is_rubric_file,
    load_case,
    load_facts,
    load_lexicon,
    load_rubric,
    shared_kind,
    yaml_files,
)


def register(sub: SubParsers) -> None:
    p = add_command(sub, "validate", validate, "check case and rubric files; prints file:line: field: problem")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or folders of YAML")
    p = add_command(sub, "cases", list_cases, "list every case and question bank")
    p.add_argument("--json", action="store_true", help="print JSON")


def validate(args: argparse.Namespace, settings: Settings) -> int:
    failed = 0
    files = yaml_files(args.paths)
    missing = [p for p in args.paths if not p.exists()]
    for path in missing:
        print(f"{path}: no such file or folder", file=sys.stderr)
    if not files and not missing:
        print("no YAML files found", file=sys.stderr)
        return 1
    library = load_library_for(settings, quiet=True)
    rubric_ids: set[str] = set(library.rubrics)
    for path in files:
        if not path.exists():
            continue
        try:
            if is_rubric_file(path):
                rubric = load_rubric(path)
                rubric_ids.add(rubric.id)
            elif shared_kind(path) == "facts":
                load_facts(path)
            elif shared_kind(path) == "lexicon":
                load_lexicon(path)
            else:
                case = load_case(path)
                if case.rubric not in rubric_ids:
                    print(f"{path}:1: rubric: unknown rubric {case.rubric!r}", file=sys.stderr)
                    failed += 1
                    continue
                builtin = library.sources.get(case.id)
                if case.id in library.builtin_ids and builtin is not None and builtin.resolve() != path.resolve():
                    print(f"{path}:1: id: case id {case.id!r} clashes with a built-in case", file=sys.stderr)
                    failed += 1
                    continue
        except ContentError as exc:
            failed += 1
            for problem in exc.problems:
                print(problem, file=sys.stderr)
            continue
        print(f"ok {path}")
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
    for row in rows:
        print(
            f"{row['id']}  [{row['kind']}]  {row['title']}  ({row['minutes']:g} min, {len(row['questions'])} questions)"
        )
        for q in row["questions"]:
            first = q["prompt"].splitlines()[0] if q["prompt"] else ""
            print(f"    {q['id']}: {first[:100]}")
    return 0

"""``transcripts``, ``show``, ``export``, ``regrade`` and ``progress``: work with saved sessions."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interviewer.commands import CommandError, Parser, SubParsers, add_command
from interviewer.commands._common import find_case, grader_for, load_library_for, store_for

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.content.schema import Case, Rubric
    from interviewer.grading.types import Grade, Grader
    from interviewer.transcripts import Transcript, TranscriptStore, Turn


def register(sub: SubParsers) -> None:
    add_command(sub, "transcripts", list_transcripts, "list saved sessions", _json_flag)
    add_command(sub, "show", show, "print one saved session", _show_arguments)
    add_command(sub, "export", export, "write one saved session to a file", _export_arguments)
    add_command(sub, "regrade", regrade_cmd,
                "grade saved sessions again with the current grader (each answer keeps its last 5 grades)",
                _regrade_arguments)
    add_command(sub, "progress", progress_cmd,
                "per-dimension scores over time (a plot), weakest questions and dimensions, the drill queue",
                _progress_arguments)


def _json_flag(p: Parser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")


def _show_arguments(p: Parser) -> None:
    p.add_argument("id", metavar="ID", help="transcript id (a unique prefix is enough)")
    p.add_argument("--format", choices=("md", "json"), default="md", help="md (default) or json")


def _export_arguments(p: Parser) -> None:
    _show_arguments(p)
    p.add_argument(
        "-o", "--output", type=Path, help="output file (default: .md beside the transcript, .json in this folder)"
    )


def _regrade_arguments(p: Parser) -> None:
    p.add_argument("id", metavar="ID", nargs="?", help="transcript id (a unique prefix is enough)")
    p.add_argument("--all", action="store_true", help="regrade every saved session")
    p.add_argument("--json", action="store_true", help="print the new grades as JSON")


def _progress_arguments(p: Parser) -> None:
    p.add_argument("--case", metavar="ID", help="only sessions of this case")
    _json_flag(p)


def _load(args: argparse.Namespace, settings: Settings) -> tuple[TranscriptStore, Transcript]:
    from interviewer.transcripts import TranscriptError

    store = store_for(settings)
    try:
        return store, store.load(args.id)
    except TranscriptError as exc:
        raise CommandError(str(exc), code=2 if "no transcript" in str(exc) or "ambiguous" in str(exc) else 1) from None


def list_transcripts(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.transcripts import TranscriptError

    store = store_for(settings)
    try:
        store.files()
    except TranscriptError as exc:
        raise CommandError(str(exc)) from None
    summaries, problems = store.summaries()
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if args.json:
        json.dump([s.as_json() for s in summaries], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not summaries:
        print(f"no saved sessions in {store.root}")
        return 0
    for s in summaries:
        overall = "-" if s.overall is None else f"{s.overall:>3}"
        print(f"{s.id}  {s.case_id:<22} {s.started[:16]}  {s.status:<11} {overall}  {s.grader or '-'}")
    return 0


def _case_or_none(settings: Settings, case_id: str) -> Case | None:
    return load_library_for(settings, quiet=True).cases.get(case_id)


def show(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.export import transcript_json, transcript_markdown

    _, transcript = _load(args, settings)
    if args.format == "json":
        sys.stdout.write(transcript_json(transcript) + "\n")
    else:
        sys.stdout.write(transcript_markdown(transcript, _case_or_none(settings, transcript.case_id)))
    return 0


def export(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.export import default_export_path, write_export
    from interviewer.transcripts import TranscriptError

    store, transcript = _load(args, settings)
    case = _case_or_none(settings, transcript.case_id) if args.format == "md" else None
    try:
        out = write_export(transcript, case, store, args.output, args.format)
    except TranscriptError as exc:
        raise CommandError(f"--output: {exc}", code=2) from None
    except OSError as exc:
        where = args.output or default_export_path(store, transcript, args.format)
        raise CommandError(f"--output: cannot write {where}: {exc.strerror or exc}") from None
    print(out)
    return 0


def regrade_cmd(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.transcripts import TranscriptError

    if bool(args.id) == bool(args.all):
        raise CommandError("regrade: give one transcript ID or --all", code=2)
    store = store_for(settings)
    if args.all:
        summaries, problems = store.summaries()
        for problem in problems:
            print(f"warning: {problem}", file=sys.stderr)
        paths = [s.path for s in reversed(summaries)]  # oldest first
    else:
        paths = [_resolve(store, args.id)]
    lib = load_library_for(settings)
    grader = grader_for(settings)
    results: list[dict[str, Any]] = []
    for path in paths:
        try:
            transcript = store.load_path(path)
        except TranscriptError as exc:
            if not args.all:
                raise CommandError(str(exc)) from None
            print(f"warning: skipped {exc}", file=sys.stderr)
            continue
        case = lib.cases.get(transcript.case_id)
        if case is None:
            message = f"transcript {transcript.id}: its case {transcript.case_id!r} is not installed"
            if not args.all:
                raise CommandError(message)
            print(f"warning: skipped {message}", file=sys.stderr)
            continue
        if args.all and not args.json:
            print(f"{transcript.id}:")
        results.append(_regrade_one(transcript, case, lib.rubric_for(case), grader, store, quiet=args.json))
    if args.json:
        json.dump(results if args.all else results[0], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.all:
        print(f"regraded {sum(r['regraded'] for r in results)} answers in {len(results)} sessions")
    return 0


def _resolve(store: TranscriptStore, ref: str) -> Path:
    from interviewer.transcripts import TranscriptError

    try:
        return store.resolve(ref)
    except TranscriptError as exc:
        raise CommandError(str(exc), code=2 if "no transcript" in str(exc) or "ambiguous" in str(exc) else 1) from None


def _regrade_one(
    transcript: Transcript, case: Case, rubric: Rubric, grader: Grader, store: TranscriptStore, *, quiet: bool
) -> dict[str, Any]:
    """Regrade one session, printing a line per answer unless ``quiet``; its JSON summary."""
    from interviewer.regrade import regrade

    rows: list[dict[str, Any]] = []

    def report(turn: Turn, old: Grade | None, new: Grade) -> None:
        rows.append(
            {
                "turn": turn.id,
                "question": turn.question_id,
                "old": None if old is None else old.overall,
                "new": new.overall,
                "grader": new.grader,
                "fallback_reason": new.fallback_reason,
                "history": len(turn.previous_grades),
            }
        )
        if not quiet:
            before = "-" if old is None else old.overall
            why = f" (fallback: {new.fallback_reason})" if new.fallback_reason else ""
            print(f"turn {turn.id} {turn.question_id}: {before} -> {new.overall} [{new.grader}]{why}")

    count = regrade(transcript, case, rubric, grader, store, on_turn=report)
    if not quiet:
        if count == 0:
            print("nothing to regrade: the session has no answers")
        else:
            print(f"regraded {count} answers; overall now {transcript.overall}")
    return {"id": transcript.id, "regraded": count, "overall": transcript.overall, "turns": rows}


def progress_cmd(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.drills import DrillStore
    from interviewer.progress import progress
    from interviewer.progress_plot import progress_text

    if args.case:
        find_case(load_library_for(settings, quiet=True), args.case)
    digests, problems = store_for(settings).digests()  # through the summary index: no transcript parsed twice
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    result = progress([d for d in digests if not args.case or d.case_id == args.case])
    queue = DrillStore(settings.transcripts_dir).queue()
    if args.json:
        json.dump({**result.as_json(), "drill_queue": queue.as_json(args.case)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif not result.sessions:
        print(f"no graded sessions in {settings.transcripts_dir} yet: run one with `interviewer run CASE`")
    else:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns))
        sys.stdout.write(progress_text(result, queue, args.case, width=width, color=color))
    return 0

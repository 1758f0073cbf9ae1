"""``transcripts``, ``show``, ``export``, ``regrade`` and ``progress``: work with saved sessions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from interviewer.cli import CommandError, add_command

if TYPE_CHECKING:
    from interviewer.transcripts import Transcript, TranscriptStore


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "transcripts", list_transcripts, "list saved sessions")
    p.add_argument("--json", action="store_true", help="print JSON")
    p = add_command(sub, "show", show, "print one saved session")
    p.add_argument("id", metavar="ID", help="transcript id (a unique prefix is enough)")
    p.add_argument("--format", choices=("md", "json"), default="md", help="md (default) or json")
    p = add_command(sub, "export", export, "write one saved session to a file")
    p.add_argument("id", metavar="ID", help="transcript id (a unique prefix is enough)")
    p.add_argument("--format", choices=("md", "json"), default="md", help="md (default) or json")
    p.add_argument(
        "-o", "--output", type=Path, help="output file (default: .md beside the transcript, .json in this folder)"
    )
    p = add_command(sub, "regrade", regrade_cmd, "grade a saved session again with the current grader")
    p.add_argument("id", metavar="ID", help="transcript id (a unique prefix is enough)")
    p.add_argument("--json", action="store_true", help="print the new grades as JSON")
    p = add_command(sub, "progress", progress_cmd, "per-dimension trend across your sessions")
    p.add_argument("--case", metavar="ID", help="only sessions of this case")
    p.add_argument("--json", action="store_true", help="print JSON")


def _load(args: argparse.Namespace) -> tuple[TranscriptStore, Transcript]:
    from interviewer.commands.common import store_for
    from interviewer.transcripts import TranscriptError

    store = store_for(args)
    try:
        return store, store.load(args.id)
    except TranscriptError as exc:
        raise CommandError(str(exc), code=2 if "no transcript" in str(exc) or "ambiguous" in str(exc) else 1) from None


def list_transcripts(args: argparse.Namespace) -> int:
    from interviewer.commands.common import store_for
    from interviewer.transcripts import TranscriptError

    store = store_for(args)
    try:
        store.files()
    except TranscriptError as exc:
        raise CommandError(str(exc)) from None
    summaries, problems = store.list()
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if args.json:
        json.dump([s.as_json() for s in summaries], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not summaries:
        print("no saved sessions yet")
        return 0
    for s in summaries:
        overall = "-" if s.overall is None else f"{s.overall:>3}"
        print(f"{s.id}  {s.case_id:<22} {s.started[:16]}  {s.status:<11} {overall}  {s.grader or '-'}")
    return 0


def _case_or_none(args: argparse.Namespace, case_id: str):
    from interviewer.commands.common import load_library_for

    return load_library_for(args, quiet=True).cases.get(case_id)


def show(args: argparse.Namespace) -> int:
    from interviewer.export import transcript_json, transcript_markdown

    _, transcript = _load(args)
    if args.format == "json":
        sys.stdout.write(transcript_json(transcript) + "\n")
    else:
        sys.stdout.write(transcript_markdown(transcript, _case_or_none(args, transcript.case_id)))
    return 0


def export(args: argparse.Namespace) -> int:
    from interviewer.export import transcript_json, transcript_markdown
    from interviewer.transcripts import TranscriptError

    store, transcript = _load(args)
    text = (
        transcript_json(transcript) + "\n"
        if args.format == "json"
        else transcript_markdown(transcript, _case_or_none(args, transcript.case_id))
    )
    # Markdown goes beside the transcript; a JSON copy goes to the current folder, because a
    # .json in the transcripts dir would be listed as a second copy of the session.
    default = store.path_for(transcript.id).with_suffix(".md") if args.format == "md" else Path(f"{transcript.id}.json")
    out = args.output or default
    try:
        store.check_export_target(out)
    except TranscriptError as exc:
        raise CommandError(f"--output: {exc}", code=2) from None
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--output: cannot write {out}: {exc.strerror or exc}") from None
    print(out)
    return 0


def regrade_cmd(args: argparse.Namespace) -> int:
    from interviewer.commands.common import grader_for, load_library_for
    from interviewer.regrade import regrade

    store, transcript = _load(args)
    lib = load_library_for(args)
    case = lib.cases.get(transcript.case_id)
    if case is None:
        raise CommandError(f"transcript {transcript.id}: its case {transcript.case_id!r} is not installed")
    grader = grader_for(args)
    rows = []

    def report(turn, old, new) -> None:
        rows.append(
            {
                "turn": turn.id,
                "question": turn.question_id,
                "old": None if old is None else old.overall,
                "new": new.overall,
                "grader": new.grader,
                "fallback_reason": new.fallback_reason,
            }
        )
        if not args.json:
            before = "-" if old is None else old.overall
            why = f" (fallback: {new.fallback_reason})" if new.fallback_reason else ""
            print(f"turn {turn.id} {turn.question_id}: {before} -> {new.overall} [{new.grader}]{why}")

    count = regrade(transcript, case, lib.rubric_for(case), grader, store, on_turn=report)
    if args.json:
        json.dump(
            {"id": transcript.id, "regraded": count, "overall": transcript.overall, "turns": rows},
            sys.stdout,
            indent=2,
            ensure_ascii=False,
        )
        sys.stdout.write("\n")
    elif count == 0:
        print("nothing to regrade: the session has no answers")
    else:
        print(f"regraded {count} answers; overall now {transcript.overall}")
    return 0


def progress_cmd(args: argparse.Namespace) -> int:
    from interviewer.commands.common import store_for
    from interviewer.progress import progress

    if args.case:
        from interviewer.commands.common import find_case, load_library_for

        find_case(load_library_for(args, quiet=True), args.case)
    loaded, problems = store_for(args).load_all()
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    result = progress([t for _, t in loaded if not args.case or t.case_id == args.case])
    if args.json:
        json.dump(result.as_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(result.as_text())
    return 0

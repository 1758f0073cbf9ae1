"""``score``: grade one answer to one question, from a file or stdin."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from interviewer.answers import MAX_ANSWER_CHARS, AnswerError, decode_answer
from interviewer.commands import CommandError, Parser, SubParsers, add_command
from interviewer.commands._common import find_case, find_question, grader_for, load_library_for

if TYPE_CHECKING:
    from interviewer.config import Settings


def register(sub: SubParsers) -> None:
    add_command(sub, "score", score, "grade one answer (from --answer-file or stdin)", _arguments)


def _arguments(p: Parser) -> None:
    p.add_argument("--case", required=True, metavar="ID", help="case or bank id")
    p.add_argument("--question", required=True, metavar="QID", help="question id within the case")
    p.add_argument(
        "--follow-up", type=int, metavar="N", help="grade an answer to the question's N-th scripted follow-up (1-based)"
    )
    p.add_argument("--answer-file", type=Path, metavar="F", help="file holding the answer; stdin when omitted")
    p.add_argument("--json", action="store_true", help="print the grade as JSON")


def read_answer(path: Path | None) -> str:
    limit = MAX_ANSWER_CHARS * 4 + 1  # UTF-8 is at most 4 bytes a character; read no more than that
    source = "stdin" if path is None else str(path)
    try:
        if path is None:
            if sys.stdin is None:
                raise CommandError("stdin: no answer given (use --answer-file or pipe the answer in)", code=2)
            data = sys.stdin.buffer.read(limit)
        else:
            with path.open("rb") as fh:
                data = fh.read(limit)
    except OSError as exc:
        raise CommandError(f"--answer-file: cannot read {path}: {exc.strerror or exc}", code=2) from None
    try:
        return decode_answer(data, source, complete=len(data) < limit)
    except AnswerError as exc:
        raise CommandError(str(exc), code=2) from None


def score(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.export import grade_markdown
    from interviewer.followup import choose_probe
    from interviewer.grading.types import GradeRequest

    lib = load_library_for(settings)
    case = find_case(lib, args.case)
    question = find_question(case, args.question)
    target, parent = question, None
    if args.follow_up is not None:
        count = len(question.follow_ups)
        if not 1 <= args.follow_up <= count:
            scripted = f"1 to {count}" if count else "none"
            raise CommandError(
                f"--follow-up: {args.follow_up} is out of range for {question.id!r} (scripted follow-ups: {scripted})",
                code=2,
            )
        target, parent = question.follow_up_question(args.follow_up), question
    answer = read_answer(args.answer_file)
    grader = grader_for(settings)
    request = GradeRequest(case=case, rubric=lib.rubric_for(case), question=target, parent=parent, answer=answer)
    grade = grader.grade(request)
    # What the session would ask next (it asks one follow-up per question, never one after a follow-up).
    probe = choose_probe(question, grade, [question.prompt]) if parent is None else None
    follow_up = grader.word(request, grade, probe) if probe is not None else None
    if args.json:
        out = grade.model_dump(mode="json")
        out["follow_up"] = follow_up
        json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n".join(grade_markdown(grade)))
        if follow_up:
            print(f"\nFollow-up: {follow_up}")
    return 0

"""Helpers shared by subcommands: the content library, the store and the grader, all from one ``Settings``.

Each helper imports what it builds when it is called: command modules import
this one at registration, which must cost only argparse (see ``commands``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from interviewer.commands import CommandError

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.content.loader import Library
    from interviewer.content.schema import Case, Question
    from interviewer.grading.policy import FallbackGrader
    from interviewer.transcripts import TranscriptStore


def load_library_for(settings: Settings, *, quiet: bool = False) -> Library:
    """Load built-in cases plus ``--cases-dir``; report problems as one line each on stderr."""
    from interviewer.content.loader import load_library
    from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir

    case_dirs = [builtin_cases_dir()]
    rubric_dirs = [builtin_rubrics_dir()]
    if settings.cases_dir is not None:
        case_dirs.append(settings.cases_dir)
        rubric_dirs.append(settings.cases_dir / "rubrics")
    lib = load_library(case_dirs, rubric_dirs)
    if not quiet:
        for problem in lib.problems:
            print(f"warning: {problem}", file=sys.stderr)
    return lib


def find_case(lib: Library, case_id: str) -> Case:
    """The case with ``case_id``, or a one-line error naming the known ids."""
    case = lib.cases.get(case_id)
    if case is None:
        known = ", ".join(sorted(lib.cases)) or "none"
        raise CommandError(f"--case: unknown case {case_id!r} (known: {known})", code=2)
    return case


def find_question(case: Case, question_id: str) -> Question:
    """The question with ``question_id`` in ``case``, or a one-line error naming the known ids."""
    question = case.question(question_id)
    if question is None:
        known = ", ".join(q.id for q in case.questions())
        raise CommandError(f"--question: case {case.id!r} has no question {question_id!r} (known: {known})", code=2)
    return question


def store_for(settings: Settings) -> TranscriptStore:
    """The transcript folder the settings name."""
    from interviewer.transcripts import TranscriptStore

    return TranscriptStore(settings.transcripts_dir)


def grader_for(settings: Settings) -> FallbackGrader:
    """The configured grader: the model behind the endpoint with the offline fallback, or offline only."""
    from interviewer.grading.policy import build_grader

    return build_grader(settings)

"""Helpers shared by subcommands: loading settings and the content library."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from interviewer.content.loader import Library, load_library
from interviewer.content.schema import Case, Question
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir
from interviewer.transcripts import TranscriptStore

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.grading.policy import FallbackGrader


def settings_for(args: argparse.Namespace) -> Settings:
    """The settings for this command, resolved once: the library, store and grader share them."""
    settings = getattr(args, "_settings", None)
    if settings is None:
        from interviewer.config import load_settings

        settings = load_settings(args)
        args._settings = settings
    return settings


def load_library_for(args: argparse.Namespace, *, quiet: bool = False) -> Library:
    """Load built-in cases plus ``--cases-dir``; report problems as one line each on stderr."""
    settings = settings_for(args)
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
    from interviewer.cli import CommandError

    case = lib.cases.get(case_id)
    if case is None:
        known = ", ".join(sorted(lib.cases)) or "none"
        raise CommandError(f"--case: unknown case {case_id!r} (known: {known})", code=2)
    return case


def find_question(case: Case, question_id: str) -> Question:
    from interviewer.cli import CommandError

    question = case.question(question_id)
    if question is None:
        known = ", ".join(q.id for q in case.questions())
        raise CommandError(f"--question: case {case.id!r} has no question {question_id!r} (known: {known})", code=2)
    return question


def store_for(args: argparse.Namespace) -> TranscriptStore:
    return TranscriptStore(settings_for(args).transcripts_dir)


def grader_for(args: argparse.Namespace) -> FallbackGrader:
    """The configured grader: the model behind the endpoint with the offline fallback, or offline only."""
    from interviewer.grading.policy import build_grader

    return build_grader(settings_for(args))

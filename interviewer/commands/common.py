"""Helpers shared by subcommands: loading settings and the content library."""

from __future__ import annotations

import argparse
import sys

from interviewer.content.loader import Library, load_library
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir


def load_library_for(args: argparse.Namespace, *, quiet: bool = False) -> Library:
    """Load built-in cases plus ``--cases-dir``; report problems as one line each on stderr."""
    from interviewer.config import load_settings

    settings = load_settings(args)
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

"""``run``, ``review`` and the home screen (no subcommand): the commands that open the Textual app.

These paint first.  They are registered with ``add_app_command``, so the CLI
hands them the parsed flags without resolving the settings: in a terminal the
app draws its first frame, then builds the whole ``Environment`` (settings,
library, grader, store) in a worker.  A settings problem or an unknown case id
found then is reported on stderr as one line (exit 2) once the app has left
the screen.  Without a terminal the environment is built first, so a bad case
id is still reported before the terminal check.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from interviewer.commands import CommandError, Parser, SubParsers, add_app_command
from interviewer.tui.start import Deferred, Environment, Home, Review, Run, StartSpec

if TYPE_CHECKING:
    from interviewer.config import Settings


def register(sub: SubParsers) -> None:
    add_app_command(sub, "run", run_case, "start a timed mock interview on a case or question bank", _run_arguments)
    add_app_command(sub, "review", review, "browse, regrade and export saved sessions in the terminal UI")


def _run_arguments(p: Parser) -> None:
    p.add_argument("case", metavar="CASE", help="case id (see 'interviewer cases')")
    p.add_argument("--minutes", type=float, default=None, metavar="N",
                   help="fit the session into N minutes (phase budgets are scaled)")
    p.add_argument("--practice", action="store_true", default=None,
                   help="practice mode: the clock can be paused (default for question banks)")
    timing = p.add_mutually_exclusive_group()
    timing.add_argument("--strict", dest="phase_timeout", action="store_const", const="strict", default=None,
                        help="move on as soon as a phase's time is up")
    timing.add_argument("--soft", dest="phase_timeout", action="store_const", const="soft",
                        help="let the candidate finish the current answer when time is up (default)")


def environment_for(settings: Settings) -> Environment:
    """Everything the app works with, built from the settings (slow: pydantic, the case files, the client)."""
    from interviewer.commands._common import grader_for, load_library_for, store_for

    return Environment(settings, load_library_for(settings, quiet=True), grader_for(settings), store_for(settings))


def open_app(load_settings: Callable[[], Settings], start: StartSpec) -> int:
    """Open the app on ``start``; ``load_settings`` runs after the first frame when there is a terminal."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        env = environment_for(load_settings())
        unknown = env.library.unknown_case(start.case_id) if isinstance(start, Run) else None
        if unknown is not None:
            raise CommandError(unknown, code=2)
        raise CommandError("the interactive app needs a terminal (stdin and stdout must be a TTY)", code=2)
    # Textual costs a noticeable share of start-up; only the commands that open the app import it.
    from interviewer.tui.app import create_app

    app = create_app(Deferred(lambda: environment_for(load_settings())), start=start)
    result = app.run()
    if app.startup_error:
        raise CommandError(app.startup_error, code=app.startup_code)
    return result if isinstance(result, int) else 0


def run_case(args: argparse.Namespace, load_settings: Callable[[], Settings]) -> int:
    if args.minutes is not None and not 0 < args.minutes <= 600:
        raise CommandError("--minutes must be greater than 0 and at most 600", code=2)
    return open_app(load_settings, Run(args.case, args.minutes, args.practice, args.phase_timeout))


def review(args: argparse.Namespace, load_settings: Callable[[], Settings]) -> int:
    return open_app(load_settings, Review())


def home(args: argparse.Namespace, load_settings: Callable[[], Settings]) -> int:
    """``interviewer`` with no subcommand: the home screen."""
    return open_app(load_settings, Home())

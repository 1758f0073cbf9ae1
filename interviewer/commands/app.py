"""``run``, ``review`` and the home screen (no subcommand): the commands that open the Textual app.

Textual and the app are imported inside ``_open`` only, so ``interviewer
--help`` and every other subcommand start without paying for them.  A bad case
id is reported on stderr (one line, exit 2) before the app starts, so the
terminal is never taken over just to show an error.
"""

from __future__ import annotations

import argparse
import sys

from interviewer.commands import CommandError, SubParsers, add_command
from interviewer.commands._common import grader_for, load_library_for, store_for
from interviewer.config import Settings
from interviewer.tui.start import Home, Review, Run, StartSpec


def register(sub: SubParsers) -> None:
    p = add_command(sub, "run", run_case, "start a timed mock interview on a case or question bank")
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
    add_command(sub, "review", review, "browse, regrade and export saved sessions in the terminal UI")


def _require_terminal() -> None:
    """The app needs a terminal; without one it would draw into a pipe while the clock runs."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CommandError("the interactive app needs a terminal (stdin and stdout must be a TTY)", code=2)


def _open(settings: Settings, start: StartSpec) -> int:
    """Build everything the app needs from the settings and run it.

    In a terminal the app paints first: the library and the grader go in as
    ``Deferred`` loaders, built in a worker after the first frame, and a bad
    case id is reported on stderr (exit 2) once the app has left the screen.
    """
    if sys.stdin.isatty() and sys.stdout.isatty():
        return _open_painting_first(settings, start)
    library = load_library_for(settings, quiet=True)
    if isinstance(start, Run) and start.case_id not in library.cases:
        known = ", ".join(sorted(library.cases)) or "none (check --cases-dir)"
        broken = (
            f" ({len(library.problems)} problems loading content; see 'interviewer validate')"
            if library.problems
            else ""
        )
        raise CommandError(f"unknown case {start.case_id!r}; available: {known}{broken}", code=2)
    _require_terminal()
    # Textual costs a noticeable share of start-up; only the commands that open the app import it.
    from interviewer.tui.app import create_app

    app = create_app(settings, library, grader_for(settings), store_for(settings), start=start)
    result = app.run()
    return result if isinstance(result, int) else 0


def _open_painting_first(settings: Settings, start: StartSpec) -> int:
    from interviewer.tui.app import Deferred, create_app

    app = create_app(
        settings,
        Deferred(lambda: load_library_for(settings, quiet=True)),
        Deferred(lambda: grader_for(settings)),
        store_for(settings),
        start=start,
    )
    result = app.run()
    if app.startup_error:
        raise CommandError(app.startup_error, code=result if isinstance(result, int) and result else 1)
    return result if isinstance(result, int) else 0


def run_case(args: argparse.Namespace, settings: Settings) -> int:
    if args.minutes is not None and not 0 < args.minutes <= 600:
        raise CommandError("--minutes must be greater than 0 and at most 600", code=2)
    return _open(settings, Run(args.case, args.minutes, args.practice, args.phase_timeout))


def review(args: argparse.Namespace, settings: Settings) -> int:
    return _open(settings, Review())


def run_home(args: argparse.Namespace, settings: Settings) -> int:
    """``interviewer`` with no subcommand: the home screen."""
    return _open(settings, Home())

"""``run``, ``review`` and the home screen (no subcommand): the commands that open the Textual app.

Textual and the app are imported inside the handlers, so ``interviewer --help``
and every other subcommand start without paying for them.  A bad case id is
reported on stderr (one line, exit 2) before the app starts, so the terminal
is never taken over just to show an error.
"""

from __future__ import annotations

import argparse

from interviewer.cli import CommandError, add_command


def register(sub: argparse._SubParsersAction) -> None:
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
    import sys

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CommandError("the interactive app needs a terminal (stdin and stdout must be a TTY)", code=2)


def _open(args: argparse.Namespace, start: object) -> int:
    """Build everything the app needs from the settings and run it."""
    from interviewer.commands.common import load_library_for, settings_for
    from interviewer.grading.policy import build_grader
    from interviewer.transcripts import TranscriptStore

    settings = settings_for(args)
    library = load_library_for(args, quiet=True)
    if start is not None and getattr(start, "case_id", None) is not None:
        case_id = start.case_id  # type: ignore[attr-defined]
        if case_id not in library.cases:
            known = ", ".join(sorted(library.cases)) or "none (check --cases-dir)"
            broken = f" ({len(library.problems)} problems loading content; see 'interviewer validate')" \
                if library.problems else ""
            raise CommandError(f"unknown case {case_id!r}; available: {known}{broken}", code=2)
    _require_terminal()
    grader = build_grader(settings)
    store = TranscriptStore(settings.transcripts_dir)

    from interviewer.tui.app import create_app
    from interviewer.tui.start import Home

    app = create_app(settings, library, grader, store, start=start or Home())  # type: ignore[arg-type]
    result = app.run()
    return result if isinstance(result, int) else 0


def run_case(args: argparse.Namespace) -> int:
    if args.minutes is not None and not 0 < args.minutes <= 600:
        raise CommandError("--minutes must be greater than 0 and at most 600", code=2)
    from interviewer.tui.start import Run

    return _open(args, Run(args.case, args.minutes, args.practice, args.phase_timeout))


def review(args: argparse.Namespace) -> int:
    from interviewer.tui.start import Review

    return _open(args, Review())


def run_home(args: argparse.Namespace) -> int:
    """``interviewer`` with no subcommand: the home screen."""
    return _open(args, None)

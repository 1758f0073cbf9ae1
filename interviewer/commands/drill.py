"""``drill``: a short timed session of the questions due for review (spaced repetition, see ``interviewer.drills``).

Everything that can go wrong is checked before the app takes the terminal:
an unknown case or dimension and a bad count are one line and exit 2;
nothing due is one line saying when the next question is due, and exit 0.
The drill itself is an ordinary session opened the way ``run`` opens one.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from interviewer.commands import CommandError, Parser, SubParsers, add_command
from interviewer.commands._common import load_library_for
from interviewer.commands.app import open_app
from interviewer.dimensions import DIMENSIONS
from interviewer.drill_size import DEFAULT_COUNT, MAX_COUNT
from interviewer.tui.start import Drill

if TYPE_CHECKING:
    from interviewer.config import Settings


def register(sub: SubParsers) -> None:
    add_command(sub, "drill", drill, "a short timed session of the questions due for review", _arguments)


def _arguments(p: Parser) -> None:
    p.add_argument("--case", metavar="ID", help="drill this case (default: the case with the most due questions)")
    p.add_argument("--dimension", metavar="D", help=f"only questions weak on D ({', '.join(DIMENSIONS)})")
    p.add_argument("--count", type=int, default=DEFAULT_COUNT, metavar="N",
                   help=f"at most N questions (default {DEFAULT_COUNT}, at most {MAX_COUNT})")
    p.add_argument("--minutes", type=float, default=None, metavar="M",
                   help="fit the drill into M minutes (default: each question's share of its phase)")
    p.add_argument("--plan", action="store_true", help="print the questions the drill would ask, and exit")


def drill(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.drills import DrillError, DrillStore, plan_drill, when_text

    if args.dimension is not None and args.dimension not in DIMENSIONS:
        raise CommandError(f"--dimension: unknown dimension {args.dimension!r} (known: {', '.join(DIMENSIONS)})",
                           code=2)
    if not 1 <= args.count <= MAX_COUNT:
        raise CommandError(f"--count must be between 1 and {MAX_COUNT}", code=2)
    if args.minutes is not None and not 0 < args.minutes <= 600:
        raise CommandError("--minutes must be greater than 0 and at most 600", code=2)
    library = load_library_for(settings, quiet=True)
    if args.case is not None and args.case not in library.cases:
        known = ", ".join(sorted(library.cases)) or "none"
        raise CommandError(f"--case: unknown case {args.case!r} (known: {known})", code=2)
    queue = DrillStore(settings.transcripts_dir).queue()
    try:
        plan = plan_drill(queue, library.cases, case_id=args.case, dimension=args.dimension, count=args.count)
    except DrillError as exc:
        raise CommandError(str(exc), code=2) from None
    if plan is None:
        nxt = queue.next_due(args.case)
        where = f" in {args.case}" if args.case else ""
        if nxt is not None:
            print(f"Nothing is due{where}. The next question is due {when_text(nxt, queue.now)}.")
        else:
            print(f"Nothing is due{where}: answer some questions first ('interviewer run CASE'); "
                  "drills bring back the ones you found hard.")
        return 0
    minutes = args.minutes if args.minutes is not None else plan.minutes
    if args.plan:
        print(f"{plan.case.id}: {len(plan.question_ids)} questions, {minutes:g} min")
        for qid in plan.question_ids:
            print(f"  {qid}{'  (new)' if qid in plan.new_ids else ''}")
        return 0
    return open_app(lambda: settings, Drill(plan.case.id, tuple(plan.question_ids), args.minutes))

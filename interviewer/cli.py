"""Command-line entry point.  Every subcommand is a thin call into the domain.

``main`` parses the flags and runs the command.  An ordinary command gets the
settings resolved once (flag > env > file > default); a command that opens
the app gets the means to resolve them, and does so after its first frame is
painted (see ``interviewer.commands``).  Problems the user can fix
(``UserError``: a bad flag, a bad config, an unknown id) are printed as one
line with their exit code, never as a traceback.

This module imports nothing heavy at the top: parsing costs only argparse.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from interviewer import __version__
from interviewer.commands import Parser, SubParsers, add_common_options, register_all
from interviewer.commands.app import home
from interviewer.errors import UserError

if TYPE_CHECKING:
    from interviewer.config import Settings

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The full parser: the common options, then every command module's subcommands."""
    parser = Parser(
        prog="interviewer",
        description="Timed, graded mock interviews for AI-infrastructure roles.",
    )
    parser.add_argument("--version", action="version", version=f"interviewer {__version__}")
    add_common_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    assert isinstance(sub, SubParsers)  # Parser registers it as its subparsers action
    register_all(sub)
    parser.set_defaults(handler=None, app_handler=home)
    return parser


def resolve_settings(args: argparse.Namespace) -> Settings:
    """The settings for this run (flag > env > file > default); pydantic loads here, as late as it can."""
    from interviewer.config import load_settings

    return load_settings(args)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(args_list)
        if args.handler is None:  # a command that opens the app: it resolves the settings after painting
            return int(args.app_handler(args, lambda: resolve_settings(args)))
        return int(args.handler(args, resolve_settings(args)))
    except UserError as exc:
        print(f"interviewer: error: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("interviewer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

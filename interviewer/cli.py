"""Command-line entry point.  Every subcommand is a thin call into the domain.

``main`` parses the flags, resolves the settings once (flag > env > file >
default) and passes them to the command.  Errors the user can fix are raised
as ``CommandError`` (one line, exit 2 for usage, 1 otherwise) or
``SettingsError`` (exit 2) and printed without a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from interviewer import __version__
from interviewer.commands import CommandError, Handler, Parser, add_common_options, register_all
from interviewer.commands.app import run_home
from interviewer.config import SettingsError, load_settings

__all__ = ["CommandError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The full parser: the common options, then every command module's subcommands."""
    parser = Parser(
        prog="interviewer",
        description="Timed, graded mock interviews for AI-infrastructure roles.",
    )
    parser.add_argument("--version", action="version", version=f"interviewer {__version__}")
    add_common_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    register_all(sub)
    parser.set_defaults(handler=run_home)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(args_list)
        handler: Handler = args.handler
        return handler(args, load_settings(args))
    except CommandError as exc:
        print(f"interviewer: error: {exc}", file=sys.stderr)
        return exc.code
    except SettingsError as exc:
        print(f"interviewer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interviewer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

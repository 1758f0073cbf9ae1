"""Command-line entry point.  Every subcommand is a thin call into the domain.

Errors the user can fix are raised as ``UsageError`` (one line, exit 2) or
``CommandError`` (one line, exit 1) and printed without a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from interviewer import __version__
from interviewer.config import SettingsError


class CommandError(Exception):
    """A failure to report as one line on stderr, with an exit code."""

    def __init__(self, message: str, code: int = 1):
        self.code = code
        super().__init__(message)


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad flags as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CommandError(f"{message} (see '{self.prog} --help')", code=2)


Handler = Callable[[argparse.Namespace], int]


def add_command(sub: argparse._SubParsersAction, name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
    """Add a subcommand that also accepts the common options after its name."""
    parser = sub.add_parser(name, help=help, description=help)
    add_common_options(parser)
    parser.set_defaults(handler=handler)
    return parser


def build_parser() -> argparse.ArgumentParser:
    from interviewer.commands import register_all

    parser = _Parser(
        prog="interviewer",
        description="Timed, graded mock interviews for AI-infrastructure roles.",
    )
    parser.add_argument("--version", action="version", version=f"interviewer {__version__}")
    add_common_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    register_all(sub)
    return parser


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """Options every command accepts (before or after the subcommand)."""
    parser.add_argument("--cases-dir", type=Path, default=argparse.SUPPRESS, help="extra folder of user cases")
    parser.add_argument("--transcripts-dir", type=Path, default=argparse.SUPPRESS, help="where sessions are saved")
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="path of the TOML config file")
    parser.add_argument("--base-url", default=argparse.SUPPRESS, help="OpenAI-compatible endpoint URL")
    parser.add_argument("--model", default=argparse.SUPPRESS, help="model name on the endpoint")
    parser.add_argument(
        "--api-key-env", default=argparse.SUPPRESS, metavar="VAR", help="name of the env var holding the API key"
    )
    parser.add_argument("--offline", action="store_true", default=argparse.SUPPRESS, help="grade offline only")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(args_list)
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            from interviewer.commands.app import run_home

            return run_home(args)
        return handler(args)
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

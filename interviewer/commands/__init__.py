"""Subcommands: every public module here is one command group that registers itself.

A module joins the CLI by defining ``register(sub)``; ``register_all`` finds the
modules with ``pkgutil``, so there is no list to keep in step.  Modules whose
names start with ``_`` are helpers.  An import error in a command module
propagates: a broken command is a loud failure, never a silently missing one.

This package imports nothing from ``interviewer.cli``: the CLI imports the
commands, not the other way round.

Registering a command costs only argparse: command modules import the domain
(pydantic, the content, the graders) inside their handlers, never at the top.
That is what lets ``interviewer`` paint its first frame before pydantic is
loaded, and ``--help`` answer without it.  Two kinds of command:

- ``add_command``: the handler gets the settings, resolved once by the CLI.
- ``add_app_command``: the commands that open the app get a function that
  resolves the settings, and call it in the app's loading worker, after the
  first paint.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from interviewer.errors import UserError

if TYPE_CHECKING:
    from interviewer.config import Settings

SubParsers: TypeAlias = "argparse._SubParsersAction[Parser]"
Handler: TypeAlias = "Callable[[argparse.Namespace, Settings], int]"
"""A command: the parsed flags and the settings resolved once for this run, to an exit code."""
AppHandler: TypeAlias = "Callable[[argparse.Namespace, Callable[[], Settings]], int]"
"""A command that opens the app: the parsed flags and how to resolve the settings once it has painted."""


class CommandError(UserError):
    """A command's failure, reported as one line on stderr; exit code 1 unless given (2 for usage)."""


class Parser(argparse.ArgumentParser):
    """argparse that reports bad flags as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CommandError(f"{message} (see '{self.prog} --help')", code=2)


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


def add_command(sub: SubParsers, name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
    """Add a subcommand that also accepts the common options after its name."""
    parser = sub.add_parser(name, help=help, description=help)
    add_common_options(parser)
    parser.set_defaults(handler=handler)
    return parser


def add_app_command(sub: SubParsers, name: str, handler: AppHandler, help: str) -> argparse.ArgumentParser:
    """Add a subcommand that opens the app: it resolves the settings itself, after the first paint."""
    parser = sub.add_parser(name, help=help, description=help)
    add_common_options(parser)
    parser.set_defaults(handler=None, app_handler=handler)
    return parser


def command_modules() -> list[str]:
    """The names of the command modules in this package, in a stable order."""
    return sorted(
        f"{__name__}.{info.name}" for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")
    )


def register_all(sub: SubParsers) -> None:
    """Import every command module and let it add its subcommands."""
    for name in command_modules():
        register: Callable[[SubParsers], None] = importlib.import_module(name).register
        register(sub)

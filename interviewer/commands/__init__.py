"""Subcommands: every public module here is one command group that registers itself.

A module joins the CLI by defining ``register(sub)``; ``register_all`` finds the
modules with ``pkgutil``, so there is no list to keep in step.  Modules whose
names start with ``_`` are helpers.  An import error in a command module
propagates: a broken command is a loud failure, never a silently missing one.

This package imports nothing from ``interviewer.cli``: the CLI imports the
commands, not the other way round.

Registering a command costs almost nothing: command modules import the domain
(pydantic, the content, the graders) inside their handlers, never at the top,
and a command's own parser is built only when that command is chosen (or its
help is asked for).  That is what lets ``interviewer`` paint its first frame
before pydantic is loaded, and ``--help`` answer without it: building all
nineteen parsers cost about 20 ms, most of it argparse's gettext look-ups and
terminal-size checks.  Two kinds of command:

- ``add_command``: the handler gets the settings, resolved once by the CLI.
- ``add_app_command``: the commands that open the app get a function that
  resolves the settings, and call it in the app's loading worker, after the
  first paint.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from interviewer.errors import UserError

if TYPE_CHECKING:
    from interviewer.config import Settings

Handler: TypeAlias = "Callable[[argparse.Namespace, Settings], int]"
"""A command: the parsed flags and the settings resolved once for this run, to an exit code."""
AppHandler: TypeAlias = "Callable[[argparse.Namespace, Callable[[], Settings]], int]"
"""A command that opens the app: the parsed flags and how to resolve the settings once it has painted."""
Arguments: TypeAlias = "Callable[[Parser], object]"
"""Adds a command's own flags and positionals to its parser (called only when the parser is built)."""


class CommandError(UserError):
    """A command's failure, reported as one line on stderr; exit code 1 unless given (2 for usage)."""


class Parser(argparse.ArgumentParser):
    """argparse that reports bad flags as one line and exit code 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", SubParsers)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CommandError(f"{message} (see '{self.prog} --help')", code=2)


if TYPE_CHECKING:
    _SubParsersAction = argparse._SubParsersAction[Parser]
else:  # not subscriptable at run time
    _SubParsersAction = argparse._SubParsersAction


class SubParsers(_SubParsersAction):
    """Subcommands whose parsers are built on first use.

    The top-level help needs only each command's name and one-line help, so a
    command is listed at once and its parser is built when the command line
    names it.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, Callable[[str], Parser]] = {}

    def add_lazy(self, name: str, help: str, build: Callable[[str], Parser]) -> None:
        """List ``name`` now; ``build(prog)`` makes its parser when it is first needed."""
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))
        self._pending[name] = build
        self._name_parser_map[name] = None  # type: ignore[assignment]  # listed; built by parser()

    def parser(self, name: str) -> Parser:
        """The parser of command ``name``, built now if it has not been."""
        build = self._pending.pop(name, None)
        if build is not None:
            self._name_parser_map[name] = build(f"{self._prog_prefix} {name}")
        return self._name_parser_map[name]

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if isinstance(values, list) and values and values[0] in self._pending:
            self.parser(values[0])
        super().__call__(parser, namespace, values, option_string)


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


def add_command(sub: SubParsers, name: str, handler: Handler, help: str, arguments: Arguments | None = None) -> None:
    """Add a subcommand that also accepts the common options after its name; ``arguments`` adds its own."""
    sub.add_lazy(name, help, _builder(help, arguments, handler=handler))


def add_app_command(
    sub: SubParsers, name: str, handler: AppHandler, help: str, arguments: Arguments | None = None
) -> None:
    """Add a subcommand that opens the app: it resolves the settings itself, after the first paint."""
    sub.add_lazy(name, help, _builder(help, arguments, handler=None, app_handler=handler))


def _builder(help: str, arguments: Arguments | None, **defaults: object) -> Callable[[str], Parser]:
    def build(prog: str) -> Parser:
        parser = Parser(prog=prog, description=help)
        add_common_options(parser)
        if arguments is not None:
            arguments(parser)
        parser.set_defaults(**defaults)
        return parser

    return build


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

"""The one kind of error the CLI reports as a single line: a problem the user can fix.

It lives in a module of its own, with no imports, so that ``cli.main`` can
catch it without loading pydantic: the commands that open the app paint their
first frame before the settings are resolved, and a settings problem found
then still reaches the user as one line and an exit code.
"""

from __future__ import annotations


class UserError(Exception):
    """A failure to report as one line on stderr (never a traceback), with the exit code to end on."""

    default_code = 1

    def __init__(self, message: str, code: int | None = None) -> None:
        self.code = self.default_code if code is None else code
        super().__init__(message)

"""Keep a running session alive when a widget's handler raises.

Textual stops a widget's message loop (and the app) on an unhandled
exception.  The session's screen and widgets route their messages through
``guarded_dispatch``, which hands the error to the app's ``recover`` (save the
session, show the error, go on) instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.message import Message
from textual.message_pump import MessagePump


async def guarded_dispatch(
    pump: MessagePump, dispatch: Callable[[Message], Awaitable[None]], message: Message
) -> None:
    """Run ``dispatch(message)``; an exception goes to ``app.recover`` when the app has one."""
    try:
        await dispatch(message)
    except Exception as error:
        recover = getattr(pump.app, "recover", None)
        if not callable(recover):
            raise
        recover(error)

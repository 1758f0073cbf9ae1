"""Pull the ``feedback`` text out of a JSON reply while it streams.

The model replies with JSON, but the TUI wants to show the feedback as it is
written, not braces and keys.  ``FeedbackStream`` is fed raw chunks; it skips
any ``<think>`` block, then reads the reply so far with ``jiter`` in partial
mode (which decodes an unfinished trailing string, escapes included) and
passes on only the new characters of the top-level ``"feedback"`` string.  It
is a preview: the final Grade is what counts, so text that cannot be read yet
is simply not shown yet.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import jiter

_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.I)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.I)


class FeedbackStream:
    def __init__(self, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._buf = ""
        self._start: int | None = None
        """Where the reply's JSON object begins in ``_buf``, once found (after any think block)."""
        self._done = False
        """The feedback string is complete for this attempt."""
        self._text = ""
        """The feedback decoded so far in the current attempt."""
        self._shown = 0
        """Characters passed to ``emit`` so far, across restarts."""

    def restart(self) -> None:
        """A new attempt begins (e.g. a retry with a larger token budget); do not repeat what was shown."""
        self._buf, self._start, self._done, self._text = "", None, False, ""

    def feed(self, piece: str) -> None:
        self._buf += piece
        if self._done or (self._start is None and not self._seek()):
            return
        assert self._start is not None
        try:
            reply = jiter.from_json(self._buf[self._start :].encode(), partial_mode="trailing-strings")
        except ValueError:
            return  # not JSON yet (or ever): nothing to preview
        feedback = reply.get("feedback") if isinstance(reply, dict) else None
        if not isinstance(feedback, str) or not feedback.startswith(self._text):
            return
        self._done = len(reply) > 1 and next(reversed(reply)) != "feedback"
        before, self._text = len(self._text), feedback
        fresh = feedback[max(before, self._shown) :]
        if fresh:
            self._shown = max(self._shown, len(feedback))
            self._emit(fresh)

    def _seek(self) -> bool:
        """Find the first ``{`` that is not inside a think block; False while there is none yet."""
        pos = 0
        while True:
            brace = self._buf.find("{", pos)
            think = _THINK_OPEN.search(self._buf, pos)
            if think and (brace < 0 or think.start() < brace):
                close = _THINK_CLOSE.search(self._buf, think.end())
                if close is None:
                    return False
                pos = close.end()
                continue
            if brace < 0:
                return False
            self._start = brace
            return True

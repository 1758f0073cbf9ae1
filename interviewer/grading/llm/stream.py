"""Pull the ``feedback`` text out of a JSON reply while it streams.

The model replies with JSON, but the TUI wants to show the feedback as it is
written, not braces and keys.  ``FeedbackStream`` is fed raw chunks and
passes on only the decoded characters of the top-level ``"feedback"``
string, skipping any ``<think>`` block before it.  It is deliberately
simple: it is a preview, and the final Grade is what counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_KEY = re.compile(r'"feedback"\s*:\s*"')
_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.I)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.I)
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/", "r": "", "b": "", "f": ""}


class FeedbackStream:
    def __init__(self, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._buf = ""
        self._pos = 0
        self._state = "seek"
        self._shown = 0
        """Characters passed to ``emit`` so far, across restarts."""
        self._produced = 0
        """Characters decoded in the current attempt."""

    def restart(self) -> None:
        """A new attempt begins (e.g. a retry with a larger token budget); do not repeat what was shown."""
        self._buf, self._pos, self._state, self._produced = "", 0, "seek", 0

    def feed(self, piece: str) -> None:
        self._buf += piece
        if self._state == "seek" and not self._seek():
            return
        if self._state == "value":
            out = self._decode()
            if out:
                self._emit(out)

    def _seek(self) -> bool:
        while True:
            key = _KEY.search(self._buf, self._pos)
            think = _THINK_OPEN.search(self._buf, self._pos)
            if think and (key is None or think.start() < key.start()):
                close = _THINK_CLOSE.search(self._buf, think.end())
                if close is None:
                    return False
                self._pos = close.end()
                continue
            if key is None:
                return False
            self._pos = key.end()
            self._state = "value"
            return True

    def _decode(self) -> str:
        out: list[str] = []
        buf, i = self._buf, self._pos
        while i < len(buf):
            ch = buf[i]
            if ch == '"':
                self._state = "done"
                i += 1
                break
            if ch == "\\":
                if i + 1 >= len(buf):
                    break
                nxt = buf[i + 1]
                if nxt == "u":
                    if i + 6 > len(buf):
                        break
                    digits = buf[i + 2 : i + 6]
                    if all(c in "0123456789abcdefABCDEF" for c in digits):
                        out.append(chr(int(digits, 16)))
                    i += 6
                    continue
                out.append(_ESCAPES.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        self._pos = i
        text = "".join(out)
        start = self._produced
        self._produced += len(text)
        if self._produced <= self._shown:
            return ""
        fresh = text[max(0, self._shown - start) :]
        self._shown = self._produced
        return fresh

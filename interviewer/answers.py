"""Checks on what a candidate typed, shared by the CLI and the TUI.

One place decides what counts as an answer, so ``interviewer score`` and the
session screen refuse the same inputs with the same words.
"""

from __future__ import annotations

MAX_ANSWER_CHARS = 20_000
"""About 3,000 words: far beyond a spoken answer, small enough to grade quickly and send to a model."""


class AnswerError(ValueError):
    """The input is not a gradable answer; the message is one line for the user."""


def decode_answer(data: bytes, source: str = "stdin", *, complete: bool = True) -> str:
    """Decode raw bytes (stdin or a file) as UTF-8 text, refusing binary data.

    ``complete`` is False when the reader stopped at its size cap, so the
    input is known to be too long without reading all of it.
    """
    if b"\x00" in data[:65536]:
        raise AnswerError(f"{source}: the answer looks like binary data (NUL bytes), not text")
    if not complete:
        raise AnswerError(f"{source}: the answer is longer than the {MAX_ANSWER_CHARS:,}-character limit")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise AnswerError(f"{source}: the answer is not UTF-8 text (bad byte at offset {exc.start})") from None
    return check_answer(text, source)


def check_answer(text: str, source: str = "answer") -> str:
    """Return the answer with surrounding blank space removed, or raise ``AnswerError``."""
    stripped = text.strip()
    if not stripped:
        raise AnswerError(f"{source}: the answer is empty")
    if len(stripped) > MAX_ANSWER_CHARS:
        raise AnswerError(f"{source}: the answer is {len(stripped):,} characters; the limit is {MAX_ANSWER_CHARS:,}")
    controls = sum(1 for ch in stripped if ord(ch) < 32 and ch not in "\n\r\t")
    if controls > max(8, len(stripped) // 100):
        raise AnswerError(f"{source}: the answer is full of control characters; is it binary data?")
    return stripped

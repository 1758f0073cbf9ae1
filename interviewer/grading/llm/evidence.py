"""Checking that a quoted span really occurs in the answer.

A model that invents evidence is inventing the score it justifies, so every
quote is checked against the answer: case-insensitive, with whitespace,
typographic quotes and dashes normalised, and ``...`` allowed between
fragments that must appear in order.
"""

from __future__ import annotations

import re
import unicodedata

_WS = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"\.\.\.+|…")
_TRANSLATE = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-", "−": "-"})
_EDGE = " \"'`.,;:!?()[]"
MIN_FRAGMENT = 3
"""Shorter fragments ('a', 'of') prove nothing and are ignored; a quote made only of them does not count."""


def normalise(text: str) -> str:
    return _WS.sub(" ", unicodedata.normalize("NFKC", text).translate(_TRANSLATE)).strip().lower()


def quote_in_answer(quote: str, answer_normalised: str) -> bool:
    """Whether ``quote`` occurs in the (already ``normalise``d) answer."""
    fragments = [f.strip(_EDGE) for f in _ELLIPSIS.split(normalise(quote))]
    fragments = [f for f in fragments if len(f) >= MIN_FRAGMENT]
    if not fragments:
        return False
    pos = 0
    for fragment in fragments:
        found = answer_normalised.find(fragment, pos)
        if found < 0:
            return False
        pos = found + len(fragment)
    return True

"""The review screen's filter: one line of words, dates and score comparisons.

Examples: ``nvidia`` (case id or title), ``2026-05`` (started that month),
``>=70`` or ``score<50`` (overall score), ``unfinished``.  Every term must
match.  Kept free of Textual so it is tested directly.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from interviewer.transcripts import Summary
from interviewer.tui.formatting import started_label

_SCORE = re.compile(r"^(?:score)?(<=|>=|<|>|=)(\d{1,3})$")
_DATE = re.compile(r"^\d{4}(?:-\d{1,2}(?:-\d{1,2})?)?$")
_OPS: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "=": operator.eq,
}
HELP = "filter: words (case), 2026-05 (date), >=70 (score), unfinished"


@dataclass(frozen=True)
class Filter:
    words: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    scores: list[tuple[str, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.words or self.dates or self.scores)


def parse_filter(text: str) -> Filter:
    """Split the filter line into terms; anything that is not a date or a score is a word."""
    words: list[str] = []
    dates: list[str] = []
    scores: list[tuple[str, int]] = []
    for raw in text.split():
        term = raw.casefold()
        if match := _SCORE.match(term):
            scores.append((match.group(1), int(match.group(2))))
        elif _DATE.match(term):
            parts = term.split("-")
            dates.append("-".join([parts[0], *[p.zfill(2) for p in parts[1:]]]))
        else:
            words.append(term)
    return Filter(words, dates, scores)


def status_words(status: str) -> str:
    return "finished" if status == "finished" else "unfinished in-progress"


def matches(flt: Filter, summary: Summary) -> bool:
    """True when the transcript satisfies every term."""
    status = status_words(summary.status)
    haystack = " ".join(
        [summary.id, summary.case_id, summary.case_title, status, summary.grader or "ungraded"]
    ).casefold()
    for word in flt.words:
        if word == "finished":
            if summary.status != "finished":
                return False
        elif word not in haystack:
            return False
    day = started_label(summary.started)[:10]
    if any(not day.startswith(prefix) for prefix in flt.dates):
        return False
    overall = summary.overall
    return all(overall is not None and _OPS[op](overall, value) for op, value in flt.scores)

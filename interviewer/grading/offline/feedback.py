"""The plain-text feedback of a keyword grade.

Feedback is what a candidate reads after each answer, so it names things:
the key points made and missed per dimension, each wrong figure beside the
reference it contradicts, each misconception beside its correction, why a
flag was raised, and one line of the rubric's guidance aimed at the weakest
dimension.  It never quotes more than a short piece of the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Dimension, Rubric
from interviewer.grading.offline.text import MAX_CHARS, words
from interviewer.grading.types import OFFLINE_LABEL

MAX_LISTED = 4

_DIMENSION_HINTS: dict[str, frozenset[str]] = {
    "mechanism": words("how works work step steps inside apart explain mechanism precise moving parts"),
    "tradeoff": words("tradeoff trade cost costs alternative instead choose choice when not use buys weigh option"),
    "numbers": words("numbers number figures units unit arithmetic size sizing gigabytes estimate"),
    "failure_modes": words("wrong goes breaks fails failure notice detect recover good state back"),
}


@dataclass
class DimensionNotes:
    score: int
    made: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    correct: list[str] = field(default_factory=list)
    """Correct figures as written (numbers only)."""
    wrong: list[tuple[str, str]] = field(default_factory=list)
    """(figure as written, reference label) (numbers only)."""
    cues: list[str] = field(default_factory=list)


def _listing(items: Sequence[str]) -> str:
    shown = list(items[:MAX_LISTED])
    more = len(items) - len(shown)
    text = "; ".join(shown)
    return f"{text}; and {more} more" if more > 0 else text


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def guidance_for(rubric: Rubric, dim: Dimension, score: int) -> str:
    """The rubric guidance line that best fits ``dim``; else the descriptor of the next level up."""
    hints = _DIMENSION_HINTS.get(dim, frozenset())
    best, best_overlap = "", 0
    for line in rubric.guidance:
        overlap = len(_tokens(line) & hints)
        if overlap > best_overlap:
            best, best_overlap = line, overlap
    if best:
        return best
    nxt = min(4, score + 1)
    return f"To reach level {nxt}: {rubric.dimensions[dim].levels[nxt]}"


def compose(
    *,
    overall: int,
    notes: dict[Dimension, DimensionNotes],
    misconceptions: Sequence[tuple[str, str]],
    flags: Sequence[str],
    injection: Sequence[str],
    rubric: Rubric,
) -> str:
    """Multi-line feedback; ``misconceptions`` holds (statement, correction) pairs."""
    lines = [f"Offline keyword grade: {overall}/100. {OFFLINE_LABEL}"]
    if "empty" in flags:
        lines.append("No answer was given, so nothing could be credited.")
    dims = [d for d in DIMENSIONS if d in notes]
    for dim in dims:
        n = notes[dim]
        parts = [f"{DIMENSION_TITLES[dim]} {n.score}/4."]
        if n.made:
            parts.append(f"Made: {_listing(n.made)}.")
        elif dim in ("tradeoff", "failure_modes", "mechanism") and n.cues and n.score:
            parts.append(f"Only general signals ({', '.join(n.cues[:3])}), no specific point.")
        if dim == "numbers":
            if n.correct:
                parts.append(f"Correct figures: {', '.join(n.correct[:6])}.")
            for claim, ref in n.wrong[:6]:
                parts.append(f"Wrong figure: {claim}; the reference is {ref}.")
        if n.missing:
            parts.append(f"Missing: {_listing(n.missing)}.")
        lines.append(" ".join(parts))
    for text, correction in misconceptions:
        lines.append(f"Misconception: {text}. Correction: {correction}")
    if "template" in flags:
        lines.append(
            "Several sentences name the right terms but say nothing about them (what they do, cost or cause), "
            "or only chain them with 'because', 'so' and 'which is why' in clauses too short to say how, "
            "or lean on words that sound like an explanation ('we leverage', 'plays a key role'), "
            "so every dimension is capped at 1."
        )
    if "keyword_list" in flags:
        lines.append(
            "The answer reads as a list of terms. Terms earn credit only inside sentences that say how "
            "they work or why, so every dimension is capped at 1."
        )
    if "number_spam" in flags:
        lines.append(
            "The answer lists figures without using them: a figure earns credit when a sentence uses it to size "
            "or bound something, so every dimension is capped at 1."
        )
    if "injection" in flags:
        quoted = ", ".join(f"'{s[:40]}'" for s in injection[:3])
        lines.append(f"Text addressed to the grader was ignored and earned nothing: {quoted}.")
    if "truncated" in flags:
        lines.append(f"Only the first {MAX_CHARS:,} characters were graded.")
    weakest = min(dims, key=lambda d: (notes[d].score, -len(notes[d].missing), DIMENSIONS.index(d)))
    if notes[weakest].score < 4:  # every dimension at 4: there is no next level to point at
        lines.append(f"Tip ({DIMENSION_TITLES[weakest]}): {guidance_for(rubric, weakest, notes[weakest].score)}")
    return "\n".join(lines)

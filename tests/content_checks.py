"""Shared checks for shipped content: load a built-in case, and prove no sentence is copied from a seed.

The seeds live in ``../shared/seeds/`` beside the checkout.  When that folder is
absent (a bare sdist), the seed checks are skipped, never silently passed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rapidfuzz import fuzz, process

from interviewer.content.loader import load_case
from interviewer.content.schema import Case
from interviewer.paths import builtin_cases_dir

SEEDS_DIR = Path(__file__).resolve().parents[2] / "shared" / "seeds"
COPY_THRESHOLD = 80.0
"""A sentence whose fuzz.ratio with any seed sentence reaches this is treated as copied."""
MIN_SENTENCE_CHARS = 40
"""Shorter fragments (titles, product names) are allowed to coincide."""

_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+|(?<=:)\s+(?=[A-Z])|\s+[-•]\s+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SPLIT.split(text) if len(s.strip()) >= MIN_SENTENCE_CHARS]


def seed_text(name_prefix: str) -> str:
    if not SEEDS_DIR.is_dir():
        pytest.skip(f"seeds folder not found at {SEEDS_DIR}")
    matches = sorted(SEEDS_DIR.glob(f"{name_prefix}*.txt"))
    if not matches:
        pytest.skip(f"seed {name_prefix}* not found")
    return matches[0].read_text(encoding="utf-8")


def builtin_case(case_id: str) -> Case:
    return load_case(builtin_cases_dir() / f"{case_id}.yaml")


def case_texts(case: Case) -> list[str]:
    """Every prompt, key point heading, outline item, follow-up and misconception of a case."""
    texts = [case.scenario, *case.deliverables]
    for phase in case.phases:
        texts.append(phase.brief)
        for q in phase.questions:
            texts.append(q.prompt)
            texts.extend(kp.text for _, kp in q.all_key_points())
            texts.extend(q.outline)
            texts.extend(f.prompt for f in q.follow_ups)
            texts.extend(m.text for m in q.misconceptions)
            texts.extend(m.correction for m in q.misconceptions)
    return [t for t in texts if t]


def copied_sentences(texts: list[str], seed: str, threshold: float = COPY_THRESHOLD) -> list[tuple[str, str, float]]:
    """(our sentence, seed sentence, similarity) for every sentence at or above ``threshold``."""
    ours = [s for t in texts for s in sentences(t)]
    theirs = sentences(seed)
    if not ours or not theirs:
        return []
    hits = []
    for sentence in ours:
        best = process.extractOne(sentence, theirs, scorer=fuzz.ratio, processor=str.lower, score_cutoff=threshold)
        if best is not None:
            hits.append((sentence, best[0], float(best[1])))
    return hits


def assert_not_copied(case: Case, seed_prefix: str) -> None:
    hits = copied_sentences(case_texts(case), seed_text(seed_prefix))
    assert not hits, "sentences copied from the seed:\n" + "\n".join(
        f"  {score:.0f}: {ours!r} ~ {theirs!r}" for ours, theirs, score in hits[:10]
    )

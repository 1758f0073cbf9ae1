"""The shared content every case is graded with: the fact sheet and the domain lexicon.

Both live beside the built-in cases (``cases/facts.yaml``,
``cases/lexicon.yaml``) and are loaded once per process, on first use, so
importing the grader costs nothing.  A missing or broken file leaves that
part empty rather than stopping grading; ``interviewer validate`` and the
test suite report such a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from interviewer.content.loader import ContentError, load_facts, load_lexicon
from interviewer.content.schema import FactSheet, Lexicon
from interviewer.paths import builtin_cases_dir

FACTS_FILE = "facts.yaml"
LEXICON_FILE = "lexicon.yaml"


@dataclass(frozen=True)
class SharedContent:
    facts: FactSheet | None
    lexicon: Lexicon | None


@lru_cache(maxsize=1)
def shared_content() -> SharedContent:
    """The built-in fact sheet and lexicon (each None when its file is missing or invalid)."""
    folder = builtin_cases_dir()
    facts: FactSheet | None = None
    lexicon: Lexicon | None = None
    try:
        facts = load_facts(folder / FACTS_FILE)
    except ContentError:
        facts = None
    try:
        lexicon = load_lexicon(folder / LEXICON_FILE)
    except ContentError:
        lexicon = None
    return SharedContent(facts=facts, lexicon=lexicon)

"""Per-question and per-rubric matchers, compiled once and cached.

Compiling a question (a regex and stems per alias, an inverted index, parsed
reference quantities) costs far more than scoring one answer with it, and a
session or a regrade scores many answers against the same few questions.  The
cache is keyed by object identity and keeps a reference to the object, so an
id can never be recycled while its entry lives; it is bounded (LRU) and
guarded by a lock because grading runs in worker threads.
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from interviewer.content.schema import DIMENSIONS, Dimension, KeyPoint, Question, Rubric
from interviewer.content.shared import shared_content
from interviewer.grading.offline.claims import background_words
from interviewer.grading.offline.concepts import ConceptIndex, compile_concepts
from interviewer.grading.offline.gaming import MisconceptionFinder
from interviewer.grading.offline.lexicon import lexicon
from interviewer.grading.offline.quantities import FactIndex, Given, Reference, compile_givens, compile_references
from interviewer.grading.offline.text import analyse, fold, stem, tokens_of, words

_TEXT_STOP = words(
    "a an the of to in on for and or with by at as is are be it its from into per that this than when which "
    "so can not no each every one two their they them you your we our more less most least"
)

CACHE_SIZE = 256
TEXT_MATCH_SHARE = 0.6
"""Share of a key point's own content stems one sentence must hold to state it in plain words."""
TEXT_MATCH_MIN_STEMS = 3


@dataclass(frozen=True)
class CompiledQuestion:
    question: Question
    owners: tuple[tuple[Dimension, KeyPoint], ...]
    """(dimension, key point) for each concept in ``index``, same order."""
    index: ConceptIndex
    references: tuple[Reference, ...]
    givens: tuple[Given, ...]
    """Numbers stated in the prompt: restating them is neither knowledge nor a mistake."""
    misconceptions: MisconceptionFinder
    concept_stems: tuple[frozenset[str], ...]
    """Stems of every wording of each key point, same order as ``owners``: what naming the point uses up."""
    point_stems: tuple[frozenset[str], ...]
    """Canonical content stems of each key point's own text, same order as ``owners``."""
    point_index: dict[str, tuple[int, ...]]
    """Canonical stem -> the key points whose text holds it."""
    point_need: tuple[int, ...]
    """Stems of its text a sentence must hold to state each key point (a huge number: never by text)."""
    background: frozenset[str]
    """Words of the prompt: restating them says nothing new."""
    contrasts: frozenset[int]
    """The lexicon's contrasts this question's own text names: the swaps checked in its answers."""
    subjects: frozenset[str]
    """Fact-sheet subjects the prompt names: the default for a sentence that names none."""
    concerns: dict[str, Dimension]
    """Misconception text -> the dimension it is about (its words' best overlap with a dimension's key points)."""


@dataclass(frozen=True)
class CompiledRubric:
    """The rubric's offline cues as one alternation, so an answer is scanned once, not once per cue."""

    rubric: Rubric
    cue_pattern: re.Pattern[str] | None
    cue_owners: dict[str, tuple[tuple[Dimension, str], ...]]
    """Normalised cue text -> (dimension, cue as written) for every dimension that lists it."""


def cue_key(text: str) -> str:
    """'Trade-off', 'trade off' and 'trade  off' all become 'trade off'."""
    return " ".join(re.findall(r"[^\W_]+|[^\w\s\-]", fold(text)))


@lru_cache(maxsize=1)
def facts() -> FactIndex:
    """The shared fact sheet, compiled once per process."""
    return FactIndex(shared_content().facts)


def point_stems(text: str) -> frozenset[str]:
    """Content stems of a key point's text, canonical under the lexicon's single-word synonyms."""
    lex = lexicon()
    return frozenset(lex.canonical(stem(t)) for t in tokens_of(fold(text)) if t not in _TEXT_STOP and len(t) > 1)


def _aliases(kp: KeyPoint, prompt_stems: frozenset[str] = frozenset()) -> list[str]:
    """The key point's aliases plus their lexicon variants (other wordings of the same point).

    An alias made only of the prompt's own words ('uncoalesced' for a question about uncoalesced access, 'dram
    bytes' when it asks about DRAM bytes) is dropped while the point has other aliases: repeating the
    question's words is not making the point.
    """
    lex = lexicon()
    own = [a for a in kp.aliases if not _echo(a, prompt_stems)] or list(kp.aliases)
    out = list(own)
    for alias in own:
        out.extend(v for v in lex.variants(alias) if v not in out)
    return out


def _echo(alias: str, prompt_stems: frozenset[str]) -> bool:
    """Every content word of the alias is a word of the prompt."""
    words = [t for t in tokens_of(fold(alias)) if t not in _TEXT_STOP]
    return bool(words) and all(stem(w) in prompt_stems for w in words)


def _compile_question(question: Question) -> CompiledQuestion:
    owners = tuple(question.all_key_points())
    prompts = [question.prompt]
    prompt_stems = frozenset(stem(t) for t in tokens_of(fold(question.prompt)))
    index = ConceptIndex(compile_concepts((kp.text, _aliases(kp, prompt_stems)) for _, kp in owners), loose=True)
    texts = tuple(point_stems(kp.text) for _, kp in owners)
    return CompiledQuestion(
        question=question,
        owners=owners,
        index=index,
        concept_stems=tuple(
            frozenset(s for a in c.aliases for s in a.stems | a.index_keys) for c in index.concepts
        ),
        references=tuple(compile_references(question.quantities, facts().subject_of)),
        givens=compile_givens(question.prompt, analyse(question.prompt, fold(question.prompt))),
        misconceptions=MisconceptionFinder(question.misconceptions),
        point_stems=texts,
        point_index=_invert(texts),
        point_need=tuple(
            max(TEXT_MATCH_MIN_STEMS, math.ceil(TEXT_MATCH_SHARE * len(t))) if len(t) >= TEXT_MATCH_MIN_STEMS
            else 1 << 30
            for t in texts
        ),
        background=background_words(prompts),
        subjects=facts().named(fold(question.prompt)),
        contrasts=lexicon().relevant(fold(_own_text(question))),
        concerns={m.text: _concerned(question, f"{m.text} {m.correction}") for m in question.misconceptions},
    )


def _own_text(question: Question) -> str:
    """Everything the question itself says: prompt, key points and their aliases, misconceptions."""
    parts = [question.prompt]
    for _, kp in question.all_key_points():
        parts += [kp.text, *kp.aliases]
    for m in question.misconceptions:
        parts += [m.text, m.correction, *m.aliases]
    return "\n".join(parts)


def _invert(sets: Sequence[frozenset[str]]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for i, items in enumerate(sets):
        for item in items:
            out.setdefault(item, []).append(i)
    return {k: tuple(v) for k, v in out.items()}


def _concerned(question: Question, text: str) -> Dimension:
    """The graded dimension whose key points share the most words with ``text``; mechanism on a tie."""
    mine = point_stems(text)
    best: tuple[int, int] = (-1, 0)
    choice: Dimension = "mechanism" if "mechanism" in question.dimensions else question.dimensions[0]
    for dim in question.dimensions:
        overlap = sum(len(mine & point_stems(kp.text)) for kp in question.key_points[dim])
        rank = (overlap, 1 if dim == "mechanism" else 0)
        if rank > best:
            best, choice = rank, dim
    return choice


def _compile_rubric(rubric: Rubric) -> CompiledRubric:
    owners: dict[str, list[tuple[Dimension, str]]] = {}
    bodies: dict[str, str] = {}
    for dim in DIMENSIONS:
        for cue in rubric.dimensions[dim].cues:
            pieces = re.findall(r"[^\W_]+|[^\w\s\-]", fold(cue.strip()))
            if not pieces:
                continue
            key = " ".join(pieces)
            owners.setdefault(key, []).append((dim, cue))
            bodies[key] = r"[\s\-]*".join(re.escape(p) for p in pieces)
    pattern = None
    if bodies:
        alternation = "|".join(bodies[k] for k in sorted(bodies, key=len, reverse=True))
        pattern = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)")
    return CompiledRubric(rubric=rubric, cue_pattern=pattern, cue_owners={k: tuple(v) for k, v in owners.items()})


K = TypeVar("K")
V = TypeVar("V")


class _IdentityCache:
    def __init__(self, size: int = CACHE_SIZE):
        self._size = size
        self._items: OrderedDict[int, tuple[object, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, build: Callable[[K], V]) -> V:
        ident = id(key)
        with self._lock:
            entry = self._items.get(ident)
            if entry is not None and entry[0] is key:
                self._items.move_to_end(ident)
                return entry[1]  # type: ignore[return-value]
        value = build(key)
        with self._lock:
            self._items[ident] = (key, value)
            self._items.move_to_end(ident)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


_QUESTIONS = _IdentityCache()
_RUBRICS = _IdentityCache()


def compiled_question(question: Question) -> CompiledQuestion:
    return _QUESTIONS.get(question, _compile_question)


def compiled_rubric(rubric: Rubric) -> CompiledRubric:
    return _RUBRICS.get(rubric, _compile_rubric)


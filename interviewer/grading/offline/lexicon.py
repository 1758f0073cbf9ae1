"""The domain lexicon, compiled: synonyms that widen matching, and confusable pairs that catch swaps.

Synonyms.  An alias is also tried with each synonym of any phrase it holds
('evict the sequence' also matches 'preempt the request' when the lexicon
joins evict/preempt and sequence/request), and a key point's own text is
compared on canonical stems.  So an answer in the candidate's own words meets
the key point it expresses without every case listing every wording.

Contrasts.  A contrast names two concepts people confuse (MIG/MPS,
prefill/decode...) and the properties that belong to each side only.  A
clause that names one side, not the other, and claims a defining property of
the other side is a swap: "MIG shares the SMs between processes" is wrong.
A question is checked for the contrasts its own text (prompt, key points,
misconceptions) names, which keeps scoring fast and the checks on topic.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from interviewer.content.schema import Contrast, Lexicon
from interviewer.content.shared import shared_content
from interviewer.grading.offline.claims import clause_bounds, negated, previous_clause
from interviewer.grading.offline.concepts import ConceptIndex, compile_concepts
from interviewer.grading.offline.text import Sentence, fold, stem, tokens_of

MAX_VARIANTS = 2
"""Synonym variants tried per alias: enough for the common wordings, few enough to keep scoring fast."""


def _phrase_pattern(phrases: Sequence[str]) -> re.Pattern[str] | None:
    source = _phrase_source(phrases)
    return re.compile(source) if source is not None else None


def _phrase_source(phrases: Sequence[str]) -> str | None:
    """The regex source of ``_phrase_pattern``: any of ``phrases``, longest first, as whole words."""
    # Sorted by text, then (stably) by length: the same alternation in every process, whatever the hash seed.
    bodies = sorted({r"[\s\-_]+".join(re.escape(p) for p in tokens_of(fold(x))) for x in phrases if x.strip()})
    bodies.sort(key=len)
    bodies = [b for b in bodies if b]
    if not bodies:
        return None
    return r"(?<![\w-])(?:" + "|".join(reversed(bodies)) + r")(?![\w-])"


@dataclass(frozen=True)
class Side:
    name: str
    source: str | None
    """The regex of ``names``, compiled on first use: a clause is checked against a side only when a defining
    phrase matched, and the lexicon has some eighty sides."""

    @cached_property
    def names(self) -> re.Pattern[str] | None:
        return re.compile(self.source) if self.source is not None else None


@dataclass(frozen=True)
class CompiledContrast:
    contrast: Contrast
    sides: tuple[Side, Side]


@dataclass(frozen=True)
class Swap:
    """A clause that gives one side of a contrast the other side's defining property."""

    contrast: Contrast
    said_of: str
    belongs_to: str
    sentence: Sentence
    start: int
    end: int


class CompiledLexicon:
    def __init__(self, lexicon: Lexicon | None) -> None:
        groups = [[" ".join(tokens_of(fold(p))) for p in g] for g in (lexicon.synonyms if lexicon else [])]
        self.groups = [[p for p in g if p] for g in groups]
        self._member: dict[str, int] = {}
        for gi, group in enumerate(self.groups):
            for phrase in group:
                self._member.setdefault(phrase, gi)
        self._pattern = _phrase_pattern([p for g in self.groups for p in g])
        self._canon: dict[str, str] = {}
        for group in self.groups:
            singles = [p for p in group if " " not in p]
            if len(singles) >= 2:
                head = stem(singles[0])
                for word in singles[1:]:
                    self._canon.setdefault(stem(word), head)
        self.contrasts = tuple(_compile_contrast(c) for c in (lexicon.contrasts if lexicon else []))
        # Which contrasts a question's text names: one pattern over every side's names, not eighty.
        self._side_owner: dict[str, list[int]] = {}
        for i, c in enumerate(self.contrasts):
            for side in c.contrast.sides:
                for name in (side.name, *side.aliases):
                    key = " ".join(tokens_of(fold(name)))
                    if key and i not in self._side_owner.setdefault(key, []):
                        self._side_owner[key].append(i)
        # A match hides shorter names that start where it does ('triton' in 'triton inference server').
        self._owners_at: dict[str, frozenset[int]] = {}
        for key in self._side_owner:
            words = key.split()
            prefixes = (" ".join(words[:n]) for n in range(1, len(words) + 1))
            self._owners_at[key] = frozenset(i for pre in prefixes for i in self._side_owner.get(pre, ()))
        self._any_name = _phrase_pattern(list(self._side_owner))
        self._finders: dict[frozenset[int], SwapFinder] = {}
        self._lock = threading.Lock()

    def relevant(self, folded: str) -> frozenset[int]:
        """The contrasts either of whose sides ``folded`` (a question's own text) names."""
        if self._any_name is None:
            return frozenset()
        found: set[int] = set()
        pos = 0
        while (m := self._any_name.search(folded, pos)) is not None:
            found |= self._owners_at.get(" ".join(tokens_of(m.group())), frozenset())
            pos = m.start() + 1  # names may also start inside this one
        return frozenset(found)

    def finder(self, contrasts: frozenset[int] | None = None) -> SwapFinder:
        """A swap finder over these contrasts (all when None), compiled once and shared."""
        key = frozenset(range(len(self.contrasts))) if contrasts is None else contrasts
        with self._lock:
            found = self._finders.get(key)
        if found is None:
            found = SwapFinder([(i, self.contrasts[i]) for i in sorted(key)])
            with self._lock:
                self._finders[key] = found
        return found

    def variants(self, alias: str) -> list[str]:
        """Other wordings of ``alias``: each lexicon phrase in it swapped for each of its synonyms."""
        if self._pattern is None:
            return []
        folded = " ".join(tokens_of(fold(alias)))
        out: list[str] = []
        for m in self._pattern.finditer(folded):
            phrase = m.group().replace("-", " ").replace("_", " ")
            group = self.groups[self._member[phrase]] if phrase in self._member else []
            for other in group:
                if other != m.group():
                    variant = folded[: m.start()] + other + folded[m.end() :]
                    if variant != folded and variant not in out:
                        out.append(variant)
                if len(out) >= MAX_VARIANTS:
                    return out
        return out

    def canonical(self, token_stem: str) -> str:
        return self._canon.get(token_stem, token_stem)

    def swaps(
        self, sentences: Sequence[Sentence], text: str, folded: str, contrasts: frozenset[int] | None = None
    ) -> list[Swap]:
        """Every clause that gives one side of a contrast the other side's defining property."""
        return self.finder(contrasts).swaps(sentences, text, folded)


class SwapFinder:
    """The defining phrases of some contrasts in one index, so an answer is scanned once."""

    def __init__(self, contrasts: Sequence[tuple[int, CompiledContrast]]) -> None:
        phrases: list[tuple[str, list[str]]] = []
        self._owners: list[tuple[CompiledContrast, int]] = []
        """Concept key -> (contrast, side index) for every defining phrase."""
        for _, compiled in contrasts:
            for si, side in enumerate(compiled.contrast.sides):
                for phrase in side.defining:
                    phrases.append((phrase, [phrase]))
                    self._owners.append((compiled, si))
        self._defining = ConceptIndex(compile_concepts(phrases, strict=True), typos=False)
        names = [n for _, c in contrasts for side in c.contrast.sides for n in (side.name, *side.aliases)]
        self._any_side = _phrase_pattern(names)

    def swaps(self, sentences: Sequence[Sentence], text: str, folded: str) -> list[Swap]:
        if self._any_side is None:
            return []
        # Only a sentence that names a side of some contrast can swap them: skip the rest cheaply.
        naming = [s for s in sentences if self._any_side.search(folded, s.start, s.end)]
        found: list[Swap] = []
        seen: set[tuple[int, int]] = set()
        for key, hits in self._defining.find(naming, text, folded).items():
            compiled, owner_index = self._owners[key]
            owner, other = compiled.sides[owner_index], compiled.sides[1 - owner_index]
            for hit in hits:
                if (id(compiled), hit.sentence.index) in seen:
                    continue
                negations = self._defining.concepts[key].aliases[0].negations  # one phrase per concept
                swap = _swap_at(
                    compiled, owner, other, negations, hit.sentence, hit.start, hit.end, folded, self._any_side
                )
                if swap is not None:
                    found.append(swap)
                    seen.add((id(compiled), hit.sentence.index))
                    break
        return found


def _swap_at(
    compiled: CompiledContrast,
    owner: Side,
    other: Side,
    own_negations: int,
    sentence: Sentence,
    start: int,
    end: int,
    folded: str,
    any_side: re.Pattern[str] | None,
) -> Swap | None:
    c_start, c_end = clause_bounds(folded, sentence, start)
    if other.names is None:
        return None
    if not other.names.search(folded, c_start, c_end):
        if not (
            _it_is(other, any_side, folded, sentence, c_start, start)
            or _sentence_is_about(other, any_side, folded, sentence, c_start)
        ):
            return None
    elif _RELATIVE.search(folded, max(sentence.start, c_start - 8), c_start) and not other.names.search(
        folded, c_start, start
    ):
        return None  # 'PTX, which the driver JIT-compiles into SASS': the property is said of what 'which' stands for
    elif (
        owner.names is not None
        and owner.names.search(folded, c_start, c_end)
        and not _said_of(other, owner, folded, c_start, c_end, start, end)
    ):
        return None  # both sides in one clause, and the property is not said of the other side's name before it
    if negated(folded, sentence, start, end, own_negations):
        return None  # compared with the phrase's own negations: 'no memory isolation' is not negated by its 'no'
    return Swap(compiled.contrast, other.name, owner.name, sentence, start, end)


def _sentence_is_about(
    side: Side, any_side: re.Pattern[str] | None, folded: str, sentence: Sentence, c_start: int
) -> bool:
    """Whether a clause that names no side speaks of ``side``, the subject its sentence opens with.

    'MPS is the hardware option: it carves the GPU up, each process gets its own SMs' gives MPS the SMs,
    though the last clause names nothing.  The side must be named in the sentence's first clause, and a
    sentence that names anything else a contrast knows is too tangled to judge: 'I'd list who uses memory:
    the weights, the optimizer state, the cache that grows per token' is a list, not a claim about weights.
    """
    if side.names is None or any_side is None:
        return False
    first_end = clause_bounds(folded, sentence, sentence.start)[1]
    if first_end >= c_start or not side.names.search(folded, sentence.start, first_end):
        return False
    named = [m.group() for m in any_side.finditer(folded, sentence.start, sentence.end)]
    return all(side.names.fullmatch(n) for n in named)


def _it_is(
    side: Side, any_side: re.Pattern[str] | None, folded: str, sentence: Sentence, c_start: int, start: int
) -> bool:
    """Whether the clause at ``c_start`` speaks of ``side`` through 'it': 'MPS, because it partitions the GPU'.

    Its subject must be 'it', and the clause before it must name that side and nothing else a contrast knows
    ('ZeRO-3 moves more than DDP because it all-gathers': 'it' is ZeRO-3, not DDP).
    """
    if side.names is None or any_side is None or not _PRONOUN_SUBJECT.match(folded, c_start, start):
        return False
    before = previous_clause(folded, sentence, c_start)
    if before is None:
        return False
    named = [m.group() for m in any_side.finditer(folded, *before)]
    return bool(named) and all(side.names.fullmatch(n) for n in named)


_RELATIVE = re.compile(r"(?<![a-z])which[ \t]*$")
_PRONOUN_SUBJECT = re.compile(r"\W*(?:(?:because|since|as|so|and|but|while)[ \t]+)?it(?![\w'])")
"""A clause that starts with 'it' (or 'because it', 'so it'): its subject is what the clause before named."""
_COMPARING = re.compile(r"(?<![a-z])(?:than|as|like|unlike|compared|versus|vs|relative|between|both|either)(?![a-z])")


def _said_of(other: Side, owner: Side, folded: str, c_start: int, c_end: int, start: int, end: int) -> bool:
    """In a clause naming both sides, whether the property at ``start`` is said of ``other``.

    It is when ``other`` is named before the property and ``owner`` only
    after it, with nothing comparing them: 'prefill is memory-bound and decode
    is compute-bound' says it of prefill.  'prefill and decode are
    memory-bound', 'from prefill to decode it becomes memory-bound' and
    'prefill is less memory-bound than decode' stay too tangled to judge.
    """
    assert other.names is not None and owner.names is not None
    # The owner is looked for up to the property's end: an order-free match can start at an earlier word.
    if owner.names.search(folded, c_start, end) or not other.names.search(folded, c_start, start):
        return False
    return _COMPARING.search(folded, c_start, c_end) is None


def _compile_contrast(contrast: Contrast) -> CompiledContrast:
    sides = tuple(Side(name=side.name, source=_phrase_source([side.name, *side.aliases])) for side in contrast.sides)
    return CompiledContrast(contrast, (sides[0], sides[1]))


@lru_cache(maxsize=1)
def lexicon() -> CompiledLexicon:
    """The shared lexicon, compiled once per process."""
    return CompiledLexicon(shared_content().lexicon)

"""Matching key-point and misconception aliases inside sentences.

An alias is matched in up to four ways, cheapest first:

1. exactly (case-folded), with hyphens, underscores and spaces between its
   words treated alike, so 'KV cache' finds 'kv-cache' and 'KV_cache';
2. order-free: every content word of the alias (by crude stem) appears within
   a short window, so 'ring all-reduce' finds 'all-reduce around a ring';
3. fuzzily with rapidfuzz ``partial_ratio`` and a cutoff that rises as the
   alias gets shorter, so 'quantisation' finds 'quantization' and
   'continous batching' finds 'continuous batching'.  Every alias word must
   still be in the sentence with at most one of them misspelt, and a number
   in the alias must appear exactly: 'calibration set' never matches
   'calibration step', nor '2 MB per token' '2.6 MB per token'.
4. for key points only (never a misconception or a contrast's defining
   phrase), a wording of four or more content words also matches with one
   of them missing, within the same window: a paraphrase keeps most words of
   a wording and changes one ('the slowest GPU dictates the pace' for
   'slowest GPU sets the pace').

Acronyms and short aliases ('KV', 'TP', 'P95', 'MIG') are only ever matched
exactly on word boundaries, and a longer alias that contains one ('KV cache')
needs that acronym as a whole word before steps 2 and 3 may run, so 'kvetch',
'http' and 'migrate' never earn credit.  An inverted index from stems to
aliases means a sentence is only compared with aliases whose words it holds
(all but one of them), which keeps scoring an answer to a few milliseconds.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from rapidfuzz import fuzz, process

from interviewer.grading.offline.claims import negation_count
from interviewer.grading.offline.text import Sentence, fold, pieces_of, stem, tokens_of, words

_SEP = r"[\s\-_]*"
_WORD_INFLECTION = r"(?:s|es|ed|ing|ings)?"
_NUMBER = re.compile(r"(?<![\w.,])[0-9]+(?:[.,][0-9]+)*")
_STOP = words("a an the of to in on for and or with by at as is are be it its from into per")

def is_acronym(alias: str) -> bool:
    """Short (<= 4 characters) or all-caps aliases: matched on word boundaries only, never fuzzily."""
    compact = alias.strip()
    letters = [c for c in compact if c.isalpha()]
    return len(compact) <= 4 or (len(letters) >= 2 and all(c.isupper() for c in letters) and " " not in compact)


def _is_anchor(token: str) -> bool:
    """A token of a longer alias that must appear as a whole word: acronyms, model names, numbers.

    All-caps tokens ('KV', 'MIG'), tokens with digits ('H100', 'P99') and short
    vowel-less ones written in lower case ('kv', 'tp', 'hbm').
    """
    return (
        any(c.isdigit() for c in token)
        or (len(token) >= 2 and token.isupper())
        or (len(token) <= 4 and not any(c in "aeiouyAEIOUY" for c in token))
    )


@dataclass(frozen=True)
class AliasMatcher:
    """One alias, compiled once per question."""

    alias: str
    folded: str
    pattern: str
    """The exact-match regex, compiled on first use (``exact``): most aliases of a question never meet a
    sentence that holds their words, and compiling thousands of them up front slowed the first grade."""
    stems: frozenset[str]
    """Content-word stems; all must be present for an order-free match."""
    words: tuple[str, ...]
    """Content words (folded), each of which must be present, give or take a typo, for a fuzzy match."""
    word_stems: tuple[str, ...]
    """The stem of each of ``words``, in the same order."""
    typo_gate: tuple[frozenset[str], frozenset[str]]
    """(stems of the short words, first three letters of the long words): when a sentence lacks one stem,
    a fuzzy match needs every short word by stem and every long word's start, as ``_words_present`` checks."""
    anchors: frozenset[str]
    """Folded tokens that must appear as whole tokens before order-free or fuzzy matching."""
    index_keys: frozenset[str]
    """Stems under which the alias is filed in the inverted index."""
    negations: int
    numbers: frozenset[str]
    """Numbers in the alias ('2' in '2 MB per token'): inexact matching may never change a number."""
    fuzzy_cutoff: float | None
    """None: exact only (acronyms and very short aliases)."""
    window: int
    """Largest token distance allowed between the first and last word of an order-free match."""
    min_order_free: int = 2
    """Fewest content words an alias needs before an order-free match is allowed."""

    @cached_property
    def exact(self) -> re.Pattern[str]:
        return re.compile(self.pattern)


STRICT_FUZZY_CUTOFF = 92.0
"""Fuzzy bar for misconceptions: a false accusation costs a level, so only near-verbatim statements count."""


def fuzzy_cutoff(length: int) -> float | None:
    """Higher bar for shorter aliases: one typo in 'quantisation' is fine, in 'batch' it is another word."""
    if length < 5:
        return None
    if length < 8:
        return 92.0
    if length < 12:
        return 89.0
    return 86.0


def compile_alias(alias: str, *, strict: bool = False) -> AliasMatcher:
    """Compile one alias.

    ``strict`` is for misconceptions, where a false match costs the candidate a
    level: a higher fuzzy bar, and order-free matching in a tight window, for
    an alias holding a number only with four or more content words ('64 kv
    heads' must not fire on '8 KV heads shared by the 64 query heads').
    """
    folded = fold(alias.strip())
    pieces = pieces_of(folded)
    acronym = is_acronym(alias)
    raw_tokens = [t for t in re.findall(r"[^\W_]+", alias.strip())]
    anchors = frozenset(t.lower() for t in raw_tokens if _is_anchor(t)) if not acronym else frozenset()
    if not pieces:
        pieces = [folded or alias]
    body = _SEP.join(re.escape(p) for p in pieces)
    lead = r"(?<![\w.,])" if pieces[0][0].isdigit() else r"(?<!\w)" if pieces[0][0].isalnum() else ""
    if acronym:
        single_word = len(pieces) == 1 and pieces[0].isalpha() and alias.strip() == folded.strip()
        vowel = any(c in "aeiou" for c in pieces[0])
        tail = _WORD_INFLECTION if single_word and vowel and len(pieces[0]) >= 3 else ""
        pattern = f"{lead}{body}{tail}(?!\\w)" if pieces[-1][-1].isalnum() else f"{lead}{body}"
    else:
        last = pieces[-1]
        strict_end = last.isalnum() and last in anchors
        pattern = f"{lead}{body}(?!\\w)" if strict_end else f"{lead}{body}"
    words = [t for t in tokens_of(folded) if t not in _STOP] or tokens_of(folded)
    stems = frozenset(stem(t) for t in words)
    index_keys = frozenset(stem(t) for t in tokens_of(folded)) if acronym else stems
    if not index_keys:
        index_keys = frozenset({folded})
    cutoff = None if acronym else fuzzy_cutoff(len(folded))
    if cutoff is not None and strict:
        cutoff = max(cutoff, STRICT_FUZZY_CUTOFF)
    return AliasMatcher(
        alias=alias,
        folded=folded,
        pattern=pattern,
        stems=stems,
        words=tuple(words),
        word_stems=tuple(stem(w) for w in words),
        typo_gate=(frozenset(stem(w) for w in words if len(w) <= 4), frozenset(w[:3] for w in words if len(w) > 4)),
        anchors=anchors,
        index_keys=index_keys,
        negations=negation_count(tokens_of(folded)),
        numbers=frozenset(_NUMBER.findall(folded)),
        fuzzy_cutoff=cutoff,
        window=len(words) + (1 if strict else 3),
        # Strict (misconception) aliases match in other word forms and orders only within a tight window,
        # and never when they hold a number ('64 kv heads' must not fire on '8 KV heads ... 64 query heads').
        min_order_free=4 if strict and _NUMBER.search(folded) else 2,
    )


@dataclass(frozen=True)
class Hit:
    """Where an alias matched: the sentence and the answer offsets of the evidence."""

    alias: str
    sentence: Sentence
    start: int
    end: int
    how: str
    """'exact', 'words' or 'fuzzy'."""


def _order_free(m: AliasMatcher, sentence: Sentence) -> tuple[int, int] | None:
    """The first and last token of the smallest window holding every stem of the alias, if it fits."""
    if len(m.stems) < m.min_order_free or not m.stems <= sentence.stems:
        return None
    return _window(m, sentence, m.stems)


LOOSE_MIN_STEMS = 4
"""A key-point alias of at least this many content words also matches with one of them missing."""


def _order_free_loose(m: AliasMatcher, sentence: Sentence) -> tuple[int, int] | None:
    """The smallest window holding all but one of the alias's stems, if it fits: a paraphrase keeps most
    words of a wording and changes one ('the slowest GPU dictates the pace' for 'slowest GPU sets the pace')."""
    present = m.stems & sentence.stems
    if len(m.stems) < LOOSE_MIN_STEMS or len(present) < len(m.stems) - 1:
        return None
    return _window(m, sentence, present)


def _window(m: AliasMatcher, sentence: Sentence, stems: frozenset[str]) -> tuple[int, int] | None:
    """The smallest run of tokens holding every one of ``stems`` (all in the sentence), if within the alias's window."""
    positions = [i for i, t in enumerate(sentence.tokens) if stem(t) in stems]
    if not positions:
        return None
    need = len(stems)
    best: tuple[int, int] | None = None
    counts: dict[str, int] = {}
    left = 0
    have = 0
    for pos in positions:
        key = stem(sentence.tokens[pos])
        counts[key] = counts.get(key, 0) + 1
        if counts[key] == 1:
            have += 1
        while have == need:
            if best is None or pos - positions[left] < best[1] - best[0]:
                best = (positions[left], pos)
            lkey = stem(sentence.tokens[positions[left]])
            counts[lkey] -= 1
            if counts[lkey] == 0:
                have -= 1
            left += 1
    return best if best is not None and best[1] - best[0] <= m.window else None


_WORD = re.compile(r"[^\W_]+")


def _token_span(sentence: Sentence, folded: str, first: int, last: int) -> tuple[int, int]:
    """Answer offsets from the start of token ``first`` to the end of token ``last`` of the sentence.

    So a clause-level check (negation, a contrast's side) looks at the words that matched, not at an earlier
    clause that happens to share one of their stems.
    """
    start = end = sentence.start
    for i, w in enumerate(_WORD.finditer(folded, sentence.start, sentence.end)):
        if i == first:
            start = w.start()
        if i == last:
            end = w.end()
            break
    return start, end


WORD_TYPO_CUTOFF = 80.0
"""How close a long alias word must be to some word of the sentence ('quantisation' ~ 'quantization')."""


def _words_present(m: AliasMatcher, sentence: Sentence) -> bool:
    """Every alias word is in the sentence: short words exactly (by stem), long ones allowing a typo.

    At most one word may be off (a typo); the rest must match by stem.  Guards
    the fuzzy step against near-misses that share one long word:
    'calibration set' must not match 'calibration step', nor 'max calibration'
    'has a calibration'.
    """
    present = sentence.stems
    missing = len(m.stems - present)
    if missing > 1 or missing >= len(m.stems):
        return False
    tokens = sentence.tokens
    joined: list[str] | None = None
    for word, word_stem in zip(m.words, m.word_stems, strict=True):
        if word_stem in present:
            continue
        if len(word) <= 4 or word[:3] not in sentence.prefixes:
            return False
        if process.extractOne(word, tokens, scorer=fuzz.ratio, score_cutoff=WORD_TYPO_CUTOFF) is not None:
            continue
        if joined is None:
            joined = [a + b for a, b in itertools.pairwise(tokens)]
        if process.extractOne(word, joined, scorer=fuzz.ratio, score_cutoff=WORD_TYPO_CUTOFF) is None:
            return False
    return True


def match_alias(
    m: AliasMatcher, sentence: Sentence, text: str, folded: str, *, complete: bool = True, loose: bool = False
) -> Hit | None:
    """Try the matching steps for one alias in one sentence.

    ``complete=False`` says the sentence lacks one of the alias's stems, so
    only the typo-tolerant fuzzy step, or with ``loose`` the one-word-changed
    step, can succeed, and the others are skipped.
    """
    if complete:
        found = m.exact.search(folded, sentence.start, sentence.end)
        if found:
            return Hit(m.alias, sentence, found.start(), found.end(), "exact")
    if m.fuzzy_cutoff is None:
        return None
    if m.anchors and not all(a in sentence.tokens for a in m.anchors):
        return None
    if m.numbers and not m.numbers <= set(_NUMBER.findall(folded, sentence.start, sentence.end)):
        return None
    window = _order_free(m, sentence) if complete else _order_free_loose(m, sentence) if loose else None
    if window is not None:
        start, end = _token_span(sentence, folded, *window)
        return Hit(m.alias, sentence, start, end, "words" if complete else "loose")
    if not complete:  # only a typo can match now: the cheap half of ``_words_present`` first
        short, starts = m.typo_gate
        if not (short <= sentence.stems and starts <= sentence.prefixes):
            return None
    if sentence.end - sentence.start < len(m.folded) * 0.8 or not _words_present(m, sentence):
        return None
    piece = folded[sentence.start : sentence.end]
    aligned = fuzz.partial_ratio_alignment(m.folded, piece, score_cutoff=m.fuzzy_cutoff)
    if aligned is None:
        return None
    start = sentence.start + aligned.dest_start
    end = sentence.start + aligned.dest_end
    # Grow the span to whole words so the evidence reads naturally (still a substring).
    while start > sentence.start and text[start - 1].isalnum():
        start -= 1
    while end < sentence.end and text[end].isalnum():
        end += 1
    return Hit(m.alias, sentence, start, end, "fuzzy")


@dataclass(frozen=True)
class Concept:
    """A key point or misconception: a heading and its compiled aliases."""

    key: int
    heading: str
    aliases: tuple[AliasMatcher, ...]

    @cached_property
    def by_alias(self) -> dict[str, AliasMatcher]:
        """Each alias's matcher by its text, found once: a hit names the alias it matched."""
        return {a.alias: a for a in self.aliases}


class ConceptIndex:
    """Concepts filed by alias stems, so each sentence only meets the aliases that could match it.

    An alias becomes a candidate when the sentence holds all but one of its
    content stems (every stem for acronyms), or the stem of its words run
    together ('PagedAttention' for 'paged attention'): no matching step can
    succeed with less, so nothing is lost by skipping the rest.  With
    ``typos=False`` an alias needs every stem (no misspelt word): for the
    lexicon's two thousand short defining phrases, where the typo step would
    try most of them on every sentence that names a contrast.
    """

    def __init__(self, concepts: Sequence[Concept], *, loose: bool = False, typos: bool = True):
        self.concepts = tuple(concepts)
        self.loose = loose
        # Each alias gets a number in (concept, alias) order; a stem's posting list repeats the number once per
        # unit of weight, so counting is one C-level Counter pass over the sentence's postings.
        self._pairs: list[tuple[int, int]] = []
        self._need: list[tuple[int, int]] = []
        by_stem: dict[str, list[int]] = {}
        for ci, concept in enumerate(self.concepts):
            for ai, alias in enumerate(concept.aliases):
                number = len(self._pairs)
                self._pairs.append((ci, ai))
                keys = alias.index_keys
                # A sentence missing one stem can match only through a typo in a long word (``_words_present``),
                # or, in a loose index, a long wording with one word changed (``_order_free_loose``).
                typo_possible = typos and alias.fuzzy_cutoff is not None and any(len(w) > 4 for w in alias.words)
                long_wording = loose and alias.fuzzy_cutoff is not None and len(alias.stems) >= LOOSE_MIN_STEMS
                one_short = typo_possible or long_wording
                self._need.append((max(1, len(keys) - 1) if one_short else len(keys), len(keys)))
                for key in keys:
                    by_stem.setdefault(key, []).append(number)
                if len(alias.words) > 1:
                    glued = stem("".join(alias.words))
                    if glued not in keys:
                        by_stem.setdefault(glued, []).extend([number] * len(keys))
        self._by_stem = {key: tuple(numbers) for key, numbers in by_stem.items()}

    def candidates(self, sentence: Sentence) -> list[tuple[int, int, bool]]:
        """(concept, alias, complete) for each alias worth trying; complete = every stem is present."""
        by_stem = self._by_stem
        counts = Counter(itertools.chain.from_iterable(by_stem[s] for s in sentence.stems if s in by_stem))
        need = self._need
        pairs = self._pairs
        out = []
        for number, n in counts.items():
            least, full = need[number]
            if n >= least:
                ci, ai = pairs[number]
                out.append((ci, ai, n >= full))
        out.sort()  # concept order, then alias order: the first alias of a concept that matches is its hit
        return out

    def find(
        self, sentences: Iterable[Sentence], text: str, folded: str, *, claims_only: bool = True
    ) -> dict[int, list[Hit]]:
        """Hits per concept (by position in ``concepts``), first sentence first."""
        hits: dict[int, list[Hit]] = {}
        for sentence in sentences:
            if claims_only and not sentence.claim:
                continue
            done: set[int] = set()
            for ci, ai, complete in self.candidates(sentence):
                if ci in done:
                    continue
                alias = self.concepts[ci].aliases[ai]
                hit = match_alias(alias, sentence, text, folded, complete=complete, loose=self.loose)
                if hit is not None:
                    hits.setdefault(ci, []).append(hit)
                    done.add(ci)
        return hits


def compile_concepts(items: Iterable[tuple[str, Sequence[str]]], *, strict: bool = False) -> list[Concept]:
    return [
        Concept(
            key=i,
            heading=heading,
            aliases=tuple(compile_alias(a, strict=strict) for a in aliases if a.strip()),
        )
        for i, (heading, aliases) in enumerate(items)
    ]

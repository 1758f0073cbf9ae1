"""Whether a sentence that names a key point actually says something about it.

Naming the right term is not knowing it.  Three checks sit between an alias
match and credit:

* **Polarity.**  A point named in a negated or dismissive clause ("we would
  not use paged attention", "continuous batching is irrelevant here") is
  not stated, so it earns nothing.  'Not only X' is not a negation, and an
  alias that itself holds a negation ('does not fit') is compared against
  its own count.
* **Substance.**  A sentence earns credit only when something is left once
  the aliases it names, the words of the question, function words and empty
  predicates ('is important', 'is used', 'matters', 'plays a role') are taken
  away: a cause, an effect, a quantity, a condition, a relation.
  "Reduce-scatter is important because all-gather is used" leaves nothing.
* **Templates.**  A run of such empty or negated sentences is the sentence
  form of a keyword list; the grader flags it and caps every dimension.
* **Causal chains.**  The other sentence form of a keyword list links terms
  with 'because', 'so' and 'which is why' in clauses too short to hold a
  step or a figure ("tiling becomes occupancy, and occupancy hides latency,
  which is why coalescing is essential").  Each link looks like a cause, so
  substance cannot see it; the density of links can.  Most sentences built
  that way are flagged as well.

Clauses are cut at commas, semicolons and conjunctions, so a negation in one
clause ("if the cache does not fit, requests are preempted") never reaches a
point stated in another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from interviewer.grading.offline.text import VERBS, Sentence, stem, words

NEGATORS = words(
    "not no never cannot don doesn isn aren wasn weren won wouldn shouldn couldn didn hasn haven hadn mustn needn "
    "nor neither without hardly barely nothing none"
)
"""Tokens that negate what follows them within a clause (apostrophes split 'don't' into 'don' + 't', and
'can't' into 'can' + 't', which ``_negates`` reads as one negation)."""
_NOT_NEGATING_NEXT = words("only just merely always necessarily")
"""'not only X', 'not just X': X is affirmed."""
DISMISSIVE = words(
    "irrelevant unimportant unnecessary useless pointless overrated myth overkill negligible nonissue moot"
)
"""Words after a point in its clause that dismiss it ('X is irrelevant here')."""
_DISMISS_AFTER_NEGATION = words(
    "matter matters needed need used use important relevant required necessary helpful useful concern issue "
    "apply applies help helps worth care bother"
)
"""'X does not matter', 'X is not needed', 'X never helps'."""
DISMISSIVE_BEFORE = words("forget ignore skip drop")
"""'Forget about X', 'ignore X': a point dismissed by the verb before it."""

EMPTY_WORDS = words(
    "is are was were be been being am it its it's this that these those there here they them we our us i my me "
    "you your the a an of to in on at for with from into as by and or also too very really quite definitely "
    "certainly obviously clearly surely basically generally usually always just simply important importance "
    "key crucial critical essential vital relevant relevance useful helpful necessary needed need needs required "
    "require requires good great nice big main major significant factor factors thing things stuff concept "
    "concepts aspect aspects part parts piece component components role roles play plays played playing "
    "matter matters mattered consider considered consideration considerations involve involved involves "
    "exist exists existing apply applies applied use uses used using utilize utilized do does did done "
    "should would could can will may might must shall have has had get gets got make makes made come comes "
    "into think believe know mention mentioned note noting worth remember interview answer question topic "
    "area kind sort lot lots much many some any all every each well way ways something everything "
    "because so since therefore thus hence which when while whereas then if but however although though "
    "yes yeah ok okay etc definitely course sure absolutely indeed true fact case cases general overall "
    "performance efficiency efficient optimization optimize optimized optimizing better best improve improves "
    "improved improving help helps helped affect affects impact impacts impacted about like such"
)
"""What is left of "X is important because Y is used" once X and Y are gone: nothing that says anything."""

MIN_SUBSTANCE = 2
"""Substance a sentence needs beyond the aliases it names, the question's words and empty words: two content
words, or one verb that relates things ('GQA shrinks the cache'), or a figure with its unit."""

TEMPLATE_MIN_SENTENCES = 3
TEMPLATE_SHARE = 0.4
"""At least this many sentences, and this share of the sentences that name a point, say nothing about it."""

_CLAUSE_BREAK = re.compile(
    r"[,;:()\u2014\u2013]|\s-\s|(?<![\w-])(?:but|because|so|while|whereas|which|although|though|since|when|"
    r"whenever|if|unless|until|then|and then|yet|otherwise|whereby)(?![\w-])"
)
_TOKEN = re.compile(r"[^\W_]+")


def clause_bounds(folded: str, sentence: Sentence, pos: int) -> tuple[int, int]:
    """(start, end) of the clause of ``sentence`` holding ``pos``."""
    start, end = sentence.start, sentence.end
    for b_start, b_end in _breaks(folded, sentence.start, sentence.end):
        if b_end <= pos:
            start = b_end
        elif b_start >= pos:
            end = b_start
            break
    return start, end


def previous_clause(folded: str, sentence: Sentence, c_start: int) -> tuple[int, int] | None:
    """The nearest clause of ``sentence`` before the one starting at ``c_start`` that holds a letter, if any."""
    end = c_start
    for b_start, b_end in reversed(_breaks(folded, sentence.start, sentence.end)):
        if b_end > end:
            continue
        if any(ch.isalpha() for ch in folded[b_end:end]):
            return b_end, end
        end = b_start
    if any(ch.isalpha() for ch in folded[sentence.start : end]):
        return sentence.start, end
    return None


@lru_cache(maxsize=256)
def _breaks(folded: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """The clause breaks of one sentence, found once: a sentence's clauses are asked for many times."""
    return tuple(m.span() for m in _CLAUSE_BREAK.finditer(folded, start, end))


def negated(folded: str, sentence: Sentence, start: int, end: int, own_negations: int = 0) -> bool:
    """Whether the match at ``start:end`` sits in a negated or dismissive clause."""
    c_start, c_end = clause_bounds(folded, sentence, start)
    before = _TOKEN.findall(folded, c_start, start)[-5:]
    inside = _TOKEN.findall(folded, start, end)
    after = _TOKEN.findall(folded, end, c_end)[:7]
    count = 0
    for i in range(len(before)):
        if _negates(before, i) and not (i + 1 < len(before) and before[i + 1] in _NOT_NEGATING_NEXT):
            count += 1
    count += sum(1 for i in range(len(inside)) if _negates(inside, i))
    if count > own_negations:
        return True
    if any(t in DISMISSIVE_BEFORE for t in before[-3:]):
        return True
    if any(t in DISMISSIVE for t in after):
        return True
    for i in range(len(after)):
        if _negates(after, i) and any(t in _DISMISS_AFTER_NEGATION for t in after[i + 1 : i + 4]):
            return True
    return False


def negation_count(tokens: Sequence[str]) -> int:
    """How many negations ``tokens`` hold: compared between an alias and the sentence it is found in."""
    return sum(1 for i in range(len(tokens)) if _negates(tokens, i))


def _negates(tokens: Sequence[str], i: int) -> bool:
    """Whether ``tokens[i]`` is a negation: a word of ``NEGATORS``, or 'can' of "can't"."""
    tok = tokens[i]
    return tok in NEGATORS or (tok == "can" and i + 1 < len(tokens) and tokens[i + 1] == "t")


def substance(sentence: Sentence, named: frozenset[str], background: frozenset[str], figures: int = 0) -> int:
    """What ``sentence`` says beyond naming points: its words, less the stems of the points it names
    (``named``), empty words and the question's words.

    A verb that relates things counts twice, and so does each figure with a unit (``figures``): a quantity
    is something said.  Bare digits do not ('n-1 steps matters' says nothing).
    """
    count = 2 * figures
    for tok in sentence.tokens:
        if tok[0].isdigit() or len(tok) <= 1 or tok in EMPTY_WORDS or tok in NEGATORS or tok in background:
            continue
        if stem(tok) in named:
            continue
        count += 2 if tok in VERBS else 1
    return count


def is_template_run(empty_sentences: int, naming_sentences: int) -> bool:
    """Enough sentences name a point and say nothing about it to call the answer salad."""
    return empty_sentences >= TEMPLATE_MIN_SENTENCES and empty_sentences >= TEMPLATE_SHARE * max(1, naming_sentences)


_CHAIN_LINKS = ("because", "so", "therefore", "thus", "hence")
"""One-word links of a causal chain; the multi-word ones are in ``_CHAIN_PHRASES``."""
_CHAIN_PHRASES = (
    ("which", "is", "why"),
    ("that", "s", "why"),
    ("that", "is", "why"),
    ("this", "is", "why"),
    ("which", "means"),
    ("in", "turn"),
    ("that", "gives"),
    ("which", "gives"),
    ("which", "makes"),
    ("that", "makes"),
)
CHAIN_MIN_LINKS = 2
CHAIN_MAX_WORDS_PER_LINK = 10
"""A chained sentence has at least two links and at most this many words per link on average: real prose
that gives two causes in one sentence spends more words on each.  On the development sets no answer but
salad has most of its sentences chained at up to 14 words a link."""
CHAIN_MIN_SENTENCES = 2
CHAIN_SHARE = 0.5


_PHRASES_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {
    first: tuple(p for p in _CHAIN_PHRASES if p[0] == first) for first in {p[0] for p in _CHAIN_PHRASES}
}


def _links(tokens: Sequence[str]) -> int:
    return sum(1 for i, tok in enumerate(tokens) if tok in _CHAIN_LINKS or _phrase_at(tokens, i))


def _phrase_at(tokens: Sequence[str], i: int) -> bool:
    phrases = _PHRASES_BY_FIRST.get(tokens[i])
    return phrases is not None and any(tuple(tokens[i : i + len(p)]) == p for p in phrases)


def is_causal_chain(sentences: Sequence[Sentence]) -> bool:
    """Most sentences chain terms with causal links in clauses too short to say how (salad dressed as reasons)."""
    long_enough = [s for s in sentences if s.words > 2]
    chained = 0
    for s in long_enough:
        links = _links(s.tokens)
        if links >= CHAIN_MIN_LINKS and s.words <= CHAIN_MAX_WORDS_PER_LINK * (links + 1):
            chained += 1
    return chained >= CHAIN_MIN_SENTENCES and chained >= CHAIN_SHARE * len(long_enough)


_BUZZ = re.compile(
    r"\b(?:leverag\w*|synerg\w*|holistic\w*|seamless\w*|streamlin\w*|empower\w*|interplay\w*|"
    r"align(?:s|ed)?[ ]with|ecosystem|lifecycle|guardrails?|best[ ]practices|cutting-edge|"
    r"state-of-the-art|(?:is|are|a)[ ]key|crucial|vital|paramount|plays?[ ](?:a|an)[ ](?:\w+[ ])?role|"
    r"core[ ]capabilit\w*|robust\w*|comprehensive\w*|envelope|enables?[ ](?:scaling|efficient|high|better|robust)|"
    r"various|important(?:ly)?|essential|key[ ](?:metric|consideration|factor|component|aspect)s?|"
    r"it[ ]depends|depends[ ]on)\b"
)
"""Words that sound like an explanation and say nothing: 'we leverage X', 'Y is key', 'Z plays a role'."""
BUZZ_MIN_SENTENCES = 2
BUZZ_SHARE = 0.3
"""On the development sets no excellent, paraphrase, wrong or follow-up answer has this share of its sentences
(of four words or more) built on such words; a third of the salad and a quarter of the vague answers do."""


def is_buzzword_run(sentences: Sequence[Sentence], folded: str) -> bool:
    """A share of the sentences lean on words that sound like an explanation and give none (salad as a pitch)."""
    long_enough = [s for s in sentences if s.words >= 4]
    buzz = sum(1 for s in long_enough if _BUZZ.search(folded, s.start, s.end))
    return buzz >= BUZZ_MIN_SENTENCES and buzz >= BUZZ_SHARE * len(long_enough)


def background_words(texts: Sequence[str]) -> frozenset[str]:
    """Words of the question: restating them says nothing new."""
    return frozenset(t for text in texts for t in _TOKEN.findall(text.lower()) if len(t) > 2)

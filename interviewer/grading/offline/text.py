"""Text plumbing for the offline scorer: bounding, case folding, sentences, tokens and claims.

Everything downstream works on offsets into the *original* answer, so that
evidence quoted in a grade is always an exact substring of what the candidate
typed.  That is why ``fold`` keeps the string length unchanged and why
sentences carry ``start``/``end`` instead of cleaned-up copies.

Every regex here is written to run in linear time on hostile input (long runs
of punctuation, digits or spaces): a repeated class is preceded by a negative
lookbehind of the same class, so a failed match cannot restart inside the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MAX_CHARS = 20_000
"""Only the first 20,000 characters are graded; longer answers are cut and flagged ``truncated``."""

MAX_SENTENCE_CHARS = 600
"""Run-on 'sentences' are cut into chunks of at most this size, which bounds fuzzy-matching cost."""

SEGMENTS_PER_RELATION = 3
"""A list of terms may carry one stray verb per this many items ('checkpoint restart') and stay a list."""

WORDS_PER_RELATION = 15

"""A long run of words with a single verb is a term dump with a fig leaf, not a sentence."""

MIN_CLAIM_WORDS = 4
"""A claim needs a subject, a relation and something it relates to; fewer words is a label."""


def words(text: str) -> frozenset[str]:
    """The set of space-separated words in ``text``: keeps the word lists below readable."""
    return frozenset(text.split())


FUNCTION_WORDS = words(
    "the a an of to in on at for with from into onto as like than over under between through across within "
    "via per its their our your my his her"
)
"""Articles and prepositions: prose has them, keyword lists do not.  'and'/'or' are left out (lists use them)."""
PROSE_MIN_WORDS = 5
WORDS_PER_FUNCTION_WORD = 6
"""A sentence with no verb the lexicon knows ('The image holds the CUDA libraries') still reads as prose
when at least one word in six (and at least two) is an article or preposition."""


def bound(answer: str) -> tuple[str, bool]:
    """The graded head of the answer and whether it was cut."""
    if len(answer) > MAX_CHARS:
        return answer[:MAX_CHARS], True
    return answer, False


def fold(text: str) -> str:
    """Lower-case ``text`` without changing its length, so offsets map back to the original.

    ``str.lower`` can lengthen a few characters ('İ' becomes two code points);
    those are left as they are.
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)


_TOKEN = re.compile(r"[^\W_]+")
_FREE_TOKEN = re.compile(r"(?<![\w\-])[^\W_]+(?![\w\-])")
"""Tokens that are not part of a hyphenated or underscored compound: 'reduce' in 'all-reduce' is a noun."""
"""Word tokens: runs of letters and digits (underscores, hyphens and slashes separate words)."""

_BOUNDARY = re.compile(
    r"(?<![.!?])[.!?]+(?=[\s\"'’”)\]]|$)"  # end of sentence (not a decimal point: needs space after)
    r"|(?<![\n\r\u2028\u2029])[\n\r\u2028\u2029]+"  # line breaks (bullets, list items, paragraphs)
    r"|;"
    r"|(?<=\s)[•·▪◦](?=\s)"  # inline bullets
)
_ABBREVIATIONS = ("e.g", "i.e", "vs", "etc", "approx", "cf", "resp", "fig", "eq", "no")


def _is_abbreviation(text: str, dot: int) -> bool:
    """True when the '.' at ``dot`` ends an abbreviation such as 'e.g.' rather than a sentence."""
    head = text[max(0, dot - 7) : dot].lower()
    return any(head.endswith(a) and (len(head) == len(a) or not head[-len(a) - 1].isalnum()) for a in _ABBREVIATIONS)


SOFT_WRAP_MIN_LINE = 50
"""A single line break after a line at least this long, not ending a sentence, is a hard wrap, not a break."""
_BULLET_START = re.compile(r"[ \t]*(?:[-*•·▪◦>#]|[0-9]{1,2}[.)])")


def _is_soft_wrap(text: str, m: re.Match[str]) -> bool:
    """Hard-wrapped prose (an editor's 80-column lines) continues a sentence; lists and paragraphs do not.

    Short lines are never joined, so a newline-separated keyword list stays a
    list of fragments instead of becoming one long 'sentence'.
    """
    run = m.group()
    if run.count("\n") + run.count("\r") - run.count("\r\n") != 1 or any(c in run for c in "\u2028\u2029"):
        return False
    line_start = text.rfind("\n", 0, m.start()) + 1
    line = text[line_start : m.start()].rstrip()
    if len(line) < SOFT_WRAP_MIN_LINE or line.endswith((".", "!", "?", ":", ";")):
        return False
    return not _BULLET_START.match(text, m.end())


_LINE_BREAKS = re.compile(r"(?<![\n\r\u2028\u2029])[\n\r\u2028\u2029]+")
"""The line-break runs of ``_BOUNDARY``, alone."""


def unwrapped(text: str) -> str:
    """``text`` with the line breaks of hard-wrapped prose read as spaces (same length, same offsets).

    The breaks are the ones ``split_spans`` joins, so figures and working are read across them as sentences
    are: '400 Gb/s⏎InfiniBand per GPU, which is 400 GB/s' is one restatement.
    """
    if "\n" not in text and "\r" not in text:
        return text
    chars: list[str] | None = None
    for m in _LINE_BREAKS.finditer(text):
        if _is_soft_wrap(text, m):
            chars = chars if chars is not None else list(text)
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(chars) if chars is not None else text


def split_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence-like piece of ``text``, stripped of surrounding space."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        first = m.group()[0]
        if first == "." and len(m.group()) == 1 and _is_abbreviation(text, m.start()):
            continue
        if first in "\n\r" and _is_soft_wrap(text, m):
            continue
        _add_span(text, start, m.end(), spans)
        start = m.end()
    _add_span(text, start, len(text), spans)
    return spans


def _add_span(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    while start < end and (text[start].isspace() or text[start] in "-*•·>#"):
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end <= start:
        return
    while end - start > MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", start + MAX_SENTENCE_CHARS // 2, start + MAX_SENTENCE_CHARS)
        if cut <= start:
            cut = start + MAX_SENTENCE_CHARS
        out.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        out.append((start, end))


# --------------------------------------------------------------------------- claims

_AUX = {
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "am",
    "has",
    "have",
    "had",
    "do",
    "does",
    "did",
    "can",
    "could",
    "will",
    "would",
    "should",
    "must",
    "may",
    "might",
    "shall",
    "cannot",
    "isn",
    "aren",
    "wasn",
    "weren",
    "doesn",
    "don",
    "didn",
    "won",
    "wouldn",
    "shouldn",
    "couldn",
    "can't",
    "ll",
    "re",
    "ve",
}
_CONNECTIVES = {
    "because",
    "so",
    "which",
    "when",
    "if",
    "than",
    "by",
    "since",
    "while",
    "whereas",
    "therefore",
    "thus",
    "hence",
    "then",
    "until",
    "unless",
    "that",
    "whenever",
    "otherwise",
    "once",
    "whether",
    "although",
    "though",
    "but",
    "instead",
    "where",
}
_PRONOUNS = {"we", "i", "you", "they", "it", "this", "these", "those", "he", "she"}
_VERB_BASES = sorted(
    words(
        "reduce increase take give make compute fit grow avoid cause fail exceed depend keep lower raise improve "
        "hurt let become seem happen stay remain get go come detect trigger restart retry recover evict preempt "
        "allocate reserve reuse quantize calibrate pick choose multiply divide require allow enable lose waste "
        "dominate halve imply determine decide explain apply convert compress expand replace skip saturate "
        "overlap hide exceed read write store send receive move sit contain include consist produce generate "
        "predict attend fetch finish complete synchronize communicate accumulate converge diverge overflow "
        "underflow shrink benefit suffer outperform know think say see find try want prefer recommend suggest "
        "mitigate prevent handle absorb amortize thrash contend starve serialize parallelize replicate assign "
        "arrive exist differ vary reach emit aggregate combine merge provide offer expose rely "
        "consume occupy spend halve tell notice catch decrease shorten lengthen hold inject advertise treat "
        "manage describe belong behave pay tend ensure guarantee lock unlock wake sleep spin poll block "
        "deliver fetch issue land hurt cost mean protect expose isolate recompute rebuild resume pause "
        "add remove mount trust delete validate supply carry burn talk look return miss partition "
        "classify reshape project pull push time-slice spike double triple matter happen start stop drop "
        "change count probe cap shard fuse tile"
    )
)
"""Verbs that are rarely nouns.  Words like 'cache', 'batch' or 'queue' are left out on purpose:
in a keyword list they are nouns, and counting them would let a list pass as a claim."""


def _inflections(base: str) -> set[str]:
    """Base form plus its third-person '-s' form; '-ing'/'-ed' are left out because they double as nouns."""
    forms = {base}
    if base.endswith(("s", "x", "ch", "sh", "o")):
        forms.add(base + "es")
    elif base.endswith("y") and base[-2:-1] not in "aeiou":
        forms.add(base[:-1] + "ies")
    else:
        forms.add(base + "s")
    return forms


_IRREGULAR = words(
    "went gone took taken gave given made kept held grew grown ran fell broke broken lost became came got "
    "gotten sent read wrote built bought brought caught chose chosen drew drawn drove fed felt fought found "
    "froze hid hit knew known led left let met paid put quit rose said saw seen sold shook shown shut sat "
    "slept spent spun stood stuck struck swore taught thought threw told understood woke won wound"
)
_AMBIGUOUS_S_FORMS = words(
    "means costs needs uses works depends buys adds removes drops tiles fuses shards runs answers shares "
    "copies spikes changes counts loads sets starts stops probes partitions traces falls breaks pulls pushes "
    "trusts validates supplies carries burns talks looks returns gives names misses sits splits scales limits "
    "caps routes queues batches pages streams maps tracks logs alerts checks measures profiles tests "
    "schedules launches stores writes reads sends moves fits"
)
"""Third-person forms of verbs that double as plural nouns.  They count as relations, but a comma-separated
list tolerates a few of them (see ``SEGMENTS_PER_RELATION``), so 'checkpoint shards, logs, alerts' stays a list."""
_PAST_FORMS = words(
    "dropped doubled tripled halved changed increased decreased failed crashed started stopped finished "
    "happened caused moved added removed projected reshaped overlapped spiked regressed improved degraded "
    "stalled hung restarted recovered returned reached exceeded saturated evicted preempted rejected "
    "retried timed replaced upgraded rolled shifted grew jumped fell rose"
)
"""Past tenses that are rarely adjectives; 'paged', 'fused', 'pinned' or 'quantized' are left out because
keyword lists use them as adjectives ('paged attention', 'fused kernels')."""
VERBS: frozenset[str] = frozenset(
    {form for base in _VERB_BASES for form in _inflections(base)} | _IRREGULAR | _AMBIGUOUS_S_FORMS | _PAST_FORMS
)
"""Tokens that signal a relation between terms (a verb, roughly); a keyword list has none of them."""
RELATION_WORDS: frozenset[str] = frozenset(VERBS | _AUX | _CONNECTIVES | _PRONOUNS)

_IMPERATIVES = words(
    "monitor alert watch check log profile measure track roll use set cap limit run test shed drop "
    "scale shard tune route pin warm drain throttle start stop keep add cut fall "
    "split swap copy send store write read look compare pick verify validate dump"
)
"""Verbs that double as nouns: they count only as the first word of a bullet ('Monitor queue depth')."""
_LABEL = re.compile(r"^[^:]{1,40}:\s*")

_SYMBOL_RELATION = re.compile(r"=|≈|→|->|=>|⇒|<|>|≤|≥")
_HAS_DIGIT = re.compile(r"[0-9]")
"""Segments holding a figure ('6.25 GB', 'roughly 125 ms') are neutral when judging a comma list."""
_LIST_SEP = re.compile(r",(?![0-9])|\||[•·▪◦]|\t")


@dataclass(frozen=True)
class Sentence:
    """One sentence of the answer, by offsets into the graded text."""

    index: int
    start: int
    end: int
    tokens: tuple[str, ...]
    """Folded word tokens, in order."""
    stems: frozenset[str]
    prefixes: frozenset[str]
    """First three letters of each token: a typo rarely hits them, so fuzzy matching starts here."""
    relations: int
    """How many relation tokens (verbs, auxiliaries, connectives, pronouns, '=') it contains."""
    list_like: bool
    """Mostly short comma-separated terms with at most one relation word: an enumeration, not an explanation."""
    claim: bool
    """Makes a claim: enough words, at least one relation, and not a list of terms."""

    @property
    def words(self) -> int:
        return len(self.tokens)


_SUFFIXES = (
    "isations",
    "izations",
    "isation",
    "ization",
    "ations",
    "ation",
    "izing",
    "ising",
    "izes",
    "ises",
    "ized",
    "ised",
    "ize",
    "ise",
    "ings",
    "ing",
    "ies",
    "ied",
    "es",
    "ed",
    "s",
    "ly",
)


STEM_CHARS = 5
"""Enough to keep 'parallel' and 'parameter' apart, few enough that 'saturation' meets 'saturates'."""


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """A crude, consistent stem: strip one common suffix and a final 'e', keep five characters.

    Used for cheap prefiltering and order-free matching, never on its own to
    award credit, so a few collisions are harmless.
    """
    word = token[:40]
    if len(word) > 4 and not any(ch.isdigit() for ch in word):
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        if len(word) > 3 and word.endswith("e"):
            word = word[:-1]
    return word[:STEM_CHARS]


def tokens_of(folded: str) -> list[str]:
    return _TOKEN.findall(folded)


_PIECE = re.compile(r"[^\W_]+|[^\w\s\-]")


def pieces_of(folded: str) -> list[str]:
    """Words and lone symbols ('kv', 'cache', '%'): what an alias's regex joins with optional separators."""
    return _PIECE.findall(folded)


def analyse(text: str, folded: str) -> list[Sentence]:
    """Split ``text`` into sentences and decide which ones make claims."""
    out: list[Sentence] = []
    for start, end in split_spans(text):
        piece = folded[start:end]
        toks = tuple(_TOKEN.findall(piece))
        relations = sum(1 for t in _FREE_TOKEN.findall(piece) if t in RELATION_WORDS)
        relations += len(_SYMBOL_RELATION.findall(piece))
        label = _LABEL.match(piece)
        lead = _TOKEN.match(piece, label.end()) if label else _TOKEN.match(piece)
        if lead and lead.start() <= (label.end() if label else 0) + 1 and lead.group() in _IMPERATIVES:
            relations += 1
        list_like = False
        if sum(piece.count(c) for c in ",|•·▪◦\t") >= 3:
            segments = [s for s in _LIST_SEP.split(piece) if s.strip() and not _HAS_DIGIT.search(s)]
            short = sum(1 for s in segments if _content_words(s) <= 3)
            list_like = (
                len(segments) >= 4
                and short >= 0.75 * len(segments)
                and relations <= 1 + len(segments) // SEGMENTS_PER_RELATION
            )
        heading = piece.rstrip().endswith(":")
        alpha = len(toks) - sum(1 for t in toks if t[0].isdigit())
        function_words = sum(1 for t in toks if t in FUNCTION_WORDS)
        dense = relations >= max(1, alpha // WORDS_PER_RELATION) or (
            alpha >= PROSE_MIN_WORDS and function_words >= max(2, alpha // WORDS_PER_FUNCTION_WORD)
        )
        verbish = sum(1 for t in toks[1:] if len(t) > 3 and t.endswith("es") and not t.endswith("sses"))
        claim = len(toks) >= MIN_CLAIM_WORDS and (dense or verbish >= 1) and not list_like and not heading
        out.append(
            Sentence(
                index=len(out),
                start=start,
                end=end,
                tokens=toks,
                stems=frozenset(map(stem, toks)),
                prefixes=frozenset({t[:3] for t in toks}),
                relations=relations,
                list_like=list_like,
                claim=claim,
            )
        )
    return out


def _content_words(segment: str) -> int:
    return sum(1 for t in _TOKEN.findall(segment.lower()) if len(t) > 1 and t[0].isalpha() and t not in FUNCTION_WORDS)


def is_claim(sentence: str) -> bool:
    """Whether one piece of text reads as a claim (convenience for tests and callers)."""
    sentences = analyse(sentence, fold(sentence))
    return bool(sentences) and all(s.claim for s in sentences)


def snippet(text: str, start: int, end: int, limit: int = 240) -> tuple[int, int]:
    """Offsets of at most ``limit`` characters of ``text[start:end]``, cut at a word boundary."""
    if end - start <= limit:
        return start, end
    cut = text.rfind(" ", start + limit // 2, start + limit)
    return start, (cut if cut > start else start + limit)

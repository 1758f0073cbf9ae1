"""Finding figures in an answer and checking them against a question's reference quantities.

Extraction
    One linear-time regex finds a number ('1,000', '3.35', '.5', '~60'), an
    optional range end ('20-30', '20 to 30'), an optional count multiplier
    ('2k', '70B', '1.5 million') and an optional unit with an optional
    per-second suffix ('GB/s', 'Gbps', 'tokens per second').  Values are
    converted to the base unit of their dimension (see ``units``).  A figure
    glued to a word ('H100', 'P95', 'Llama-2') is not a figure.  A figure that
    is a factor in a product ('2 x 80 x 8') is kept but never checked: only the
    result after '=' says what the candidate believes.

Ranges
    '20-30 ms' is correct when the reference lies inside a narrow range
    (high <= 2 x low); otherwise the midpoint is checked with the tolerance.

Matching a figure to a reference
    Only references of the same dimension qualify.  Each is scored by how
    close one of its aliases is to the figure in the same sentence (an alias
    just before the figure, or joined to it by 'of', is closest), plus a little
    for each word of its ``measures`` found there.

    ``correct``: some reference tied to the sentence, or the only reference of
    that dimension, accepts the figure within its tolerance ('about', '~' and
    the like widen it 1.5x).

    ``wrong`` needs real evidence, because a false accusation costs the
    candidate: an alias of a rejecting reference within 40 characters, no
    other figure in the sentence closer to that alias, the alias not being
    the figure's own 'per GPU', the figure within 12x of the reference (further
    off, it measures something else), and the figure neither a term of
    arithmetic nor a number the prompt itself gave.  Among several such
    references the one nearest in value is named.

    Even then a figure is excused (``_excused``) when it is plainly something
    else: a share or total over a count of GPUs in its sentence ('17.6 GB per
    GPU at TP=8'), a GPU's memory where something must fit ('fits in 80 GB'),
    an achieved rate below a peak ('sustains ~550 TFLOP/s'), another
    subject's known figure, or the repeat of a figure already cleared.
    Nor does a reference judge a figure whose sentence names another setting
    than its own: another link ('0.85 s over InfiniBand' against an NVLink
    time) or another precision ('70 GB in FP8' against 16-bit weights); and a
    total of both directions never confirms a figure said per direction ('900
    GB/s per direction' is H100 NVLink's total, not what each way carries).

    A figure that nothing ties down and nothing condemns is still ``correct``
    when it lands, without the 'about' widening, on the value of exactly one
    of the question's own precise references (tolerance at most 10%, a value
    the prompt does not state): a paraphrase names its quantities in its own
    words, and a worked-out result is rarely met by chance.

    Everything else is ``unverified``.  A figure written 'per X' ('2 bytes
    per parameter') only meets references whose text mentions X, unless X is
    a unit of hardware ('per GPU', 'per port').

The shared fact sheet
    Figures are also checked against the fact sheet (``cases/facts.yaml``):
    the facts of each GPU, link or model the sentence names, or, when it
    names none, of those the question names.  A question's own reference
    that belongs to one subject ('A100 shared memory per SM') is not used to
    judge a sentence that names a different one ('H100 has 228 KB'): the
    sheet judges that figure instead.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

from interviewer.content.schema import Fact, FactSheet, Quantity
from interviewer.grading.offline.text import Sentence, analyse, fold, pieces_of, stem, words
from interviewer.grading.offline.units import MULTIPLIERS, UNITS, Unit, lookup, singular
from interviewer.grading.types import NumberCheck, Verdict

_NUM = r"(?:(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+\-]?[0-9]{1,2}(?![0-9A-Za-z]))?"
"""A number as written: '4,096', '0.5', '.5', and in E notation, '8e9', '1.2e-3'."""
_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_FIGURE = re.compile(
    r"(?:(?P<approx>[~≈∼])[ ]?)?"
    rf"(?<![\w.,/\-^])(?P<a>{_NUM})"
    rf"(?:[ ]?(?P<dash>-|–|—|to)[ ]?(?P<b>{_NUM}))?"
    r"(?:(?P<mult>[kKMBT])(?![A-Za-z0-9])|[ ](?P<multw>thousand|million|billion|trillion|bn)(?![A-Za-z]))?"
    r"(?:[ \u00a0\u202f](?P<prec>(?i:int8|int4|fp16|bf16|fp8|fp32|tf32|fp4|dense|sparse|peak))(?=[ ]))?"
    rf"(?:[ \u00a0\u202f]?(?P<unit>{_UNIT_ALT})"
    r"(?P<per>/s(?:ec(?:ond)?)?(?![A-Za-z])|[ ]per[ ]sec(?:ond)?(?![A-Za-z])|[ ]a[ ]second(?![A-Za-z]))?"
    r"(?:(?<=[%×])|(?![A-Za-z0-9])))?"
)
_NOT_RATIO_AFTER = re.compile(r"[ \t]{0,3}(?:[0-9(]|[A-Za-z][0-9]|(?:GPU|gpu|node|card|chip|device)s?\b)")
_PRODUCT_BEFORE = re.compile(r"(?:[×x*·+÷]|[ ][/\-]|(?<![A-Za-z])times)[ \n]{0,2}$")
_PRODUCT_AFTER = re.compile(r"[ ]{0,2}(?:[×x*·+÷]|/[ ]|[ ]-|times(?![A-Za-z]))[ \n]{0,2}[0-9(]")
"""A term of arithmetic ('2 B + 2 B + 12 B', '1,120 / 64', '2 x 80'): kept, but only the result is judged."""
_PER_THING = re.compile(r"[ ]?(?:/|per[ ]|each[ ]|a[ ])(?!s(?:ec|econd)?\b)([A-Za-z][A-Za-z\-]{1,20})")
_APPROX_WORDS = re.compile(r"(?:about|around|roughly|approximately|approx\.?|nearly|almost|circa|some|~|≈)\s*$")
_PERCENTILE = re.compile(r"(?<![A-Za-z0-9])[pP](?:50|90|95|99|999|99\.9)(?![0-9])")
_PERCENTILE_LINK = re.compile(
    r"[ \t]*(?:(?:latency|of|is|at|under|below|around|about|target|budget|was|stays|should|be|[:=<≤~])[ \t]*){0,4}"
)
"""What may sit between 'P95' and its figure for the claim to include the label: 'P95 latency of 20 ms'."""
_NOUN = re.compile(r"[^\W\d_]+")
_TAIL_TOKEN = re.compile(r"[^\s,;:()]+")
_ESTIMATE = re.compile(
    r"[=×*÷≈]|(?<![A-Za-z])(?:so|gives|giving|leaves|leaving|total|means|which is|that is|divided|"
    r"multiplied|times|works out|comes to|roughly|about)(?![A-Za-z])"
)
_STOP = words(
    "a an the of to in on for and or with by at as is are be it its from into per total each one two "
    "fp16 bf16 fp8 int8 model"
)
MAX_FIGURES = 200
"""Hostile answers can hold thousands of numbers; beyond this many the rest are ignored."""


@dataclass(frozen=True)
class Figure:
    """A number found in the answer, with its unit read into base units."""

    start: int
    end: int
    """The claim span (may start at a 'P95' just before the number)."""
    num_start: int
    num_end: int
    readings: tuple[tuple[float, float], ...]
    """(low, high) in base units, one pair per reading of an ambiguous unit; low == high unless a range."""
    raw: tuple[tuple[float, float], ...]
    """(low, high) as written, before unit conversion (multipliers such as 'k' applied)."""
    dimension: str | None
    approx: bool
    factor: bool
    """Part of a product ('2 x 80 x 8'): never checked."""
    per: str | None
    """The thing it is per ('token' in '320 KB per token'), if any."""
    per_span: tuple[int, int] | None
    nouns: tuple[str, ...]
    """Up to three words after a unit-less number, folded ('gpus' in '8 GPUs')."""
    sentence: int

    @property
    def has_unit(self) -> bool:
        return self.dimension is not None


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _sentence_at(sentences: Sequence[Sentence], pos: int, hint: int) -> int:
    i = hint
    while i + 1 < len(sentences) and sentences[i].end <= pos:
        i += 1
    return i


def extract(text: str, sentences: Sequence[Sentence]) -> list[Figure]:
    """Every figure in ``text``, in order, tied to the sentence that holds it."""
    figures: list[Figure] = []
    si = 0
    for m in _FIGURE.finditer(text):
        if len(figures) >= MAX_FIGURES:
            break
        if not sentences:
            break
        si = _sentence_at(sentences, m.start("a"), si)
        sentence = sentences[si]
        if not (sentence.start <= m.start("a") < sentence.end):
            continue
        end = m.end()
        unit_text = m.group("unit")
        unit: Unit | None = None
        if unit_text:
            unit = lookup(unit_text, per_second=bool(m.group("per"))) or lookup(unit_text)
            if unit is not None and unit.dimension == "x" and _NOT_RATIO_AFTER.match(text, m.end("unit")):
                unit, end = None, m.start("unit")
        if unit is None:
            end = max(m.end(g) for g in ("a", "b", "mult", "multw"))
        while end > m.start() and text[end - 1] in " \u00a0\u202f":
            end -= 1
        mult = MULTIPLIERS.get(m.group("mult") or m.group("multw") or "", 1.0)
        if unit is None and m.group("mult") == "B" and not m.group("multw"):
            mult = 1e9
        a = _number(m.group("a")) * mult
        b = _number(m.group("b")) * mult if m.group("b") else a
        low, high = (a, b) if a <= b else (b, a)
        if unit is not None:
            factors = [unit.factor] + ([unit.alt_factor] if unit.alt_factor else [])
            readings = tuple((low * f, high * f) for f in factors)
        else:
            readings = ((low, high),)
        approx = bool(m.group("approx")) or bool(_APPROX_WORDS.search(text, max(0, m.start() - 16), m.start()))
        before = text[max(sentence.start, m.start() - 8) : m.start()]
        factor = bool(_PRODUCT_BEFORE.search(before)) or bool(_PRODUCT_AFTER.match(text, end))
        per_match = _PER_THING.match(text, end) if unit is not None else None
        per = singular(per_match.group(1)) if per_match else None
        per_span = per_match.span() if per_match else None
        nouns: tuple[str, ...] = ()
        if unit is None:
            words_after = []
            for w in _TAIL_TOKEN.findall(text, end, min(sentence.end, end + 40))[:3]:
                if w in ("x", "×") or not w[0].isalnum() or "/" in w:
                    break
                if w[0].isalpha():
                    words_after.append(w.lower().rstrip(".!?'\""))  # '128 SMs.' is about SMs
                if w[-1] in ".!?":
                    break
            nouns = tuple(words_after)
        start = m.start()
        floor = max(sentence.start, m.start() - 30, figures[-1].num_end if figures else 0)
        pct = None
        for found in _PERCENTILE.finditer(text, floor, m.start()):
            pct = found
        if (
            pct is not None
            and unit is not None
            and unit.dimension == "s"
            and _PERCENTILE_LINK.fullmatch(text, pct.end(), m.start())
        ):
            start = pct.start()
        figures.append(
            Figure(
                start=start,
                end=end,
                num_start=m.start(),
                num_end=end,
                readings=readings,
                raw=((low, high),),
                dimension=unit.dimension if unit else None,
                approx=approx,
                factor=factor,
                per=per,
                per_span=per_span,
                nouns=nouns,
                sentence=sentence.index,
            )
        )
    return figures


# --------------------------------------------------------------------------- references

_RATE_TAIL = re.compile(r"^(.*?)(?:/s|/sec|/second|\s+per\s+sec(?:ond)?)$")


def parse_unit(unit: str) -> tuple[str, float]:
    """(dimension, factor) for a reference's unit; an unknown unit is a count noun ('noun:gpu')."""
    text = unit.strip()
    found = UNITS.get(text)
    if found is None:
        rate = _RATE_TAIL.match(text)
        if rate:
            found = lookup(rate.group(1).strip(), per_second=True)
    if found is None:
        words = _NOUN.findall(text)
        return (f"noun:{singular(words[-1])}" if words else f"noun:{text.lower()}"), 1.0
    return found.dimension, found.factor


@dataclass(frozen=True)
class Reference:
    quantity: Quantity | Fact
    dimension: str
    value: float
    """In base units."""
    label: str
    """'3.35 TB/s (H100 HBM3 bandwidth)': shown as the NumberCheck reference and in feedback."""
    alias_source: str | None
    """The regex of ``aliases``, compiled on first use: the fact sheet holds over 200 references, and most never
    meet a sentence that holds one of their first words."""
    measure_stems: frozenset[str]
    text_stems: frozenset[str]
    """Stems of measures, aliases and unit: a 'per X' figure needs X among them."""
    subject: str | None = None
    """The fact-sheet subject (GPU, link or model) this figure is about, when known."""
    first_pieces: tuple[str, ...] = ()
    """The first word of each alias: a sentence holding none of them cannot match ``aliases``."""

    @cached_property
    def settings(self) -> frozenset[int]:
        """The links, precisions and directions its ``measures`` names ('over NVLink', 'in 16-bit', 'each
        direction'): see ``_SETTINGS``."""
        return named_settings(fold(self.quantity.measures))

    @cached_property
    def premises(self) -> tuple[Figure, ...]:
        """Figures with units that its ``measures`` assumes ('Checkpoint save time for 1.4 TB'), other than its own
        kind of quantity and rates: a bandwidth or FLOP rate there is the hardware's, and a candidate who states
        another has more often misremembered it than chosen another scenario."""
        text = self.quantity.measures
        found = extract(text, analyse(text, fold(text)))
        return tuple(f for f in found if f.dimension not in (None, self.dimension, *_RATES))

    @cached_property
    def aliases(self) -> re.Pattern[str] | None:
        """One alternation of the reference's aliases, matched on folded text."""
        return re.compile(self.alias_source) if self.alias_source is not None else None


def _first_pieces(aliases: Sequence[str]) -> tuple[str, ...]:
    firsts = {pieces[0] for a in aliases if (pieces := pieces_of(fold(a.strip())))}
    return tuple(sorted(firsts))


def _alias_source(aliases: Sequence[str]) -> str | None:
    """One alternation of a reference's aliases (longest first, ties by text), as regex source."""
    bodies = []
    for alias in aliases:
        pieces = pieces_of(fold(alias.strip()))
        if pieces:
            bodies.append(r"[\s\-_]*".join(re.escape(p) for p in pieces))
    if not bodies:
        return None
    return r"(?<!\w)(?:" + "|".join(sorted(sorted(set(bodies)), key=len, reverse=True)) + ")"


def compile_references(
    quantities: Sequence[Quantity | Fact], subject_of: Callable[[str], str | None] = lambda _: None
) -> list[Reference]:
    refs = []
    for q in quantities:
        dimension, factor = parse_unit(q.unit)
        words = [w for w in _NOUN.findall(fold(q.measures)) if w not in _STOP and len(w) >= 3]
        tokens = re.findall(r"[^\W_]+", fold(" ".join([q.measures, q.unit, *q.aliases])))
        refs.append(
            Reference(
                quantity=q,
                dimension=dimension,
                value=q.value * factor,
                label=f"{q.value:g} {q.unit} ({q.measures})",
                alias_source=_alias_source(q.aliases),
                first_pieces=_first_pieces(q.aliases),
                measure_stems=frozenset(stem(w) for w in words),
                text_stems=frozenset(stem(t) for t in tokens),
                subject=subject_of(q.measures),
            )
        )
    return refs


def working_reference(working: str) -> Reference:
    """A stand-in reference for a figure judged by the candidate's own arithmetic; its label shows the working."""
    return Reference(
        quantity=Quantity(measures=working, value=0, unit="x"),
        dimension="x",
        value=0.0,
        label=working,
        alias_source=None,
        measure_stems=frozenset(),
        text_stems=frozenset(),
    )


_SAID_OF = re.compile(
    r"(?:[ ]?'s)?(?:[ ]{0,2}(?:has|have|had|with|offers|gives|provides|delivers|reaches|is|are|was|at|about|around|"
    r"roughly|approximately|only|just|of|~|:|,|\(|-|=))*[ ]{0,2}~?"
)
"""What may sit between a subject's name and a figure said of it."""
_BOUND_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:under|above|below|at[ ]least|at[ ]most|up[ ]to|less[ ]than|more[ ]than|exceeds?|exceeding)"
    r"|[<>≤≥])[ ]{0,2}(?:(?:about|around|roughly|approximately)[ ]{1,2}|~|≈)?[ ]{0,2}$"
)
"""A limit before a figure ('under ~10%', 'up to 164 KB'): a bound the candidate sets, not a value they state."""
_LEFT_OVER = re.compile(r"[ ]{1,2}(?:to[ ]spare|spare|left|free|remaining|of[ ]headroom|headroom|more|less|extra)\b")
"""'an H100 with 10 GB to spare': the figure is what remains, not the subject's own."""
_COUNTED = re.compile(r"(?:[0-9]+[ ]?[x×*]?|two|four|eight|sixteen|several|many|multiple)[ ]{0,2}$")
"""A count just before a name ('8 H100s', '8x H100'): the figure is the group's, not one device's."""


class FactIndex:
    """The fact sheet compiled for checking: who a sentence names, and the figures known about them."""

    def __init__(self, sheet: FactSheet | None) -> None:
        self.refs: dict[str, tuple[Reference, ...]] = {}
        names: dict[str, str] = {}
        for subject in sheet.subjects if sheet else []:
            sid = subject.id
            facts: list[Fact] = list(subject.facts)
            if subject.kind == "link":
                # A figure next to a link's name is about that link ('PCIe Gen4 at 32 GB/s'); a GPU's or a
                # model's name is not enough, since a sentence about an H100 also mentions its NIC.
                facts = [f.model_copy(update={"aliases": [*f.aliases, *subject.names]}) for f in facts]
            self.refs[sid] = tuple(compile_references(facts, lambda _, sid=sid: sid))  # type: ignore[misc]
            for name in subject.names:
                folded = " ".join(re.findall(r"[^\W_]+", fold(name)))
                if folded:
                    names.setdefault(folded, sid)
        self._owner = names
        self.hardware = frozenset(s.id for s in (sheet.subjects if sheet else []) if s.kind in ("gpu", "link"))
        """GPUs and links: a question naming one of them judges a family's bare name ('NVLink') by its figures."""
        self.families = frozenset(subject.id for subject in (sheet.subjects if sheet else []) if subject.family)
        self.family_refs = frozenset(id(r) for sid in self.families for r in self.refs[sid])
        """The families' references, by identity: in a question about a GPU they may condemn but not confirm."""
        bodies = [r"[\s\-_.]*".join(map(re.escape, b.split())) for b in sorted(names, key=len, reverse=True)]
        self._pattern = re.compile(r"(?<![\w.])(?:" + "|".join(bodies) + r")(?!\w)") if bodies else None
        # 'A100' is every A100's name when a figure is said of it: a 40 GB A100 is as real as the 80 GB one.
        self._variants: dict[str, frozenset[str]] = {
            name: frozenset(sid for other, sid in names.items() if other == name or other.startswith(name + " "))
            for name in names
        }

    def named(self, folded: str, start: int = 0, end: int | None = None) -> frozenset[str]:
        """Subject ids named in ``folded[start:end]``."""
        if self._pattern is None:
            return frozenset()
        stop = len(folded) if end is None else end
        found = self._pattern.finditer(folded, start, stop)
        ids = frozenset(self._owner[" ".join(re.findall(r"[^\W_]+", m.group()))] for m in found)
        specific = ids - self.families
        return specific or ids

    def dimensions(self, subjects: frozenset[str]) -> frozenset[str]:
        """The kinds of figure the facts of ``subjects`` hold ('noun:sm' for an SM count)."""
        return frozenset(r.dimension for sid in subjects for r in self.refs.get(sid, ()))

    def said_of(self, folded: str, start: int, at: int) -> frozenset[str]:
        """The subjects a figure at ``at`` is said of: a name just before it, joined only by 'has', 'with', 'at'...

        'The A100 has 128 SMs' and "Mixtral's 56B parameters" say the figure is the subject's own; '8 H100s
        have 640 GB' (a count of them), 'the H100 node has 640 GB' and 'an H100 needs 3 GB for the cache' do not.
        """
        if self._pattern is None:
            return frozenset()
        last = None
        for m in self._pattern.finditer(folded, max(start, at - 60), at):
            last = m
        if last is None or not _SAID_OF.fullmatch(folded, last.end(), at):
            return frozenset()
        if _COUNTED.search(folded, max(start, last.start() - 12), last.start()):
            return frozenset()
        return self._variants.get(" ".join(re.findall(r"[^\W_]+", last.group())), frozenset())

    def subject_of(self, text: str) -> str | None:
        """The one subject a reference's ``measures`` names; None for none or several."""
        found = self.named(fold(text))
        return next(iter(found)) if len(found) == 1 else None


FACTOR_TOLERANCE = 0.5
"""Above this, a tolerance is read as a factor on both sides of the value rather than a band around it."""


def accepts(ref: Reference, figure: Figure) -> bool:
    """Whether the figure is within the reference's tolerance (see the module docstring for ranges)."""
    tol = ref.quantity.tolerance * (1.5 if figure.approx else 1.0)
    v = ref.value
    slack = tol * abs(v) + 1e-12
    # A wide tolerance is a factor either way ('5 us, tolerance 1.0' is 2.5 to 10 us), not a band that
    # reaches down to zero: '1.5 GB' is no 'roughly 5-20 GB' image.
    floor = abs(v) / (1 + tol) if ref.quantity.tolerance > FACTOR_TOLERANCE else abs(v) - slack

    def near(x: float) -> bool:
        return abs(x - v) <= slack and abs(x) >= floor - 1e-12

    for low, high in figure.readings:
        if low == high:
            if near(low):
                return True
            continue
        if low <= v <= high and high <= 2 * low:
            return True
        if near((low + high) / 2):
            return True
    return False


class Closeness(NamedTuple):
    """(A tuple, not a dataclass: one is made for every figure and reference of its kind, ~100 per answer.)"""

    score: float
    """Alias proximity (up to 2) plus measures words found in the sentence (up to 0.9)."""
    alias_gap: float | None
    """Characters between the figure and the nearest alias; None when no alias is in the sentence."""
    alias_span: tuple[int, int] | None


_AliasCache = dict[tuple[int, int], list[tuple[int, int]]]


def _alias_spans(ref: Reference, sentence: Sentence, folded: str, cache: _AliasCache) -> list[tuple[int, int]]:
    key = (id(ref), sentence.index)
    spans = cache.get(key)
    if spans is None:
        pattern = ref.aliases
        start, end = sentence.start, sentence.end
        spans = (
            [m.span() for m in pattern.finditer(folded, start, end)]
            if pattern is not None and any(folded.find(p, start, end) >= 0 for p in ref.first_pieces)
            else []
        )
        cache[key] = spans
    return spans


_BINDING = re.compile(r"[ ]{0,2}(?:of|for|in|on)[ ]{1,2}(?:the[ ]{1,2})?")


def _gap(span: tuple[int, int], figure: Figure, folded: str) -> float:
    """Characters between an alias and a figure, counting an alias after the figure as further away.

    'NVLink is 600 GB/s' (alias first) is the usual way to state a figure;
    '640 GB of HBM' (alias after) is common too, but when a sentence holds two
    figures, 'HBM is 3.35 TB/s while NVLink is 600 GB/s', the alias belongs to
    the figure that follows it.  An alias joined to the figure by 'of', 'for'
    or 'in' ('140 GB of weights') is bound to it: distance 0.
    """
    start, end = span
    if end <= figure.num_start:
        return figure.num_start - end
    if start >= figure.num_end:
        if _BINDING.fullmatch(folded, figure.num_end, start):
            return 0  # '140 GB of weights'
        return (start - figure.num_end) * 1.5 + 5
    return 0


class _Tie(NamedTuple):
    """What ties one reference to one sentence, whatever the figure: found once per sentence."""

    ref: Reference
    sheet: bool
    """From the fact sheet (judged with ``FACT_WRONG_MAX_GAP``), not the question's own quantities."""
    spans: list[tuple[int, int]]
    """Where the reference's aliases are in the sentence."""
    words: float
    """The bonus for words of its ``measures`` found in the sentence."""


def _tie(ref: Reference, sheet: bool, sentence: Sentence, folded: str, cache: _AliasCache) -> _Tie:
    words = len(ref.measure_stems & sentence.stems)
    return _Tie(ref, sheet, _alias_spans(ref, sentence, folded, cache), min(0.9, 0.3 * words))


def _closeness(tie: _Tie, figure: Figure, folded: str) -> Closeness:
    """How strongly the sentence ties ``figure`` to the reference.

    An alias inside the figure's own 'per GPU' raises the score (it may
    confirm) but is not reported as the tying alias (it may not condemn):
    '293 GB per GPU' is not about whatever reference has 'per GPU' as an alias.
    A 'per token' or 'per parameter' is different: it says what the figure
    measures, so it may condemn ('KV is about 40 KB per token').
    """
    if not tie.spans:
        return Closeness(tie.words, None, None)
    best, best_tie, gap_best, span = 0.0, 0.0, None, None
    neutral = figure.per in NEUTRAL_PER
    for start, end in tie.spans:
        gap = _gap((start, end), figure, folded)
        score = 2.0 / (1.0 + gap / 25.0)
        best = max(best, score)
        if score > best_tie and not (neutral and _overlaps((start, end), figure.per_span)):
            best_tie, gap_best, span = score, gap, (start, end)
    return Closeness(best + tie.words, gap_best, span)


@dataclass(frozen=True)
class Checked:
    figure: Figure
    verdict: Verdict
    reference: Reference | None
    given: bool = False
    """The figure restates a number from the question prompt: never wrong, and no credit even when correct."""


@dataclass(frozen=True)
class Given:
    """A number stated in the question prompt."""

    dimension: str | None
    readings: tuple[tuple[float, float], ...]


NEUTRAL_PER = words(
    "gpu node port link direction device card nic chip socket host server machine instance replica rank worker way"
)
"""'900 GB/s per GPU' is still the bandwidth; 'per token' or 'per parameter' make it a different quantity."""
COUNT_LIKE = frozenset({"item", "tok", "param"})
GIVEN_TOLERANCE = 0.03
"""'4k' restates a prompt's '4,096' (2.3% apart)."""
WRONG_MAX_GAP = 40
FACT_WRONG_MAX_GAP = 20
"""The fact sheet condemns only a figure its subject's sentence ties closely to a fact: it is broad, so it must
be sure.  A sheet figure can always confirm a figure, from the sentence's subject or the question's."""
WRONG_MAX_RATIO = 12.0
"""A figure more than 12x away from a reference is taken to measure something else, not to misstate it.

Misremembered figures, bits for bytes (8x), a missed GQA factor (8x),
per-direction for total (2x) and a slipped decimal point, rounded ('31
TFLOP/s' for 312: 10.06x) all fall inside; a stray '80 GB' next to an alias
of a 164 KB reference does not."""


def _overlaps(a: tuple[int, int], b: tuple[int, int] | None) -> bool:
    return b is not None and a[0] < b[1] and b[0] < a[1]


PREFIX_SLIP = 1000.0
PREFIX_SLIP_TOLERANCE = 2.2
"""A rate a thousand times off its reference (give or take this factor) is a unit-prefix slip, TB/s written for
GB/s ('NVLink on H100 at 900 TB/s'), not another quantity: rates of other things are rarely that far apart."""
_RATES = frozenset({"B/s", "flop/s"})


def _plausible(ref: Reference, figure: Figure) -> bool:
    distance = _log_distance(ref, figure)
    if distance <= math.log(WRONG_MAX_RATIO):
        return True
    return ref.dimension in _RATES and abs(distance - math.log(PREFIX_SLIP)) <= math.log(PREFIX_SLIP_TOLERANCE)


"""An alias further than this many characters from a figure can confirm it but never condemn it."""


def compile_givens(prompt: str, sentences: Sequence[Sentence]) -> tuple[Given, ...]:
    return tuple(Given(f.dimension, f.readings if f.dimension else f.raw) for f in extract(prompt, sentences))


def _near(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol * max(abs(a), abs(b)) + 1e-12


def is_given(figure: Figure, dimension: str, givens: Sequence[Given]) -> bool:
    for g in givens:
        if g.dimension is not None and g.dimension == dimension:
            pairs = [(x, y) for x in figure.readings for y in g.readings]
        elif g.dimension is None and (
            figure.dimension is None or dimension in COUNT_LIKE or dimension.startswith("noun:")
        ):
            pairs = [(x, y) for x in figure.raw for y in g.readings]
        else:
            continue
        if any(_near(x[0], y[0], GIVEN_TOLERANCE) and _near(x[1], y[1], GIVEN_TOLERANCE) for x, y in pairs):
            return True
    return False


def figure_dimension(
    figure: Figure, refs: Sequence[Reference], sheet_dims: frozenset[str] = frozenset()
) -> str | None:
    """The figure's dimension; a unit-less number takes one from a following noun that a reference uses (or a
    fact of a subject its sentence names: 'the A100 has 128 SMs')."""
    if figure.dimension is not None:
        return figure.dimension
    dims = {r.dimension for r in refs} | sheet_dims
    for word in figure.nouns:
        noun = singular(word)
        if f"noun:{noun}" in dims:
            return f"noun:{noun}"
        unit = UNITS.get(word) if word.endswith("s") else None
        if unit is not None and unit.factor == 1.0 and unit.dimension in dims:
            return unit.dimension
    return None


def _log_distance(ref: Reference, figure: Figure) -> float:
    v = abs(ref.value) or 1e-12
    return min(abs(math.log((abs((lo + hi) / 2) or 1e-12) / v)) for lo, hi in figure.readings)


def check(
    figures: Sequence[Figure],
    refs: Sequence[Reference],
    sentences: Sequence[Sentence],
    folded: str,
    givens: Sequence[Given] = (),
    facts: FactIndex | None = None,
    default_subjects: frozenset[str] = frozenset(),
    bound: Mapping[int, int] | None = None,
) -> list[Checked]:
    """A verdict for every figure that has a unit (or a count noun a reference uses).

    A figure that restates the prompt ('given') can be ``correct`` but earns
    no credit (the grader checks ``given``) and is never ``wrong``.

    ``correct`` when any reference tied to the sentence (or the only one of
    its dimension) accepts it, or when nothing ties or condemns it and it lands
    on the value of exactly one precise reference of the question's own
    (``_only_value_match``).  ``wrong`` only when an alias of a rejecting
    reference sits within ``WRONG_MAX_GAP`` characters, no other figure in the
    sentence is closer to that alias, the alias is not the figure's own 'per
    GPU', the figure is within ``WRONG_MAX_RATIO`` of the reference, the
    reference's value is not one the prompt states, and the figure is
    neither a term of arithmetic nor a number the prompt gave.  Everything else is ``unverified``.

    ``bound`` maps the result of a chain of working to where the chain starts: the result is as close to an
    alias as the chain's first term ('KV per token = 2 x 80 x 8 x 128 x 2 B = 320 KiB').
    """
    out: list[Checked] = []
    cleared: list[Figure] = []
    """Figures judged correct or excused so far: their repeats are not accused."""
    cache: _AliasCache = {}
    named: dict[int, frozenset[str]] = {}
    in_sentence: dict[int, list[Figure]] = {}
    pools: dict[tuple[int, str, str | None], tuple[list[Reference], list[_Tie]]] = {}
    """Per (sentence, dimension, per): the candidate references and what ties each to the sentence."""
    every: dict[int, list[Figure]] = {}
    for f in figures:
        every.setdefault(f.sentence, []).append(f)
        if not f.factor:
            in_sentence.setdefault(f.sentence, []).append(f)
    repeated = Counter((f.dimension, f.readings) for f in figures)
    # 'over NVLink' in a question about H100s: the H100's figures judge it, and the family's (every generation)
    # may only condemn, or an A100's 600 GB/s would pass for an H100's.  References by identity.
    hearsay = facts.family_refs if facts is not None and default_subjects & facts.hardware else frozenset()
    settings_of: dict[int, frozenset[int]] = {}

    def sentence_settings(index: int) -> frozenset[int]:
        if index not in settings_of:
            settings_of[index] = named_settings(folded, sentences[index].start, sentences[index].end)
        return settings_of[index]

    for fig in figures:
        sentence = sentences[fig.sentence]
        here: frozenset[str] = frozenset()
        if facts is not None:
            if fig.sentence not in named:
                named[fig.sentence] = facts.named(folded, sentence.start, sentence.end)
            here = named[fig.sentence]
        sheet_dims = facts.dimensions(here) if facts is not None and fig.dimension is None else frozenset()
        dim = figure_dimension(fig, refs, sheet_dims)
        if dim is None:
            continue
        if fig.dimension is None:
            fig = replace(fig, dimension=dim)
        per = None if fig.per is None or fig.per in NEUTRAL_PER else stem(fig.per)
        key = (fig.sentence, dim, per)
        if key not in pools:
            pool: Sequence[Reference] = refs
            sheet_ids: set[int] = set()
            if facts is not None:
                subjects = here or default_subjects
                if here and here <= facts.families and hearsay:
                    subjects = here | default_subjects  # the question's GPU judges a bare family name
                sheet_refs = [r for sid in sorted(subjects) for r in facts.refs.get(sid, ())]
                sheet_ids = {id(r) for r in sheet_refs}  # by identity: comparing dataclasses field by field is slow
                pool = [r for r in refs if r.subject is None or not here or r.subject in here] + sheet_refs
            found = [r for r in pool if r.dimension == dim and (per is None or per in r.text_stems)]
            pools[key] = (found, [_tie(r, id(r) in sheet_ids, sentence, folded, cache) for r in found])
        cands, ties = pools[key]
        near = replace(fig, num_start=bound[fig.num_start]) if bound and fig.num_start in bound else fig
        scored = [(c, t) for t in ties if (c := _closeness(t, near, folded)).score > 0]
        given = is_given(fig, dim, givens)
        # Only a reference that names a link, precision or direction needs the sentence's: most name none.
        way = sentence_settings(fig.sentence) if any(t.ref.settings for t in ties) else frozenset()
        accepted = [
            (c.score, -i, t.ref)
            for i, (c, t) in enumerate(scored)
            if accepts(t.ref, fig) and not _other_setting(t.ref, way, _DIRECTIONS) and id(t.ref) not in hearsay
        ]
        if accepted and any(
            t.sheet and c.alias_gap is not None and c.alias_gap <= BOUND_ALIAS_GAP and not accepts(t.ref, fig)
            and not _other_setting(t.ref, way)
            for c, t in scored
        ):
            unnamed = {id(t.ref) for c, t in scored if t.sheet and c.alias_gap is None}
            accepted = [a for a in accepted if id(a[2]) not in unnamed]
        if accepted:
            out.append(Checked(fig, "correct", max(accepted, key=lambda t: (t[0], t[1]))[2], given=given))
            cleared.append(fig)
            continue
        if (
            not scored
            and len(cands) == 1
            and accepts(cands[0], fig)
            and not _other_setting(cands[0], way, _DIRECTIONS)
            and id(cands[0]) not in hearsay
        ):
            out.append(Checked(fig, "correct", cands[0], given=given))
            cleared.append(fig)
            continue
        if given:
            out.append(Checked(fig, "unverified", None, given=True))
            continue
        others = [f for f in in_sentence.get(fig.sentence, []) if f.num_start != fig.num_start]
        # A family's figure of some generation ('400 Gb/s InfiniBand' is NDR) is no error for its other generations.
        vouched = {t.ref.subject for _, t in scored if id(t.ref) in hearsay and accepts(t.ref, fig)}
        condemning = [
            (c, t.ref)
            for c, t in scored
            if c.alias_gap is not None
            and c.alias_span is not None
            and c.alias_gap <= (FACT_WRONG_MAX_GAP if t.sheet else WRONG_MAX_GAP)
            and (not t.sheet or t.ref.subject in here)
            and all(_gap(c.alias_span, o, folded) >= c.alias_gap for o in others)
            and _plausible(t.ref, fig)
            and not accepts(t.ref, fig)  # a reference that may only condemn can still accept it
            and t.ref.subject not in vouched
            and not _stated(t.ref, givens)
            and not _other_setting(t.ref, way)
            and (t.sheet or not _other_premise(t.ref, every.get(fig.sentence, []), fig))
        ]
        limit = _BOUND_BEFORE.search(folded, max(sentence.start, fig.num_start - 25), fig.num_start) is not None
        if limit:
            condemning = []  # 'keep the bubble under ~10%' sets a limit; it does not state the reference's value
        # A figure nothing condemns is cleared when it is a share or an achieved rate of some reference in play,
        # so that its repeat elsewhere ('minus 17.6 GB of weights') is not accused either.
        blamed = [r for _, r in condemning] or cands
        excused = (bool(condemning) or repeated[(fig.dimension, fig.readings)] > 1) and (
            _restated(fig, cleared) or _excused(fig, blamed, cands, others, sentence, folded)
        )
        if excused:
            cleared.append(fig)
        if condemning and not fig.factor and not excused:
            top = max(c.score for c, _ in condemning)
            tied = [r for c, r in condemning if c.score >= top - 1e-9]
            out.append(Checked(fig, "wrong", min(tied, key=lambda r: _log_distance(r, fig))))
        elif (
            not limit
            and (owned := _owned_wrong(facts, fig, dim, per, sentence, folded, way)) is not None
            and not excused
            and not _excused(fig, [owned], cands, others, sentence, folded)
        ):
            out.append(Checked(fig, "wrong", owned))
        elif not limit and not fig.factor and (own := _only_value_match(ties, fig, way, givens)) is not None:
            out.append(Checked(fig, "correct", own))
            cleared.append(fig)
        else:
            out.append(Checked(fig, "unverified", None))
    return out


VALUE_MATCH_TOLERANCE = 0.1
"""Only a reference this precise, met without the 'about' widening, confirms a figure by value alone: a loose one
('~5 ms' against 6.5 ms at 30%) is met by chance too often."""


def _only_value_match(
    ties: Sequence[_Tie], fig: Figure, way: frozenset[int], givens: Sequence[Given]
) -> Reference | None:
    """The one value among the question's own references that accepts a figure no alias ties down, if any.

    A paraphrase names its quantities in its own words ('each card sends about 24.5 GB'), which no alias
    reaches; but a figure that lands within tolerance on a value the question worked out, and on no other,
    is that result.  A value the prompt states proves nothing (copying it is free), and the sheet's broad
    facts are left out: '80 GB' is too common a figure to be evidence of any one of them.
    """
    exact = replace(fig, approx=False)
    own = [
        t.ref
        for t in ties
        if not t.sheet
        and t.ref.quantity.tolerance <= VALUE_MATCH_TOLERANCE
        and accepts(t.ref, exact)
        and not _other_setting(t.ref, way, _DIRECTIONS)
        and not _stated(t.ref, givens)
    ]
    if not own or len({r.value for r in own}) > 1:
        return None
    return own[0]


BOUND_ALIAS_GAP = 2
"""An alias this close to a figure says what the figure measures ('900 GB/s of memory bandwidth'): a reference
whose alias sits further away cannot confirm it."""


ACHIEVED = words(
    "achieved achievable achieve attain attained attainable practical practice usable useful sustained sustain "
    "sustains sustainable effective realistic realistically measured observed actual actually"
)
"""Words that make a rate an achieved one rather than the datasheet's peak: '~25 GB/s usable on Gen4'."""
_ACHIEVED_STEMS = frozenset(stem(w) for w in ACHIEVED)
ACHIEVED_MAX_RATIO = 2.0
APPROX_BELOW_RATIO = 1.35
SHARE_TOLERANCE = 0.12
_BOTH_WAYS = re.compile(r"both directions|bidirectional", re.IGNORECASE)
_FITS = re.compile(
    r"(?:fits?|fitting)[ ](?:in|into|on|within)[ ](?:an?[ ]|one[ ]|a[ ]single[ ])?~?$|(?:on|of)[ ]an?[ ]$"
)
GPU_CAPACITIES = tuple(x * 1e9 for x in (16, 24, 32, 40, 48, 80, 94, 96, 141, 180, 192))
"""GPU memory sizes in bytes (V100, L4, A10G, A100, L40S, H100, H100 NVL, H200, B200)."""
_SHARERS = words("gpu gpus node nodes rank ranks nic nics replica replicas shard shards card cards device devices way")
_PARALLEL_DEGREE = re.compile(r"(?:tp|pp|dp|ep|cp)[ ]?[=:]?[ ]?$")


_SETTINGS: tuple[tuple[str, ...], ...] = (
    # links
    ("nvlink", "nvswitch"),
    ("infiniband", "ib", "ndr", "hdr", "xdr", "edr"),
    ("pcie", "pci-e", "pci express"),
    ("ethernet", "roce", "tcp"),
    # precisions (stored bytes, and Tensor Core rates)
    ("fp32", "float32", "32-bit", "single precision"),
    ("tf32",),
    ("bf16", "fp16", "16-bit", "bfloat16", "float16", "half precision"),
    ("fp8", "int8", "8-bit"),
    ("int4", "fp4", "nf4", "4-bit"),
    # directions of a link
    ("each direction", "per direction", "one direction", "each way", "one way", "unidirectional"),
    ("both directions", "bidirectional", "both ways", "total", "aggregate", "combined"),
)
"""Settings a figure depends on, one tuple per setting: four links, five precisions, two directions."""
_SETTING_FAMILIES = ((0, 4), (4, 9))
"""Links and precisions: a reference about another one cannot condemn the figure.  It may still confirm it: a
sentence about mixed precision names BF16 for the weights and means FP32 for the master copy."""
_DIRECTIONS = ((9, 11),)
"""A total of both directions cannot confirm a figure said per direction (nor the reverse), but it can still
condemn one: halved, it is what each direction carries (see ``_excused``)."""
_SETTING = re.compile(
    "|".join(
        rf"(?P<s{i}>(?<![\w-])(?:{'|'.join(re.escape(w) for w in names)})(?![\w-]))"
        for i, names in enumerate(_SETTINGS)
    )
)


def _owned_wrong(
    facts: FactIndex | None, fig: Figure, dim: str, per: str | None, sentence: Sentence, folded: str,
    way: frozenset[int],
) -> Reference | None:
    """The fact a figure said of a subject contradicts ('The A100 has 128 SMs'), when none of its facts of that
    kind accepts it and the nearest is within ``WRONG_MAX_RATIO``; None otherwise."""
    if facts is None or fig.factor or _LEFT_OVER.match(folded, fig.end):
        return None
    owners = facts.said_of(folded, sentence.start, fig.start)
    if not owners:
        return None
    own = [
        r for sid in sorted(owners) for r in facts.refs.get(sid, ())
        if r.dimension == dim and (per is None or per in r.text_stems) and not _other_setting(r, way)
    ]
    if not own or any(accepts(r, fig) for r in own):
        return None
    nearest = min(own, key=lambda r: _log_distance(r, fig))
    return nearest if _plausible(nearest, fig) else None


def named_settings(folded: str, start: int = 0, end: int | None = None) -> frozenset[int]:
    """The settings (indexes into ``_SETTINGS``) that ``folded[start:end]`` names."""
    found = _SETTING.finditer(folded, start, len(folded) if end is None else end)
    return frozenset(int(m.lastgroup[1:]) for m in found if m.lastgroup is not None)


def _other_setting(
    ref: Reference, named: frozenset[int], families: tuple[tuple[int, int], ...] = _SETTING_FAMILIES
) -> bool:
    """The sentence names a setting of ``families`` of which the reference names another, and not its own."""
    own = ref.settings
    if not own or not named:
        return False
    for lo, hi in families:
        mine = {i for i in own if lo <= i < hi}
        said = {i for i in named if lo <= i < hi}
        if mine and said and not mine & said:
            return True
    return False


PREMISE_TOLERANCE = 0.1
"""A stated premise this close to the reference's is the same premise."""


def _other_premise(ref: Reference, stated: Sequence[Figure], fig: Figure) -> bool:
    """The sentence sets one of the reference's premises to another value: '56 s for a 5.6 TB checkpoint' is no
    misstated '14 s for 1.4 TB', it is another scenario worked through (rates are not premises: see
    ``Reference.premises``)."""
    for dim in {p.dimension for p in ref.premises}:
        assumed = [_mid(p) for p in ref.premises if p.dimension == dim]
        same = [_mid(f) for f in stated if f.dimension == dim and f.num_start != fig.num_start]
        if same and not any(_near(x, a, PREMISE_TOLERANCE) for x in same for a in assumed):
            return True
    return False


def _mid(f: Figure) -> float:
    lo, hi = f.readings[0]
    return (lo + hi) / 2


def _stated(ref: Reference, givens: Sequence[Given]) -> bool:
    """The prompt itself states the reference's value ('a P95 target of 20 ms'): the candidate's other figures of
    that kind near its words are their own estimates and budgets ('P95 comes to about 14 ms'), not misquotes of it.
    Such a reference can confirm a figure but never condemn one."""
    return any(
        g.dimension == ref.dimension and any(_near(lo, ref.value, GIVEN_TOLERANCE) for lo, _ in g.readings)
        for g in givens
    )


def _restated(fig: Figure, cleared: Sequence[Figure]) -> bool:
    """The figure repeats one that was judged correct or excused earlier in the answer ('minus 17.6 GB
    weights' after '17.6 GB per GPU at TP=8')."""
    return any(f.dimension == fig.dimension and f.readings == fig.readings for f in cleared)


def _share_counts(others: Sequence[Figure], folded: str) -> set[float]:
    """Counts of GPUs, nodes, ranks or shards in the sentence ('8 GPUs', 'TP=8', '4-way')."""
    out = set()
    for f in others:
        if f.has_unit or len(f.raw) != 1 or f.raw[0][0] != f.raw[0][1] or not 2 <= f.raw[0][0] <= 4096:
            continue
        n = f.raw[0][0]
        after = folded[f.num_end : f.num_end + 5]
        if (
            (f.nouns and f.nouns[0] in _SHARERS)
            or after.startswith("-way")
            or _PARALLEL_DEGREE.search(folded, max(0, f.num_start - 5), f.num_start)
        ):
            out.add(n)
    return out


def _excused(
    fig: Figure,
    condemning: Sequence[Reference],
    cands: Sequence[Reference],
    others: Sequence[Figure],
    sentence: Sentence,
    folded: str,
) -> bool:
    """Reasons a figure that the references tied to it reject is still not a misstatement worth accusing.

    * It is another known quantity about something else: a reference of another subject accepts it
      ('fits in 80 GB' beside the ZeRO-3 state is the GPU's memory, not a wrong ZeRO-3 figure).  A
      reference of the same subject does not excuse it: TF32's 156 TFLOP/s given as FP32 is the
      classic slip.  Percentages and ratios are too common to count.
    * It is a share or a total: times or divided by a count of GPUs, ranks or shards in the same sentence
      it is the reference ('17.6 GB per GPU at TP=8' for 141 GB of weights).
    * It is a GPU's memory where something must fit ('only ZeRO-3 fits in 80 GB').
    * It is an achieved rate below a peak: the sentence says so ('sustains', 'usable', 'in practice'),
      or it is approximate and within 1.35x below.  A total of both directions is also read each way
      ('~400 GB/s one way' against NVLink's 900 in all).
    """
    blamed = {r.subject for r in condemning}
    if fig.dimension not in ("%", "x") and any(r.subject not in blamed and accepts(r, fig) for r in cands):
        return True
    if (
        fig.dimension == "B"
        and _FITS.search(folded, max(sentence.start, fig.num_start - 12), fig.num_start)
        and any(abs((lo + hi) / 2 - c) <= 0.03 * c for lo, hi in fig.readings for c in GPU_CAPACITIES)
    ):
        return True  # 'fits in 80 GB': a GPU's memory, whatever the reference beside it measures
    counts = _share_counts(others, folded)
    achieved = bool(_ACHIEVED_STEMS & sentence.stems)
    for r in condemning:
        v = abs(r.value) or 1e-12
        for lo, hi in fig.readings:
            x = abs((lo + hi) / 2)
            if any(abs(x * n - v) <= SHARE_TOLERANCE * v or abs(x / n - v) <= SHARE_TOLERANCE * v for n in counts):
                return True
    for r in condemning:
        if not r.dimension.endswith("/s"):
            continue
        # A total of both directions is also judged each way: '~400 GB/s one way' against NVLink's 900 in all.
        peaks = (r.value, r.value / 2) if _BOTH_WAYS.search(r.quantity.measures) else (r.value,)
        for v in peaks:
            for lo, hi in fig.readings:
                x = abs((lo + hi) / 2)
                if 0 < x < v and (
                    (achieved and v / x <= ACHIEVED_MAX_RATIO) or (fig.approx and v / x <= APPROX_BELOW_RATIO)
                ):
                    return True
    return False


def has_estimate(sentence: Sentence, text: str, figures_in_sentence: int) -> bool:
    """A back-of-envelope step: two or more figures joined by arithmetic or 'so'/'gives'/'total'."""
    return figures_in_sentence >= 2 and bool(_ESTIMATE.search(fold(text[sentence.start : sentence.end])))


def number_checks(checked: Sequence[Checked], text: str, limit: int = 40) -> list[NumberCheck]:
    """The public record of what was checked; factors of a product are left out."""
    out = []
    for c in checked:
        if c.figure.factor and c.verdict != "correct":
            continue
        out.append(
            NumberCheck(
                claim=text[c.figure.start : c.figure.end],
                reference=c.reference.label if c.reference is not None else None,
                verdict=c.verdict,
            )
        )
        if len(out) >= limit:
            break
    return out

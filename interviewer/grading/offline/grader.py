"""The offline keyword grader: the fallback behind every grade, so it has to be fair on its own.

It combines the pieces of ``interviewer.grading.offline``: sentences and claims
(``text``), key-point matching (``concepts``), figures and their checks
(``quantities``), keyword lists and misconceptions (``gaming``) and text aimed
at the grader (``injection``), then turns them into levels (``levels``) and
feedback (``feedback``).  It imports neither textual nor openai, never touches
the network and is deterministic, so a regrade of the same answer gives the
same grade.

Bounded work: at most the first ``MAX_CHARS`` characters are graded (flag
``truncated``), every regex is linear, and per-question matchers are compiled
once (``compiled``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from interviewer.content.schema import DIMENSIONS, Dimension
from interviewer.grading.offline.arithmetic import Chain, chains, check_arithmetic
from interviewer.grading.offline.claims import (
    MIN_SUBSTANCE,
    is_buzzword_run,
    is_causal_chain,
    is_template_run,
    negated,
    negation_count,
    substance,
)
from interviewer.grading.offline.compiled import (
    CompiledQuestion,
    CompiledRubric,
    compiled_question,
    compiled_rubric,
    cue_key,
    facts,
)
from interviewer.grading.offline.concepts import Hit
from interviewer.grading.offline.feedback import DimensionNotes, compose
from interviewer.grading.offline.gaming import MisconceptionHit, is_keyword_list, is_number_spam
from interviewer.grading.offline.injection import injection_spans
from interviewer.grading.offline.levels import NumberStats, concept_level, numbers_level
from interviewer.grading.offline.lexicon import Swap, lexicon
from interviewer.grading.offline.quantities import (
    Checked,
    Figure,
    check,
    extract,
    has_estimate,
    number_checks,
    working_reference,
)
from interviewer.grading.offline.text import Sentence, analyse, bound, fold, snippet, tokens_of, unwrapped
from interviewer.grading.types import (
    FLAG_EMPTY,
    FLAG_INJECTION,
    FLAG_KEYWORD_LIST,
    FLAG_MISCONCEPTION,
    FLAG_NUMBER_SPAM,
    FLAG_TEMPLATE,
    FLAG_TRUNCATED,
    FLAG_WRONG_NUMBER,
    ChunkCallback,
    DimensionScore,
    Grade,
    GradeRequest,
    GraderName,
    overall_from,
)

MAX_EVIDENCE = 6
"""Evidence spans kept per dimension: enough to justify the score, short enough to read."""
KEYWORD_LIST_CAP = 1
"""Every dimension of a keyword list, a run of empty template sentences or a number dump is capped here."""
MISCONCEPTION_CAP = 1
"""A stated wrong belief caps mechanism and the dimension it concerns here; in a follow-up, which asks one
narrow thing, it caps them at 0 (the answer to that question is wrong)."""

_VISIBLE = re.compile(r"[^\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202f\u2060\ufeff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_TOKEN_RE = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Analysis:
    """Everything found in one answer; kept apart from scoring so tests can inspect it."""

    text: str
    sentences: tuple[Sentence, ...]
    hits: dict[int, list[Hit]]
    cues: dict[Dimension, list[tuple[str, int, int]]]
    checked: tuple[Checked, ...]
    figure_count: int
    estimate: bool
    misconceptions: tuple[MisconceptionHit, ...]
    keyword_list: bool
    number_spam: bool
    injection: tuple[str, ...]
    swaps: tuple[Swap, ...] = ()
    """Clauses that give one side of a confusable pair the other side's defining property."""
    template: bool = False
    """A run of sentences that name points and say nothing about them, or that only chain terms with causal
    links (salad in sentence form)."""
    ignored: frozenset[int] = frozenset()
    """Sentences whose figures earn nothing: injected, or copied from the prompt."""
    wrong: frozenset[int] = frozenset()
    """Sentences the grader flagged (a misconception, a swap, a wrong figure): never quoted as evidence."""


def _mark_injected(sentences: list[Sentence], spans: Sequence[tuple[int, int]]) -> list[Sentence]:
    if not spans:
        return sentences
    out = []
    for s in sentences:
        touched = any(a < s.end and b > s.start for a, b in spans)
        out.append(replace(s, claim=False) if touched else s)
    return out


def _find_cues(
    rubric: CompiledRubric, sentences: Sequence[Sentence], folded: str
) -> dict[Dimension, list[tuple[str, int, int]]]:
    """Distinct rubric cues per dimension, found in claim sentences: (cue, sentence start, sentence end)."""
    found: dict[Dimension, list[tuple[str, int, int]]] = {d: [] for d in DIMENSIONS}
    if rubric.cue_pattern is None:
        return found
    starts = [s.start for s in sentences]
    seen: set[tuple[Dimension, str]] = set()
    for m in rubric.cue_pattern.finditer(folded):
        i = bisect.bisect_right(starts, m.start()) - 1
        if i < 0 or not sentences[i].claim or m.end() > sentences[i].end:
            continue
        for dim, cue in rubric.cue_owners.get(cue_key(m.group()), ()):
            if (dim, cue) not in seen:
                seen.add((dim, cue))
                found[dim].append((cue, sentences[i].start, sentences[i].end))
    return found


COPY_SHARE = 0.8
"""A sentence whose words are at least this share the prompt's (and six or more) is the question pasted back."""


def _copied(sentences: Sequence[Sentence], background: frozenset[str]) -> set[int]:
    out = set()
    for s in sentences:
        toks = [t for t in s.tokens if len(t) > 2]
        if len(toks) >= 6 and sum(1 for t in toks if t in background) >= COPY_SHARE * len(toks):
            out.add(s.index)
    return out


def _kept_hits(
    cq: CompiledQuestion,
    hits: dict[int, list[Hit]],
    sentences: Sequence[Sentence],
    folded: str,
    wrong: set[int],
    figures: dict[int, int],
) -> tuple[dict[int, list[Hit]], set[int], set[int]]:
    """Hits that earn credit, the sentences that named a point without saying anything, and all naming ones.

    A hit earns credit when its clause is not negated or dismissive, its
    sentence says something beyond the aliases it names (``claims.substance``)
    and its sentence was not flagged wrong (a misconception, a swap, a wrong
    figure): evidence is never a sentence the grader itself condemned.
    """
    named: dict[int, set[str]] = {}
    for ci, hs in hits.items():
        for h in hs:
            m = cq.index.concepts[ci].by_alias.get(h.alias)
            # What naming the point uses up is the wording the sentence used, not every wording of the point:
            # a point with many plain-word aliases would otherwise swallow the words that say something about it.
            named.setdefault(h.sentence.index, set()).update(
                m.stems | m.index_keys if m is not None else cq.concept_stems[ci]
            )
    empty = {
        i
        for i, stems in named.items()
        if substance(sentences[i], frozenset(stems), cq.background, figures.get(i, 0)) < MIN_SUBSTANCE
    }
    kept: dict[int, list[Hit]] = {}
    negated_sentences: set[int] = set()
    for ci, hs in hits.items():
        for h in hs:
            alias = cq.index.concepts[ci].by_alias.get(h.alias)
            own = alias.negations if alias is not None else 0
            if negated(folded, h.sentence, h.start, h.end, own):
                negated_sentences.add(h.sentence.index)
                continue
            if h.sentence.index in empty or h.sentence.index in wrong:
                continue
            kept.setdefault(ci, []).append(h)
    return kept, empty | negated_sentences, set(named)


def _text_hits(
    cq: CompiledQuestion, sentences: Sequence[Sentence], folded: str, wrong: set[int], have: dict[int, list[Hit]]
) -> None:
    """A plain statement of a key point's own text always counts, in the candidate's synonyms too.

    A point's text is met when one sentence holds at least ``TEXT_MATCH_SHARE`` of its content stems (and
    ``TEXT_MATCH_MIN_STEMS``), compared on lexicon-canonical stems.
    """
    lex = lexicon()
    for s in sentences:
        if not s.claim or s.index in wrong:
            continue
        overlap: dict[int, int] = {}
        for x in {lex.canonical(x) for x in s.stems}:
            for ci in cq.point_index.get(x, ()):
                overlap[ci] = overlap.get(ci, 0) + 1
        for ci, n in overlap.items():
            if ci in have or n < cq.point_need[ci]:
                continue
            if negated(folded, s, s.start, s.end, _negations(cq.owners[ci][1].text)):
                continue
            have[ci] = [Hit(cq.owners[ci][1].text, s, s.start, s.end, "text")]


def _negations(text: str) -> int:
    return negation_count(tokens_of(fold(text)))


_RATIOS = frozenset({"x", "%", None})


def _with_arithmetic(
    checked: list[Checked], figures: Sequence[Figure], text: str, working: Sequence[Chain]
) -> list[Checked]:
    """A stated result the candidate's own working does not produce is wrong, whatever the references say."""
    mismatches = {m.figure.num_start: m for m in check_arithmetic(figures, text, working)}
    if not mismatches:
        return checked
    out = []
    for c in checked:
        m = mismatches.pop(c.figure.num_start, None)
        out.append(c if m is None else Checked(c.figure, "wrong", working_reference(m.working)))
    out += [Checked(m.figure, "wrong", working_reference(m.working)) for m in mismatches.values()]
    return out


def analyse_answer(cq: CompiledQuestion, cr: CompiledRubric, text: str) -> Analysis:
    folded = fold(text)
    sentences = analyse(text, folded)
    spans = injection_spans(text)
    sentences = _mark_injected(sentences, spans)
    injected = {s.index for s in sentences if any(a < s.end and b > s.start for a, b in spans)}
    copied = _copied(sentences, cq.background)
    # A wrong belief stated in the prompt's own words is still stated: misconceptions see the sentence as a claim.
    misconceptions = tuple(cq.misconceptions.find(sentences, text, folded))
    sentences = [replace(s, claim=False) if s.index in copied else s for s in sentences]
    ignored = frozenset(injected | copied)
    raw_hits = cq.index.find(sentences, text, folded)
    # Figures are read with hard-wrapped lines joined (same offsets), as sentences are.
    flat = unwrapped(text)
    flat_folded = folded if flat is text else fold(flat)
    figures = [f for f in extract(flat, sentences) if f.sentence not in ignored]
    working = chains(figures, flat)
    # A chain's result is what the words before the chain name: 'KV per token = 2 x 80 x 64 x 128 x 2 B = 2.5 MiB'.
    # Not a ratio: a speedup or a share depends on assumptions the working sets ('3.36 / 1.2 ≈ 2.8x' at c = 0.05).
    starts = {c.result.num_start: c.terms[0].num_start for c in working if c.result.dimension not in _RATIOS}
    checked = check(figures, cq.references, sentences, flat_folded, cq.givens, facts(), cq.subjects, starts)
    checked = _with_arithmetic(checked, figures, flat, working)
    swaps = tuple(lexicon().swaps([s for s in sentences if s.claim], text, folded, cq.contrasts))
    wrong = {m.hit.sentence.index for m in misconceptions} | {w.sentence.index for w in swaps}
    wrong |= {c.figure.sentence for c in checked if c.verdict == "wrong"}
    per_sentence: dict[int, int] = {}
    for f in figures:
        per_sentence[f.sentence] = per_sentence.get(f.sentence, 0) + 1
    with_unit: dict[int, int] = {}
    for c in checked:
        if not c.given and not c.figure.factor and c.figure.has_unit:
            with_unit[c.figure.sentence] = with_unit.get(c.figure.sentence, 0) + 1
    hits, empty, naming = _kept_hits(cq, raw_hits, sentences, folded, wrong, with_unit)
    _text_hits(cq, sentences, folded, wrong, hits)
    estimate = any(
        has_estimate(sentences[i], flat, n) for i, n in per_sentence.items() if n >= 2 and sentences[i].claim
    )
    return Analysis(
        text=text,
        sentences=tuple(sentences),
        hits=hits,
        cues=_find_cues(cr, sentences, folded),
        checked=tuple(checked),
        figure_count=sum(1 for c in checked if not c.figure.factor and not c.given),
        estimate=estimate,
        misconceptions=misconceptions,
        keyword_list=is_keyword_list(sentences, text),
        number_spam=is_number_spam(sentences, sum(1 for f in figures if not f.factor)),
        injection=tuple(text[a:b] for a, b in spans),
        swaps=swaps,
        template=(
            is_template_run(len(empty), len(naming))
            or is_causal_chain(sentences)
            or is_buzzword_run(sentences, folded)
        ),
        ignored=ignored,
        wrong=frozenset(wrong),
    )


def _evidence(text: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    """Exact substrings of the answer, deduplicated, without characters JSON cannot carry."""
    out: list[str] = []
    for start, end in spans:
        piece = text[start:end]
        if not piece.strip() or _SURROGATE.search(piece) or piece in out:
            continue
        out.append(piece)
        if len(out) >= MAX_EVIDENCE:
            break
    return out


def _sentence_evidence(text: str, hit: Hit) -> tuple[int, int]:
    """The whole sentence when short; else a window around the match, starting on a word."""
    s = hit.sentence
    if s.end - s.start <= 240:
        return s.start, s.end
    start = max(s.start, hit.start - 80)
    while start > s.start and not text[start - 1].isspace():
        start -= 1
    return start, min(s.end, max(hit.end, start) + 120)


def _empty_grade(request: GradeRequest, flags: list[str]) -> Grade:
    dims = {
        d: DimensionScore(score=0, evidence=[], missing=[kp.text for kp in request.question.key_points.get(d, [])])
        for d in request.question.dimensions
    }
    return Grade(grader="keyword", overall=0, dimensions=dims, flags=flags)


@dataclass(frozen=True)
class Credit:
    """What earned credit: key points made (with the hit that made them) and checked figures."""

    made: dict[Dimension, list[tuple[str, Hit]]]
    missing: dict[Dimension, list[str]]
    share: dict[Dimension, float]
    correct: list[Checked]
    """Correct figures that are not restated from the prompt."""
    wrong: list[Checked]
    unverified_with_unit: int
    with_unit: int


def _credit(request: GradeRequest, cq: CompiledQuestion, a: Analysis) -> Credit:
    made: dict[Dimension, list[tuple[str, Hit]]] = {d: [] for d in DIMENSIONS}
    missing: dict[Dimension, list[str]] = {d: [] for d in DIMENSIONS}
    # sentences holding a figure checked correct
    backed = {c.figure.sentence for c in a.checked if c.verdict == "correct"}
    for ci, (dim, kp) in enumerate(cq.owners):
        hits = a.hits.get(ci)
        if hits:
            made[dim].append((kp.text, hits[0]))
        else:
            missing[dim].append(kp.text)
    totals = {d: len(request.question.key_points.get(d, [])) for d in DIMENSIONS}
    return Credit(
        made=made,
        missing=missing,
        share={d: (_weight(d, made[d], backed) / totals[d]) if totals[d] else 0.0 for d in DIMENSIONS},
        correct=[c for c in a.checked if c.verdict == "correct" and not c.given],
        wrong=[c for c in a.checked if c.verdict == "wrong"],
        unverified_with_unit=sum(
            1
            for c in a.checked
            if c.verdict == "unverified" and c.figure.has_unit and not c.given and a.sentences[c.figure.sentence].claim
        ),
        with_unit=sum(1 for c in a.checked if not c.figure.factor),
    )


UNBACKED_FIGURE_CREDIT = 0.5
"""What a numbers key point earns when its sentence holds no figure checked correct and the wording that matched
holds no figure either: 'KV cache per token is 2.5 MB' names the quantity but not the right amount, and a wrong
figure the sheet cannot check would otherwise earn the point outright."""


def _weight(dim: Dimension, made: Sequence[tuple[str, Hit]], backed: set[int]) -> float:
    """How many of ``dim``'s key points ``made`` counts for (see ``UNBACKED_FIGURE_CREDIT``)."""
    if dim != "numbers":
        return float(len(made))
    return sum(
        1.0 if hit.sentence.index in backed or _states_the_figure(hit) else UNBACKED_FIGURE_CREDIT
        for _, hit in made
    )


def _states_the_figure(hit: Hit) -> bool:
    """Whether the wording that matched is a figure, word for word ('320 KiB'): the amount itself is right."""
    return hit.how in ("exact", "words") and any(ch.isdigit() for ch in hit.alias)


def _levels(credit: Credit, a: Analysis, follow_up: bool = False) -> dict[Dimension, int]:
    """Levels before penalties and caps (see ``levels`` for the rules)."""
    cues = {d: len(a.cues[d]) for d in DIMENSIONS}
    specific = {
        "mechanism": cues["mechanism"] >= 2 or credit.with_unit >= 1,
        "tradeoff": cues["tradeoff"] >= 2 and credit.with_unit >= 1,
        "failure_modes": cues["failure_modes"] >= 3,
    }
    scores: dict[Dimension, int] = {
        dim: concept_level(credit.share[dim], cues[dim], specific[dim])
        for dim in ("mechanism", "tradeoff", "failure_modes")
    }
    scores["numbers"] = numbers_level(
        NumberStats(
            share=credit.share["numbers"],
            figures=a.figure_count,
            with_unit=credit.with_unit,
            correct_refs=len({id(c.reference) for c in credit.correct}),
            unverified_with_unit=credit.unverified_with_unit,
            wrong=len(credit.wrong),
            estimate=a.estimate,
            follow_up=follow_up,
        )
    )
    return scores


def _report(
    a: Analysis, credit: Credit, scores: dict[Dimension, int], request: GradeRequest
) -> tuple[dict[Dimension, DimensionScore], dict[Dimension, DimensionNotes]]:
    """Per-dimension evidence and missing points for the Grade, and the notes the feedback is written from."""
    text = a.text
    dims: dict[Dimension, DimensionScore] = {}
    notes: dict[Dimension, DimensionNotes] = {}
    for dim in scores:
        spans = [_sentence_evidence(text, hit) for _, hit in credit.made[dim]]
        if dim == "numbers":
            spans = [(c.figure.start, c.figure.end) for c in credit.correct] + spans
        elif not credit.made[dim] and scores[dim] > 0:
            starts = {a.sentences[i].start for i in a.wrong}
            spans = [snippet(text, s, e) for _, s, e in a.cues[dim] if s not in starts][:2]
        missing = list(credit.missing[dim])
        if scores[dim] < 4 and not missing:
            # Every point was named, yet the level is short of 4: say what the next level needs.
            nxt = scores[dim] + 1
            missing = [f"For level {nxt}: {request.rubric.dimensions[dim].levels[nxt]}"]
        dims[dim] = DimensionScore(score=scores[dim], evidence=_evidence(text, spans), missing=missing)
        notes[dim] = DimensionNotes(
            score=scores[dim],
            made=[h for h, _ in credit.made[dim]],
            missing=credit.missing[dim],
            cues=[c for c, _, _ in a.cues[dim]],
        )
    if "numbers" in notes:
        notes["numbers"].correct = _unique(text[c.figure.start : c.figure.end] for c in credit.correct)
        notes["numbers"].wrong = [
            (text[c.figure.start : c.figure.end], c.reference.label) for c in credit.wrong if c.reference is not None
        ]
    return dims, notes


class KeywordGrader:
    """Grades an answer offline from the question's key points, quantities and misconceptions."""

    name: GraderName = "keyword"

    def grade(self, request: GradeRequest, on_chunk: ChunkCallback | None = None) -> Grade:
        answer = request.answer if isinstance(request.answer, str) else str(request.answer or "")
        text, truncated = bound(answer)
        flags: list[str] = [FLAG_TRUNCATED] if truncated else []
        if not _VISIBLE.search(text):
            grade = _empty_grade(request, [FLAG_EMPTY, *flags])
            notes = {d: DimensionNotes(score=0, missing=s.missing) for d, s in grade.scored()}
            feedback = compose(
                overall=0, notes=notes, misconceptions=[], flags=grade.flags, injection=[], rubric=request.rubric
            )
            grade = grade.model_copy(update={"feedback": feedback})
        else:
            cq = compiled_question(request.question)
            cr = compiled_rubric(request.rubric)
            grade = self._score(request, cq, analyse_answer(cq, cr, text), flags)
        grade = grade.model_copy(update={"feedback": _json_safe(grade.feedback)})
        if on_chunk is not None:
            on_chunk(grade.feedback)
        return grade

    # ------------------------------------------------------------------ scoring

    def _score(self, request: GradeRequest, cq: CompiledQuestion, a: Analysis, flags: list[str]) -> Grade:
        credit = _credit(request, cq, a)
        follow_up = _is_follow_up(request)
        scores = _levels(credit, a, follow_up)
        wrong_beliefs = list(
            dict.fromkeys((m.misconception.text, m.misconception.correction) for m in a.misconceptions)
        )
        wrong_beliefs += list(
            dict.fromkeys(
                (f"{w.said_of} {a.text[w.start : w.end]} (that is {w.belongs_to})", w.contrast.correction)
                for w in a.swaps
            )
        )
        if wrong_beliefs:
            # A stated wrong belief caps mechanism, and the dimension it is about, at 1; a follow-up's at 0.
            cap = 0 if follow_up else MISCONCEPTION_CAP
            scores["mechanism"] = min(scores["mechanism"], cap)
            for m in a.misconceptions:
                dim = cq.concerns.get(m.misconception.text, "mechanism")
                scores[dim] = min(scores[dim], cap)
            if a.swaps and "mechanism" not in request.question.dimensions:
                # A follow-up that does not grade mechanism: the swapped sides are what its answer rests on.
                for dim in request.question.dimensions:
                    scores[dim] = min(scores[dim], cap)
            flags.append(FLAG_MISCONCEPTION)
        if credit.wrong:
            flags.append(FLAG_WRONG_NUMBER)
        if a.keyword_list:
            flags.append(FLAG_KEYWORD_LIST)
            scores = {d: min(s, KEYWORD_LIST_CAP) for d, s in scores.items()}
        if a.template:
            flags.append(FLAG_TEMPLATE)
            scores = {d: min(s, KEYWORD_LIST_CAP) for d, s in scores.items()}
        if a.number_spam:
            flags.append(FLAG_NUMBER_SPAM)
            scores = {d: min(s, KEYWORD_LIST_CAP) for d, s in scores.items()}
        if a.injection:
            flags.append(FLAG_INJECTION)
        scores = {d: scores[d] for d in request.question.dimensions}
        overall = overall_from(scores, request.rubric)
        dims, notes = _report(a, credit, scores, request)
        feedback = compose(
            overall=overall,
            notes=notes,
            misconceptions=wrong_beliefs,
            flags=flags,
            injection=a.injection,
            rubric=request.rubric,
        )
        return Grade(
            grader="keyword",
            overall=overall,
            dimensions=dims,
            numbers_checked=[
                n.model_copy(update={"claim": _json_safe(n.claim)}) for n in number_checks(a.checked, a.text)
            ],
            flags=_unique(flags),
            feedback=feedback,
        )


def _is_follow_up(request: GradeRequest) -> bool:
    """A follow-up grades only the dimensions it probes; a question grades all four."""
    return len(request.question.dimensions) < len(DIMENSIONS)


def _unique(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def _json_safe(text: str) -> str:
    """Replace lone surrogates, which a JSON transcript cannot store."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text

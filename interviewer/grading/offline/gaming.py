"""Answers that try to score without explaining: keyword lists, number dumps, and stated misconceptions.

A keyword list names the right terms without saying how any of them works.
Key points already earn credit only inside claim sentences, so a list gets
little; flagging it lets the grader cap every dimension as well, and tells the
candidate why the score is low.

A misconception is one of the question's known wrong statements, matched in a
claim sentence, whatever its modality: "we would keep K and V per query head"
states the belief as surely as "we keep".  Mentioning it in order to reject
it ('a common mistake is to think INT8 needs no calibration'), as the result
of a counterfactual premise in the clause before ('without GQA, it would be
2.6 MB per token'), or negated near the match when the alias itself is not,
is not stating it, and is skipped; so is the option a sentence turns down
('restart from the checkpoint instead of waiting for a repair') and the
condition of an 'if' clause closed by a comma ('if a TP group spans nodes,
NCCL dominates').
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from interviewer.content.schema import Misconception
from interviewer.grading.offline.claims import negation_count
from interviewer.grading.offline.concepts import ConceptIndex, Hit, compile_concepts
from interviewer.grading.offline.text import FUNCTION_WORDS, Sentence, tokens_of

KEYWORD_LIST_CLAIM_SHARE = 0.4
"""Below this share of words in claim sentences, with enough bare terms, the answer is a keyword list."""
KEYWORD_LIST_MIN_TERMS = 4


def _term_count(sentence: Sentence, text: str) -> int:
    if sentence.list_like:
        return max(1, len(re.split(r",(?![0-9])|\||[•·▪◦]|\t", text[sentence.start : sentence.end])))
    return max(1, sentence.words // 3)


def is_keyword_list(sentences: Sequence[Sentence], text: str) -> bool:
    """Most words sit outside claims, in at least four bare terms or short fragments."""
    total = sum(s.words for s in sentences)
    if total < KEYWORD_LIST_MIN_TERMS:
        return False
    claimed = sum(s.words for s in sentences if s.claim)
    terms = sum(_term_count(s, text) for s in sentences if not s.claim)
    return claimed < KEYWORD_LIST_CLAIM_SHARE * total and terms >= KEYWORD_LIST_MIN_TERMS


NUMBER_SPAM_MIN_FIGURES = 8
NUMBER_SPAM_MAX_SHARE = 0.06
"""Eight or more figures, with fewer than this share of relating words (verbs, 'so', '=', '->') and fewer than
this share of articles and prepositions: fragments that list figures, not sentences that use them.

On the development sets no answer of another kind, and no model-answer
outline, with eight or more figures is below both shares (terse follow-up
arithmetic has its '=' and '->'; an outline in plain steps has its 'of' and
'on'), while eleven of the fourteen number dumps are."""


def is_number_spam(sentences: Sequence[Sentence], figures: int) -> bool:
    """Figures thrown in without reasoning: many of them, and almost nothing that relates or joins them."""
    if figures < NUMBER_SPAM_MIN_FIGURES:
        return False
    words = max(1, sum(s.words for s in sentences))
    relations = sum(s.relations for s in sentences)
    joining = sum(1 for s in sentences for t in s.tokens if t in FUNCTION_WORDS and t != "per")  # 'per' is a unit's
    return relations < NUMBER_SPAM_MAX_SHARE * words and joining < NUMBER_SPAM_MAX_SHARE * words


_FRAMING = re.compile(
    r"(?<![a-z])(?:myth|misconception|mistake|mistaken|misleading|wrong|incorrect|not true|untrue|false|"
    r"people think|people assume|often assume|common belief|contrary|tempting to|naive|naïve|pitfall|"
    r"it is a trap|fallacy|unlike|versus|vs)(?![a-z])"
)
_REJECTED_OPTION = re.compile(r"(?<![a-z])(?:instead[ \t]of|rather[ \t]than)(?:[ \t]{1,3}[a-z]+){0,2}[ \t]{0,3}$")
"""The option a sentence turns down: in 'retry the job instead of waiting for a repair', the waiting."""
_CONDITION = re.compile(r"(?<![a-z])(?:if|unless|suppose|assuming)(?![a-z])[^,;:.!?]*$")
"""An open 'if' clause before the match: with a comma after it, the match is the condition, not a claim
('if a TP group spans nodes, NCCL time dominates')."""
_PREMISE = re.compile(r"(?<![a-z])(?:without|if we did ?n[o']t|if there were no|had we not|absent)(?![a-z])")
"""A counterfactual premise: 'without GQA, the cache would be 2.6 MB per token' states what would be, not is."""


@dataclass(frozen=True)
class MisconceptionHit:
    misconception: Misconception
    hit: Hit


class MisconceptionFinder:
    """Compiled misconceptions of one question."""

    def __init__(self, misconceptions: Sequence[Misconception]):
        self.misconceptions = tuple(misconceptions)
        self.index = ConceptIndex(compile_concepts(((m.text, m.aliases) for m in self.misconceptions), strict=True))

    def find(self, sentences: Sequence[Sentence], text: str, folded: str) -> list[MisconceptionHit]:
        if not self.misconceptions:
            return []
        found: list[MisconceptionHit] = []
        for ci, hits in self.index.find(sentences, text, folded).items():
            concept = self.index.concepts[ci]
            for hit in hits:
                alias = concept.by_alias[hit.alias]
                sentence_text = folded[hit.sentence.start : hit.sentence.end]
                if _FRAMING.search(sentence_text):
                    continue
                if _PREMISE.search(folded, hit.sentence.start, hit.start):
                    continue
                if _REJECTED_OPTION.search(folded, max(hit.sentence.start, hit.start - 40), hit.start):
                    continue
                closed = "," in folded[hit.end : hit.sentence.end]
                if closed and _CONDITION.search(folded, hit.sentence.start, hit.start):
                    continue
                near = folded[max(hit.sentence.start, hit.start - 40) : hit.end]
                if negation_count(tokens_of(near)) > alias.negations:
                    continue
                found.append(MisconceptionHit(self.misconceptions[ci], hit))
                break
        return found

"""Hostile input: the grader never raises, stays in range, quotes only real substrings and stays fast."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interviewer.content.loader import load_case, load_rubric
from interviewer.content.schema import DIMENSIONS
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.grading.offline.injection import detect_injection
from interviewer.grading.offline.text import MAX_CHARS
from interviewer.grading.types import Grade, GradeRequest
from tests.conftest import FIXTURES, REPO

CASE = load_case(FIXTURES / "scoring" / "case.yaml")
RUBRIC = load_rubric(REPO / "rubrics" / "ai-infra.yaml")
QUESTIONS = CASE.questions()
GRADER = KeywordGrader()

FRAGMENTS = [
    "KV cache",
    "paged attention",
    " is ",
    " because ",
    "900 GB/s",
    "400 Gb/s",
    "3.35 TB/s",
    "P95 of 20 ms",
    "2 × 80 × 8",
    "1,000",
    "2k",
    "~60 ms",
    "20-30 ms",
    "4x",
    "ignore the rubric",
    "</answer>",
    "assistant:",
    "64 KV heads",
    "does not need calibration",
    ", ",
    "\n",
    ". ",
    "- ",
    "μs",
    "%",
    "GiB",
    "TFLOP/s",
    "e.g.",
    "İ",
    "\u0301",
    "\x00",
    "\ud800",
    "(",
    "<",
    "!!!",
    "1.",
    "x",
    "kvetch",
    "http",
    "migrate",
]


def check(g: Grade, answer: str) -> None:
    assert 0 <= g.overall <= 100
    assert set(g.dimensions) == set(DIMENSIONS)
    for dim in DIMENSIONS:
        score = g.dimensions[dim]
        assert 0 <= score.score <= 4
        for span in score.evidence:
            assert span and span in answer
    for n in g.numbers_checked:
        assert n.verdict in ("correct", "wrong", "unverified")
    Grade.model_validate_json(g.model_dump_json())  # storable in a JSON transcript


def run(answer: str, qi: int) -> Grade:
    question = QUESTIONS[qi % len(QUESTIONS)]
    return GRADER.grade(GradeRequest(case=CASE, rubric=RUBRIC, question=question, answer=answer))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=3000), st.integers(min_value=0, max_value=3))
def test_arbitrary_text(answer: str, qi: int) -> None:
    check(run(answer, qi), answer)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=200), st.integers(min_value=0, max_value=3))
def test_fragments_of_real_answers(parts: list[str], qi: int) -> None:
    answer = "".join(parts)
    check(run(answer, qi), answer)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000), st.integers(min_value=0, max_value=3))
def test_binary_garbage(data: bytes, qi: int) -> None:
    answer = data.decode("latin-1")
    check(run(answer, qi), answer)


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=2000))
def test_detect_injection_returns_substrings(text: str) -> None:
    assert all(span and span in text for span in detect_injection(text))


HOSTILE = {
    "punctuation run": "!" * 1_000_000,
    "digit run": "1" * 1_000_000,
    "thousands": "1," * 500_000,
    "decimals": "1." * 500_000,
    "letters": "a" * 1_000_000,
    "spaces": " " * 999_999 + "x",
    "hyphens": "-" * 1_000_000,
    "products": "2 x " * 250_000,
    "units": "900 GB/s " * 110_000,
    "percentiles": "P95 of 20 ms, " * 70_000,
    "triggers": "ignore the grader system user " * 30_000,
    "sentences": "The KV cache is stored in HBM because it is big. " * 20_000,
    "combining marks": "a" + "\u0301" * 999_999,
    "brackets": "<" * 500_000 + "[" * 500_000,
    "ranges": "1-" * 500_000,
    "alias soup": "kv-cache paged-attention " * 40_000,
    "control chars": "".join(chr(i % 32) for i in range(1_000_000)),
    "surrogates": "\ud800\udfff" * 200_000,
    "spaced letters": "g r a d e r " * 80_000,
    "leetspeak": "sc0r3 " * 160_000,
    "zero-width": "e\u200bv\u200ba\u200bl " * 100_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_bounded(name: str) -> None:
    # How long each takes is measured by benchmarks/bench_scorer.py, not asserted here.
    answer = HOSTILE[name]
    g = run(answer, 0)
    check(g, answer)
    assert ("truncated" in g.flags) == (len(answer) > MAX_CHARS)


@pytest.mark.parametrize(
    "name", ["punctuation run", "triggers", "brackets", "letters", "spaced letters", "leetspeak", "zero-width"]
)
def test_detect_injection_on_hostile_input_returns(name: str) -> None:
    assert isinstance(detect_injection(HOSTILE[name]), list)

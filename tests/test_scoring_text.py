"""Sentences, claims and alias matching: the parts that decide whether a term earns credit."""

from __future__ import annotations

import pytest

from interviewer.grading.offline.concepts import Hit, compile_alias, is_acronym, match_alias
from interviewer.grading.offline.text import analyse, bound, fold, is_claim, split_spans


def find(alias: str, text: str) -> Hit | None:
    matcher = compile_alias(alias)
    folded = fold(text)
    for sentence in analyse(text, folded):
        hit = match_alias(matcher, sentence, text, folded)
        if hit is not None:
            return hit
    return None


def matched(alias: str, text: str) -> str | None:
    hit = find(alias, text)
    return text[hit.start : hit.end] if hit else None


# --------------------------------------------------------------------------- sentences


def test_split_keeps_decimals_and_abbreviations_together() -> None:
    text = "HBM3 gives 3.35 TB/s, e.g. for decode. Then it stalls!\n- bullet one\n- bullet two"
    pieces = [text[a:b] for a, b in split_spans(text)]
    assert pieces == ["HBM3 gives 3.35 TB/s, e.g. for decode.", "Then it stalls!", "bullet one", "bullet two"]


def test_hard_wrapped_prose_is_joined_but_short_lines_are_not() -> None:
    wrapped = "The cache grows linearly with the number of tokens in every\nsequence, so long prompts hurt."
    assert [wrapped[a:b] for a, b in split_spans(wrapped)] == [wrapped]
    listing = "KV cache\npaged attention\ncontinuous batching"
    assert len(split_spans(listing)) == 3


def test_fold_keeps_length() -> None:
    text = "İstanbul KV CACHE"
    assert len(fold(text)) == len(text)
    assert fold(text).endswith("kv cache")


def test_bound_cuts_at_the_limit() -> None:
    text, cut = bound("x" * 20_001)
    assert cut and len(text) == 20_000
    assert bound("short") == ("short", False)


@pytest.mark.parametrize(
    "sentence",
    [
        "The KV cache grows linearly with context length.",
        "Decode is memory bound because every step reads the weights.",
        "We shard the heads across 8 GPUs.",
        "KV per token = 2 x 80 x 8 x 128 x 2 bytes",
        "Monitor queue depth and cache usage per replica",
        "Detection: watch P99 latency and OOM counters",
        "It saturates HBM, so larger batches stop helping.",
    ],
)
def test_claims(sentence: str) -> None:
    assert is_claim(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "KV cache, paged attention, continuous batching, quantization, tensor parallelism",
        "paged attention KV cache batching",
        "Memory: 80 GB HBM3, 3.35 TB/s",
        "Key ideas:",
        "reduce-scatter, all-gather, ring all-reduce, NCCL, checkpoint restart",
        "The answer is KV cache, paged attention, continuous batching, prefix caching, FP8",
        "Latency",
    ],
)
def test_not_claims(sentence: str) -> None:
    assert not is_claim(sentence)


# --------------------------------------------------------------------------- aliases


@pytest.mark.parametrize("alias", ["KV", "TP", "P95", "MIG", "HBM", "SM", "NCCL", "GQA"])
def test_short_and_all_caps_aliases_are_acronyms(alias: str) -> None:
    assert is_acronym(alias)


@pytest.mark.parametrize(
    ("alias", "text"),
    [
        ("KV", "The kvetch is that it grows with every request."),
        ("TP", "We use http to reach the server from outside."),
        ("MIG", "We migrate the model when a node fails."),
        ("SM", "It is a small model that runs on smartphones."),
        ("HBM", "The hbmx driver is something else entirely."),
        ("P95", "The p950 board is not a percentile at all."),
        ("kv cache", "The kvetch cache is big here, it seems."),
        ("TP degree", "The http degree of freedom is large here."),
    ],
)
def test_acronyms_never_match_inside_words(alias: str, text: str) -> None:
    assert find(alias, text) is None


@pytest.mark.parametrize(
    ("alias", "text", "span"),
    [
        ("KV", "The KV grows with every token we add.", "KV"),
        ("TP", "With TP=8 each GPU holds one head.", "TP"),
        ("P95", "The p95 is 20 ms under this load.", "p95"),
        ("MIG", "We split the A100 with MIG into seven slices.", "MIG"),
        ("kv cache", "The KV-cache is big when prompts are long.", "KV-cache"),
        ("kv cache", "The KV_cache is big when prompts are long.", "KV_cache"),
        ("paged attention", "vLLM uses PagedAttention to store blocks.", "PagedAttention"),
        ("hang", "NCCL hangs when a rank dies mid-step.", "hangs"),
    ],
)
def test_exact_matches_ignore_case_and_separators(alias: str, text: str, span: str) -> None:
    assert matched(alias, text) == span


def test_fuzzy_match_tolerates_a_typo_in_a_long_alias() -> None:
    assert matched("quantization", "We use quantisation to shrink the weights.") == "quantisation"
    assert matched("continuous batching", "It relies on continous batching to refill slots.") is not None


def test_order_free_match_within_a_window() -> None:
    hit = find("ring all-reduce", "We do an all-reduce around a ring of GPUs.")
    assert hit is not None and hit.how == "words"
    assert find("ring all-reduce", "The ring buffer is filled first, and much later we run the all-reduce.") is None


def test_fuzzy_does_not_confuse_words_that_share_a_stem() -> None:
    assert find("calibration set", "TensorRT has a calibration step that picks scales.") is None
    assert find("max calibration", "TensorRT has a calibration step that picks scales.") is None

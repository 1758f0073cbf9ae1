"""Content checks for the ``gpu-foundations`` question bank (seed ``000_``).

How many questions does the seed hold?  Each answered question in the seed is
a block of four lines: the short answer, why it matters, a common mistake and a
``Source / Inspiration:`` line.  Counting those source lines gives 14.  The
"N representative questions" headers do not agree with that: the group headers
read 2, 7, 3, 2, 2 (16), and the page-level header above them adds another 2,
but only 14 questions are actually answered.  The answered blocks are the
questions that exist, so the source lines are the count the bank is held to;
the header totals are checked only to document the mismatch.
"""

from __future__ import annotations

import re

import pytest

from interviewer.content.schema import Case
from tests import content_checks as checks

CASE_ID = "gpu-foundations"
SEED = checks.SEED_PREFIXES[CASE_ID]
SOURCE_PREFIX = "Source / Inspiration:"

# (phrase found only in that seed question's answer paragraph, bank question id,
#  word that the bank question's prompt must contain)
SEED_TO_BANK: list[tuple[str, str, str]] = [
    ("high memory bandwidth", "gpu-vs-cpu", "CPU"),
    ("CUDA is NVIDIA", "cuda-stack", "CUDA"),
    ("shared memory is smaller", "memory-hierarchy", "memory hierarchy"),
    ("Coalescing means", "coalescing", "coalescing"),
    ("Occupancy measures", "occupancy", "occupancy"),
    ("CUDA streams order", "cuda-streams", "streams"),
    ("Mixed precision uses", "mixed-precision", "mixed-precision"),
    ("Tensor Cores are", "tensor-cores", "Tensor Cores"),
    ("optimizer states", "gpu-oom", "out of memory"),
    ("timeline profiler", "gpu-profiling", "profile"),
    ("FlashAttention computes", "flashattention", "FlashAttention"),
    ("container image", "gpu-containers", "container"),
    ("MIG partitions", "mig", "MIG"),
    ("memory-bound", "memory-vs-compute-bound", "memory-bound"),
]


@pytest.fixture(scope="module")
def case() -> Case:
    return checks.builtin_case(CASE_ID)


@pytest.fixture(scope="module")
def seed() -> str:
    return checks.seed_text(SEED)


def seed_blocks(seed: str) -> list[str]:
    """The answer paragraph of every answered seed question (the line three above its source line)."""
    lines = [line.strip() for line in seed.splitlines()]
    blocks = []
    for i, line in enumerate(lines):
        if line.startswith(SOURCE_PREFIX):
            assert i >= 3, f"source line {i} has no answer block above it"
            blocks.append(lines[i - 3])
    return blocks


def header_counts(seed: str) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+) representative questions\.", seed, flags=re.MULTILINE)]


# --------------------------------------------------------------------------- loading and counts


def test_bank_loads_with_the_right_header(case: Case) -> None:
    assert (case.id, case.kind, case.rubric) == (CASE_ID, "bank", "ai-infra")


def test_seed_question_count_is_the_number_of_answered_blocks(seed: str) -> None:
    blocks = seed_blocks(seed)
    assert len(blocks) == seed.count(SOURCE_PREFIX)
    assert len(blocks) >= 1
    # The headers overstate the answered questions; the source lines are the count to trust.
    assert sum(header_counts(seed)) >= len(blocks)


def test_bank_has_at_least_as_many_questions_as_the_seed(case: Case, seed: str) -> None:
    seed_count = len(seed_blocks(seed))
    assert len(case.questions()) >= seed_count, (
        f"bank has {len(case.questions())} questions; the seed answers {seed_count}"
    )


def test_every_seed_question_maps_to_exactly_one_bank_question(case: Case, seed: str) -> None:
    blocks = seed_blocks(seed)
    assert len(SEED_TO_BANK) == len(blocks), "the mapping must list every answered seed question once"
    for index, block in enumerate(blocks):
        hits = [entry for entry in SEED_TO_BANK if entry[0].lower() in block.lower()]
        assert len(hits) == 1, f"seed question {index + 1} ({block[:60]!r}) matched {len(hits)} mapping entries"
    bank_ids = [qid for _, qid, _ in SEED_TO_BANK]
    assert len(set(bank_ids)) == len(bank_ids), "two seed questions map to the same bank question"
    for _, qid, prompt_word in SEED_TO_BANK:
        question = case.question(qid)
        assert question is not None, f"bank has no question {qid!r}"
        assert prompt_word.lower() in question.prompt.lower(), f"{qid}: prompt does not mention {prompt_word!r}"


# --------------------------------------------------------------------------- structure of each question


def test_phases_are_timed_per_question(case: Case) -> None:
    checks.assert_minutes_per_question(case, 5, 8)


def test_questions_meet_the_bank_bounds(case: Case) -> None:
    checks.assert_bank_bounds(case, key_points=(2, 4), outline=(4, 8))


def test_almost_every_question_has_a_figure(case: Case) -> None:
    # Only the container question has no unit-bearing figure (its numbers are driver versions).
    assert sum(bool(q.quantities) for q in case.questions()) >= len(case.questions()) - 1


def test_key_figures_match_vendor_specs(case: Case) -> None:
    """Spot-check figures that are easy to get wrong against the datasheet values."""
    checks.assert_spec_figures(
        case,
        [
            "H100 SXM HBM3 bandwidth",
            "A100 80GB HBM2e bandwidth",
            "H100 SXM dense BF16/FP16",
            "A100 dense BF16/FP16",
            "H100 shared memory per SM",
            "A100 shared memory per SM",
            "PCIe Gen4 x16 per direction",
        ],
        {"Llama-2-7B KV cache": checks.Spec(r"llama-2-7b fp16 kv cache per token", 0.5, "MiB")},
    )


# --------------------------------------------------------------------------- originality


def test_no_sentence_is_copied_from_the_seed(case: Case) -> None:
    checks.assert_not_copied(case, SEED)

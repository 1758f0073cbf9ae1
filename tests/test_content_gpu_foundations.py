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

import pytest

from interviewer.content.schema import Case
from tests import content_checks as checks

CASE_ID = "gpu-foundations"
SEED = checks.seed_facts(CASE_ID)

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


# --------------------------------------------------------------------------- loading and counts


def test_bank_loads_with_the_right_header(case: Case) -> None:
    assert (case.id, case.kind, case.rubric) == (CASE_ID, "bank", "ai-infra")


def test_seed_question_count_is_the_number_of_answered_blocks() -> None:
    assert len(SEED["answered"]) == 14
    # The headers overstate the answered questions; the source lines are the count to trust.
    assert SEED["header_total"] >= len(SEED["answered"])


def test_bank_has_at_least_as_many_questions_as_the_seed(case: Case) -> None:
    seed_count = len(SEED["answered"])
    assert len(case.questions()) >= seed_count, (
        f"bank has {len(case.questions())} questions; the seed answers {seed_count}"
    )


def test_every_seed_question_maps_to_exactly_one_bank_question(case: Case) -> None:
    blocks: list[list[str]] = SEED["answered"]
    assert len(SEED_TO_BANK) == len(blocks), "the mapping must list every answered seed question once"
    phrases = {phrase for phrase, _, _ in SEED_TO_BANK}
    for index, found in enumerate(blocks):
        assert len(found) == 1 and found[0] in phrases, f"seed question {index + 1} matched {found} mapping entries"
    assert sorted(p for [p] in blocks) == sorted(phrases), "every mapping phrase is one answered seed question"
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

# The copy check against the seed (no sentence reaching a similarity of 80) runs in benchmarks/check_seeds.py,
# where the seeds are; the tests never read outside the repository.

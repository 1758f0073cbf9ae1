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

from interviewer.content.schema import DIMENSIONS, Case
from tests.content_checks import assert_not_copied, builtin_case, case_texts, copied_sentences, seed_text

CASE_ID = "gpu-foundations"
SEED = "000_"
SOURCE_PREFIX = "Source / Inspiration:"
SCORER_UNITS = {
    "ms",
    "us",
    "ns",
    "s",
    "GB",
    "GiB",
    "MB",
    "MiB",
    "KB",
    "KiB",
    "TB",
    "GB/s",
    "Gb/s",
    "TB/s",
    "tokens/s",
    "TFLOP/s",
    "%",
    "x",
    "W",
    "GHz",
}

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
    return builtin_case(CASE_ID)


@pytest.fixture(scope="module")
def seed() -> str:
    return seed_text(SEED)


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
    assert case.id == CASE_ID
    assert case.kind == "bank"
    assert case.rubric == "ai-infra"


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


def test_phases_have_briefs_and_sensible_timing(case: Case) -> None:
    for phase in case.phases:
        assert phase.brief.strip(), f"{phase.id}: no brief"
        per_question = phase.minutes / len(phase.questions)
        assert 5 <= per_question <= 8, f"{phase.id}: {per_question:.1f} minutes per question"


def test_every_question_has_key_points_in_all_four_dimensions(case: Case) -> None:
    for q in case.questions():
        for dim in DIMENSIONS:
            points = q.key_points.get(dim, [])
            assert 2 <= len(points) <= 4, f"{q.id}: {len(points)} key points for {dim}"
            for kp in points:
                assert 2 <= len(kp.aliases) <= 5, f"{q.id}/{dim}: {kp.text[:40]!r} has {len(kp.aliases)} aliases"


def test_every_question_has_follow_ups_on_two_dimensions(case: Case) -> None:
    for q in case.questions():
        assert len(q.follow_ups) >= 2, f"{q.id}: fewer than two follow-ups"
        assert len({f.dimension for f in q.follow_ups}) >= 2, f"{q.id}: follow-ups cover one dimension only"


def test_every_question_has_misconceptions_and_an_outline(case: Case) -> None:
    for q in case.questions():
        assert 1 <= len(q.misconceptions) <= 3, f"{q.id}: {len(q.misconceptions)} misconceptions"
        for m in q.misconceptions:
            assert m.aliases and m.correction.strip(), f"{q.id}: misconception {m.text!r} is incomplete"
        assert 4 <= len(q.outline) <= 8, f"{q.id}: outline has {len(q.outline)} items"


def test_quantities_use_units_the_scorer_understands(case: Case) -> None:
    with_figures = 0
    for q in case.questions():
        for quantity in q.quantities:
            assert quantity.unit in SCORER_UNITS, f"{q.id}: unit {quantity.unit!r}"
            assert quantity.aliases, f"{q.id}: quantity {quantity.measures!r} has no aliases"
        with_figures += bool(q.quantities)
    # Only the container question has no unit-bearing figure (its numbers are driver versions).
    assert with_figures >= len(case.questions()) - 1


def test_model_answer_does_not_trip_its_own_misconceptions(case: Case) -> None:
    """A misconception alias that the outline itself uses would penalise a correct answer."""
    for q in case.questions():
        outline = " ".join(q.outline).lower()
        for m in q.misconceptions:
            for alias in m.aliases:
                assert not re.search(rf"\b{re.escape(alias.lower())}\b", outline), (
                    f"{q.id}: misconception alias {alias!r} appears in the outline"
                )


def test_key_figures_match_vendor_specs(case: Case) -> None:
    """Spot-check figures that are easy to get wrong against the datasheet values."""
    expected = {
        "H100 SXM HBM3 bandwidth": (3.35, "TB/s"),
        "A100 80GB HBM2e bandwidth": (2.0, "TB/s"),
        "H100 SXM dense BF16 Tensor Core throughput": (989, "TFLOP/s"),
        "A100 dense BF16 Tensor Core throughput": (312, "TFLOP/s"),
        "H100 shared memory per SM": (228, "KB"),
        "A100 shared memory per SM": (164, "KB"),
        "PCIe Gen4 x16 bandwidth per direction": (32, "GB/s"),
        "Llama-2-7B FP16 KV cache per token": (0.5, "MiB"),
    }
    found: dict[str, list[tuple[float, str]]] = {}
    for q in case.questions():
        for qt in q.quantities:
            found.setdefault(qt.measures, []).append((qt.value, qt.unit))
    for measures, figure in expected.items():
        assert measures in found, f"no quantity measures {measures!r}"
        for got in found[measures]:
            assert got == figure, f"{measures}: {got} != {figure}"


# --------------------------------------------------------------------------- originality


def test_no_sentence_is_copied_from_the_seed(case: Case) -> None:
    assert_not_copied(case, SEED)


def test_copy_check_catches_a_copied_sentence(case: Case, seed: str) -> None:
    """Guard the guard: a seed sentence pasted into the bank's texts must be flagged."""
    blocks = seed_blocks(seed)
    planted = [*case_texts(case), blocks[0]]
    assert copied_sentences(planted, seed), "the copy check missed a sentence taken verbatim from the seed"

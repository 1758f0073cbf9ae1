"""Content checks for the ``ai-infra-foundations`` question bank (seed 001)."""

from __future__ import annotations

import re

import pytest

from interviewer.content.schema import Case
from tests import content_checks as checks

CASE_ID = "ai-infra-foundations"
SEED = checks.seed_facts(CASE_ID)
SEED_QUESTIONS = 20

# One distinctive phrase from each seed question, and the bank question that covers it.
SEED_MAP: dict[str, str] = {
    "beyond model accuracy": "beyond-accuracy",
    "slow ml training job": "slow-training-job",
    "ml infrastructure and mlops": "infra-vs-mlops",
    "containerize": "containers",
    "when is kubernetes useful": "kubernetes-fit",
    "requests and limits": "requests-limits",
    "job instead of a deployment": "job-vs-deployment",
    "ml observability": "observability-signals",
    "concept drift": "drift-monitoring",
    "model registry": "model-registry",
    "experiment tracking": "experiment-tracking",
    "reduce gpu cost": "gpu-cost",
    "slos and alerts": "slo-alerts",
    "feature store": "feature-store",
    "data versioning": "data-versioning",
    "deploy a model safely": "safe-deployment",
    "object storage": "object-storage",
    "infrastructure as code": "infrastructure-as-code",
    "oom incident": "oom-incident",
    "llm infrastructure": "llm-serving",
}

# Llama-3-70B: 80 layers, 8 KV heads (grouped-query attention; 64 query heads), head_dim 128, FP16 = 2 bytes.
KV_BYTES_PER_TOKEN_GQA = 2 * 80 * 8 * 128 * 2  # 327,680 bytes = 320 KiB
KV_BYTES_PER_TOKEN_MHA = 2 * 80 * 64 * 128 * 2  # 2.5 MiB: the figure that ignores GQA
_BYTES = {"MB": 1e6, "GB": 1e9, "TB": 1e12, "MiB": 2**20, "GiB": 2**30}

# Vendor figures (from the shared table) that the bank must state.
SPECS = [
    "H100 SXM HBM3 bandwidth",
    "H100 SXM HBM3 capacity",
    "H100 SXM dense BF16/FP16",
    "H100 SXM dense TF32",
    "NVLink 4 per H100, both directions",
    "NDR InfiniBand port, bytes",
    "NDR InfiniBand port, bits",
    "PCIe Gen5 x16 per direction",
]


@pytest.fixture(scope="module")
def case() -> Case:
    return checks.builtin_case(CASE_ID)


def seed_headings() -> list[tuple[int, str]]:
    """The seed's numbered question cards (number, question), as recorded in the fixture."""
    return [(int(num), str(text)) for num, text in SEED["questions"]]


def test_bank_header(case: Case) -> None:
    assert (case.id, case.kind, case.rubric) == (CASE_ID, "bank", "ai-infra")


def test_question_count_matches_seed(case: Case) -> None:
    headings = seed_headings()
    numbers = [num for num, _ in headings]
    assert numbers == list(range(1, len(numbers) + 1)), f"seed question numbers are not 1..n: {numbers}"
    assert len(headings) == SEED_QUESTIONS
    assert len(case.questions()) >= len(headings)


def test_every_seed_question_has_a_bank_question(case: Case) -> None:
    ids = {q.id for q in case.questions()}
    problems = []
    for num, heading in seed_headings():
        hits = [kw for kw in SEED_MAP if kw in heading.lower()]
        if len(hits) != 1:
            problems.append(f"seed Q{num:02d} {heading!r} matches keywords {hits}")
        elif SEED_MAP[hits[0]] not in ids:
            problems.append(f"seed Q{num:02d} maps to missing question {SEED_MAP[hits[0]]!r}")
    assert not problems, "\n".join(problems)
    assert len(set(SEED_MAP.values())) == len(SEED_MAP), "two seed questions map to one bank question"


def test_phases_are_timed_per_question(case: Case) -> None:
    checks.assert_minutes_per_question(case, 5, 8)


def test_questions_meet_the_bank_bounds(case: Case) -> None:
    checks.assert_bank_bounds(case, key_points=(2, 4), outline=(4, 8), alias_words=6)


def test_no_alias_credits_two_dimensions(case: Case) -> None:
    dupes = []
    for q in case.questions():
        seen: dict[str, str] = {}
        for dim, kp in q.all_key_points():
            for alias in kp.aliases:
                other = seen.setdefault(alias.lower(), dim)
                if other != dim:
                    dupes.append((q.id, alias, other, dim))
    assert not dupes, f"aliases shared across dimensions: {dupes}"


def _kv_quantities(case: Case):
    for q in case.questions():
        for qty in q.quantities:
            if re.search(r"\bkv\b", qty.measures, re.IGNORECASE):
                yield q.id, qty


def _tokens(measures: str) -> int | None:
    """How many tokens a KV size covers: 1 for 'per token', N for 'N-token'; None for a pool size."""
    if re.search(r"\bper token\b", measures, re.IGNORECASE):
        return 1
    found = re.search(r"(\d[\d,]*)-token", measures)
    return int(found.group(1).replace(",", "")) if found else None


def test_kv_cache_figures_account_for_gqa(case: Case) -> None:
    quantities = list(_kv_quantities(case))
    sized = [(qid, qty, _tokens(qty.measures)) for qid, qty in quantities]
    assert any(n for _, _, n in sized), "expected at least one per-token or per-sequence KV-cache quantity"
    for qid, qty, n in sized:
        assert qty.unit in _BYTES, f"{qid}: KV quantity in {qty.unit}"
        got = qty.value * _BYTES[qty.unit]
        if n is None:
            # A pool of HBM set aside for the cache: must be a pool, not a mislabelled per-token size.
            assert got >= 10e9, f"{qid}: {qty.measures!r} says neither 'per token' nor 'N-token'"
            continue
        assert got == pytest.approx(KV_BYTES_PER_TOKEN_GQA * n, rel=0.02), f"{qid}: {qty.measures}"
        assert got < 0.5 * KV_BYTES_PER_TOKEN_MHA * n, f"{qid}: looks like the non-GQA figure"


def test_no_model_answer_states_the_non_gqa_kv_figure(case: Case) -> None:
    wrong = re.compile(r"2\.5\s*Mi?B", re.IGNORECASE)
    texts = [(q.id, t) for q in case.questions() for t in [*q.outline, *(kp.text for _, kp in q.all_key_points())]]
    assert not [(qid, t) for qid, t in texts if wrong.search(t)]


def test_vendor_figures_match_specs(case: Case) -> None:
    checks.assert_spec_figures(case, SPECS)


def test_training_memory_uses_16_bytes_per_param(case: Case) -> None:
    q = case.question("oom-incident")
    assert q is not None
    adam = [qty for qty in q.quantities if "adam" in qty.measures.lower()]
    per_param = [qty for qty in adam if qty.unit == "bytes" and "per parameter" in qty.measures]
    total_7b = [qty for qty in adam if qty.unit == "GB" and "7B" in qty.measures]
    assert per_param and total_7b, "expected the per-parameter and the 7B mixed-precision Adam figures"
    assert per_param[0].value == pytest.approx(2 + 2 + 4 + 8)
    assert total_7b[0].value == pytest.approx(7e9 * (2 + 2 + 4 + 8) / 1e9, rel=0.02)


# The copy check against the seed (no sentence reaching a similarity of 80) runs in benchmarks/check_seeds.py,
# where the seeds are; the tests never read outside the repository.

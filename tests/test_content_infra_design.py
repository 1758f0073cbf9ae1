"""Content checks for the ``infra-design`` question bank (seed 002)."""

from __future__ import annotations

import re

import pytest

from interviewer.content.schema import Case, Question
from tests import content_checks as checks

CASE_ID = "infra-design"
SEED = checks.seed_facts(CASE_ID)

# Keyword in the seed's question line -> the question id that covers it.
SEED_QUESTIONS = {
    "network topology": "cluster-network",
    "fsdp": "fsdp-vs-zero",
    "checkpointing": "checkpoint-strategy",
    "kv cache": "kv-cache",
    "disaggregated prefill": "pd-disaggregation",
}


@pytest.fixture(scope="module")
def case() -> Case:
    return checks.builtin_case(CASE_ID)


def _question(case: Case, qid: str) -> Question:
    q = case.question(qid)
    assert q is not None, f"question {qid!r} missing from {CASE_ID}"
    return q


def _near(value: float, target: float, rel: float = 0.05) -> bool:
    return abs(value - target) <= rel * target


def test_bank_loads(case: Case) -> None:
    assert (case.id, case.kind, case.rubric) == (CASE_ID, "bank", "ai-infra")
    assert len(case.phases) == 5
    for phase in case.phases:
        assert 10 <= phase.minutes <= 15, phase.id


BRIEF_ADVICE = {
    "numbers": ("number", "figure"),
    "inside vs between servers": ("server", "nvlink", "network"),
    "memory sizing": ("memory", "size"),
    "failure modes": ("fail", "recover"),
}


def test_phase_briefs_restate_the_structuring_advice(case: Case) -> None:
    for phase in case.phases:
        brief = phase.brief.lower()
        for advice, words in BRIEF_ADVICE.items():
            assert any(w in brief for w in words), f"phase {phase.id} brief does not cover {advice}"


def test_every_seed_question_is_present(case: Case) -> None:
    lines: list[str] = SEED["questions"]
    assert len(lines) == 5
    ids = {q.id for q in case.questions()}
    matched = []
    for line in lines:
        keys = [k for k in SEED_QUESTIONS if k in line.lower()]
        assert len(keys) == 1, f"seed question maps to {keys}: {line[:80]}"
        qid = SEED_QUESTIONS[keys[0]]
        assert qid in ids, f"seed question {keys[0]!r} has no question {qid!r}"
        matched.append(qid)
    assert sorted(matched) == sorted(SEED_QUESTIONS.values())
    # Each seed question opens its own phase.
    assert [p.questions[0].id for p in case.phases] == matched


def test_questions_meet_the_bank_bounds(case: Case) -> None:
    checks.assert_bank_bounds(
        case,
        key_points=(3, 6),
        outline=(5, 10),
        alias_words=6,
        misconception_alias_words=7,
        quantities=1,
        max_tolerance=0.25,
    )


def test_kv_cache_figures_account_for_gqa(case: Case) -> None:
    # Llama-3-70B: 80 layers, 8 KV heads (GQA), head_dim 128, BF16.
    per_token = 2 * 80 * 8 * 128 * 2
    assert per_token == 327_680
    q = _question(case, "kv-cache")
    kib = [x.value for x in q.quantities if x.unit == "KiB"]
    mb = [x.value for x in q.quantities if x.unit == "MB"]
    assert any(_near(v, per_token / 1024) for v in kib) or any(_near(v, per_token / 1e6) for v in mb)
    gb = [x.value for x in q.quantities if x.unit == "GB"]
    assert any(_near(v, per_token * 4096 / 1e9) for v in gb), gb
    # The seed's figures (2 MB/token, 8 GB at 4K) ignore GQA and must not be reference values.
    for qq in case.questions():
        for x in qq.quantities:
            assert not (x.unit == "MB" and _near(x.value, 2.0, 0.1)), (qq.id, x.measures)
            assert not (x.unit == "GB" and _near(x.value, 8.0, 0.1)), (qq.id, x.measures)
    # ...but stating them is recorded as a misconception.
    wrong = [a.lower() for m in q.misconceptions for a in m.aliases]
    assert "2 mb per token" in wrong


def test_kv_transfer_uses_the_corrected_size(case: Case) -> None:
    q = _question(case, "pd-disaggregation")
    kv_gb = 2 * 80 * 8 * 128 * 2 * 4096 / 1e9
    ms = [x.value for x in q.quantities if x.unit == "ms"]
    assert any(_near(v, kv_gb / 50 * 1000, 0.1) for v in ms), ms
    assert not any(_near(v, 160, 0.1) for v in ms)


def test_zero3_per_gpu_counts_full_training_state(case: Case) -> None:
    q = _question(case, "fsdp-vs-zero")
    per_gpu = 70e9 * 16 / 64 / 1e9
    assert per_gpu == pytest.approx(17.5)
    zero3 = [x for x in q.quantities if x.unit == "GB" and re.search(r"zero-3", x.measures, re.I)]
    assert zero3, "no ZeRO-3 per-GPU quantity"
    assert all(_near(x.value, per_gpu) for x in zero3), [x.value for x in zero3]
    # 140 GB / 64 = 2.19 GB is weights only; it must not appear as a reference figure.
    for qq in case.questions():
        for x in qq.quantities:
            assert not (x.unit == "GB" and _near(x.value, 2.19, 0.05)), (qq.id, x.measures)


def test_hardware_figures(case: Case) -> None:
    checks.assert_spec_figures(
        case,
        [
            "NVLink 4 per H100, both directions",
            "NVLink 4 per H100, one direction",
            "NDR InfiniBand port, bits",
            "NDR InfiniBand port, bytes",
            "H100 SXM HBM3 bandwidth",
        ],
    )


# The copy check against the seed (no sentence reaching a similarity of 80) runs in benchmarks/check_seeds.py,
# where the seeds are; the tests never read outside the repository.

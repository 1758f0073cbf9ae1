"""Content checks for the ``infra-design`` question bank (seed 002)."""

from __future__ import annotations

import re

import pytest

from interviewer.content.schema import DIMENSIONS, Case, Question
from tests.content_checks import assert_not_copied, builtin_case, seed_text

CASE_ID = "infra-design"
SEED = "002_"

# Keyword in the seed's question line -> the question id that covers it.
SEED_QUESTIONS = {
    "network topology": "cluster-network",
    "fsdp": "fsdp-vs-zero",
    "checkpointing": "checkpoint-strategy",
    "kv cache": "kv-cache",
    "disaggregated prefill": "pd-disaggregation",
}

SCORER_UNITS = {
    "ms", "us", "s", "GB", "GiB", "MB", "MiB", "KiB", "TB", "GB/s", "Gb/s", "TB/s", "tokens/s", "TFLOP/s", "%", "x",
}


@pytest.fixture(scope="module")
def case() -> Case:
    return builtin_case(CASE_ID)


def _question(case: Case, qid: str) -> Question:
    q = case.question(qid)
    assert q is not None, f"question {qid!r} missing from {CASE_ID}"
    return q


def _near(value: float, target: float, rel: float = 0.05) -> bool:
    return abs(value - target) <= rel * target


def test_bank_loads(case: Case) -> None:
    assert case.id == CASE_ID
    assert case.kind == "bank"
    assert case.rubric == "ai-infra"
    assert len(case.phases) == 5
    for phase in case.phases:
        assert 10 <= phase.minutes <= 15, phase.id
        assert phase.brief, f"phase {phase.id} has no brief"


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
    lines = [line for line in seed_text(SEED).splitlines() if "The interviewer asks:" in line]
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


def test_every_question_is_complete(case: Case) -> None:
    for q in case.questions():
        assert len(q.follow_ups) >= 2, q.id
        assert len({f.dimension for f in q.follow_ups}) >= 2, q.id
        for dim in DIMENSIONS:
            points = q.key_points.get(dim, [])
            assert 3 <= len(points) <= 6, f"{q.id}.{dim}: {len(points)} key points"
            for kp in points:
                assert 2 <= len(kp.aliases) <= 5, f"{q.id}.{dim}: {kp.text!r}"
        assert 1 <= len(q.misconceptions) <= 3, q.id
        for m in q.misconceptions:
            assert m.aliases and m.correction, q.id
        assert 5 <= len(q.outline) <= 10, q.id
        assert q.quantities, q.id


def test_aliases_are_short_phrases(case: Case) -> None:
    for q in case.questions():
        aliases = [a for _, kp in q.all_key_points() for a in kp.aliases]
        aliases += [a for m in q.misconceptions for a in m.aliases]
        for alias in aliases:
            assert 1 <= len(alias.split()) <= 6, f"{q.id}: alias too long: {alias!r}"


def test_quantity_units_are_understood_by_the_scorer(case: Case) -> None:
    for q in case.questions():
        for qty in q.quantities:
            assert qty.unit in SCORER_UNITS, f"{q.id}: unit {qty.unit!r}"
            assert 0 < qty.tolerance <= 0.25, f"{q.id}: tolerance {qty.tolerance}"
            assert qty.aliases, f"{q.id}: {qty.measures!r} has no aliases"


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
    figures = {(x.unit, x.value) for q in case.questions() for x in q.quantities}
    assert ("GB/s", 900) in figures  # H100 NVLink 4, both directions
    assert ("Gb/s", 400) in figures  # NDR InfiniBand
    assert ("GB/s", 50) in figures  # NDR in bytes
    assert ("TB/s", 3.35) in figures  # H100 HBM3


def test_no_sentence_copied_from_seed(case: Case) -> None:
    assert_not_copied(case, SEED)

"""Content checks for the ``systems-map`` question bank (built from seed 004).

The seed's whiteboard drills and tradeoff-matrix rows are recorded in
``tests/fixtures/seed_facts.yaml`` (``benchmarks/check_seeds.py`` re-extracts them
from the seed), so that a drill or row added to (or dropped from) the seed, or a
question removed from the bank, fails a test.  Reference figures are recomputed from their formulas.
"""

from __future__ import annotations

import pytest

from interviewer.content.schema import Quantity, Question
from tests import content_checks as checks

CASE_ID = "systems-map"
SEED = checks.seed_facts(CASE_ID)
BYTES = {"MB": 1e6, "MiB": 2**20, "GB": 1e9, "GiB": 2**30, "TB": 1e12}

# Seed tradeoff-matrix row (leading technique name) -> question id.
MATRIX_ROWS = {
    "ZeRO / FSDP": "zero-fsdp-tradeoff",
    "Activation checkpointing": "activation-checkpointing-tradeoff",
    "FlashAttention": "flashattention-tradeoff",
    "Tensor Parallel": "tensor-parallel-tradeoff",
    "Pipeline Parallel": "pipeline-parallel-tradeoff",
    "SP / CP": "sequence-context-parallel-tradeoff",
    "Expert Parallel": "expert-parallel-tradeoff",
    "Quantization": "quantization-tradeoff",
    "Continuous batching": "continuous-batching-tradeoff",
    "Speculative decoding": "speculative-decoding-tradeoff",
    "Triton custom kernel": "triton-kernel-tradeoff",
}

# Keyword in a seed whiteboard-drill question -> question id.
DRILLS = {
    "tensor shapes": "drill-tensor-shapes",
    "mD^2": "drill-ffn-md2",
    "memory ledger": "drill-memory-ledger",
    "DDP and FSDP": "drill-ddp-vs-fsdp",
    "64 GPUs": "drill-64-gpu-layout",
    "validate a systems claim": "drill-validate-claim",
    "prefill and decode": "drill-prefill-decode",
    "memory-bound kernel": "drill-memory-bound-kernel",
}

# Seed estimator marker -> sizing question id.
ESTIMATORS = {
    "Parameter-count estimator": "param-count-sizing",
    "Ring AllReduce time estimator": "ring-allreduce-sizing",
    "Training memory ledger estimator": "training-memory-sizing",
    "serving KV Cache memory": "kv-cache-sizing",
}


@pytest.fixture(scope="module")
def case():
    return checks.builtin_case(CASE_ID)


def quantity(q: Question, needle: str) -> Quantity:
    hits = [x for x in q.quantities if needle.lower() in x.measures.lower()]
    assert len(hits) == 1, f"{q.id}: expected one quantity measuring {needle!r}, found {len(hits)}"
    return hits[0]


def in_bytes(x: Quantity) -> float:
    assert x.unit in BYTES, f"{x.measures!r} is in {x.unit}, not a byte unit"
    return x.value * BYTES[x.unit]


def close(x: Quantity, expected: float, *, as_bytes: bool = False) -> bool:
    value = in_bytes(x) if as_bytes else x.value
    return abs(value - expected) <= x.tolerance * abs(expected)


# --------------------------------------------------------------------------- loading


def test_bank_loads(case):
    assert (case.id, case.kind, case.rubric) == (CASE_ID, "bank", "ai-infra")
    assert len(case.questions()) >= len(MATRIX_ROWS) + len(DRILLS) + len(ESTIMATORS)


# --------------------------------------------------------------------------- seed coverage


def test_every_tradeoff_matrix_row_has_a_question(case):
    rows: list[list[str]] = SEED["matrix_rows"]
    assert len(rows) == len(MATRIX_ROWS), f"seed matrix has {len(rows)} rows: {rows}"
    for owners in rows:
        assert len(owners) == 1 and owners[0] in MATRIX_ROWS, f"no unique mapping for seed row {owners}"
    assert sorted(o for [o] in rows) == sorted(MATRIX_ROWS)
    for keyword, qid in MATRIX_ROWS.items():
        q = case.question(qid)
        assert q is not None, f"matrix row {keyword!r} has no question {qid!r}"
        prompt = q.prompt.lower()
        assert "cost" in prompt and "not" in prompt, f"{qid}: should ask what it costs and when not to use it"


def test_every_whiteboard_drill_has_a_question(case):
    drills: list[str] = SEED["drills"]
    assert len(drills) == len(DRILLS), f"seed has {len(drills)} drills: {drills}"
    for drill in drills:
        owners = [key for key in DRILLS if key in drill]
        assert len(owners) == 1, f"no unique mapping for seed drill {drill!r}"
    phase = next(p for p in case.phases if p.id == "whiteboard-drills")
    drill_ids = {q.id for q in phase.questions}
    for keyword, qid in DRILLS.items():
        assert qid in drill_ids, f"drill {keyword!r} has no question {qid!r} in the whiteboard-drills phase"


def test_every_estimator_is_a_sizing_question(case):
    for marker, qid in ESTIMATORS.items():
        assert marker in SEED["estimators"], f"seed marker {marker!r} not found"
        q = case.question(qid)
        assert q is not None, f"estimator {marker!r} has no question {qid!r}"
        assert len(q.quantities) >= 3, f"{qid}: a sizing question needs worked reference quantities"


# --------------------------------------------------------------------------- question shape


def test_questions_meet_the_bank_bounds(case):
    checks.assert_bank_bounds(case, key_points=(2, 4), outline=(4, 8), alias_words=6, quantities=1)


def test_phases_cover_the_three_threads(case):
    ids = [p.id for p in case.phases]
    for thread in ("compute", "memory", "communication", "whiteboard-drills"):
        assert thread in ids, f"missing phase {thread!r}"
    checks.assert_minutes_per_question(case, 5, 8)


# --------------------------------------------------------------------------- figures


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, dtype_bytes: int = 2) -> int:
    return 2 * layers * kv_heads * head_dim * dtype_bytes


def test_kv_cache_quantities_use_gqa_kv_heads(case):
    q = case.question("kv-cache-sizing")
    gqa = kv_bytes_per_token(80, 8, 128)  # Llama-3-70B: 320 KiB per token
    mha = kv_bytes_per_token(80, 64, 128)  # the classic mistake: query heads instead of KV heads
    assert gqa == 320 * 1024
    per_token = quantity(q, "per token")
    assert close(per_token, gqa, as_bytes=True), f"per-token KV is {per_token.value} {per_token.unit}"
    assert not close(per_token, mha, as_bytes=True), "the check must reject the 64-head figure"
    assert close(quantity(q, "per 8,192-token request"), gqa * 8192, as_bytes=True)
    assert close(quantity(q, "32 concurrent"), gqa * 8192 * 32, as_bytes=True)
    assert close(quantity(q, "no GQA"), 64 / 8)
    # Other questions that reuse Llama-3-70B or Llama-3-8B cache figures.
    cp = case.question("sequence-context-parallel-tradeoff")
    assert close(quantity(cp, "131,072-token sequence"), gqa * 131072, as_bytes=True)
    assert close(quantity(cp, "per rank"), gqa * 131072 / 8, as_bytes=True)
    assert close(quantity(cp, "ring hop"), 16384 * kv_bytes_per_token(1, 8, 128), as_bytes=True)
    pd = case.question("drill-prefill-decode")
    assert close(quantity(pd, "2,000-token prompt"), kv_bytes_per_token(32, 8, 128) * 2000, as_bytes=True)
    assert close(quantity(pd, "KV cache per token"), kv_bytes_per_token(32, 8, 128), as_bytes=True)
    assert close(quantity(cp, "KV cache per token"), gqa, as_bytes=True)
    # No KV figure anywhere may carry the MHA-inflated per-token size.
    for question in case.questions():
        for x in question.quantities:
            if "kv" in x.measures.lower() and x.unit in BYTES and "per token" in x.measures.lower():
                assert not close(x, mha, as_bytes=True), f"{question.id}: {x.measures!r} ignores GQA"


def test_parameter_count_figures(case):
    q = case.question("param-count-sizing")
    d, layers, vocab = 4096, 32, 32000
    params = 12 * layers * d * d + vocab * d
    assert close(quantity(q, "BF16 weight memory"), 2 * params, as_bytes=True)
    assert close(quantity(q, "mixed-precision Adam training state"), 16 * params, as_bytes=True)
    assert close(quantity(q, "share of block parameters"), 100 * 8 / 12)
    assert close(quantity(q, "embedding table"), 100 * vocab * d / params)


def test_ring_allreduce_figures(case):
    q = case.question("ring-allreduce-sizing")
    size, n = 14e9, 8
    traffic = 2 * (n - 1) / n * size
    assert close(quantity(q, "per-rank bytes"), traffic, as_bytes=True)
    assert close(quantity(q, "inside one H100 node"), 1e3 * traffic / 450e9)  # ms, NVLink 4 one way
    assert close(quantity(q, "across 8 nodes"), 1e3 * traffic / 50e9)  # ms, NDR 400 Gb/s
    assert close(quantity(q, "latency term"), 1e3 * 2 * (64 - 1) * 5e-6)  # ms
    assert close(quantity(q, "bandwidth ratio"), 450 / 50)


def test_training_memory_ledger_figures(case):
    q = case.question("training-memory-sizing")
    params, n = 13e9, 8
    expected = {
        "unsharded": 16,
        "persistent state with ZeRO-1": 2 + 2 + 12 / n,
        "persistent state with ZeRO-2": 2 + (2 + 12) / n,
        "persistent state with ZeRO-3": 16 / n,
    }
    for needle, bytes_per_param in expected.items():
        assert close(quantity(q, needle), params * bytes_per_param, as_bytes=True), needle
    for stage in ("ZeRO-1", "ZeRO-2", "ZeRO-3"):
        state = quantity(q, f"persistent state with {stage}")
        headroom = quantity(q, f"after {stage} state")
        assert close(headroom, 80e9 - in_bytes(state), as_bytes=True), stage
    z = case.question("zero-fsdp-tradeoff")
    assert close(quantity(z, "unsharded"), 70e9 * 16, as_bytes=True)
    assert close(quantity(z, "64 GPUs"), 70e9 * 16 / 64, as_bytes=True)
    f = case.question("drill-ddp-vs-fsdp")
    assert close(quantity(f, "DDP per-GPU"), 7e9 * 16, as_bytes=True)
    assert close(quantity(f, "FSDP full-shard"), 7e9 * 16 / 8, as_bytes=True)
    assert close(quantity(f, "DDP bytes sent"), 2 * 7 / 8 * 14e9, as_bytes=True)
    assert close(quantity(f, "FSDP bytes sent"), 3 * 7 / 8 * 14e9, as_bytes=True)


def test_hardware_figures(case):
    checks.assert_spec_figures(case, ["H100 SXM HBM3 bandwidth", "H100 SXM dense BF16/FP16", "H100 SXM HBM3 capacity"])
    k = case.question("drill-memory-bound-kernel")
    assert close(quantity(k, "HBM3 bandwidth"), 3.35)
    assert close(quantity(k, "dense BF16"), 989)
    assert close(quantity(k, "three unfused"), 1e3 * 6e9 / 3.35e12)
    assert close(quantity(k, "fused into one"), 1e3 * 2e9 / 3.35e12)
    tp = case.question("tensor-parallel-tradeoff")
    message = 4096 * 8192 * 2
    assert close(quantity(tp, "activation bytes"), message, as_bytes=True)
    assert close(quantity(tp, "over NVLink at 450"), 1e3 * 1.75 * message / 450e9)
    assert close(quantity(tp, "50 GB/s InfiniBand"), 1e3 * 1.75 * message / 50e9)


# --------------------------------------------------------------------------- originality


# The copy check against the seed (no sentence reaching a similarity of 80) runs in benchmarks/check_seeds.py,
# where the seeds are; the tests never read outside the repository.

"""Estimators against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from interviewer.cli import main
from interviewer.estimators import EstimateError, kv_cache, param_count, ring_allreduce, training_memory


def test_param_count_llama2_7b_shape() -> None:
    # 32 layers x (4 + 8) x 4096^2 = 6,442,450,944; embeddings 32000 x 4096 = 131,072,000
    e = param_count(32, 4096, 32000, 8)
    assert e.value == 6_442_450_944 + 131_072_000
    assert "6.57B" in e.result
    assert "(4 + 8)·4096²" in e.text()


def test_param_count_untied_head() -> None:
    assert param_count(2, 100, 1000, 8, untied=True).value == 2 * 12 * 100**2 + 2 * 1000 * 100


def test_ring_allreduce_by_hand() -> None:
    # 1 GB over 8 ranks at 50 GB/s: 2*7/8 = 1.75 GB -> 35 ms; 14 steps x 5 us = 70 us
    e = ring_allreduce(1, 8, 50, 5)
    assert math.isclose(e.value, 0.035 + 70e-6)
    assert e.details["traffic_gb"] == pytest.approx(1.75)
    assert "35.07 ms" in e.result


def test_training_memory_70b_zero3_64() -> None:
    # 16 bytes/param x 70e9 = 1.12 TB; / 64 = 17.5 GB
    e = training_memory(70, "bf16", "adam", "zero3", 64)
    assert e.value == pytest.approx(17.5e9)
    assert e.details["unsharded"] == pytest.approx(1.12e12)


def test_training_memory_stages() -> None:
    p = 1.0  # 1B params, bf16 + adam: weights 2, grads 2, optimizer 12 bytes each
    assert training_memory(p, sharding="none", gpus=8).value == pytest.approx(16e9)
    assert training_memory(p, sharding="zero1", gpus=8).value == pytest.approx(4e9 + 12e9 / 8)
    assert training_memory(p, sharding="zero2", gpus=8).value == pytest.approx(2e9 + 14e9 / 8)
    assert training_memory(p, sharding="fsdp", gpus=8).value == pytest.approx(16e9 / 8)
    # fp32 training keeps no extra master copy: 4 + 4 + 8
    assert training_memory(p, dtype="fp32").value == pytest.approx(16e9)


def test_kv_cache_llama3_70b_with_gqa() -> None:
    # 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes/token; x 4096 = 1,342,177,280
    e = kv_cache(80, 8, 128, 4096, 1, "fp16")
    assert e.details["per_token"] == 327_680
    assert e.value == 1_342_177_280
    assert "1.25 GiB" in e.result


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: kv_cache(-1, 8, 128, 10), "--layers: must be greater than zero"),
        (lambda: kv_cache(80, 8, 128, 10, dtype="fp13"), "--dtype: unknown dtype 'fp13'"),
        (lambda: ring_allreduce(1, 1, 50), "--gpus: an all-reduce needs at least 2 GPUs"),
        (lambda: ring_allreduce(float("nan"), 8, 50), "--size-gb: must be a finite number"),
        (lambda: training_memory(7, optimizer="lion"), "--optimizer: unknown optimizer 'lion'"),
        (lambda: training_memory(7, sharding="zero9"), "--sharding: unknown scheme 'zero9'"),
        (lambda: param_count(32, 4096, 0), "--vocab: must be greater than zero"),
    ],
)
def test_bad_input_names_the_flag(call, message) -> None:
    with pytest.raises(EstimateError, match=message.replace("(", r"\(")):
        call()


def test_calc_cli_prints_working(capsys) -> None:
    assert main(["calc", "kv", "--layers", "80", "--kv-heads", "8", "--head-dim", "128", "--seq-len", "4096"]) == 0
    out = capsys.readouterr().out
    assert "2 × 80 × 8 × 128 × 2 = 327,680 bytes" in out
    assert main(["calc", "memory", "--params-b", "7", "--dtype", "fp13"]) == 2
    assert "--dtype: unknown dtype 'fp13'" in capsys.readouterr().err
    assert main(["calc", "kv", "--layers", "x"]) == 2
    assert "invalid int value" in capsys.readouterr().err

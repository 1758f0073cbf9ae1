"""Figures: extraction, unit normalisation and checking against reference quantities."""

from __future__ import annotations

import math

import pytest

from interviewer.content.schema import Quantity
from interviewer.grading.offline.quantities import (
    Figure,
    accepts,
    check,
    compile_references,
    extract,
    parse_unit,
)
from interviewer.grading.offline.text import analyse, fold


def figures(text: str) -> list[Figure]:
    return extract(text, analyse(text, fold(text)))


def one(text: str) -> Figure:
    found = [f for f in figures(text) if f.dimension is not None]
    assert len(found) == 1, [(text[f.start : f.end], f.dimension) for f in found]
    return found[0]


def value(text: str) -> float:
    return one(text).readings[0][0]


@pytest.mark.parametrize(
    ("text", "dimension", "base"),
    [
        ("NVLink gives 900 GB/s per GPU.", "B/s", 900e9),
        ("NDR is 400 Gb/s per port.", "B/s", 50e9),
        ("NDR is 400 Gbps per port.", "B/s", 50e9),
        ("NDR is 400Gbps per port.", "B/s", 50e9),
        ("HBM3 runs at 3.35 TB/s here.", "B/s", 3.35e12),
        ("It copies at 25 GB per second.", "B/s", 25e9),
        ("The card has 80 GB of HBM.", "B", 80e9),
        ("The card has 80 GiB of HBM.", "B", 80 * 2**30),
        ("A page is 4 KiB.", "B", 4096),
        ("A page is 4 KB.", "B", 4000),
        ("The shard is 512 MiB.", "B", 512 * 2**20),
        ("The file is 2 TB.", "B", 2e12),
        ("Launch overhead is 5 µs.", "s", 5e-6),
        ("Launch overhead is 5 μs.", "s", 5e-6),
        ("Launch overhead is 5 us.", "s", 5e-6),
        ("An HBM access is 300 ns.", "s", 300e-9),
        ("The step takes 20ms.", "s", 0.02),
        ("A restart takes 90 s.", "s", 90.0),
        ("Decode runs at 1,000 tokens/s.", "tok/s", 1000.0),
        ("Decode runs at 2k tok/s.", "tok/s", 2000.0),
        ("Decode runs at 40 tokens per second.", "tok/s", 40.0),
        ("The context is 1.5 million tokens.", "tok", 1.5e6),
        ("Peak is 989 TFLOP/s.", "flop/s", 989e12),
        ("Peak is 989 TFLOPS.", "flop/s", 989e12),
        ("Peak is 989 TFLOPs.", "flop/s", 989e12),
        ("A T4 has 130 TOPS.", "op/s", 130e12),
        ("A T4 has 130 INT8 TOPS.", "op/s", 130e12),
        ("A T4 has 65 FP16 TFLOP/s.", "flop/s", 65e12),
        ("The server handles 1200 inferences/s.", "item/s", 1200.0),
        ("The server handles 3.5k req/s.", "item/s", 3500.0),
        ("The server handles 500 QPS.", "item/s", 500.0),
        ("Utilisation sits at 90%.", "%", 90.0),
        ("INT8 is 4x smaller.", "x", 4.0),
        ("INT8 is 4× smaller.", "x", 4.0),
        ("INT8 is 2 times faster.", "x", 2.0),
        ("The board draws 700 W.", "W", 700.0),
        ("The clock is 1.98 GHz.", "Hz", 1.98e9),
        ("Llama has 70B params.", "param", 70e9),
        ("Llama has 70 billion parameters.", "param", 70e9),
    ],
)
def test_extracts_and_normalises(text: str, dimension: str, base: float) -> None:
    fig = one(text)
    assert fig.dimension == dimension
    assert math.isclose(fig.readings[0][0], base, rel_tol=1e-9)


def test_bytes_and_bits_differ_by_eight() -> None:
    assert value("It is 900 GB/s.") == 8 * value("It is 900 Gb/s.")
    assert value("It is 1 Gb/s.") == 1.25e8


def test_lower_case_gb_is_ambiguous_and_carries_both_readings() -> None:
    fig = one("It has 80gb of memory.")
    assert [r[0] for r in fig.readings] == [80e9, 10e9]


def test_commas_and_thousands() -> None:
    assert value("We see 1,000 req/s at peak.") == 1000
    assert value("We see 12,500,000 tokens a day.") == 12_500_000
    assert value("We see 2k tokens per request.") == 2000


@pytest.mark.parametrize(
    ("text", "claim", "seconds"),
    [
        ("We hold a P95 of 20 ms today.", "P95 of 20 ms", 0.02),
        ("The p99 latency 45ms is too high.", "p99 latency 45ms", 0.045),
        ("The P95 latency of 60 ms is the budget.", "P95 latency of 60 ms", 0.06),
    ],
)
def test_percentile_latencies_keep_their_label(text: str, claim: str, seconds: float) -> None:
    fig = one(text)
    assert text[fig.start : fig.end] == claim
    assert math.isclose(fig.readings[0][0], seconds)


def test_p95_and_h100_are_not_numbers() -> None:
    found = figures("The H100 keeps P95 low on INT8 and FP16 with Llama-2-70B.")
    assert found == []


def test_range_keeps_both_ends() -> None:
    fig = one("Latency is 20-30 ms under load.")
    assert fig.readings == ((0.02, 0.03),)
    fig = one("Latency is 20 to 30 ms under load.")
    assert fig.readings == ((0.02, 0.03),)


def test_approximate_markers() -> None:
    assert one("It takes ~60 ms per step.").approx
    assert one("It takes about 60 ms per step.").approx
    assert not one("It takes 60 ms per step.").approx


def test_products_are_factors_and_the_result_is_not() -> None:
    text = "Per token: 2 × 80 × 8 × 128 × 2 bytes = 327,680 bytes."
    found = figures(text)
    factors = [text[f.num_start : f.num_end] for f in found if f.factor]
    assert factors == ["2", "80", "8", "128", "2 bytes"]
    result = [f for f in found if not f.factor]
    assert [text[f.start : f.end] for f in result] == ["327,680 bytes"]


def test_count_of_gpus_is_not_a_ratio() -> None:
    text = "We run 8x H100 and get a 4x speedup."
    dims = [(text[f.start : f.end], f.dimension) for f in figures(text)]
    assert ("8", None) in dims
    assert ("4x", "x") in dims


def test_per_thing_is_recorded() -> None:
    assert one("FP16 costs 2 bytes per parameter.").per == "parameter"
    assert one("It is 320 KB per token.").per == "token"


@pytest.mark.parametrize(
    ("unit", "dimension", "factor"),
    [
        ("GB/s", "B/s", 1e9),
        ("Gb/s", "B/s", 1e9 / 8),
        ("Gbps", "B/s", 1e9 / 8),
        ("KiB", "B", 1024),
        ("ms", "s", 1e-3),
        ("tokens/s", "tok/s", 1),
        ("TFLOP/s", "flop/s", 1e12),
        ("inferences/s", "item/s", 1),
        ("x", "x", 1),
        ("%", "%", 1),
        ("GPUs", "noun:gpu", 1),
    ],
)
def test_reference_units(unit: str, dimension: str, factor: float) -> None:
    assert parse_unit(unit) == (dimension, factor)


# --------------------------------------------------------------------------- checking

NVLINK = Quantity(measures="H100 NVLink total bandwidth", value=900, unit="GB/s", tolerance=0.05, aliases=["nvlink"])
IB = Quantity(measures="NDR InfiniBand port", value=400, unit="Gb/s", tolerance=0.05, aliases=["infiniband", "ib"])
HBM = Quantity(measures="H100 HBM3 bandwidth", value=3.35, unit="TB/s", tolerance=0.05, aliases=["hbm"])
LAT = Quantity(measures="P95 latency budget", value=50, unit="ms", tolerance=0.1, aliases=["p95", "budget"])


def verdicts(text: str, quantities: list[Quantity]) -> list[tuple[str, str, str | None]]:
    folded = fold(text)
    sentences = analyse(text, folded)
    refs = compile_references(quantities)
    return [
        (text[c.figure.start : c.figure.end], c.verdict, c.reference.quantity.measures if c.reference else None)
        for c in check(extract(text, sentences), refs, sentences, folded)
    ]


def test_correct_figures_in_any_equivalent_unit() -> None:
    out = verdicts("NVLink gives 900 GB/s and InfiniBand gives 50 GB/s, which is 400 Gbps.", [NVLINK, IB])
    assert [v for _, v, _ in out] == ["correct", "correct", "correct"]


def test_bits_for_bytes_is_wrong() -> None:
    out = verdicts("NVLink gives 900 Gb/s per GPU.", [NVLINK, IB, HBM])
    assert out == [("900 Gb/s", "wrong", "H100 NVLink total bandwidth")]


def test_nearest_alias_decides_which_reference() -> None:
    out = verdicts("HBM is 3.35 TB/s while NVLink is only 600 GB/s.", [NVLINK, HBM])
    assert out == [
        ("3.35 TB/s", "correct", "H100 HBM3 bandwidth"),
        ("600 GB/s", "wrong", "H100 NVLink total bandwidth"),
    ]


def test_percentile_figure_checked_against_latency_reference() -> None:
    assert verdicts("Our P95 of 50 ms is the budget.", [LAT]) == [("P95 of 50 ms", "correct", "P95 latency budget")]
    assert verdicts("Our P95 of 500 ms is the budget.", [LAT])[0][1] == "wrong"


def test_lone_reference_confirms_but_never_condemns() -> None:
    assert verdicts("We measured 51 ms.", [LAT]) == [("51 ms", "correct", "P95 latency budget")]
    assert verdicts("We measured 7 ms.", [LAT]) == [("7 ms", "unverified", None)]


def test_ambiguous_dimension_without_words_is_unverified() -> None:
    assert verdicts("It moves 700 GB/s.", [NVLINK, HBM]) == [("700 GB/s", "unverified", None)]


def test_tolerance_and_approximation() -> None:
    ref = compile_references([NVLINK])[0]
    assert accepts(ref, one("NVLink is 900 GB/s."))
    assert not accepts(ref, one("NVLink is 1000 GB/s."))
    assert accepts(ref, one("NVLink is about 960 GB/s."))  # ~ widens 5% to 7.5%


def test_range_accepts_reference_inside_a_narrow_range() -> None:
    ref = compile_references([LAT])[0]
    assert accepts(ref, one("P95 is 40-60 ms."))
    assert not accepts(ref, one("P95 is 5-500 ms."))


WEIGHTS = Quantity(measures="FP16 weights of a 70B model", value=140, unit="GB", tolerance=0.05, aliases=["weights"])
TOTAL = Quantity(
    measures="Adam training state", value=1120, unit="GB", tolerance=0.1, aliases=["adam", "training state"]
)
ZERO3 = Quantity(measures="ZeRO-3 state per GPU", value=17.5, unit="GB", tolerance=0.1, aliases=["zero-3", "per gpu"])


def test_alias_joined_by_of_binds_to_the_figure_before_it() -> None:
    out = verdicts("For 70B that is 140 GB of weights and 150 GB in total.", [WEIGHTS, TOTAL])
    assert out[0] == ("140 GB", "correct", "FP16 weights of a 70B model")
    assert out[1][1] == "unverified"  # 'weights' belongs to 140 GB, nothing ties 150 GB to a reference


def test_a_figure_in_plain_words_is_confirmed_by_the_one_value_it_lands_on() -> None:
    # No alias of either reference is near, but 1,120 GB is exactly what the question worked out.
    assert verdicts("Keeping everything for a 70B run comes to 1,120 GB.", [WEIGHTS, TOTAL]) == [
        ("1,120 GB", "correct", "Adam training state")
    ]
    # 'About' widens a tolerance, which makes a chance landing too likely to count as evidence.
    assert verdicts("Keeping everything comes to about 1,250 GB.", [WEIGHTS, TOTAL])[0][1] == "unverified"
    loose = Quantity(measures="Adam training state", value=1120, unit="GB", tolerance=0.3, aliases=["adam"])
    assert verdicts("Keeping everything comes to 1,000 GB.", [WEIGHTS, loose])[0][1] == "unverified"
    # Two references a figure could be are no evidence for either.
    twin = Quantity(measures="checkpoint size", value=1100, unit="GB", tolerance=0.05, aliases=["checkpoint"])
    assert verdicts("Keeping everything comes to 1,120 GB.", [TOTAL, twin])[0][1] == "unverified"


def test_terms_of_arithmetic_are_not_judged() -> None:
    out = verdicts("Adam needs 2 B weights + 2 B gradients + 12 B of state = 16 B per parameter.", [WEIGHTS, TOTAL])
    assert all(v != "wrong" for _, v, _ in out)


def test_a_figure_far_from_every_reference_measures_something_else() -> None:
    out = verdicts("The weights of one layer are 2 GB.", [WEIGHTS])
    assert out == [("2 GB", "unverified", None)]  # 70x off: another quantity, not a mistake
    assert verdicts("The weights are 70 GB.", [WEIGHTS])[0][1] == "wrong"  # 2x off: a mistake
    assert verdicts("The weights are 13 GB.", [WEIGHTS])[0][1] == "wrong"  # a slipped decimal point (10.8x)


def test_own_per_gpu_is_not_evidence_against_a_figure() -> None:
    out = verdicts("ZeRO-1 on 64 GPUs needs about 293 GB per GPU.", [ZERO3])
    assert out == [("293 GB", "unverified", None)]
    assert verdicts("ZeRO-3 needs about 35 GB per GPU.", [ZERO3])[0][1] == "wrong"


SHARD = Quantity(measures="KV cache of one request", value=1.34, unit="GB", tolerance=0.1, aliases=["kv cache"])
PEAK = Quantity(measures="H100 dense BF16 peak", value=989, unit="TFLOP/s", tolerance=0.05, aliases=["bf16"])
GPU_MEMORY = Quantity(measures="GPU memory", value=80, unit="GB", tolerance=0.05, aliases=["hbm"])


def test_a_share_or_total_over_a_count_of_gpus_is_not_a_misstatement() -> None:
    assert verdicts("At TP=8 each GPU holds 1/8 of the KV cache, 168 MB.", [SHARD])[-1][1] == "unverified"
    assert verdicts("Over 8 GPUs the KV cache is 168 MB on each.", [SHARD])[-1][1] == "unverified"
    assert verdicts("The KV cache is 168 MB.", [SHARD])[0][1] == "wrong"  # no count: a misstatement
    assert verdicts("The KV cache is 168 MB after 8 steps.", [SHARD])[0][1] == "wrong"  # 8 steps share nothing


def test_an_achieved_rate_below_the_peak_is_not_a_misstatement() -> None:
    assert verdicts("FlashAttention sustains about 550 TFLOP/s in bf16.", [PEAK])[0][1] == "unverified"
    assert verdicts("In bf16 expect ~800 TFLOP/s.", [PEAK])[0][1] == "unverified"  # approximate, within 1.35x
    assert verdicts("The bf16 peak is 550 TFLOP/s.", [PEAK])[0][1] == "wrong"
    assert verdicts("FlashAttention sustains about 300 TFLOP/s in bf16.", [PEAK])[0][1] == "wrong"  # over 2x: wrong
    assert verdicts("In bf16 it sustains 1,500 TFLOP/s.", [PEAK])[0][1] == "wrong"  # above the peak


def test_a_gpus_memory_where_something_fits_is_not_a_misstatement() -> None:
    assert verdicts("Only ZeRO-3 fits in 80 GB here.", [ZERO3])[0][1] == "unverified"
    assert verdicts("ZeRO-3 needs 80 GB here.", [ZERO3])[0][1] == "wrong"  # no "fits in": a misstatement
    assert verdicts("ZeRO-3 needs 35 GB here.", [ZERO3])[0][1] == "wrong"


def test_a_total_of_both_directions_is_also_read_each_way() -> None:
    both = Quantity(measures="NVLink, total of both directions", value=900, unit="GB/s", aliases=["nvlink"])
    assert verdicts("NVLink gives ~420 GB/s one way.", [both])[0][1] == "unverified"
    assert verdicts("NVLink gives ~250 GB/s one way.", [both])[0][1] == "wrong"
    assert verdicts("NVLink gives 420 GB/s.", [both])[0][1] == "wrong"  # not approximate: a misstatement


def test_a_repeat_of_an_excused_figure_is_not_accused() -> None:
    text = "At TP=8 each GPU holds a 168 MB share. The KV cache minus 168 MB leaves room."
    assert [v for _, v, _ in verdicts(text, [SHARD])] == ["unverified", "unverified"]
    text = "The total is 168 MB. The KV cache is 168 MB."  # the first was never judged: no excuse
    assert [v for _, v, _ in verdicts(text, [SHARD])][-1] == "wrong"


def test_a_per_token_figure_is_tied_by_its_own_per_token() -> None:
    kv = Quantity(measures="KV cache per token", value=320, unit="KiB", tolerance=0.1, aliases=["per token"])
    assert verdicts("For this model the KV is about 40 KB per token.", [kv]) == [
        ("40 KB", "wrong", "KV cache per token")
    ]
    assert verdicts("For this model the KV is about 320 KiB per token.", [kv])[0][1] == "correct"


def test_restating_the_prompt_is_never_wrong() -> None:
    from interviewer.grading.offline.quantities import compile_givens

    prompt = "Each GPU has 80 GB and the budget is 20 ms."
    givens = compile_givens(prompt, analyse(prompt, fold(prompt)))
    text = "The weights fit because each GPU has 80 GB."
    folded = fold(text)
    sentences = analyse(text, folded)
    checked = check(extract(text, sentences), compile_references([WEIGHTS]), sentences, folded, givens)
    assert [(c.verdict, c.given) for c in checked] == [("unverified", True)]


def test_a_reference_the_prompt_states_can_confirm_but_not_condemn() -> None:
    from interviewer.grading.offline.quantities import compile_givens

    target = Quantity(measures="target P95 latency", value=20, unit="ms", tolerance=0.05, aliases=["p95", "target"])
    prompt = "The service must meet a P95 of 20 ms."
    givens = compile_givens(prompt, analyse(prompt, fold(prompt)))

    def judged(text: str, with_givens: bool = True) -> list[str]:
        folded = fold(text)
        sentences = analyse(text, folded)
        refs = compile_references([target])
        stated = givens if with_givens else ()
        return [c.verdict for c in check(extract(text, sentences), refs, sentences, folded, stated)]

    estimate = "With batches of 4 the P95 is 9 ms."
    assert judged(estimate) == ["unverified"]
    assert judged(estimate, with_givens=False) == ["wrong"]  # the same figure against an unstated reference
    assert judged("The P95 target is 20 ms, so batches of 4 fit.") == ["correct"]


def test_a_figure_for_another_link_or_precision_is_not_condemned() -> None:
    nvlink = Quantity(
        measures="TP all-reduce time per step over NVLink", value=84, unit="ms", tolerance=0.1, aliases=["per step"]
    )
    assert verdicts("Over InfiniBand the same all-reduces take about 850 ms per step.", [nvlink])[0][1] == "unverified"
    assert verdicts("Over NVLink the same all-reduces take about 850 ms per step.", [nvlink])[0][1] == "wrong"
    weights = Quantity(measures="70B weights in 16-bit", value=140, unit="GB", tolerance=0.05, aliases=["weights"])
    assert verdicts("In FP8 the weights come to about 70 GB.", [weights])[0][1] == "unverified"
    assert verdicts("In BF16 the weights come to about 70 GB.", [weights])[0][1] == "wrong"


def test_a_figure_worked_from_another_premise_is_not_condemned() -> None:
    save = Quantity(
        measures="Checkpoint save time for 1.4 TB at 100 GB", value=14, unit="s", tolerance=0.2, aliases=["save"]
    )
    assert verdicts("The save takes about 56 s.", [save])[0][1] == "wrong"
    # The candidate set the checkpoint's size differently and worked it through: another scenario, not a slip.
    assert verdicts("For a 5.6 TB checkpoint the save takes about 56 s.", [save])[1][1] == "unverified"
    assert verdicts("For a 1.4 TB checkpoint the save takes about 56 s.", [save])[1][1] == "wrong"


def test_a_wide_tolerance_is_a_factor_not_a_band_down_to_zero() -> None:
    image = Quantity(measures="CUDA + PyTorch image size", value=12, unit="GB", tolerance=0.8, aliases=["image"])
    assert verdicts("The image is about 8 GB.", [image])[0][1] == "correct"
    assert verdicts("The image is about 20 GB.", [image])[0][1] == "correct"
    assert verdicts("The image is about 1.5 GB.", [image])[0][1] == "wrong"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("NVLink on H100 is 900 GB/s per direction.", "wrong"),  # 900 is both directions together
        ("NVLink on H100 is 450 GB/s per direction.", "correct"),
        ("H100 NVLink is 900 GB/s.", "correct"),
        ("H100 NVLink gives 900 GB/s in both directions.", "correct"),
        ("NVLink on H100 runs at 900 TB/s.", "wrong"),  # a unit-prefix slip, a thousand times too fast
        ("H100 HBM bandwidth is 3.35 GB/s.", "wrong"),
        ("H100 has 80 TB of HBM.", "unverified"),  # only rates: a thousand times a size is too often another size
    ],
)
def test_a_per_direction_figure_is_judged_against_the_per_direction_fact(text: str, verdict: str) -> None:
    from interviewer.grading.offline.compiled import facts

    folded = fold(text)
    sentences = analyse(text, folded)
    checked = check(extract(text, sentences), [], sentences, folded, (), facts())
    assert [c.verdict for c in checked] == [verdict]

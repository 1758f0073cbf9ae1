"""Content checks for the flagship NVIDIA inference case (cases/nvidia-inference.yaml)."""

from __future__ import annotations

import math

import pytest

from interviewer.content.loader import load_rubric
from interviewer.content.schema import DIMENSIONS, Case, Question
from interviewer.paths import builtin_rubrics_dir
from tests.content_checks import assert_not_copied, builtin_case

CASE_ID = "nvidia-inference"
SEED_PREFIX = "003_"

SCORER_UNITS = {
    "ms",
    "us",
    "s",
    "GB",
    "GiB",
    "MB",
    "MiB",
    "TB",
    "GB/s",
    "Gb/s",
    "TB/s",
    "tokens/s",
    "inferences/s",
    "req/s",
    "TFLOP/s",
    "%",
    "x",
    "W",
    "GHz",
}

# Focus areas of the case, each with keywords that must all appear in some question prompt.
FOCUS_AREAS: dict[str, list[str]] = {
    "optimization path": [
        "FP16",
        "INT8",
        "post-training quantization",
        "calibrat",
        "TensorRT engine",
        "optimization profile",
        "dynamic shapes",
        "tactic",
        "auto-tuning",
        "CUDA Graph",
        "batch",
        "stream",
    ],
    "GPU fundamentals": [
        "memory hierarchy",
        "warp",
        "occupancy",
        "divergence",
        "kernel fusion",
        "DALI",
        "memory-bound",
    ],
    "tooling": [
        "TensorRT",
        "Triton",
        "cuDNN",
        "cuBLAS",
        "DALI",
        "CV-CUDA",
        "NCCL",
        "Nsight Systems",
        "Nsight Compute",
        "DCGM",
        "nvidia-smi",
    ],
    "deployment design": [
        "model repository",
        "config.pbtxt",
        "instance group",
        "dynamic batching",
        "pinned memory",
        "health",
        "metrics",
        "warmup",
        "MIG",
        "MPS",
    ],
    "quality and reliability": ["FP32", "parity", "mAP", "determinism", "roll back"],
    "systems thinking": ["replicas", "sharding", "PCIe", "NVLink", "H100", "A100"],
}

# Vendor figures: a quantity whose `measures` names the spec must carry this value.
SPECS: dict[str, tuple[float, str]] = {
    "a100 80gb hbm2e bandwidth": (2.0, "TB/s"),
    "a100 40gb hbm2 bandwidth": (1.555, "TB/s"),
    "a100 dense fp16 tensor throughput": (312, "TFLOP/s"),
    "a100 plain fp32": (19.5, "TFLOP/s"),
    "a100 l2 cache size": (40, "MB"),
    "a100 80gb card memory capacity": (80, "GB"),
    "a100 40gb card memory capacity": (40, "GB"),
    "h100 sxm hbm3 bandwidth": (3.35, "TB/s"),
    "h100 sxm dense fp16": (989, "TFLOP/s"),
    "nvlink 3": (600, "GB/s"),
    "nvlink 4": (900, "GB/s"),
    "pcie gen4 x16 bandwidth per direction": (32, "GB/s"),
    "pcie gen5 x16 bandwidth per direction": (64, "GB/s"),
    "kernel launch overhead": (7.5, "us"),
    "a100 80gb mig 1g slice": (10, "GB"),
    "a100 40gb mig 1g slice": (5, "GB"),
}


@pytest.fixture(scope="module")
def case() -> Case:
    return builtin_case(CASE_ID)


def _prompts(case: Case) -> str:
    return "\n".join(q.prompt for q in case.questions()).lower()


def _all_quantities(case: Case):
    return [(q.id, qty) for q in case.questions() for qty in q.quantities]


def _questions() -> list[Question]:
    return builtin_case(CASE_ID).questions()


def test_case_loads_with_its_rubric(case: Case) -> None:
    assert case.id == CASE_ID
    assert case.kind == "case"
    assert case.rubric == "ai-infra"
    rubric = load_rubric(builtin_rubrics_dir() / "ai-infra.yaml")
    assert rubric.id == case.rubric
    assert set(rubric.dimensions) == set(DIMENSIONS)


def test_phases_follow_the_seed(case: Case) -> None:
    assert [(p.id, p.minutes) for p in case.phases] == [("clarify", 10), ("deep-dive", 35), ("stress", 15)]
    assert case.minutes == 60
    assert "measurement" in case.phases[0].title.lower()
    for phase in case.phases:
        assert len(phase.brief) >= 80, f"phase {phase.id} needs a real brief"


def test_question_count(case: Case) -> None:
    counts = [len(p.questions) for p in case.phases]
    assert 12 <= sum(counts) <= 16, counts
    assert all(c >= 2 for c in counts), counts


@pytest.mark.parametrize("question", _questions(), ids=lambda q: q.id)
def test_question_is_complete(question: Question) -> None:
    dims = {f.dimension for f in question.follow_ups}
    assert len(question.follow_ups) >= 2, "needs at least two follow-ups"
    assert len(dims) >= 2, f"follow-ups cover only {dims}"
    for dim in DIMENSIONS:
        points = question.key_points.get(dim, [])
        assert 2 <= len(points) <= 4, f"{dim}: {len(points)} key points"
        for kp in points:
            assert 2 <= len(kp.aliases) <= 5, f"{dim}: {kp.text!r} has {len(kp.aliases)} aliases"
            long = [a for a in kp.aliases if len(a.split()) > 4]
            assert not long, f"aliases should be short phrases: {long}"
    assert 4 <= len(question.outline) <= 8, f"outline has {len(question.outline)} items"
    assert 1 <= len(question.misconceptions) <= 3
    for m in question.misconceptions:
        assert len(m.aliases) >= 2 and m.correction


@pytest.mark.parametrize("question", _questions(), ids=lambda q: q.id)
def test_misconception_aliases_do_not_fire_on_the_model_answer(question: Question) -> None:
    """A misconception phrase must not appear in the question's own key points or outline."""
    right = " ".join(
        [*question.outline, *(kp.text for _, kp in question.all_key_points())]
        + [a for _, kp in question.all_key_points() for a in kp.aliases]
    ).lower()
    for m in question.misconceptions:
        for alias in m.aliases:
            assert alias.lower() not in right, f"{alias!r} also appears in a correct answer"


def test_quantities_use_scorer_units(case: Case) -> None:
    bad = [(qid, qty.unit) for qid, qty in _all_quantities(case) if qty.unit not in SCORER_UNITS]
    assert not bad, bad
    missing_aliases = [(qid, qty.measures) for qid, qty in _all_quantities(case) if not qty.aliases]
    assert not missing_aliases, missing_aliases


@pytest.mark.parametrize(
    ("value", "unit"),
    [(20, "ms"), (2000, "inferences/s"), (0.5, "%"), (60, "ms"), (250, "inferences/s"), (4, "ms")],
)
def test_scenario_quantities_present(case: Case, value: float, unit: str) -> None:
    assert any(math.isclose(qty.value, value) and qty.unit == unit for _, qty in _all_quantities(case)), (
        f"no question carries the quantity {value} {unit}"
    )


def test_spec_figures_match_vendor_specs(case: Case) -> None:
    checked = 0
    for qid, qty in _all_quantities(case):
        measures = qty.measures.lower()
        for key, (value, unit) in SPECS.items():
            if key in measures:
                checked += 1
                assert qty.unit == unit and math.isclose(qty.value, value), (
                    f"{qid}: {qty.measures} = {qty.value} {qty.unit}, spec says {value} {unit}"
                )
    assert checked >= len(SPECS), "every spec figure should be used by some question"


def test_throughput_arithmetic(case: Case) -> None:
    by_measure = {qty.measures.lower(): qty for _, qty in _all_quantities(case)}
    node = next(q for m, q in by_measure.items() if "throughput per node" in m)
    per_gpu = next(q for m, q in by_measure.items() if m.startswith("throughput per gpu"))
    gpu_time = next(q for m, q in by_measure.items() if m.startswith("average gpu time per inference"))
    assert math.isclose(node.value / 8, per_gpu.value)
    assert math.isclose(1000 / per_gpu.value, gpu_time.value)


@pytest.mark.parametrize("area", list(FOCUS_AREAS))
def test_focus_area_covered(case: Case, area: str) -> None:
    prompts = _prompts(case)
    missing = [kw for kw in FOCUS_AREAS[area] if kw.lower() not in prompts]
    assert not missing, f"{area}: no prompt mentions {missing}"


def test_stress_phase_asks_the_seed_stress_questions(case: Case) -> None:
    stress = next(p for p in case.phases if p.id == "stress")
    prompts = [q.prompt.lower() for q in stress.questions]
    wanted = {
        "int8 accuracy": ["int8", "accuracy"],
        "batch and concurrency for p95": ["batch", "concurrency", "p95"],
        "dynamic shapes in tensorrt": ["dynamic shapes", "tensorrt"],
        "mig vs mps": ["mig", "mps"],
        "memory-bound op": ["memory-bound", "coalescing", "shared-memory tiling", "accumulate"],
    }
    for name, words in wanted.items():
        assert any(all(w in p for w in words) for p in prompts), f"stress phase lacks: {name}"


def test_deliverables_are_listed_and_asked(case: Case) -> None:
    deliverables = " ".join(case.deliverables).lower()
    assert len(case.deliverables) == 3
    for word in ("optimization plan", "config.pbtxt", "profiling experiments"):
        assert word in deliverables, f"deliverables lack {word!r}"
    ids = {q.id for q in case.questions()}
    assert {"optimization-plan", "triton-config", "profiling-experiments"} <= ids
    assert "config.pbtxt" in case.question("triton-config").prompt
    assert "profiling experiments" in case.question("profiling-experiments").prompt
    assert "optimization plan" in case.question("optimization-plan").prompt


def test_not_copied_from_seed(case: Case) -> None:
    assert_not_copied(case, SEED_PREFIX)

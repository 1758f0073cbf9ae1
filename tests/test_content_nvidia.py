"""Content checks for the flagship NVIDIA inference case (cases/nvidia-inference.yaml)."""

from __future__ import annotations

import math

import pytest

from interviewer.content.schema import Case
from tests import content_checks as checks

CASE_ID = "nvidia-inference"

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

# Vendor figures (from the shared table) that the case must state, and the one figure of its own.
SPECS = [
    "A100 80GB HBM2e bandwidth",
    "A100 40GB HBM2 bandwidth",
    "A100 dense BF16/FP16",
    "A100 FP32",
    "A100 L2 cache",
    "A100 80GB capacity",
    "A100 40GB capacity",
    "H100 SXM HBM3 bandwidth",
    "H100 SXM dense BF16/FP16",
    "NVLink 3 per A100, total",
    "NVLink 4 per H100, both directions",
    "PCIe Gen4 x16 per direction",
    "PCIe Gen5 x16 per direction",
    "MIG 1g slice on an 80 GB part",
    "MIG 1g slice on an A100 40GB",
]
OWN_FIGURES = {"kernel launch overhead": checks.Spec(r"kernel launch overhead", 7.5, "us")}


@pytest.fixture(scope="module")
def case() -> Case:
    return checks.builtin_case(CASE_ID)


def _prompts(case: Case) -> str:
    return "\n".join(q.prompt for q in case.questions()).lower()


def _all_quantities(case: Case):
    return [(q.id, qty) for q in case.questions() for qty in q.quantities]


def test_case_header(case: Case) -> None:
    assert (case.id, case.kind, case.rubric) == (CASE_ID, "case", "ai-infra")


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


def test_questions_meet_the_case_bounds(case: Case) -> None:
    checks.assert_bank_bounds(case, key_points=(2, 4), outline=(4, 8), alias_words=6, misconception_aliases=2)


@pytest.mark.parametrize(
    ("value", "unit"),
    [(20, "ms"), (2000, "inferences/s"), (0.5, "%"), (60, "ms"), (250, "inferences/s"), (4, "ms")],
)
def test_scenario_quantities_present(case: Case, value: float, unit: str) -> None:
    assert any(math.isclose(qty.value, value) and qty.unit == unit for _, qty in _all_quantities(case)), (
        f"no question carries the quantity {value} {unit}"
    )


def test_spec_figures_match_vendor_specs(case: Case) -> None:
    checks.assert_spec_figures(case, SPECS, OWN_FIGURES)


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


# The copy check against the seed (no sentence reaching a similarity of 80) runs in benchmarks/check_seeds.py,
# where the seeds are; the tests never read outside the repository.

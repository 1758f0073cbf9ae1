"""Content checks for the ``ai-infra-foundations`` question bank (seed 001)."""

from __future__ import annotations

import re

import pytest

from interviewer.content.loader import load_rubric
from interviewer.content.schema import DIMENSIONS, Case
from interviewer.paths import builtin_rubrics_dir
from tests.content_checks import assert_not_copied, builtin_case, seed_text

CASE_ID = "ai-infra-foundations"
SEED = "001_"
SEED_QUESTIONS = 20

# A seed question card starts a line with its two-digit number glued to the question, e.g. "07When should ...?".
_SEED_HEADING = re.compile(r"^(\d{2})([A-Z][^\n]*\?)[ \t]*$", re.MULTILINE)

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

SCORER_UNITS = {
    "ms",
    "us",
    "ns",
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
    "bytes",
    "TFLOP/s",
    "%",
    "x",
    "W",
    "GHz",
}

# Llama-3-70B: 80 layers, 8 KV heads (grouped-query attention; 64 query heads), head_dim 128, FP16 = 2 bytes.
KV_BYTES_PER_TOKEN_GQA = 2 * 80 * 8 * 128 * 2  # 327,680 bytes = 320 KiB
KV_BYTES_PER_TOKEN_MHA = 2 * 80 * 64 * 128 * 2  # 2.5 MiB: the figure that ignores GQA
_BYTES = {"MB": 1e6, "GB": 1e9, "TB": 1e12, "MiB": 2**20, "GiB": 2**30}

# Vendor figures that any quantity measuring them must match (measures substring -> (value, unit)).
SPECS: dict[str, tuple[float, str]] = {
    "h100 sxm hbm3 bandwidth": (3.35, "TB/s"),
    "h100 sxm hbm3 capacity": (80, "GB"),
    "h100 sxm dense bf16": (989, "TFLOP/s"),
    "h100 sxm dense tf32": (494.7, "TFLOP/s"),
    "nvlink 4 total bandwidth per h100": (900, "GB/s"),
    "ndr infiniband port in bytes/s": (50, "GB/s"),
    "one ndr infiniband port": (400, "Gb/s"),
    "pcie gen5 x16": (63, "GB/s"),
}


@pytest.fixture(scope="module")
def case() -> Case:
    return builtin_case(CASE_ID)


def seed_headings() -> list[tuple[int, str]]:
    return [(int(num), text) for num, text in _SEED_HEADING.findall(seed_text(SEED))]


def test_bank_loads_with_known_rubric(case: Case) -> None:
    assert case.id == CASE_ID
    assert case.kind == "bank"
    assert case.rubric == "ai-infra"
    rubric = load_rubric(builtin_rubrics_dir() / "ai-infra.yaml")
    assert rubric.id == case.rubric


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
    for phase in case.phases:
        per_question = phase.minutes / len(phase.questions)
        assert 5 <= per_question <= 8, f"{phase.id}: {per_question:.1f} min per question"


def test_every_question_is_complete(case: Case) -> None:
    problems = []
    for q in case.questions():
        dims = {f.dimension for f in q.follow_ups}
        if len(q.follow_ups) < 2 or len(dims) < 2:
            problems.append(f"{q.id}: needs 2+ follow-ups on 2+ dimensions, has {sorted(dims)}")
        for dim in DIMENSIONS:
            points = q.key_points.get(dim, [])
            if not 2 <= len(points) <= 4:
                problems.append(f"{q.id}: {dim} has {len(points)} key points")
            for kp in points:
                if not 2 <= len(kp.aliases) <= 5:
                    problems.append(f"{q.id}: {dim} point {kp.text!r} has {len(kp.aliases)} aliases")
        if not 1 <= len(q.misconceptions) <= 3:
            problems.append(f"{q.id}: {len(q.misconceptions)} misconceptions")
        for m in q.misconceptions:
            if not m.aliases or not m.correction:
                problems.append(f"{q.id}: misconception {m.text!r} lacks aliases or correction")
        if not 4 <= len(q.outline) <= 8:
            problems.append(f"{q.id}: outline has {len(q.outline)} items")
        for qty in q.quantities:
            if qty.unit not in SCORER_UNITS:
                problems.append(f"{q.id}: unit {qty.unit!r} is not one the scorer understands")
    assert not problems, "\n".join(problems)


def test_aliases_are_short_phrases(case: Case) -> None:
    long = [
        (q.id, alias)
        for q in case.questions()
        for _, kp in q.all_key_points()
        for alias in kp.aliases
        if len(alias.split()) > 4
    ]
    assert not long, f"key-point aliases over 4 words: {long}"


def _phrase_in(phrase: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(phrase.lower()) + r"(?!\w)", text.lower()) is not None


def test_misconception_aliases_are_not_in_the_model_answer(case: Case) -> None:
    """A misconception phrase that the model answer itself uses would penalise a correct answer."""
    clashes = []
    for q in case.questions():
        answer = "\n".join(
            [
                q.prompt,
                *q.outline,
                *(kp.text for _, kp in q.all_key_points()),
                *(a for _, kp in q.all_key_points() for a in kp.aliases),
            ]
        )
        clashes += [(q.id, a) for m in q.misconceptions for a in m.aliases if _phrase_in(a, answer)]
    assert not clashes, f"misconception aliases found in the model answer: {clashes}"


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
    checked = 0
    for q in case.questions():
        for qty in q.quantities:
            for key, (value, unit) in SPECS.items():
                if key in qty.measures.lower():
                    checked += 1
                    assert qty.unit == unit, f"{q.id}: {qty.measures} in {qty.unit}, expected {unit}"
                    assert qty.value == pytest.approx(value, rel=0.03), f"{q.id}: {qty.measures} = {qty.value}"
    assert checked >= len(SPECS), f"only {checked} spec figures found"


def test_training_memory_uses_16_bytes_per_param(case: Case) -> None:
    q = case.question("oom-incident")
    assert q is not None
    adam = [qty for qty in q.quantities if "adam" in qty.measures.lower()]
    per_param = [qty for qty in adam if qty.unit == "bytes" and "per parameter" in qty.measures]
    total_7b = [qty for qty in adam if qty.unit == "GB" and "7B" in qty.measures]
    assert per_param and total_7b, "expected the per-parameter and the 7B mixed-precision Adam figures"
    assert per_param[0].value == pytest.approx(2 + 2 + 4 + 8)
    assert total_7b[0].value == pytest.approx(7e9 * (2 + 2 + 4 + 8) / 1e9, rel=0.02)


def test_no_sentence_copied_from_seed(case: Case) -> None:
    assert_not_copied(case, SEED)


def test_offline_scorer_accepts_the_model_answers(case: Case) -> None:
    """Each outline, read as an answer, states no misconception and no figure the scorer calls wrong."""
    text_mod = pytest.importorskip("interviewer.scoring.text")
    quantities_mod = pytest.importorskip("interviewer.scoring.quantities")
    gaming_mod = pytest.importorskip("interviewer.scoring.gaming")
    needed = [
        (text_mod, "analyse"),
        (text_mod, "fold"),
        (quantities_mod, "extract"),
        (quantities_mod, "compile_references"),
        (quantities_mod, "check"),
        (gaming_mod, "MisconceptionFinder"),
    ]
    if not all(hasattr(mod, name) for mod, name in needed):
        pytest.skip("offline scorer API not available")
    problems = []
    for q in case.questions():
        answer = "\n".join(q.outline)
        folded = text_mod.fold(answer)
        sentences = text_mod.analyse(answer, folded)
        refs = quantities_mod.compile_references(q.quantities)
        for c in quantities_mod.check(quantities_mod.extract(answer, sentences), refs, sentences, folded):
            if c.verdict == "wrong":
                claim = answer[c.figure.start : c.figure.end]
                problems.append(f"{q.id}: {claim!r} judged wrong against {c.reference.label}")
        for hit in gaming_mod.MisconceptionFinder(q.misconceptions).find(sentences, answer, folded):
            problems.append(f"{q.id}: outline states misconception {hit.misconception.text!r}")
    assert not problems, "\n".join(problems)

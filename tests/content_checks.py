"""Shared checks for shipped content: load a built-in case, the copy check used against the seeds,
the shape every question must have (and a bank's stricter bounds), and one table of vendor figures.

The seeds are authoring material kept outside the repository (beside the clone), so the tests never
read them: what they need (question counts, each seed question's topic) is recorded in
``tests/fixtures/seed_facts.yaml``.  ``benchmarks/check_seeds.py`` re-extracts those facts from the
seeds and runs the copy check against them where the seeds are present.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz import fuzz, process

from interviewer.content.loader import load_case
from interviewer.content.schema import DIMENSIONS, Case, Quantity, Question
from interviewer.grading.offline.quantities import parse_unit
from interviewer.grading.offline.units import DIMENSION_NAMES
from interviewer.paths import builtin_cases_dir

SEED_FACTS_FILE = Path(__file__).resolve().parent / "fixtures" / "seed_facts.yaml"
SEEDED_CASES = ("gpu-foundations", "ai-infra-foundations", "infra-design", "nvidia-inference", "systems-map")
"""The built-in cases written from a seed (000_ to 004_, in this order)."""
COPY_THRESHOLD = 80.0
"""A sentence whose fuzz.ratio with any seed sentence reaches this is treated as copied."""
MIN_SENTENCE_CHARS = 40
"""Shorter fragments (titles, product names) are allowed to coincide."""

_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+|(?<=:)\s+(?=[A-Z])|\s+[-•]\s+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SPLIT.split(text) if len(s.strip()) >= MIN_SENTENCE_CHARS]


def seed_facts(case_id: str) -> dict[str, Any]:
    """What the tests know about the seed behind ``case_id`` (see ``benchmarks/check_seeds.py``)."""
    facts: dict[str, Any] = yaml.safe_load(SEED_FACTS_FILE.read_text(encoding="utf-8"))[case_id]
    return facts


def builtin_case(case_id: str) -> Case:
    return load_case(builtin_cases_dir() / f"{case_id}.yaml")


def case_texts(case: Case) -> list[str]:
    """Every prompt, key point heading, outline item, follow-up and misconception of a case."""
    texts = [case.scenario, *case.deliverables]
    for phase in case.phases:
        texts.append(phase.brief)
        for q in phase.questions:
            texts.append(q.prompt)
            texts.extend(kp.text for _, kp in q.all_key_points())
            texts.extend(q.outline)
            texts.extend(f.prompt for f in q.follow_ups)
            texts.extend(m.text for m in q.misconceptions)
            texts.extend(m.correction for m in q.misconceptions)
    return [t for t in texts if t]


def copied_sentences(texts: list[str], seed: str, threshold: float = COPY_THRESHOLD) -> list[tuple[str, str, float]]:
    """(our sentence, seed sentence, similarity) for every sentence at or above ``threshold``."""
    ours = [s for t in texts for s in sentences(t)]
    theirs = sentences(seed)
    if not ours or not theirs:
        return []
    hits = []
    for sentence in ours:
        best = process.extractOne(sentence, theirs, scorer=fuzz.ratio, processor=str.lower, score_cutoff=threshold)
        if best is not None:
            hits.append((sentence, best[0], float(best[1])))
    return hits


def copy_check_catches_a_planted_sentence(case: Case, seed: str) -> bool:
    """Guard the guard: one long sentence of ``seed`` pasted into the case's texts must be flagged."""
    planted = next(s for s in sentences(seed) if len(s) > 60)
    return any(ours == planted for ours, _, _ in copied_sentences([*case_texts(case), planted], seed))


# --------------------------------------------------------------------------- units the scorer understands


def scorer_dimension(unit: str) -> str | None:
    """The scorer's dimension for a reference unit ('GB/s' -> 'B/s'), or None if the scorer does not know it.

    ``parse_unit`` is how the scorer reads a ``Quantity.unit`` (it looks the unit up
    in ``interviewer.grading.offline.units``, with '/s' read as a rate); anything it does not
    know becomes a bare count noun, which no candidate's '3.35 TB/s' could ever match.
    """
    dimension, _ = parse_unit(unit)
    return dimension if dimension in DIMENSION_NAMES else None


# --------------------------------------------------------------------------- question shape


def _outside(label: str, n: int, lo: int, hi: int | None) -> list[str]:
    if n < lo or (hi is not None and n > hi):
        return [f"{label}: {n}, want {lo}..{hi if hi is not None else ''}"]
    return []


def common_problems(q: Question) -> list[str]:
    """What every built-in question must have, whatever its bank."""
    problems = []
    dims = {f.dimension for f in q.follow_ups}
    if len(q.follow_ups) < 2 or len(dims) < 2:
        problems.append(f"needs 2+ follow-ups on 2+ dimensions, has {len(q.follow_ups)} on {sorted(dims)}")
    for dim in DIMENSIONS:
        points = q.key_points.get(dim, [])
        problems += _outside(f"{dim} key points", len(points), 2, None)
        for kp in points:
            # Jargon and product names first, then two to four plain-word wordings of the point ("driver stays
            # on the machine"), so that an answer in everyday words can earn it too.
            problems += _outside(f"{dim} point {kp.text[:40]!r} aliases", len(kp.aliases), 2, 9)
    blank = [a for _, kp in q.all_key_points() for a in kp.aliases] + [a for m in q.misconceptions for a in m.aliases]
    if not all(a.strip() for a in blank):
        problems.append("a key-point or misconception alias is blank")
    # The common wrong beliefs about a question: at least one, and few enough that each is a belief people hold.
    problems += _outside("misconceptions", len(q.misconceptions), 1, 10)
    for m in q.misconceptions:
        if not m.aliases or not m.correction.strip():
            problems.append(f"misconception {m.text[:40]!r} lacks aliases or a correction")
    problems += _outside("outline items", len(q.outline), 4, None)
    for x in q.quantities:
        if scorer_dimension(x.unit) is None:
            problems.append(f"{x.measures!r}: unit {x.unit!r} is not one the scorer understands")
        if not x.aliases:
            problems.append(f"{x.measures!r} has no aliases")
        if x.value <= 0 or not 0 < x.tolerance <= 1:
            problems.append(f"{x.measures!r} has value {x.value} and tolerance {x.tolerance}")
    return problems


def misconception_clashes(q: Question) -> list[tuple[str, str]]:
    """(alias, text) where a misconception alias appears inside the prompt or the model answer.

    Such an alias would penalise a correct answer (or one that repeats the prompt).
    """
    right = [q.prompt, *q.outline, *(kp.text for _, kp in q.all_key_points())]
    right += [a for _, kp in q.all_key_points() for a in kp.aliases]
    return [(a, t) for m in q.misconceptions for a in m.aliases for t in right if a.lower() in t.lower()]


def bank_bound_problems(
    case: Case,
    *,
    key_points: tuple[int, int],
    outline: tuple[int, int],
    alias_words: int | None = None,
    misconception_aliases: int = 1,
    misconception_alias_words: int | None = None,
    quantities: int = 0,
    max_tolerance: float = 1.0,
) -> list[str]:
    """A bank's own, stricter bounds on top of ``common_problems`` (each question's problems, prefixed by its id)."""
    problems = []
    for q in case.questions():
        found = []
        for dim in DIMENSIONS:
            found += _outside(f"{dim} key points", len(q.key_points.get(dim, [])), *key_points)
        found += _outside("outline items", len(q.outline), *outline)
        found += _outside("quantities", len(q.quantities), quantities, None)
        long = [a for _, kp in q.all_key_points() for a in kp.aliases if alias_words and len(a.split()) > alias_words]
        long += [
            a
            for m in q.misconceptions
            for a in m.aliases
            if misconception_alias_words and len(a.split()) > misconception_alias_words
        ]
        if long:
            found.append(f"aliases too long: {long}")
        for m in q.misconceptions:
            found += _outside(f"misconception {m.text[:40]!r} aliases", len(m.aliases), misconception_aliases, None)
        found += [f"{x.measures!r}: tolerance {x.tolerance}" for x in q.quantities if x.tolerance > max_tolerance]
        problems += [f"{q.id}: {p}" for p in found]
    return problems


def minutes_per_question_problems(case: Case, lo: float, hi: float) -> list[str]:
    return [
        f"{p.id}: {p.minutes / len(p.questions):.1f} minutes per question, want {lo}..{hi}"
        for p in case.phases
        if not lo <= p.minutes / len(p.questions) <= hi
    ]


# --------------------------------------------------------------------------- vendor figures


@dataclass(frozen=True)
class Spec:
    """A datasheet figure.  A quantity whose ``measures`` matches ``pattern`` (case-insensitive) and whose
    unit has the same scorer dimension as ``unit`` is stating this figure, and must carry it exactly."""

    pattern: str
    value: float
    unit: str
    rel: float = 1e-9


VENDOR_SPECS: dict[str, Spec] = {
    "H100 SXM HBM3 bandwidth": Spec(r"h100 sxm hbm3? bandwidth", 3.35, "TB/s"),
    "H100 SXM HBM3 capacity": Spec(r"h100 sxm hbm3? capacity", 80, "GB"),
    "H100 SXM dense BF16/FP16": Spec(r"h100 sxm dense (bf|fp)16", 989, "TFLOP/s"),
    "H100 SXM dense TF32": Spec(r"h100 sxm dense tf32", 494.7, "TFLOP/s", rel=0.001),
    "H100 SXM dense FP8": Spec(r"h100 sxm dense fp8", 1979, "TFLOP/s"),
    "H100 SXM FP32": Spec(r"h100 sxm fp32", 67, "TFLOP/s"),
    "H100 SXM L2 cache": Spec(r"h100 sxm l2 cache", 50, "MB"),
    "H100 shared memory per SM": Spec(r"h100 shared memory per sm", 228, "KB"),
    "A100 80GB HBM2e bandwidth": Spec(r"a100 80 ?gb hbm2e bandwidth", 2.0, "TB/s"),
    "A100 40GB HBM2 bandwidth": Spec(r"a100 40 ?gb hbm2 bandwidth", 1.555, "TB/s"),
    "A100 dense BF16/FP16": Spec(r"a100 dense (bf|fp)16", 312, "TFLOP/s"),
    "A100 FP32": Spec(r"a100 (plain )?fp32", 19.5, "TFLOP/s"),
    "A100 L2 cache": Spec(r"a100 l2 cache", 40, "MB"),
    "A100 shared memory per SM": Spec(r"a100 shared memory per sm", 164, "KB"),
    "A100 80GB capacity": Spec(r"a100 80 ?gb (card )?memory capacity", 80, "GB"),
    "A100 40GB capacity": Spec(r"a100 40 ?gb (card )?memory capacity", 40, "GB"),
    "MIG 1g slice on an 80 GB part": Spec(r"80 ?gb mig 1g|1g\.10gb", 10, "GB"),
    "MIG 1g slice on an A100 40GB": Spec(r"40 ?gb mig 1g", 5, "GB"),
    "NVLink 3 per A100, total": Spec(r"nvlink 3 total", 600, "GB/s"),
    "NVLink 4 per H100, both directions": Spec(r"nvlink 4\b.*(total|both directions)", 900, "GB/s"),
    "NVLink 4 per H100, one direction": Spec(r"nvlink 4\b.*one direction", 450, "GB/s"),
    "PCIe Gen4 x16 per direction": Spec(r"pcie gen4 x16 bandwidth per direction", 32, "GB/s"),
    "PCIe Gen5 x16 per direction": Spec(r"pcie gen5 x16 (bandwidth )?per direction", 64, "GB/s"),
    "NDR InfiniBand port, bits": Spec(r"\bndr\b(?!.*\bbytes?\b).*\b(port|link)\b", 400, "Gb/s"),
    "NDR InfiniBand port, bytes": Spec(r"\bndr\b.*\b(port|link)\b.*\bbytes?\b", 50, "GB/s"),
}
"""One table of datasheet figures for every bank; a bank names the ones it must use."""


def spec_matches(case: Case, spec: Spec) -> list[tuple[str, Quantity]]:
    pattern = re.compile(spec.pattern, re.IGNORECASE)
    dimension = scorer_dimension(spec.unit)
    return [
        (q.id, x)
        for q in case.questions()
        for x in q.quantities
        if pattern.search(x.measures) and scorer_dimension(x.unit) == dimension
    ]


def spec_problems(case: Case, specs: Mapping[str, Spec]) -> list[str]:
    """Every quantity stating one of ``specs`` with another figure."""
    return [
        f"{qid}: {x.measures!r} = {x.value:g} {x.unit}, {name} is {spec.value:g} {spec.unit}"
        for name, spec in specs.items()
        for qid, x in spec_matches(case, spec)
        if x.unit != spec.unit or not math.isclose(x.value, spec.value, rel_tol=spec.rel)
    ]


def assert_spec_figures(case: Case, names: list[str], extra: Mapping[str, Spec] | None = None) -> None:
    """The named ``VENDOR_SPECS`` (and the bank's ``extra`` figures) are each used, and used correctly."""
    specs = {name: VENDOR_SPECS[name] for name in names} | dict(extra or {})
    unused = [name for name, spec in specs.items() if not spec_matches(case, spec)]
    assert not unused, f"no quantity states {unused}"
    problems = spec_problems(case, specs)
    assert not problems, "\n".join(problems)


def assert_bank_bounds(case: Case, **bounds) -> None:
    """``bank_bound_problems`` as an assertion; see it for the bounds."""
    problems = bank_bound_problems(case, **bounds)
    assert not problems, "\n".join(problems)


def assert_minutes_per_question(case: Case, lo: float, hi: float) -> None:
    problems = minutes_per_question_problems(case, lo, hi)
    assert not problems, "\n".join(problems)

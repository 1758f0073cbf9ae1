"""Benchmark the offline keyword scorer.  A script, not a test: ``.venv/bin/python benchmarks/bench_scorer.py``.

Prints, for the 30-key-point question of the scorer's dev set:

* p50/p95 time to grade one answer of about 250 words (target p50 <= 5 ms, p95 <= 20 ms);
* time to re-score 1,000 different answers on one core (target <= 5 s);
* warm start: importing the scorer and grading the first answer in a fresh
  subprocess, median of several runs after one unmeasured run (target <= 300 ms);
* the dev set's Spearman rank correlation, so a speed-up that breaks grading shows at once.

Answers are built by recombining sentences of the dev set's answers to the
question (fixed seed), so every one is different text of realistic length.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.content.loader import load_case, load_rubric  # noqa: E402
from interviewer.grading.offline.evaluation import grade_all, load_labelled, rank_agreement  # noqa: E402
from interviewer.grading.offline.grader import KeywordGrader  # noqa: E402
from interviewer.grading.offline.text import analyse, fold  # noqa: E402
from interviewer.grading.types import GradeRequest  # noqa: E402

CASE_PATH = ROOT / "tests" / "fixtures" / "scoring" / "case.yaml"
ANSWERS_PATH = ROOT / "tests" / "fixtures" / "scoring" / "answers.yaml"
RUBRIC_PATH = ROOT / "rubrics" / "ai-infra.yaml"
QUESTION = "kv-cache-sizing"
TARGET_WORDS = 250

_WARM_START = """
import sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from interviewer.content.loader import load_case, load_rubric
case = load_case(Path({case!r}))
rubric = load_rubric(Path({rubric!r}))
question = case.question({question!r})
t0 = time.perf_counter()
from interviewer.grading.types import GradeRequest
from interviewer.grading.offline.grader import KeywordGrader
KeywordGrader().grade(GradeRequest(case=case, rubric=rubric, question=question, answer={answer!r}))
print(time.perf_counter() - t0)
"""


def make_answers(pool: list[str], count: int, seed: int = 7) -> list[str]:
    """``count`` answers of about TARGET_WORDS words, each a fresh shuffle of real sentences."""
    sentences = []
    for text in pool:
        sentences.extend(text[a.start : a.end] for a in analyse(text, fold(text)) if a.words >= 4)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        picked, words = [], 0
        while words < TARGET_WORDS:
            s = rng.choice(sentences)
            picked.append(s)
            words += len(s.split())
        out.append(" ".join(picked))
    return out


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=1000, help="answers to re-score (default 1000)")
    parser.add_argument("--warm-runs", type=int, default=5, help="fresh subprocesses for warm start (default 5)")
    args = parser.parse_args()

    case = load_case(CASE_PATH)
    rubric = load_rubric(RUBRIC_PATH)
    question = case.question(QUESTION)
    assert question is not None
    labelled = load_labelled(ANSWERS_PATH)
    pool = [a.text for a in labelled if a.question == QUESTION and a.label in ("strong", "partial", "wrong_numbers")]
    answers = make_answers(pool, args.answers)
    grader = KeywordGrader()
    requests = [GradeRequest(case=case, rubric=rubric, question=question, answer=a) for a in answers]

    print(f"question: {QUESTION} ({len(question.all_key_points())} key points, {len(question.quantities)} quantities)")
    print(f"answers: {len(answers)}, mean {statistics.mean(len(a.split()) for a in answers):.0f} words")

    grader.grade(requests[0])  # compile the question once, as a session does
    per_answer = []
    for r in requests[:300]:
        t = time.perf_counter()
        grader.grade(r)
        per_answer.append((time.perf_counter() - t) * 1000)
    p50, p95 = percentile(per_answer, 0.5), percentile(per_answer, 0.95)
    print(f"per answer: p50 {p50:.2f} ms (target <= 5), p95 {p95:.2f} ms (target <= 20)")

    t = time.perf_counter()
    for r in requests:
        grader.grade(r)
    total = time.perf_counter() - t
    print(f"re-score {len(requests)} answers: {total:.2f} s (target <= 5 s for 1,000)")

    script = _WARM_START.format(
        root=str(ROOT), case=str(CASE_PATH), rubric=str(RUBRIC_PATH), question=QUESTION, answer=answers[0]
    )
    runs = []
    for i in range(args.warm_runs + 1):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
        if i:  # the first run warms the OS file cache
            runs.append((float(out.stdout.strip()) * 1000, wall * 1000))
    scorer = statistics.median(r[0] for r in runs)
    process = statistics.median(r[1] for r in runs)
    print(f"warm start (import scorer + first grade): {scorer:.0f} ms (target <= 300); whole process {process:.0f} ms")

    rho = rank_agreement(grade_all(case, rubric, labelled))
    print(f"dev set Spearman (overall vs label, n={len(labelled)}): {rho:.3f}")


if __name__ == "__main__":
    main()

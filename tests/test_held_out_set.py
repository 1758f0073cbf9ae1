"""The held-out labelled sets are well formed: every answer points at a real question, and each covers what it must.

No score floors here on purpose: the set is for measuring the grader
(``benchmarks/bench_grading_quality.py``), and a floor would make it a
tuning target.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interviewer.content.loader import load_library
from interviewer.dimensions import DIMENSIONS
from interviewer.labelled import load_labelled, request_for
from interviewer.paths import builtin_cases_dir, builtin_rubrics_dir
from tests.conftest import FIXTURES

HELD_OUT = sorted((FIXTURES / "held_out").glob("answers_*.yaml"))
KINDS = {
    "excellent", "paraphrase", "partial", "vague", "wrong", "salad", "negated_salad", "number_spam",
    "wrong_numbers", "copied", "injection", "followup_good", "followup_partial", "followup_wrong",
}


MIN_ANSWERS = {"answers_g.yaml": 140}
"""G, written last to measure the work that followed F, is smaller; the others hold at least 200 answers."""


def test_there_are_five_held_out_sets() -> None:
    names = ["answers_d.yaml", "answers_f.yaml", "answers_g.yaml", "answers_i.yaml", "answers_o.yaml"]
    assert [p.name for p in HELD_OUT] == names


@pytest.mark.parametrize("path", HELD_OUT, ids=lambda p: p.name)
def test_the_held_out_set_is_large_broad_and_points_at_real_questions(path: Path) -> None:
    items = load_labelled([path])
    library = load_library([builtin_cases_dir()], [builtin_rubrics_dir()])
    for item in items:
        request = request_for(library, item)  # raises on an unknown case, question or follow-up
        graded = set(request.question.dimensions)
        labelled = {d for d in DIMENSIONS if item.labels.level(d) is not None}
        assert labelled <= graded, (item.case, item.question, item.follow_up)
    assert len(items) >= MIN_ANSWERS.get(path.name, 200)
    assert len({(i.case, i.question) for i in items}) >= 24
    assert {i.case for i in items} == {"nvidia-inference", "gpu-foundations", "ai-infra-foundations",
                                       "systems-map", "infra-design"}
    assert set(Counter(i.kind for i in items)) == KINDS

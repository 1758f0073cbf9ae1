"""Child process for the SIGKILL test: answers questions as fast as it can, reporting each saved answer."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from interviewer.content.loader import load_case, load_rubric
from interviewer.content.schema import DIMENSIONS
from interviewer.grading.types import DimensionScore, Grade
from interviewer.session import Session
from interviewer.transcripts import TranscriptStore

root = Path(__file__).resolve().parents[1]
case = load_case(root / "tests" / "fixtures" / "cases" / "mini.yaml")
rubric = load_rubric(root / "rubrics" / "ai-infra.yaml")
store = TranscriptStore(Path(sys.argv[1]))
stall_after = int(sys.argv[2]) if len(sys.argv) > 2 else None
"""When given, stop after this many answers as if the grader hung, so the kill lands mid-session."""
grade = Grade(grader="keyword", overall=100, dimensions={d: DimensionScore(score=4) for d in DIMENSIONS})
"""Complete, so the session asks no follow-ups and moves straight on."""
n = 0
while True:
    session = Session.start(case, rubric, store)
    print(f"session {session.transcript.id}", flush=True)
    while not session.finished:
        turn = session.current_turn
        assert turn is not None
        answer = f"answer {n} " + "x" * 2000
        session.submit(answer)
        print(f"saved {session.transcript.id} {turn.id} {n}", flush=True)
        n += 1
        if stall_after is not None and n >= stall_after:
            time.sleep(3600)
        session.record_grade(turn.id, grade)

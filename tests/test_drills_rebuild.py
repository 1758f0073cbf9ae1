"""Whatever happens to the transcripts, the drill store kept up to date schedules exactly as one rebuilt from them.

Random histories: sessions saved in order and out of order, several at once
(read through the summary index), copies of one session under another file
name, regrades and deletions.  After each step the incremental queue must
equal the queue of a store rebuilt from nothing.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interviewer.content.schema import DIMENSIONS
from interviewer.drills import STORE_NAME, DrillStore
from interviewer.grading.types import Grade
from interviewer.transcripts import TranscriptStore
from tests.test_drills import DAY, T0, bump_mtime, grade, session_file

QUESTIONS = ["kv-size", "allreduce", "batching"]

grades = st.builds(
    lambda overall, scores: grade(overall, dict(zip(DIMENSIONS, scores, strict=False))),
    st.integers(0, 100),
    st.lists(st.integers(0, 4), min_size=1, max_size=len(DIMENSIONS)),
)
answers = st.dictionaries(st.sampled_from(QUESTIONS), grades, min_size=1, max_size=len(QUESTIONS))
steps = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 40), answers),
    st.tuples(st.just("many"), st.integers(0, 40), st.lists(answers, min_size=8, max_size=10)),
    st.tuples(st.just("copy"), st.integers(0, 30), st.none()),
    st.tuples(st.just("regrade"), st.integers(0, 30), answers),
    st.tuples(st.just("delete"), st.integers(0, 30), st.none()),
)


def rebuilt_items(root: Path, now: object) -> dict[str, object]:
    """The queue of a store rebuilt from nothing, leaving the incremental store as it was."""
    path = root / STORE_NAME
    saved = path.read_bytes() if path.exists() else None  # nothing to keep before the first graded answer
    path.unlink(missing_ok=True)
    drills = DrillStore(root)
    items = drills.queue(now).items  # type: ignore[arg-type]
    assert drills.rebuilt == "missing"
    if saved is not None:
        path.write_bytes(saved)
    return dict(items)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(steps, min_size=1, max_size=7))
def test_incremental_store_equals_a_rebuild(history: list[tuple[str, int, object]]) -> None:
    root = Path(tempfile.mkdtemp(prefix="drills-"))
    try:
        store = TranscriptStore(root)
        names: list[str] = []
        now = T0 + 60 * DAY
        for n, (op, day, data) in enumerate(history):
            if op == "add":
                assert isinstance(data, dict)
                session_file(store, f"s{n:02d}", T0 + day * DAY, data)
                names.append(f"s{n:02d}")
            elif op == "many":
                assert isinstance(data, list)
                for k, answered in enumerate(data):
                    session_file(store, f"s{n:02d}-{k}", T0 + (day + k % 3) * DAY, answered)
                    names.append(f"s{n:02d}-{k}")
                store.summaries()  # the index is up to date, so the drill store reads these from it
            elif names and op == "copy":  # the same session (same id and start) under another file name
                source = root / f"{names[day % len(names)]}.json"
                target = root / f"copy{n:02d}.json"
                shutil.copyfile(source, target)
                bump_mtime(target)
            elif names and op == "regrade":
                assert isinstance(data, dict)
                tid = names[day % len(names)]
                t = store.load(tid)
                for turn in t.turns:
                    new = data.get(turn.question_id)
                    if isinstance(new, Grade):
                        turn.grade = new
                store.save(t)
                bump_mtime(store.path_for(tid))
            elif names and op == "delete":
                store.path_for(names.pop(day % len(names))).unlink()
            incremental = DrillStore(root).queue(now + timedelta(hours=n))
            assert incremental.items == rebuilt_items(root, now + timedelta(hours=n))
        if (root / STORE_NAME).exists():
            assert json.loads((root / STORE_NAME).read_text())["version"] == 2
    finally:
        shutil.rmtree(root, ignore_errors=True)

"""Benchmark the drill queue.  A script, not a test: ``python benchmarks/bench_drills.py [--sessions N]``.

Builds N (default 1,000) transcripts in a temp dir, each a whole session of
the built-in ``nvidia-inference`` case: every question answered at length,
graded with evidence on every dimension, one follow-up per question, and three
earlier grades per turn (as after three regrades), about 170 KB a file like
the sessions in issue 12.  Sessions are a day apart, with grades from a fixed
seed, so some questions are due and some are not.

Prints the time to build the drill queue (``DrillStore.queue``) against the
target (<= 0.5 s over 1,000 transcripts):

* warm: the store is up to date (the usual case: home screen, ``drill``, ``progress``);
* one new session: the store is up to date but for one new file;
* no drill store, index warm: rebuilt from the summary index's digests (any listing, the home
  screen or ``progress`` keeps the index up to date);
* no drill store, no index: every transcript is read here (first run after an upgrade).

Each figure is the median of several runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.content.loader import load_case  # noqa: E402
from interviewer.content.schema import DIMENSIONS, Case  # noqa: E402
from interviewer.drills import STORE_NAME, DrillStore  # noqa: E402
from interviewer.grading.types import DimensionScore, Grade  # noqa: E402
from interviewer.index import INDEX_NAME  # noqa: E402
from interviewer.transcripts import PhaseRecord, Transcript, TranscriptStore, Turn  # noqa: E402

TARGET_S = 0.5
START = datetime(2024, 1, 1, 19, 0, tzinfo=timezone.utc)


def grade(rng: random.Random, dims: tuple[str, ...], words: list[str]) -> Grade:
    scores = {d: rng.randint(0, 4) for d in dims}
    return Grade(
        grader="llm",
        overall=round(100 * sum(scores.values()) / (4 * len(scores))),
        dimensions={d: DimensionScore(score=s, evidence=[" ".join(rng.choices(words, k=10)) for _ in range(2)],  # type: ignore[misc]
                                      missing=[" ".join(rng.choices(words, k=10))]) for d, s in scores.items()},
        feedback=" ".join(rng.choices(words, k=25)),
        model="bench-model",
        graded_at=START.isoformat(),
    )


def session(case: Case, index: int, rng: random.Random) -> Transcript:
    words = [w for q in case.questions() for w in q.prompt.split()] or ["word"]
    turns: list[Turn] = []
    for phase in case.phases:
        for q in phase.questions:
            for kind, dims in (("question", DIMENSIONS), ("follow_up", (rng.choice(DIMENSIONS),))):
                grades = [grade(rng, dims, words) for _ in range(4)]
                turns.append(Turn(
                    id=len(turns) + 1, phase_id=phase.id, question_id=q.id, kind=kind,  # type: ignore[arg-type]
                    prompt=q.prompt, asked_at=0, answered_at=60, answer=" ".join(rng.choices(words, k=100)),
                    status="graded", grade=grades[-1], previous_grades=grades[:-1],
                ))
    started = (START + timedelta(days=index)).isoformat()
    return Transcript(
        id=f"bench-{index:05d}", case_id=case.id, case_title=case.title, started=started, updated=started,
        status="finished", phases=[PhaseRecord(id=p.id, title=p.title, budget_s=p.minutes * 60) for p in case.phases],
        turns=turns,
    )


def timed(fn: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    case = load_case(ROOT / "cases" / "nvidia-inference.yaml")
    rng = random.Random(12)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        store = TranscriptStore(root)
        template = session(case, 0, rng).model_dump_json(indent=1)
        sample = [session(case, i, rng) for i in range(20)]  # 20 different grade patterns, reused in turn
        for i in range(args.sessions):
            t = sample[i % len(sample)].model_copy(update={"id": f"bench-{i:05d}",
                                                           "started": (START + timedelta(days=i)).isoformat()})
            (root / f"{t.id}.json").write_text(t.model_dump_json(indent=1), encoding="utf-8")
        size = sum(p.stat().st_size for p in store.files()) / args.sessions
        print(f"{args.sessions} transcripts of {case.id}, {size / 1024:.0f} KB each "
              f"(template {len(template) / 1024:.0f} KB), {len(case.questions())} questions per session")
        now = START + timedelta(days=args.sessions + 30)

        def nothing_cached() -> None:
            (root / STORE_NAME).unlink(missing_ok=True)
            for leftover in root.glob(f"{INDEX_NAME}*"):
                leftover.unlink()
            DrillStore(root).queue(now)

        def no_store() -> None:
            (root / STORE_NAME).unlink(missing_ok=True)
            DrillStore(root).queue(now)

        cold_s = timed(nothing_cached, max(1, args.runs // 2))
        store.summaries()  # what the home screen or `transcripts` does: the index is now up to date
        no_store_s = timed(no_store, args.runs)
        drills = DrillStore(root)
        queue = drills.queue(now)
        warm_s = timed(lambda: DrillStore(root).queue(now), args.runs)
        new_times = []
        for n in range(args.runs):  # the save is the session's cost, not the queue's: only the queue is timed
            store.save(sample[n % len(sample)].model_copy(update={"id": f"new-{n:03d}", "started": now.isoformat()}))
            t0 = time.perf_counter()
            DrillStore(root).queue(now)
            new_times.append(time.perf_counter() - t0)
        new_s = statistics.median(new_times)
        print(f"queue: {len(queue.items)} questions, {len(queue.due())} due")
        for label, seconds in (("warm (store up to date)", warm_s), ("one new session", new_s),
                               ("no drill store, index warm", no_store_s), ("no drill store, no index", cold_s)):
            verdict = "ok" if seconds <= TARGET_S else "over"
            print(f"  {label:<28} {seconds * 1000:8.0f} ms   target <= {TARGET_S * 1000:.0f} ms  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

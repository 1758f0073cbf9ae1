"""Benchmark listing and progress over many transcripts.  A script, not a test:

    python benchmarks/bench_scale.py [--sessions 1000] [--big] [--runs 3] [--no-review]

Generates N realistic transcripts (default 1,000; ``--big`` adds a run at
10,000) in a temp dir: whole sessions of the built-in ``nvidia-inference``
case, every question answered at length and graded with evidence, missed key
points, feedback and number checks, one follow-up per question, and three
earlier grades on every turn (as after three regrades), about 170 KB a file
as in issue 12.  Twenty distinct sessions are written under 1,000 ids and
start times a few hours apart (the issue's "1,000 copies of one real
session", with some variety).

Then runs ``interviewer transcripts`` and ``interviewer progress`` (each also
with ``--json``) as subprocesses, with this repository first on PYTHONPATH,
and prints wall time and peak RSS (``wait4``'s ru_maxrss) against the targets:
<= 1 s and <= 150 MB at 1,000 transcripts, <= 3 s at 10,000.

* cold: no summary index yet (the first listing after an upgrade parses every file once);
* warm: the index is up to date (every later run); the median of ``--runs`` runs;
* one changed: one transcript rewritten since the last listing (after a session or a regrade).

``progress`` also builds the drill queue (``DrillStore``): its first run rebuilds
the drill store, so it is run once before the warm figures.  Finally the review
screen's first paint and full listing (``interviewer review`` in a pty, via
``bench_tui.first_paint``) unless ``--no-review``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interviewer.content.loader import load_case  # noqa: E402
from interviewer.content.schema import DIMENSIONS, Case  # noqa: E402
from interviewer.grading.types import DimensionScore, Grade, NumberCheck  # noqa: E402
from interviewer.index import INDEX_NAME  # noqa: E402
from interviewer.transcripts import PhaseRecord, Transcript, Turn  # noqa: E402

TARGET_S = {1000: 1.0, 10000: 3.0}
TARGET_RSS_MB = 150.0
VARIANTS = 20
START = datetime(2024, 1, 1, 19, 0, tzinfo=timezone.utc)


def _grade(rng: random.Random, dims: tuple[str, ...], answer: list[str], when: datetime) -> Grade:
    scores = {d: rng.randint(0, 4) for d in dims}

    def span(k: int) -> str:
        i = rng.randrange(max(1, len(answer) - k))
        return " ".join(answer[i : i + k])

    return Grade(
        grader="llm",
        overall=round(100 * sum(scores.values()) / (4 * len(scores))),
        dimensions={
            d: DimensionScore(score=s, evidence=[span(10)], missing=[span(6)])  # type: ignore[misc]
            for d, s in scores.items()
        },
        numbers_checked=[NumberCheck(claim=f"{rng.randint(1, 900)} GB/s", reference="900 GB/s (NVLink 4 total)",
                                     verdict=rng.choice(["correct", "wrong", "unverified"])) for _ in range(2)],
        feedback=" ".join(rng.choices(answer, k=18)),
        model="bench-model",
        graded_at=when.isoformat(),
    )


def session(case: Case, seed: int) -> Transcript:
    rng = random.Random(seed)
    words = [w for q in case.questions() for w in (q.prompt + " " + " ".join(q.outline)).split()] or ["word"]
    turns: list[Turn] = []
    for phase in case.phases:
        for q in phase.questions:
            for kind, dims in (("question", DIMENSIONS), ("follow_up", (rng.choice(DIMENSIONS),))):
                answer = rng.choices(words, k=100)
                grades = [_grade(rng, dims, answer, START + timedelta(days=k)) for k in range(4)]
                turns.append(Turn(
                    id=len(turns) + 1, phase_id=phase.id, question_id=q.id, kind=kind,  # type: ignore[arg-type]
                    prompt=q.prompt, asked_at=len(turns) * 60.0, answered_at=len(turns) * 60.0 + 50,
                    answer=" ".join(answer), status="graded", grade=grades[-1], previous_grades=grades[:-1],
                ))
    return Transcript(
        id="@ID@", case_id=case.id, case_title=case.title, started="@STARTED@", updated="@STARTED@",
        status="finished", elapsed=3000.0,
        phases=[PhaseRecord(id=p.id, title=p.title, budget_s=p.minutes * 60) for p in case.phases], turns=turns,
    )


def generate(folder: Path, n: int) -> int:
    """Write ``n`` transcripts; returns the mean file size in bytes."""
    case = load_case(ROOT / "cases" / "nvidia-inference.yaml")
    templates = [session(case, seed).model_dump_json(indent=1) for seed in range(VARIANTS)]
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(n):
        when = START + timedelta(hours=7 * i)
        tid = f"{when:%Y%m%d-%H%M%S}-{case.id}-{i:05x}"
        text = templates[i % VARIANTS].replace("@ID@", tid).replace("@STARTED@", when.isoformat())
        (folder / f"{tid}.json").write_text(text, encoding="utf-8")
        total += len(text)
    return total // n


def run(args: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of ``python -m interviewer ARGS``."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "interviewer", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"interviewer {' '.join(args)} failed ({proc.returncode}): {err[-400:]}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def verdict(seconds: float, rss: float, n: int, check_rss: bool) -> str:
    ok = seconds <= TARGET_S.get(n, 3.0) and (not check_rss or rss <= TARGET_RSS_MB)
    return "ok" if ok else "MISSED"


def measure(n: int, runs: int, review: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="interviewer-scale-") as tmp:
        home = Path(tmp)
        folder = home / "transcripts"
        t0 = time.perf_counter()
        size = generate(folder, n)
        print(f"\n{n:,} transcripts, {size / 1024:.0f} KB each on average "
              f"(generated in {time.perf_counter() - t0:.1f} s) in {folder}")
        env = {
            "PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8", "NO_COLOR": "1",
            "INTERVIEWER_CONFIG": str(home / "config.toml"), "INTERVIEWER_TRANSCRIPTS_DIR": str(folder),
            "INTERVIEWER_DATA_DIR": str(home / "data"), "INTERVIEWER_CACHE_DIR": str(home / "cache"),
            "PYTHONPATH": str(ROOT),
        }
        target = f"target <= {TARGET_S.get(n, 3.0):g} s" + (f", <= {TARGET_RSS_MB:g} MB" if n <= 1000 else "")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall time suffers under load; "
              "CPU time less so)")
        print(f"{'measure':<46}{'wall':>8}{'CPU':>9}{'peak RSS':>10}  {target}")

        def show(label: str, sample: tuple[float, float, float]) -> None:
            seconds, cpu, rss = sample
            print(f"{label:<46}{seconds:>6.2f} s{cpu:>7.2f} s{rss:>7.0f} MB  {verdict(seconds, rss, n, n <= 1000)}")

        show("transcripts, cold (builds the index)", run(["transcripts"], env))
        show("progress, first run (builds the drill store)", run(["progress"], env))
        for args in (["transcripts"], ["transcripts", "--json"], ["progress"], ["progress", "--json"]):
            samples = [run(args, env) for _ in range(runs)]
            show(f"{' '.join(args)}, warm (median of {runs})",
                 (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples),
                  max(s[2] for s in samples)))
        changed = sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))[n // 2]
        for args in (["transcripts"], ["progress"]):
            text = changed.read_text(encoding="utf-8")
            changed.write_text(text.replace('"status": "finished"', '"status": "in_progress"', 1)
                               if '"status": "finished"' in text else
                               text.replace('"status": "in_progress"', '"status": "finished"', 1), encoding="utf-8")
            show(f"{' '.join(args)}, one file changed", run(args, env))
        (folder / INDEX_NAME).write_bytes(b"garbage" * 1000)
        show("transcripts, corrupt index (rebuilds it)", run(["transcripts"], env))
        if review:
            review_paint(env, n)


def review_paint(env: dict[str, str], n: int) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_tui import clean_env, first_paint

    pty_env = {**clean_env(Path(env["HOME"])), **{k: v for k, v in env.items() if k.startswith("INTERVIEWER_")}}
    pty_env.pop("NO_COLOR", None)
    painted, listed, rss = first_paint([sys.executable, "-m", "interviewer", "review"], pty_env,
                                       "Review", f"{n} of {n} transcripts")
    print(f"{'review screen: first paint (pty)':<46}{painted:>6.2f} s{'':>9}{rss:>7.0f} MB  "
          f"{'ok' if painted <= 1.0 else 'MISSED'} (target <= 1 s at 1,000)")
    print(f"{'review screen: every transcript listed':<46}{listed:>6.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=1000, help="how many transcripts (default 1,000)")
    parser.add_argument("--big", action="store_true", help="also run at 10,000 transcripts (1.7 GB of files)")
    parser.add_argument("--runs", type=int, default=3, help="warm runs per measure (median)")
    parser.add_argument("--no-review", action="store_true", help="skip the review screen's pty measure")
    args = parser.parse_args()
    measure(args.sessions, args.runs, not args.no_review)
    if args.big:
        measure(10_000, args.runs, not args.no_review)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark ``interviewer calibrate``'s own overhead.  A script, not a test:

    python benchmarks/bench_calibrate.py [--delay-ms 200] [--limit N]

Runs the real command in this process (``cli.main(["calibrate", "--json"])``)
on the shipped labelled set against the fake OpenAI-compatible server from
``tests/fakeserver.py``, which answers every grading call after a fixed delay
(the stand-in for a model's latency).  Both graders the command runs (the
configured one and the offline keyword grader) are wrapped so the time spent
inside their ``grade`` calls is summed.  Overhead is everything else: loading
the case library and the labelled set, building the requests, progress lines,
the agreement figures, the verdict and the saved file.

Target (issue 12): overhead <= 5% of the graders' own time.  Printed twice:
the whole run (fixed start-up costs included) and the grading loop alone
(the per-answer bookkeeping), so a short run's fixed costs are not mistaken
for a slow loop.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET = 0.05


class Timed:
    """A grader wrapper that sums the seconds spent inside ``grade``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.online = getattr(inner, "online", False)
        self.spent = 0.0
        self.calls = 0
        self.first: float | None = None
        self.last = 0.0

    def describe(self) -> str:
        return str(self.inner.describe())

    def grade(self, request: Any, on_chunk: Any = None) -> Any:
        start = time.perf_counter()
        if self.first is None:
            self.first = start
        try:
            return self.inner.grade(request, on_chunk)
        finally:
            self.last = time.perf_counter()
            self.spent += self.last - start
            self.calls += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay-ms", type=float, default=200.0, help="the fake model's latency per grade")
    parser.add_argument("--limit", type=int, help="grade only N answers (passed to calibrate --limit)")
    args = parser.parse_args()

    import interviewer.commands.calibrate as calibrate_cmd
    import interviewer.grading.offline.grader as offline_module
    from interviewer.cli import main as cli_main
    from interviewer.grading.policy import FallbackGrader
    from tests.fakeserver import FakeServer

    server = FakeServer(fixed_delay=args.delay_ms / 1000).start()
    wrapped: list[Timed] = []
    real_keyword = offline_module.KeywordGrader

    def offline_grader() -> Timed:
        wrapped.append(Timed(real_keyword()))
        return wrapped[-1]

    def configured_grader(settings: Any) -> Timed:
        # Its own offline grader is the real class, so it is not counted as a second grader.
        wrapped.append(Timed(FallbackGrader(settings, offline=real_keyword())))
        return wrapped[-1]

    with tempfile.TemporaryDirectory(prefix="interviewer-calibrate-") as tmp:
        os.environ.update({
            "INTERVIEWER_CONFIG": str(Path(tmp) / "config.toml"), "INTERVIEWER_DATA_DIR": str(Path(tmp) / "data"),
            "INTERVIEWER_CACHE_DIR": str(Path(tmp) / "cache"), "INTERVIEWER_BASE_URL": server.url,
        })
        for var in ("INTERVIEWER_API_KEY", "OPENAI_API_KEY", "INTERVIEWER_OFFLINE", "INTERVIEWER_CASES_DIR"):
            os.environ.pop(var, None)
        offline_module.KeywordGrader = offline_grader  # type: ignore[misc,assignment]
        calibrate_cmd.grader_for = configured_grader  # type: ignore[assignment]
        argv = ["calibrate", "--json"] + (["--limit", str(args.limit)] if args.limit else [])
        out, err = io.StringIO(), io.StringIO()
        try:
            start = time.perf_counter()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli_main(argv)
            end = time.perf_counter()
        finally:
            offline_module.KeywordGrader = real_keyword  # type: ignore[misc]
            server.stop()
    if code != 0:
        print(err.getvalue(), file=sys.stderr)
        return code
    spent = sum(w.spent for w in wrapped)
    calls = sum(w.calls for w in wrapped)
    total = end - start
    overhead = total - spent
    before = min(w.first for w in wrapped if w.first is not None) - start
    after = end - max(w.last for w in wrapped)
    loop_overhead = overhead - before - after
    print(f"calibrate over the shipped set: {calls} grades ({len(wrapped)} graders), "
          f"fake model latency {args.delay_ms:g} ms")
    print(f"  whole run           {total:8.2f} s")
    print(f"  inside the graders  {spent:8.2f} s")
    print(f"  overhead            {overhead:8.3f} s = {overhead / spent:6.1%} of grading time  "
          f"{'ok' if overhead / spent <= TARGET else 'MISSED'} (target <= {TARGET:.0%})")
    print(f"    before grading    {before:8.3f} s (settings, case library, labelled set, request checks)")
    print(f"    after grading     {after:8.3f} s (figures, verdict, saved file, output)")
    print(f"    grading loop      {loop_overhead:8.3f} s = {loop_overhead / spent:6.2%} "
          f"({loop_overhead / calls * 1000:.2f} ms per grade)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How much time does the grading client add on top of the HTTP round trip?

Starts the fake OpenAI-compatible server from ``tests/fakeserver.py`` (a
non-streamed good grade after a fixed delay that stands in for the model),
then times, per grade:

* ``raw``: one ``http.client`` POST of the same request body, and ``json.loads``;
* ``chat``: ``ChatClient.chat`` (the SDK, our retry/negotiation wrapper);
* ``grade``: ``LLMGrader.grade`` with the offline grade precomputed (prompt
  rendering, the call, tolerant parsing, validation, evidence checks, merge).

Target: the client adds at most 5% or 20 ms per grade.  Also reports the cost
of ``import interviewer.grading.policy`` and checks it does not import openai.

Run:  .venv/bin/python benchmarks/bench_client.py [--rounds 40] [--delay-ms 50]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _import_time(module: str, runs: int = 7) -> tuple[float, bool]:
    code = f"import sys, time; t = time.perf_counter(); import {module}; d = time.perf_counter() - t; "
    code += "print(d, 'openai' in sys.modules)"
    times, loaded = [], False
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
        seconds, openai_loaded = out.stdout.split()
        times.append(float(seconds))
        loaded = loaded or openai_loaded == "True"
    return statistics.median(times), loaded


def _process_time(module: str, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True, cwd=ROOT)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--delay-ms", type=float, default=50.0, help="simulated model time per reply")
    args = parser.parse_args()

    os.environ["INTERVIEWER_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-cache-")
    from interviewer.config import Settings
    from interviewer.content.loader import load_case, load_rubric
    from interviewer.grading.llm.client import ChatClient
    from interviewer.grading.llm.grader import LLMGrader, nonce
    from interviewer.grading.llm.parse import reply_schema
    from interviewer.grading.llm.prompts import grading_messages
    from interviewer.grading.llm.structured import EndpointMemory, ModeCache, response_format
    from interviewer.grading.offline.grader import KeywordGrader
    from tests.fakeserver import MODEL, FakeServer, kv_request

    case = load_case(ROOT / "tests" / "fixtures" / "cases" / "mini.yaml")
    rubric = load_rubric(ROOT / "rubrics" / "ai-infra.yaml")
    request = kv_request(case, rubric)
    offline_started = time.perf_counter()
    offline = KeywordGrader().grade(request)
    offline_ms = (time.perf_counter() - offline_started) * 1000

    server = FakeServer(fixed_delay=args.delay_ms / 1000).start()
    try:
        settings = Settings(base_url=server.url, model=MODEL)
        cache = ModeCache(Path(os.environ["INTERVIEWER_CACHE_DIR"]) / "modes.json")
        cache.put(server.url, MODEL, EndpointMemory(mode="json_schema", stream=False, base=server.url))
        client = ChatClient(settings, cache=cache)
        grader = LLMGrader(settings, client=client)
        messages = grading_messages(request, request.answer, nonce())
        body = json.dumps(
            {
                "model": MODEL,
                "messages": messages,
                "max_tokens": 900,
                "temperature": 0,
                "response_format": response_format("json_schema", reply_schema()),
            }
        ).encode()
        host = urlsplit(server.url)

        def raw() -> None:
            conn = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            json.loads(conn.getresponse().read())
            conn.close()

        def chat() -> None:
            client.chat(messages, max_tokens=900, schema=reply_schema())

        def grade() -> None:
            result = grader.grade(request, offline=offline)
            assert result.grader == "llm"

        for fn in (raw, chat, grade):  # warm up: the SDK import, connection setup, template compilation
            fn()
        samples: dict[str, list[float]] = {"raw": [], "chat": [], "grade": []}
        for _ in range(args.rounds):  # interleaved, so drift in the machine hits all three alike
            for name, fn in (("raw", raw), ("chat", chat), ("grade", grade)):
                started = time.perf_counter()
                fn()
                samples[name].append(time.perf_counter() - started)
    finally:
        server.stop()

    raw_ms = _median_ms(samples["raw"])
    print(f"fake server delay {args.delay_ms:g} ms, {args.rounds} rounds, medians:")
    print(f"  raw http.client request    {raw_ms:7.2f} ms")
    verdicts = []
    for name in ("chat", "grade"):
        ms = _median_ms(samples[name])
        extra = ms - raw_ms
        pct = 100 * extra / raw_ms
        ok = extra <= 20 or pct <= 5
        verdicts.append(ok)
        label = "ChatClient.chat" if name == "chat" else "LLMGrader.grade"
        print(f"  {label:<26} {ms:7.2f} ms   overhead {extra:+6.2f} ms ({pct:+5.1f}%)  {'ok' if ok else 'OVER TARGET'}")
    print(f"  (offline keyword grade, computed once per grade by the policy: {offline_ms:.2f} ms)")

    seconds, loaded = _import_time("interviewer.grading.policy")
    baseline = _process_time("interviewer.config")
    total = _process_time("interviewer.grading.policy")
    print(f"import interviewer.grading.policy: {seconds * 1000:.0f} ms in-process "
          f"(process {total * 1000:.0f} ms vs {baseline * 1000:.0f} ms for interviewer.config)")
    print(f"  openai imported by it: {'YES (regression)' if loaded else 'no'}")
    openai_s, _ = _import_time("openai")
    print(f"  for scale, import openai: {openai_s * 1000:.0f} ms")
    return 0 if all(verdicts) and not loaded else 1


if __name__ == "__main__":
    sys.exit(main())

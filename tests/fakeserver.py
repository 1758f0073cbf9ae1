"""A fault-injecting OpenAI-compatible server on 127.0.0.1, for testing the grading client.

The ``openai`` SDK talks through httpx2, which httpx mocking libraries do not
see, so the fake is a real HTTP server (stdlib ``ThreadingHTTPServer`` on a
free port, in a thread).  It serves only ``/v1/...``, so a base URL without
``/v1`` gets a 404 first, as with many real servers.

Each chat request consumes the next behaviour from ``server.script`` (then
``server.default``).  Behaviours::

    good            the grade in ``server.reply`` (JSON, or SSE when stream=true); a follow-up
                    request gets ``follow_up_text``
    slow_headers    wait ``server.delay`` seconds before answering
    slow_stream     send the first chunk, then one chunk every ``server.delay`` seconds
    500 / 401 / 403 / 404     that status; 401 and 5xx echo the API key, as some proxies do
    429             429 with ``Retry-After: server.retry_after``
    malformed       a reply whose content is not JSON
    bad_envelope    HTTP 200 with a body that is not JSON at all
    truncated       the stream (or body) stops halfway, without a finish_reason
    wrong_schema    valid JSON, but not a grade
    nonsense        a grade-shaped object whose scores are not numbers
    think_fence     the grade inside a <think> block and a ```json fence
    huge            a reply of about 100,000 characters
    looping         a feedback string that repeats one sentence 200 times
    length          half a grade with finish_reason "length"
    lmstudio        400 whenever response_format is present, else good
    llamacpp        500 "Input should be 'text' or 'json_object'" for json_schema, else good
    no_stream       ignores stream=true and answers with plain JSON
    stream_400      400 "streaming is not supported" when stream=true, else good
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from interviewer.content.schema import DIMENSIONS
from interviewer.grading.types import DimensionScore, Grade, GradeRequest

MODEL = "fake-grader"

GOOD_ANSWER = (
    "The KV cache stores keys and values for every layer and KV head, so per token it is "
    "2 x 80 layers x 8 KV heads x 128 dims x 2 bytes, about 320 KiB per token. "
    "Grouped-query attention shrinks the cache at a small quality cost, but fewer KV heads can hurt accuracy. "
    "When HBM runs out the scheduler preempts requests, or the server hits OOM; watch cache utilisation."
)


def grade_reply(
    scores: dict[str, int] | None = None,
    evidence: dict[str, list[str]] | None = None,
    feedback: str = "Clear mechanism and a correct size estimate; say more about recovery.",
    flags: list[str] | None = None,
) -> dict[str, Any]:
    """A grade in the shape the grader prompt asks for; quotes default to spans of GOOD_ANSWER."""
    scores = scores or {"mechanism": 3, "tradeoff": 3, "numbers": 4, "failure_modes": 2}
    default_evidence = {
        "mechanism": ["stores keys and values for every layer and KV head"],
        "tradeoff": ["Grouped-query attention shrinks the cache at a small quality cost"],
        "numbers": ["about 320 KiB per token"],
        "failure_modes": ["the scheduler preempts requests"],
    }
    evidence = {**default_evidence, **(evidence or {})}
    return {
        "feedback": feedback,
        "dimensions": {d: {"score": scores[d], "evidence": evidence[d], "missing": []} for d in DIMENSIONS},
        "flags": flags or [],
    }


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    """Lower-cased names."""
    body: dict[str, Any] | None


@dataclass
class FakeServer:
    script: list[str] = field(default_factory=list)
    default: str = "good"
    reply: dict[str, Any] = field(default_factory=grade_reply)
    models: list[str] = field(default_factory=lambda: [MODEL])
    models_status: int = 200
    delay: float = 2.0
    retry_after: str = "0.2"
    follow_up_text: str = "You sized the cache per token; how much is that for a 4,096-token context?"
    fixed_delay: float = 0.0
    """Added before every chat reply (the benchmark's stand-in for model latency)."""
    requests: list[Recorded] = field(default_factory=list)
    port: int = 0
    _httpd: ThreadingHTTPServer | None = None
    stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.root + "/v1"

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def next_behaviour(self) -> str:
        return self.script.pop(0) if self.script else self.default

    def start(self) -> FakeServer:
        server = self

        class Handler(_Handler):
            fake = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # type: ignore[attr-defined]
        self.port = self._httpd.server_address[1]
        # A short poll interval: shutdown() waits for the next poll, and every test stops a server.
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-openai", daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()


class _Handler(BaseHTTPRequestHandler):
    fake: FakeServer
    protocol_version = "HTTP/1.0"  # the body ends when the connection closes: simple, and truncation is real

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass

    # ------------------------------------------------------------------ helpers

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        self._send_json(status, {"error": {"message": message, "type": "error", "code": status}}, headers)

    def _record(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.fake.requests.append(Recorded(self.command, self.path, headers, body))
        return body

    # ------------------------------------------------------------------ routes

    def do_GET(self) -> None:
        self._record()
        if self.path.rstrip("/") != "/v1/models":
            self._error(404, f"no route for {self.path}")
            return
        if self.fake.models_status != 200:
            self._status(self.fake.models_status)
            return
        self._send_json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in self.fake.models]})

    def do_POST(self) -> None:
        body = self._record() or {}
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._error(404, f"no route for {self.path}")
            return
        behaviour = self.fake.next_behaviour()
        if self.fake.fixed_delay:
            time.sleep(self.fake.fixed_delay)
        stream = bool(body.get("stream"))
        fmt = body.get("response_format")
        if behaviour.isdigit():
            self._status(int(behaviour))
            return
        if behaviour == "slow_headers":
            self.fake.stopping.wait(self.fake.delay)
            behaviour = "good"
        if behaviour == "lmstudio":
            if fmt is not None:
                self._error(400, "'response_format.type' must be 'json_schema' or 'text'")
                return
            behaviour = "good"
        if behaviour == "llamacpp":
            if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
                self._error(500, "1 validation error: response_format.type: Input should be 'text' or 'json_object'")
                return
            behaviour = "good"
        if behaviour == "stream_400":
            if stream:
                self._error(400, "streaming is not supported by this server")
                return
            behaviour = "good"
        if behaviour == "bad_envelope":
            raw = b'{"id": "x", "choices": [ {"message": '
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(raw)
            return
        content, finish = self._content(behaviour, body)
        if behaviour == "no_stream":
            stream = False
        if stream:
            self._stream(content, finish, behaviour)
        else:
            self._complete(content, finish, truncated=behaviour == "truncated")

    def _status(self, status: int) -> None:
        if status == 401:
            auth = self.headers.get("Authorization", "")
            self._error(401, f"Incorrect API key provided: {auth.removeprefix('Bearer ')}")
        elif status == 429:
            self._error(429, "Rate limit reached", {"Retry-After": self.fake.retry_after})
        elif status == 404:
            self._error(404, "The model does not exist")
        else:  # echo the key, as a careless proxy might: the client must scrub it
            auth = self.headers.get("Authorization", "").removeprefix("Bearer ")
            self._error(status, f"simulated failure {status} for key {auth}")

    def _content(self, behaviour: str, body: dict[str, Any]) -> tuple[str, str | None]:
        good = json.dumps(self.fake.reply)
        system = str((body.get("messages") or [{}])[0].get("content", ""))
        if "follow-up question" in system and behaviour == "good":
            return self.fake.follow_up_text, "stop"
        if behaviour == "malformed":
            return "Sure! Here is my grade: mechanism is good, tradeoff ok {{{", "stop"
        if behaviour == "wrong_schema":
            return json.dumps({"grade": "good", "comment": "nice answer"}), "stop"
        if behaviour == "nonsense":
            return json.dumps({"dimensions": {d: {"score": "lots"} for d in DIMENSIONS}}), "stop"
        if behaviour == "think_fence":
            thinking = '<think>The candidate said "feedback": "x"... let me grade.</think>'
            return f"{thinking}\n```json\n{good}\n```", "stop"
        if behaviour == "huge":
            rambling = " ".join(f"point {i} of {i * 7919 % 10007}" for i in range(8000))  # long, not looping
            return json.dumps({**self.fake.reply, "feedback": rambling}), "stop"
        if behaviour == "looping":
            return json.dumps({**self.fake.reply, "feedback": "The answer is good. " * 200}), "stop"
        if behaviour == "length":
            return good[: len(good) // 2], "length"
        if behaviour == "truncated":
            return good, None
        return good, "stop"

    def _complete(self, content: str, finish: str | None, *, truncated: bool) -> None:
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": MODEL,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
        }
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2] if truncated else body)

    def _stream(self, content: str, finish: str | None, behaviour: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        size = max(1, len(content) // 12) if behaviour != "huge" else 2000
        pieces = [content[i : i + size] for i in range(0, len(content), size)]
        if behaviour == "truncated":
            pieces = pieces[: len(pieces) // 2]
        try:
            self._event({"role": "assistant", "content": ""}, None)
            for i, piece in enumerate(pieces):
                if behaviour == "slow_stream" and i > 0 and self.fake.stopping.wait(self.fake.delay):
                    return
                self._event({"content": piece}, None)
            if behaviour == "truncated":
                return
            self._event({}, finish)
            self.wfile.write(b"data: [DONE]\n\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _event(self, delta: dict[str, Any], finish: str | None) -> None:
        chunk = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
        self.wfile.flush()


# --------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture(name="fake_server")
def fake_server_fixture() -> Iterator[FakeServer]:
    """Import ``fake_server_fixture`` into a test module to use the ``fake_server`` fixture."""
    server = FakeServer().start()
    try:
        yield server
    finally:
        server.stop()


def closed_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def unanswered_port() -> Iterator[int]:
    """A port whose listen queue is full, so new connections hang until the connect timeout.

    Real blackhole addresses (10.255.255.1) are not reliable in sandboxes, which may
    answer them through a proxy; a full accept queue makes Linux drop the SYN instead.
    """
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError, OSError):
            filler.connect(("127.0.0.1", port))
        fillers.append(filler)
    time.sleep(0.05)
    try:
        yield port
    finally:
        for filler in fillers:
            filler.close()
        server.close()


class FixedGrader:
    """A stand-in offline grader with fixed scores, so tests can assert caps exactly."""

    name = "keyword"

    def __init__(self, scores: dict[str, int] | None = None, flags: list[str] | None = None) -> None:
        self.scores = scores or {"mechanism": 1, "tradeoff": 1, "numbers": 1, "failure_modes": 1}
        self.flags = flags or []
        self.calls = 0

    def grade(self, request: GradeRequest, on_chunk: Any = None) -> Grade:
        from interviewer.grading.types import overall_from

        self.calls += 1
        return Grade(
            grader="keyword",
            overall=overall_from(self.scores, request.rubric),
            dimensions={d: DimensionScore(score=self.scores[d], evidence=[], missing=[]) for d in DIMENSIONS},
            flags=list(self.flags),
            feedback="offline feedback",
        )


def kv_request(case: Any, rubric: Any, answer: str = GOOD_ANSWER, **kwargs: Any) -> GradeRequest:
    """A request for the ``kv-size`` question of the ``mini`` fixture case."""
    return GradeRequest(case=case, rubric=rubric, question=case.question("kv-size"), answer=answer, **kwargs)

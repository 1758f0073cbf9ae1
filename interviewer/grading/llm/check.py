"""``interviewer check``: is the configured endpoint usable for grading, and how fast?

Probes with a connect timeout of at most 2 s and no retries: list the
models, then make one tiny grading call through the real grader, negotiating
the structured-output mode from the strictest one (and remembering it, so
the next session starts with the mode that works).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from interviewer.config import Settings
from interviewer.content.loader import load_rubric
from interviewer.content.schema import Case
from interviewer.grading.errors import safe_url, scrub
from interviewer.grading.types import GradeRequest, GradingError
from interviewer.paths import builtin_rubrics_dir

CHECK_CONNECT_TIMEOUT = 2.0
CHECK_MAX_TOKENS = 700
NOT_CONFIGURED = (
    "no endpoint configured: pass --base-url URL, set INTERVIEWER_BASE_URL, or put base_url in the config file"
)

_TINY_ANSWER = (
    "A ring all-reduce runs a reduce-scatter then an all-gather, so each GPU sends 2(N-1)/N of the buffer: "
    "for 1 GB on 8 GPUs that is 1.75 GB per GPU, about 4.4 ms at 400 GB/s. It is bandwidth-optimal but the "
    "latency term grows with N, so a tree wins for small messages. One slow link stalls the whole ring; "
    "watch for NCCL timeouts and restart from the last checkpoint."
)


@dataclass
class CheckResult:
    base_url: str
    ok: bool = False
    reachable: bool = False
    models: list[str] = field(default_factory=list)
    model: str | None = None
    mode: str | None = None
    streamed: bool | None = None
    latency_s: float | None = None
    grade_overall: int | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _reached(reason: str) -> bool:
    """Whether a failure reason implies an HTTP reply came back."""
    return not reason.startswith(("endpoint unreachable", "endpoint timed out", "invalid endpoint URL"))


def _tiny_request() -> GradeRequest:

    rubric = load_rubric(builtin_rubrics_dir() / "ai-infra.yaml")
    case = Case.model_validate(
        {
            "id": "check",
            "title": "Endpoint check",
            "kind": "bank",
            "scenario": "A one-question check that the grader works.",
            "rubric": rubric.id,
            "phases": [
                {
                    "id": "only",
                    "title": "Check",
                    "minutes": 1,
                    "questions": [
                        {
                            "id": "ring",
                            "prompt": "How long does a ring all-reduce of 1 GB take on 8 GPUs?",
                            "key_points": {
                                "mechanism": [{"text": "Reduce-scatter, then all-gather", "aliases": ["ring"]}],
                                "tradeoff": [{"text": "Bandwidth-optimal, latency grows with N", "aliases": ["tree"]}],
                                "numbers": [{"text": "Each GPU sends 2(N-1)/N of the buffer", "aliases": ["1.75"]}],
                                "failure_modes": [{"text": "One slow link stalls the ring", "aliases": ["slow link"]}],
                            },
                            "outline": ["2(N-1)/N x size / bandwidth."],
                        }
                    ],
                }
            ],
        }
    )
    question = case.questions()[0]
    return GradeRequest(case=case, rubric=rubric, question=question, answer=_TINY_ANSWER)


def run_check(settings: Settings) -> CheckResult:
    """Probe the endpoint.  Never raises for endpoint problems: they end up in ``reason``."""
    from interviewer.grading.llm.client import ChatClient
    from interviewer.grading.llm.grader import LLMGrader

    if not settings.base_url:
        return CheckResult(base_url="", reason=NOT_CONFIGURED)
    probe = settings.model_copy(
        update={"connect_timeout": min(settings.connect_timeout, CHECK_CONNECT_TIMEOUT), "offline": False}
    )
    client = ChatClient(probe, retry_429=False)
    result = CheckResult(base_url=safe_url(client.configured))
    try:
        try:
            result.models = client.list_models()
            result.reachable = True
        except GradingError as exc:
            result.reachable = _reached(exc.reason)
            if not result.reachable or not probe.model:
                result.reason = exc.reason
                return result
        result.model = client.model()
        result.base_url = client.url
        client.cache.forget(client.configured, result.model)
        grader = LLMGrader(probe, client=client, max_tokens=CHECK_MAX_TOKENS, retry_max_tokens=CHECK_MAX_TOKENS)
        started = time.monotonic()
        try:
            grade = grader.grade(_tiny_request())
            result.grade_overall = grade.overall
            result.ok = True
        except GradingError as exc:
            result.reason = exc.reason
        result.latency_s = round(time.monotonic() - started, 3)
        result.reachable = result.reachable or client.last is not None or _reached(result.reason or "")
        if client.last is not None:
            result.mode, result.streamed = client.last.mode, client.last.streamed
        return result
    except GradingError as exc:
        result.reason = exc.reason
        return result
    except Exception as exc:  # a bug must still end as one line, never a traceback with request details
        result.reason = f"unexpected error: {type(exc).__name__}: {exc}"
        return result
    finally:
        if result.reason:
            result.reason = scrub(result.reason, settings)
        client.close()

"""A small, bounded chat client for any OpenAI-compatible endpoint.

It wraps the ``openai`` SDK (imported lazily: it costs over a second) and adds
what the SDK leaves to us:

* a connect timeout and a read timeout on every call, and ``max_retries=0``
  so that our own retry policy is the only one: one retry on 429 honouring
  ``Retry-After`` up to a cap, none on connection errors or timeouts (the
  offline grade is a better answer than a long wait);
* a preflight (DNS lookup and TCP connect) bounded by the connect timeout and
  run before the SDK is imported, so an unreachable endpoint falls back within
  the connect timeout even on the first call (``getaddrinfo`` ignores socket
  timeouts, and the import alone takes about a second);
* base URLs with or without ``/v1``: a 404 without it is retried with it;
* the default model (first id from ``/models``) when none is configured;
* structured-output negotiation (see ``structured.py``) and streaming, with
  a non-streaming retry for servers that cannot stream;
* every failure turned into a ``GradingError`` with a one-line, key-free reason.
"""

from __future__ import annotations

import functools
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from interviewer.config import Settings
from interviewer.grading.errors import (
    CallbackFailed,
    connection_reason,
    safe_url,
    scrub,
    server_message,
    status_reason,
)
from interviewer.grading.llm.structured import (
    EndpointMemory,
    Mode,
    ModeCache,
    default_cache,
    mentions_format,
    modes_from,
)
from interviewer.grading.llm.structured import response_format as format_for
from interviewer.grading.types import GradingError

if TYPE_CHECKING:
    from openai import OpenAI

log = logging.getLogger("interviewer.grading")

T = TypeVar("T")
Message = dict[str, str]
TextCallback = Callable[[str], None]

RETRY_AFTER_CAP = 5.0
"""Longest Retry-After (seconds) we wait once on a 429; longer asks fall back at once."""
DEFAULT_RETRY_AFTER = 1.0
TOTAL_TIME_FACTOR = 4.0
"""A streamed reply may take at most this many read timeouts in total (a trickling stream is a stall)."""
REPEAT_CHECK_EVERY = 400
REPEAT_TAIL = 80
"""A stream whose last 80 characters already appeared twice is looping; stop paying for it."""
MAX_REPLY_CHARS = 64_000
"""A grade reply is a few hundred tokens; anything far larger is runaway generation."""


@dataclass(frozen=True)
class Completion:
    text: str
    finish_reason: str | None
    model: str
    mode: Mode
    streamed: bool
    seconds: float


class _Rejected(GradingError):
    """The endpoint refused the request's shape (400/422, or a 5xx about the response format)."""

    def __init__(self, reason: str, detail: str):
        self.detail = detail
        super().__init__(reason)


class _NoStream(Exception):
    """The server accepted ``stream=True`` but sent no events."""


def normalise_base(url: str) -> str:
    """Strip whitespace, trailing slashes and a pasted ``/chat/completions``; add ``http://`` if missing."""
    url = url.strip().rstrip("/")
    for suffix in ("/chat/completions", "/completions", "/models"):
        if url.endswith(suffix):
            url = url[: -len(suffix)].rstrip("/")
    if "://" not in url:
        url = "http://" + url
    return url


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after") if headers is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _proxied(scheme: str, host: str) -> bool:
    """Whether an HTTP(S)_PROXY setting applies to ``host`` (as httpx would honour it)."""
    import urllib.request

    proxies = urllib.request.getproxies()
    if not (proxies.get(scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(host)


def _is_context_error(message: str) -> bool:
    text = message.lower()
    return "context" in text and ("token" in text or "length" in text or "exceed" in text)


class ChatClient:
    """One endpoint, one model; keep one for a session.

    Safe to share between a grading worker and a regrade worker: the SDK client is
    thread-safe, and what this object learns (base URL, model, reachability) is
    written idempotently.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        cache: ModeCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
        retry_after_cap: float = RETRY_AFTER_CAP,
        retry_429: bool = True,
    ) -> None:
        if not settings.base_url:
            raise ValueError("ChatClient needs settings.base_url")
        self.settings = settings
        self.configured = normalise_base(settings.base_url)
        self.base: str | None = None
        """The base URL that answered (``configured`` or ``configured + '/v1'``), once known."""
        self.model_name: str | None = settings.model
        self._cache = cache
        self._sleep = sleep
        self._retry_after_cap = min(retry_after_cap, settings.read_timeout)
        self._retry_429 = retry_429
        self.last: Completion | None = None
        """The most recent completion (``interviewer check`` reports its mode and timing)."""
        self._clients: dict[str, OpenAI] = {}
        self._reachable = False

    # ------------------------------------------------------------------ plumbing

    @property
    def cache(self) -> ModeCache:
        return self._cache or default_cache()

    @property
    def url(self) -> str:
        """The base URL to show in messages (never with credentials)."""
        return safe_url(self.base or self.configured)

    def _candidates(self) -> list[str]:
        if self.base:
            return [self.base]
        found = [self.configured]
        if not urlsplit(self.configured).path.rstrip("/").endswith("/v1"):
            found.append(self.configured + "/v1")
        return found

    def _client(self, base: str) -> OpenAI:
        client = self._clients.get(base)
        if client is None:
            import openai

            timeout = openai.Timeout(self.settings.read_timeout, connect=self.settings.connect_timeout)
            client = openai.OpenAI(
                api_key=self.settings.key_value(), base_url=base, timeout=timeout, max_retries=0
            )
            self._clients[base] = client
        return client

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()

    def _preflight(self) -> None:
        """Resolve the host and open a TCP connection, both within the connect timeout, once per client.

        ``getaddrinfo`` ignores socket timeouts, and importing the SDK costs about a
        second, so an unreachable endpoint is detected here, in a thread bounded by
        the connect timeout, before either can delay the fallback.  Skipped when a
        proxy applies (the proxy, not us, connects to the host).
        """
        if self._reachable:
            return
        parts = urlsplit(self.configured)
        host = parts.hostname
        if not host:
            raise GradingError(f"invalid endpoint URL ({self.url})")
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            raise GradingError(f"invalid endpoint URL ({self.url})") from None
        if _proxied(parts.scheme, host):
            self._reachable = True
            return
        limit = self.settings.connect_timeout
        outcome: dict[str, Any] = {"stage": "dns"}

        def probe() -> None:
            try:
                socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                outcome["stage"] = "connect"
                with socket.create_connection((host, port), timeout=limit):
                    outcome["ok"] = True
            except OSError as exc:
                outcome["error"] = exc

        worker = threading.Thread(target=probe, name="interviewer-preflight", daemon=True)
        worker.start()
        worker.join(limit)
        if outcome.get("ok"):
            self._reachable = True
            return
        error = outcome.get("error")
        if outcome["stage"] == "dns":
            if error is None:
                raise GradingError(f"endpoint unreachable: DNS lookup for {host} took over {limit:g} s ({self.url})")
            raise GradingError(f"endpoint unreachable: DNS lookup failed for {host} ({self.url})")
        if error is None or isinstance(error, (TimeoutError, socket.timeout)):
            raise GradingError(f"endpoint unreachable: no connection within {limit:g} s ({self.url})")
        if isinstance(error, ConnectionRefusedError):
            raise GradingError(f"endpoint unreachable: connection refused ({self.url})")
        raise GradingError(self._scrub(f"endpoint unreachable: {error.strerror or error} ({self.url})"))

    def _request(self, op: Callable[[OpenAI], T], model: str | None = None) -> T:
        """Run ``op`` against the working base URL with our error and retry policy."""
        self._preflight()
        import openai

        candidates = self._candidates()
        for i, base in enumerate(candidates):
            try:
                result = self._rate_limited(functools.partial(self._op_at, op, base))
            except openai.NotFoundError as exc:
                if i + 1 < len(candidates):
                    log.debug("404 at %s; retrying with /v1", safe_url(base))
                    continue
                raise GradingError(self._scrub(status_reason(404, exc, base, model))) from None
            except openai.APIStatusError as exc:
                raise self._status_error(exc, base, model) from None
            except openai.APIConnectionError as exc:
                raise GradingError(self._scrub(connection_reason(exc, base, self.settings))) from None
            except openai.APIError as exc:  # e.g. an error event inside a stream
                raise GradingError(self._scrub(f"endpoint reported an error: {exc}")) from None
            except (CallbackFailed, GradingError, _NoStream):
                raise
            except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
                raise GradingError(
                    self._scrub(f"endpoint sent a malformed reply ({type(exc).__name__}: {exc})")
                ) from None
            if self.base != base:
                self.base = base
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _op_at(self, op: Callable[[OpenAI], T], base: str) -> T:
        """``op`` against the client for ``base`` (a named step, so the retry loop can bind ``base`` now)."""
        return op(self._client(base))

    def _rate_limited(self, call: Callable[[], T]) -> T:
        import openai

        try:
            return call()
        except openai.RateLimitError as exc:
            if not self._retry_429:
                raise
            wait = _retry_after(exc.response.headers)
            wait = DEFAULT_RETRY_AFTER if wait is None else wait
            if wait > self._retry_after_cap:
                raise GradingError(
                    f"rate limited by the endpoint (429 Too Many Requests); it asked to wait {wait:g} s"
                ) from None
            log.info("429 from %s; retrying once in %.1f s", self.url, wait)
            self._sleep(wait)
        try:
            return call()
        except openai.RateLimitError:
            raise GradingError("rate limited by the endpoint (429 Too Many Requests), again after one retry") from None

    def _status_error(self, exc: Any, base: str, model: str | None) -> GradingError:
        status = int(getattr(exc, "status_code", 0) or 0)
        detail = server_message(exc, full=True)
        reason = self._scrub(status_reason(status, exc, base, model))
        if status in (400, 413, 422) and _is_context_error(detail):
            return GradingError(self._scrub(f"the request does not fit the model's context window: {detail}"))
        if status in (400, 422) or (status >= 500 and mentions_format(detail)):
            return _Rejected(reason, detail)
        return GradingError(reason)

    def _scrub(self, text: str) -> str:
        return scrub(text, self.settings)

    # ------------------------------------------------------------------ models

    def list_models(self) -> list[str]:
        """Model ids from ``/models``, in the server's order."""

        def op(client: OpenAI) -> list[str]:
            page = client.models.list()
            data = getattr(page, "data", None) or []
            return [str(m.id) for m in data if getattr(m, "id", None)]

        return self._request(op)

    def model(self) -> str:
        """The configured model, or the first one the endpoint lists."""
        if not self.model_name:
            ids = self.list_models()
            if not ids:
                raise GradingError(f"the endpoint lists no models; pass --model ({self.url})")
            self.model_name = ids[0]
        return self.model_name

    # ------------------------------------------------------------------ chat

    def memory(self, model: str) -> EndpointMemory:
        memory = self.cache.get(self.configured, model) or EndpointMemory()
        if memory.base and not self.base and memory.base in self._candidates():
            self.base = memory.base
        return memory

    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        schema: dict[str, Any] | None = None,
        grammar_schema: dict[str, Any] | None = None,
        on_text: TextCallback | None = None,
        fresh: bool = False,
    ) -> Completion:
        """One completion.  With ``schema``, negotiate the strictest structured mode the endpoint accepts.

        ``grammar_schema`` is a variant with length limits for grammar-compiling servers.
        ``fresh`` ignores what was remembered and negotiates from the top (used by ``interviewer check``).
        """
        model = self.model()
        memory = EndpointMemory() if fresh else self.memory(model)
        modes: tuple[Mode, ...] = modes_from(memory.mode) if schema is not None else ("text",)
        stream = memory.stream
        options: dict[str, Any] = {"max_tokens": max_tokens, "temperature": 0}
        last: _Rejected | None = None
        index = 0
        for _attempt in range(len(modes) + 4):  # every step changes something, so this is bounded
            if index >= len(modes):
                if not stream:
                    break
                stream, index = False, len(modes) - 1  # last resort: plain text without streaming
            mode = modes[index]
            try:
                completion = self._request(
                    functools.partial(
                        self._complete,
                        model=model,
                        messages=messages,
                        mode=mode,
                        schemas=(schema, grammar_schema),
                        options=options,
                        stream=stream,
                        on_text=on_text,
                    ),
                    model,
                )
            except _NoStream:
                stream = False
                continue
            except _Rejected as exc:
                last = exc
                detail = exc.detail.lower()
                if "max_tokens" in detail and "max_completion_tokens" in detail and "max_tokens" in options:
                    options["max_completion_tokens"] = options.pop("max_tokens")
                elif "temperature" in detail and "temperature" in options:
                    options.pop("temperature")
                elif stream and "stream" in detail:
                    stream = False
                else:
                    index += 1
                continue
            if schema is not None and (memory.mode, memory.stream, memory.base) != (mode, stream, self.base):
                self.cache.put(self.configured, model, EndpointMemory(mode=mode, stream=stream, base=self.base))
            self.last = completion
            return completion
        raise GradingError(last.reason if last else f"the endpoint rejected every request format ({self.url})")

    def _complete(
        self,
        client: OpenAI,
        model: str,
        messages: Sequence[Message],
        mode: Mode,
        schemas: tuple[dict[str, Any] | None, dict[str, Any] | None],
        options: dict[str, Any],
        stream: bool,
        on_text: TextCallback | None,
    ) -> Completion:
        started = time.monotonic()
        extra: dict[str, Any] = {}
        schema, grammar_schema = schemas
        fmt = format_for(mode, schema, grammar_schema) if schema is not None else None
        if fmt is not None:
            extra["response_format"] = fmt  # sent verbatim: the SDK must not reshape llama.cpp's ``schema`` key
        kwargs: dict[str, Any] = {"model": model, "messages": list(messages), **options}
        if extra:
            kwargs["extra_body"] = extra
        if stream:
            text, finish = self._read_stream(client, kwargs, on_text, started)
        else:
            text, finish = _choice(client.chat.completions.create(**kwargs))
            if on_text is not None and text:
                _deliver(on_text, text)
        if len(text) > MAX_REPLY_CHARS:
            raise GradingError(f"model reply too long ({len(text):,} characters); runaway generation")
        return Completion(
            text=text, finish_reason=finish, model=model, mode=mode, streamed=stream, seconds=time.monotonic() - started
        )

    def _read_stream(
        self, client: OpenAI, kwargs: dict[str, Any], on_text: TextCallback | None, started: float
    ) -> tuple[str, str | None]:
        limit = self.settings.read_timeout * TOTAL_TIME_FACTOR
        parts: list[str] = []
        size = 0
        finish: str | None = None
        events = 0
        next_check = REPEAT_CHECK_EVERY
        with client.chat.completions.create(**kwargs, stream=True) as chunks:
            ctype = chunks.response.headers.get("content-type", "")
            if "json" in ctype and "event-stream" not in ctype:  # the server ignored stream=True
                text, finish = _choice_json(json.loads(chunks.response.read()))
                if on_text is not None and text:
                    _deliver(on_text, text)
                return text, finish
            for chunk in chunks:
                events += 1
                if time.monotonic() - started > limit:
                    raise GradingError(f"model reply took longer than {limit:g} s; gave up")
                choices = getattr(chunk, "choices", None) or []
                if not choices:
                    continue
                choice = choices[0]
                delta = getattr(choice, "delta", None)
                piece = getattr(delta, "content", None) if delta is not None else None
                if isinstance(piece, str) and piece:
                    parts.append(piece)
                    size += len(piece)
                    if size > MAX_REPLY_CHARS:
                        raise GradingError(f"model reply too long (over {MAX_REPLY_CHARS:,} characters)")
                    if size >= next_check:
                        next_check = size + REPEAT_CHECK_EVERY
                        if _repeating("".join(parts)):
                            raise GradingError("model output was repeating itself (runaway generation); gave up")
                    if on_text is not None:
                        _deliver(on_text, piece)
                if getattr(choice, "finish_reason", None):
                    finish = str(choice.finish_reason)
        if events == 0:
            raise _NoStream()
        if finish is None:
            raise GradingError("model reply ended early: the stream closed before it finished")
        return "".join(parts), finish


def _repeating(text: str) -> bool:
    """Whether the tail of ``text`` already occurred twice before: a small model stuck in a loop."""
    tail = text[-REPEAT_TAIL:]
    return len(tail) == REPEAT_TAIL and text.count(tail) >= 3


def _deliver(on_text: TextCallback, text: str) -> None:
    try:
        on_text(text)
    except Exception as exc:
        raise CallbackFailed(exc) from exc


def _choice(completion: Any) -> tuple[str, str | None]:
    if isinstance(completion, (str, bytes)):
        raise ValueError("the reply was not JSON")
    choices = getattr(completion, "choices", None)
    if not choices:
        raise ValueError("the reply has no choices")
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None) if message is not None else None
    finish = getattr(choices[0], "finish_reason", None)
    return (content if isinstance(content, str) else ""), (str(finish) if finish else None)


def _choice_json(data: Any) -> tuple[str, str | None]:
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list) or not data["choices"]:
        raise ValueError("the reply has no choices")
    first = data["choices"][0]
    if not isinstance(first, dict):
        raise ValueError("the reply's choice is not an object")
    message = first.get("message") or {}
    content = message.get("content") if isinstance(message, dict) else None
    finish = first.get("finish_reason")
    return (content if isinstance(content, str) else ""), (str(finish) if finish else None)

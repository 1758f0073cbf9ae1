"""Turn client failures into one-line, key-free reasons.

Every fallback reason is shown in the UI and stored in transcripts, so it must
be one line, say what happened in the user's terms, and never contain the API
key.  Servers sometimes echo request headers in error bodies, so the key is
scrubbed from every string that leaves the grading package, not only from
the ones we build.
"""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit, urlunsplit

from interviewer.config import PLACEHOLDER_KEY, Settings

MAX_REASON = 240
REDACTED = "[redacted]"
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s'\",}]+")


class CallbackFailed(Exception):
    """``on_chunk`` raised; the caller's exception is re-raised instead of falling back."""

    def __init__(self, original: BaseException):
        self.original = original
        super().__init__(repr(original))


def scrub(text: str, settings: Settings | None = None, secret: str | None = None) -> str:
    """Remove the API key (and any bearer token) from ``text`` and make it one line."""
    secrets = [s for s in (secret, _key(settings)) if s and s != PLACEHOLDER_KEY]
    for value in secrets:
        text = text.replace(value, REDACTED)
        if len(value) >= 12:  # a server may echo a prefix or a suffix of the key
            text = text.replace(value[:12], REDACTED).replace(value[-12:], REDACTED)
    text = _BEARER.sub(r"\1" + REDACTED, text)
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


def _key(settings: Settings | None) -> str | None:
    if settings is None or settings.api_key is None:
        return None
    return settings.api_key.get_secret_value()


def safe_url(url: str) -> str:
    """``url`` without user info (``user:pass@``), query or fragment: safe to show."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid url>"
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in seen and len(seen) < 12:
        seen.append(cur)
        cur = cur.__cause__ or cur.__context__
    return seen


_DNS_WORDS = ("name or service not known", "nodename nor servname", "getaddrinfo", "name resolution", "no address")


def connection_reason(exc: BaseException, url: str, settings: Settings) -> str:
    """Reason for an exception raised before any HTTP status arrived."""
    names = {type(e).__name__ for e in _chain(exc)}
    text = " | ".join(str(e) for e in _chain(exc)).lower()
    where = safe_url(url)
    if "ConnectTimeout" in names or "PoolTimeout" in names:
        return f"endpoint unreachable: no connection within {settings.connect_timeout:g} s ({where})"
    if names & {"ReadTimeout", "WriteTimeout", "TimeoutException", "APITimeoutError"}:
        return f"endpoint timed out: no reply within {settings.read_timeout:g} s ({where})"
    if any(isinstance(e, ConnectionRefusedError) for e in _chain(exc)) or "connection refused" in text:
        return f"endpoint unreachable: connection refused ({where})"
    if any(isinstance(e, socket.gaierror) for e in _chain(exc)) or any(w in text for w in _DNS_WORDS):
        return f"endpoint unreachable: DNS lookup failed for {urlsplit(where).hostname} ({where})"
    if names & {"RemoteProtocolError", "ReadError"}:
        return f"connection dropped mid-reply ({where})"
    if "UnsupportedProtocol" in names or "InvalidURL" in names:
        return f"invalid endpoint URL ({where})"
    detail = str(exc.__cause__ or exc) or type(exc).__name__
    return f"endpoint unreachable: {detail} ({where})"


_STATUS_TEXT = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    408: "Request Timeout",
    413: "Payload Too Large",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def server_message(exc: BaseException, *, full: bool = False) -> str:
    """The server's own error message from an ``APIStatusError`` (first line unless ``full``)."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        msg = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(msg, str):
            text = msg.strip()
    elif isinstance(body, str):
        text = body.strip()
    if full or not text:
        return text
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0]
    if first.endswith(":") and len(lines) > 1:  # "1 validation error:" says nothing on its own
        first = f"{first} {lines[1]}"
    return first


def status_reason(status: int, exc: BaseException, url: str, model: str | None) -> str:
    """Reason for an HTTP error status."""
    label = f"{status} {_STATUS_TEXT.get(status, '')}".strip()
    where = safe_url(url)
    detail = server_message(exc)
    suffix = f": {detail[:120]}" if detail else ""
    if status == 401:
        return f"endpoint rejected the API key ({label}) at {where}"
    if status == 403:
        return f"access denied by the endpoint ({label}) at {where}"
    if status == 404:
        what = f"model {model!r} or the chat endpoint" if model else "the endpoint path"
        return f"not found ({label}): {what} at {where}"
    if status == 429:
        return f"rate limited by the endpoint ({label}){suffix}"
    if status >= 500:
        return f"endpoint error ({label}){suffix}"
    return f"endpoint refused the request ({label}){suffix}"

"""Tolerant parsing of a model's grade reply, then strict validation.

Local models wrap JSON in ``<think>`` blocks and code fences, add prose
around it, leave trailing commas, use single quotes or Python literals, and
sometimes stop before the last bracket.  We undo all of that, but a reply cut
off by the token limit (``finish_reason == "length"``) is never repaired into
a score: the caller retries with a larger budget or falls back.  Whatever
comes out must then pass the ``LLMReply`` pydantic model, or the grade falls
back to offline scoring with the validation problem as its reason.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from interviewer.content.schema import DIMENSIONS, Dimension
from interviewer.grading.types import GradingError

MAX_FEEDBACK_CHARS = 4000
MAX_STREAMED_FEEDBACK = 600
"""Grammar limit on feedback length (about 100 words; the prompt asks for under 80)."""

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.S)
_SCORE_TEXT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:/\s*4)?\s*$")


# --------------------------------------------------------------------------- the reply model


def _as_list(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    return value


class ReplyDimension(BaseModel):
    """One dimension as the model scored it; the score is clamped to 0-4."""

    model_config = ConfigDict(extra="ignore")

    score: int
    evidence: list[str] = Field(default_factory=list)
    missing: list[str] | None = None
    """None when the model did not say; then the offline grader's list is used."""

    @field_validator("score", mode="before")
    @classmethod
    def _number(cls, value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError("score must be a number 0-4, not true/false")
        if isinstance(value, str):
            match = _SCORE_TEXT.match(value)
            if not match:
                raise ValueError(f"score must be a number 0-4, got {value[:20]!r}")
            value = float(match.group(1))
        if not isinstance(value, (int, float)) or value != value:  # NaN
            raise ValueError("score must be a number 0-4")
        return max(0, min(4, round(value)))

    @field_validator("evidence", mode="before")
    @classmethod
    def _evidence(cls, value: Any) -> Any:
        value = _as_list(value)
        return [v for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else value

    @field_validator("missing", mode="before")
    @classmethod
    def _missing(cls, value: Any) -> Any:
        if value is None:
            return None
        value = _as_list(value)
        return [v for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else value


def _dim_key(key: str) -> str:
    return re.sub(r"[\s-]+", "_", key.strip().lower())


class LLMReply(BaseModel):
    """What the grader prompt asks for.  Every dimension must be present with a numeric score."""

    model_config = ConfigDict(extra="ignore")

    feedback: str = ""
    dimensions: dict[Dimension, ReplyDimension]
    flags: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        """Accept common near-misses: ``scores`` for ``dimensions``, dimensions at top level, bare numbers."""
        if not isinstance(data, dict):
            raise ValueError("the reply is not a JSON object")
        data = dict(data)
        dims = data.get("dimensions", data.get("scores"))
        if not isinstance(dims, dict):
            dims = {k: v for k, v in data.items() if _dim_key(str(k)) in DIMENSIONS}
        dims = {_dim_key(str(k)): ({"score": v} if not isinstance(v, dict) else v) for k, v in dims.items()}
        missing = [d for d in DIMENSIONS if d not in dims]
        if missing:
            raise ValueError(f"no score for {', '.join(missing)}")
        data["dimensions"] = {d: dims[d] for d in DIMENSIONS}
        feedback = data.get("feedback")
        data["feedback"] = feedback.strip()[:MAX_FEEDBACK_CHARS] if isinstance(feedback, str) else ""
        flags = _as_list(data.get("flags"))
        data["flags"] = [f for f in flags if isinstance(f, str)] if isinstance(flags, list) else []
        return data


def reply_schema(*, bounded: bool = False) -> dict[str, Any]:
    """JSON schema of the reply, in the strict form OpenAI's ``json_schema`` mode requires.

    ``feedback`` comes first so that it streams first and the scores follow the reasoning.
    ``bounded`` adds length limits, for servers that compile the schema into a grammar
    (llama-cpp-python's ``json_object`` + ``schema``): a small model that loops inside
    a string is then forced to close it, so the reply fits the token budget.  OpenAI's
    strict mode rejects some of these keywords, so they are not sent there.
    """

    def text(limit: int) -> dict[str, Any]:
        return {"type": "string", "maxLength": limit} if bounded else {"type": "string"}

    def items(limit: int, count: int) -> dict[str, Any]:
        return {"type": "array", "items": text(limit), **({"maxItems": count} if bounded else {})}

    dim = {
        "type": "object",
        "properties": {
            "score": {"type": "integer", "minimum": 0, "maximum": 4},
            "evidence": items(160, 2),
            "missing": items(100, 2),
        },
        "required": ["score", "evidence", "missing"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "feedback": text(MAX_STREAMED_FEEDBACK),
            "dimensions": {
                "type": "object",
                "properties": {d: dim for d in DIMENSIONS},
                "required": list(DIMENSIONS),
                "additionalProperties": False,
            },
            "flags": items(20, 3),
        },
        "required": ["feedback", "dimensions", "flags"],
        "additionalProperties": False,
    }


# --------------------------------------------------------------------------- text clean-up


def strip_wrappers(text: str) -> str:
    """Drop ``<think>`` blocks (closed or not) and code fences; keep what the model meant as its answer."""
    text = _THINK.sub("", text)
    lower = text.lower()
    for tag in ("</think>", "</thinking>", "</reasoning>"):
        end = lower.rfind(tag)
        if end >= 0:  # an opening tag in the chat template, only the close in the reply
            text, lower = text[end + len(tag) :], lower[end + len(tag) :]
    for tag in ("<think>", "<thinking>", "<reasoning>"):
        start = lower.find(tag)
        if start >= 0:  # never closed: everything after it is thinking
            text, lower = text[:start], lower[:start]
    fenced = [block for block in _FENCE.findall(text) if "{" in block]
    if fenced:
        return str(fenced[0]).strip()
    return text.replace("```json", "").replace("```", "").strip()


def outermost_object(text: str) -> tuple[str, bool]:
    """The first ``{...}`` span (string-aware), and whether it was closed."""
    start = text.find("{")
    if start < 0:
        raise GradingError("model reply contained no JSON object")
    depth = 0
    quote: str | None = None
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            continue
        if ch in "\"'":
            prev = text[i - 1] if i > start else ""
            if ch == '"' or not prev.isalnum():  # an apostrophe inside a bare word is not a quote
                quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1], True
    return text[start:], False


_BARE = {"True": "true", "False": "false", "None": "null", "true": "true", "false": "false", "null": "null"}


def repair_json(text: str, *, close: bool) -> str:
    """Fix single quotes, Python literals, unquoted keys, comments and trailing commas.

    With ``close``, also close an unterminated string and any open brackets at
    the end.  The caller passes ``close=False`` for output cut off by the token
    limit: a half-written grade must not be completed into a score.
    """
    out: list[str] = []
    stack: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j, buf = i + 1, []
            while j < n and text[j] != ch:
                if text[j] == "\\" and j + 1 < n:
                    nxt = text[j + 1]
                    buf.append("'" if nxt == "'" else "\\" + nxt)
                    j += 2
                    continue
                buf.append('\\"' if text[j] == '"' else text[j])
                j += 1
            if j >= n and not close:
                raise GradingError("model reply has an unterminated string")
            out.append('"' + "".join(buf) + '"')
            i = j + 1
            continue
        if ch == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_-"):
                j += 1
            word = text[i:j]
            k = j
            while k < n and text[k] in " \t\r\n":
                k += 1
            if k < n and text[k] == ":":
                out.append(json.dumps(word))
            else:
                out.append(_BARE.get(word, word))
            i = j
            continue
        if ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            _drop_trailing_comma(out)
            if stack:
                stack.pop()
        out.append(ch)
        i += 1
    if stack:
        if not close:
            raise GradingError("model reply ended before its JSON was closed")
        _drop_trailing_comma(out)
        if out and out[-1].rstrip().endswith(":"):
            out.append("null")
        out.extend(reversed(stack))
    return "".join(out)


def _drop_trailing_comma(out: list[str]) -> None:
    while out and not out[-1].strip():
        out.pop()
    if out and out[-1].rstrip().endswith(","):
        out[-1] = out[-1].rstrip()[:-1]


def load_json(text: str, finish_reason: str | None) -> Any:
    """The JSON object in ``text``, repaired if needed."""
    candidate, closed = outermost_object(strip_wrappers(text))
    try:
        return json.loads(candidate, strict=False)
    except ValueError:
        pass
    try:
        return json.loads(repair_json(candidate, close=not closed and finish_reason != "length"), strict=False)
    except json.JSONDecodeError as exc:
        raise GradingError(f"model reply was not valid JSON ({exc.msg} at character {exc.pos})") from None


def parse_reply(text: str, finish_reason: str | None) -> LLMReply:
    """Validate a finished reply.  Raises ``GradingError`` with a one-line reason."""
    if finish_reason == "length":
        raise GradingError("model output was cut off (finish_reason=length)")
    if finish_reason == "content_filter":
        raise GradingError("model refused to grade (finish_reason=content_filter)")
    if not text.strip():
        raise GradingError("model reply was empty")
    data = load_json(text, finish_reason)
    try:
        return LLMReply.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"]) or "reply"
        raise GradingError(f"model reply did not match the grade schema: {where}: {err['msg']}") from None

"""Structured-output negotiation: which ``response_format`` an endpoint accepts, remembered per model.

Servers differ: OpenAI, vLLM, Ollama and llama.cpp's C++ server accept
``json_schema``; llama-cpp-python accepts ``json_object`` with a ``schema``
key (it turns it into a grammar) but answers ``json_schema`` with a 500;
LM Studio answers 400 to ``json_object``.  We try the strictest mode first
and step down on 400/422 (or a 5xx that names ``response_format``), then
remember what worked for the (base URL, model) pair in memory and in a small
JSON file under ``paths.cache_dir()`` so the next session starts right.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from interviewer import paths
from interviewer.atomic import write_atomic

log = logging.getLogger("interviewer.grading")

Mode = Literal["json_schema", "json_object+schema", "json_object", "text"]
MODES: tuple[Mode, ...] = ("json_schema", "json_object+schema", "json_object", "text")
CACHE_FILE = "structured-output.json"
SCHEMA_NAME = "interview_grade"


def response_format(
    mode: Mode, schema: dict[str, Any], grammar_schema: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The ``response_format`` request field for ``mode``; None for plain text.

    ``grammar_schema`` (default ``schema``) is sent in ``json_object+schema`` mode, where
    the server compiles it into a grammar and honours length limits.
    """
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": schema}}
    if mode == "json_object+schema":
        return {"type": "json_object", "schema": grammar_schema or schema}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def modes_from(mode: Mode) -> tuple[Mode, ...]:
    """``mode`` and every weaker mode after it."""
    return MODES[MODES.index(mode) :]


def mentions_format(message: str) -> bool:
    """Whether a server's error message is about the response format (llama-cpp-python says so in a 500)."""
    text = message.lower()
    return any(word in text for word in ("response_format", "json_schema", "json_object", "grammar"))


@dataclass
class EndpointMemory:
    """What we learned about one (base URL, model) pair."""

    mode: Mode = "json_schema"
    stream: bool = True
    base: str | None = None
    """The working base URL, e.g. with ``/v1`` appended after a 404."""


class ModeCache:
    """In-memory map backed by a JSON file; file problems are logged and ignored (it is only a cache)."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._mem: dict[str, EndpointMemory] | None = None

    @property
    def path(self) -> Path:
        return self._path or paths.cache_dir() / CACHE_FILE

    @staticmethod
    def key(base_url: str, model: str) -> str:
        return f"{base_url.rstrip('/')}|{model}"

    def get(self, base_url: str, model: str) -> EndpointMemory | None:
        with self._lock:
            found = self._load().get(self.key(base_url, model))
            return EndpointMemory(**asdict(found)) if found else None

    def put(self, base_url: str, model: str, memory: EndpointMemory) -> None:
        with self._lock:
            mem = self._load()
            key = self.key(base_url, model)
            if mem.get(key) == memory:
                return
            mem[key] = EndpointMemory(**asdict(memory))
            self._save(mem)

    def forget(self, base_url: str, model: str) -> None:
        """Drop what was learned, so the next call negotiates from the strictest mode again."""
        with self._lock:
            mem = self._load()
            if mem.pop(self.key(base_url, model), None) is not None:
                self._save(mem)

    def _load(self) -> dict[str, EndpointMemory]:
        if self._mem is not None:
            return self._mem
        self._mem = {}
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return self._mem
        except (OSError, ValueError) as exc:
            log.debug("ignoring unreadable structured-output cache %s: %s", self.path, exc)
            return self._mem
        if isinstance(raw, dict):
            for key, value in raw.items():
                if isinstance(value, dict) and value.get("mode") in MODES:
                    self._mem[key] = EndpointMemory(
                        mode=value["mode"], stream=bool(value.get("stream", True)), base=value.get("base")
                    )
        return self._mem

    def _save(self, mem: dict[str, EndpointMemory]) -> None:
        path = self.path
        data = json.dumps({k: asdict(v) for k, v in mem.items()}, indent=2, sort_keys=True).encode("utf-8")
        try:
            write_atomic(path, data)
        except OSError as exc:
            log.debug("could not write structured-output cache %s: %s", path, exc)


_DEFAULT_CACHE: ModeCache | None = None


def default_cache() -> ModeCache:
    """The process-wide cache, so every grader in a session shares what was learned."""
    global _DEFAULT_CACHE
    path = paths.cache_dir() / CACHE_FILE
    if _DEFAULT_CACHE is None or _DEFAULT_CACHE.path != path:  # tests point the cache dir elsewhere
        _DEFAULT_CACHE = ModeCache(path)
    return _DEFAULT_CACHE

"""Typed settings in one place.  Precedence: flag > env > config file > default.

The config file is TOML at ``paths.config_file()`` (``$INTERVIEWER_CONFIG``
overrides it).  Example::

    base_url = "http://127.0.0.1:8080/v1"
    model = "qwen2.5-7b-instruct"
    api_key_env = "MY_KEY_VAR"      # the key itself never goes in this file
    transcripts_dir = "~/interviews"
    cases_dir = "~/my-cases"
    phase_timeout = "soft"          # or "strict"
    connect_timeout = 2.0
    read_timeout = 60.0
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from interviewer import paths

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PLACEHOLDER_KEY = "not-needed"
"""Sent to servers that need no key (llama.cpp, Ollama, LM Studio): the client library insists on one."""


class SettingsError(Exception):
    """A config problem, reported as one line naming the file, field or flag."""


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str | None = None
    """OpenAI-compatible endpoint; with or without ``/v1``.  None means offline grading."""
    model: str | None = None
    """Model name; None means the first one listed by ``/v1/models``."""
    api_key: SecretStr | None = None
    """Never written anywhere; ``SecretStr`` keeps it out of reprs and logs."""
    api_key_env: str | None = None
    """Name of the env var that holds the key (``--api-key-env``)."""
    offline: bool = False
    """Force offline keyword grading even when an endpoint is configured."""
    connect_timeout: float = Field(default=2.0, gt=0, le=60)
    """Seconds to wait for a TCP connection; the fallback arrives within this plus one second."""
    read_timeout: float = Field(default=60.0, gt=0, le=600)
    """Seconds to wait for the next bytes of a reply."""
    transcripts_dir: Path = Field(default_factory=paths.default_transcripts_dir)
    """Where sessions are saved."""
    cases_dir: Path | None = None
    """A folder of user cases loaded beside the built-in ones."""
    phase_timeout: Literal["soft", "strict"] = "soft"
    """At the end of a phase: 'strict' moves on, 'soft' lets the candidate finish."""
    config_path: Path | None = None
    """The config file that was read, if any (for messages)."""

    @property
    def online(self) -> bool:
        return bool(self.base_url) and not self.offline

    def key_value(self) -> str:
        return self.api_key.get_secret_value() if self.api_key else PLACEHOLDER_KEY


_FILE_FIELDS = {
    "base_url": str,
    "model": str,
    "api_key_env": str,
    "offline": bool,
    "connect_timeout": (int, float),
    "read_timeout": (int, float),
    "transcripts_dir": str,
    "cases_dir": str,
    "phase_timeout": str,
}


def _read_file(path: Path, explicit: bool) -> dict[str, Any]:
    if not path.exists():
        if explicit:
            raise SettingsError(f"{path}: config file not found")
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: invalid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read config: {exc}") from None
    for key, value in data.items():
        if key == "api_key":
            raise SettingsError(f"{path}: api_key: keys do not belong in the config file; set api_key_env instead")
        expected = _FILE_FIELDS.get(key)
        if expected is None:
            raise SettingsError(f"{path}: {key}: unknown setting (known: {', '.join(sorted(_FILE_FIELDS))})")
        if not isinstance(value, expected) or (expected is not bool and isinstance(value, bool)):
            raise SettingsError(f"{path}: {key}: wrong type {type(value).__name__}")
    return data


def load_settings(args: argparse.Namespace | None = None, env: dict[str, str] | None = None) -> Settings:
    """Resolve settings from flags (``args``), the environment and the config file."""
    env = dict(os.environ if env is None else env)
    flags = vars(args) if args is not None else {}

    config_flag = flags.get("config")
    if config_flag:
        config_path = Path(config_flag)
    elif env.get(paths.CONFIG_ENV):
        config_path = Path(env[paths.CONFIG_ENV]).expanduser()
    else:
        config_path = paths.config_file()
    file = _read_file(config_path, explicit=bool(config_flag))

    def pick(name: str, *env_names: str) -> Any:
        if flags.get(name) is not None:
            return flags[name]
        for env_name in env_names:
            if env.get(env_name):
                return env[env_name]
        return file.get(name)

    values: dict[str, Any] = {"config_path": config_path if file else None}
    values["base_url"] = pick("base_url", "INTERVIEWER_BASE_URL", "OPENAI_BASE_URL")
    values["model"] = pick("model", "INTERVIEWER_MODEL")
    values["api_key_env"] = pick("api_key_env")
    values["offline"] = bool(
        flags.get("offline") or env.get("INTERVIEWER_OFFLINE") in ("1", "true") or file.get("offline")
    )
    for name in ("connect_timeout", "read_timeout", "phase_timeout"):
        if file.get(name) is not None:
            values[name] = file[name]
    transcripts = pick("transcripts_dir", paths.TRANSCRIPTS_ENV)
    if transcripts:
        values["transcripts_dir"] = Path(transcripts).expanduser()
    cases_dir = pick("cases_dir", "INTERVIEWER_CASES_DIR")
    if cases_dir:
        values["cases_dir"] = Path(cases_dir).expanduser()

    key_env = values["api_key_env"]
    if key_env:
        if key_env not in env:
            raise SettingsError(f"--api-key-env: the environment variable {key_env} is not set")
        values["api_key"] = SecretStr(env[key_env])
    elif env.get("INTERVIEWER_API_KEY"):
        values["api_key"] = SecretStr(env["INTERVIEWER_API_KEY"])
    elif env.get("OPENAI_API_KEY"):
        values["api_key"] = SecretStr(env["OPENAI_API_KEY"])

    try:
        return Settings(**values)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = ".".join(str(p) for p in err["loc"])
        raise SettingsError(f"{config_path}: {field}: {err['msg']}") from None

"""Typed settings in one place.  Precedence: flag > env > config file > default.

``Settings`` is a pydantic-settings model with three sources, strongest first:
the flags (passed as keyword arguments), the environment (each field's
``validation_alias`` names its variables) and the TOML config file at
``$INTERVIEWER_CONFIG`` or the platform's user config dir.  Example file::

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
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, TypeAdapter, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from interviewer import paths
from interviewer.errors import UserError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PLACEHOLDER_KEY = "not-needed"
"""Sent to servers that need no key (llama.cpp, Ollama, LM Studio): the client library insists on one."""

FILE_FORBIDDEN = frozenset({"api_key", "config_path"})
"""Fields the config file may not set: the key never lives in a file, and a file cannot name another file."""

FLAG_FIELDS = {
    "config": "config_path",
    "base_url": "base_url",
    "model": "model",
    "api_key_env": "api_key_env",
    "offline": "offline",
    "transcripts_dir": "transcripts_dir",
    "cases_dir": "cases_dir",
    "phase_timeout": "phase_timeout",
}
"""argparse destinations that are settings, and the field each one sets."""


class SettingsError(UserError):
    """A config problem, reported as one line naming the file, field, variable or flag (exit code 2)."""

    default_code = 2


class Settings(BaseSettings):
    """Everything a command needs to know about the user's set-up, resolved once per run."""

    model_config = SettingsConfigDict(
        extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True, env_ignore_empty=True
    )

    base_url: str | None = Field(None, validation_alias=AliasChoices("INTERVIEWER_BASE_URL", "OPENAI_BASE_URL"))
    """OpenAI-compatible endpoint; with or without ``/v1``.  None means offline grading."""
    model: str | None = Field(None, validation_alias="INTERVIEWER_MODEL")
    """Model name; None means the first one listed by ``/v1/models``."""
    api_key: SecretStr | None = Field(None, validation_alias=AliasChoices("INTERVIEWER_API_KEY", "OPENAI_API_KEY"))
    """Never written anywhere; ``SecretStr`` keeps it out of reprs and logs.  Never read from the config file."""
    api_key_env: str | None = Field(None, validation_alias="INTERVIEWER_API_KEY_ENV")
    """Name of the env var that holds the key (``--api-key-env``); it wins over ``INTERVIEWER_API_KEY``."""
    offline: bool = Field(False, validation_alias="INTERVIEWER_OFFLINE")
    """Force offline keyword grading even when an endpoint is configured."""
    connect_timeout: float = Field(2.0, gt=0, le=60, validation_alias="INTERVIEWER_CONNECT_TIMEOUT")
    """Seconds to wait for a TCP connection; the fallback arrives within this plus one second."""
    read_timeout: float = Field(60.0, gt=0, le=600, validation_alias="INTERVIEWER_READ_TIMEOUT")
    """Seconds to wait for the next bytes of a reply."""
    transcripts_dir: Path = Field(
        default_factory=paths.default_transcripts_dir, validation_alias=paths.TRANSCRIPTS_ENV
    )
    """Where sessions are saved (default ``./transcripts``)."""
    cases_dir: Path | None = Field(None, validation_alias="INTERVIEWER_CASES_DIR")
    """A folder of user cases loaded beside the built-in ones."""
    phase_timeout: Literal["soft", "strict"] = Field("soft", validation_alias="INTERVIEWER_PHASE_TIMEOUT")
    """At the end of a phase: 'strict' moves on, 'soft' lets the candidate finish."""
    config_path: Path | None = None
    """The config file that was read, if any (for messages): ``--config``, else ``$INTERVIEWER_CONFIG``, else the
    platform's user config dir."""

    @property
    def online(self) -> bool:
        """Whether grades should come from the endpoint (one is set and ``--offline`` is not)."""
        return bool(self.base_url) and not self.offline

    def key_value(self) -> str:
        """The key to send, or a placeholder for servers that need none."""
        return self.api_key.get_secret_value() if self.api_key else PLACEHOLDER_KEY

    @field_validator("transcripts_dir", "cases_dir", "config_path", mode="after")
    @classmethod
    def _expand_user(cls, value: Path | None) -> Path | None:
        return value.expanduser() if value is not None else None

    @model_validator(mode="before")
    @classmethod
    def _key_from_named_variable(cls, data: Any) -> Any:
        """``api_key_env`` names the variable holding the key; a name that is not set is an error, not a silent miss."""
        if not isinstance(data, dict):
            return data
        name = data.get("api_key_env")
        if name:
            if name not in os.environ:
                raise SettingsError(f"--api-key-env: the environment variable {name} is not set")
            data = {**data, "api_key": os.environ[name]}
        return data

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Flags, then the declared environment variables, then the TOML file; no dotenv, no secrets dir."""
        return init_settings, _DeclaredEnv(settings_cls, env_settings), _ConfigFile(settings_cls)


def _env_names(field: FieldInfo) -> list[str]:
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        return [c for c in alias.choices if isinstance(c, str)]
    return [alias] if isinstance(alias, str) else []


ENV_NAMES: dict[str, str] = {
    env: name for name, field in Settings.model_fields.items() for env in _env_names(field)
}
"""Every environment variable a setting reads, and the field it sets."""


class _DeclaredEnv(PydanticBaseSettingsSource):
    """The environment, limited to the variables the fields declare.

    pydantic-settings also tries each field's bare name as a variable (so a stray ``MODEL`` in the
    shell would set the model); only the documented ``INTERVIEWER_*``/``OPENAI_*`` names count here.
    """

    def __init__(self, settings_cls: type[BaseSettings], inner: PydanticBaseSettingsSource) -> None:
        super().__init__(settings_cls)
        self._inner = inner

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        # Keyed by field name, like the other sources, so a value here replaces the file's instead of clashing.
        return {ENV_NAMES[k]: v for k, v in self._inner().items() if k in ENV_NAMES}


class _ConfigFile(PydanticBaseSettingsSource):
    """The TOML config file: unknown settings, the key and values of the wrong type are errors naming the file."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        chosen = self.current_state.get("config_path")
        path = Path(chosen).expanduser() if chosen else paths.config_file()
        data = read_config_file(path)
        if data and not chosen:
            data["config_path"] = path
        return data


def read_config_file(path: Path) -> dict[str, Any]:
    """The settings in the TOML file at ``path`` (empty when it does not exist), each checked strictly."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: invalid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read config: {exc}") from None
    fields = Settings.model_fields
    known = sorted(set(fields) - FILE_FORBIDDEN)
    for key, value in data.items():
        if key == "api_key":
            raise SettingsError(f"{path}: api_key: keys do not belong in the config file; set api_key_env instead")
        if key not in known:
            raise SettingsError(f"{path}: {key}: unknown setting (known: {', '.join(known)})")
        if fields[key].annotation in (Path, Path | None):
            if not isinstance(value, str):
                raise SettingsError(f"{path}: {key}: wrong type {type(value).__name__} (expected a path string)")
            continue
        try:
            _strict_adapter(key).validate_python(value, strict=True)
        except ValidationError as exc:
            message = exc.errors(include_url=False)[0]["msg"]
            raise SettingsError(f"{path}: {key}: wrong type {type(value).__name__}: {message}") from None
    return data


def _strict_adapter(name: str) -> TypeAdapter[Any]:
    """A validator for the field's type alone; its range limits are checked with the rest of the model."""
    annotation = Settings.model_fields[name].annotation
    assert annotation is not None, name
    return TypeAdapter(annotation)


def load_settings(args: argparse.Namespace | None = None) -> Settings:
    """Resolve settings from flags (``args``), the environment and the config file.

    Called once per command run (by ``cli.main``); the result is passed to the command, never cached.
    """
    flags = vars(args) if args is not None else {}
    values = {field: flags[dest] for dest, field in FLAG_FIELDS.items() if flags.get(dest) is not None}
    if "config_path" in values and not Path(values["config_path"]).exists():
        raise SettingsError(f"{values['config_path']}: config file not found")
    try:
        return Settings(**values)
    except ValidationError as exc:
        raise SettingsError(_describe(exc, values)) from None


def _describe(exc: ValidationError, flags: Mapping[str, Any]) -> str:
    """One line naming where the bad value came from: the flag, the variable or the config file."""
    err = exc.errors(include_url=False)[0]
    field = str(err["loc"][0]) if err["loc"] else ""
    variables = [env for env, name in ENV_NAMES.items() if name == field and os.environ.get(env)]
    if field in flags:
        origin = f"--{field.replace('_', '-')}"
    elif variables:
        origin = variables[0]
    else:
        origin = f"{flags.get('config_path') or os.environ.get(paths.CONFIG_ENV) or paths.config_file()}: {field}"
    return f"{origin}: {err['msg']}"

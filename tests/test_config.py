"""Settings precedence (flag > env > file > default) and config-file errors."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from interviewer.config import PLACEHOLDER_KEY, SettingsError, load_settings


def _args(**kw) -> argparse.Namespace:
    return argparse.Namespace(**kw)


def test_defaults_are_offline(isolated_env: Path) -> None:
    s = load_settings(_args(), env={})
    assert not s.online
    assert s.key_value() == PLACEHOLDER_KEY
    assert s.connect_timeout == 2.0


def test_precedence(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('base_url = "http://file"\nmodel = "file-model"\nread_timeout = 9\n')
    env = {"INTERVIEWER_CONFIG": str(cfg), "INTERVIEWER_BASE_URL": "http://env", "OPENAI_BASE_URL": "http://openai"}
    s = load_settings(_args(), env=env)
    assert (s.base_url, s.model, s.read_timeout) == ("http://env", "file-model", 9)
    s = load_settings(_args(base_url="http://flag", model="flag-model"), env=env)
    assert (s.base_url, s.model) == ("http://flag", "flag-model")
    s = load_settings(_args(), env={"INTERVIEWER_CONFIG": str(cfg), "OPENAI_BASE_URL": "http://openai"})
    assert s.base_url == "http://openai"
    assert load_settings(_args(offline=True), env=env).online is False


def test_api_key_sources_and_secrecy() -> None:
    s = load_settings(_args(api_key_env="MY_KEY"), env={"MY_KEY": "sk-secret-123", "OPENAI_API_KEY": "other"})
    assert s.key_value() == "sk-secret-123"
    assert "sk-secret-123" not in repr(s)
    assert load_settings(_args(), env={"INTERVIEWER_API_KEY": "a", "OPENAI_API_KEY": "b"}).key_value() == "a"
    with pytest.raises(SettingsError, match="--api-key-env: the environment variable MISSING is not set"):
        load_settings(_args(api_key_env="MISSING"), env={})


@pytest.mark.parametrize(
    "body, message",
    [
        ("base_url = ", "invalid TOML"),
        ("colour = 'blue'", "colour: unknown setting"),
        ('api_key = "sk-x"', "api_key: keys do not belong in the config file"),
        ("read_timeout = 'slow'", "read_timeout: wrong type str"),
        ("read_timeout = -1", "read_timeout"),
        ('phase_timeout = "sometimes"', "phase_timeout"),
    ],
)
def test_bad_config_file_names_file_and_field(tmp_path: Path, body: str, message: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(body)
    with pytest.raises(SettingsError) as err:
        load_settings(_args(), env={"INTERVIEWER_CONFIG": str(cfg)})
    assert str(err.value).startswith(str(cfg))
    assert message in str(err.value)


def test_explicit_missing_config_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="config file not found"):
        load_settings(_args(config=tmp_path / "nope.toml"), env={})


def test_transcripts_dir_env(tmp_path: Path) -> None:
    s = load_settings(_args(), env={"INTERVIEWER_TRANSCRIPTS_DIR": str(tmp_path / "t")})
    assert s.transcripts_dir == tmp_path / "t"
    s = load_settings(_args(transcripts_dir=tmp_path / "flag"), env={"INTERVIEWER_TRANSCRIPTS_DIR": "x"})
    assert s.transcripts_dir == tmp_path / "flag"

"""Settings precedence (flag > env > file > default) and config-file errors."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from interviewer.config import PLACEHOLDER_KEY, Settings, SettingsError, load_settings


def _args(**kw: object) -> argparse.Namespace:
    return argparse.Namespace(**kw)


def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> Path:
    cfg = tmp_path / "c.toml"
    cfg.write_text(body)
    monkeypatch.setenv("INTERVIEWER_CONFIG", str(cfg))
    return cfg


def test_defaults_are_offline(isolated_env: Path) -> None:
    s = load_settings(_args())
    assert not s.online
    assert s.key_value() == PLACEHOLDER_KEY
    assert s.connect_timeout == 2.0
    assert s.config_path is None


def test_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _config(tmp_path, monkeypatch, 'base_url = "http://file"\nmodel = "file-model"\nread_timeout = 9\n')
    monkeypatch.setenv("OPENAI_BASE_URL", "http://openai")
    s = load_settings(_args())
    assert (s.base_url, s.model, s.read_timeout, s.config_path) == ("http://openai", "file-model", 9, cfg)
    monkeypatch.setenv("INTERVIEWER_BASE_URL", "http://env")
    s = load_settings(_args())
    assert (s.base_url, s.model) == ("http://env", "file-model")
    s = load_settings(_args(base_url="http://flag", model="flag-model", command="run", handler=None))
    assert (s.base_url, s.model) == ("http://flag", "flag-model")
    assert load_settings(_args(offline=True)).online is False


def test_env_beats_file_for_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _config(tmp_path, monkeypatch, 'base_url = "http://file"\noffline = true\n')
    assert load_settings(_args()).online is False
    monkeypatch.setenv("INTERVIEWER_OFFLINE", "0")
    assert load_settings(_args()).online is True


def test_bare_field_names_in_the_environment_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL", "stray")
    monkeypatch.setenv("model", "stray")
    monkeypatch.setenv("BASE_URL", "http://stray")
    s = load_settings(_args())
    assert (s.model, s.base_url) == (None, None)


def test_api_key_sources_and_secrecy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "sk-secret-123")
    monkeypatch.setenv("OPENAI_API_KEY", "other")
    s = load_settings(_args(api_key_env="MY_KEY"))
    assert s.key_value() == "sk-secret-123"
    assert "sk-secret-123" not in repr(s)
    monkeypatch.setenv("INTERVIEWER_API_KEY", "a")
    assert load_settings(_args()).key_value() == "a"
    with pytest.raises(SettingsError, match="--api-key-env: the environment variable MISSING is not set"):
        load_settings(_args(api_key_env="MISSING"))


def test_api_key_env_from_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _config(tmp_path, monkeypatch, 'api_key_env = "FILE_NAMED_KEY"\n')
    monkeypatch.setenv("FILE_NAMED_KEY", "sk-from-named-var")
    assert load_settings(_args()).key_value() == "sk-from-named-var"


@pytest.mark.parametrize(
    "body, message",
    [
        ("base_url = ", "invalid TOML"),
        ("colour = 'blue'", "colour: unknown setting"),
        ('api_key = "sk-x"', "api_key: keys do not belong in the config file"),
        ('config_path = "other.toml"', "config_path: unknown setting"),
        ("read_timeout = 'slow'", "read_timeout: wrong type str"),
        ("offline = 1", "offline: wrong type int"),
        ("transcripts_dir = 3", "transcripts_dir: wrong type int"),
        ("read_timeout = -1", "read_timeout: Input should be greater than 0"),
        ('phase_timeout = "sometimes"', "phase_timeout"),
    ],
)
def test_bad_config_file_names_file_and_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, message: str
) -> None:
    cfg = _config(tmp_path, monkeypatch, body)
    with pytest.raises(SettingsError) as err:
        load_settings(_args())
    assert str(err.value).startswith(str(cfg))
    assert message in str(err.value)


def test_bad_env_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERVIEWER_OFFLINE", "sometimes")
    with pytest.raises(SettingsError, match=r"^INTERVIEWER_OFFLINE: "):
        load_settings(_args())


def test_explicit_missing_config_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="config file not found"):
        load_settings(_args(config=tmp_path / "nope.toml"))


def test_config_flag_beats_config_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _config(tmp_path, monkeypatch, 'model = "from-env-file"\n')
    flagged = tmp_path / "flag.toml"
    flagged.write_text('model = "from-flag-file"\n')
    s = load_settings(_args(config=flagged))
    assert (s.model, s.config_path) == ("from-flag-file", flagged)


def test_transcripts_dir_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERVIEWER_TRANSCRIPTS_DIR", str(tmp_path / "t"))
    assert load_settings(_args()).transcripts_dir == tmp_path / "t"
    s = load_settings(_args(transcripts_dir=tmp_path / "flag"))
    assert s.transcripts_dir == tmp_path / "flag"


def test_paths_from_the_file_expand_the_home_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    _config(tmp_path, monkeypatch, 'cases_dir = "~/my-cases"\n')
    assert load_settings(_args()).cases_dir == tmp_path / "my-cases"


def test_every_field_has_a_docstring() -> None:
    """The settings are the user's reference: each one says what it does."""
    import ast
    import inspect

    import interviewer.config as config

    tree = ast.parse(inspect.getsource(config))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings")
    documented = {
        stmt.target.id
        for stmt, nxt in zip(cls.body, cls.body[1:], strict=False)
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and isinstance(nxt, ast.Expr)
        and isinstance(nxt.value, ast.Constant)
    }
    assert set(Settings.model_fields) <= documented

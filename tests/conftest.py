"""Test isolation: every test gets its own config, transcripts and cache dirs, and no endpoint.

Tests never see the developer's real config, keys or transcripts, so a
machine with ``OPENAI_API_KEY`` set behaves exactly like CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.config import ENV_NAMES

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"

_ENDPOINT_VARS = tuple(ENV_NAMES)
"""Every variable a setting reads (endpoint, key, timeouts, folders): none leaks in from the developer's shell."""


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in _ENDPOINT_VARS:
        monkeypatch.delenv(var, raising=False)
    home = tmp_path / "_home"
    home.mkdir()
    monkeypatch.setenv("INTERVIEWER_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("INTERVIEWER_TRANSCRIPTS_DIR", str(home / "transcripts"))
    monkeypatch.setenv("INTERVIEWER_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("INTERVIEWER_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("NO_COLOR", "1")
    return home


@pytest.fixture
def transcripts_dir(isolated_env: Path) -> Path:
    return isolated_env / "transcripts"


@pytest.fixture
def mini_case():
    from interviewer.content.loader import load_case

    return load_case(FIXTURES / "cases" / "mini.yaml")


@pytest.fixture
def rubric():
    from interviewer.content.loader import load_rubric

    return load_rubric(REPO / "rubrics" / "ai-infra.yaml")

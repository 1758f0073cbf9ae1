"""``interviewer check`` against the fake server: what it prints and how it exits."""

from __future__ import annotations

import json

import pytest

from interviewer.cli import main
from interviewer.grading.llm import structured
from tests.fakeserver import MODEL, FakeServer, closed_port, fake_server_fixture  # noqa: F401


@pytest.fixture(autouse=True)
def _fresh_mode_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(structured, "_DEFAULT_CACHE", None)


def test_usable_endpoint_reports_models_mode_and_latency(fake_server: FakeServer, capsys) -> None:
    assert main(["check", "--base-url", fake_server.url]) == 0
    out = capsys.readouterr().out
    assert f"endpoint: {fake_server.url} (reachable)" in out
    assert f"models: {MODEL}" in out
    assert "structured output: json_schema (streaming)" in out
    assert "grading call:" in out and "valid grade" in out
    assert out.strip().splitlines()[-1] == f"ok: grades will come from {MODEL} at {fake_server.url}"


def test_check_negotiates_from_the_top_and_remembers(fake_server: FakeServer, capsys) -> None:
    structured.default_cache().put(fake_server.url, MODEL, structured.EndpointMemory(mode="text"))
    fake_server.default = "llamacpp"
    assert main(["check", "--base-url", fake_server.root, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is True
    assert result["mode"] == "json_object+schema", "a stale remembered mode is re-probed"
    assert result["base_url"] == fake_server.url, "the /v1 the server needed is reported"
    assert result["latency_s"] > 0
    assert structured.default_cache().get(fake_server.root, MODEL).mode == "json_object+schema"


def test_unreachable_endpoint_fails_with_one_line(capsys) -> None:
    # How fast it fails is measured by benchmarks/bench_fallback.py, not asserted here.
    url = f"http://127.0.0.1:{closed_port()}/v1"
    assert main(["check", "--base-url", url]) == 1
    captured = capsys.readouterr()
    assert "(unreachable)" in captured.out
    err = captured.err.strip().splitlines()
    assert err == [f"interviewer: error: check failed: endpoint unreachable: connection refused ({url})"]


def test_not_configured_exits_2(capsys) -> None:
    assert main(["check"]) == 2
    assert "no endpoint configured" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("behaviour", "words"),
    [("401", "rejected the API key"), ("wrong_schema", "did not match the grade schema"), ("429", "429")],
)
def test_unusable_endpoint_exits_1_with_the_reason(fake_server: FakeServer, capsys, behaviour, words) -> None:
    fake_server.default = behaviour
    assert main(["check", "--base-url", fake_server.url]) == 1
    captured = capsys.readouterr()
    assert "(reachable)" in captured.out
    assert words in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    if behaviour == "429":
        assert len(fake_server.chat_requests()) == 1, "check never retries"


def test_models_endpoint_failure_with_a_configured_model_still_tries_a_grade(fake_server: FakeServer, capsys) -> None:
    fake_server.models_status = 404
    assert main(["check", "--base-url", fake_server.url, "--model", "mine"]) == 0
    out = capsys.readouterr().out
    assert "model: mine" in out


def test_config_file_and_key_env_are_honoured(fake_server: FakeServer, capsys, tmp_path, monkeypatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'base_url = "{fake_server.url}"\nmodel = "from-file"\napi_key_env = "CHECK_KEY"\n')
    monkeypatch.setenv("CHECK_KEY", "k-123")
    assert main(["check", "--config", str(config)]) == 0
    assert "model: from-file" in capsys.readouterr().out
    assert fake_server.chat_requests()[0].headers["authorization"] == "Bearer k-123"

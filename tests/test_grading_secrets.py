"""The API key never leaves the process: not in grades, reasons, logs, or CLI output.

The fake server's 401 echoes the Authorization header back in its error
message (some proxies do), which is the hardest case: the key arrives inside
the SDK's exception text.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from interviewer.cli import main
from interviewer.config import Settings
from interviewer.grading.llm import structured
from interviewer.grading.policy import build_grader
from tests.fakeserver import FakeServer, closed_port, fake_server_fixture, kv_request  # noqa: F401

KEY = "sk-test-SECRET-123"
KEY_PARTS = (KEY, "SECRET-123", "sk-test-SECR")
FIXTURE_CASES = Path(__file__).resolve().parent / "fixtures" / "cases"


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(structured, "_DEFAULT_CACHE", None)
    monkeypatch.setenv("MY_GRADER_KEY", KEY)
    caplog.set_level(logging.DEBUG)  # every logger, including openai's and httpx2's request logs


def assert_clean(*texts: str) -> None:
    for text in texts:
        for part in KEY_PARTS:
            assert part not in text, f"key material {part!r} leaked into: {text[:300]}"


@pytest.mark.parametrize("behaviour", ["401", "500", "403", "malformed"])
def test_grade_and_logs_never_contain_the_key(fake_server: FakeServer, mini_case, rubric, caplog, behaviour) -> None:
    fake_server.default = behaviour
    settings = Settings(base_url=fake_server.url, model="m", api_key=SecretStr(KEY), read_timeout=2)
    grader = build_grader(settings)
    grade = grader.grade(kv_request(mini_case, rubric))
    assert grade.grader == "keyword" and grade.fallback_reason
    auth = [r.headers.get("authorization") for r in fake_server.chat_requests()]
    assert auth and auth[0] == f"Bearer {KEY}", "the key is sent to the server, and only there"
    assert_clean(grade.model_dump_json(), grade.fallback_reason, caplog.text, grader.describe(), repr(settings))


def test_unreachable_endpoint_reason_has_no_key(mini_case, rubric, caplog) -> None:
    settings = Settings(base_url=f"http://127.0.0.1:{closed_port()}/v1", api_key=SecretStr(KEY))
    grade = build_grader(settings).grade(kv_request(mini_case, rubric))
    assert "connection refused" in (grade.fallback_reason or "")
    assert_clean(grade.model_dump_json(), caplog.text)


@pytest.mark.parametrize("behaviour", ["401", "500"])
def test_cli_output_never_contains_the_key(fake_server: FakeServer, capsys, caplog, behaviour, tmp_path) -> None:
    fake_server.default = behaviour
    fake_server.models_status = int(behaviour)
    common = ["--base-url", fake_server.url, "--api-key-env", "MY_GRADER_KEY"]
    code = main(["check", *common])
    check = capsys.readouterr()
    assert code == 1
    assert behaviour in check.err

    fake_server.models_status = 200
    answer = tmp_path / "answer.txt"
    answer.write_text("The KV cache holds keys and values for every layer: about 320 KiB per token.")
    code = main(
        [
            "score",
            "--cases-dir",
            str(FIXTURE_CASES),
            "--case",
            "mini",
            "--question",
            "kv-size",
            "--answer-file",
            str(answer),
            "--json",
            "--model",
            "m",
            *common,
        ]
    )
    score = capsys.readouterr()
    assert code == 0
    assert json.loads(score.out)["grader"] == "keyword"
    assert_clean(check.out, check.err, score.out, score.err, caplog.text)

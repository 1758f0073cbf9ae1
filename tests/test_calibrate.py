"""``interviewer calibrate``: offline alone, against a real fake endpoint on 127.0.0.1, stopped by Ctrl+C;
the verdict rules, the saved result and that no secret reaches the output or the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interviewer import calibration_report as report
from interviewer.cli import main
from interviewer.commands.calibrate import spread
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.grading.types import Grade, GradeRequest
from tests.conftest import FIXTURES
from tests.fakeserver import MODEL, FakeServer, fake_server_fixture  # noqa: F401 - the fake_server fixture

SET = FIXTURES / "calibration" / "mini.yaml"
KEY = "sk-test-CALIBRATE-0123456789abcdef"


@pytest.fixture(autouse=True)
def mini_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERVIEWER_CASES_DIR", str(FIXTURES / "cases"))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    code = main(["calibrate", "--set", str(SET), "--json", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_offline_only_says_so_and_saves(capsys, isolated_env: Path) -> None:
    code, data, err = _run(capsys)
    assert code == 0
    assert "no endpoint configured" in err and "graded 12/12 (offline)" in err
    assert data["configured"] is None and data["endpoint"] is None and data["model"] is None
    assert data["partial"] is False
    assert data["set"] == {"path": str(SET), "answers": 12, "questions": 2}
    offline = data["offline"]
    assert offline["answers"] == 12 and offline["fallback_rate"] == 0
    assert -1 <= offline["spearman"] <= 1 and 0 <= offline["within_one"] <= 1
    assert set(offline["dimensions"]) == {"mechanism", "tradeoff", "numbers", "failure_modes"}
    assert data["verdict"].startswith("offline grader only")
    saved = json.loads((isolated_env / "data" / "calibration.json").read_text(encoding="utf-8"))
    assert saved == data
    assert report.load_latest() == data
    assert report.status_line(data).startswith("calibrated ")


def test_text_report_puts_graders_side_by_side(capsys, fake_server: FakeServer, monkeypatch) -> None:
    monkeypatch.setenv("INTERVIEWER_API_KEY", KEY)
    code = main(["calibrate", "--set", str(SET), "--base-url", fake_server.url])
    out, err = capsys.readouterr()
    assert code == 0
    assert "configured" in out and "offline" in out
    for row in ("Spearman, overall", "Exact agreement", "Within one level", "Fallback rate",
                "Latency per grade, median", "Latency per grade, p95", "Verdict: "):
        assert row in out
    assert f"graded 12/12 ({MODEL} at 127.0.0.1:{fake_server.port})" in err
    assert KEY not in out + err


def test_endpoint_figures_fallbacks_and_no_secrets(capsys, fake_server: FakeServer, monkeypatch, isolated_env) -> None:
    monkeypatch.setenv("INTERVIEWER_API_KEY", KEY)
    fake_server.script = ["good", "good", "401", "good"]  # the 401 echoes the key in its body
    code, data, err = _run(capsys, "--base-url", fake_server.url)
    assert code == 0
    assert len(fake_server.chat_requests()) >= 12  # every answer went to the endpoint
    configured = data["configured"]
    assert configured["answers"] == data["offline"]["answers"] == 12
    assert configured["fallback_rate"] == pytest.approx(1 / 12)
    (reason,) = configured["fallback_reasons"]
    assert "API key" in reason
    assert data["endpoint"] == fake_server.url and data["model"] == MODEL
    assert configured["median_s"] <= configured["p95_s"]
    saved = (isolated_env / "data" / "calibration.json").read_text(encoding="utf-8")
    for text in (saved, json.dumps(data), err):
        assert KEY not in text and KEY[:12] not in text


def test_failing_endpoint_verdict_says_fix_it(capsys, fake_server: FakeServer) -> None:
    fake_server.default = "malformed"
    code, data, _ = _run(capsys, "--base-url", fake_server.url)
    assert code == 0
    assert data["configured"]["fallback_rate"] == 1.0
    assert "fix the endpoint" in data["verdict"]


class InterruptingGrader:
    """The configured grader: grades with the offline grader, then Ctrl+C arrives during the 5th grade."""

    name = "llm"
    online = True

    def __init__(self) -> None:
        self.calls = 0
        self.inner = KeywordGrader()

    def describe(self) -> str:
        return "scripted model at 127.0.0.1"

    def grade(self, request: GradeRequest, on_chunk: Any = None) -> Grade:
        self.calls += 1
        if self.calls == 5:
            raise KeyboardInterrupt
        return self.inner.grade(request).model_copy(update={"grader": "llm", "model": "scripted"})


def test_ctrl_c_stops_with_a_partial_result(capsys, monkeypatch, isolated_env) -> None:
    grader = InterruptingGrader()
    monkeypatch.setattr("interviewer.commands.calibrate.grader_for", lambda settings: grader)
    code, data, err = _run(capsys, "--base-url", "http://127.0.0.1:9/v1")
    assert code == 130
    assert "interrupted" in err
    assert data["partial"] is True
    assert data["configured"]["answers"] == 4
    assert data["offline"]["answers"] == 4  # compared on the same answers
    assert data["verdict"].startswith("partial run (4 of 12 answers): too few answers")
    saved = json.loads((isolated_env / "data" / "calibration.json").read_text(encoding="utf-8"))
    assert saved["partial"] is True
    assert "(partial)" in report.status_line(saved)


def test_limit_spreads_over_the_set(capsys) -> None:
    assert spread(list(range(10)), 3) == [0, 3, 6]
    assert spread(list(range(4)), 10) == [0, 1, 2, 3]
    code, data, _ = _run(capsys, "--limit", "4")
    assert code == 0 and data["set"]["answers"] == 4 and data["set"]["questions"] == 2
    assert main(["calibrate", "--set", str(SET), "--limit", "0"]) == 2


def test_unknown_case_in_the_set_is_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(SET.read_text(encoding="utf-8").replace("case: mini", "case: nowhere"), encoding="utf-8")
    assert main(["calibrate", "--set", str(bad)]) == 1
    assert "unknown case 'nowhere'" in capsys.readouterr().err


def _figs(rho: float, within: float = 0.8, fallback: float = 0.0, n: int = 40) -> dict[str, Any]:
    return {"answers": n, "spearman": rho, "within_one": within, "fallback_rate": fallback,
            "fallback_reasons": {"endpoint timed out": 3} if fallback else {}}


@pytest.mark.parametrize(
    ("configured", "offline", "expected"),
    [
        (_figs(0.72), _figs(0.70), "agrees with the labels about as well as the offline grader; "
                                   "trust its ranking of answers, not its exact scores"),
        (_figs(0.90, 0.95), _figs(0.70), "agrees with the labels better than the offline grader; "
                                         "its scores can be relied on as numbers"),
        (_figs(0.90, 0.80), _figs(0.70), "better than the offline grader; trust its ranking"),
        (_figs(0.40), _figs(0.70), "worse than the offline grader; don't rely on it for numbers"),
        (_figs(0.80, fallback=0.6), _figs(0.70), "failed on 60% of answers (mostly: endpoint timed out)"),
        (_figs(0.72, fallback=0.1), _figs(0.70), "(10% of its grades fell back to offline)"),
        (_figs(0.9, n=5), _figs(0.9, n=5), "too few answers graded (5)"),
        (None, _figs(0.5), "offline grader only (rho 0.50 with the labels): don't rely on it for numbers"),
    ],
)
def test_verdict_rules(configured, offline, expected) -> None:
    assert expected in report.verdict(configured, offline, total=40, partial=False)


def test_credentials_in_the_url_are_not_saved(capsys, fake_server: FakeServer, isolated_env) -> None:
    url = fake_server.url.replace("http://", "http://alice:hunter2-password@") + "?token=abc123secret"
    code, data, err = _run(capsys, "--base-url", url, "--limit", "2")
    assert code == 0
    assert data["endpoint"] == fake_server.url
    saved = (isolated_env / "data" / "calibration.json").read_text(encoding="utf-8")
    for text in (saved, err):
        assert "hunter2" not in text and "abc123secret" not in text and "alice" not in text

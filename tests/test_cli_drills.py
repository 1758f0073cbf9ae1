"""``drill`` and ``progress`` as real processes: one-line errors, nothing due, the plot and ``--json``."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from interviewer.content.schema import DIMENSIONS
from interviewer.transcripts import TranscriptStore
from tests.test_cli import CASES, assert_one_line_error, run
from tests.test_drills import grade, session_file

LONG_AGO = datetime(2020, 1, 1, 18, 0, tzinfo=timezone.utc)
WEAK = {"mechanism": 2, "tradeoff": 1, "numbers": 1, "failure_modes": 2}


def history(transcripts: Path, sessions: int, start: datetime = LONG_AGO) -> None:
    store = TranscriptStore(transcripts)
    for i in range(sessions):
        scores = {d: min(4, v + i) for d, v in WEAK.items()}
        session_file(store, f"s{i}", start + timedelta(days=i), {"kv-size": grade(30 + 10 * i, scores)})


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--case", "nope"), "--case: unknown case 'nope'"),
        (("--dimension", "style"), "--dimension: unknown dimension 'style'"),
        (("--count", "0"), "--count must be between 1 and 50"),
        (("--count", "51"), "--count must be between 1 and 50"),
        (("--count", "many"), "invalid int value: 'many'"),
        (("--minutes", "0"), "--minutes must be greater than 0"),
    ],
)
def test_drill_errors_are_one_line(args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run("drill", "--cases-dir", CASES, *args), 2, fragment)


def test_drill_with_nothing_due(transcripts_dir: Path) -> None:
    proc = run("drill")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Nothing is due: answer some questions first")
    store = TranscriptStore(transcripts_dir)
    strong = {d: 4 for d in DIMENSIONS}
    recent = datetime.now(timezone.utc) - timedelta(hours=1)
    session_file(store, "s1", recent, {"kv-size": grade(100, strong), "allreduce": grade(100, strong)})
    proc = run("drill", "--cases-dir", CASES)
    assert proc.returncode == 0, proc.stderr
    assert "Nothing is due. The next question is due in " in proc.stdout and "days" in proc.stdout


def test_drill_plan_and_terminal_guard(transcripts_dir: Path) -> None:
    history(transcripts_dir, 1)
    proc = run("drill", "--cases-dir", CASES, "--plan")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["mini: 2 questions, 5 min", "  kv-size", "  allreduce  (new)"]
    proc = run("drill", "--cases-dir", CASES, "--plan", "--dimension", "tradeoff", "--minutes", "4")
    assert proc.stdout.splitlines() == ["mini: 1 questions, 4 min", "  kv-size"]
    # Without a terminal the app is not started, and the reason is one line.
    assert_one_line_error(run("drill", "--cases-dir", CASES), 2, "needs a terminal")


def test_progress_with_too_little_history(transcripts_dir: Path) -> None:
    history(transcripts_dir, 1)
    proc = run("progress")
    assert proc.returncode == 0, proc.stderr
    assert "Too little history for a trend: 1 graded session (3 or more show one)." in proc.stdout
    assert "flat" not in proc.stdout and " up" not in proc.stdout
    assert "Scores per dimension" not in proc.stdout  # one session is a point, not a plot
    assert "Drill queue: 1 due now" in proc.stdout


def test_progress_plot_and_json(transcripts_dir: Path) -> None:
    history(transcripts_dir, 4)
    proc = run("progress")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Scores per dimension (0-4) by session" in out
    for label in ("Mechanism", "Tradeoff", "Numbers", "Failure modes", "01-01", "01-04"):
        assert label in out
    assert "\x1b[" not in out  # no colour codes into a pipe
    assert "Too little history" not in out
    assert "Tradeoff            1.5     3.5  up" in out  # the two oldest against the two newest
    assert "Weakest questions (latest main answer):" in out and "mini/kv-size" in out

    data = json.loads(run("progress", "--json").stdout)
    assert {"sessions", "early", "recent", "weakest", "drills"} <= set(data)  # the fields it always had
    assert data["enough_history"] is True and data["trend"]["tradeoff"] == "up"
    assert data["weakest_questions"][0]["question_id"] == "kv-size"
    weakest = [(d["dimension"], d["recent"]) for d in data["weakest_dimensions"]]
    assert weakest[:2] == [("tradeoff", 3.5), ("numbers", 3.5)]  # a tie goes to rubric order
    queue = data["drill_queue"]
    assert [item["question"] for item in queue["due"]] == ["kv-size"]
    assert queue["due"][0]["reviews"] == 4 and queue["due"][0]["is_due"] is True
    one = json.loads(run("progress", "--json", "--case", "mini", "--cases-dir", CASES).stdout)
    assert one["enough_history"] is True and len(one["sessions"]) == 4

"""Pilot tests: the home screen shows the latest calibration; the transcript screen shows a turn's grade history."""

from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.calibration_report import save
from interviewer.transcripts import TranscriptStore
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.transcript import TranscriptScreen
from tests import tui_fakes
from tests.tui_fakes import SIZE, ScriptedGrader, build_app, make_grade, saved_transcript, settle, visible_text

pytestmark = pytest.mark.anyio
anyio_backend = tui_fakes.anyio_backend
isolated_config = tui_fakes.isolated_config


async def test_home_shows_latest_calibration_beside_the_grader(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    app = build_app(transcripts, ScriptedGrader([], status="offline keyword scoring"))
    async with app.run_test(size=SIZE) as pilot:  # nothing saved yet: no calibration line
        await settle(pilot)
        assert "Calibration" not in visible_text(app.screen)

    save({
        "date": "2026-11-20T09:30:00+00:00", "partial": True, "endpoint": "http://127.0.0.1:8080/v1",
        "model": "qwen [bold]7b[/bold]", "configured": {"spearman": 0.71}, "offline": {"spearman": 0.76},
        "verdict": "agrees with the labels about as well as the offline grader; don't rely on it for numbers",
    })
    app = build_app(transcripts, ScriptedGrader([], status="offline keyword scoring"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        text = " ".join(visible_text(app.screen).split())
        assert "Calibration calibrated 2026-11-20 (partial)" in text
        assert "qwen [bold]7b[/bold] at http://127.0.0.1:8080/v1" in text  # shown literally, not as markup
        assert "model rho 0.71, offline rho 0.76" in text
        assert "don't rely on it for numbers" in text


async def test_transcript_screen_shows_who_graded_and_when(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    store = TranscriptStore(transcripts)
    t = saved_transcript(store, "20260509-1900-mini-hist", "2026-05-09T19:00:00+00:00", save=False)
    old = make_grade(40, grader="keyword", model=None, fallback_reason="endpoint timed out")  # no graded_at
    newer = make_grade(65, model="qwen [i]7b[/i]").model_copy(update={"graded_at": "2026-05-10T08:15:00+00:00"})
    t.turns[0].previous_grades = [old, newer]
    store.save(t)
    app = build_app(transcripts, ScriptedGrader([]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_transcript(store.path_for(t.id))
        await settle(pilot)
        assert isinstance(app.screen, TranscriptScreen)
        text = visible_text(app.screen)
        assert "Earlier grades, oldest first (the last 5 grades are kept)" in text
        first, second = (line for line in text.splitlines() if line.startswith("  ") and "/100" in line)
        assert first.lstrip().startswith("40/100") and "offline (fallback), time unknown" in first
        assert second.lstrip().startswith("65/100") and "model qwen [i]7b[/i], 2026-05-10" in second
        assert "Mechanism 3 · Tradeoff 2 · Numbers 2 · Failure modes 1" in second

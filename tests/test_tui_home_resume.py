"""Pilot tests of the home screen and of resuming an unfinished session."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from interviewer.session import Session
from interviewer.transcripts import TranscriptStore
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.review import ReviewScreen
from interviewer.tui.screens.session import SessionScreen
from interviewer.tui.screens.start import StartScreen
from interviewer.tui.start import Resume
from tests import tui_fakes
from tests.tui_fakes import SIZE, FakeClock, ScriptedGrader, build_app, make_grade, mini_library, settle, visible_text

pytestmark = pytest.mark.anyio
anyio_backend = tui_fakes.anyio_backend
isolated_config = tui_fakes.isolated_config  # autouse: config and transcripts in the test's temp dir


def unfinished_with_ungraded_answer(transcripts: Path, elapsed: float = 50.0) -> str:
    """A session killed while grading: the answer is saved, its grade never came."""
    lib = mini_library()
    case = lib.cases["mini"]
    clock = FakeClock()
    session = Session.start(case, lib.rubric_for(case), TranscriptStore(transcripts), clock=clock)
    clock.advance(elapsed)
    session.submit("K and V per layer and KV head; about 320 KiB per token.")
    return session.transcript.id


async def test_home_lists_cases_grader_and_offers_resume(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    unfinished_with_ungraded_answer(transcripts)
    app = build_app(transcripts, ScriptedGrader([make_grade()], status="offline keyword scoring"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        options = screen.query_one("#cases", OptionList)
        prompt = str(options.get_option_at_index(0).prompt)
        assert "Mini case for tests" in prompt and "case · 5 min · 2 questions · mini" in prompt
        text = visible_text(screen)
        assert "offline keyword scoring" in text
        assert "Unfinished: Mini case for tests" in text and "Press r to resume" in text


async def test_resume_restores_clock_and_grades_pending_answer(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    transcript_id = unfinished_with_ungraded_answer(transcripts, elapsed=50)
    grader = ScriptedGrader([make_grade(61, follow_up="What if it does not fit?", follow_up_dimension="failure_modes")])
    clock = FakeClock(5000)
    app = build_app(transcripts, grader, clock=clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        # The clock continues from where it stopped (50 s used of 5 min).
        assert screen.session.elapsed() == pytest.approx(50)
        assert "Total 04:10" in visible_text(screen.query_one("#total-clock"))
        # The answer left ungraded was graded on resume, and the follow-up asked.
        assert len(grader.requests) == 1
        assert grader.requests[0].answer.startswith("K and V per layer")
        saved = TranscriptStore(transcripts).load(transcript_id)
        assert saved.turns[0].status == "graded" and saved.turns[0].grade is not None
        assert saved.turns[0].grade.overall == 61
        assert "What if it does not fit?" in visible_text(screen.query_one("#conversation"))
        assert "Overall 61/100" in visible_text(screen.query_one("#feedback"))


async def test_resume_from_the_command_line_start(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    transcript_id = unfinished_with_ungraded_answer(transcripts, elapsed=20)
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Resume(transcript_id))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SessionScreen)
        assert app.screen.session.transcript.id == transcript_id
        # Escaping home from a session is ctrl+q only; the home screen sits below.
        assert isinstance(app.screen_stack[0], HomeScreen)


async def test_start_from_home_with_options(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    app = build_app(transcripts, ScriptedGrader([make_grade()]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "[bold]Markup[/bold] must show literally" in visible_text(app.screen)
        minutes = app.screen.query_one("#minutes")
        minutes.value = "10"  # type: ignore[attr-defined]
        await pilot.click("#practice")
        await pilot.click("#start")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        assert screen.session.transcript.practice
        assert "Total 10:00" in visible_text(screen.query_one("#total-clock"))
        assert "Phase 04:00" in visible_text(screen.query_one("#phase-clock"))


async def test_home_opens_review(tmp_path: Path) -> None:
    app = build_app(tmp_path / "transcripts", ScriptedGrader([make_grade()]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert "No transcripts yet" in visible_text(app.screen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)

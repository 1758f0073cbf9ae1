"""Pilot tests of the practice loop: drills from home and the report, the progress screen, per-question scores."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual_plotext import PlotextPlot

from interviewer.grading.types import DimensionScore, Grade
from interviewer.report import build_report
from interviewer.session import Session
from interviewer.transcripts import TranscriptStore
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.progress import ProgressScreen
from interviewer.tui.screens.report import ReportScreen
from interviewer.tui.screens.session import SessionScreen
from interviewer.tui.screens.transcript import TranscriptScreen
from interviewer.tui.start import Drill
from interviewer.tui.widgets.drills_due import DrillsDue
from tests import tui_fakes
from tests.tui_fakes import (
    SIZE,
    FakeClock,
    ScriptedGrader,
    build_app,
    make_grade,
    mini_library,
    saved_transcript,
    settle,
    visible_text,
)

pytestmark = pytest.mark.anyio
anyio_backend = tui_fakes.anyio_backend
isolated_config = tui_fakes.isolated_config

# Sessions from 2020: every review they hold is long due, whatever today's date.
STARTS = ["2020-01-01T18:00:00+00:00", "2020-01-02T18:00:00+00:00", "2020-01-03T18:00:00+00:00"]


def saved(transcripts: Path, count: int) -> TranscriptStore:
    store = TranscriptStore(transcripts)
    for index, started in enumerate(STARTS[:count]):
        saved_transcript(store, f"2020010{index + 1}-mini-000{index}", started, overall=40 + 10 * index)
    return store


async def test_progress_screen_with_too_little_history(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    saved(transcripts, 2)
    app = build_app(transcripts, ScriptedGrader([make_grade()]))
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProgressScreen)
        text = visible_text(screen)
        assert "Too little history for a trend: 2 graded sessions" in text
        assert "flat" not in text
        assert screen.query_one(PlotextPlot).display  # two sessions are already a line over time
        assert "mini/kv-size" in text  # weakest questions
        assert "Drill queue: 1 due now" in text


async def test_progress_screen_plots_each_dimension(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    saved(transcripts, 3)
    app = build_app(transcripts, ScriptedGrader([make_grade()]))
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        app.open_progress()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProgressScreen)
        plot = screen.query_one(PlotextPlot)
        assert plot.display
        drawn = str(plot.render())
        for title in ("Mechanism", "Tradeoff", "Numbers", "Failure modes", "01-03"):
            assert title in drawn
        text = visible_text(screen)
        assert "3 graded sessions" in text and "Too little history" not in text
        assert "Failure modes  1.0/4  flat" in text  # weakest first, with its trend
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_home_shows_due_count_and_d_starts_a_drill(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    saved(transcripts, 1)
    app = build_app(transcripts, ScriptedGrader([make_grade()]), clock=FakeClock())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        due = app.screen.query_one(DrillsDue)
        assert due.display and "1 question due" in visible_text(due) and "press d to drill" in visible_text(due)
        await pilot.press("d")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SessionScreen) and screen.session is not None
        transcript = screen.session.transcript
        assert transcript.drill_questions == ["kv-size", "allreduce"]  # the due one, then one never answered
        assert transcript.case_id == "mini" and [p.id for p in transcript.phases] == ["drill"]
        assert screen.session.current_turn is not None and screen.session.current_turn.question_id == "kv-size"
        assert TranscriptStore(transcripts).load(transcript.id).drill_questions == ["kv-size", "allreduce"]


async def test_report_offers_a_drill_of_the_weakest(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    store = saved(transcripts, 1)
    transcript = store.load("20200101-mini-0000")
    app = build_app(transcripts, ScriptedGrader([make_grade()]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(ReportScreen(transcript, mini_library().cases["mini"], store))
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SessionScreen) and screen.session is not None
        assert screen.session.transcript.drill_questions == ["kv-size"]  # only it was graded


async def test_a_drill_resumes_as_the_same_drill(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    lib = mini_library()
    app = build_app(transcripts, ScriptedGrader([make_grade()]), clock=FakeClock())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.start_drill(Drill("mini", ("allreduce",), 2))
        await settle(pilot)
        assert isinstance(app.screen, SessionScreen) and app.screen.session is not None
        tid = app.screen.session.transcript.id
    app = build_app(transcripts, ScriptedGrader([make_grade()]), clock=FakeClock(), library=lib)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.resume_session(tid)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SessionScreen) and screen.session is not None
        assert [q.id for q in screen.session.case.questions()] == ["allreduce"]
        assert screen.session.current_turn is not None and screen.session.current_turn.question_id == "allreduce"


async def test_transcript_screen_lists_scores_per_question(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    lib = mini_library()
    case = lib.cases["mini"]
    store = TranscriptStore(transcripts)
    clock = FakeClock()
    session = Session.start(case, lib.rubric_for(case), store, clock=clock)
    turn = session.current_turn
    assert turn is not None
    session.submit("an answer")
    follow = session.record_grade(turn.id, make_grade(58, {"mechanism": 3, "tradeoff": 2, "numbers": 1,
                                                            "failure_modes": 2}))
    assert follow is not None and follow.kind == "follow_up"
    session.submit("a follow-up answer")
    probed = Grade(grader="keyword", overall=75, dimensions={"numbers": DimensionScore(score=3)})
    session.record_grade(follow.id, probed)
    review = build_report(session.transcript, case).questions[0]
    assert review.main is not None and len(review.follow_ups) == 1
    app = build_app(transcripts, ScriptedGrader([make_grade()]))
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        app.push_screen(TranscriptScreen(session.transcript, case, store))
        await settle(pilot)
        table = visible_text(app.screen.query_one(".scores"))
        rows = table.splitlines()
        main = next(r for r in rows if r.startswith("Q1 "))
        follow_up = next(r for r in rows if "follow-up 1" in r)
        assert main.split()[-5:] == ["58", "3", "2", "1", "2"]
        assert follow_up.split()[-2:] == ["75", "3"]  # only the probed dimension
        assert "Numbers" in rows[1] and "overall" in rows[1]

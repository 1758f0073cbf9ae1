"""Pilot tests of the review screen (filter, open, regrade, export) and unit tests of its filter."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from interviewer.transcripts import Summary, TranscriptStore
from interviewer.tui.app import InterviewerApp
from interviewer.tui.filtering import matches, parse_filter
from interviewer.tui.screens.review import ReviewScreen
from interviewer.tui.screens.session import SessionScreen
from interviewer.tui.screens.transcript import TranscriptScreen
from interviewer.tui.start import Review
from tests import tui_fakes
from tests.tui_fakes import (
    SIZE,
    ScriptedGrader,
    build_app,
    make_grade,
    saved_transcript,
    settle,
    toast_text,
    visible_text,
)

pytestmark = pytest.mark.anyio
anyio_backend = tui_fakes.anyio_backend
isolated_config = tui_fakes.isolated_config  # autouse: config and transcripts in the test's temp dir


def three_sessions(transcripts: Path) -> TranscriptStore:
    store = TranscriptStore(transcripts)
    saved_transcript(store, "20260509-1900-mini-aaaa", "2026-05-09T19:00:00+00:00", overall=72,
                     answer="[bold]literal[/bold] K and V per layer")
    saved_transcript(store, "20260420-0800-mini-bbbb", "2026-04-20T08:00:00+00:00", overall=45)
    saved_transcript(store, "20260510-2100-mini-cccc", "2026-05-10T21:00:00+00:00", overall=None, finished=False)
    saved_transcript(store, "20260501-1200-gone-dddd", "2026-05-01T12:00:00+00:00", overall=50,
                     case_id="gone", case_title="A case that was deleted")
    return store


def table_ids(screen: ReviewScreen) -> list[str]:
    return [s.id for s in screen.shown]


async def set_filter(pilot, screen: ReviewScreen, text: str) -> None:
    screen.query_one("#filter", Input).value = text
    await pilot.pause()


async def pick(pilot, text: str) -> None:
    """Filter the review table to ``text`` and focus it, so a key acts on the first row shown."""
    screen = pilot.app.screen
    await set_filter(pilot, screen, text)
    screen.query_one("#transcripts", DataTable).focus()


def review_app(transcripts: Path, grader: ScriptedGrader) -> InterviewerApp:
    """The app opened on the review screen over ``three_sessions``."""
    three_sessions(transcripts)
    return build_app(transcripts, grader, start=Review())


async def test_filter_by_case_date_and_score(tmp_path: Path) -> None:
    app = review_app(tmp_path / "transcripts", ScriptedGrader([make_grade()]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.query_one("#transcripts", DataTable).row_count == 4
        assert table_ids(screen)[0] == "20260510-2100-mini-cccc"  # newest first
        await set_filter(pilot, screen, "mini")
        assert len(table_ids(screen)) == 3
        await set_filter(pilot, screen, "deleted")
        assert table_ids(screen) == ["20260501-1200-gone-dddd"]
        await set_filter(pilot, screen, ">=60")
        assert table_ids(screen) == ["20260509-1900-mini-aaaa"]
        await set_filter(pilot, screen, "2026-04")
        assert table_ids(screen) == ["20260420-0800-mini-bbbb"]
        await set_filter(pilot, screen, "mini 2026-05 score<80")
        assert table_ids(screen) == ["20260509-1900-mini-aaaa"]
        await set_filter(pilot, screen, "unfinished")
        assert table_ids(screen) == ["20260510-2100-mini-cccc"]
        assert "1 of 4 transcripts" in visible_text(screen)
        # "/" focuses the filter from the table; typing filters live.
        screen.query_one("#filter", Input).value = ""
        screen.query_one("#transcripts", DataTable).focus()
        await pilot.press("slash", "b", "b", "b", "b")
        await pilot.pause()
        assert table_ids(screen) == ["20260420-0800-mini-bbbb"]


async def test_open_regrade_and_export(tmp_path: Path) -> None:
    transcripts = tmp_path / "transcripts"
    grader = ScriptedGrader([make_grade(88, feedback="Regraded [bold]now[/bold].")])
    app = review_app(transcripts, grader)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pick(pilot, ">=60")
        await pilot.press("enter")
        await settle(pilot)
        view = app.screen
        assert isinstance(view, TranscriptScreen)
        text = visible_text(view)
        assert "[bold]literal[/bold] K and V per layer" in text
        assert "Overall 72/100" in text
        assert "skipped" in text

        await pilot.press("r")
        await settle(pilot)
        saved = TranscriptStore(transcripts).load("20260509-1900-mini-aaaa")
        turn = saved.turns[0]
        assert turn.grade is not None and turn.grade.overall == 88
        assert [g.overall for g in turn.previous_grades] == [72]
        assert len(grader.requests) == 1  # only the answered turn is regraded
        text = visible_text(view)
        assert "Earlier grades, oldest first" in text and "72/100" in text
        assert "Regraded [bold]now[/bold]." in text
        assert "Regraded 1 answers" in await toast_text(pilot)

        await pilot.press("e")
        await pilot.pause()
        exported = transcripts / "20260509-1900-mini-aaaa.md"
        assert exported.is_file()
        assert str(exported) in await toast_text(pilot)

        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        # The list was reloaded: the new score shows.
        assert next(s for s in app.screen.summaries if s.id == "20260509-1900-mini-aaaa").overall == 88


async def test_case_missing_from_library_cannot_be_regraded(tmp_path: Path) -> None:
    grader = ScriptedGrader([make_grade()])
    app = review_app(tmp_path / "transcripts", grader)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pick(pilot, "deleted")
        await pilot.press("enter")
        await settle(pilot)
        assert "is not in the library" in visible_text(app.screen)
        await pilot.press("r")
        await settle(pilot)
        assert grader.requests == []
        assert "cannot be regraded" in await toast_text(pilot)


async def test_resume_from_review(tmp_path: Path) -> None:
    app = review_app(tmp_path / "transcripts", ScriptedGrader([make_grade()]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pick(pilot, "unfinished")
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, SessionScreen)
        assert app.screen.session.transcript.id == "20260510-2100-mini-cccc"


def summary(**kw: object) -> Summary:
    base: dict[str, object] = dict(
        id="20260509-1900-mini-aaaa", case_id="mini", case_title="Mini case", started="2026-05-09T19:00:00+00:00",
        status="finished", overall=70, grader="keyword", answered=2, path=Path("x.json"),
    )
    base.update(kw)
    return Summary(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", True),
        ("MINI", True),
        ("nvidia", False),
        (">=70", True),
        (">70", False),
        ("score=70", True),
        ("<50", False),
        ("2026", True),
        ("2026-5", True),
        ("2026-05-09", True),
        ("2026-05-10", False),
        ("finished", True),
        ("unfinished", False),
        ("keyword mini >60", True),
    ],
)
def test_filter_terms(text: str, expected: bool) -> None:
    assert matches(parse_filter(text), summary()) is expected


def test_score_filter_excludes_ungraded_and_status_words() -> None:
    ungraded = summary(overall=None, status="in_progress", grader=None)
    assert not matches(parse_filter(">=0"), ungraded)
    assert matches(parse_filter("unfinished ungraded"), ungraded)
    assert not matches(parse_filter("finished"), ungraded)

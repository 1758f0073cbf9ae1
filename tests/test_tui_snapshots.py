"""SVG snapshots of the main screens at 100x30 (the session also at 80x24), with a frozen clock and fixed ids and times.

Update deliberately, after looking at the pictures:
``pytest tests/test_tui_snapshots.py --snapshot-update`` then review the SVGs
in ``tests/__snapshots__/test_tui_snapshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TextArea

from interviewer.grading.types import NumberCheck
from interviewer.transcripts import TranscriptStore
from interviewer.tui.app import InterviewerApp
from interviewer.tui.start import Review, Run
from tests.tui_fakes import (
    SIZE,
    FakeClock,
    ScriptedGrader,
    build_app,
    long_library,
    make_grade,
    saved_transcript,
    settle,
)

FIXED_ID = "20260509-190000-mini-0001"


@pytest.fixture(autouse=True)
def _deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Isolated config, a relative transcripts folder (so paths on screen are stable), fixed session ids."""
    monkeypatch.setenv("INTERVIEWER_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.delenv("NO_COLOR", raising=False)  # conftest sets it for CLI output; the pictures are in colour
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("interviewer.session.new_id", lambda case_id: FIXED_ID)
    monkeypatch.setattr("interviewer.session.now_iso", lambda: "2026-05-09T19:00:00+00:00")


def snapshot_grades() -> list:
    return [
        make_grade(
            58,
            evidence={"mechanism": ["K and V for every layer"], "numbers": ["320 KiB"]},
            missing={"tradeoff": ["Grouped-query attention shrinks the cache"]},
            numbers=[NumberCheck(claim="320 KiB", reference="320 KiB per token", verdict="correct")],
            feedback="Solid sizing. Say what GQA trades away.",
            follow_up="How much is that for a 4,096-token context?",
            follow_up_dimension="numbers",
        ),
        make_grade(74, scores={"mechanism": 3, "tradeoff": 3, "numbers": 4, "failure_modes": 2},
                   grader="keyword", fallback_reason="endpoint timed out after 2 s"),
        make_grade(40, scores={"mechanism": 2, "tradeoff": 1, "numbers": 2, "failure_modes": 1}),
    ]


def fill_store() -> None:
    store = TranscriptStore(Path("transcripts"))
    saved_transcript(store, "20260509-1900-mini-aaaa", "2026-05-09T19:00:00+00:00", overall=72)
    saved_transcript(store, "20260420-0800-mini-bbbb", "2026-04-20T08:00:00+00:00", overall=45)
    saved_transcript(store, "20260510-2100-mini-cccc", "2026-05-10T21:00:00+00:00", overall=None, finished=False)


async def still_cursor(pilot: Pilot) -> None:
    """A blinking cursor or a toast would make the picture depend on timing."""
    pilot.app.clear_notifications()
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


def test_home_screen(snap_compare) -> None:
    fill_store()
    app = build_app(Path("transcripts"), ScriptedGrader(snapshot_grades(), status="offline keyword scoring"))

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await still_cursor(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def session_app(clock: FakeClock) -> InterviewerApp:
    """The app started on the mini case, with the snapshot grades and ``clock``."""
    return build_app(Path("transcripts"), ScriptedGrader(snapshot_grades()), start=Run("mini"), clock=clock)


async def answer(pilot: Pilot, clock: FakeClock, seconds: float, text: str) -> None:
    """Type ``text`` in the session's editor, let ``seconds`` pass, send it and wait for the grade."""
    pilot.app.screen.query_one("#editor", TextArea).insert(text)
    clock.advance(seconds)
    await pilot.press("ctrl+s")
    await settle(pilot)


def test_session_screen(snap_compare) -> None:
    clock = FakeClock()
    app = session_app(clock)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await answer(pilot, clock, 70,
                     "K and V for every layer and KV head: 2 x 80 x 8 x 128 x 2 bytes = 320 KiB per token.")
        pilot.app.screen.query_one("#editor", TextArea).insert("```\nmax_batch_size: 8\n```")
        clock.advance(35)
        pilot.app.screen.tick()  # type: ignore[attr-defined]
        await settle(pilot)
        await still_cursor(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_report_screen(snap_compare) -> None:
    clock = FakeClock()
    app = session_app(clock)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await answer(pilot, clock, 70, "K and V for every layer: 320 KiB per token.")
        await answer(pilot, clock, 60, "About 1.3 GB at 4,096 tokens.")
        clock.advance(100)
        await pilot.press("ctrl+r", "y")
        await settle(pilot)
        await still_cursor(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_review_screen(snap_compare) -> None:
    fill_store()
    app = build_app(Path("transcripts"), ScriptedGrader(snapshot_grades()), start=Review())

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("#filter", Input).value = "mini"
        await pilot.pause()
        pilot.app.screen.query_one("#transcripts", DataTable).focus()
        await settle(pilot)
        await still_cursor(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
def test_session_long_phase_name(snap_compare, size: tuple[int, int]) -> None:
    """A long phase name wraps in the header, the tags and the help key stay visible, the question is in view."""
    clock = FakeClock()
    app = build_app(Path("transcripts"), ScriptedGrader(snapshot_grades()), start=Run("long"), clock=clock,
                    library=long_library(), phase_timeout="strict")

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await answer(pilot, clock, 70, "K and V for every layer: 320 KiB per token.")
        pilot.app.screen.query_one("#editor", TextArea).insert("About 1.3 GB at 4,096 tokens")
        await settle(pilot)
        await still_cursor(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
def test_session_brief_with_five_deliverables(snap_compare, size: tuple[int, int]) -> None:
    """ctrl+l: the scenario, the phase brief and all five deliverables, in a scrollable box."""
    app = build_app(Path("transcripts"), ScriptedGrader(snapshot_grades()), start=Run("long"), clock=FakeClock(),
                    library=long_library())

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("ctrl+l")
        await pilot.press("end")
        await settle(pilot)
        await still_cursor(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)

"""Pilot tests of the session screen: a whole interview with a scripted grader and a hand-wound clock.

No sleeps: the tests wait for workers (``settle``) and advance the fake clock
themselves, then call the screen's ``tick`` as the 1-second timer would.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import TextArea

from interviewer.grading.types import NumberCheck
from interviewer.transcripts import TranscriptStore
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.help import HelpScreen
from interviewer.tui.screens.report import ReportScreen
from interviewer.tui.screens.session import SessionScreen
from interviewer.tui.start import Run
from interviewer.tui.widgets.countdown import Countdown
from tests import tui_fakes
from tests.tui_fakes import (
    SIZE,
    FakeClock,
    ScriptedGrader,
    build_app,
    make_grade,
    settle,
    toast_text,
    visible_text,
    wait_until,
)

pytestmark = pytest.mark.anyio
anyio_backend = tui_fakes.anyio_backend
isolated_config = tui_fakes.isolated_config  # autouse: config and transcripts in the test's temp dir

MARKUP_ANSWER = "K and V for [bold]every[/bold] layer, [link=https://evil.example]click[/link], about 320 KiB."
MARKUP_FEEDBACK = "Good start. [bold red]Careful[/bold red] with [link=https://evil.example]units[/link]."


@pytest.fixture(autouse=True)
def _in_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session screen is checked in colour (conftest sets NO_COLOR for CLI output)."""
    monkeypatch.delenv("NO_COLOR", raising=False)


def first_grade():
    return make_grade(
        55,
        evidence={"mechanism": ["K and V for [bold]every[/bold] layer"]},
        missing={"tradeoff": ["Grouped-query attention shrinks the cache at a small quality cost"]},
        numbers=[
            NumberCheck(claim="320 KiB", reference="320 KiB (KV cache per token)", verdict="correct"),
            NumberCheck(claim="900 GB/s", reference="3.35 TB/s (H100 HBM3)", verdict="wrong"),
        ],
        flags=["wrong_number"],
        feedback=MARKUP_FEEDBACK,
        follow_up="How much is that for a [i]4,096[/i]-token context?",
        follow_up_dimension="numbers",
        fallback_reason=None,
    )


def second_grade():
    return make_grade(70, scores={"mechanism": 3, "tradeoff": 3, "numbers": 3, "failure_modes": 2},
                      feedback="Better.", grader="keyword", fallback_reason="endpoint timed out after 2 s")


def session_screen(app) -> SessionScreen:
    screen = app.screen
    assert isinstance(screen, SessionScreen), type(screen).__name__
    return screen


async def opened_session(pilot) -> tuple[SessionScreen, TextArea]:
    """Once the started session is shown: its screen and the answer editor."""
    await pilot.pause()
    screen = session_screen(pilot.app)
    return screen, screen.query_one("#editor", TextArea)


async def send(pilot, answer: str) -> None:
    """Type ``answer`` into the session's editor and send it (its grade may still be coming)."""
    pilot.app.screen.query_one("#editor", TextArea).insert(answer)
    await pilot.press("ctrl+s")


async def submit(pilot, answer: str) -> None:
    """Send ``answer`` and wait for the grade."""
    await send(pilot, answer)
    await settle(pilot)


def load_only(transcripts: Path):
    store = TranscriptStore(transcripts)
    [summary] = store.summaries()[0]
    return store.load(summary.id)


async def test_full_session_answer_feedback_followup_timeout_report_export(tmp_path: Path) -> None:
    clock = FakeClock()
    grader = ScriptedGrader([first_grade(), second_grade(), second_grade()], chunks=["Streaming ", "feedback…"])
    transcripts = tmp_path / "transcripts"
    app = build_app(transcripts, grader, start=Run("mini"), clock=clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen, editor = await opened_session(pilot)
        assert app.focused is editor
        text = visible_text(screen)
        assert "How big is the KV cache per token" in text
        assert "Phase 02:00" in text and "Total 05:00" in text

        # Answer: a few real key presses, then the rest inserted at the cursor.
        await pilot.press("K", "space")
        editor.insert(MARKUP_ANSWER[2:])
        clock.advance(30)
        await pilot.press("ctrl+s")
        await settle(pilot)

        # Saved before grading, graded after; the editor is cleared only after the save.
        transcript = load_only(transcripts)
        first = transcript.turns[0]
        assert first.answer == MARKUP_ANSWER
        assert first.status == "graded" and first.grade is not None and first.grade.overall == 55
        assert editor.text == ""
        assert grader.requests[0].answer == MARKUP_ANSWER

        # Feedback panel: bars, evidence, misses, number checks, grader, flags, feedback; all literal.
        feedback = visible_text(screen.query_one("#feedback"))
        assert "Overall 55/100" in feedback
        assert "graded by model fake-model" in feedback
        assert "Mechanism     ██████░░ 3/4" in feedback
        assert "“K and V for [bold]every[/bold] layer”" in feedback
        assert "missed: Grouped-query attention" in feedback
        assert "✓\n320 KiB  ref: 320 KiB (KV cache per token)" in feedback
        assert "✗\n900 GB/s  ref: 3.35 TB/s (H100 HBM3)" in feedback
        assert "Flags: wrong_number" in feedback
        assert MARKUP_FEEDBACK in feedback

        # The follow-up is the interviewer's next turn in the conversation.
        log = visible_text(screen.query_one("#conversation"))
        assert "Interviewer · follow-up (Numbers)" in log
        assert "How much is that for a [i]4,096[/i]-token context?" in log
        assert MARKUP_ANSWER in log

        # Phase timeout (soft): warning banner + toast, the clock shows overtime, the candidate may finish.
        clock.advance(95)
        screen.tick()
        await pilot.pause()
        banner = screen.query_one("#banner")
        assert banner.display
        assert "Time is up for this phase" in visible_text(banner)
        phase_clock = screen.query_one("#phase-clock", Countdown)
        assert phase_clock.has_class("-overtime")
        assert "+00:05 over" in visible_text(phase_clock)
        toasts = await toast_text(pilot)
        assert "Time is up for Warm-up" in toasts

        await submit(pilot, "About 1.3 GB for 4,096 tokens: 320 KiB x 4096.")
        # Graded (with the fallback reason shown), and the session moved to the next phase.
        feedback = visible_text(screen.query_one("#feedback"))
        assert "offline keyword grader" in feedback
        assert "fallback: endpoint timed out after 2 s" in feedback
        assert "Phase 2/2 Main" in visible_text(screen.query_one("#where"))
        assert not screen.query_one("#banner").display
        assert "How long does a ring all-reduce" in visible_text(screen.query_one("#conversation"))

        # A hint: recorded on the turn, shown in the log, costs no time.
        before = screen.session.elapsed()
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert screen.session.current_turn is not None and screen.session.current_turn.hints
        assert "Hint: " in visible_text(screen.query_one("#conversation"))
        assert screen.session.elapsed() == before

        # Finish (with confirmation) -> report.
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        report = visible_text(app.screen)
        assert "Dimension averages" in report
        assert "Time per phase" in report
        assert "Warm-up         02:05 / 02:00 over" in report
        assert "Strongest" in report and "Weakest" in report
        assert "Model answer outline" in report
        assert "2 x 80 layers x 8 KV heads" in report
        assert load_only(transcripts).status == "finished"

        # Export next to the transcript.
        await pilot.press("e")
        await pilot.pause()
        exported = transcripts / f"{transcript.id}.md"
        assert exported.is_file()
        assert MARKUP_ANSWER in exported.read_text(encoding="utf-8")
        toasts = await toast_text(pilot)
        assert str(exported) in toasts


async def test_export_to_chosen_path(tmp_path: Path) -> None:
    grader = ScriptedGrader([make_grade(60)])
    app = build_app(tmp_path / "t", grader, start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        session_screen(app)  # the session is shown
        await submit(pilot, "An answer.")
        await pilot.press("ctrl+r", "y")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        await pilot.press("E")
        await pilot.pause()
        target = tmp_path / "out" / "mine.md"
        field = app.screen.query_one("#path")
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert target.is_file()
        assert "# Mini case for tests" in target.read_text(encoding="utf-8")


async def test_markup_in_case_answers_and_model_text_is_literal(tmp_path: Path) -> None:
    grade = make_grade(
        40,
        feedback="[bold]x[/bold] and [link=https://evil.example]y[/link]",
        evidence={"numbers": ["[link=https://evil.example]320[/link]"]},
        missing={"failure_modes": ["[red]OOM[/red]"]},
        numbers=[NumberCheck(claim="[b]9[/b] GB", reference="[i]10[/i] GB", verdict="wrong")],
        follow_up="What about [bold]x[/bold]?",
        follow_up_dimension="failure_modes",
        fallback_reason="[bold]server[/bold] said no",
        grader="keyword",
    )
    grader = ScriptedGrader([grade], chunks=["[bold]stream[/bold] ", "[link=https://evil.example]z[/link]"])
    app = build_app(tmp_path / "t", grader, start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        # The fixture case's scenario itself contains markup.
        assert "[bold]Markup[/bold] must show literally" in visible_text(screen)
        await submit(pilot, "[bold]x[/bold] [link=https://evil.example]y[/link]")
        text = visible_text(screen)
        for literal in (
            "[bold]x[/bold] [link=https://evil.example]y[/link]",
            "[bold]x[/bold] and [link=https://evil.example]y[/link]",
            "“[link=https://evil.example]320[/link]”",
            "missed: [red]OOM[/red]",
            "[b]9[/b] GB  ref: [i]10[/i] GB",
            "fallback: [bold]server[/bold] said no",
            "What about [bold]x[/bold]?",
        ):
            assert literal in text, literal


async def test_stream_shows_while_grading_input_stays_usable_and_resubmit_is_refused(tmp_path: Path) -> None:
    gate = threading.Event()
    grader = ScriptedGrader(
        [make_grade(50, follow_up="Why?", follow_up_dimension="tradeoff"), make_grade(60)],
        chunks=["The answer ", "names the ", "mechanism."],
        gate=gate,
    )
    transcripts = tmp_path / "t"
    app = build_app(transcripts, grader, start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen, editor = await opened_session(pilot)
        await send(pilot, "First answer.")
        # The streamed text arrives while the grade is still held by the gate.
        feedback = screen.query_one("#feedback")
        await wait_until(pilot, lambda: "The answer names the mechanism." in visible_text(feedback))
        assert screen.grading is not None
        # The saved transcript already holds the answer, ungraded.
        turn = load_only(transcripts).turns[0]
        assert turn.answer == "First answer." and turn.status == "answered"

        # Typing still works; a second submit is refused and keeps the text.
        await pilot.press("n", "o", "t", "e")
        assert editor.text == "note"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert editor.text == "note"
        assert len(grader.requests) == 1
        toasts = await toast_text(pilot)
        assert "Still grading" in toasts

        gate.set()
        await settle(pilot)
        assert screen.grading is None
        assert "Why?" in visible_text(screen.query_one("#conversation"))
        assert editor.text == "note"


async def test_empty_answer_is_refused_and_kept(tmp_path: Path) -> None:
    grader = ScriptedGrader([make_grade()])
    transcripts = tmp_path / "t"
    app = build_app(transcripts, grader, start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        _screen, editor = await opened_session(pilot)
        await send(pilot, "   \n  ")
        await pilot.pause()
        assert editor.text == "   \n  "
        assert grader.requests == []
        assert load_only(transcripts).turns[0].status == "asked"
        toasts = await toast_text(pilot)
        assert "the answer is empty" in toasts


async def test_grader_failure_keeps_answer_and_retry_grades_it(tmp_path: Path) -> None:
    calls = {"n": 0}

    def flaky(request):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("boom [bold]x[/bold]")
        return make_grade(66)

    grader = ScriptedGrader(flaky)
    transcripts = tmp_path / "t"
    app = build_app(transcripts, grader, start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        await submit(pilot, "An answer.")
        assert "Grading failed: RuntimeError: boom [bold]x[/bold]" in visible_text(screen.query_one("#feedback"))
        assert load_only(transcripts).turns[0].status == "answered"
        await pilot.press("ctrl+s")  # retry the pending grade
        await settle(pilot)
        assert load_only(transcripts).turns[0].status == "graded"
        assert "Overall 66/100" in visible_text(screen.query_one("#feedback"))


async def test_strict_timeout_moves_on(tmp_path: Path) -> None:
    clock = FakeClock()
    grader = ScriptedGrader([make_grade()])
    transcripts = tmp_path / "t"
    app = build_app(transcripts, grader, start=Run("mini", phase_timeout="strict"), clock=clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        assert "strict" in visible_text(screen.query_one("#where"))
        screen.query_one("#editor", TextArea).insert("draft that was never sent")
        clock.advance(121)
        screen.tick()
        await pilot.pause()
        transcript = load_only(transcripts)
        assert transcript.turns[0].status == "timed_out"
        assert transcript.phase_index == 1
        assert "Phase 2/2 Main" in visible_text(screen.query_one("#where"))
        assert "(time ran out)" in visible_text(screen.query_one("#conversation"))
        toasts = await toast_text(pilot)
        assert "Moving on" in toasts
        # The draft is not thrown away.
        assert screen.query_one("#editor", TextArea).text == "draft that was never sent"
        # Running out of the last phase ends the session and shows the report.
        clock.advance(181)
        screen.tick()
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)


async def test_pause_only_in_practice_mode(tmp_path: Path) -> None:
    clock = FakeClock()
    app = build_app(tmp_path / "a", ScriptedGrader([make_grade()]), start=Run("mini"), clock=clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        assert "ctrl+o" not in {k for k in screen.active_bindings}
        await pilot.press("ctrl+o")
        assert not screen.session.paused

    clock = FakeClock()
    app = build_app(tmp_path / "b", ScriptedGrader([make_grade()]), start=Run("mini", practice=True), clock=clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        clock.advance(10)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert screen.session.paused
        assert "Paused" in visible_text(screen.query_one("#banner"))
        clock.advance(100)
        screen.tick()
        assert screen.session.elapsed() == 10
        assert "Total 04:50" in visible_text(screen.query_one("#total-clock"))
        await pilot.press("ctrl+o")
        clock.advance(5)
        assert screen.session.elapsed() == 15


async def test_skip_and_next_phase(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        await pilot.press("ctrl+n")  # skip the only warm-up question -> next phase
        await pilot.pause()
        assert "Phase 2/2 Main" in visible_text(screen.query_one("#where"))
        assert "(skipped)" in visible_text(screen.query_one("#conversation"))
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")  # cancelled: nothing happens
        await pilot.pause()
        assert app.screen is screen and not screen.session.finished
        await pilot.press("ctrl+g", "enter")  # last phase: moving on ends the interview
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        assert load_only(transcripts).status == "finished"


async def test_finish_while_grading_waits_for_the_grade(tmp_path: Path) -> None:
    gate = threading.Event()
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade(77)], gate=gate), start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        await send(pilot, "An answer.")
        await pilot.pause()
        await pilot.press("ctrl+r", "y")
        await pilot.pause()
        assert app.screen is screen
        assert "waiting for the last grade" in visible_text(screen.query_one("#banner"))
        gate.set()
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        transcript = load_only(transcripts)
        assert transcript.status == "finished"
        assert transcript.turns[0].grade is not None and transcript.turns[0].grade.overall == 77


async def test_checkpoint_every_ten_ticks_and_on_quit(tmp_path: Path) -> None:
    clock = FakeClock()
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"), clock=clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        screen.tick_timer.pause()  # the test counts the ticks (a real one may already have fired on a slow machine)
        for _ in range(10):
            clock.advance(1)
            screen.tick()
        first = load_only(transcripts).elapsed
        assert 1 <= first <= 10  # one checkpoint within any ten ticks...
        for _ in range(10):
            clock.advance(1)
            screen.tick()
        assert load_only(transcripts).elapsed == pytest.approx(first + 10)  # ...and exactly ten ticks apart
        clock.advance(7)
    # Leaving the app saves the clock too.
    assert load_only(transcripts).elapsed == pytest.approx(27)


async def test_help_and_command_palette(tmp_path: Path) -> None:
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), start=Run("mini"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = visible_text(app.screen)
        assert "^s" in help_text and "Submit your answer" in help_text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SessionScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"hint")
        await pilot.press("enter")
        await settle(pilot)
        screen = session_screen(app)
        assert screen.session.current_turn is not None and screen.session.current_turn.hints


async def test_works_at_80x24(tmp_path: Path) -> None:
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade(follow_up="Why?")]), start=Run("mini"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen, editor = await opened_session(pilot)
        assert editor.region.height >= 5
        assert screen.query_one("#conversation").region.height >= 6
        assert screen.query_one("#feedback").region.width >= 30
        await submit(pilot, "An answer.")
        assert "Overall 55/100" in visible_text(screen.query_one("#feedback"))


async def test_no_color_is_respected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Colours live in the stylesheet as theme variables, so NO_COLOR turns them all off."""
    import re

    monkeypatch.setenv("NO_COLOR", "1")
    clock = FakeClock()
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade(follow_up="Why?")]), start=Run("mini"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = session_screen(app)
        await submit(pilot, "An answer.")
        clock.advance(125)
        screen.tick()
        await pilot.pause()
        assert app.no_color
        svg = app.export_screenshot()
    colours = set(re.findall(r"fill: #([0-9a-f]{6})", svg))
    saturated = {c for c in colours if max(int(c[i:i + 2], 16) for i in (0, 2, 4))
                 - min(int(c[i:i + 2], 16) for i in (0, 2, 4)) > 24}
    assert not saturated, saturated

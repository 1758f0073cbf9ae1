"""Pilot tests: the session feels like a real interview (issue 10).

Paint first and load after; drafts are kept and come back; the editor's
undo bug and any other widget exception never end a session; the clock stops
while the machine grades; everything is reachable at 80x24; the home screen's
status is honest.  No sleeps: the tests wait for workers and messages, wind a
fake clock, and call the screen's tick methods as its timers would.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual import events
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import OptionList, Static, TextArea
from textual.widgets._footer import FooterKey

from interviewer.config import Settings
from interviewer.transcripts import Transcript, TranscriptStore
from interviewer.tui.app import Deferred, Environment, create_app
from interviewer.tui.screens.brief import BriefScreen
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.screens.frame import SessionFrame
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.screens.report import phases_content, time_content, went_over
from interviewer.tui.screens.session import SessionScreen
from interviewer.tui.start import Resume, Run
from interviewer.tui.widgets.conversation import Conversation
from tests import tui_fakes
from tests.fakeserver import FakeServer, closed_port, fake_server_fixture  # noqa: F401 - the fake_server fixture
from tests.tui_fakes import (
    FakeClock,
    ScriptedGrader,
    build_app,
    long_library,
    make_grade,
    settle,
    toast_text,
    visible_text,
    wait_until,
)

pytestmark = pytest.mark.anyio
anyio_backend = tui_fakes.anyio_backend
isolated_config = tui_fakes.isolated_config  # autouse: config and transcripts in the test's temp dir

PASTE = "First line of a pasted answer that is long enough to wrap in the editor box.\n" * 6 + "last line"


def only(transcripts: Path) -> Transcript:
    store = TranscriptStore(transcripts)
    [summary] = store.summaries()[0]
    return store.load(summary.id)


def screen_of(pilot: Pilot[int]) -> SessionScreen:
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen), type(screen).__name__
    return screen


def editor_of(pilot: Pilot[int]) -> TextArea:
    return screen_of(pilot).query_one("#editor", TextArea)


# --------------------------------------------------------------------------- paint first


async def test_home_paints_before_the_library_loads_then_fills_in(tmp_path: Path) -> None:
    gate = threading.Event()
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), deferred=True, gate=gate)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        text = visible_text(home)
        assert "Loading cases…" in str(home.query_one("#cases", OptionList).get_option_at_index(0).prompt)
        assert "Grader  loading…" in text
        assert not app.ready
        gate.set()
        await settle(pilot)
        assert app.ready
        prompt = str(home.query_one("#cases", OptionList).get_option_at_index(0).prompt)
        assert "Mini case for tests" in prompt
        assert "fake-model at 127.0.0.1:9" in visible_text(home)
        await pilot.press("enter")  # the first case is highlighted, as when the list is composed full
        await pilot.pause()
        from interviewer.tui.screens.start import StartScreen

        assert isinstance(app.screen, StartScreen)


async def test_run_paints_the_session_frame_first_then_swaps_in_the_session(tmp_path: Path) -> None:
    gate = threading.Event()
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), start=Run("mini"), deferred=True, gate=gate)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        frame = app.screen
        assert isinstance(frame, SessionFrame)
        text = visible_text(frame)
        assert "Loading the case…" in text and "Phase --:--" in text and "Total --:--" in text
        titles = [frame.query_one(f"#{pane}").border_title for pane in ("conversation", "editor", "feedback")]
        assert titles == ["Interview", "Your answer", "Feedback"]  # the session's shape from the first paint
        assert not frame.query(TextArea)  # nothing can be typed before the session exists
        await pilot.press("x", "ctrl+s")  # nothing to act on yet: no crash, no session
        assert app.screen is frame and not app.ready
        gate.set()
        await settle(pilot)
        session = screen_of(pilot)
        assert "How big is the KV cache per token" in visible_text(session)
        assert "Phase 02:00" in visible_text(session)
        assert [type(s).__name__ for s in app.screen_stack] == ["HomeScreen", "SessionScreen"]


async def test_a_settings_problem_found_after_the_first_paint_exits_with_its_one_line(tmp_path: Path) -> None:
    from interviewer.config import SettingsError

    def bad_settings() -> Environment:
        raise SettingsError("INTERVIEWER_READ_TIMEOUT: Input should be a valid number")

    app = create_app(Deferred(bad_settings), start=Run("mini"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
    assert app.return_code == 2 and app.startup_code == 2
    assert app.startup_error == "INTERVIEWER_READ_TIMEOUT: Input should be a valid number"


async def test_unknown_case_in_the_deferred_path_exits_with_the_one_line_error(tmp_path: Path) -> None:
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), start=Run("nope"), deferred=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
    assert app.return_code == 2
    assert app.startup_error is not None and app.startup_error.startswith("unknown case 'nope'; available: mini")


# --------------------------------------------------------------------------- the editor never crashes


async def test_paste_then_undo_works_or_does_nothing_and_the_session_goes_on(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        editor = editor_of(pilot)
        app.post_message(events.Paste(PASTE))  # as the terminal driver delivers it
        await pilot.pause()
        assert editor.text == PASTE, (len(editor.text), len(PASTE), repr(editor.text[:90]))
        for _ in range(3):
            await pilot.press("ctrl+z")
            await pilot.pause()
        assert PASTE.startswith(editor.text)  # undone (in whole or in part), never garbled
        assert "ValueError" not in await toast_text(pilot)  # handled by the editor, not by the last-resort guard
        await pilot.press("ctrl+y")
        await pilot.pause()
        app.export_screenshot()  # the editor still renders
        assert app.return_code is None and app.is_running
        await pilot.press("x")
        assert editor.text.endswith("x")


async def test_an_exception_in_an_action_saves_the_session_shows_the_error_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"))

    def broken_hint(self: SessionScreen) -> None:
        raise RuntimeError("boom in a widget")

    monkeypatch.setattr(SessionScreen, "action_hint", broken_hint)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        editor_of(pilot).insert("half an answer")
        await pilot.press("ctrl+t")
        toasts = await toast_text(pilot)
        assert "RuntimeError: boom in a widget" in toasts and "Your session is saved" in toasts
        assert only(transcripts).draft == "half an answer"
        assert app.is_running and app.return_code is None
        await pilot.press("ctrl+s")  # the session carries on
        await settle(pilot)
        assert only(transcripts).turns[0].answer == "half an answer"


async def test_an_exception_in_a_message_handler_does_not_stop_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcripts = tmp_path / "t"
    grader = ScriptedGrader([make_grade(follow_up="Why?")], chunks=["some feedback"])

    def broken_chunk(self: SessionScreen, message: object) -> None:
        raise ValueError("bad chunk")

    monkeypatch.setattr(SessionScreen, "on_grade_chunk", broken_chunk)
    app = build_app(transcripts, grader, start=Run("mini"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        editor_of(pilot).insert("An answer.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "ValueError: bad chunk" in await toast_text(pilot)
        # The screen kept handling messages: the grade and the follow-up arrived after the error.
        assert only(transcripts).turns[0].grade is not None
        assert "Why?" in visible_text(screen_of(pilot))


# --------------------------------------------------------------------------- drafts


async def test_draft_is_saved_after_a_pause_in_typing_and_while_typing_goes_on(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"))
    now = FakeClock(0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        screen.draft_clock = now
        await pilot.press("a")
        now.advance(0.9)
        screen._draft_tick()
        assert only(transcripts).draft is None  # still typing (as far as the debounce knows)
        now.advance(0.1)
        screen._draft_tick()
        assert only(transcripts).draft == "a"  # 1 s after the last key
        # Typing without a pause: saved once the oldest unsaved key is 1.5 s old.
        for key in "bcd":
            await pilot.press(key)
            now.advance(0.5)
            screen._draft_tick()
        assert only(transcripts).draft == "abcd"


async def test_ctrl_q_with_a_draft_asks_first_then_keeps_it_for_resume(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        editor_of(pilot).insert("line one\nline two of my unsent answer")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SessionScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    saved = only(transcripts)
    assert saved.draft == "line one\nline two of my unsent answer"

    resumed = build_app(transcripts, ScriptedGrader([make_grade()]), start=Resume(saved.id))
    async with resumed.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        editor = editor_of(pilot)
        assert editor.text == "line one\nline two of my unsent answer"
        assert editor.cursor_location == editor.document.end


async def test_ctrl_q_without_a_draft_quits_at_once(tmp_path: Path) -> None:
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), start=Run("mini"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running


async def test_draft_is_saved_on_phase_change_and_pause_and_cleared_by_submit(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    clock = FakeClock()
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"), clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        editor_of(pilot).insert("notes for later")
        await pilot.press("ctrl+g")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen.session.transcript.phase_index == 1
        assert only(transcripts).draft == "notes for later"
        editor_of(pilot).insert(" and more")
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = only(transcripts)
        assert saved.draft is None
        assert [t.answer for t in saved.turns if t.answer] == ["notes for later and more"]


# --------------------------------------------------------------------------- the clock stops for the machine


async def test_clocks_stop_from_submit_until_the_follow_up_is_shown(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    clock = FakeClock()
    gate = threading.Event()
    grader = ScriptedGrader([make_grade(follow_up="And at 4,096 tokens?", follow_up_dimension="numbers")], gate=gate)
    app = build_app(transcripts, grader, start=Run("mini"), clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        clock.advance(20)
        editor_of(pilot).insert("An answer.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.session.waiting_for_grade
        clock.advance(45)  # a slow model
        screen.tick()
        await pilot.pause()
        text = visible_text(screen)
        assert "Phase 01:40" in text and "Total 04:40" in text
        assert "the clock is stopped until the feedback is shown" in text
        assert screen.check_action("background", ())
        gate.set()
        await settle(pilot)
        assert not screen.session.waiting_for_grade
        assert "And at 4,096 tokens?" in visible_text(screen)
        clock.advance(5)
        screen.tick()
        await pilot.pause()
        assert "Phase 01:35" in visible_text(screen)
    saved = only(transcripts)
    assert saved.grading_s == pytest.approx(45)
    assert saved.turns[1].asked_at == pytest.approx(20)


async def test_grade_in_the_background_moves_on_and_queues_the_next_answer(tmp_path: Path) -> None:
    transcripts = tmp_path / "t"
    clock = FakeClock()
    gate = threading.Event()
    grader = ScriptedGrader([make_grade(40, follow_up="Never asked"), make_grade(80)], gate=gate)
    app = build_app(transcripts, grader, start=Run("mini"), clock=clock)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        editor_of(pilot).insert("First answer.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert not screen.session.waiting_for_grade
        current = screen.session.current_turn
        assert current is not None and current.question_id == "allreduce"
        clock.advance(10)
        screen.tick()
        assert screen.session.elapsed() == pytest.approx(10)  # the clock runs: the candidate is working
        editor_of(pilot).insert("Second answer.")
        await pilot.press("ctrl+s")  # accepted while the first grade is still pending
        await pilot.pause()
        assert screen.session.waiting_for_grade
        gate.set()
        await settle(pilot)
        await settle(pilot)
    saved = only(transcripts)
    answered = [t for t in saved.turns if t.answer]
    assert [t.answer for t in answered] == ["First answer.", "Second answer."]
    assert all(t.grade is not None for t in answered)
    assert not any(t.prompt == "Never asked" for t in saved.turns)


def test_report_shows_candidate_and_grading_time_and_over_only_when_over() -> None:
    assert not went_over(60.4, 60.0)  # shown as 01:00 / 01:00
    assert went_over(61.0, 60.0)
    library = tui_fakes.mini_library()
    transcript = tui_fakes.saved_transcript(TranscriptStore(Path("/nonexistent-never-written")), "x", "2026-01-01",
                                            save=False)
    transcript.grading_s = 95
    text = time_content(transcript).plain
    assert "Your time 05:00" in text and "Grading time 01:35" in text
    from interviewer.report import build_report

    transcript.phases[0].ended_at = 120.4  # exactly the 02:00 budget, as the screen shows it
    report = build_report(transcript, library.cases["mini"])
    assert "02:00 / 02:00 over" not in phases_content(report).plain
    assert "02:00 / 02:00" in phases_content(report).plain


# --------------------------------------------------------------------------- 80x24


async def test_everything_reachable_at_80x24(tmp_path: Path) -> None:
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), start=Run("long"), library=long_library(),
                    phase_timeout="strict")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        # The header wraps the phase name instead of cutting it.
        where = screen.query_one("#where", Static)
        assert tui_fakes.LONG_PHASE in visible_text(where)
        assert where.region.height >= 2  # wrapped onto a second line at 80 columns...
        needed = len(Content(visible_text(where)).wrap(where.content_size.width))
        assert needed <= where.content_size.height  # ...and every line of it is shown
        shown = app.export_screenshot()
        assert "[strict]" in shown
        # The footer shows the help key first, inside the screen.
        keys = list(screen.query(FooterKey))
        assert keys and keys[0].key == "f1" and keys[0].region.right <= 80
        # Tab moves the focus (as the help says); the focused pane gets its own border.
        editor = editor_of(pilot)
        assert app.focused is editor
        before = editor.styles.border_top
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is screen.query_one("#feedback")
        assert editor.text == ""  # no indent was typed
        assert editor.styles.border_top != before
        # ctrl+] indents in the editor.
        editor.focus()
        await pilot.press("ctrl+right_square_bracket")
        assert editor.text == "    "
        # The brief: scenario, phase brief and all five deliverables, scrollable from the keyboard.
        await pilot.press("ctrl+l")
        await pilot.pause()
        brief = app.screen
        assert isinstance(brief, BriefScreen)
        text = visible_text(brief)
        assert all(item in text for item in tui_fakes.LONG_DELIVERABLES)
        scroller = brief.query_one("#brief-scroll")
        assert app.focused is scroller and scroller.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroller.scroll_y > 0
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_latest_message_in_view_after_resize(tmp_path: Path) -> None:
    grader = ScriptedGrader([make_grade(follow_up="A follow-up that must stay in view after the resize?")])
    app = build_app(tmp_path / "t", grader, start=Run("long"), library=long_library())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        editor_of(pilot).insert("A long answer.\n" * 12)
        await pilot.press("ctrl+s")
        await settle(pilot)
        conversation = screen_of(pilot).query_one("#conversation", Conversation)
        conversation.scroll_home(animate=False)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert conversation.max_scroll_y > 0
        assert conversation.scroll_y == conversation.max_scroll_y


# --------------------------------------------------------------------------- honest status


async def test_home_says_where_it_looked_for_sessions(tmp_path: Path) -> None:
    transcripts = tmp_path / "nothing-here"
    app = build_app(transcripts, ScriptedGrader([make_grade()]))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert f"No sessions in {transcripts} yet" in visible_text(app.screen)


async def test_home_checks_the_endpoint_in_a_worker(tmp_path: Path, fake_server: FakeServer) -> None:
    up = Settings(transcripts_dir=tmp_path / "t", base_url=fake_server.url)
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), settings=up, deferred=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await wait_until(pilot, lambda: "reachable (" in visible_text(app.screen))
        assert "1 model listed" in visible_text(app.screen)

    down = Settings(transcripts_dir=tmp_path / "t", base_url=f"http://127.0.0.1:{closed_port()}/v1")
    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), settings=down, deferred=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await wait_until(pilot, lambda: "unreachable" in visible_text(app.screen))
        assert "graded offline" in visible_text(app.screen)


async def test_start_dialog_pages_to_the_deliverables_from_the_keyboard(tmp_path: Path) -> None:
    from textual.containers import VerticalScroll

    from interviewer.tui.screens.start import StartScreen

    app = build_app(tmp_path / "t", ScriptedGrader([make_grade()]), library=long_library())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, StartScreen)
        info = dialog.query_one("#case-info", VerticalScroll)
        assert info.max_scroll_y > 0  # the text does not fit: the deliverables are below the fold
        assert all(item in visible_text(info) for item in tui_fakes.LONG_DELIVERABLES)
        while info.scroll_y < info.max_scroll_y:
            before = info.scroll_y
            await pilot.press("pagedown")  # focus stays on Start
            await pilot.pause()
            assert info.scroll_y > before
        assert isinstance(app.focused, type(dialog.query_one("#start")))


async def test_strict_timeout_during_a_background_grade_stops_the_clock_again(tmp_path: Path) -> None:
    clock = FakeClock()
    gate = threading.Event()
    grader = ScriptedGrader([make_grade(40), make_grade(60)], gate=gate)
    app = build_app(tmp_path / "t", grader, start=Run("mini"), clock=clock, phase_timeout="strict")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        editor_of(pilot).insert("First answer.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+f")  # moved on to the main phase's question; the first grade is pending
        await pilot.pause()
        assert not screen.session.waiting_for_grade
        clock.advance(screen.session.phase_countdown().remaining + 1)
        screen.tick()  # strict: the question times out; the phase cannot close before the grade is in
        await pilot.pause()
        assert screen.session.current_turn is None
        assert screen.session.waiting_for_grade  # nothing to answer: the machine's time again
        gate.set()
        await settle(pilot)
        assert screen.session.finished or not screen.session.waiting_for_grade


async def test_an_unguarded_crash_still_saves_the_draft_before_the_app_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcripts = tmp_path / "t"
    app = build_app(transcripts, ScriptedGrader([make_grade()]), start=Run("mini"))

    def broken_compose(self: BriefScreen) -> object:
        raise RuntimeError("a dialog that cannot draw")

    monkeypatch.setattr(BriefScreen, "compose", broken_compose)
    with pytest.raises(RuntimeError, match="a dialog that cannot draw"):
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            editor_of(pilot).insert("unsent words")
            await pilot.press("ctrl+l")
            await pilot.pause()
    assert only(transcripts).draft == "unsent words"

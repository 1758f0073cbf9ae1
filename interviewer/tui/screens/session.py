"""The session screen: one timed interview, with live feedback.

The screen renders what ``Session`` says and dispatches what the candidate
does; the session decides everything (what to ask, when a phase ends, what
is saved).  Grading runs in a thread worker that only posts messages; the
handlers below are the only code that touches widgets.

Order on submit matters: the answer is checked, saved by ``Session.submit``
and only then cleared from the editor, so a crash while grading loses nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static, TextArea

from interviewer.answers import AnswerError, check_answer
from interviewer.grading.types import Grade, GradeRequest, SessionGrader
from interviewer.session import Session, SessionError
from interviewer.transcripts import Turn
from interviewer.tui.formatting import first_line
from interviewer.tui.messages import GradeChunk, GradeDone, GradeFailed, GradeStarted
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.widgets.conversation import Conversation, conversation_entries
from interviewer.tui.widgets.countdown import Countdown
from interviewer.tui.widgets.feedback import FeedbackPanel
from interviewer.tui.workers import grade_jobs, in_daemon_thread

TICK_SECONDS = 1.0
CHECKPOINT_EVERY_TICKS = 10
"""Save the clock about every ten seconds, so a resume starts close to where the session stopped."""
PLACEHOLDER = "Type your answer. Code blocks welcome (e.g. a config.pbtxt sketch). ctrl+s submits."


class SessionScreen(Screen[None]):
    """A running mock interview."""

    CSS_PATH = "session.tcss"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", tooltip="Submit your answer for grading"),
        Binding("ctrl+t", "hint", "Hint", tooltip="Show the heading of one missed key point (costs no time)"),
        Binding("ctrl+n", "skip", "Skip", tooltip="Skip this question"),
        Binding("ctrl+o", "pause", "Pause", tooltip="Stop the clock (practice mode only)"),
        Binding("ctrl+g", "next_phase", "Next phase", tooltip="Leave this phase and move on"),
        Binding("ctrl+r", "finish", "Finish", tooltip="End the interview and see the report"),
    ]

    def __init__(self, session: Session, grader: SessionGrader) -> None:
        super().__init__()
        self.session = session
        self.grader = grader
        self.grading: int | None = None
        """Id of the turn being graded now, if any."""
        self._grade_queue: list[int] = []
        self._ticks = 0
        self._finish_after_grading = False
        self._left = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield Static(id="where")
            yield Countdown("Phase", id="phase-clock")
            yield Countdown("Total", id="total-clock")
        yield Static(id="banner")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Conversation(id="conversation")
                yield TextArea(id="editor", soft_wrap=True, tab_behavior="indent", placeholder=PLACEHOLDER)
            yield FeedbackPanel(id="feedback")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#editor", TextArea).border_title = "Your answer"
        self.query_one("#conversation", Conversation).border_title = "Interview"
        self.refresh_view()
        self.set_interval(TICK_SECONDS, self.tick, name="session-tick")
        self.query_one("#editor", TextArea).focus()
        pending = self.session.pending_grades()
        if pending:
            self._start_grading(pending)

    def on_unmount(self) -> None:
        # Quitting mid-session: save the clock so a resume starts where this stopped.
        if not self.session.finished:
            with contextlib.suppress(OSError):
                self.session.checkpoint()

    # ------------------------------------------------------------------ rendering

    def refresh_view(self) -> None:
        """Bring every widget in line with the session."""
        session = self.session
        transcript = session.transcript
        index = min(transcript.phase_index, len(transcript.phases) - 1)
        tags = []
        if transcript.practice:
            tags.append("practice")
        if session.phase_timeout == "strict":
            tags.append("strict")
        where = Content.assemble(
            (session.case.title, "bold"),
            ("  ·  ", "$text-muted"),
            f"{session.phase.title} ({index + 1}/{len(transcript.phases)})",
            (f"  [{', '.join(tags)}]" if tags else "", "$text-muted"),
        )
        self.query_one("#where", Static).update(where)
        self._refresh_clocks()
        self._refresh_banner()
        self.query_one("#conversation", Conversation).show(
            conversation_entries(transcript, session.case, self.grading)
        )
        editor = self.query_one("#editor", TextArea)
        editor.read_only = session.finished or session.paused
        self.refresh_bindings()

    def _refresh_clocks(self) -> None:
        self.query_one("#phase-clock", Countdown).show(self.session.phase_countdown())
        self.query_one("#total-clock", Countdown).show(self.session.total_countdown())

    def _refresh_banner(self) -> None:
        session = self.session
        banner = self.query_one("#banner", Static)
        text: Content | None = None
        if self._finish_after_grading:
            text = Content("Finishing: waiting for the last grade…")
        elif session.paused:
            text = Content("Paused: the clock is stopped. ctrl+o resumes.")
        elif session.phase_record.id in session.expired_phases and not session.finished:
            if session.phase_timeout == "soft":
                text = Content(
                    "Time is up for this phase. Finish this answer; the interview moves on after it "
                    "(ctrl+g moves on now)."
                )
            else:
                text = Content("Time is up for this phase.")
        banner.display = text is not None
        if text is not None:
            banner.update(text)

    def _label(self, turn_id: int) -> str:
        turn = next((t for t in self.session.transcript.turns if t.id == turn_id), None)
        if turn is None:
            return "your answer"
        return f"your answer to “{first_line(turn.prompt, 32)}”"

    # ------------------------------------------------------------------ clock

    def tick(self) -> None:
        """Once a second: let the session apply its timeout rule, update the clocks, checkpoint now and then."""
        if self._left:
            return
        before = self.session.transcript.phase_index
        try:
            events = self.session.tick()
        except OSError as exc:
            self.notify(f"Could not save the session: {exc}", severity="error", markup=False)
            events = []
        self._ticks += 1
        if self._ticks % CHECKPOINT_EVERY_TICKS == 0 and not self.session.finished:
            try:
                self.session.checkpoint()
            except OSError as exc:
                self.notify(f"Could not save the session: {exc}", severity="error", markup=False)
        self._handle_events(events, before)
        if events:
            self.refresh_view()
        else:
            self._refresh_clocks()

    def _handle_events(self, events: Iterable[str], phase_before: int) -> None:
        for event in events:
            name, _, arg = event.partition(":")
            if name == "phase_expired":
                title = self._phase_title(arg)
                if self.session.phase_timeout == "strict":
                    self.notify(f"Time is up for {title}. Moving on.", title="Time", severity="warning",
                                markup=False)
                else:
                    self.notify(
                        f"Time is up for {title}. Finish this answer; the next one starts the next phase.",
                        title="Time",
                        severity="warning",
                        markup=False,
                    )
            elif name == "phase_advanced":
                self.notify(f"Now in {self._phase_title(arg)}.", title="Next phase", markup=False)
        self._after_change(phase_before)

    def _phase_title(self, phase_id: str) -> str:
        return next((p.title for p in self.session.transcript.phases if p.id == phase_id), phase_id)

    def _after_change(self, phase_before: int) -> None:
        """Common follow-up to anything that may have moved the session on."""
        if self.session.finished:
            if self.grading is None and not self.session.pending_grades():
                self._show_report()
            else:
                self._finish_after_grading = True
            return
        if self.session.transcript.phase_index != phase_before:
            self.notify(f"Now in {self.session.phase.title}.", title="Next phase", markup=False)

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pause":
            return self.session.transcript.practice
        return True

    def action_submit(self) -> None:
        session = self.session
        if session.finished:
            self.notify("The session has finished.", severity="warning")
            return
        if self.grading is not None:
            self.notify("Still grading your last answer; your text stays in the editor.", severity="warning")
            return
        if session.paused:
            self.notify("The session is paused; ctrl+o resumes it.", severity="warning")
            return
        turn = session.current_turn
        if turn is None:
            pending = session.pending_grades()
            if pending:
                self._start_grading(pending)
            else:
                self.notify("No question is waiting for an answer.", severity="warning")
            return
        editor = self.query_one("#editor", TextArea)
        try:
            answer = check_answer(editor.text)
        except AnswerError as exc:
            self.notify(str(exc), title="Not submitted", severity="error", markup=False)
            return
        try:
            request = session.submit(answer)
        except SessionError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        except OSError as exc:
            # Kept in memory and graded, but the editor keeps the text since it is not on disk.
            self.notify(f"Could not save your answer: {exc}", severity="error", markup=False)
            self._start_grading([turn], {turn.id: request})
            self.refresh_view()
            return
        editor.clear()
        self._start_grading([turn], {turn.id: request})
        self.refresh_view()

    def action_hint(self) -> None:
        if self.session.current_turn is None or self.session.finished:
            self.notify("Hints are for the question waiting for an answer.", severity="warning")
            return
        try:
            hint = self.session.hint()
        except (SessionError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        if hint is None:
            self.notify("No more hints for this question.")
        else:
            self.notify(hint, title="Hint", markup=False)
        self.refresh_view()

    def action_skip(self) -> None:
        if self.session.current_turn is None or self.session.finished:
            self.notify("No question is waiting to be skipped.", severity="warning")
            return
        before = self.session.transcript.phase_index
        try:
            self.session.skip()
        except (SessionError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self._after_change(before)
        self.refresh_view()

    def action_pause(self) -> None:
        try:
            if self.session.paused:
                self.session.unpause()
                self.notify("Clock running.")
            else:
                self.session.pause()
                self.notify("Paused: the clock is stopped.")
        except SessionError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.refresh_view()

    def action_next_phase(self) -> None:
        if self.session.finished:
            return
        last = self.session.transcript.phase_index >= len(self.session.transcript.phases) - 1
        question = "This is the last phase: moving on ends the interview. Continue?" if last else (
            "Leave this phase now? The question waiting for an answer is skipped."
        )

        def done(ok: bool | None) -> None:
            if not ok:
                return
            before = self.session.transcript.phase_index
            try:
                self.session.next_phase()
            except OSError as exc:
                self.notify(f"Could not save the session: {exc}", severity="error", markup=False)
            self._after_change(before)
            self.refresh_view()

        self.app.push_screen(ConfirmScreen(question, yes="Move on"), done)

    def action_finish(self) -> None:
        if self.session.finished:
            self._after_change(self.session.transcript.phase_index)
            return

        def done(ok: bool | None) -> None:
            if not ok:
                return
            try:
                self.session.finish()
            except OSError as exc:
                self.notify(f"Could not save the session: {exc}", severity="error", markup=False)
            self._after_change(self.session.transcript.phase_index)
            self.refresh_view()

        self.app.push_screen(ConfirmScreen("End the interview now and see the report?", yes="Finish"), done)

    def action_scenario(self) -> None:
        self.query_one("#conversation", Conversation).scroll_home(animate=False)

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """(name, help, action) triples the app adds to the command palette on this screen."""
        commands = [
            ("Show scenario", "Scroll the interview back to the scenario", "scenario"),
            ("Submit answer", "Save and grade the answer in the editor", "submit"),
            ("Hint", "Show the heading of one missed key point", "hint"),
            ("Skip question", "Skip the question waiting for an answer", "skip"),
            ("Next phase", "Leave this phase and move on", "next_phase"),
            ("Finish interview", "End now and see the report", "finish"),
        ]
        if self.session.transcript.practice:
            commands.append(("Pause / resume clock", "Practice mode: stop or restart the clock", "pause"))
        return commands

    # ------------------------------------------------------------------ grading

    def _start_grading(self, turns: Sequence[Turn], requests: dict[int, GradeRequest] | None = None) -> None:
        requests = dict(requests or {})
        jobs: list[tuple[int, GradeRequest]] = []
        for turn in turns:
            request = requests.get(turn.id)
            if request is None:
                try:
                    request = self.session.grade_request(turn)
                except SessionError as exc:
                    self.notify(str(exc), severity="error", markup=False)
                    continue
            jobs.append((turn.id, request))
        if not jobs:
            return
        self._grade_queue = [turn_id for turn_id, _ in jobs]
        self.grading = jobs[0][0]
        self.query_one("#feedback", FeedbackPanel).show_grading(self._label(self.grading))
        self._grade_worker(jobs)

    @work(exclusive=True, exit_on_error=False, group="grade", description="grading")
    async def _grade_worker(self, jobs: list[tuple[int, GradeRequest]]) -> None:
        # The grader blocks (network); it runs in a daemon thread that only posts messages.
        grader, post, session = self.grader, self.post_message, self.session

        def word(turn_id: int, request: GradeRequest, grade: Grade) -> str | None:
            probe = session.probe_for(turn_id, grade)  # the session decides; the model only phrases it
            return grader.word(request, grade, probe) if probe is not None else None

        await in_daemon_thread(
            lambda cancelled: grade_jobs(grader, jobs, post, cancelled, word=word), "interviewer-grade"
        )

    def on_grade_started(self, message: GradeStarted) -> None:
        self.grading = message.turn_id
        self.query_one("#feedback", FeedbackPanel).show_grading(self._label(message.turn_id))
        self.refresh_view()

    def on_grade_chunk(self, message: GradeChunk) -> None:
        if message.turn_id == self.grading:
            self.query_one("#feedback", FeedbackPanel).show_stream(message.text)

    def on_grade_done(self, message: GradeDone) -> None:
        before = self.session.transcript.phase_index
        label = self._label(message.turn_id)
        self._grade_finished(message.turn_id)
        try:
            self.session.record_grade(message.turn_id, message.grade, message.wording)
        except SessionError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        except OSError as exc:
            self.notify(f"Could not save the grade: {exc}", severity="error", markup=False)
        self.query_one("#feedback", FeedbackPanel).show_grade(message.grade, label)
        self._after_change(before)
        self.refresh_view()
        if self._finish_after_grading and self.grading is None and not self.session.pending_grades():
            self._show_report()

    def on_grade_failed(self, message: GradeFailed) -> None:
        self._grade_finished(message.turn_id)
        self.query_one("#feedback", FeedbackPanel).show_failed(message.reason)
        self.notify(message.reason, title="Grading failed", severity="error", markup=False)
        self.refresh_view()
        if self._finish_after_grading and self.grading is None:
            # The answer is saved ungraded; the report says so and a regrade can fix it later.
            self._show_report()

    def _grade_finished(self, turn_id: int) -> None:
        if turn_id in self._grade_queue:
            self._grade_queue.remove(turn_id)
        self.grading = self._grade_queue[0] if self._grade_queue else None

    # ------------------------------------------------------------------ leaving

    def _show_report(self) -> None:
        if self._left:
            return
        self._left = True
        from interviewer.tui.screens.report import ReportScreen

        self.app.switch_screen(ReportScreen(self.session.transcript, self.session.case, self.session.store))

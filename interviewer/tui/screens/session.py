"""The session screen: one timed interview, with live feedback.

The screen renders what ``Session`` says and dispatches what the candidate
does; the session decides everything (what to ask, when a phase ends, what
is saved).  Grading runs in a thread worker that only posts messages; the
handlers below are the only code that touches widgets.

Order on submit matters: the answer is checked, saved by ``Session.submit``
and only then cleared from the editor, so a crash while grading loses nothing.

Nothing typed is lost: the editor's text is saved in the transcript as a
draft once typing pauses (and at least every ``DRAFT_MAX_AGE`` seconds while
it goes on), and on every phase change, pause, quit and SIGTERM/SIGHUP.

The clock stops for the machine: from submit until the feedback and the
follow-up are shown, the session is in a grading wait (its clocks stopped,
the wait counted as grading time).  ctrl+f moves on without waiting: the
grade is finished in the background and the next question is asked.

``interviewer run`` paints ``SessionFrame`` (same layout, no machinery) before
the session exists; the app swaps this screen in once the library has loaded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static, TextArea

from interviewer.answers import AnswerError, check_answer
from interviewer.grading.types import Grade, GradeRequest, SessionGrader
from interviewer.session import Session, SessionError
from interviewer.transcripts import Turn
from interviewer.tui.formatting import first_line
from interviewer.tui.guard import guarded_dispatch
from interviewer.tui.messages import GradeChunk, GradeDone, GradeFailed, GradeStarted
from interviewer.tui.screens.confirm import ConfirmScreen
from interviewer.tui.widgets.conversation import Conversation, conversation_entries
from interviewer.tui.widgets.countdown import Countdown
from interviewer.tui.widgets.editor import AnswerEditor
from interviewer.tui.widgets.feedback import FeedbackPanel
from interviewer.tui.widgets.footer import Footer
from interviewer.tui.workers import grade_jobs, in_daemon_thread

TICK_SECONDS = 1.0
CHECKPOINT_EVERY_TICKS = 10
"""Save the clock about every ten seconds, so a resume starts close to where the session stopped."""
DRAFT_CHECK_SECONDS = 0.5
DRAFT_QUIET = 1.0
"""Save the draft once typing has paused this long..."""
DRAFT_MAX_AGE = 1.5
"""...or once the oldest unsaved keystroke is this old: a kill loses at most the last 2 s of typing."""
PLACEHOLDER = "Type your answer. ctrl+s submits; tab moves the focus, ctrl+] indents."


class SessionScreen(Screen[None]):
    """A running mock interview."""

    CSS_PATH = "session.tcss"
    BINDINGS = [
        Binding("f1", "app.help", "Help", tooltip="Keys and how a session works"),
        Binding("ctrl+s", "submit", "Submit", tooltip="Submit your answer for grading"),
        Binding("ctrl+l", "brief", "Brief", tooltip="Scenario, this phase's brief and the deliverables"),
        Binding("ctrl+f", "background", "Move on",
                tooltip="While a grade is pending: grade it in the background and take the next question"),
        Binding("ctrl+t", "hint", "Hint", tooltip="Show the heading of one missed key point (costs no time)"),
        Binding("ctrl+o", "pause", "Pause", tooltip="Stop the clock (practice mode only)"),
        Binding("ctrl+n", "skip", "Skip", tooltip="Skip this question"),
        Binding("ctrl+g", "next_phase", "Next phase", tooltip="Leave this phase and move on"),
        Binding("ctrl+r", "finish", "Finish", tooltip="End the interview and see the report"),
    ]
    draft_quiet = DRAFT_QUIET
    draft_max_age = DRAFT_MAX_AGE
    draft_clock: Callable[[], float] = staticmethod(time.monotonic)
    """Real time for the draft debounce (the session clock may be scaled or faked); tests replace it."""

    def __init__(self, session: Session, grader: SessionGrader) -> None:
        super().__init__()
        self.session = session
        self.grader = grader
        self.grading: int | None = None
        """Id of the turn being graded now, if any."""
        self._grade_queue: list[int] = []
        self._backlog: list[tuple[int, GradeRequest]] = []
        """Answers submitted while another grade was running (after ctrl+f); graded next."""
        self._ticks = 0
        self._finish_after_grading = False
        self._left = False
        self._editor: TextArea | None = None
        """Kept so the draft can still be read while the screen is being taken down."""
        self._typed_at: float | None = None
        """Monotonic time of the last keystroke not yet saved as a draft."""
        self._unsaved_since: float | None = None

    @property
    def running(self) -> bool:
        """A session is shown and has not finished: there is something to save."""
        return not self.session.finished and not self._left

    async def _dispatch_message(self, message: Message) -> None:
        # A bug in a handler of this screen must not end the interview (see InterviewerApp.recover).
        await guarded_dispatch(self, super()._dispatch_message, message)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield Static(Content.styled("Loading the case…", "italic"), id="where")
            yield Countdown("Phase", id="phase-clock")
            yield Countdown("Total", id="total-clock")
        yield Static(id="banner")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Conversation(id="conversation")
                yield AnswerEditor(id="editor", placeholder=PLACEHOLDER)
            yield FeedbackPanel(id="feedback")
        yield Footer()

    def on_mount(self) -> None:
        editor = self._editor = self.query_one("#editor", TextArea)
        editor.border_title = "Your answer"
        self.query_one("#conversation", Conversation).border_title = "Interview"
        editor.focus()
        draft = self.session.transcript.draft
        if draft and not editor.text:
            editor.load_text(draft)
            editor.move_cursor(editor.document.end)
        self.refresh_view()
        self.tick_timer = self.set_interval(TICK_SECONDS, self.tick, name="session-tick")
        """Tests that wind a fake clock pause this and call ``tick`` themselves."""
        self.set_interval(DRAFT_CHECK_SECONDS, self._draft_tick, name="draft-check")
        pending = self.session.pending_grades()
        if pending:
            self._start_grading(pending)

    def on_unmount(self) -> None:
        # Quitting mid-session: save the draft and the clock so a resume starts where this stopped.
        if self.running:
            self.save_now()

    # ------------------------------------------------------------------ drafts

    def has_draft(self) -> bool:
        """Unsubmitted text in the editor."""
        return self._editor is not None and bool(self._editor.text.strip())

    def save_now(self) -> bool:
        """Save the draft and the clock now (quit, signals, errors, phase changes); False if it failed."""
        if self.session.finished:
            return True
        try:
            if not (self._editor is not None and self._save_draft()):
                self.session.checkpoint()
        except OSError:
            return False
        return True

    def _save_draft(self) -> bool:
        """Write the editor's text as the draft if it changed; True when a save happened."""
        text = self._editor.text if self._editor is not None else ""
        self._typed_at = self._unsaved_since = None
        return self.session.save_draft(text)

    @on(TextArea.Changed, "#editor")
    def _editor_changed(self, event: TextArea.Changed) -> None:
        if self.session.finished:
            return
        if event.text_area.text == (self.session.transcript.draft or ""):
            return  # a load or clear that matches what is saved
        now = self.draft_clock()
        self._typed_at = now
        if self._unsaved_since is None:
            self._unsaved_since = now

    def _draft_tick(self) -> None:
        """Debounced draft save: after a pause in typing, or when unsaved text gets too old."""
        if self._typed_at is None or self._unsaved_since is None or not self.running:
            return
        now = self.draft_clock()
        if now - self._typed_at >= self.draft_quiet or now - self._unsaved_since >= self.draft_max_age:
            try:
                self._save_draft()
            except OSError as exc:
                self.notify(f"Could not save your draft: {exc}", severity="error", markup=False)

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
        # The phase name wraps rather than being cut; the case title goes on the conversation's border.
        where = Content.assemble(
            (f"Phase {index + 1}/{len(transcript.phases)} ", "$text-muted"),
            (session.phase.title, "bold"),
            (f" [{', '.join(tags)}]" if tags else "", "$warning"),
        )
        self.query_one("#where", Static).update(where)
        self.query_one("#conversation", Conversation).border_title = f"Interview · {session.case.title}"
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
        elif session.waiting_for_grade:
            text = Content("Grading: the clock is stopped until the feedback is shown. ctrl+f moves on now.")
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
        if self.grading is not None and self.session.current_turn is None:
            # A grade is still pending (ctrl+f) and nothing is left to answer (e.g. a strict timeout took the
            # question): the candidate waits for the machine again, so the clock stops again.
            self.session.begin_grading_wait()
        if self.session.transcript.phase_index != phase_before:
            self.save_now()  # a phase change is a save point for the draft too
            self.notify(f"Now in {self.session.phase.title}.", title="Next phase", markup=False)

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pause":
            return self.session.transcript.practice
        if action == "background":
            # Shown only while the candidate is waiting for a grade.
            return self.session.waiting_for_grade and self.session.current_turn is None
        return True

    def action_submit(self) -> None:
        session = self.session
        if session.finished:
            self.notify("The session has finished.", severity="warning")
            return
        if self.grading is not None and session.current_turn is None:
            self.notify("Still grading your last answer; your text stays in the editor. "
                        "ctrl+f moves on without waiting.", severity="warning")
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
            self._queue_grade(turn, request)
            self.refresh_view()
            return
        self._typed_at = self._unsaved_since = None
        editor.clear()
        self._queue_grade(turn, request)
        self.refresh_view()

    def _queue_grade(self, turn: Turn, request: GradeRequest) -> None:
        """Grade now, or after the grade already running (an answer submitted after ctrl+f)."""
        if self.grading is None:
            self._start_grading([turn], {turn.id: request})
            return
        self._backlog.append((turn.id, request))
        self.session.begin_grading_wait()

    def action_background(self) -> None:
        """Move on while the grade is pending: the clock restarts, the next question is asked."""
        session = self.session
        if not session.waiting_for_grade or session.current_turn is not None:
            self.notify("Nothing is being graded right now.", severity="warning")
            return
        before = session.transcript.phase_index
        try:
            session.move_on_while_grading()
        except (SessionError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.notify("Your answer is graded in the background; its feedback appears when ready. "
                    "No follow-up is asked on it.", title="Moved on", markup=False)
        self._after_change(before)
        self.refresh_view()

    def action_brief(self) -> None:
        from interviewer.tui.screens.brief import BriefScreen

        self.app.push_screen(BriefScreen(self.session.case, None if self.session.finished else self.session.phase))

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
                self.save_now()
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
            ("Brief and deliverables", "The scenario, this phase's brief and the deliverables", "brief"),
            ("Show scenario", "Scroll the interview back to the scenario", "scenario"),
            ("Submit answer", "Save and grade the answer in the editor", "submit"),
            ("Hint", "Show the heading of one missed key point", "hint"),
            ("Skip question", "Skip the question waiting for an answer", "skip"),
            ("Next phase", "Leave this phase and move on", "next_phase"),
            ("Finish interview", "End now and see the report", "finish"),
        ]
        if self.session.transcript.practice:
            commands.append(("Pause / resume clock", "Practice mode: stop or restart the clock", "pause"))
        if self.session.waiting_for_grade and self.session.current_turn is None:
            commands.append(("Move on, grade in background", "Take the next question now", "background"))
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
        if self.session.current_turn is None:
            self.session.begin_grading_wait()  # the candidate waits for the machine: stop the clock
        self._grade_queue = [turn_id for turn_id, _ in jobs]
        self.grading = jobs[0][0]
        self.query_one("#feedback", FeedbackPanel).show_grading(self._label(self.grading))
        self._grade_worker(jobs)

    @work(exclusive=True, exit_on_error=False, group="grade", description="grading")
    async def _grade_worker(self, jobs: list[tuple[int, GradeRequest]]) -> None:
        # The grader blocks (network); it runs in a daemon thread that only posts messages.
        grader, post, session = self.grader, self.post_message, self.session
        if grader is None:
            return

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
            self._end_wait_if_done()
            return
        except OSError as exc:
            self.notify(f"Could not save the grade: {exc}", severity="error", markup=False)
        self._end_wait_if_done()
        self.query_one("#feedback", FeedbackPanel).show_grade(message.grade, label)
        self._after_change(before)
        self.refresh_view()
        if self._finish_after_grading and self.grading is None and not self.session.pending_grades():
            self._show_report()

    def on_grade_failed(self, message: GradeFailed) -> None:
        self._grade_finished(message.turn_id)
        self._end_wait_if_done(failed=True)
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
        if self.grading is None and self._backlog:
            backlog, self._backlog = self._backlog, []
            turns = [t for t in self.session.transcript.turns if t.id in {tid for tid, _ in backlog}]
            self._start_grading(turns, dict(backlog))

    def _end_wait_if_done(self, *, failed: bool = False) -> None:
        """Restart the clock once something is shown to work on (a follow-up, the next question, an error)."""
        session = self.session
        if not session.waiting_for_grade:
            return
        if failed or session.finished or session.current_turn is not None or self.grading is None:
            try:
                session.end_grading_wait()
            except OSError as exc:
                self.notify(f"Could not save the session: {exc}", severity="error", markup=False)

    # ------------------------------------------------------------------ leaving

    def _show_report(self) -> None:
        if self._left:
            return
        self._left = True
        from interviewer.tui.screens.report import ReportScreen

        self.app.switch_screen(ReportScreen(self.session.transcript, self.session.case, self.session.store))

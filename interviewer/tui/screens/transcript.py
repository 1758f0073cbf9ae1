"""One saved session, turn by turn with its grades; regrade it with today's grader, export it.

Regrading runs in a thread worker through ``interviewer.regrade`` (the same
code as ``interviewer regrade``): each old grade moves to ``previous_grades``
and the transcript is saved through the store after every turn.
"""

from __future__ import annotations

from datetime import datetime

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Header, Static

from interviewer.clock import duration_text
from interviewer.content.schema import DIMENSION_TITLES, Case
from interviewer.grading.types import Grader
from interviewer.regrade import MAX_GRADES_PER_TURN
from interviewer.report import build_report
from interviewer.transcripts import Transcript, TranscriptStore, Turn
from interviewer.tui.formatting import overall_content, started_label
from interviewer.tui.messages import RegradeDone, RegradeFailed, RegradeProgress
from interviewer.tui.screens.exporting import EXPORT_BINDINGS, EXPORT_COMMANDS, TranscriptExportScreen
from interviewer.tui.widgets.footer import Footer
from interviewer.tui.widgets.grade_view import GradeView
from interviewer.tui.widgets.score_table import scores_content
from interviewer.tui.workers import RegradeJob, in_daemon_thread, regrade_saved

STATUS_TEXT = {
    "asked": "not answered",
    "answered": "answered, not graded yet",
    "graded": "graded",
    "skipped": "skipped",
    "timed_out": "time ran out",
}


def header_content(transcript: Transcript) -> Content:
    status = "finished" if transcript.status == "finished" else "unfinished"
    return Content.assemble(
        (transcript.case_title, "bold"),
        "\n",
        ("Overall ", "bold"),
        overall_content(transcript.overall),
        ("  ·  ", "$text-muted"),
        status,
        "\n",
        f"started {started_label(transcript.started)}",
        ("  ·  ", "$text-muted"),
        f"{duration_text(transcript.elapsed)} on the clock",
        ("\n", ""),
        (transcript.id, "$text-muted"),
    )


def turn_content(turn: Turn, phase_title: str) -> Content:
    kind = "Follow-up" if turn.kind == "follow_up" else "Question"
    probe = f" ({DIMENSION_TITLES.get(turn.probe_dimension, turn.probe_dimension)})" if turn.probe_dimension else ""
    parts: list[Content] = [
        Content.assemble(
            (f"{kind} {turn.id}{probe}", "bold $accent"), ("  ·  ", "$text-muted"), (phase_title, "$text-muted")
        ),
        Content(turn.prompt.strip()),
    ]
    for hint in turn.hints:
        parts.append(Content.assemble(("Hint taken: ", "$warning"), hint))
    parts.append(Content(""))
    if turn.answer is not None:
        took = ""
        if turn.answered_at is not None:
            took = f" (after {duration_text(turn.answered_at - turn.asked_at)})"
        parts.append(Content.styled(f"Your answer{took}", "bold"))
        parts.append(Content(turn.answer))
    else:
        parts.append(Content.styled(STATUS_TEXT.get(turn.status, turn.status), "italic $text-muted"))
    if turn.previous_grades:
        parts.append(history_content(turn))
    return Content("\n").join(parts)


def history_content(turn: Turn) -> Content:
    """The grades a regrade replaced, oldest first: score, per-dimension scores, who graded and when.

    A turn keeps at most ``MAX_GRADES_PER_TURN`` grades (this one included), so the list stays short.
    """
    lines = [Content.styled(f"Earlier grades, oldest first (the last {MAX_GRADES_PER_TURN} grades are kept)",
                            "$text-muted")]
    for g in turn.previous_grades:
        dims = " · ".join(f"{DIMENSION_TITLES.get(d, d)} {s.score}" for d, s in g.scored())
        who = f"model {g.model}" if g.grader == "llm" and g.model else "model" if g.grader == "llm" else "offline"
        if g.fallback_reason:
            who += " (fallback)"
        lines.append(Content.assemble(
            "  ", overall_content(g.overall), f"  {dims}  ", (f"{who}, {_when(g.graded_at)}", "$text-muted")))
    return Content("\n").join(lines)


def _when(iso: str | None) -> str:
    """A grade's time in local time; grades from before times were kept say so."""
    if not iso:
        return "time unknown"
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


class TranscriptScreen(TranscriptExportScreen):
    """Read every turn of one transcript with its grade."""

    CSS_PATH = "transcript.tcss"
    BINDINGS = [
        Binding("r", "regrade", "Regrade"),
        *EXPORT_BINDINGS,
        Binding("p", "report", "Report"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, transcript: Transcript, case: Case | None, store: TranscriptStore | None) -> None:
        super().__init__(transcript, case, store)
        self.regrading = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="regrade-status")
        yield VerticalScroll(id="turns")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Transcript"
        self.query_one("#regrade-status", Static).display = False
        self.show_transcript()
        self.query_one("#turns", VerticalScroll).focus()

    def show_transcript(self) -> None:
        """(Re)build the cards; called on mount and after a regrade."""
        container = self.query_one("#turns", VerticalScroll)
        container.remove_children()
        titles = {p.id: p.title for p in self.transcript.phases}
        cards: list[Widget] = [Static(header_content(self.transcript), classes="card head")]
        questions = build_report(self.transcript, self.case).questions
        cards.append(Static(scores_content(questions), classes="card scores"))
        if self.case is None:
            cards.append(
                Static(
                    Content(f"Case {self.transcript.case_id!r} is not in the library: outlines and regrading "
                            "are unavailable."),
                    classes="card warning",
                )
            )
        for turn in self.transcript.turns:
            cards.append(Static(turn_content(turn, titles.get(turn.phase_id, turn.phase_id)), classes="card turn"))
            if turn.grade is not None:
                cards.append(GradeView(turn.grade, classes="card grade"))
        container.mount_all(cards)

    def palette_commands(self) -> list[tuple[str, str, str]]:
        return [
            ("Regrade transcript", "Grade every answer again with the current grader", "regrade"),
            *EXPORT_COMMANDS,
            ("Open report", "Averages, time per phase, misses and outlines", "report"),
        ]

    # ------------------------------------------------------------------ actions

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_report(self) -> None:
        from interviewer.tui.screens.report import ReportScreen

        self.app.push_screen(ReportScreen(self.transcript, self.case, self.store))

    def action_regrade(self) -> None:
        if self.regrading:
            self.notify("A regrade is already running.", severity="warning")
            return
        if self.case is None or self.store is None:
            self.notify("This case is not in the library, so it cannot be regraded.", severity="error")
            return
        try:
            rubric = self.iapp.library.rubric_for(self.case)
        except KeyError:
            self.notify(f"Rubric {self.case.rubric!r} is missing.", severity="error", markup=False)
            return
        self.regrading = True
        self._status(Content(f"Regrading with {self.iapp.grader_status()}…"))
        job = RegradeJob(self.store.path_for(self.transcript.id), self.case, rubric)
        self._regrade_worker(self.iapp.grader, self.store, job)

    @work(exclusive=True, exit_on_error=False, group="regrade", description="regrading")
    async def _regrade_worker(self, grader: Grader, store: TranscriptStore, job: RegradeJob) -> None:
        # Model calls block; a daemon thread does them and only posts messages (see in_daemon_thread).
        post = self.post_message
        await in_daemon_thread(lambda cancelled: regrade_saved(grader, store, job, post, cancelled),
                               "interviewer-regrade")

    def _status(self, content: Content | None) -> None:
        status = self.query_one("#regrade-status", Static)
        status.display = content is not None
        if content is not None:
            status.update(content)

    def on_regrade_progress(self, message: RegradeProgress) -> None:
        self._status(Content(f"Regrading: {message.done} of {message.total} answers…"))

    def on_regrade_done(self, message: RegradeDone) -> None:
        self.regrading = False
        self.transcript = message.transcript
        self._status(None)
        self.show_transcript()
        self.notify(f"Regraded {message.regraded} answers; the old grades are kept as earlier grades.",
                    title="Regraded")

    def on_regrade_failed(self, message: RegradeFailed) -> None:
        self.regrading = False
        self._status(None)
        self.notify(message.reason, title="Regrade failed", severity="error", markup=False)

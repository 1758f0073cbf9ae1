"""Browse saved sessions: filter by case, date and score; open one to read, regrade or export it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, Input, Static

from interviewer.transcripts import Summary
from interviewer.tui.filtering import HELP, matches, parse_filter, status_words
from interviewer.tui.formatting import started_label
from interviewer.tui.messages import TranscriptsListed
from interviewer.tui.screens.base import TranscriptListScreen
from interviewer.tui.widgets.footer import Footer

CASE_WIDTH = 34


class ReviewScreen(TranscriptListScreen):
    """A filterable table of transcripts."""

    CSS_PATH = "review.tcss"
    BINDINGS = [
        Binding("slash", "focus_filter", "Filter"),
        Binding("enter", "open", "Open", show=False),
        Binding("u", "resume", "Resume"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.summaries: list[Summary] = []
        self.shown: list[Summary] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder=HELP, id="filter")
        yield DataTable(id="transcripts", cursor_type="row", zebra_stripes=True)
        yield Static(id="review-status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Review"
        table = self.query_one("#transcripts", DataTable)
        table.add_column("Started", key="started")
        table.add_column("Case", key="case", width=CASE_WIDTH)
        table.add_column("Status", key="status")
        table.add_column("Score", key="score")
        table.add_column("Answers", key="answers")
        table.add_column("Grader", key="grader")
        table.focus()

    def reload(self) -> None:
        self.query_one("#review-status", Static).update(Text("Loading transcripts…"))
        super().reload()

    def on_transcripts_listed(self, message: TranscriptsListed) -> None:
        self.summaries = message.summaries
        for problem in message.problems:
            self.notify(problem, severity="warning", markup=False)
        self.apply_filter()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.apply_filter()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#transcripts", DataTable).focus()

    def apply_filter(self) -> None:
        """Show the transcripts that match the filter line, keeping the cursor on the same one if it is still shown."""
        flt = parse_filter(self.query_one("#filter", Input).value)
        table = self.query_one("#transcripts", DataTable)
        keep = self.selected()
        self.shown = [s for s in self.summaries if matches(flt, s)]
        table.clear()
        for summary in self.shown:
            title = summary.case_title if len(summary.case_title) <= CASE_WIDTH else (
                summary.case_title[: CASE_WIDTH - 1] + "…"
            )
            table.add_row(
                Text(started_label(summary.started)),
                Text(title),
                Text(status_words(summary.status).split()[0]),
                Text("–" if summary.overall is None else f"{summary.overall:>3}", justify="right"),
                Text(str(summary.answered), justify="right"),
                Text(summary.grader or "–"),
                key=summary.id,
            )
        if keep is not None and keep in self.shown:
            table.move_cursor(row=self.shown.index(keep))
        total = len(self.summaries)
        status = f"{len(self.shown)} of {total} transcripts in {self.iapp.store.root}"
        if not total:
            status = f"No transcripts yet in {self.iapp.store.root}. Finish a session and it appears here."
        self.query_one("#review-status", Static).update(Text(status))

    def selected(self) -> Summary | None:
        table = self.query_one("#transcripts", DataTable)
        if not self.shown or table.cursor_row < 0 or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def palette_commands(self) -> list[tuple[str, str, str]]:
        return [
            ("Filter transcripts", "Type words, a date (2026-05) or a score (>=70)", "focus_filter"),
            ("Open transcript", "Read the selected session", "open"),
            ("Resume session", "Continue the selected unfinished session", "resume"),
        ]

    # ------------------------------------------------------------------ actions

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_back(self) -> None:
        if self.query_one("#filter", Input).has_focus:
            self.query_one("#transcripts", DataTable).focus()
            return
        self.iapp.go_home()

    @on(DataTable.RowSelected, "#transcripts")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        summary = self.selected()
        if summary is not None:
            self.iapp.open_transcript(summary.path)

    def action_resume(self) -> None:
        summary = self.selected()
        if summary is None:
            return
        if summary.status == "finished":
            self.notify("That session has finished; open it to read or regrade it.", severity="warning")
            return
        self.iapp.resume_session(summary.id)

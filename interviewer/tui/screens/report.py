"""The end-of-session report: averages, time per phase, strongest and weakest areas, misses, outlines.

All figures come from ``interviewer.report.build_report`` (the same ones the
Markdown export and ``interviewer show`` print); this screen only draws them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Header, Static

from interviewer.clock import duration_text
from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Case
from interviewer.report import QuestionReview, Report, TurnScore, build_report, dimension_title
from interviewer.transcripts import Transcript, TranscriptStore
from interviewer.tui.formatting import overall_content, score_bar
from interviewer.tui.screens.exporting import EXPORT_BINDINGS, EXPORT_COMMANDS, TranscriptExportScreen
from interviewer.tui.widgets.footer import Footer

LABEL_WIDTH = 16


def summary_content(report: Report, transcript: Transcript) -> Content:
    names = {"llm": "the model", "keyword": "the offline keyword grader"}
    graders = " and ".join(names.get(g, g) for g in sorted(report.graders, key=lambda g: g != "llm"))
    return Content.assemble(
        (report.case_title, "bold"),
        "\n",
        ("Overall ", "bold"),
        overall_content(report.overall),
        ("  ·  ", "$text-muted"),
        f"{report.answered} answered, {report.skipped} skipped",
        ("  ·  Follow-ups ", "$text-muted"),
        overall_content(report.follow_up_overall),
        "\n",
        f"Graded by {graders or 'nobody yet'}",
        "\n",
        (report.overall_rule, "$text-muted"),
        (f"\n{report.grader_note}" if report.grader_note else "", "$text-muted"),
        "\n",
        time_content(transcript),
        ("\nSession ", "$text-muted"),
        (transcript.id, "$text-muted"),
    )


def time_content(transcript: Transcript) -> Content:
    """Candidate time and grading time, apart: the clock was stopped while the machine graded."""
    return Content.assemble(
        ("Your time ", "bold"),
        duration_text(transcript.elapsed),
        ("  ·  ", "$text-muted"),
        ("Grading time ", "bold"),
        duration_text(transcript.grading_s),
        (" (clock stopped)", "$text-muted"),
    )


def went_over(used_s: float, budget_s: float) -> bool:
    """Over only when the shown times differ: "01:00 / 01:00" is never "over"."""
    return int(used_s) > int(budget_s)


def dimensions_content(report: Report) -> Content:
    lines = [Content.styled("Dimension averages", "bold")]
    for dim in DIMENSIONS:
        value = report.averages.get(dim)
        title = DIMENSION_TITLES[dim].ljust(LABEL_WIDTH)
        if value is None:
            lines.append(Content.assemble(title, ("not graded", "$text-muted")))
        else:
            lines.append(Content.assemble(title, score_bar(value), f" {report.average_label(dim)}"))
    if report.strongest is not None:
        lines.append(Content(""))
        lines.append(Content.assemble(("Strongest  ", "bold $success"), dimension_title(report.strongest)))
        lines.append(Content.assemble(("Weakest    ", "bold $error"), dimension_title(report.weakest)))
    return Content("\n").join(lines)


def phases_content(report: Report) -> Content:
    lines = [Content.styled("Time per phase (used / budget)", "bold")]
    for phase in report.phases:
        title = phase.title if len(phase.title) < LABEL_WIDTH else phase.title[: LABEL_WIDTH - 2] + "…"
        over = went_over(phase.used_s, phase.budget_s)
        used = Content.styled(duration_text(phase.used_s), "bold $warning" if over else "bold")
        lines.append(
            Content.assemble(
                title.ljust(LABEL_WIDTH),
                used,
                f" / {duration_text(phase.budget_s)}",
                (" over" if over else "", "$warning"),
            )
        )
    if report.fallbacks:
        lines += [Content(""), Content.styled("Fell back to offline grading because", "bold $warning")]
        lines += [Content.assemble("  • ", reason) for reason in report.fallbacks]
    return Content("\n").join(lines)


def _scores_line(label: str, score: TurnScore) -> Content:
    parts = [f"{DIMENSION_TITLES[d]} {score.scores[d]}" for d in DIMENSIONS if d in score.scores]
    return Content.assemble(
        (label.ljust(LABEL_WIDTH), "bold"), f"{score.overall}/100  ", (" · ".join(parts), "$text-muted")
    )


def question_content(index: int, review: QuestionReview) -> Content:
    lines = [Content.assemble((f"Q{index}  ", "bold $accent"), (review.prompt.strip(), "bold"))]
    if review.main is not None:
        lines.append(_scores_line("Main answer", review.main))
    for follow_up in review.follow_ups:
        lines.append(_scores_line("Follow-up", follow_up))
    if review.missed:
        lines.append(Content.styled("Key points missed", "$error"))
        lines += [Content.assemble("  • ", item) for item in review.missed]
    if review.outline:
        lines.append(Content.styled("Model answer outline", "$success"))
        lines += [Content.assemble("  • ", item) for item in review.outline]
    return Content("\n").join(lines)


class ReportScreen(TranscriptExportScreen):
    """Shown when a session ends; also reachable from a transcript in review."""

    CSS_PATH = "report.tcss"
    BINDINGS = [
        *EXPORT_BINDINGS,
        Binding("t", "transcript", "Transcript"),
        Binding("d", "drill_weakest", "Drill 3 weakest"),
        Binding("escape,h", "home", "Home"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, transcript: Transcript, case: Case | None, store: TranscriptStore | None) -> None:
        super().__init__(transcript, case, store)
        self.report = build_report(transcript, case)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="report"):
            yield Static(summary_content(self.report, self.transcript), id="summary", classes="card")
            yield Static(dimensions_content(self.report), id="dimensions", classes="card")
            yield Static(phases_content(self.report), id="phases", classes="card")
            for index, review in enumerate(self.report.questions, start=1):
                yield Static(question_content(index, review), classes="card question")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Report"
        self.query_one("#report", VerticalScroll).focus()

    def palette_commands(self) -> list[tuple[str, str, str]]:
        return [
            *EXPORT_COMMANDS,
            ("Open transcript", "Read every turn with its grade", "transcript"),
            ("Drill the 3 weakest again", "A short timed session of this session's 3 weakest questions",
             "drill_weakest"),
            ("Home", "Back to the home screen", "home"),
        ]

    def action_transcript(self) -> None:
        from interviewer.tui.screens.transcript import TranscriptScreen

        self.app.push_screen(TranscriptScreen(self.transcript, self.case, self.store))

    def action_home(self) -> None:
        self.iapp.go_home()

    def action_drill_weakest(self) -> None:
        """Drill this session's 3 weakest questions again, whether or not they are due yet."""
        from interviewer.drills import weakest_questions
        from interviewer.tui.start import Drill

        weakest = weakest_questions(self.transcript, 3)
        if not weakest:
            self.notify("No graded main answers to drill yet.")
            return
        self.iapp.go_home()
        self.iapp.start_drill(Drill(self.transcript.case_id, tuple(weakest)))

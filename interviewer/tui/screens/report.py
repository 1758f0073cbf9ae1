"""The end-of-session report: averages, time per phase, strongest and weakest areas, misses, outlines.

All figures come from ``interviewer.report.build_report`` (the same ones the
Markdown export and ``interviewer show`` print); this screen only draws them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Header, Static

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Case
from interviewer.report import QuestionReview, Report, build_report, dimension_title
from interviewer.session import duration_text
from interviewer.transcripts import Transcript, TranscriptStore
from interviewer.tui.formatting import overall_content, score_bar
from interviewer.tui.screens.base import EXPORT_BINDINGS, EXPORT_COMMANDS, TranscriptExportScreen

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
        "\n",
        f"Graded by {graders or 'nobody yet'}",
        ("\nSession ", "$text-muted"),
        (transcript.id, "$text-muted"),
    )


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
        used = Content.styled(duration_text(phase.used_s), "bold $warning" if phase.over else "bold")
        lines.append(
            Content.assemble(
                title.ljust(LABEL_WIDTH),
                used,
                f" / {duration_text(phase.budget_s)}",
                (" over" if phase.over else "", "$warning"),
            )
        )
    if report.fallbacks:
        lines += [Content(""), Content.styled("Fell back to offline grading because", "bold $warning")]
        lines += [Content.assemble("  • ", reason) for reason in report.fallbacks]
    return Content("\n").join(lines)


def question_content(index: int, review: QuestionReview) -> Content:
    lines = [Content.assemble((f"Q{index}  ", "bold $accent"), (review.prompt.strip(), "bold"))]
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
            ("Home", "Back to the home screen", "home"),
        ]

    def action_transcript(self) -> None:
        from interviewer.tui.screens.transcript import TranscriptScreen

        self.app.push_screen(TranscriptScreen(self.transcript, self.case, self.store))

    def action_home(self) -> None:
        self.iapp.go_home()

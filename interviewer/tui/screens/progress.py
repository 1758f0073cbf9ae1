"""Progress: per-dimension scores over time (a textual-plotext plot), the weakest questions and dimensions,
and the drill queue.  The same figures as ``interviewer progress``, drawn by the same ``progress_plot.draw``.

Reading every transcript and the drill store happens in a thread worker that
posts one ``ProgressLoaded``; only its handler touches the widgets.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Header, Static
from textual_plotext import PlotextPlot

from interviewer.content.schema import DIMENSION_TITLES
from interviewer.digest import SessionDigest
from interviewer.drills import DrillStore, Queue, queue_lines
from interviewer.progress import Progress, progress
from interviewer.progress_plot import can_plot, draw
from interviewer.transcripts import TranscriptStore
from interviewer.tui.screens.base import AppScreen
from interviewer.tui.widgets.footer import Footer


class ProgressLoaded(Message):
    """The worker read the transcripts and the drill queue."""

    def __init__(self, transcripts: list[SessionDigest], queue: Queue, problems: list[str]) -> None:
        super().__init__()
        self.transcripts = transcripts
        self.queue = queue
        self.problems = problems


def dimensions_content(result: Progress) -> Content:
    lines = [Content.styled("Weakest dimensions (recent sessions)", "bold")]
    if not result.weakest_dimensions:
        lines.append(Content.styled("No graded answers yet.", "italic $text-muted"))
    for dim, value in result.weakest_dimensions:
        trend = result.trend.get(dim)
        lines.append(Content.assemble(f"{DIMENSION_TITLES[dim]:<15}", f"{value:.1f}/4",
                                      (f"  {trend}" if trend else "", "$text-muted")))
    note = result.history_note()
    if note and result.sessions:
        lines += [Content(""), Content.styled(note, "$warning")]
    return Content("\n").join(lines)


def questions_content(result: Progress) -> Content:
    lines = [Content.styled("Weakest questions (latest main answer)", "bold")]
    if not result.weakest_questions:
        lines.append(Content.styled("No graded answers yet.", "italic $text-muted"))
    for q in result.weakest_questions:
        prompt = " ".join(q.prompt.split())
        lines.append(Content.assemble((f"{q.overall:>3}/100  ", "bold"), (f"{q.case_id}/{q.question_id}", "$accent")))
        lines.append(Content.assemble("         ", (prompt[:70] + ("…" if len(prompt) > 70 else ""), "$text-muted")))
    return Content("\n").join(lines)


class ProgressScreen(AppScreen):
    """Scores over time, weak areas and what to drill; ``c`` cycles the case shown, ``d`` starts a drill."""

    CSS_PATH = "progress.tcss"
    BINDINGS = [
        Binding("d", "drill", "Drill due"),
        Binding("c", "next_case", "Case"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.transcripts: list[SessionDigest] = []
        self.queue: Queue | None = None
        self.case_id: str | None = None
        """The case shown, or None for every session."""
        self.result = Progress()

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="progress"):
            yield Static(Content.styled("Reading your sessions…", "italic"), id="history-note")
            yield PlotextPlot(id="dimension-plot")
            with Horizontal(id="weak-areas"):
                yield Static(id="weakest-dimensions", classes="card")
                yield Static(id="weakest-questions", classes="card")
            yield Static(id="drill-queue", classes="card")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Progress"
        self.query_one("#dimension-plot", PlotextPlot).display = False
        self.query_one("#progress", VerticalScroll).focus()
        self._load(self.iapp.store)

    @work(thread=True, exclusive=True, exit_on_error=False, group="progress", description="reading progress")
    def _load(self, store: TranscriptStore) -> None:
        digests, problems = store.digests()  # through the summary index: unchanged files are not parsed
        queue = DrillStore(store.root).queue()
        self.post_message(ProgressLoaded(digests, queue, problems))

    def on_progress_loaded(self, message: ProgressLoaded) -> None:
        self.transcripts = message.transcripts
        self.queue = message.queue
        if message.problems:
            self.notify(f"{len(message.problems)} transcript files could not be read.", severity="warning")
        self.show()

    def cases(self) -> list[str]:
        return sorted({t.case_id for t in self.transcripts})

    def show(self) -> None:
        """Draw everything for the chosen case (or every session)."""
        chosen = [t for t in self.transcripts if self.case_id is None or t.case_id == self.case_id]
        self.result = result = progress(chosen)
        scope = f"case {self.case_id}" if self.case_id else "every case"
        self.query_one("#progress", VerticalScroll).border_title = f"Progress · {scope}"
        note = self.query_one("#history-note", Static)
        plot = self.query_one("#dimension-plot", PlotextPlot)
        if not result.sessions:
            note.update(Content.styled(f"No graded sessions in {self.iapp.store.root} yet: answer a few questions "
                                       "and your scores show up here.", "italic"))
        elif not can_plot(result):
            note.update(Content.styled(result.history_note() or "", "$warning"))
        else:
            n = len(result.sessions)
            note.update(Content.assemble((f"{n} graded sessions", "bold"), (f" · {scope}", "$text-muted"),
                                         (" · c: another case" if len(self.cases()) > 1 else "", "$text-muted")))
        plot.display = can_plot(result)
        if plot.display:
            draw(plot.plt, result)
            plot.refresh()
        self.query_one("#weakest-dimensions", Static).update(dimensions_content(result))
        self.query_one("#weakest-questions", Static).update(questions_content(result))
        lines = queue_lines(self.queue, self.case_id, hint="press d to drill") if self.queue is not None else []
        self.query_one("#drill-queue", Static).update(
            Content("\n").join([Content.styled(lines[0], "bold"), *(Content(line) for line in lines[1:])])
            if lines else Content(""))

    # ------------------------------------------------------------------ actions

    def action_next_case(self) -> None:
        options: list[str | None] = [None, *self.cases()]
        self.case_id = options[(options.index(self.case_id) + 1) % len(options)] if self.case_id in options else None
        self.show()

    def action_drill(self) -> None:
        self.iapp.drill_due()

    def action_back(self) -> None:
        self.app.pop_screen()

    def palette_commands(self) -> list[tuple[str, str, str]]:
        return [("Drill due questions", "A short timed session of the questions due for review", "drill"),
                ("Show another case", "Cycle through the cases you have practised, then every case", "next_case")]

"""Home: pick a case or bank, see recent sessions and the grader, resume an unfinished session.

The screen paints before the case library is loaded (``library_ready``
fills the list in) and says whether the grading endpoint answers only once a
worker has probed it, so neither delays the first frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from interviewer.tui.formatting import first_line, overall_content, started_label
from interviewer.tui.messages import EndpointChecked, TranscriptsListed
from interviewer.tui.screens.base import TranscriptListScreen
from interviewer.tui.start import Run
from interviewer.tui.widgets.drills_due import DrillsDue
from interviewer.tui.widgets.footer import Footer

if TYPE_CHECKING:  # the first screen painted: the domain is imported only once it has loaded (see tui.app)
    from interviewer.content.schema import Case
    from interviewer.transcripts import Summary

RECENT = 8
"""How many recent sessions the home screen lists (the review screen has them all)."""


def case_option(case: Case) -> Option:
    kind = "question bank" if case.kind == "bank" else "case"
    count = len(case.questions())
    return Option(
        Content.assemble(
            (case.title, "bold"),
            "\n",
            (f"{kind} · {case.minutes:g} min · {count} question{'s' if count != 1 else ''} · {case.id}", "$text-muted"),
        ),
        id=case.id,
    )


def recent_option(summary: Summary) -> Option:
    state = "finished" if summary.status == "finished" else "unfinished"
    return Option(
        Content.assemble(
            (first_line(summary.case_title, 40), "bold"),
            "  ",
            overall_content(summary.overall),
            "\n",
            (f"{started_label(summary.started)} · {state}", "$text-muted"),
        ),
        id=summary.id,
    )


class HomeScreen(TranscriptListScreen):
    """The first screen of ``interviewer`` with no subcommand."""

    CSS_PATH = "home.tcss"
    BINDINGS = [
        Binding("enter", "start", "Start", key_display="⏎"),
        Binding("r", "resume", "Resume"),
        Binding("v", "review", "Review"),
        Binding("d", "drill", "Drill"),
        Binding("p", "progress", "Progress"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.recent: list[Summary] = []
        self.unfinished: list[Summary] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="home-body"):
            with Vertical(id="cases-pane"):
                yield OptionList(*(self._case_options() if self.iapp.ready else []), id="cases")
            with Vertical(id="side-pane"):
                yield Static(id="grader-status")
                yield Static(id="calibration")
                yield Static(id="resume")
                yield DrillsDue(id="drills-due")
                yield OptionList(id="recent")
        yield Footer()

    def _case_options(self) -> list[Option | None]:
        cases = sorted(self.iapp.library.cases.values(), key=lambda c: (c.kind != "case", c.title.casefold()))
        options: list[Option | None] = []
        for index, case in enumerate(cases):
            if index:
                options.append(None)  # a separator line
            options.append(case_option(case))
        return options

    def on_mount(self) -> None:
        self.sub_title = "Mock interviews for AI infrastructure"
        self.query_one("#cases-pane").border_title = "Cases and question banks"
        self.query_one("#cases-pane").border_subtitle = "Enter: options and start"
        self.query_one("#side-pane").border_title = "Sessions"
        self.query_one("#resume", Static).display = False
        self.query_one("#cases", OptionList).focus()
        if self.iapp.ready:
            self._fill_cases()
        else:
            self.query_one("#cases", OptionList).add_option(
                Option(Content.styled("Loading cases…", "italic"), disabled=True))
            self._show_grader("loading…")

    def library_ready(self) -> None:
        """The app loaded the library and the grader after the first paint: fill the list in."""
        cases = self.query_one("#cases", OptionList)
        cases.clear_options()
        cases.add_options(self._case_options())
        if cases.option_count:
            cases.highlighted = 0  # as when composed with its options: Enter starts the first case
        self._fill_cases()
        if self.app.screen is self:  # the folder is known now; under a session, it is listed when home is shown again
            self.reload()
        self.refresh_bindings()

    def _fill_cases(self) -> None:
        self._show_calibration()
        cases = self.query_one("#cases", OptionList)
        if not cases.option_count:
            cases.add_option(Option(Content("No cases found. Check the cases folder (interviewer cases)."),
                                    disabled=True))
        online = self.iapp.settings.online  # an endpoint is configured and not overridden by --offline
        self._show_grader(self.iapp.grader_status() + (" · checking the endpoint…" if online else ""))
        if online:
            self._check_endpoint()
        problems = self.iapp.library.problems
        if problems:
            self.notify(f"{len(problems)} problems while loading cases; 'interviewer validate' lists them.",
                        severity="warning", markup=False)

    def _show_calibration(self) -> None:
        """The latest ``interviewer calibrate`` result under the grader's status; hidden when there is none."""
        from interviewer.calibration_report import load_latest, status_line
        from interviewer.grading.errors import safe_url

        saved = load_latest()  # a small JSON file: read before the first paint
        widget = self.query_one("#calibration", Static)
        widget.display = saved is not None
        if saved is not None:
            settings = self.iapp.settings
            current = safe_url(settings.base_url) if settings.online and settings.base_url else None
            widget.update(Content.assemble(("Calibration  ", "bold"), (status_line(saved, current), "$text-muted")))

    def _show_grader(self, text: str, style: str = "") -> None:
        self.query_one("#grader-status", Static).update(Content.assemble(("Grader  ", "bold"), (text, style)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="endpoint", description="checking the endpoint")
    def _check_endpoint(self) -> None:
        from interviewer.tui.workers import probe_endpoint

        reachable, text = probe_endpoint(self.iapp.settings)
        self.post_message(EndpointChecked(reachable, text))

    def on_endpoint_checked(self, message: EndpointChecked) -> None:
        status = self.iapp.grader_status()
        if message.reachable:
            self._show_grader(f"{status} · reachable ({message.text})", "$success")
        else:
            reason = message.text if message.text.startswith("endpoint ") else f"unreachable: {message.text}"
            self._show_grader(f"{status} · {reason}; answers are graded offline until it answers", "$error")

    def on_transcripts_listed(self, message: TranscriptsListed) -> None:
        self.query_one(DrillsDue).recount(self.iapp.store.root)  # the sessions changed: so may the drill queue
        self.recent = message.summaries[:RECENT]
        self.unfinished = [s for s in message.summaries if s.status == "in_progress"]
        recent = self.query_one("#recent", OptionList)
        recent.clear_options()
        for index, summary in enumerate(self.recent):
            if index:
                recent.add_option(None)  # a separator line
            recent.add_option(recent_option(summary))
        recent.display = bool(self.recent)
        resume = self.query_one("#resume", Static)
        if self.unfinished:
            latest = self.unfinished[0]
            more = f" (+{len(self.unfinished) - 1} more in Review)" if len(self.unfinished) > 1 else ""
            resume.update(
                Content.assemble(
                    ("Unfinished: ", "bold"),
                    latest.case_title,
                    (f", started {started_label(latest.started)}{more}. ", "$text-muted"),
                    ("Press r to resume.", "bold"),
                )
            )
            resume.display = True
        else:
            resume.display = False
        self.refresh_bindings()
        if not self.recent:
            resume.update(Content.styled(
                f"No sessions in {self.iapp.store.root} yet. Pick a case and press Enter.", "italic"))
            resume.display = True
        elif len(message.summaries) > RECENT:
            recent.add_option(Option(Content.styled(f"… {len(message.summaries) - RECENT} more: press v", "italic"),
                                     disabled=True))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("start", "resume") and not self.iapp.ready:
            return False
        if action == "resume":
            return bool(self.unfinished)
        return True

    def palette_commands(self) -> list[tuple[str, str, str]]:
        commands = [("Start selected case", "Choose options and start the interview", "start"),
                    ("Review transcripts", "Browse, regrade and export saved sessions", "review")]
        if self.unfinished:
            commands.append(("Resume unfinished session", "Continue where the clock stopped", "resume"))
        return commands

    # ------------------------------------------------------------------ actions

    @on(OptionList.OptionSelected, "#cases")
    def _case_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.choose(event.option.id)

    def action_start(self) -> None:
        cases = self.query_one("#cases", OptionList)
        option = cases.highlighted_option
        if option is not None and option.id:
            self.choose(option.id)

    def choose(self, case_id: str) -> None:
        """Ask for the session options, then start."""
        if not self.iapp.ready:
            return
        from interviewer.tui.screens.start import StartScreen

        case = self.iapp.library.cases.get(case_id)
        if case is None:
            return

        def started(run: Run | None) -> None:
            if run is not None:
                self.iapp.start_session(run)

        self.app.push_screen(StartScreen(case, self.iapp.settings.phase_timeout), started)

    @on(OptionList.OptionSelected, "#recent")
    def _recent_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        summary = next((s for s in self.recent if s.id == event.option.id), None)
        if summary is None:
            return
        if summary.status == "in_progress":
            if not self.iapp.ready:
                self.notify("Still loading the cases; try again in a moment.")
                return
            self.iapp.resume_session(summary.id)
        else:
            self.iapp.open_transcript(summary.path)

    def action_resume(self) -> None:
        if not self.unfinished:
            self.notify("No unfinished session to resume.")
            return
        self.iapp.resume_session(self.unfinished[0].id)

    def action_review(self) -> None:
        self.iapp.open_review()

    def action_drill(self) -> None:
        self.iapp.drill_due()

    def action_progress(self) -> None:
        self.iapp.open_progress()

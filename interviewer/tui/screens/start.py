"""Before a session starts: the scenario, the phases, and the options (minutes, practice, strict).

Dismisses with a ``Run`` to start, or None when cancelled.  Showing the
scenario here lets the candidate read it before the clock runs.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from interviewer.content.schema import Case
from interviewer.tui.start import Run


def case_content(case: Case) -> Content:
    lines = [Content.styled(case.title, "bold"), Content(case.scenario.strip()), Content("")]
    lines.append(Content.styled("Phases", "bold"))
    for phase in case.phases:
        count = len(phase.questions)
        plural = "s" if count != 1 else ""
        lines.append(
            Content.assemble("  • ", phase.title, (f"  {phase.minutes:g} min, {count} question{plural}", "$text-muted"))
        )
    if case.deliverables:
        lines += [Content(""), Content.styled("Deliverables", "bold")]
        lines += [Content.assemble("  • ", item) for item in case.deliverables]
    return Content("\n").join(lines)


class StartScreen(ModalScreen[Run | None]):
    """Session options for one case."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", show=False),
        # The case text (scenario, phases, deliverables) is often longer than the box: page it from anywhere.
        Binding("pagedown", "scroll_info(1)", "Scroll down", show=False),
        Binding("pageup", "scroll_info(-1)", "Scroll up", show=False),
    ]

    def __init__(self, case: Case, phase_timeout: str) -> None:
        super().__init__()
        self.case = case
        self.phase_timeout = phase_timeout

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide tall"):
            with VerticalScroll(id="case-info"):
                yield Static(case_content(self.case))
            with Horizontal(classes="options"):
                yield Label("Minutes")
                yield Input(f"{self.case.minutes:g}", id="minutes", type="number", classes="minutes")
                yield Checkbox("Practice (pause allowed)", self.case.kind == "bank", id="practice")
                yield Checkbox("Strict timing", self.phase_timeout == "strict", id="strict")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        info = self.query_one("#case-info", VerticalScroll)
        info.border_subtitle = "pgup/pgdn scroll"
        self.query_one("#start", Button).focus()

    def action_scroll_info(self, direction: int) -> None:
        info = self.query_one("#case-info", VerticalScroll)
        if direction > 0:
            info.scroll_page_down(animate=False)
        else:
            info.scroll_page_up(animate=False)

    def _run(self) -> None:
        raw = self.query_one("#minutes", Input).value.strip()
        try:
            minutes = float(raw) if raw else self.case.minutes
        except ValueError:
            minutes = -1
        if not 0 < minutes <= 600:
            self.notify("Minutes must be a number between 1 and 600.", severity="error")
            self.query_one("#minutes", Input).focus()
            return
        self.dismiss(
            Run(
                case_id=self.case.id,
                minutes=None if minutes == self.case.minutes else minutes,
                practice=self.query_one("#practice", Checkbox).value,
                phase_timeout="strict" if self.query_one("#strict", Checkbox).value else "soft",
            )
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._run()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self._run()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)

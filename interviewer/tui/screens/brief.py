"""The brief (ctrl+l): the scenario, this phase's brief and the deliverables, scrollable from the keyboard.

At 80x24 the conversation has room for the current exchange only; this modal
puts everything the candidate was told in one place they can page through
(up/down, pageup/pagedown, home/end) and close with escape.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from interviewer.content.schema import Case, Phase


def brief_content(case: Case, phase: Phase | None) -> Content:
    """Scenario, phase brief and deliverables as one block of text (user text shown literally)."""
    lines = [Content.styled(case.title, "bold"), Content(""), Content.styled("Scenario", "bold $accent")]
    lines.append(Content(case.scenario.strip()))
    if phase is not None:
        lines += [Content(""), Content.assemble(("This phase: ", "bold $accent"), (phase.title, "bold"))]
        if phase.brief.strip():
            lines.append(Content(phase.brief.strip()))
    if case.deliverables:
        lines += [Content(""), Content.styled(f"Deliverables ({len(case.deliverables)})", "bold $accent")]
        lines += [Content.assemble("  • ", item) for item in case.deliverables]
    lines += [Content(""), Content.styled("escape closes · up/down, pageup/pagedown scroll", "$text-muted")]
    return Content("\n").join(lines)


class BriefScreen(ModalScreen[None]):
    """What the candidate was asked to do, on demand."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape,q,ctrl+l", "close", "Close", show=False)]

    def __init__(self, case: Case, phase: Phase | None) -> None:
        super().__init__()
        self.case = case
        self.phase = phase

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide tall", id="brief"), VerticalScroll(id="brief-scroll"):
            yield Static(brief_content(self.case, self.phase), id="brief-text")

    def on_mount(self) -> None:
        self.query_one("#brief-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

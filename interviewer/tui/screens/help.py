"""Help (F1 or ?): the keys of the screen you came from, and how a session works."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

ABOUT = [
    "Each phase has a time budget. The interviewer asks; you answer in the editor and submit.",
    "Your answer is saved before it is graded. After the grade the interviewer asks one follow-up "
    "on your weakest point, then moves on.",
    "When a phase's time is up, soft timing lets you finish the answer; strict timing moves on at once.",
    "The clock stops from submit until the feedback and the follow-up are shown: grading time is not "
    "your time. ctrl+f moves on at once and lets the grade finish in the background (no follow-up on it).",
    "A hint shows the heading of one key point you missed. It costs no time and is recorded.",
    "ctrl+l shows the scenario, this phase's brief and the deliverables.",
    "What you type is saved as a draft as you go (within 2 s) and comes back when you resume.",
    "Quit any time with ctrl+q (it asks first if you have unsent text): the session is saved and can be "
    "resumed from the home screen.",
    "tab and shift+tab move the focus between the interview, your answer and the feedback (the focused "
    "pane has a bold border); in the editor ctrl+] indents. escape leaves a dialog or goes back.",
]


class HelpScreen(ModalScreen[None]):
    """A list of key bindings plus a short explanation."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape,f1,q,question_mark", "close", "Close", show=False)]

    def __init__(self, title: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.keys = keys

    def compose(self) -> ComposeResult:
        width = max((len(k) for k, _ in self.keys), default=4) + 2
        lines = [Content.styled(f"Keys: {self.title_text}", "bold")]
        lines += [Content.assemble((key.ljust(width), "bold $accent"), text) for key, text in self.keys]
        lines += [Content(""), Content.styled("How a session works", "bold")]
        lines += [Content.assemble("• ", text) for text in ABOUT]
        lines += [Content(""), Content.styled("escape closes this help", "$text-muted")]
        with Vertical(classes="dialog wide tall", id="help"), VerticalScroll():
            yield Static(Content("\n").join(lines))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

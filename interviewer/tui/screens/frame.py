"""The session's frame, painted by ``interviewer run`` before the session exists.

It has the session screen's shape (the phase line, both countdowns at
``--:--``, the interview pane, the answer box, the feedback pane and the
footer) but none of its machinery, so it needs nothing from the domain and
not even Textual's editor: the app draws it as its first screen, before
pydantic, the library and the grader are loaded, and puts the home screen
and the real ``SessionScreen`` in its place once they are (see ``tui.app``).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from interviewer.tui.widgets.countdown import Countdown
from interviewer.tui.widgets.footer import Footer

LOADING = "Loading the case…"


class SessionFrame(Screen[None]):
    """What ``run`` shows until the session is ready: the session screen's layout, with placeholders."""

    CSS_PATH = "session.tcss"

    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield Static(Content.styled(LOADING, "italic"), id="where")
            yield Countdown("Phase", id="phase-clock")
            yield Countdown("Total", id="total-clock")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="conversation")
                yield Static(id="editor")  # not an editor yet: nothing can be typed before the session exists
            yield Static(id="feedback")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#conversation", Static).border_title = "Interview"
        self.query_one("#editor", Static).border_title = "Your answer"
        self.query_one("#feedback", Static).border_title = "Feedback"
        self.query_one("#phase-clock", Countdown).placeholder()
        self.query_one("#total-clock", Countdown).placeholder()

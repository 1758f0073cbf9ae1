"""The feedback panel: what the grader is saying right now, then the grade it gave.

States: waiting (nothing graded yet), grading (streamed feedback appears as
it arrives), graded (the full grade) and failed (one line, with what to do).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from interviewer.grading.types import Grade
from interviewer.tui.guard import guarded_dispatch
from interviewer.tui.widgets.grade_view import GradeView

STREAM_LINES = 8
"""Lines of streamed feedback shown (``#fb-stream`` is this high in session.tcss)."""
STREAM_TAIL = 2000
"""Characters of streamed feedback considered while grading (more than the box shows); the whole text
comes with the grade."""


class FeedbackPanel(VerticalScroll):
    """Right-hand panel of the session screen."""

    def compose(self) -> ComposeResult:
        yield Static(id="fb-status")
        yield Static(id="fb-stream")
        yield GradeView(id="fb-grade")

    def on_mount(self) -> None:
        self.border_title = "Feedback"
        self.show_waiting()

    async def _dispatch_message(self, message: Message) -> None:
        await guarded_dispatch(self, super()._dispatch_message, message)


    def _status(self, content: Content, kind: str) -> None:
        status = self.query_one("#fb-status", Static)
        status.update(content)
        status.set_classes(kind)

    def show_waiting(self, text: str = "Answer, then submit with ctrl+s to see how it scores.") -> None:
        self._status(Content.styled(text, "italic"), "waiting")
        self.query_one("#fb-stream", Static).display = False
        self.query_one("#fb-grade", GradeView).display = False

    def show_grading(self, label: str) -> None:
        self._status(Content.assemble(("Grading ", "bold"), label, "…"), "grading")
        stream = self.query_one("#fb-stream", Static)
        stream.update("")
        stream.display = False
        self.query_one("#fb-grade", GradeView).display = False

    def show_stream(self, text: str) -> None:
        """Show the last lines of the feedback streamed so far.

        The stream box has a fixed height, so an update repaints only that box
        (no layout of the screen): typing stays quick while a model streams.
        """
        stream = self.query_one("#fb-stream", Static)
        if len(text) > STREAM_TAIL:
            text = text[-STREAM_TAIL:]
        # Hidden until the first chunk, the box has no size yet: use the panel's width and the box's set height,
        # or the first (possibly only) update would be wrapped at 10 columns and cut to one line.
        width = stream.content_size.width or self.scrollable_content_region.width
        height = stream.content_size.height or STREAM_LINES
        width, height = max(width, 10), max(height, 1)
        lines = Content(text).wrap(width)
        stream.update(Content("\n").join(lines[-height:]), layout=not stream.display)
        stream.display = True

    def show_grade(self, grade: Grade, label: str) -> None:
        self._status(Content.assemble(("Feedback", "bold"), (" on ", "$text-muted"), (label, "$text-muted")), "graded")
        self.query_one("#fb-stream", Static).display = False
        view = self.query_one("#fb-grade", GradeView)
        view.show(grade)
        view.display = True
        self.scroll_home(animate=False)

    def show_failed(self, reason: str) -> None:
        self._status(
            Content.assemble(
                ("Grading failed: ", "bold $error"), reason, "\nYour answer is saved; press ctrl+s to try again."
            ),
            "failed",
        )
        self.query_one("#fb-stream", Static).display = False

"""The home screen's 'N questions due' line, counted in a thread worker.

Reading the drill queue may parse transcripts saved since the last look
(``interviewer.drills.DrillStore``), so it never runs on the event loop.
"""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.content import Content
from textual.message import Message
from textual.widgets import Static


class DrillsCounted(Message):
    """The worker read the drill queue: how many questions are due, and when the next one is."""

    def __init__(self, due: int, next_due: str | None) -> None:
        super().__init__()
        self.due = due
        self.next_due = next_due
        """For people ('in 2 days (Nov 25)'); None when nothing is scheduled."""


class DrillsDue(Static):
    """One line: how many questions are due for a drill, and the key that starts one."""

    DEFAULT_CSS = """
    DrillsDue {
        height: auto;
        margin: 0 0 1 0;
    }
    """

    def on_mount(self) -> None:
        self.display = False

    def recount(self, root: Path) -> None:
        """Count again (after a session, a drill or a regrade may have changed the transcripts)."""
        self._count(root)

    @work(thread=True, exclusive=True, exit_on_error=False, group="drills-due", description="counting drills")
    def _count(self, root: Path) -> None:
        from interviewer.drills import DrillStore, when_text

        queue = DrillStore(root).queue()
        nxt = queue.next_due()
        self.post_message(DrillsCounted(len(queue.due()), None if nxt is None else when_text(nxt, queue.now)))

    def on_drills_counted(self, message: DrillsCounted) -> None:
        message.stop()
        if message.due:
            plural = "s" if message.due != 1 else ""
            self.update(Content.assemble(("Drills  ", "bold"), (f"{message.due} question{plural} due", "$warning"),
                                         " · ", ("press d to drill", "bold")))
        elif message.next_due is not None:
            self.update(Content.assemble(("Drills  ", "bold"), f"nothing due; the next is due {message.next_due}"))
        self.display = bool(message.due or message.next_due)

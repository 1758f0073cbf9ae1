"""The interview as a conversation: scenario, phase markers, the interviewer's turns and yours.

The log is rebuilt from the transcript after every change, but only entries
whose text changed are repainted and new ones appended, so a long session
does not flicker or re-layout on each tick.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from interviewer.content.schema import DIMENSION_TITLES, Case
from interviewer.transcripts import Transcript
from interviewer.tui.formatting import overall_content
from interviewer.tui.guard import guarded_dispatch


@dataclass(frozen=True)
class Entry:
    """One bubble in the log; ``kind`` is its CSS class."""

    key: str
    kind: str
    content: Content


def conversation_entries(transcript: Transcript, case: Case | None, grading: int | None = None) -> list[Entry]:
    """What the log shows for a transcript; ``grading`` is the turn being graded now, if any."""
    entries: list[Entry] = []
    if case is not None:
        entries.append(Entry("scenario", "scenario", Content.assemble(("Scenario\n", "bold"), case.scenario.strip())))
    phase_numbers = {p.id: i for i, p in enumerate(transcript.phases, start=1)}
    briefs = {p.id: p.brief for p in case.phases} if case else {}
    current_phase: str | None = None
    for turn in transcript.turns:
        if turn.phase_id != current_phase:
            current_phase = turn.phase_id
            number = phase_numbers.get(turn.phase_id, 0)
            title = next((p.title for p in transcript.phases if p.id == turn.phase_id), turn.phase_id)
            parts: list[str | tuple[str, str]] = [
                (f"Phase {number}/{len(transcript.phases)} · ", "bold"),
                (title, "bold"),
            ]
            if briefs.get(turn.phase_id):
                parts += ["\n", (briefs[turn.phase_id].strip(), "italic")]
            entries.append(Entry(f"phase-{turn.phase_id}", "phase", Content.assemble(*parts)))
        who = "Interviewer"
        if turn.kind == "follow_up":
            who += " · follow-up"
            if turn.probe_dimension:
                who += f" ({DIMENSION_TITLES.get(turn.probe_dimension, turn.probe_dimension)})"
        entries.append(Entry(f"ask-{turn.id}", "interviewer", Content.assemble((who + "\n", "bold"), turn.prompt)))
        for n, hint in enumerate(turn.hints):
            entries.append(Entry(f"hint-{turn.id}-{n}", "hint", Content.assemble(("Hint: ", "bold"), hint)))
        if turn.answer is not None:
            entries.append(Entry(f"answer-{turn.id}", "candidate", Content.assemble(("You\n", "bold"), turn.answer)))
        elif turn.status == "skipped":
            entries.append(Entry(f"answer-{turn.id}", "note", Content.styled("(skipped)", "italic")))
        elif turn.status == "timed_out":
            entries.append(Entry(f"answer-{turn.id}", "note", Content.styled("(time ran out)", "italic")))
        if turn.grade is not None:
            summary = Content.assemble("Scored ", overall_content(turn.grade.overall), " · details in Feedback")
            entries.append(Entry(f"grade-{turn.id}", "note", summary))
        elif turn.status == "answered":
            text = "Grading…" if grading == turn.id else "Waiting for a grade"
            entries.append(Entry(f"grade-{turn.id}", "note", Content.styled(text, "italic")))
    if transcript.status == "finished":
        entries.append(Entry("finished", "note", Content.styled("The session has finished.", "bold")))
    return entries


class Conversation(VerticalScroll):
    """A scrolling log of ``Entry`` bubbles."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._entries: list[Entry] = []

    async def _dispatch_message(self, message: Message) -> None:
        await guarded_dispatch(self, super()._dispatch_message, message)

    def on_resize(self, event: events.Resize) -> None:
        # After any resize the latest message (usually the interviewer's question) must be in view.
        self.call_after_refresh(self.scroll_end, animate=False)

    def show(self, entries: list[Entry]) -> None:
        """Repaint changed entries, append new ones, drop extra ones; scroll to the end if anything was added."""
        children = list(self.query_children(Static))
        added: list[Static] = []
        for index, entry in enumerate(entries):
            if index < len(self._entries) and index < len(children):
                if self._entries[index] != entry:
                    widget = children[index]
                    widget.update(entry.content)
                    widget.set_classes(f"entry {entry.kind}")
            else:
                added.append(Static(entry.content, classes=f"entry {entry.kind}"))
        for widget in children[len(entries):]:
            widget.remove()
        self._entries = list(entries)
        if added:
            self.mount_all(added)
            self.call_after_refresh(self.scroll_end, animate=False)

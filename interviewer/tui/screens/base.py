"""Bases shared by the screens: typed access to the app, listing the transcripts folder, exporting one transcript.

What to export (the Markdown itself) comes from the core through
``interviewer.export.write_export``; these bases only ask where and say how it went.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.binding import Binding
from textual.screen import Screen

from interviewer.content.schema import Case
from interviewer.export import default_export_path, write_export
from interviewer.transcripts import Transcript, TranscriptError, TranscriptStore
from interviewer.tui.messages import TranscriptsListed
from interviewer.tui.screens.export_path import ExportPathScreen

if TYPE_CHECKING:
    from interviewer.tui.app import InterviewerApp

EXPORT_BINDINGS = [
    Binding("e", "export", "Export .md"),
    Binding("E", "export_to", "Export to…"),
]
"""The export keys, for a screen's ``BINDINGS`` (listed there so each screen keeps its footer order)."""

EXPORT_COMMANDS = [
    ("Export Markdown", "Write the transcript as .md next to it", "export"),
    ("Export Markdown to…", "Choose where to write the .md", "export_to"),
]
"""The export entries of the command palette, for a screen's ``palette_commands``."""


class AppScreen(Screen[None]):
    """A screen of the interviewer app."""

    @property
    def iapp(self) -> InterviewerApp:
        return cast("InterviewerApp", self.app)


class TranscriptListScreen(AppScreen):
    """A screen that lists the saved transcripts, again whenever it is shown.

    Subclasses handle the ``TranscriptsListed`` message the listing posts.
    """

    def on_screen_resume(self) -> None:
        # Also sent when the screen is first shown; later, a session or regrade may have changed the folder.
        self.reload()

    def reload(self) -> None:
        self._list_worker(self.iapp.store)

    @work(thread=True, exclusive=True, exit_on_error=False, group="list", description="listing transcripts")
    def _list_worker(self, store: TranscriptStore) -> None:
        summaries, problems = store.summaries()
        self.post_message(TranscriptsListed(summaries, problems))


class TranscriptExportScreen(AppScreen):
    """A screen showing one transcript (with its case, if the library has it); ``e``/``E`` export it as Markdown."""

    def __init__(self, transcript: Transcript, case: Case | None, store: TranscriptStore | None) -> None:
        super().__init__()
        self.transcript = transcript
        self.case = case
        self.store = store

    def _export(self, path: Path) -> None:
        try:
            written = write_export(self.transcript, self.case, self.store, path).resolve()
        except TranscriptError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        except OSError as exc:
            self.notify(f"Could not write {path}: {exc.strerror or exc}", severity="error", markup=False)
            return
        self.notify(str(written), title="Exported", markup=False)

    def action_export(self) -> None:
        self._export(default_export_path(self.store, self.transcript))

    def action_export_to(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self._export(path)

        self.app.push_screen(ExportPathScreen(default_export_path(self.store, self.transcript)), chosen)

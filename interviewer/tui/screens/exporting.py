"""The base of the screens that show one transcript: ``e``/``E`` export it as Markdown.

What to export (the Markdown itself) comes from the core through
``interviewer.export.write_export``; this base only asks where and says how it went.
"""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding

from interviewer.content.schema import Case
from interviewer.export import default_export_path, write_export
from interviewer.transcripts import Transcript, TranscriptError, TranscriptStore
from interviewer.tui.screens.base import AppScreen
from interviewer.tui.screens.export_path import ExportPathScreen

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

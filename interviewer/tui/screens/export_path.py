"""Ask where to write an export; dismisses with the chosen path, or None on cancel."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static


class ExportPathScreen(ModalScreen[Path | None]):
    """An Input prefilled with the default path; Enter writes, Escape cancels."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static("Export to Markdown: path of the file (or a folder)", classes="question", markup=False)
            yield Input(str(self.default), id="path", select_on_focus=False)
            with Horizontal(classes="buttons"):
                yield Button("Export", variant="primary", id="ok")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    def _submit(self) -> None:
        value = self.query_one("#path", Input).value.strip()
        if not value:
            self.notify("Type a path, or press Escape to cancel.", severity="warning")
            return
        self.dismiss(Path(value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The answer editor: a TextArea that survives its own undo bug and keeps tab for moving focus.

Upstream TextArea (Textual 8) can raise ``ValueError: The document line
index N is out of bounds`` when undoing or redoing a multi-line paste with
soft wrap and a height cap: the document is already changed, but the
wrapped view of it is rebuilt for the wrong range.  Here the edit itself is
kept and the wrapped view is rebuilt in full, so undo works; if even that
fails, the text stays as it is and the app goes on.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding
from textual.message import Message
from textual.widgets import TextArea

from interviewer.tui.guard import guarded_dispatch

INDENT = "    "


class AnswerEditor(TextArea):
    """The candidate's editor.  Tab moves the focus (as the help says); ctrl+] indents."""

    BINDINGS = [
        Binding("ctrl+right_square_bracket", "indent", "Indent", show=False,
                tooltip="Insert four spaces (tab moves the focus)"),
    ]

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("soft_wrap", True)
        kwargs.setdefault("tab_behavior", "focus")
        super().__init__(**kwargs)  # type: ignore[arg-type]

    async def _dispatch_message(self, message: Message) -> None:
        await guarded_dispatch(self, super()._dispatch_message, message)

    def action_indent(self) -> None:
        if not self.read_only:
            self.insert(INDENT)

    def undo(self) -> None:
        self._guarded(super().undo, "undo")

    def redo(self) -> None:
        self._guarded(super().redo, "redo")

    def _guarded(self, step: Callable[[], None], name: str) -> None:
        try:
            step()
        except (ValueError, IndexError):
            self._rewrap(name)

    def _rewrap(self, name: str) -> None:
        """Rebuild the wrapped view from the document after a failed partial update."""
        try:
            self.wrapped_document.wrap(self.wrap_width, self.indent_width)
            self.move_cursor(self.document.end)
            self._refresh_size()
            self.refresh()
        except (ValueError, IndexError):
            self.notify(f"Could not {name} here; your text is unchanged.", severity="warning")
        self.post_message(self.Changed(self))

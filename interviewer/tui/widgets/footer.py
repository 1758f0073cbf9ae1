"""The footer every screen shows: Textual's, recomposed at most once per refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer as _TextualFooter

if TYPE_CHECKING:
    from textual.screen import Screen


class Footer(_TextualFooter):
    """Textual's footer, without the repeated rebuilds.

    Textual rebuilds the footer (a dozen key widgets, each restyled) every
    time the screen's bindings change, and one keystroke often changes them
    two or three times in a frame (the focus moves, the phase changes, an
    action is enabled).  Half of the rebuilds in the session tests were such
    repeats.  One queued rebuild reads the bindings as they are when it runs,
    so the repeats are dropped.
    """

    _rebuild_queued = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self._rebuild_queued and screen is self.screen:
            return
        super().bindings_changed(screen)
        self._rebuild_queued = self.is_attached and screen is self.screen and self.app.app_focus

    async def recompose(self) -> None:
        self._rebuild_queued = False
        await super().recompose()

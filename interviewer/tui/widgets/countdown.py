"""A countdown label (phase or total) that changes colour when time runs low or out.

The colours live in the stylesheet (classes ``-warning`` and ``-overtime``),
so themes and NO_COLOR decide how they look.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

if TYPE_CHECKING:  # shown on the session frame painted before the domain loads (see tui.app)
    from interviewer.session import Countdown as CountdownValue


class Countdown(Static):
    """Shows ``NAME mm:ss`` or ``NAME +mm:ss over``."""

    def __init__(self, name: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.label = name
        self._last: tuple[str, bool, bool] | None = None

    def placeholder(self) -> None:
        """``NAME --:--`` while the session is loading: the frame has its final shape from the first paint."""
        self._last = None
        self.update(Content.assemble((f"{self.label} ", "dim"), ("--:--", "bold")))

    def show(self, value: CountdownValue) -> None:
        state = (value.label(), value.warning, value.overtime)
        if state == self._last:
            return  # a tick that changes nothing repaints nothing
        resized = self._last is None or len(self._last[0]) != len(state[0])
        self._last = state
        self.set_class(value.warning and not value.overtime, "-warning")
        self.set_class(value.overtime, "-overtime")
        # Same width as before: repaint this label only, no layout of the screen.
        self.update(Content.assemble((f"{self.label} ", "dim"), (value.label(), "bold")), layout=resized)

"""Bases shared by the screens: typed access to the app, and listing the transcripts folder.

The home screen is built on these and is the first thing painted, so this
module imports nothing from the domain at run time (see ``tui.app``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import work
from textual.screen import Screen

from interviewer.tui.messages import TranscriptsListed

if TYPE_CHECKING:
    from interviewer.transcripts import TranscriptStore
    from interviewer.tui.app import InterviewerApp


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
        # Skipped when another screen is already on top again (the session swapped in over the frame at start).
        if self.app.screen is self:
            self.reload()

    def reload(self) -> None:
        if self.iapp.ready:  # before the environment has loaded there is no folder to list yet
            self._list_worker(self.iapp.store)

    @work(thread=True, exclusive=True, exit_on_error=False, group="list", description="listing transcripts")
    def _list_worker(self, store: TranscriptStore) -> None:
        summaries, problems = store.summaries()
        self.post_message(TranscriptsListed(summaries, problems))

"""The Textual app and its factory.

``create_app`` is the one way to build the app: the CLI calls it with the
real settings, library, grader and store; the tests call it with a scripted
grader, a temp store and a fake clock.  So the tests drive exactly the app
people run.  The app itself only navigates between screens; the screens
render and dispatch, and the core (``Session``, ``TranscriptStore``, the
grader) decides.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from interviewer.config import Settings
from interviewer.content.loader import Library
from interviewer.grading.types import SessionGrader
from interviewer.session import Clock, Session, SessionError
from interviewer.transcripts import Transcript, TranscriptError, TranscriptStore
from interviewer.tui.screens.help import HelpScreen
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.start import Drill, Home, Resume, Review, Run, StartSpec


class InterviewerApp(App[int]):
    """Navigation and shared state: settings, library, grader, store and clock."""

    TITLE = "interviewer"
    CSS_PATH = ["app.tcss", "screens/home.tcss"]
    """Pushed screens load their own CSS_PATH; the default (home) screen's must be loaded here."""
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(
        self,
        settings: Settings,
        library: Library,
        grader: SessionGrader,
        store: TranscriptStore,
        *,
        clock: Clock = time.monotonic,
        start: StartSpec | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.library = library
        self.grader = grader
        self.store = store
        self.clock = clock
        self.start: StartSpec = start or Home()

    def get_default_screen(self) -> Screen:
        return HomeScreen()

    def on_mount(self) -> None:
        start = self.start
        if isinstance(start, Run):
            self.start_session(start)
        elif isinstance(start, Resume):
            self.resume_session(start.transcript_id)
        elif isinstance(start, Review):
            self.open_review()
        elif isinstance(start, Drill):
            self.start_drill(start)

    # ------------------------------------------------------------------ status

    def grader_status(self) -> str:
        """One line saying what grades answers (``describe()`` when the grader has it)."""
        describe = getattr(self.grader, "describe", None)
        if callable(describe):
            return str(describe())
        return "offline keyword scoring" if getattr(self.grader, "name", "") == "keyword" else "model grader"

    # ------------------------------------------------------------------ navigation

    def start_session(self, run: Run) -> None:
        """Start a new session on a case and show it."""
        from interviewer.tui.screens.session import SessionScreen

        case = self.library.cases.get(run.case_id)
        if case is None:
            known = ", ".join(sorted(self.library.cases)) or "none"
            self.notify(f"Unknown case {run.case_id!r}; available: {known}", severity="error", markup=False)
            return
        session = self._session_or_none(
            "Could not start the session",
            lambda: Session.start(
                case,
                self.library.rubric_for(case),
                self.store,
                minutes=run.minutes,
                practice=run.practice,
                clock=self.clock,
                phase_timeout=run.phase_timeout or self.settings.phase_timeout,
            ),
        )
        if session is not None:
            self.push_screen(SessionScreen(session, self.grader))

    def start_drill(self, drill: Drill) -> None:
        """Start a drill: a normal session (timed, saved, resumable) over a one-phase sub-case."""
        from interviewer.drills import drill_case
        from interviewer.tui.screens.session import SessionScreen

        case = self.library.cases.get(drill.case_id)
        if case is None:
            self.notify(f"Unknown case {drill.case_id!r}", severity="error", markup=False)
            return
        session = self._session_or_none(
            "Could not start the drill",
            lambda: Session.start(
                drill_case(case, drill.question_ids),
                self.library.rubric_for(case),
                self.store,
                minutes=drill.minutes,
                clock=self.clock,
                phase_timeout=self.settings.phase_timeout,
                drill_questions=list(drill.question_ids),
            ),
        )
        if session is not None:
            self.push_screen(SessionScreen(session, self.grader))

    def drill_due(self) -> None:
        """Start a drill of the questions due now (home screen, palette), or say when the next one is due."""
        from interviewer.drills import DrillStore, plan_drill, when_text

        try:
            self.grader  # noqa: B018 (raises while the library and the grader are still loading)
        except RuntimeError:
            self.notify("Still loading the cases; try again in a moment.")
            return
        queue = DrillStore(self.store.root).queue()
        plan = plan_drill(queue, self.library.cases)
        if plan is None:
            nxt = queue.next_due()
            self.notify("Nothing is due." + (f" The next question is due {when_text(nxt, queue.now)}." if nxt
                        else " Answer a few questions first: drills bring back the ones you found hard."),
                        markup=False)
            return
        self.start_drill(Drill(plan.case.id, tuple(plan.question_ids)))

    def open_progress(self) -> None:
        from interviewer.tui.screens.progress import ProgressScreen

        if not isinstance(self.screen, ProgressScreen):
            self.push_screen(ProgressScreen())

    def resume_session(self, transcript_id: str) -> None:
        """Continue an unfinished session with the clock where it stopped; ungraded answers get graded."""
        from interviewer.tui.screens.session import SessionScreen

        transcript = self._transcript_or_none(lambda: self.store.load(transcript_id))
        if transcript is None:
            return
        case = self.library.cases.get(transcript.case_id)
        if case is None:
            self.notify(f"Case {transcript.case_id!r} is not in the library any more; it cannot be resumed.",
                        severity="error", markup=False)
            return
        from interviewer.drills import case_for

        session = self._session_or_none(
            "Could not resume",
            lambda: Session.resume(
                transcript, case_for(transcript, case), self.library.rubric_for(case), self.store,
                clock=self.clock, phase_timeout=self.settings.phase_timeout,
            ),
        )
        if session is None:
            return
        self.go_home()
        self.push_screen(SessionScreen(session, self.grader))
        if session.finished:
            return
        self.notify(f"Resumed {case.title} with {session.total_countdown().label()} left.", markup=False)

    def open_review(self) -> None:
        from interviewer.tui.screens.review import ReviewScreen

        self.go_home()
        self.push_screen(ReviewScreen())

    def open_transcript(self, path: Path) -> None:
        from interviewer.tui.screens.transcript import TranscriptScreen

        transcript = self._transcript_or_none(lambda: self.store.load_path(path))
        if transcript is not None:
            self.push_screen(TranscriptScreen(transcript, self.library.cases.get(transcript.case_id), self.store))

    def _transcript_or_none(self, load: Callable[[], Transcript]) -> Transcript | None:
        """Run ``load``; when the transcript cannot be read, say why and return None."""
        try:
            return load()
        except TranscriptError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None

    def _session_or_none(self, failure: str, make: Callable[[], Session]) -> Session | None:
        """Run ``make`` (start or resume); when it fails, say ``failure: why`` and return None."""
        try:
            return make()
        except (SessionError, OSError, KeyError) as exc:
            self.notify(f"{failure}: {exc}", severity="error", markup=False)
            return None

    def go_home(self) -> None:
        """Pop everything above the home screen."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    # ------------------------------------------------------------------ help and palette

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        keys: list[tuple[str, str]] = []
        seen: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            # The screen's and the app's own keys; a widget's (scrolling, editing) are the usual ones.
            if active.node not in (self, self.screen) or binding.system:
                continue
            if not binding.description or binding.action in seen or key in ("tab", "shift+tab"):
                continue
            seen.add(binding.action)
            keys.append((self.get_key_display(binding), binding.tooltip or binding.description))
        extra = {"^p": "Command palette: every action, searchable",
                 "^q": "Quit (a running session is saved and can be resumed)"}
        keys = [(k, text) for k, text in keys if k not in extra] + list(extra.items())
        title = self.screen.sub_title or type(self.screen).__name__.removesuffix("Screen")
        self.push_screen(HelpScreen(title, keys))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help", "Keys and how a session works", self.action_help)
        commands = getattr(screen, "palette_commands", None)
        if callable(commands):
            for name, help_text, action in commands():
                yield SystemCommand(name, help_text, _runner(screen, action))
        if not isinstance(screen, HelpScreen):
            yield SystemCommand("Review transcripts", "Browse, regrade and export saved sessions", self.open_review)
            yield SystemCommand("Progress", "Scores over time, weakest questions and the drill queue",
                                self.open_progress)
            yield SystemCommand("Drill due questions", "A short timed session of the questions due for review",
                                self.drill_due)


def _runner(screen: Screen, action: str) -> Callable[[], Coroutine[None, None, None]]:
    """A palette callback that runs ``action`` on the screen the palette was opened from."""

    async def run() -> None:
        await screen.run_action(action)

    return run


create_app = InterviewerApp
"""Build the app the CLI runs and the tests drive: the constructor is the factory, so both take the same arguments."""

"""The Textual app and its factory.

``create_app`` is the one way to build the app: the CLI calls it with a
``Deferred`` environment (settings, library, grader and store, built in a
worker); the tests call it with a ready ``Environment`` holding a scripted
grader, a temp store and a fake clock.  So the tests drive exactly the app
people run.  The app itself only navigates between screens; the screens
render and dispatch, and the core (``Session``, ``TranscriptStore``, the
grader) decides.

Paint first, load after: with a deferred environment the first frame (the
home screen, or a session frame for ``run``) is drawn before pydantic, the
settings, the case library and the grader are loaded.  So this module and the
first screens import the domain only where they use it, never at the top;
a thread worker loads the environment after the first refresh and the screens
fill in when ``Loaded`` arrives.

A running session is never taken down by a bug in a widget: an exception in
an action or in a session widget's handler is caught, the session is saved,
the error is shown, and the app goes on (``recover``).
"""

from __future__ import annotations

import contextlib
import signal
import time
import traceback
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from interviewer.tui.messages import Loaded, LoadFailed
from interviewer.tui.screens.help import HelpScreen
from interviewer.tui.screens.home import HomeScreen
from interviewer.tui.start import Deferred, Drill, Environment, Home, Resume, Review, Run, StartSpec

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.content.loader import Library
    from interviewer.grading.types import SessionGrader
    from interviewer.session import Clock, Session
    from interviewer.transcripts import Transcript, TranscriptStore
    from interviewer.tui.screens.session import SessionScreen

__all__ = ["Deferred", "Environment", "InterviewerApp", "create_app"]

INTERVIEW = "interview"
"""The app's mode after ``run`` painted its session frame alone: home at the bottom, the session on top."""


class InterviewerApp(App[int]):
    """Navigation and shared state: settings, library, grader, store and clock."""

    TITLE = "interviewer"
    CSS_PATH: ClassVar[list[str | PurePath]] = ["app.tcss", "screens/home.tcss"]
    """Pushed screens load their own CSS_PATH; the first screen's (home, or the session frame) must be loaded here."""
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(
        self,
        env: Environment | Deferred[Environment],
        *,
        clock: Clock = time.monotonic,
        start: StartSpec | None = None,
    ) -> None:
        start = start or Home()
        frame_first = isinstance(start, Run) and isinstance(env, Deferred)
        # The first screen's stylesheet must come with the app's: the session frame's, when it is painted alone.
        super().__init__(css_path=[*self.CSS_PATH, "screens/session.tcss"] if frame_first else None)
        self._deferred = env if isinstance(env, Deferred) else None
        self._env: Environment | None = env if isinstance(env, Environment) else None
        self.clock = clock
        self.start: StartSpec = start
        self.startup_error: str | None = None
        """Why the app gave up before it could start (e.g. an unknown case id); the CLI prints it."""
        self.startup_code = 1
        """The exit code that goes with ``startup_error`` (2 for a usage or settings problem)."""

    @property
    def ready(self) -> bool:
        """The environment (settings, library, grader, store) is loaded."""
        return self._env is not None

    @property
    def env(self) -> Environment:
        if self._env is None:
            raise RuntimeError("the cases and the grader are still loading")
        return self._env

    @property
    def settings(self) -> Settings:
        return self.env.settings

    @property
    def library(self) -> Library:
        return self.env.library

    @property
    def store(self) -> TranscriptStore:
        return self.env.store

    @property
    def grader(self) -> SessionGrader:
        return self.env.grader

    def get_default_screen(self) -> Screen[None]:
        if isinstance(self.start, Run) and not self.ready:
            from interviewer.tui.screens.frame import SessionFrame

            return SessionFrame()  # the only screen until loaded; then the app moves to INTERVIEW (``on_loaded``)
        return HomeScreen()

    def on_mount(self) -> None:
        self._install_signal_handlers()
        if not self.ready:
            self.call_after_refresh(self._load)
            return
        self._open_start()

    def _open_start(self) -> None:
        start = self.start
        if isinstance(start, Run):
            self.start_session(start)
        elif isinstance(start, Resume):
            self.resume_session(start.transcript_id)
        elif isinstance(start, Review):
            self.open_review()
        elif isinstance(start, Drill):
            self.start_drill(start)

    # ------------------------------------------------------------------ loading

    def _load(self) -> None:
        if self._deferred is not None:
            self._load_worker(self._deferred)

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="loading cases")
    def _load_worker(self, deferred: Deferred[Environment]) -> None:
        from interviewer.errors import UserError

        try:
            env = deferred.load()
        except Exception as exc:  # a config or content problem: say it in one line, then leave the screen
            lines = str(exc).strip().splitlines()
            code = exc.code if isinstance(exc, UserError) else 1
            self.post_message(LoadFailed(lines[0] if lines else type(exc).__name__, code))
            return
        self.post_message(Loaded(env))

    def on_loaded(self, message: Loaded) -> None:
        self._env = message.env
        for screen in self.screen_stack:
            ready = getattr(screen, "library_ready", None)
            if callable(ready):
                ready()
        start = self.start
        unknown = self.library.unknown_case(start.case_id) if isinstance(start, Run) else None
        if unknown is not None:
            self.startup_error = unknown
            self.startup_code = 2
            self.exit(2, return_code=2)
            return
        if isinstance(start, Run):
            from interviewer.tui.screens.frame import SessionFrame

            if isinstance(self.screen_stack[0], SessionFrame):
                # The frame was painted alone, so that ``run`` shows its screen at once.  A stack's first screen
                # cannot be replaced, so the app moves to a mode of its own whose first screen is home.
                self.add_mode(INTERVIEW, HomeScreen)
                self.switch_mode(INTERVIEW)
            self.start_session(start)
            return
        self._open_start()

    def on_load_failed(self, message: LoadFailed) -> None:
        self.startup_error = message.reason
        self.startup_code = message.code
        self.exit(message.code, return_code=message.code)

    # ------------------------------------------------------------------ status

    def grader_status(self) -> str:
        """One line saying what grades answers (``describe()`` when the grader has it)."""
        if not self.ready:
            return "loading…"
        describe = getattr(self.grader, "describe", None)
        if callable(describe):
            return str(describe())
        return "offline keyword scoring" if getattr(self.grader, "name", "") == "keyword" else "model grader"

    # ------------------------------------------------------------------ navigation

    def start_session(self, run: Run) -> None:
        """Start a new session on a case and show it."""
        from interviewer.tui.screens.session import SessionScreen

        session = self._new_session(run)
        if session is not None:
            self.push_screen(SessionScreen(session, self.grader))

    def _new_session(self, run: Run) -> Session | None:
        from interviewer.session import Session

        case = self.library.cases.get(run.case_id)
        if case is None:
            known = ", ".join(sorted(self.library.cases)) or "none"
            self.notify(f"Unknown case {run.case_id!r}; available: {known}", severity="error", markup=False)
            return None
        return self._session_or_none(
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

    def start_drill(self, drill: Drill) -> None:
        """Start a drill: a normal session (timed, saved, resumable) over a one-phase sub-case."""
        from interviewer.drills import drill_case
        from interviewer.session import Session
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
        from interviewer.session import Session

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
        from interviewer.transcripts import TranscriptError

        try:
            return load()
        except TranscriptError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None

    def _session_or_none(self, failure: str, make: Callable[[], Session]) -> Session | None:
        """Run ``make`` (start or resume); when it fails, say ``failure: why`` and return None."""
        from interviewer.session import SessionError

        try:
            return make()
        except (SessionError, OSError, KeyError) as exc:
            self.notify(f"{failure}: {exc}", severity="error", markup=False)
            return None

    # ------------------------------------------------------------------ staying alive

    def running_session_screen(self) -> SessionScreen | None:
        """The session screen in the stack whose session is still running, if any."""
        from interviewer.tui.screens.session import SessionScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, SessionScreen) and screen.running:
                return screen
        return None

    def recover(self, error: Exception) -> None:
        """An exception escaped a widget: save the session, show the error, keep going.

        The traceback goes to the Textual log (``textual console``); the
        candidate sees one line and keeps typing.
        """
        self.log.error("".join(traceback.format_exception(error)))
        screen = self.running_session_screen()
        saved = ""
        if screen is not None:
            try:
                ok = screen.save_now()
            except Exception:  # saving must not fail the recovery itself
                ok = False
            saved = " Your session is saved." if ok else " The session could not be saved."
        self.notify(f"{type(error).__name__}: {error}.{saved} You can go on.", title="Something went wrong",
                    severity="error", markup=False, timeout=8)

    async def _dispatch_action(self, namespace: Any, action_name: str, params: Any) -> bool:
        # Every key binding and palette command runs through here.
        try:
            return await super()._dispatch_action(namespace, action_name, params)
        except Exception as error:
            if self.running_session_screen() is None:
                raise
            self.recover(error)
            return True

    def _handle_exception(self, error: Exception) -> None:
        # Last resort (an error the guards above did not catch, e.g. in a dialog's compose): Textual will
        # exit, so save the running session and its draft first.
        screen = self.running_session_screen()
        if screen is not None:
            with contextlib.suppress(Exception):
                screen.save_now()
        super()._handle_exception(error)

    def _install_signal_handlers(self) -> None:
        """SIGTERM and SIGHUP (terminal closed) save the draft and the clock, then quit cleanly."""
        import asyncio

        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self._on_terminate_signal)

    def _on_terminate_signal(self) -> None:
        screen = self.running_session_screen()
        if screen is not None:
            screen.save_now()
        self.exit(0)

    async def action_quit(self) -> None:
        """ctrl+q: with unsubmitted text in the editor, ask first (the draft is kept either way)."""
        screen = self.running_session_screen()
        if screen is None or not screen.has_draft() or isinstance(self.screen, HelpScreen):
            if screen is not None:
                screen.save_now()
            self.exit()
            return
        from interviewer.tui.screens.confirm import ConfirmScreen

        if isinstance(self.screen, ConfirmScreen):
            return

        def done(ok: bool | None) -> None:
            if ok:
                screen.save_now()
                self.exit()

        self.push_screen(
            ConfirmScreen("Quit now? Your unsubmitted answer is kept as a draft and comes back on resume.",
                          yes="Quit", no="Stay"),
            done,
        )

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

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
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


def _runner(screen: Screen[object], action: str) -> Callable[[], Coroutine[None, None, None]]:
    """A palette callback that runs ``action`` on the screen the palette was opened from."""

    async def run() -> None:
        await screen.run_action(action)

    return run


create_app = InterviewerApp
"""Build the app the CLI runs and the tests drive: the constructor is the factory, so both take the same arguments."""

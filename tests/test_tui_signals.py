"""The real app in a pseudo-terminal, killed: drafts survive SIGKILL up to the last save, and SIGTERM/SIGHUP save first.

The debounce rule itself (saved 1 s after the last key, or once unsaved text
is 1.5 s old, checked every 0.5 s: at most 2 s of typing at risk) is pinned
with a fake clock in ``test_tui_robust``.  Here a real process is killed:

* SIGKILL right after typing loses at most the text typed since the last
  draft save, never a submitted answer, and never tears the file;
* SIGTERM and SIGHUP (terminal closed) save the editor's text before exiting,
  even when it was typed a moment before.

No sleeps for timing: the test waits for the screen or the file to show what
it expects, with a generous deadline.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 20.0
ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[=>()][0-9A-Za-z]?"
)

DRIVER = """
import sys
from pathlib import Path
from interviewer.config import Settings
from interviewer.transcripts import TranscriptStore
from interviewer.tui.app import Environment, create_app
from interviewer.tui.start import Run
from tests.tui_fakes import ScriptedGrader, make_grade, mini_library

folder = Path(sys.argv[1])
settings = Settings(transcripts_dir=folder, offline=True)
grader = ScriptedGrader([make_grade(50, follow_up="And why?", follow_up_dimension="numbers")])
app = create_app(Environment(settings, mini_library(), grader, TranscriptStore(folder)), start=Run("mini"))
app.run()
print("CLEAN-EXIT", flush=True)
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")


class AppInPty:
    """The app on a 100x30 pseudo-terminal; collects what it draws."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(folder.parent),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "PYTHONPATH": str(ROOT),
            "INTERVIEWER_CONFIG": str(folder.parent / "config.toml"),
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-c", DRIVER, str(folder)],
            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, close_fds=True, start_new_session=True,
        )
        os.close(slave)
        self.raw = bytearray()

    def pump(self) -> None:
        ready, _, _ = select.select([self.master], [], [], 0.05)
        if ready:
            with contextlib.suppress(OSError):  # the child has gone
                self.raw += os.read(self.master, 65536)

    def screen_text(self) -> str:
        return ANSI.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    def wait_for_screen(self, needle: str) -> None:
        deadline = time.monotonic() + DEADLINE
        while needle not in self.screen_text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; last output: {self.screen_text()[-300:]!r}")
            self.pump()

    def transcript(self) -> dict[str, Any] | None:
        files = [p for p in self.folder.glob("*.json") if not p.name.startswith(".")]
        if not files:
            return None
        data: dict[str, Any] = json.loads(files[0].read_text(encoding="utf-8"))
        return data

    def wait_for_file(self, check: Any) -> dict[str, Any]:
        deadline = time.monotonic() + DEADLINE
        while True:
            data = self.transcript()
            if data is not None and check(data):
                return data
            if time.monotonic() > deadline:
                raise AssertionError(f"the transcript never matched; last: {data!r}"[:600])
            self.pump()

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def finish(self) -> int:
        deadline = time.monotonic() + DEADLINE
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError("the app did not exit")
            self.pump()
        self.pump()
        os.close(self.master)
        return self.proc.returncode


@pytest.fixture
def app(tmp_path: Path) -> Any:
    running = AppInPty(tmp_path / "transcripts")
    yield running
    if running.proc.poll() is None:
        running.proc.kill()
        running.proc.wait()


def test_sigkill_loses_at_most_the_unsaved_tail_and_never_a_submitted_answer(app: AppInPty) -> None:
    app.wait_for_screen("How big is the KV cache per token")
    app.type("K and V for every layer, 320 KiB per token.")
    app.wait_for_screen("320 KiB per token.")
    app.type("\x13")  # ctrl+s
    app.wait_for_file(lambda d: d["turns"][0]["answer"] == "K and V for every layer, 320 KiB per token.")
    app.wait_for_screen("And why?")  # the follow-up is up: type its answer as a draft

    saved_part = "First part of a draft"
    app.type(saved_part)
    app.wait_for_file(lambda d: d.get("draft") == saved_part)  # the debounce saved it without another key
    tail = ", and a tail typed just before the kill"
    app.type(tail)
    os.kill(app.proc.pid, signal.SIGKILL)
    app.finish()

    data = app.transcript()
    assert data is not None  # valid JSON: the atomic save never leaves a torn file
    assert data["turns"][0]["answer"] == "K and V for every layer, 320 KiB per token."
    assert data["draft"] in (saved_part, saved_part + tail)  # at most the unsaved tail is lost


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_save_the_draft_before_exiting(app: AppInPty, sig: signal.Signals) -> None:
    app.wait_for_screen("How big is the KV cache per token")
    app.type("typed a moment ago")
    app.wait_for_screen("typed a moment ago")
    os.kill(app.proc.pid, sig)
    code = app.finish()
    assert code == 0
    assert "CLEAN-EXIT" in app.screen_text()
    data = app.transcript()
    assert data is not None and data["draft"] == "typed a moment ago"
    assert data["status"] == "in_progress"

"""The app of the tree under test in a real terminal (tmux): type an answer, submit, read the feedback.

It runs ``python -m interviewer`` with this repository first on PYTHONPATH,
never whatever ``interviewer`` is on PATH, so it tests the code being changed.

This is the one test that sees what a person sees: a real pty, real key
codes (ctrl+s included), the real offline grader.  It polls the screen with
``capture-pane`` until the expected text appears or a deadline passes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TMUX = shutil.which("tmux")
DEADLINE = 30.0

pytestmark = [pytest.mark.skipif(TMUX is None, reason="tmux is not installed")]


class Tmux:
    """One tmux server on a private socket, so the test never touches the user's sessions."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        assert TMUX is not None
        result = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True, timeout=10)
        return result.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "iv")

    def wait_for(self, *needles: str, timeout: float = DEADLINE) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(n in screen for n in needles):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {needles!r}; the screen was:\n{screen}")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    server = Tmux(f"interviewer-test-{uuid.uuid4().hex[:8]}")
    yield server
    server("kill-server")


def test_answer_submit_and_see_feedback(tmp_path: Path, tmux: Tmux) -> None:
    transcripts = tmp_path / "transcripts"
    env = {
        "INTERVIEWER_CONFIG": str(tmp_path / "config.toml"),
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "PYTHONPATH": str(ROOT),
    }
    command = " ".join(
        [
            # A clean environment: COLUMNS/LINES from the test runner would override the pane size.
            "env", "-i", *[f"{k}='{v}'" for k, v in env.items()],
            sys.executable, "-m", "interviewer", "--transcripts-dir", str(transcripts), "--offline",
            "run", "mini", "--cases-dir", str(ROOT / "tests" / "fixtures" / "cases"),
            ";", "echo", "EXITED-$?", ";", "sleep", "60",
        ]
    )
    tmux("new-session", "-d", "-s", "iv", "-x", "100", "-y", "30", command)
    tmux.wait_for("How big is the KV cache per token", "^s Submit")

    answer = (
        "K and V are stored for every layer and KV head: 2 x 80 layers x 8 KV heads x 128 x 2 bytes, "
        "about 320 KiB per token. GQA shrinks it at a small quality cost; OOM or preemption when HBM runs out."
    )
    tmux("send-keys", "-t", "iv", "-l", answer)
    tmux.wait_for("HBM runs out.")
    tmux("send-keys", "-t", "iv", "C-s")
    tmux.wait_for("Overall", "graded by offline keyword grader", "Mechanism")
    tmux.wait_for("Scored", "follow-up")

    saved = list(transcripts.glob("*.json"))
    assert len(saved) == 1
    data = json.loads(saved[0].read_text(encoding="utf-8"))
    assert data["turns"][0]["answer"] == answer
    assert data["turns"][0]["grade"]["grader"] == "keyword"

    # ctrl+q leaves cleanly; the unfinished session stays on disk for a resume.
    tmux("send-keys", "-t", "iv", "C-q")
    tmux.wait_for("EXITED-0")
    assert json.loads(saved[0].read_text(encoding="utf-8"))["status"] == "in_progress"

"""Transcript files: atomic saves, SIGKILL safety, damaged files, listing and lookup."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from interviewer.session import Session
from interviewer.transcripts import TranscriptError, TranscriptStore
from tests.conftest import REPO


def test_save_load_round_trip(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    s = Session.start(mini_case, rubric, store)
    s.submit("hello [bold]world[/bold]")
    loaded = store.load(s.transcript.id)
    assert loaded.version == 1
    assert loaded.turns[0].answer == "hello [bold]world[/bold]"
    assert json.loads(store.path_for(s.transcript.id).read_text())["version"] == 1
    assert not [p for p in transcripts_dir.iterdir() if p.name.endswith(".tmp")]


def test_lookup_by_prefix_and_errors(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    a = Session.start(mini_case, rubric, store).transcript.id
    assert store.load(a).id == a
    with pytest.raises(TranscriptError, match="no transcript with id 'nope'"):
        store.load("nope")
    Session.start(mini_case, rubric, store)
    with pytest.raises(TranscriptError, match="ambiguous"):
        store.load(a[:8])


def test_damaged_and_foreign_files_are_skipped(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    good = Session.start(mini_case, rubric, store).transcript.id
    (transcripts_dir / "broken.json").write_text('{"version": 1, "turns": [', encoding="utf-8")
    (transcripts_dir / "foreign.json").write_text('{"hello": "world"}', encoding="utf-8")
    (transcripts_dir / "future.json").write_text('{"version": 99, "turns": []}', encoding="utf-8")
    (transcripts_dir / "binary.json").write_bytes(b"\x00\xff\xfe" * 100)
    (transcripts_dir / "wrongtype.json").write_text('{"version": 1, "turns": "no", "id": 3}', encoding="utf-8")
    summaries, problems = store.summaries()
    assert [s.id for s in summaries] == [good]
    assert len(problems) == 5
    assert any("broken.json: not valid JSON" in p for p in problems)
    assert any("foreign.json: not an interviewer transcript" in p for p in problems)
    assert any("version 99" in p for p in problems)


def _run_and_kill(transcripts_dir, delay: float, *extra: str) -> list[str]:
    """Start the writer, wait for its first saved answer, kill it ``delay`` s later; return its 'saved' lines."""
    child = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "kill_child.py"), str(transcripts_dir), *extra],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    lines: list[str] = []
    deadline = time.monotonic() + 20
    assert child.stdout is not None
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if line.startswith("saved"):
            lines.append(line)
            break
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    rest, _ = child.communicate()
    return lines + [line for line in rest.splitlines() if line.startswith("saved")]


def test_sigkill_never_tears_a_file_or_loses_an_answer(transcripts_dir) -> None:
    """Kill a busy writer at many moments: every file stays valid and holds every reported answer."""
    store = TranscriptStore(transcripts_dir)
    for delay in (0.0, 0.05, 0.11, 0.17, 0.23, 0.31):
        lines = _run_and_kill(transcripts_dir, delay)
        summaries, problems = store.summaries()
        assert problems == []
        answers = {t.answer for s in summaries for t in store.load_path(s.path).turns if t.answer}
        for line in lines:
            n = line.split()[3]
            assert any(a.startswith(f"answer {n} ") for a in answers), f"answer {n} was lost"


def test_killed_session_resumes_with_every_answer(transcripts_dir, mini_case, rubric) -> None:
    """A session killed mid-way resumes where it stopped.

    The writer's first session takes answers 0 and 1 and finishes; its second
    session is killed while answer 2 waits for a grade.
    """
    lines = _run_and_kill(transcripts_dir, 0.3, "3")
    assert len(lines) == 3
    store = TranscriptStore(transcripts_dir)
    (unfinished,) = store.unfinished()
    transcript = store.load(unfinished.id)
    assert [t.answer.split()[1] for t in transcript.turns if t.answer] == ["2"]
    resumed = Session.resume(transcript, mini_case, rubric, store)
    assert [t.answer.split()[1] for t in resumed.pending_grades() if t.answer] == ["2"]
    assert resumed.elapsed() >= transcript.elapsed

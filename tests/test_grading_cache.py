"""The structured-output cache and transcripts share one atomic write; a failed write leaves nothing behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interviewer import atomic
from interviewer.grading.llm.structured import EndpointMemory, ModeCache


def _failing_replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    raise OSError(28, "No space left on device")


def test_cache_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "modes.json"
    ModeCache(path).put("http://h/v1", "m", EndpointMemory(mode="json_object", stream=False))
    assert ModeCache(path).get("http://h/v1", "m") == EndpointMemory(mode="json_object", stream=False)
    assert [p.name for p in path.parent.iterdir()] == ["modes.json"]


def test_a_failed_cache_write_is_logged_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cache" / "modes.json"
    monkeypatch.setattr(atomic.os, "replace", _failing_replace)
    cache = ModeCache(path)
    cache.put("http://h/v1", "m", EndpointMemory(mode="text"))  # only a cache: the error is not raised
    assert list(path.parent.iterdir()) == []
    assert cache.get("http://h/v1", "m") == EndpointMemory(mode="text"), "still remembered in memory"


def test_a_failed_transcript_save_raises_and_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mini_case, rubric
) -> None:
    from interviewer.session import Session
    from interviewer.transcripts import TranscriptStore

    folder = tmp_path / "sessions"
    store = TranscriptStore(folder)
    session = Session.start(mini_case, rubric, store)
    [saved] = list(folder.glob("*.json"))
    before = saved.read_bytes()
    monkeypatch.setattr(atomic.os, "replace", _failing_replace)
    with pytest.raises(OSError, match="No space left"):
        store.save(session.transcript)
    assert saved.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == [saved.name]

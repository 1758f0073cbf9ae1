"""The summary index beside the transcripts: rows follow the files, and a missing or damaged index is rebuilt."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from interviewer.digest import digest
from interviewer.index import INDEX_NAME, TranscriptIndex
from interviewer.progress import progress
from interviewer.session import Session
from interviewer.transcripts import Transcript, TranscriptStore
from tests.test_session import grade


class CountingLoader:
    """``TranscriptStore.load_path`` that counts which files the index had to parse."""

    def __init__(self, store: TranscriptStore) -> None:
        self.store = store
        self.parsed: list[str] = []

    def __call__(self, path: Path) -> Transcript:
        self.parsed.append(path.name)
        return self.store.load_path(path)


def _sessions(store: TranscriptStore, mini_case, rubric, n: int = 3) -> list[Session]:
    sessions = []
    for i in range(n):
        s = Session.start(mini_case, rubric, store)
        s.submit(f"answer {i}")
        s.record_grade(1, grade(1 + i % 3, follow_up=False))
        sessions.append(s)
    return sessions


def test_only_changed_files_are_parsed_again(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    sessions = _sessions(store, mini_case, rubric)
    loader = CountingLoader(store)
    index = TranscriptIndex(transcripts_dir, loader)
    assert len(index.entries()) == 3 and len(loader.parsed) == 3
    loader.parsed.clear()
    assert len(index.entries()) == 3 and loader.parsed == []

    changed = sessions[1]
    changed.finish()  # saved through the store: a new file (rename) with a new status
    entries = {e.summary.id: e.summary for e in index.entries() if e.summary}
    assert loader.parsed == [f"{changed.transcript.id}.json"]
    assert entries[changed.transcript.id].status == "finished"

    loader.parsed.clear()
    store.path_for(sessions[0].transcript.id).unlink()
    assert [e.summary.id for e in index.entries() if e.summary] == sorted(
        s.transcript.id for s in sessions[1:]
    )
    assert loader.parsed == []


def test_same_size_rewrite_in_place_is_noticed(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    (s,) = _sessions(store, mini_case, rubric, 1)
    path = store.path_for(s.transcript.id)
    loader = CountingLoader(store)
    index = TranscriptIndex(transcripts_dir, loader)
    index.entries()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"in_progress"', '"finished"   '), encoding="utf-8")  # same size, same inode
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    (entry,) = index.entries()
    assert entry.summary is not None and entry.summary.status == "finished"
    assert len(loader.parsed) == 2


def test_missing_corrupt_or_old_index_is_rebuilt(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    _sessions(store, mini_case, rubric)
    expected, _ = store.summaries()
    index_path = transcripts_dir / INDEX_NAME
    assert index_path.is_file()

    index_path.write_bytes(b"this is not a database" * 100)
    assert store.summaries()[0] == expected
    with sqlite3.connect(index_path) as conn:  # rebuilt as a real index, not listed from memory only
        assert conn.execute("SELECT count(*) FROM transcripts").fetchone()[0] == 3
    conn.close()

    index_path.unlink()
    assert store.summaries()[0] == expected
    assert index_path.is_file()

    for version in (0, 1, 5):  # a stranger's database, older schemas (5: digests as nested JSON)
        with sqlite3.connect(index_path) as conn:
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("UPDATE transcripts SET overall = 1")
        conn.close()
        assert store.summaries()[0] == expected


def test_index_file_is_not_a_transcript(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    _sessions(store, mini_case, rubric, 2)
    store.summaries()
    assert len(store.files()) == 2
    assert store.summaries()[1] == []


def test_broken_file_is_reported_every_time_but_parsed_once(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    _sessions(store, mini_case, rubric, 1)
    (transcripts_dir / "broken.json").write_text('{"version": 1, "turns": [', encoding="utf-8")
    loader = CountingLoader(store)
    index = TranscriptIndex(transcripts_dir, loader)
    for _ in range(2):
        errors = [e.error for e in index.entries() if e.error]
        assert len(errors) == 1 and "broken.json: not valid JSON" in errors[0]
    assert loader.parsed.count("broken.json") == 1


def test_digests_give_the_same_progress_as_the_transcripts(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    sessions = _sessions(store, mini_case, rubric, 4)
    digests, problems = store.digests()
    assert problems == []
    loaded = sorted((store.load(s.transcript.id) for s in sessions), key=lambda t: (t.started, t.id))
    assert digests == [digest(t) for t in loaded]
    assert progress(digests).as_json() == progress(loaded).as_json()


def test_unwritable_index_still_lists(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    _sessions(store, mini_case, rubric, 2)
    (transcripts_dir / INDEX_NAME).mkdir()  # a folder where the index should be: sqlite cannot open it
    summaries, problems = store.summaries()
    assert len(summaries) == 2 and problems == []


def test_a_digest_that_does_not_decode_rebuilds_the_index(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    _sessions(store, mini_case, rubric, 2)
    expected, _ = store.digests()
    with sqlite3.connect(transcripts_dir / INDEX_NAME) as conn:
        conn.execute("UPDATE transcripts SET digest = ?", (b"[1, 2",))
    conn.close()
    assert store.digests() == (expected, [])
    with sqlite3.connect(transcripts_dir / INDEX_NAME) as conn:  # rebuilt on disk, not only read from memory
        assert conn.execute("SELECT count(*) FROM transcripts WHERE digest = ?", (b"[1, 2",)).fetchone()[0] == 0
    conn.close()


def test_digests_report_unreadable_files_and_keep_start_order(mini_case, rubric, transcripts_dir) -> None:
    store = TranscriptStore(transcripts_dir)
    sessions = _sessions(store, mini_case, rubric, 3)
    (transcripts_dir / "0-broken.json").write_text("{", encoding="utf-8")
    digests, problems = store.digests()
    assert [d.id for d in digests] == sorted(s.transcript.id for s in sessions)
    assert len(problems) == 1 and problems[0].startswith("skipped ") and "0-broken.json" in problems[0]

"""The summary index beside the transcripts: listings and progress without parsing every file.

The JSON transcripts stay the source of truth.  ``<transcripts_dir>/.index.sqlite``
(sqlite3 from the standard library) holds one row per transcript file: what a
listing shows (id, case, start, status, overall, grader, answers), the
session's scores as a ``SessionDigest`` in compact JSON (question prompts and
missed key points sit once in the ``prompts`` and ``phrases`` tables), and the file's size, mtime and inode when the
row was made.  Rows are read with ``TranscriptStore.load_for_summary``, which
skips validating the regrade history no summary needs.  Each read stats the folder (cheap) and
re-parses only the files whose size, mtime or inode changed (an atomic save
is a rename, so even a same-size rewrite within the clock's resolution is a
new inode); rows of deleted files go.  A file that cannot be read gets a row
with its error, so it is reported on every listing but parsed only when it
changes.

The index is a cache: it is rebuilt from scratch when it is missing, from
another schema version (``PRAGMA user_version``) or not a readable database,
and when it cannot be written (a read-only folder, or another process holding
the lock too long) the rows are built in memory for this run instead.  Writes
skip fsync (``synchronous=OFF``): a crash can at worst damage the index, which
is then rebuilt.  Only this module writes the index; only ``transcripts.py``
writes transcripts.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from interviewer.digest import Prompts, SessionDigest, digest
from interviewer.transcripts import Summary, Transcript, TranscriptError, scan_transcript_files

log = logging.getLogger("interviewer.index")

INDEX_NAME = ".index.sqlite"
SCHEMA_VERSION = 5
"""Bump when a row's content changes: an index of another version is rebuilt."""
LOCK_TIMEOUT_S = 5.0

_COLUMNS = (
    "name", "size", "mtime_ns", "ino", "id", "case_id", "case_title", "started", "status", "overall", "grader",
    "answered", "digest", "error",
)
_CREATE = f"""
CREATE TABLE IF NOT EXISTS transcripts (
    name TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ino INTEGER NOT NULL,
    id TEXT, case_id TEXT, case_title TEXT, started TEXT, status TEXT, overall INTEGER, grader TEXT,
    answered INTEGER, digest TEXT, error TEXT
);
CREATE TABLE IF NOT EXISTS phrases (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS prompts (
    case_id TEXT NOT NULL, question_id TEXT NOT NULL, prompt TEXT NOT NULL, PRIMARY KEY (case_id, question_id)
);
PRAGMA user_version = {SCHEMA_VERSION};
"""

Loader = Callable[[Path], Transcript]
"""Reads and validates one transcript file (``TranscriptStore.load_path``), raising ``TranscriptError``."""


@dataclass(frozen=True)
class Entry:
    """One file's row: a summary and the session's digest, or the reason the file was skipped."""

    summary: Summary | None
    digest_json: str | None
    error: str | None
    prompts: Prompts
    """Shared by every entry of one listing, like ``phrases``."""
    phrases: Sequence[str]

    def digest(self) -> SessionDigest | None:
        return SessionDigest.from_json(self.digest_json, self.prompts, self.phrases) if self.digest_json else None


@dataclass(frozen=True)
class _Stat:
    size: int
    mtime_ns: int
    ino: int


class TranscriptIndex:
    """The index of one transcripts folder.  ``entries`` brings it up to date and returns every row."""

    def __init__(self, root: Path, load: Loader):
        self.root = root
        self.load = load

    @property
    def path(self) -> Path:
        return self.root / INDEX_NAME

    def entries(self, *, summaries: bool = True) -> list[Entry]:
        """One entry per transcript file now in the folder, in file-name order.

        ``summaries=False`` leaves ``Entry.summary`` out (None): progress needs only the digests, and
        building ten thousand summaries it would not read costs a noticeable share of its time.
        """
        files = self._scan()
        if not files:
            return []
        try:
            with self._connect(self.path) as conn:
                return self._refresh(conn, files, summaries)
        except sqlite3.DatabaseError as exc:
            if _busy(exc):
                log.info("transcript index busy (%s); listing without it", exc)
            else:
                log.info("transcript index unusable (%s); rebuilding it", exc)
                with contextlib.suppress(sqlite3.Error, OSError):
                    return self._rebuild(files, summaries)
        except OSError as exc:
            log.info("transcript index cannot be opened (%s); listing without it", exc)
        with self._connect(None) as conn:
            return self._refresh(conn, files, summaries)

    # ------------------------------------------------------------------ internals

    def _scan(self) -> dict[str, _Stat]:
        """Name -> stat of every transcript file (the same files as ``TranscriptStore.files``)."""
        return {name: _Stat(st.size, st.mtime_ns, st.ino) for name, st in scan_transcript_files(self.root).items()}

    @contextlib.contextmanager
    def _connect(self, path: Path | None) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(":memory:" if path is None else str(path), timeout=LOCK_TIMEOUT_S)
        try:
            conn.execute("PRAGMA synchronous = OFF")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                if version != 0 or conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    # Another version's index (or a stranger's database): rebuilt into a new file.
                    raise sqlite3.DatabaseError(f"index schema version {version}, expected {SCHEMA_VERSION}")
                conn.executescript(_CREATE)
            yield conn
        finally:
            conn.close()

    def _rebuild(self, files: dict[str, _Stat], summaries: bool) -> list[Entry]:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{INDEX_NAME}{suffix}").unlink()
        with self._connect(self.path) as conn:
            return self._refresh(conn, files, summaries)

    def _refresh(self, conn: sqlite3.Connection, files: dict[str, _Stat], summaries: bool) -> list[Entry]:
        known = {
            name: _Stat(size, mtime_ns, ino)
            for name, size, mtime_ns, ino in conn.execute("SELECT name, size, mtime_ns, ino FROM transcripts")
        }
        stale = [name for name, st in files.items() if known.get(name) != st]
        gone = [(name,) for name in known if name not in files]
        if stale or gone:
            with conn:  # one transaction, holding the write lock from the start: phrase numbers are read then added
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("DELETE FROM transcripts WHERE name = ?", gone)
                ids: dict[str, int] = {text: n for n, text in conn.execute("SELECT id, text FROM phrases")}

                def phrase_id(text: str) -> int:
                    if text not in ids:
                        ids[text] = len(ids)
                        conn.execute("INSERT INTO phrases VALUES (?, ?)", (ids[text], text))
                    return ids[text]

                for name in stale:
                    row, prompts = self._row(name, files[name], phrase_id)
                    conn.execute(
                        f"INSERT OR REPLACE INTO transcripts ({', '.join(_COLUMNS)}) "
                        f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                        row,
                    )
                    # A question's prompt is the same in every session of its case (the latest wins if a case
                    # was edited), so it is kept once here rather than in every row's digest.
                    conn.executemany("INSERT OR REPLACE INTO prompts VALUES (?, ?, ?)",
                                     [(c, q, p) for (c, q), p in prompts.items()])
        prompts = {(c, q): p for c, q, p in conn.execute("SELECT case_id, question_id, prompt FROM prompts")}
        phrases = [text for (text,) in conn.execute("SELECT text FROM phrases ORDER BY id")]
        if not summaries:
            return [Entry(None, d, e, prompts, phrases) for d, e in conn.execute(
                "SELECT digest, error FROM transcripts ORDER BY name")]
        rows = conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM transcripts ORDER BY name")
        return [self._entry(row, prompts, phrases) for row in rows]

    def _row(
        self, name: str, st: _Stat, phrase_id: Callable[[str], int]
    ) -> tuple[tuple[object, ...], dict[tuple[str, str], str]]:
        path = self.root / name
        try:
            t = self.load(path)
        except TranscriptError as exc:
            return (name, st.size, st.mtime_ns, st.ino, *([None] * 9), str(exc)), {}
        answered = sum(1 for turn in t.turns if turn.answer)
        d = digest(t)
        return (
            name, st.size, st.mtime_ns, st.ino, t.id, t.case_id, t.case_title, t.started, t.status, t.overall,
            t.grader, answered, d.as_json(phrase_id), None,
        ), d.prompts()

    def _entry(self, row: tuple[object, ...], prompts: Prompts, phrases: Sequence[str]) -> Entry:
        values = dict(zip(_COLUMNS, row, strict=True))
        if values["error"] is not None:
            return Entry(None, None, str(values["error"]), prompts, phrases)
        overall = values["overall"]
        answered = values["answered"]
        summary = Summary(
            id=str(values["id"]),
            case_id=str(values["case_id"]),
            case_title=str(values["case_title"]),
            started=str(values["started"]),
            status=str(values["status"]),
            overall=overall if isinstance(overall, int) else None,
            grader=None if values["grader"] is None else str(values["grader"]),
            answered=answered if isinstance(answered, int) else 0,
            path=self.root / str(values["name"]),
        )
        return Entry(summary, str(values["digest"]), None, prompts, phrases)


def _busy(exc: sqlite3.DatabaseError) -> bool:
    """Locked by another process (or a read-only folder): the index is fine, just not ours to write now."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and any(
        word in text for word in ("locked", "busy", "readonly", "read-only", "unable to open")
    )

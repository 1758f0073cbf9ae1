"""The summary index beside the transcripts: listings and progress without parsing every file.

The JSON transcripts stay the source of truth.  ``<transcripts_dir>/.index.sqlite``
(sqlite3 from the standard library) holds one row per transcript file: what a
listing shows (id, case, start, status, overall, grader, answers), the
session's scores as a ``SessionDigest`` in compact JSON (question prompts and
missed key points sit once in the ``prompts`` and ``phrases`` tables), and the
file's size, mtime and inode when the row was made.  ``entries`` reads what a
listing shows; ``digests`` reads only the scores, already in the order progress
wants them.  Rows are made with ``TranscriptStore.load_for_summary``, which
skips validating the regrade history no summary needs.  Each read stats the folder (cheap) and
re-parses only the files whose size, mtime or inode changed (an atomic save
is a rename, so even a same-size rewrite within the clock's resolution is a
new inode); rows of deleted files go.  A file that cannot be read gets a row
with its error, so it is reported on every listing but parsed only when it
changes.

The index is a cache: it is rebuilt from scratch when it is missing, from
another schema version (``PRAGMA user_version``) or not a readable database
(a digest that does not decode included), and when it cannot be written (a read-only folder, or another process holding
the lock too long) the rows are built in memory for this run instead.  Writes
skip fsync (``synchronous=OFF``): a crash can at worst damage the index, which
is then rebuilt.  Only this module writes the index; only ``transcripts.py``
writes transcripts.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from interviewer.bulk import collector_paused
from interviewer.digest import SessionDigest, digest
from interviewer.transcripts import FileStat, Summary, Transcript, TranscriptError, scan_transcript_files

log = logging.getLogger("interviewer.index")

INDEX_NAME = ".index.sqlite"
SCHEMA_VERSION = 6
"""Bump when a row's content changes: an index of another version is rebuilt."""
LOCK_TIMEOUT_S = 5.0

_COLUMNS = (
    "name", "size", "mtime_ns", "ino", "id", "case_id", "case_title", "started", "status", "overall", "grader",
    "answered", "digest", "error",
)
_SUMMARY_COLUMNS = tuple(c for c in _COLUMNS if c != "digest")
_CREATE = f"""
CREATE TABLE IF NOT EXISTS transcripts (
    name TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ino INTEGER NOT NULL,
    id TEXT, case_id TEXT, case_title TEXT, started TEXT, status TEXT, overall INTEGER, grader TEXT,
    answered INTEGER, digest BLOB, error TEXT
);
CREATE TABLE IF NOT EXISTS phrases (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS prompts (
    case_id TEXT NOT NULL, question_id TEXT NOT NULL, prompt TEXT NOT NULL, PRIMARY KEY (case_id, question_id)
);
PRAGMA user_version = {SCHEMA_VERSION};
"""

Loader = Callable[[Path], Transcript]
"""Reads and validates one transcript file (``TranscriptStore.load_path``), raising ``TranscriptError``."""
T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    """One file's row: its summary, or the reason the file was skipped."""

    summary: Summary | None
    error: str | None


class TranscriptIndex:
    """The index of one transcripts folder.  ``entries`` and ``digests`` bring it up to date, then read it."""

    def __init__(self, root: Path, load: Loader):
        self.root = root
        self.load = load

    @property
    def path(self) -> Path:
        return self.root / INDEX_NAME

    def entries(self) -> list[Entry]:
        """One entry per transcript file now in the folder, in file-name order."""
        return self._read(self._entries, [])

    def digests(self) -> tuple[list[SessionDigest], list[str]]:
        """Every readable transcript's digest, oldest first (by start, then id), and the errors of the others
        in file-name order.  Reads only the digests' columns: progress needs no summaries."""
        nothing: tuple[list[SessionDigest], list[str]] = ([], [])
        return self._read(self._digests, nothing)

    def _read(self, reader: Callable[[sqlite3.Connection], T], empty: T) -> T:
        """Bring the index up to date with the folder, then ``reader`` it (in memory when it cannot be written)."""
        files = self._scan()
        if not files:
            return empty
        try:
            with self._connect(self.path) as conn:
                self._refresh(conn, files)
                return reader(conn)
        except sqlite3.DatabaseError as exc:
            if _busy(exc):
                log.info("transcript index busy (%s); listing without it", exc)
            else:
                log.info("transcript index unusable (%s); rebuilding it", exc)
                with contextlib.suppress(sqlite3.Error, OSError):
                    return self._rebuild(files, reader)
        except OSError as exc:
            log.info("transcript index cannot be opened (%s); listing without it", exc)
        with self._connect(None) as conn:
            self._refresh(conn, files)
            return reader(conn)

    # ------------------------------------------------------------------ internals

    def _scan(self) -> dict[str, FileStat]:
        """Name -> stat of every transcript file (the same files as ``TranscriptStore.files``)."""
        return scan_transcript_files(self.root)

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

    def _rebuild(self, files: dict[str, FileStat], reader: Callable[[sqlite3.Connection], T]) -> T:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{INDEX_NAME}{suffix}").unlink()
        with self._connect(self.path) as conn:
            self._refresh(conn, files)
            return reader(conn)

    def _refresh(self, conn: sqlite3.Connection, files: dict[str, FileStat]) -> None:
        """Re-parse the files whose size, mtime or inode changed, and drop the rows of files that are gone."""
        known = {name: FileStat(size, mtime_ns, ino) for name, size, mtime_ns, ino in conn.execute(
            "SELECT name, size, mtime_ns, ino FROM transcripts")}
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

    def _entries(self, conn: sqlite3.Connection) -> list[Entry]:
        return [self._entry(row) for row in conn.execute(
            f"SELECT {', '.join(_SUMMARY_COLUMNS)} FROM transcripts ORDER BY name")]

    def _digests(self, conn: sqlite3.Connection) -> tuple[list[SessionDigest], list[str]]:
        prompts = {(c, q): p for c, q, p in conn.execute("SELECT case_id, question_id, prompt FROM prompts")}
        phrases = [text for (text,) in conn.execute("SELECT text FROM phrases ORDER BY id")]
        rows = conn.execute("SELECT id, case_id, started, overall, digest FROM transcripts "
                            "WHERE error IS NULL ORDER BY started, id")
        try:
            with collector_paused():  # ~60,000 lists and dicts for ten thousand sessions
                digests = [SessionDigest.from_json(sid, case_id, started, overall, data, prompts, phrases)
                           for sid, case_id, started, overall, data in rows]
        except (ValueError, TypeError, IndexError) as exc:  # a damaged row: rebuilt like a damaged index
            raise sqlite3.DatabaseError(f"a digest in the index does not decode ({exc})") from None
        errors = [str(e) for (e,) in conn.execute(
            "SELECT error FROM transcripts WHERE error IS NOT NULL ORDER BY name")]
        return digests, errors

    def _row(
        self, name: str, st: FileStat, phrase_id: Callable[[str], int]
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
        ), dict(d.prompts)

    def _entry(self, row: tuple[object, ...]) -> Entry:
        values = dict(zip(_SUMMARY_COLUMNS, row, strict=True))
        if values["error"] is not None:
            return Entry(None, str(values["error"]))
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
        return Entry(summary, None)


def _busy(exc: sqlite3.DatabaseError) -> bool:
    """Locked by another process (or a read-only folder): the index is fine, just not ours to write now."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and any(
        word in text for word in ("locked", "busy", "readonly", "read-only", "unable to open")
    )

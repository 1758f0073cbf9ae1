"""Saved sessions: the transcript format, and the only code that writes sessions to disk.

One JSON file per session, with a ``version`` field.  Every save is atomic
(temp file, fsync, rename, fsync of the folder), so a session killed at any
moment leaves either the previous or the new version of the file, never a
torn one.  A damaged or foreign file in the folder is reported and skipped.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

import jiter
from pydantic import BaseModel, Field, ValidationError

from interviewer.atomic import write_atomic
from interviewer.grading.types import Grade

if TYPE_CHECKING:
    from interviewer.digest import SessionDigest
    from interviewer.index import Entry, TranscriptIndex

FORMAT_VERSION = 1
SUFFIX = ".json"
MAX_TRANSCRIPT_BYTES = 20_000_000

Status = Literal["in_progress", "finished"]
TurnKind = Literal["question", "follow_up"]
TurnStatus = Literal["asked", "answered", "graded", "skipped", "timed_out"]


class Turn(BaseModel):
    """One exchange: the interviewer asks, the candidate answers, a grader grades."""

    id: int
    phase_id: str
    question_id: str
    kind: TurnKind = "question"
    prompt: str
    probe_dimension: str | None = None
    """For a follow-up: the dimension it probes."""
    follow_up: int | None = None
    """For a scripted follow-up: its 1-based number in the question's ``follow_ups``."""
    probe_point: str | None = None
    """For a follow-up built from a missed key point: that point's heading."""
    asked_at: float
    """Active seconds since the session started when the prompt was shown."""
    answered_at: float | None = None
    answer: str | None = None
    status: TurnStatus = "asked"
    grade: Grade | None = None
    previous_grades: list[Grade] = Field(default_factory=list)
    """Grades replaced by a regrade, oldest first."""
    hints: list[str] = Field(default_factory=list)
    """Key-point headings revealed by the hint action."""


class PhaseRecord(BaseModel):
    id: str
    title: str
    budget_s: float
    started_at: float | None = None
    ended_at: float | None = None

    def used(self, now: float) -> float:
        if self.started_at is None:
            return 0.0
        end = self.ended_at if self.ended_at is not None else now
        return max(0.0, end - self.started_at)


class Transcript(BaseModel):
    version: int = FORMAT_VERSION
    id: str
    case_id: str
    case_title: str
    kind: str = "case"
    started: str
    """Wall-clock start, ISO 8601 with time zone."""
    updated: str
    status: Status = "in_progress"
    practice: bool = False
    time_scale: float = 1.0
    elapsed: float = 0.0
    """Active (unpaused) seconds at the last save; a resumed session's clock starts here."""
    phase_index: int = 0
    phases: list[PhaseRecord]
    turns: list[Turn] = Field(default_factory=list)
    draft: str | None = None
    """Text typed in the editor and not yet submitted; saved as you type and put back on resume."""
    grading_s: float = 0.0
    """Seconds the clock was stopped while the candidate waited for grades (not counted in ``elapsed``)."""
    drill_questions: list[str] | None = None
    """For a drill: the question ids it asks, in order, so resume rebuilds the same one-phase sub-case."""

    def graded_turns(self) -> list[Turn]:
        return [t for t in self.turns if t.grade is not None]

    @property
    def overall(self) -> int | None:
        """Mean of the main answers' grades; follow-ups are graded on their own and reported apart."""
        grades = [t.grade.overall for t in self.graded_turns() if t.grade and t.kind == "question"]
        return round(sum(grades) / len(grades)) if grades else None

    @property
    def grader(self) -> str | None:
        names = {t.grade.grader for t in self.graded_turns() if t.grade}
        if not names:
            return None
        return names.pop() if len(names) == 1 else "mixed"


@dataclass(frozen=True)
class Summary:
    """What a listing shows, without keeping every turn in memory."""

    id: str
    case_id: str
    case_title: str
    started: str
    status: str
    overall: int | None
    grader: str | None
    answered: int
    path: Path

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "case": self.case_id,
            "case_title": self.case_title,
            "started": self.started,
            "status": self.status,
            "overall": self.overall,
            "grader": self.grader,
            "answered": self.answered,
        }


class TranscriptError(Exception):
    """A transcript could not be read or found; the message is one line."""


def now_iso() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


def new_id(case_id: str, when: datetime | None = None) -> str:
    """Sortable, unique, readable: ``20261122-0355-nvidia-inference-3fa2``."""
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{case_id}-{secrets.token_hex(2)}"


class FileStat(NamedTuple):
    """What tells a transcript file changed without reading it.

    A named tuple: ten thousand are made on every listing, and it compares equal to the index's row.
    """

    size: int
    mtime_ns: int
    ino: int


def scan_transcript_files(root: Path) -> dict[str, FileStat]:
    """Name -> stat of every transcript file in ``root``, sorted by name; dotfiles (the index, the drill
    store) are not sessions.  A missing folder has none; a file that vanishes between listing and stat is
    skipped.  The one scan the summary index and the drill store share."""
    found: dict[str, FileStat] = {}
    try:
        with os.scandir(root) as it:
            for entry in it:
                if entry.name.startswith(".") or not entry.name.endswith(SUFFIX):
                    continue
                try:
                    if not entry.is_file():
                        continue
                    st = entry.stat()
                except OSError:
                    continue
                found[entry.name] = FileStat(st.st_size, st.st_mtime_ns, st.st_ino)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    return dict(sorted(found.items()))


class TranscriptStore:
    """A folder of transcript files."""

    def __init__(self, root: Path):
        self.root = root

    def path_for(self, transcript_id: str) -> Path:
        return self.root / f"{transcript_id}{SUFFIX}"

    def save(self, transcript: Transcript) -> Path:
        """Write atomically: temp file + fsync + rename + fsync of the folder."""
        transcript.updated = now_iso()
        target = self.path_for(transcript.id)
        write_atomic(target, transcript.model_dump_json(indent=1).encode("utf-8"))
        return target

    def load_path(self, path: Path) -> Transcript:
        try:
            size = path.stat().st_size
            if size > MAX_TRANSCRIPT_BYTES:
                raise TranscriptError(f"{path}: file is too large to be a transcript ({size:,} bytes)")
            raw = path.read_bytes()
        except OSError as exc:
            raise TranscriptError(f"{path}: cannot read: {exc.strerror or exc}") from None
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise TranscriptError(f"{path}: not valid JSON ({exc})") from None
        if not isinstance(data, dict) or "version" not in data or "turns" not in data:
            raise TranscriptError(f"{path}: not an interviewer transcript")
        if data.get("version") != FORMAT_VERSION:
            raise TranscriptError(f"{path}: transcript version {data.get('version')!r} is not supported")
        try:
            return Transcript.model_validate(data)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in err["loc"])
            raise TranscriptError(f"{path}: {where}: {err['msg']}") from None

    def load_for_summary(self, path: Path) -> Transcript:
        """``load_path`` without the regrade history: what the summary index reads.

        No summary needs earlier grades, and after a few regrades they are most
        of a file, so validating only the rest (parsed with jiter) rebuilds an
        index two to three times faster.  Any file this path does not accept
        goes through ``load_path``, so problems are reported in the same words.
        """
        try:
            if path.stat().st_size <= MAX_TRANSCRIPT_BYTES:
                data = jiter.from_json(path.read_bytes())
                turns = data.get("turns") if isinstance(data, dict) else None
                if isinstance(turns, list) and data.get("version") == FORMAT_VERSION:
                    for turn in turns:
                        if isinstance(turn, dict):
                            turn.pop("previous_grades", None)
                    return Transcript.model_validate(data)
        except (OSError, ValueError):  # pydantic's ValidationError is a ValueError
            pass
        return self.load_path(path)

    def files(self) -> list[Path]:
        """Transcript files in the folder; raises TranscriptError when the folder cannot be read."""
        try:
            if not self.root.exists():
                return []
            if not self.root.is_dir():
                raise TranscriptError(f"{self.root}: the transcripts dir is not a folder")
            return sorted(p for p in self.root.glob(f"*{SUFFIX}") if p.is_file() and not p.name.startswith("."))
        except OSError as exc:
            raise TranscriptError(f"{self.root}: cannot read the transcripts dir: {exc.strerror or exc}") from None

    def check_export_target(self, path: Path) -> None:
        """Refuse to export onto a transcript: an export must never destroy the session it came from."""
        target = path.expanduser().resolve()
        root = self.root.expanduser().resolve()
        if target.suffix == SUFFIX and target.parent == root:
            raise TranscriptError(f"{path}: refusing to overwrite a transcript file; choose another name")

    def resolve(self, ref: str) -> Path:
        """Find a transcript by id, unique id prefix, or path."""
        as_path = Path(ref)
        if as_path.suffix == SUFFIX and as_path.is_file():
            return as_path
        matches = [p for p in self.files() if p.stem.startswith(ref)] if ref else []
        exact = [p for p in matches if p.stem == ref]
        if exact or len(matches) == 1:
            return (exact or matches)[0]
        if not matches:
            raise TranscriptError(f"no transcript with id {ref!r} in {self.root}")
        names = ", ".join(p.stem for p in matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise TranscriptError(f"id {ref!r} is ambiguous: {len(matches)} files match ({names})")

    def load(self, ref: str) -> Transcript:
        return self.load_path(self.resolve(ref))

    def load_all(self) -> tuple[list[tuple[Path, Transcript]], list[str]]:
        """Every readable transcript, oldest first, and one line per file that was skipped."""
        loaded: list[tuple[Path, Transcript]] = []
        problems: list[str] = []
        try:
            files = self.files()
        except TranscriptError as exc:
            return [], [str(exc)]
        for path in files:
            try:
                loaded.append((path, self.load_path(path)))
            except TranscriptError as exc:
                problems.append(f"skipped {exc}")
        loaded.sort(key=lambda item: (item[1].started, item[1].id))
        return loaded, problems

    def summaries(self) -> tuple[list[Summary], list[str]]:
        """Summaries of every readable transcript, newest first, and the files that were skipped.

        Read through the summary index (``interviewer.index``): only files changed since the last
        listing are parsed.
        """
        try:
            entries: list[Entry] = self._index().entries()
        except TranscriptError as exc:
            return [], [str(exc)]
        except OSError as exc:
            return [], [f"{self.root}: cannot read the transcripts dir: {exc.strerror or exc}"]
        summaries = [e.summary for e in entries if e.summary is not None]
        summaries.sort(key=lambda s: (s.started, s.id), reverse=True)
        return summaries, [f"skipped {e.error}" for e in entries if e.error is not None]

    def digests(self) -> tuple[list[SessionDigest], list[str]]:
        """Every readable transcript's scores (what ``progress`` needs), oldest first, and the skipped files."""
        try:
            digests, errors = self._index().digests()
        except TranscriptError as exc:
            return [], [str(exc)]
        except OSError as exc:
            return [], [f"{self.root}: cannot read the transcripts dir: {exc.strerror or exc}"]
        return digests, [f"skipped {e}" for e in errors]

    def _index(self) -> TranscriptIndex:
        # Imported here: the index reads transcripts through this module, which must not import it back at load.
        from interviewer.index import TranscriptIndex

        if self.root.exists() and not self.root.is_dir():
            raise TranscriptError(f"{self.root}: the transcripts dir is not a folder")
        return TranscriptIndex(self.root, self.load_for_summary)

    def unfinished(self) -> list[Summary]:
        return [s for s in self.summaries()[0] if s.status == "in_progress"]


"""Drills: spaced repetition of the questions you answered, scheduled by FSRS (the ``fsrs`` package).

Every graded main answer is one review of its question.  Its rating comes
from the grade (``rating_for``, rule in ``RATING_RULE``): the weakest graded
dimension and the overall.  Follow-ups are not reviews: they probe one
dimension of a question, and the question's next main answer is what tells
whether it stuck.  A session's reviews happen at its start time, so a regrade
changes a review's rating but never when it happened.

The scheduling state lives in ``<transcripts dir>/.drills.json`` (this module
is the only writer).  It holds, per transcript file, the file's size and
mtime and the reviews read from it, plus each question's FSRS card.  On every
read the folder is compared with it: only new or changed files are parsed,
a new session's reviews are applied to the cards, and a changed or removed
file replays the questions it touches.  The transcripts stay the source of
truth: a missing, corrupt or foreign store is rebuilt from them, and the
scheduling is deterministic (no fuzzing), so a rebuilt store schedules
exactly as the old one.  Every review goes through the fsrs package's own
``Scheduler.review_card`` (``_review``): a rebuild replays every graded
answer ever given, and this module never does FSRS arithmetic itself.

A drill asks the due questions (most overdue first) and then, after them, at
most ``NEW_PER_DRILL`` questions of the same case never answered before, so
new material comes in gradually instead of flooding the queue.
"""

from __future__ import annotations

import json
import os
import tempfile
import zlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from itertools import pairwise
from operator import attrgetter
from pathlib import Path
from typing import Any

import jiter
from fsrs import Card, Rating, Scheduler

from interviewer.bulk import collector_paused
from interviewer.content.schema import DIMENSIONS, Case, Phase
from interviewer.drill_reviews import (
    RATING_RULE,
    FileReviews,
    Review,
    digest_reviews,
    file_reviews,
    question_key,
    utc,
)
from interviewer.drill_reviews import rating_from as rating_from  # re-exported: the rule drills are scheduled by
from interviewer.drill_size import DEFAULT_COUNT, MAX_COUNT
from interviewer.report import build_report
from interviewer.session import SessionError
from interviewer.transcripts import (
    MAX_TRANSCRIPT_BYTES,
    SUFFIX,
    Transcript,
    TranscriptStore,
    scan_transcript_files,
)

STORE_NAME = ".drills.json"
STORE_VERSION = 2
"""Version 2 keeps each file's reviews as one JSON text, decoded only when that file changes."""
NEW_PER_DRILL = 2
"""Never-answered questions added to one drill, after the due ones."""
WEAK_SCORE = 3
"""With ``--dimension D`` a due question is drilled when its last score on D is below this (0-4)."""
DRILL_PHASE_ID = "drill"

def scheduler() -> Scheduler:
    """FSRS with day-sized steps and no fuzzing.

    No learning steps: a question answered badly comes back the next day (an
    interview answer is not a flashcard to retry in ten minutes).  No fuzzing:
    the schedule is a pure function of the transcripts, so a rebuilt store
    gives the same due dates.
    """
    return Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False, maximum_interval=365)


# --------------------------------------------------------------------------- cards


def new_card(key: str, first: datetime) -> Card:
    """A question's card before its first review (at ``first``).

    A fixed card id: ``Card()`` without one reads the clock and sleeps a millisecond to stay unique.
    """
    return Card(card_id=zlib.crc32(key.encode()), due=first)


# --------------------------------------------------------------------------- the queue


@dataclass(frozen=True)
class Item:
    """One question's place in the schedule, and its latest grade."""

    case_id: str
    question_id: str
    due: datetime
    reviews: int
    last: Review

    @property
    def key(self) -> str:
        return question_key(self.case_id, self.question_id)

    @property
    def weakest_dimension(self) -> str | None:
        scores = self.last.scores
        return min(scores, key=lambda d: (scores[d], DIMENSIONS.index(d))) if scores else None

    def as_json(self, now: datetime) -> dict[str, Any]:
        return {
            "case": self.case_id,
            "question": self.question_id,
            "due": self.due.isoformat(),
            "is_due": self.due <= now,
            "reviews": self.reviews,
            "last_overall": self.last.overall,
            "last_scores": self.last.scores,
            "last_rating": self.last.rating.name,
            "weakest_dimension": self.weakest_dimension,
        }


@dataclass
class Queue:
    """Every answered question with its due date, as of ``now``."""

    now: datetime
    items: dict[str, Item] = field(default_factory=dict)

    def due(self, case_id: str | None = None, dimension: str | None = None) -> list[Item]:
        """Due questions, most overdue first (weakest last grade first on a tie).

        With ``dimension``, only those whose last score on it is below ``WEAK_SCORE``, weakest on it first.
        """
        items = [i for i in self.items.values() if i.due <= self.now and (case_id is None or i.case_id == case_id)]
        if dimension is not None:
            items = [i for i in items if i.last.scores.get(dimension, WEAK_SCORE) < WEAK_SCORE]
            return sorted(items, key=lambda i: (i.last.scores[dimension], i.due, i.last.overall, i.key))
        return sorted(items, key=lambda i: (i.due, i.last.overall, i.key))

    def upcoming(self, case_id: str | None = None) -> list[Item]:
        """Questions not due yet, soonest first."""
        items = [i for i in self.items.values() if i.due > self.now and (case_id is None or i.case_id == case_id)]
        return sorted(items, key=lambda i: (i.due, i.key))

    def next_due(self, case_id: str | None = None) -> datetime | None:
        later = self.upcoming(case_id)
        return later[0].due if later else None

    def due_by_case(self, dimension: str | None = None) -> Counter[str]:
        return Counter(i.case_id for i in self.due(dimension=dimension))

    def seen(self, case_id: str) -> set[str]:
        return {i.question_id for i in self.items.values() if i.case_id == case_id}

    def as_json(self, case_id: str | None = None) -> dict[str, Any]:
        nxt = self.next_due(case_id)
        return {
            "now": self.now.isoformat(),
            "due": [i.as_json(self.now) for i in self.due(case_id)],
            "upcoming": [i.as_json(self.now) for i in self.upcoming(case_id)],
            "next_due": None if nxt is None else nxt.isoformat(),
            "rating_rule": RATING_RULE,
        }


def queue_lines(
    queue: Queue, case_id: str | None = None, limit: int = 10, hint: str = "start with `interviewer drill`"
) -> list[str]:
    """The drill queue for people: what is due now, then what comes next and when."""
    due, later = queue.due(case_id), queue.upcoming(case_id)
    if not due and not later:
        return ["Drill queue: empty (questions join it once a main answer is graded)."]
    lines = [f"Drill queue: {len(due)} due now" + (f" · {hint}" if due else "")]
    for item in due[:limit]:
        lines.append(f"  due   {item.last.overall:>3}/100  {item.key}")
    if len(due) > limit:
        lines.append(f"  … {len(due) - limit} more due")
    for item in later[: max(0, limit - len(due[:limit]))]:
        lines.append(f"  {when_text(item.due, queue.now):<22} {item.last.overall:>3}/100  {item.key}")
    return lines


def when_text(when: datetime, now: datetime) -> str:
    """'now', 'in 3 h', 'in 2 days (Nov 25)': how far off a due date is, for people."""
    delta = when - now
    if delta <= timedelta(0):
        return "now"
    if delta < timedelta(hours=1):
        return f"in {max(1, round(delta.total_seconds() / 60))} min"
    if delta < timedelta(hours=20):
        return f"in {round(delta.total_seconds() / 3600)} h"
    days = max(1, round(delta.total_seconds() / 86400))
    return f"in {days} day{'s' if days != 1 else ''} ({when.astimezone().strftime('%b %d')})"


# --------------------------------------------------------------------------- the store


@dataclass
class _Question:
    """A question's FSRS card, how many reviews made it, and the latest of them."""

    card: Card
    reviews: int
    last: Review

    def as_json(self) -> dict[str, Any]:
        return {"card": self.card.to_dict(), "reviews": self.reviews, "last": self.last.as_json()}

    @classmethod
    def from_json(cls, data: Any) -> _Question:
        card = Card.from_dict(data["card"])
        card.due = utc(card.due)
        if card.last_review is not None:
            card.last_review = utc(card.last_review)
        return cls(card, int(data["reviews"]), Review.from_json(data["last"]))


@dataclass
class _File:
    """One transcript file as last seen: its size and mtime, and its reviews as ``FileReviews.as_text``
    ("" for none).

    The text is decoded only when the file changes or goes: reading the store on every look at the queue
    then costs one string per file, not a few dozen numbers per file (ten thousand files).
    """

    size: int
    mtime_ns: int
    text: str = ""

    @classmethod
    def of(cls, size: int, mtime_ns: int, reviews: FileReviews | None) -> _File:
        return cls(size, mtime_ns, reviews.as_text() if reviews else "")

    def reviews(self) -> FileReviews | None:
        """Raises ``ValueError``/``TypeError`` on anything malformed (the store is then rebuilt)."""
        return FileReviews.from_text(self.text) if self.text else None

    def keys(self) -> list[str]:
        reviews = self.reviews()
        return reviews.keys() if reviews else []

    def as_json(self) -> list[Any]:
        return [self.size, self.mtime_ns, self.text]

    @classmethod
    def from_json(cls, data: Any) -> _File:
        size, mtime_ns, text = data
        if not isinstance(size, int) or not isinstance(mtime_ns, int) or not isinstance(text, str):
            raise ValueError("a file entry is [size, mtime_ns, reviews text]")
        return cls(size, mtime_ns, text)


class StoreCorrupt(Exception):
    """The drill store cannot be used as it is; it is rebuilt from the transcripts."""


class DrillStore:
    """``.drills.json`` beside the transcripts: reviews per file and a card per question, kept in step on read.

    Reading it is the common case (home screen, ``drill``, ``progress``), so a
    read that finds nothing changed decodes only the file table and the
    cards.  A new session's reviews are applied to the stored cards when they
    are later than every earlier review of their question (the usual case);
    a changed or deleted file, or an out-of-order review, replays only the
    questions it touches from every review of them.
    """

    BULK = 8
    """From this many new or changed files on, their reviews come from the summary index's digests
    (``TranscriptStore.digests``: usually already up to date, so nothing is parsed twice) instead of
    parsing each file here."""

    def __init__(self, root: Path):
        self.root = root
        self.rebuilt: str | None = None
        """Why the last ``queue`` rebuilt the store from scratch ('missing', 'corrupt: ...'), or None."""
        self.parsed = 0
        """Transcript files parsed by the last ``queue`` (the others were known by size and mtime)."""

    @property
    def path(self) -> Path:
        return self.root / STORE_NAME

    def queue(self, now: datetime | None = None) -> Queue:
        """The schedule as of ``now`` (default: the current time), after bringing the store up to date."""
        now = utc(now or datetime.now(timezone.utc))
        with collector_paused():  # a rebuild makes a few objects per review of every transcript
            files, questions = self._read()
            try:
                changed = self._refresh(files, questions)
            except StoreCorrupt as exc:  # a review in the store did not decode: start again from the transcripts
                self.rebuilt = f"corrupt: {exc}"
                files, questions = {}, {}
                changed = self._refresh(files, questions)
            if changed:
                self._write(files, questions)
        queue = Queue(now)
        for key, q in questions.items():
            queue.items[key] = Item(q.last.case_id, q.last.question_id, utc(q.card.due), q.reviews, q.last)
        return queue

    # ------------------------------------------------------------------ internals

    def _refresh(self, files: dict[str, _File], questions: dict[str, _Question]) -> bool:
        """Bring ``files`` and ``questions`` in step with the folder; True when anything changed."""
        current = self._scan()
        self.parsed = 0
        changed = False
        replay_keys: set[str] = set()
        added: list[FileReviews] = []
        try:
            for name in set(files) - set(current):
                replay_keys.update(files.pop(name).keys())
                changed = True
            stale = [
                name for name, (size, mtime_ns) in current.items()
                if (old := files.get(name)) is None or old.size != size or old.mtime_ns != mtime_ns
            ]
            digested = self._digested() if len(stale) >= self.BULK else {}
            for name in stale:
                size, mtime_ns = current[name]
                old = files.get(name)
                if name in digested:
                    reviews = digested[name]
                else:
                    reviews = self._parse(self.root / name)
                    self.parsed += 1
                changed = True
                files[name] = _File.of(size, mtime_ns, reviews)
                if old is None:
                    if reviews:
                        added.append(reviews)
                else:  # a regrade or a session still running: its earlier reviews may have changed
                    replay_keys.update(old.keys(), reviews.keys() if reviews else [])
            reviewer = scheduler()
            appended, ties = _by_key(added)
            for key, new in appended.items():
                if key not in replay_keys and not _append(questions, key, new, ties, reviewer):
                    replay_keys.add(key)
            if replay_keys:
                history, _ = _by_key([r for entry in files.values() if (r := entry.reviews())], replay_keys)
                for key in replay_keys:
                    if key in history:
                        questions[key] = _replayed(key, history[key], reviewer)
                    else:
                        questions.pop(key, None)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreCorrupt(str(exc)) from None
        return changed

    def _scan(self) -> dict[str, tuple[int, int]]:
        """Transcript files (name -> size, mtime) as ``TranscriptStore.files`` sees them: dotfiles are not sessions."""
        return {name: (st.size, st.mtime_ns) for name, st in scan_transcript_files(self.root).items()}

    def _digested(self) -> dict[str, FileReviews | None]:
        """Reviews by file name, from the summary index; a file it has no digest for is parsed here instead.

        Only an index that exists is used: building one from nothing parses every transcript in full,
        which is slower than reading the few fields needed here (``file_reviews``).
        """
        from interviewer.index import INDEX_NAME

        if not (self.root / INDEX_NAME).is_file():
            return {}
        store = TranscriptStore(self.root)
        try:
            digests, _ = store.digests()
        except Exception:  # the index only saves parsing: whatever goes wrong there, parse the files here
            return {}
        return {f"{d.id}{SUFFIX}": digest_reviews(d) for d in digests}  # the name ``store.path_for`` gives

    def _parse(self, path: Path) -> FileReviews | None:
        """A file's reviews; an unreadable or foreign file has none (the transcript commands report it)."""
        try:
            if path.stat().st_size > MAX_TRANSCRIPT_BYTES:
                return None
            return file_reviews(json.loads(path.read_bytes()))
        except (OSError, ValueError):
            return None

    def _read(self) -> tuple[dict[str, _File], dict[str, _Question]]:
        self.rebuilt = None
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self.rebuilt = "missing"
            return {}, {}
        except OSError as exc:
            self.rebuilt = f"unreadable: {exc.strerror or exc}"
            return {}, {}
        try:
            data = jiter.from_json(raw)
            if not isinstance(data, dict) or data.get("version") != STORE_VERSION:
                raise ValueError("not a drill store of this version")
            files = {str(name): _File.from_json(entry) for name, entry in data["files"].items()}
            questions = {str(key): _Question.from_json(q) for key, q in data["questions"].items()}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            self.rebuilt = f"corrupt: {exc}"
            return {}, {}
        return files, questions

    def _write(self, files: Mapping[str, _File], questions: Mapping[str, _Question]) -> None:
        """Atomically, like a transcript: temp file, fsync, rename.  Nothing is written into a missing folder."""
        if not self.root.is_dir():
            return
        data = {
            "version": STORE_VERSION,
            "rating_rule": RATING_RULE,
            "files": {name: entry.as_json() for name, entry in sorted(files.items())},
            "questions": {key: questions[key].as_json() for key in sorted(questions)},
        }
        payload = json.dumps(data, separators=(",", ":")).encode("utf-8")
        try:
            fd, tmp = tempfile.mkstemp(prefix=".drills.", suffix=".tmp", dir=self.root)
        except OSError:
            return  # a read-only folder: the queue is still right, only not cached
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


_order = attrgetter("at", "transcript_id")
"""Reviews are applied in session-start order, sessions started together in transcript-id order."""

Reviewed = list[tuple[FileReviews, int, Rating]]
"""One question's reviews, oldest first: each a file's reviews, the question's place in them and its rating."""


def _by_key(files: list[FileReviews], keys: set[str] | None = None) -> tuple[dict[str, Reviewed], bool]:
    """Each question's reviews in ``files`` (only ``keys``, when given), and whether two of the files share a
    start and a transcript id (copies of one session), so that their reviews are not in a strict order."""
    files = sorted(files, key=_order)  # stable: files that tie keep their order
    out: dict[str, Reviewed] = {}
    for reviews in files:
        for i, (key, rating) in enumerate(zip(reviews.keys(), reviews.ratings(), strict=True)):
            if keys is None or key in keys:
                out.setdefault(key, []).append((reviews, i, rating))
    return out, any(_order(a) == _order(b) for a, b in pairwise(files))


def _review(reviewer: Scheduler, card: Card, reviews: Iterable[tuple[Rating, datetime]]) -> Card:
    """``card`` after ``reviews`` (rating, UTC time) in order, by the package's scheduler."""
    for rating, at in reviews:
        card, _ = reviewer.review_card(card, rating, at)
    return card


def _append(questions: dict[str, _Question], key: str, new: Reviewed, ties: bool, reviewer: Scheduler) -> bool:
    """Review ``key``'s card with the reviews of new files when each is later than every review before it
    (the usual case: new sessions); False, and nothing changed, when the question needs a replay instead."""
    q = questions.get(key)
    if q is not None and _order(new[0][0]) <= (q.last.at, q.last.transcript_id):
        return False
    if ties and any(_order(a) == _order(b) for (a, _, _), (b, _, _) in pairwise(new)):
        return False
    card = q.card if q is not None else new_card(key, new[0][0].at)
    card = _review(reviewer, card, [(rating, reviews.at) for reviews, _, rating in new])
    last, i, _ = new[-1]
    questions[key] = _Question(card, (q.reviews if q is not None else 0) + len(new), last.review(i))
    return True


def _replayed(key: str, history: Reviewed, reviewer: Scheduler) -> _Question:
    """A question's card from scratch, from every review of it (oldest first)."""
    card = _review(reviewer, new_card(key, history[0][0].at), [(rating, reviews.at) for reviews, _, rating in history])
    last, i, _ = history[-1]
    return _Question(card, len(history), last.review(i))


# --------------------------------------------------------------------------- planning a drill


class DrillError(Exception):
    """A drill that cannot be made as asked (unknown case, unknown dimension, bad count); one line."""


@dataclass(frozen=True)
class DrillPlan:
    """What one drill asks: questions of one library case, due ones first, then a few new ones."""

    case: Case
    question_ids: list[str]
    due_ids: list[str]
    new_ids: list[str]

    @property
    def minutes(self) -> float:
        return drill_minutes(self.case, self.question_ids)


def plan_drill(
    queue: Queue,
    cases: Mapping[str, Case],
    *,
    case_id: str | None = None,
    dimension: str | None = None,
    count: int = DEFAULT_COUNT,
    new: int = NEW_PER_DRILL,
) -> DrillPlan | None:
    """The next drill, or None when nothing is due (and, with ``case_id``, nothing new is left either).

    Without ``case_id`` the case with the most due questions is drilled.
    New questions join only a drill of a case you have practised (or named),
    and never a ``dimension`` drill: there is no grade yet to say they are weak there.
    """
    if case_id is not None and case_id not in cases:
        raise DrillError(f"unknown case {case_id!r} (known: {', '.join(sorted(cases)) or 'none'})")
    if dimension is not None and dimension not in DIMENSIONS:
        raise DrillError(f"unknown dimension {dimension!r} (known: {', '.join(DIMENSIONS)})")
    if not 1 <= count <= MAX_COUNT:
        raise DrillError(f"count must be between 1 and {MAX_COUNT}")
    if case_id is None:
        counts = Counter({c: n for c, n in queue.due_by_case(dimension).items() if c in cases})
        if not counts:
            return None
        case_id = min(counts, key=lambda c: (-counts[c], c))
    case = cases[case_id]
    known = {q.id for q in case.questions()}
    due = [i.question_id for i in queue.due(case_id, dimension) if i.question_id in known][:count]
    fresh: list[str] = []
    if dimension is None:
        seen = queue.seen(case_id)
        room = min(new, count - len(due))
        fresh = [q.id for q in case.questions() if q.id not in seen][: max(0, room)]
    if not due and not fresh:
        return None
    return DrillPlan(case, due + fresh, due, fresh)


def drill_minutes(case: Case, question_ids: Sequence[str]) -> float:
    """Each question keeps its share of its phase's time in the full case."""
    wanted = set(question_ids)
    total = sum(p.minutes / len(p.questions) for p in case.phases for q in p.questions if q.id in wanted)
    return min(600.0, max(1.0, round(total, 2)))


def drill_case(case: Case, question_ids: Sequence[str]) -> Case:
    """A one-phase sub-case ('Drill') of ``case`` asking ``question_ids`` in order, under the same case id.

    The id stays the library case's, so the drill's answers count as
    reviews of the same questions and ``progress --case`` includes it.
    Raises ``SessionError`` when none of the questions is in the case any more.
    """
    questions = [q for qid in question_ids if (q := case.question(qid)) is not None]
    if not questions:
        raise SessionError(f"case {case.id!r} no longer has any of this drill's questions")
    phase = Phase(
        id=DRILL_PHASE_ID,
        title="Drill",
        minutes=drill_minutes(case, [q.id for q in questions]),
        brief=f"A drill: {len(questions)} question{'s' if len(questions) != 1 else ''} from {case.title}.",
        questions=questions,
    )
    return case.model_copy(update={"title": f"{case.title} (drill)", "phases": [phase]})


def case_for(transcript: Transcript, case: Case) -> Case:
    """The case a transcript was run on: the drill sub-case for a drill, else the library case itself."""
    if transcript.drill_questions:
        return drill_case(case, transcript.drill_questions)
    return case


def weakest_questions(transcript: Transcript, n: int = 3) -> list[str]:
    """The ``n`` questions of a session with the weakest main-answer grades (lowest overall, then weakest dimension)."""
    graded = [q for q in build_report(transcript, None).questions if q.main is not None]
    graded.sort(key=lambda q: (q.main.overall, min(q.main.scores.values(), default=0)) if q.main else (0, 0))
    return [q.question_id for q in graded[:n]]

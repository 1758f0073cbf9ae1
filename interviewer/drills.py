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
exactly as the old one.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from fsrs import Card, Rating, Scheduler

from interviewer.content.schema import DIMENSIONS, Case, Phase
from interviewer.digest import SessionDigest
from interviewer.report import build_report
from interviewer.session import SessionError
from interviewer.transcripts import (
    FORMAT_VERSION,
    MAX_TRANSCRIPT_BYTES,
    Transcript,
    TranscriptStore,
    scan_transcript_files,
)

STORE_NAME = ".drills.json"
STORE_VERSION = 1
DEFAULT_COUNT = 5
"""Questions in a drill unless ``--count`` says otherwise."""
MAX_COUNT = 50
NEW_PER_DRILL = 2
"""Never-answered questions added to one drill, after the due ones."""
WEAK_SCORE = 3
"""With ``--dimension D`` a due question is drilled when its last score on D is below this (0-4)."""
DRILL_PHASE_ID = "drill"

RATING_RULE = (
    "A question's rating is taken from its latest main-answer grade: Again when its weakest dimension "
    "scored 0 or 1 or its overall is below 40; Hard when the overall is below 60; Good when the overall "
    "is below 85 or the weakest dimension scored 2; Easy otherwise (overall 85+ and every dimension 3+)."
)


def rating_from(overall: int, scores: Mapping[str, int]) -> Rating:
    """The FSRS rating of one graded answer (see ``RATING_RULE``).

    The weakest dimension counts as well as the overall because a polished
    answer with no failure modes at all is exactly the gap a drill should
    bring back soon, and an average would hide it.
    """
    weakest = min(scores.values()) if scores else 0
    if weakest <= 1 or overall < 40:
        return Rating.Again
    if overall < 60:
        return Rating.Hard
    if overall < 85 or weakest == 2:
        return Rating.Good
    return Rating.Easy


def scheduler() -> Scheduler:
    """FSRS with day-sized steps and no fuzzing.

    No learning steps: a question answered badly comes back the next day (an
    interview answer is not a flashcard to retry in ten minutes).  No fuzzing:
    the schedule is a pure function of the transcripts, so a rebuilt store
    gives the same due dates.
    """
    return Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False, maximum_interval=365)


# --------------------------------------------------------------------------- reviews and cards


@dataclass(frozen=True)
class Review:
    """One graded main answer: the question, when (the session's start), and what the grade said."""

    case_id: str
    question_id: str
    at: datetime
    """UTC."""
    overall: int
    scores: dict[str, int]
    transcript_id: str

    @property
    def key(self) -> str:
        return question_key(self.case_id, self.question_id)

    @property
    def rating(self) -> Rating:
        return rating_from(self.overall, self.scores)

    def as_json(self) -> dict[str, Any]:
        return {
            "case": self.case_id,
            "question": self.question_id,
            "at": self.at.isoformat(),
            "overall": self.overall,
            "scores": self.scores,
            "transcript": self.transcript_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> Review:
        """Raises ``ValueError``/``KeyError``/``TypeError`` on anything malformed (the store is then rebuilt)."""
        scores = data["scores"]
        if not isinstance(scores, dict) or not all(k in DIMENSIONS and isinstance(v, int) for k, v in scores.items()):
            raise ValueError("bad scores")
        return cls(
            case_id=str(data["case"]),
            question_id=str(data["question"]),
            at=_utc(datetime.fromisoformat(data["at"])),
            overall=int(data["overall"]),
            scores={str(k): int(v) for k, v in scores.items()},
            transcript_id=str(data["transcript"]),
        )


def question_key(case_id: str, question_id: str) -> str:
    """Question ids are unique within a case, so a card is keyed by both."""
    return f"{case_id}/{question_id}"


def _utc(when: datetime) -> datetime:
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def reviews_in(data: Any) -> list[Review]:
    """The reviews in one parsed transcript: the latest graded main answer of each question.

    Works on the raw JSON (no model validation): the store is rebuilt over
    every transcript and this is most of the cost.
    """
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        return []
    turns, case_id, tid = data.get("turns"), data.get("case_id"), data.get("id")
    if not isinstance(turns, list) or not isinstance(case_id, str) or not isinstance(tid, str):
        return []
    try:
        at = _utc(datetime.fromisoformat(str(data.get("started"))))
    except ValueError:
        return []
    latest: dict[str, Review] = {}
    for turn in turns:
        if not isinstance(turn, dict) or turn.get("kind", "question") != "question":
            continue
        grade, qid = turn.get("grade"), turn.get("question_id")
        if not isinstance(grade, dict) or not isinstance(qid, str):
            continue
        overall, dims = grade.get("overall"), grade.get("dimensions")
        if not isinstance(overall, int) or not isinstance(dims, dict):
            continue
        scores: dict[str, int] = {
            d: s["score"] for d in DIMENSIONS if isinstance(s := dims.get(d), dict) and isinstance(s.get("score"), int)
        }
        latest[qid] = Review(case_id, qid, at, overall, scores, tid)
    return list(latest.values())


def reviews_of_digest(digest: SessionDigest) -> list[Review]:
    """The reviews in a session's digest from the summary index: the same as ``reviews_in`` on its file."""
    try:
        at = _utc(datetime.fromisoformat(digest.started))
    except ValueError:
        return []
    return [
        Review(digest.case_id, q.question_id, at, q.main.overall,
               {d: q.main.scores[d] for d in DIMENSIONS if d in q.main.scores}, digest.id)
        for q in digest.questions
        if q.main is not None
    ]


def replay(reviews: Sequence[Review], sched: Scheduler | None = None) -> Card:
    """The FSRS card after ``reviews`` (oldest first) of one question."""
    sched = sched or scheduler()
    first = reviews[0]
    # A fixed card id: Card() without one reads the clock and sleeps a millisecond to stay unique.
    card = Card(card_id=zlib.crc32(first.key.encode()), due=first.at)
    for review in reviews:
        card, _ = sched.review_card(card, review.rating, review.at)
    return card


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
        card.due = _utc(card.due)
        if card.last_review is not None:
            card.last_review = _utc(card.last_review)
        return cls(card, int(data["reviews"]), Review.from_json(data["last"]))


@dataclass
class _File:
    """One transcript file as last seen: its size and mtime, and its reviews (decoded only when needed).

    Every review of a file shares its case, transcript and time, so they are
    kept once, and each review is ``[question id, overall, [4 scores or null]]``:
    the store stays small enough to read on every look at the queue.
    """

    size: int
    mtime_ns: int
    case_id: str = ""
    transcript_id: str = ""
    at: str = ""
    raw: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, size: int, mtime_ns: int, reviews: Sequence[Review]) -> _File:
        if not reviews:
            return cls(size, mtime_ns)
        first = reviews[0]
        raw = [[r.question_id, r.overall, [r.scores.get(d) for d in DIMENSIONS]] for r in reviews]
        return cls(size, mtime_ns, first.case_id, first.transcript_id, first.at.isoformat(), raw)

    def keys(self) -> set[str]:
        return {question_key(self.case_id, str(r[0])) for r in self.raw}

    def reviews(self) -> list[Review]:
        if not self.raw:
            return []
        at = _utc(datetime.fromisoformat(self.at))
        out = []
        for qid, overall, scores in self.raw:
            if len(scores) != len(DIMENSIONS):
                raise ValueError("a review needs one score (or null) per dimension")
            dims: dict[str, int] = {d: int(v) for d, v in zip(DIMENSIONS, scores, strict=True) if v is not None}
            out.append(Review(self.case_id, str(qid), at, int(overall), dims, self.transcript_id))
        return out

    def as_json(self) -> dict[str, Any]:
        return {"size": self.size, "mtime_ns": self.mtime_ns, "case": self.case_id,
                "transcript": self.transcript_id, "at": self.at, "reviews": self.raw}

    @classmethod
    def from_json(cls, data: Any) -> _File:
        if not isinstance(data["reviews"], list):
            raise ValueError("reviews is not a list")
        return cls(int(data["size"]), int(data["mtime_ns"]), str(data["case"]), str(data["transcript"]),
                   str(data["at"]), data["reviews"])


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
        now = _utc(now or datetime.now(timezone.utc))
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
            queue.items[key] = Item(q.last.case_id, q.last.question_id, _utc(q.card.due), q.reviews, q.last)
        return queue

    # ------------------------------------------------------------------ internals

    def _refresh(self, files: dict[str, _File], questions: dict[str, _Question]) -> bool:
        """Bring ``files`` and ``questions`` in step with the folder; True when anything changed."""
        current = self._scan()
        self.parsed = 0
        changed = False
        replay_keys: set[str] = set()
        appended: list[Review] = []
        try:
            for name in set(files) - set(current):
                replay_keys |= files.pop(name).keys()
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
                    appended += reviews
                else:  # a regrade or a session still running: its earlier reviews may have changed
                    replay_keys |= old.keys() | {r.key for r in reviews}
            sched = scheduler()
            for review in sorted(appended, key=lambda r: (r.at, r.transcript_id)):
                q = questions.get(review.key)
                if review.key in replay_keys:
                    continue
                if q is None:
                    questions[review.key] = _Question(replay([review], sched), 1, review)
                elif (review.at, review.transcript_id) > (q.last.at, q.last.transcript_id):
                    card, _ = sched.review_card(q.card, review.rating, review.at)
                    questions[review.key] = _Question(card, q.reviews + 1, review)
                else:
                    replay_keys.add(review.key)
            if replay_keys:
                by_key: dict[str, list[Review]] = {}
                for entry in files.values():
                    if entry.keys() & replay_keys:
                        for review in entry.reviews():
                            if review.key in replay_keys:
                                by_key.setdefault(review.key, []).append(review)
                for key in replay_keys:
                    history = sorted(by_key.get(key, []), key=lambda r: (r.at, r.transcript_id))
                    if history:
                        questions[key] = _Question(replay(history, sched), len(history), history[-1])
                    else:
                        questions.pop(key, None)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreCorrupt(str(exc)) from None
        return changed

    def _scan(self) -> dict[str, tuple[int, int]]:
        """Transcript files (name -> size, mtime) as ``TranscriptStore.files`` sees them: dotfiles are not sessions."""
        return {name: (st.size, st.mtime_ns) for name, st in scan_transcript_files(self.root).items()}

    def _digested(self) -> dict[str, list[Review]]:
        """Reviews by file name, from the summary index; a file it has no digest for is parsed here instead.

        Only an index that exists is used: building one from nothing parses every transcript in full,
        which is slower than reading the few fields needed here (``reviews_in``).
        """
        from interviewer.index import INDEX_NAME

        if not (self.root / INDEX_NAME).is_file():
            return {}
        store = TranscriptStore(self.root)
        try:
            digests, _ = store.digests()
        except Exception:  # the index only saves parsing: whatever goes wrong there, parse the files here
            return {}
        return {store.path_for(d.id).name: reviews_of_digest(d) for d in digests}

    def _parse(self, path: Path) -> list[Review]:
        """A file's reviews; an unreadable or foreign file has none (the transcript commands report it)."""
        try:
            if path.stat().st_size > MAX_TRANSCRIPT_BYTES:
                return []
            return reviews_in(json.loads(path.read_bytes()))
        except (OSError, ValueError):
            return []

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
            data = json.loads(raw)
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
